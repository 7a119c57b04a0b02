"""What the fantasy rules ask of the table: the one interface between the rules and geometry.

Each question is answered by geometry when the scenario places its units (``GEO.*``), or, in
table mode (``table.measured``: the players move real models and measure with a tape), asked of
the players as a measurement (TABLE.ASK, core.measure), with the rule that needs it. Nothing
else in the rules reads a unit's position in table mode, where units have none.

Geometry's answers are told (``core.measure.tell``) under the key table mode asks them by, so
that a test can play the same battle in table mode with them and check the same outcomes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.measure import NONE, heard
from regiment.core.measure import tell as _tell
from regiment.core.reasons import Reason
from regiment.phases.common.table import measured, yes_no
from regiment.phases.common.table import question as _q

from .rulings import ruled
from .state import State, UnitState
from .units import ALIVE, box
from .why import CHARGE_FAILED, written

SIDE_OPTIONS = ("front", "right", "rear", "left",
                "front/right", "right/rear", "rear/left", "front/left")
__all__ = ["measured", "yes_no"]   # the fantasy rules ask through this module alone


# --- distances ------------------------------------------------------------------------------


def gap(state: State, a: UnitState, b: UnitState, rule: str) -> float:
    """GEO.DISTANCE between two units, to 1/10000 inch; measured by ``a``'s player."""
    key = "distance:" + ":".join(sorted((a.id, b.id)))
    if measured(state):
        return measure.distance(state, _q(state, "distance", key, rule, a, b.id))
    d = round(geo.gap(box(a), box(b)), 4)
    if heard:
        _tell(key, format(d, "g"))
    return d


def nearest_enemy(state: State, unit: UnitState, rule: str) -> UnitState | None:
    """The enemy unit nearest to ``unit`` (FP.FLEE_DIRECTION, RALLY.TEST)."""
    foes = [u for u in state.units.values() if u.player != unit.player and u.status in ALIVE]
    if not foes:
        return None
    key = measure.key("nearest", unit.id)
    if measured(state):
        if len(foes) == 1:
            return foes[0]
        q = _q(state, "unit", key, rule, unit, options=tuple(f.id for f in foes))
        return state.units[measure.ask(state, q)]
    best = foes[geo.nearest(box(unit), [box(f) for f in foes])]
    if heard and len(foes) > 1:
        _tell(key, best.id)
    return best


def within(state: State, cause: UnitState, candidates: list[UnitState], reach: float,
           rule: str) -> list[str]:
    """The ``candidates`` within ``reach`` inches of ``cause`` (PANIC.TRIGGERS)."""
    if not candidates:
        return []
    key = measure.key("within", cause.id, format(reach, "g"))
    if measured(state):
        q = _q(state, "units", key, rule, cause, options=tuple(u.id for u in candidates),
               extra=reach)
        chosen = set(measure.units(state, q))
        return [u.id for u in candidates if u.id in chosen]
    near = _near(state, cause, candidates, reach)
    if heard:
        _tell(key, ",".join(near))
    return near


def _near(state: State, cause: UnitState, candidates: list[UnitState], reach: float
          ) -> list[str]:
    """``within`` on a mapped table: the candidates whose bounds come within ``reach`` of
    the cause's found on the state's table by bisection (``moving.rules.table_of``), not by
    a look at each (a 64-unit battle asks it at every move), then measured."""
    from .moving.rules import placed_near, table_of

    here = box(cause)
    t = table_of(state)
    hits = placed_near(t, geo.grown(geo.bounds(here), reach + 1e-3), cause.id)
    return [u.id for u in candidates
            if (u.id in hits if u.id in t.ids else not geo.apart(box(u), here, reach + 1e-3))
            and round(geo.gap(box(u), here), 4) <= reach]


# --- charges --------------------------------------------------------------------------------


