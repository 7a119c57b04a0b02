"""How the events of panic, flight, rally and returns (PANIC.*, FP.FLEE_ROLL, RALLY.TEST,
FP.OFF_TABLE) change the state."""

from __future__ import annotations

from typing import Any

from ..evolve import with_context, with_fight, with_unit
from ..state import State
from ..values import Status
from . import events as ev


def unit_fled(s: State, e: ev.UnitFled) -> State:
    s = with_unit(s, e.unit, status=Status.FLEEING)
    fight = s.fight
    if fight is not None and e.unit in fight.broken:
        s = with_fight(s, fled={**fight.fled, e.unit: e.distance})
    return s


def unit_rallied(s: State, e: ev.UnitRallied) -> State:
    return with_unit(s, e.unit, status=Status.READY)


def panic_caused(s: State, e: ev.PanicCaused) -> State:
    return with_context(s, panic=(*s.context.panic, *e.units))


def dangerous_terrain(s: State, e: ev.DangerousTerrainTested) -> State:
    u = s.units[e.unit]
    total = u.wounded + e.lost
    w = u.profile["W"]
    return with_unit(s, e.unit, models=u.models - total // w, wounded=total % w)


def unit_returned(s: State, e: ev.UnitReturned) -> State:
    s = with_context(s, returned=(*s.context.returned, e.unit))
    if e.position is None:   # table mode: the players placed it
        return with_unit(s, e.unit, status=Status.READY, left_at=None)
    return with_unit(s, e.unit, status=Status.READY, left_at=None, position=tuple(e.position),
                 facing=e.facing)


APPLIERS: dict[type[Any], Any] = {
    ev.UnitFled: unit_fled,
    ev.UnitRallied: unit_rallied,
    ev.PanicCaused: panic_caused,
    ev.DangerousTerrainTested: dangerous_terrain,
    ev.UnitReturned: unit_returned,
}
