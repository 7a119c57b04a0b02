"""The few ways an applier makes a new state: a change of the turn's context, of the fight, of
a unit, and a unit leaving its combat. Shared by every applier of the rulebook."""

from __future__ import annotations

from typing import Any

from regiment.core.state import _new, _set

from .state import Fight, State
from .values import Status


def with_context(s: State, **changes: Any) -> State:
    return s.evolve(context=s.context.evolve(**changes))


def with_fight(s: State, **changes: Any) -> State:
    # the two evolves written out: this is the most frequent change of a combat's replay
    was = s.fight
    if was is None:
        raise KeyError("no combat is being fought")
    fight = _new(Fight)
    _set(fight, "__dict__", {**was.__dict__, **changes})
    state = _new(State)
    _set(state, "__dict__", {**s.__dict__, "fight": fight})
    return state


def the_fight(s: State) -> Fight:
    fight = s.fight
    if fight is None:
        raise KeyError("no combat is being fought")
    return fight


def with_unit(s: State, uid: str, **changes: Any) -> State:
    return s.with_unit(s.units[uid].evolve(**changes))


def leave(s: State, *uids: str) -> State:
    """Units leave whatever combat they were in, and are no longer engaged."""
    combats = {k: c.evolve(units=tuple(u for u in c.units if u not in uids))
               if any(u in c.units for u in uids) else c for k, c in s.combats.items()}
    units = dict(s.units)
    for uid in uids:
        if units[uid].status == "engaged":
            units[uid] = units[uid].evolve(status=Status.READY)
    return s.evolve(combats=combats, units=units)
