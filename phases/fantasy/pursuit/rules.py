"""FP.*: where fleeing and pursuing units end up, as pure functions."""

from __future__ import annotations

from regiment.core import geometry as geo

from ..rulings import ruled
from ..state import Pursuit, State, UnitState
from ..units import ALIVE, box, rank_sizes


def flee_from(state: State, unit: UnitState, foes: list[UnitState]) -> list[UnitState]:
    """FP.FLEE_DIRECTION: the enemy units the unit may flee from: those with the most ranks
    at least 5 models wide, and among them the most numerous (S0 p.60 names both: the ranks
    decide, and its worked example turns on them; the numbers part a tie); when several still
    tie, a die chooses. Games begun before engine 0.5.0 went from the ranks to the die."""
    if not foes:
        return []

    def wide_ranks(u: UnitState) -> int:
        return sum(1 for r in rank_sizes(u) if r >= 5)

    most = max(wide_ranks(f) for f in foes)
    tied = [f for f in foes if wide_ranks(f) == most]
    if len(tied) > 1 and ruled(state, "flee_from_the_most_numerous"):
        largest = max(f.models for f in tied)
        tied = [f for f in tied if f.models == largest]
    return tied


def pursue_move(state: State, unit: UnitState, heading: float, dist: float, pivot: bool
                ) -> tuple[geo.Box, geo.Point | None, str | None, float]:
    """FP.PURSUE_MOVE, FP.PIVOT_CONTACT, FP.FRESH_ENEMY, FP.OFF_TABLE: pivot (pursuit) to
    ``heading``, then move up to ``dist``: stop 1" short of friends and of fleeing units
    (the one it pursues too, when it escaped), stop in contact with a fresh enemy (a charge;
    one already fighting is joined in its combat), leave the table at its edge.
    Returns (box, the edge point if it left, the fresh enemy contacted, distance moved)."""
    start = geo.pivoted(box(unit), heading) if pivot else box(unit)
    table = state.table
    fresh: list[UnitState] = []
    blockers: list[geo.Box] = []
    for o in state.units.values():
        if o.id == unit.id or o.status not in ALIVE:
            continue
        if o.player != unit.player and o.status in ("ready", "engaged"):
            fresh.append(o)
        else:
            blockers.append(box(o))
    clean = ruled(state, "no_overlap")
    if pivot and clean and any(geo.overlaps(start, b) for b in blockers):
        return geo.rounded(box(unit)), None, None, 0.0   # GEO.NO_OVERLAP: it cannot turn
    for e in fresh:  # FP.PIVOT_CONTACT: the pivot itself may bring the front into contact
        # (bounds more than 1/1000" apart: the boxes are, with no distance measured)
        if not geo.apart(start, box(e), 1e-3) and geo.gap(start, box(e)) <= 1e-3:
            if clean:   # GEO.NO_OVERLAP: a turn onto the enemy ends touching it
                start = geo.moved(start, -geo.back_off(start, heading, box(e)), heading)
                if any(geo.overlaps(start, b) for b in blockers) or any(
                        geo.overlaps(start, box(o)) for o in fresh if o.id != e.id):
                    return geo.rounded(box(unit)), None, None, 0.0
            return geo.rounded(start), None, e.id, 0.0
    run = geo.free_run(start, heading, dist, blockers, 1.0)
    hit: tuple[float, str] | None = None
    for e in fresh:
        t = geo.first_contact(start, heading, run, box(e))
        if t is not None and (hit is None or t < hit[0]):
            hit = (t, e.id)
    edge_t, point = geo.edge_time(start, heading, table["width"], table["depth"],
                                  middle=ruled(state, "exit_at_the_middle"))
    if edge_t <= (hit[0] if hit else run):
        return geo.rounded(geo.moved(start, edge_t, heading)), point, None, edge_t
    if hit is not None:
        return geo.rounded(geo.moved(start, hit[0], heading)), None, hit[1], hit[0]
    return geo.rounded(geo.moved(start, run, heading)), None, None, run


def stopper(state: State, unit: UnitState, heading: float, dist: float, pivot: bool,
            run: float) -> str:
    """FP.PURSUE_MOVE, GEO.NO_OVERLAP: the unit that held a pursuer ``run`` inches short of
    ``dist`` (1" away from it, or in its way as it turned), "" if none did (the table's
    edge or an enemy it charged ends a pursuit for reasons of their own)."""
    if run >= dist - 1e-6:
        return ""
    start = geo.pivoted(box(unit), heading) if pivot else box(unit)
    end = geo.moved(start, run, heading)
    best, at = "", dist
    for o in state.units.values():
        if o.id == unit.id or o.status not in ALIVE or (
                o.player != unit.player and o.status in ("ready", "engaged")):
            continue
        b = box(o)
        if pivot and run == 0.0 and geo.overlaps(start, b):
            return o.id
        # a unit more than 1" (and a whisker) from where the pursuer stopped did not stop
        # it: a move of c inches comes at most c nearer, so alone it would have let the
        # pursuer go further than 1/1000 inch past ``run`` (one distance, not a whole run)
        if not geo.within(end, b, 1.01):
            continue
        t = geo.free_run(start, heading, dist, [b], 1.0)
        if t < at - 1e-9:
            best, at = o.id, t
    return best if abs(at - run) < 1e-3 else ""


def intent(chosen: Pursuit, target: str, passed: bool | None) -> Pursuit:
    """FP.CHOOSE_PURSUIT: a unit that chose to restrain itself stays if it passes its
    Leadership test; if it fails, it pursues the broken unit it touched, or overruns when it
    had none. Until it tests, it is restraining."""
    if chosen != Pursuit.RESTRAINING or passed is None:
        return chosen
    if passed:
        return Pursuit.HELD
    return Pursuit.PURSUE if target else Pursuit.OVERRUN