def charge_sides(state: State, unit: UnitState, target: UnitState) -> tuple[str, ...]:
    """CH.CHARGE_MOVE: the side of ``target`` whose arc holds most of the charger's front (two
    when it is split evenly: a die decides)."""
    if measured(state):
        q = _q(state, "side", measure.key("side", unit.id, target.id), "CH.CHARGE_MOVE", unit,
               target.id, SIDE_OPTIONS)
        return tuple(measure.ask(state, q).split("/"))
    sides = geo.facing_sides(box(unit), box(target))
    if heard:   # (the key is written only for a listener: the sides' drive asks every pair)
        _tell(measure.key("side", unit.id, target.id), "/".join(sides[:2]))
    return sides


def room(state: State, unit: UnitState, target: UnitState, side: str,
         plan: Callable[[], tuple[geo.Box | None, Reason | None]]
         ) -> tuple[geo.Box | None, Reason | None]:
    """CH.CHARGE_MOVE: where the charger lands (geometry's ``plan``), or why it cannot get
    there; in table mode only whether it can (no position)."""
    key = measure.key("room", unit.id, target.id)
    if measured(state):
        q = _q(state, "yes_no", key, "CH.CHARGE_MOVE", unit, target.id)
        return None, (None if measure.yes(state, q) else
                      written(CHARGE_FAILED, state, "no_room_measured", target=target.id,
                              side=side))
    end, why = plan()
    if heard:
        _tell(key, "yes" if end is not None else "no")
    return end, why


def also_touched(state: State, unit: UnitState, target: UnitState,
                 end: geo.Box | None) -> list[str]:
    """CH.CHARGE_MOVE: enemies already fighting that the charger touches beside its target
    (it joins their combat)."""
    fighting = [e for e in state.units.values() if e.status == "engaged"
                and e.player != unit.player and e.id != target.id and e.joined is None]
    if not fighting:
        return []
    key = measure.key("touches", unit.id, target.id)
    if measured(state):
        q = _q(state, "units", key, "CH.CHARGE_MOVE", unit, target.id,
               tuple(e.id for e in fighting))
        return list(measure.units(state, q))
    assert end is not None
    touched = [e.id for e in fighting if geo.within(end, box(e), 1e-3)]
    if heard:
        _tell(key, ",".join(touched))
    return touched


# --- flee moves -----------------------------------------------------------------------------


class Flee(NamedTuple):
    """A flee move: where it ends (None in table mode), whether it reached the table edge,
    the units it passed through."""

    end: geo.Box | None
    off: bool
    through: list[str]


def flee(state: State, unit: UnitState, away: UnitState | None, dist: float,
         move: Callable[[], tuple[geo.Box, geo.Point | None, list[str]]]) -> Flee:
    """FP.OFF_TABLE, FP.FLEE_THROUGH: does the flee move reach the table edge, and which enemy
    does it pass through (the first, if several)?"""
    # FP.FLEE_DIRECTION: it flees straight away from ``away``, so it cannot pass through it
    foes = tuple(u.id for u in state.units.values()
                 if u.player != unit.player and u.status in ALIVE
                 and (away is None or u.id != away.id))
    if measured(state):
        off, hit = _edge_or_enemy(state, unit, dist, foes, "flee_edge", "flee_through",
                                  "FP.FLEE_THROUGH")
        return Flee(None, off, [] if hit is None else [hit])
    end, edge, through = move()
    _told_edge_or_enemy(state, unit, edge, foes, next((u for u in through if u in foes), None),
                        "flee_edge", "flee_through")
    return Flee(end, edge is not None, through)


def _edge_or_enemy(state: State, unit: UnitState, dist: float, foes: tuple[str, ...],
                   edge: str, enemy: str, rule: str) -> tuple[bool, str | None]:
    """At a table: does a move of ``dist`` reach the table edge (FP.OFF_TABLE), and if not,
    which of ``foes`` does it meet (or none)?"""
    q = _q(state, "yes_no", measure.key(edge, unit.id), "FP.OFF_TABLE", unit, extra=dist)
    if measure.yes(state, q):
        return True, None
    if not foes:
        return False, None
    q = _q(state, "unit", measure.key(enemy, unit.id), rule, unit, options=(*foes, NONE),
           extra=dist)
    hit = measure.ask(state, q)
    if hit == NONE:
        return False, None
    if ruled(state, "meet_measured"):   # it must be within the move (games from 0.9.0)
        gap_key = measure.key(f"{enemy}_gap", unit.id)
        measure.distance(state, _q(state, "distance", gap_key, rule, unit, hit, most=dist,
                                   extra=dist))
    return False, hit


