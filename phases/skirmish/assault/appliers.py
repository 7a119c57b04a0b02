"""How the events of the shooting phase and the assault sub-phase (SK.SHOOT, SK.DECLARE,
SK.OVERWATCH, SK.CHARGE_MOVE) change the state."""

from __future__ import annotations

from typing import Any

from ..evolve import with_squad
from ..state import Assault, SkirmishState
from . import events as ev

S = SkirmishState


def squad_shot(state: S, e: ev.SquadShot) -> S:
    return with_squad(state, e.unit, shot_at=e.target)


def assault_declared(state: S, e: ev.AssaultDeclared) -> S:
    state = with_squad(state, e.unit, declared=True)
    return state.evolve(assault=Assault(unit=e.unit, primary=e.primary, secondary=e.secondary,
                                        overwatch=e.overwatch))


def overwatch_chosen(state: S, e: ev.OverwatchChosen) -> S:
    assert state.assault is not None
    left = tuple(u for u in state.assault.overwatch if u != e.unit)
    state = state.evolve(assault=state.assault.evolve(overwatch=left))
    return with_squad(state, e.unit, overwatched=True) if e.fire else state


def assault_rolled(state: S, e: ev.AssaultRolled) -> S:
    assert state.assault is not None
    disordered = state.assault.secondary is not None
    state = state.evolve(assault=None)
    if not e.reached:
        return state
    return with_squad(state, e.unit, charged=True, disordered=disordered, slowed=e.slowed)


APPLIERS: dict[type[Any], Any] = {
    ev.SquadShot: squad_shot,
    ev.AssaultDeclared: assault_declared,
    ev.OverwatchChosen: overwatch_chosen,
    ev.AssaultRolled: assault_rolled,
}
