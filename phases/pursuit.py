"""Flee, pursuit and reform moves (FP.*, REF.*): where units end up, as pure functions."""

from __future__ import annotations

from regiment.core import geometry as geo
from regiment.core.state import GameState, UnitState

from .combat import Combat, models_in_contact, touching
from .units import ALIVE, box, rank_sizes


def flee_from(state: GameState, unit: UnitState, foes: list[UnitState]) -> UnitState | None:
    """FP.FLEE_DIRECTION: flee from the enemy unit with the most ranks at least 5 models wide
    (ties: the first in the scenario's order, a reading of "at random" that keeps replays
    exact without another roll)."""
    if not foes:
        return None

    def wide_ranks(u: UnitState) -> int:
        return sum(1 for r in rank_sizes(u) if r >= 5)

    return max(foes, key=wide_ranks)


def pursue_move(state: GameState, unit: UnitState, heading: float, dist: float,
                quarry: str | None, pivot: bool
                ) -> tuple[geo.Box, geo.Point | None, str | None, float]:
    """FP.PURSUE_MOVE, FP.PIVOT_CONTACT, FP.FRESH_ENEMY, FP.OFF_TABLE: pivot (pursuit) to
    ``heading``, then move up to ``dist``: stop 1" short of friends and of fleeing units not
    caught, stop in contact with a fresh enemy (a charge), leave the table at its edge.
    Returns (box, the edge point if it left, the fresh enemy contacted, distance moved)."""
    start = geo.pivoted(box(unit), heading) if pivot else box(unit)
    table = state.table
    fresh: list[UnitState] = []
    blockers: list[geo.Box] = []
    for o in state.units.values():
        if o.id == unit.id or o.id == quarry or o.status not in ALIVE:
            continue
        if o.player != unit.player and o.status == "ready":
            fresh.append(o)
        else:
            blockers.append(box(o))
    for e in fresh:  # FP.PIVOT_CONTACT: the pivot itself may bring the front into contact
        if geo.polygon(start).distance(geo.polygon(box(e))) <= 1e-3:
            return geo.rounded(start), None, e.id, 0.0
    run = geo.free_run(start, heading, dist, blockers, 1.0)
    hit: tuple[float, str] | None = None
    for e in fresh:
        t = geo.first_contact(start, heading, run, box(e))
        if t is not None and (hit is None or t < hit[0]):
            hit = (t, e.id)
    edge_t, point = geo.edge_time(start, heading, table["width"], table["depth"])
    if edge_t <= (hit[0] if hit else run):
        return geo.rounded(geo.moved(start, edge_t, heading)), point, None, edge_t
    if hit is not None:
        return geo.rounded(geo.moved(start, hit[0], heading)), None, hit[1], hit[0]
    return geo.rounded(geo.moved(start, run, heading)), None, None, run


def reform_options(state: GameState, combat: Combat, u: UnitState
                   ) -> list[tuple[int, str, int, geo.Box]]:
    """REF.WHO, REF.PLACEMENT, REF.CONTACT: the reforms open to ``u``: turn to face an enemy in
    its flank or rear, or change frontage by up to two files either way, where the unit keeps
    at least as many models in contact, the enemy exactly as many, and touches no other unit.
    A unit fought from two or more sides may not reform."""
    foes = touching(state, combat, u.id)
    if not foes or len({side for _, side in foes}) != 1:
        return []
    e, side = foes[0]
    mine, _ = models_in_contact(u, e)
    theirs, _ = models_in_contact(e, u)
    out: list[tuple[int, str, int, geo.Box]] = []
    candidates: list[tuple[int, str, UnitState]] = []
    if side != "front":
        their_side = geo.contact(box(e), box(u))
        if their_side is not None:
            b = geo.landing(box(u), box(e), their_side[0])
            candidates.append((u.files, e.id, u.evolve(position=(b.x, b.y), facing=b.facing)))
    else:
        for files in range(max(1, u.files - 2), min(u.models, u.files + 2) + 1):
            if files != u.files:
                candidates.append((files, "", u.evolve(files=files)))
    others = [box(o) for o in state.units.values()
              if o.id not in (u.id, e.id) and o.status in ALIVE]
    table = state.table
    for files, face, moved in candidates:
        b = box(moved)
        if not geo.on_table(b, table["width"], table["depth"]):
            continue
        if any(geo.gap(b, o) < 1e-3 for o in others):
            continue
        if models_in_contact(moved, e)[0] < mine or models_in_contact(e, moved)[0] != theirs:
            continue
        out.append((files, face, 0, geo.rounded(b)))
    return out


def free_reform_options(state: GameState, u: UnitState) -> list[tuple[int, str, int, geo.Box]]:
    """CR.NO_MORE_FOES: a winner left with no foe may reform freely: turn about its centre by
    90, 180 or 270 degrees, or change its frontage by up to two files. It must stay on the
    table and may touch no unit, nor come within 1" of an enemy."""
    turned = [(u.files, t, geo.pivoted(box(u), (u.facing + t) % 360)) for t in (90, 180, 270)]
    widths = [(f, 0, box(u.evolve(files=f)))
              for f in range(max(1, u.files - 2), min(u.models, u.files + 2) + 1) if f != u.files]
    table = state.table
    out: list[tuple[int, str, int, geo.Box]] = []
    for files, turn, b in (*turned, *widths):
        if not geo.on_table(b, table["width"], table["depth"]):
            continue
        if any(geo.gap(b, box(o)) < (1.0 if o.player != u.player else 1e-3)
               for o in state.units.values() if o.id != u.id and o.status in ALIVE):
            continue
        out.append((files, "", turn, geo.rounded(b)))
    return out