def _told_edge_or_enemy(state: State, unit: UnitState, point: geo.Point | None,
                        foes: tuple[str, ...], hit: str | None, edge: str, enemy: str) -> None:
    """Geometry's answers to ``_edge_or_enemy``, told (for ``core.measure.heard``)."""
    if heard:
        _tell(measure.key(edge, unit.id), "yes" if point is not None else "no")
        if point is None and foes:
            _tell(measure.key(enemy, unit.id), hit or NONE)
        if point is None and hit is not None and hit in state.units:
            gap = geo.gap(box(unit), box(state.units[hit]))
            _tell(measure.key(f"{enemy}_gap", unit.id), format(round(gap, 4), "g"))


# --- pursuits and reforms -------------------------------------------------------------------


class Pursuit(NamedTuple):
    """A pursuit or overrun: where it ends (None in table mode), whether it left the table and
    the point it left by (None in table mode), the fresh enemy it ran into (or None), how
    far it went."""

    end: geo.Box | None
    off: bool
    edge: geo.Point | None
    fresh: str | None
    run: float


def pursue(state: State, unit: UnitState, dist: float,
           move: Callable[[], tuple[geo.Box, geo.Point | None, str | None, float]]) -> Pursuit:
    """FP.OFF_TABLE, FP.FRESH_ENEMY: does the pursuit reach the table edge, or run into a
    fresh enemy unit (which)?"""
    foes = tuple(o.id for o in state.units.values() if o.id != unit.id and o.player !=
                 unit.player and o.status in ("ready", "engaged") and o.joined is None)
    if measured(state):
        off, hit = _edge_or_enemy(state, unit, dist, foes, "pursue_edge", "pursue_into",
                                  "FP.FRESH_ENEMY")
        return Pursuit(None, off, None, hit, dist)
    end, edge, fresh, run = move()
    _told_edge_or_enemy(state, unit, edge, foes, fresh, "pursue_edge", "pursue_into")
    return Pursuit(end, edge is not None, edge, fresh, run)


def reform_room(state: State, unit: UnitState, how: str) -> bool:
    """REF.PLACEMENT, REF.CONTACT: in table mode, whether the reform chosen fits (on the
    table, no model moving more than twice its Movement, touching no new unit, contact kept);
    geometry offers only the reforms that fit."""
    return yes_no(state, measure.key("reform", unit.id), "REF.PLACEMENT", unit, how, lambda: True)


# --- hills ----------------------------------------------------------------------------------


def hills(state: State) -> bool:
    """Whether the battle has hills: mapped (geometry) or on the players' table."""
    return bool(state.table.get("hills") or state.table.get("hills_at_table"))


def down_hill(state: State, unit: UnitState, geometric: Callable[[], bool]) -> bool:
    """CR.CHARGE: the charger came down off a hill (it stood half on one and ends off it)."""
    if not hills(state):
        return False
    return yes_no(state, measure.key("down_hill", unit.id), "CR.CHARGE", unit, "", geometric)


def on_hills(state: State, combat: str, units: list[UnitState],
             geometric: Callable[[UnitState], bool]) -> set[str]:
    """CR.HIGH_GROUND: which of a combat's ``units`` stand at least half on a hill."""
    if not hills(state) or not units:
        return set()
    key = measure.key("on_hill", combat)
    if measured(state):
        q = _q(state, "units", key, "CR.HIGH_GROUND", units[0],
               options=tuple(u.id for u in units))
        return set(measure.units(state, q))
    up = {u.id for u in units if geometric(u)}
    if heard:
        _tell(key, ",".join(u.id for u in units if u.id in up))
    return up
