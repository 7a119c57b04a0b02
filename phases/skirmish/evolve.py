"""The ways a skirmish applier makes a new state: a change of a squad, and of the fight."""

from __future__ import annotations

from typing import Any

from .state import SkirmishState

S = SkirmishState


def with_squad(state: S, uid: str, **changes: Any) -> S:
    squads = dict(state.squads)
    squads[uid] = squads[uid].evolve(**changes)
    return state.evolve(squads=squads)


def with_fight(state: S, **changes: Any) -> S:
    assert state.fight is not None
    return state.evolve(fight=state.fight.evolve(**changes))


def leave_melee(state: S, uid: str) -> S:
    melee = state.melee_of(uid)
    if melee is None:
        return state
    melees = dict(state.melees)
    melees[melee.id] = melee.evolve(units=tuple(u for u in melee.units if u != uid))
    return state.evolve(melees=melees)
