"""The skirmish game's appliers: the only code that makes a new state. Each takes the state and
one event and returns the state after it; none decides anything (the flow did)."""

from __future__ import annotations

from regiment.core.events import Event, TurnBegan
from regiment.core.protocols import Applier

from . import events as ev
from .assault.appliers import APPLIERS as ASSAULT_APPLIERS
from .evolve import leave_melee, with_fight, with_squad
from .fight.appliers import APPLIERS as FIGHT_APPLIERS
from .movement.appliers import APPLIERS as MOVEMENT_APPLIERS
from .state import Melee, SkirmishState, SquadStatus, Volley

S = SkirmishState


def turn_began(state: S, e: TurnBegan) -> S:
    squads = {uid: s.evolve(shot_at=None, declared=False, overwatched=False, charged=False,
                            disordered=False, slowed=False, moved=False, terrain_roll=0,
                            turn_models=len(s.models), morale_checked=False)
              for uid, s in state.squads.items()}
    return state.evolve(squads=squads, round=state.round + 1, fought=())


def volley_began(state: S, e: ev.VolleyBegan) -> S:
    """A volley opens (none when it has no dice: a strike at a squad already gone); a
    strike of a fight leaves the step's queue."""
    if e.kind == "melee" and state.fight is not None:
        state = with_fight(state, strikes=state.fight.strikes[1:])
    if e.dice <= 0:
        return state
    return state.evolve(volley=Volley(kind=e.kind, unit=e.unit, target=e.target, dice=e.dice,
                                      need=e.need, S=e.S, AP=e.AP))


def volley_rolled(state: S, e: ev.VolleyRolled) -> S:
    if not e.then or state.volley is None:
        return state.evolve(volley=None)
    return state.evolve(volley=state.volley.evolve(stage=e.then, need=e.then_need,
                                                   dice=e.successes, cover=e.cover))


def wounds_taken(state: S, e: ev.WoundsTaken) -> S:
    s = state.squads[e.unit]
    gone = set(e.removed)
    models = tuple(c for i, c in enumerate(s.models) if i not in gone)
    state = with_squad(state, e.unit, models=models, wounds=e.left,
                   status=s.status if models else "destroyed")
    if state.fight is not None:
        caused = dict(state.fight.caused)
        caused[e.by] = caused.get(e.by, 0) + e.wounds - e.lost
        state = with_fight(state, caused=caused)
    if not models:
        state = leave_melee(state, e.unit)
    return state


def models_moved(state: S, e: ev.ModelsMoved) -> S:
    """The models where they now stand (a squad that fell back off the table left it by its
    FellBack, which comes first)."""
    radius = state.squads[e.unit].radius
    return with_squad(state, e.unit, models=tuple((x, y, radius) for x, y in e.models))


def melee_joined(state: S, e: ev.MeleeJoined) -> S:
    """Squads lock together; any combat one of them was in becomes part of this one."""
    melees = dict(state.melees)
    merged = [m for m in melees.values() if set(m.units) & set(e.units)]
    units = list(e.units)
    for m in merged:
        del melees[m.id]
        units += [u for u in m.units if u not in units]
    since = min([e.since, *(m.since for m in merged)])
    melees[e.combat] = Melee(id=e.combat, units=tuple(units), since=since)
    squads = dict(state.squads)
    for uid in units:
        squads[uid] = squads[uid].evolve(status=SquadStatus.LOCKED)
    return state.evolve(melees=melees, squads=squads)


APPLIERS: dict[type[Event], Applier] = {
    TurnBegan: turn_began,
    **ASSAULT_APPLIERS,
    **FIGHT_APPLIERS,
    **MOVEMENT_APPLIERS,
    ev.VolleyBegan: volley_began,
    ev.VolleyRolled: volley_rolled,
    ev.WoundsTaken: wounds_taken,
    ev.ModelsMoved: models_moved,
    ev.MeleeJoined: melee_joined,
}
