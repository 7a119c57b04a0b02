"""The skirmish game's moves after a fight (SK.CONSOLIDATE): piling in toward the enemy, and
the consolidation a player proposes, checked. Models are round bases (``Circle``); no move
ever ends on another model (GEO.NO_OVERLAP)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from regiment.core import geometry as geo
from regiment.core.i18n import tr

from .scenario import COHERENCY

PILE_IN = 3.0   # inches


def spots(models: Sequence[geo.Circle]) -> tuple[tuple[float, float], ...]:
    """Models' centres as a move's event records them (to a millionth of an inch)."""
    return tuple((round(c[0], 6), round(c[1], 6)) for c in models)


def _toward(m: geo.Circle, target: geo.Circle, dist: float) -> geo.Circle:
    dx, dy = target[0] - m[0], target[1] - m[1]
    length = math.hypot(dx, dy) or 1.0
    return (m[0] + dx / length * dist, m[1] + dy / length * dist, m[2])


def pile_in(models: Sequence[geo.Circle], others: Sequence[geo.Circle],
            enemies: Sequence[geo.Circle], reach: float = PILE_IN) -> list[geo.Circle]:
    """SK.CONSOLIDATE (pile in): each model not touching an enemy moves up to ``reach`` straight
    toward the nearest enemy model, stopping in base contact, and stopping where it would first
    touch another model on its way (of its unit, another unit, or the enemy); the models
    nearest the enemy move first."""
    if not enemies:
        return list(models)
    placed = list(models)

    def nearest(m: geo.Circle) -> tuple[float, geo.Circle]:
        x, y, r = m
        hypot = math.hypot
        e = min(enemies, key=lambda e: hypot(x - e[0], y - e[1]) - e[2])
        return max(0.0, hypot(x - e[0], y - e[1]) - r - e[2]), e

    for i in sorted(range(len(placed)), key=lambda k: (nearest(placed[k])[0], k)):
        gap, target = nearest(placed[i])
        if gap <= 1e-4:
            continue
        go = min(reach, gap)
        m = placed[i]
        # only models within the move's reach can be stood on at its end
        blockers = [b for b in (*others, *enemies, *placed[:i], *placed[i + 1:])
                    if math.hypot(b[0] - m[0], b[1] - m[1]) < go + m[2] + b[2]]
        go = geo.circle_run(m, (target[0] - m[0], target[1] - m[1]), go, blockers)
        placed[i] = _toward(placed[i], target, go)
    return placed


def consolidate_problem(before: Sequence[geo.Circle], after: Sequence[geo.Circle],
                        others: Sequence[geo.Circle], enemies: Sequence[geo.Circle],
                        distance: float) -> str:
    """SK.CONSOLIDATE: why a proposed consolidation is not allowed ("" when it is): every model
    moves at most ``distance`` (the D6 rolled), none into base contact with an enemy it did
    not touch before (a pile in toward the nearest enemy model may have left one touching a
    unit outside the fight; the rule forbids only new contact), none onto another model, and
    the unit keeps its coherency (in no more groups than before)."""
    if len(before) != len(after):
        return tr("every model must be placed again, no more and no fewer")
    for k, (a, b) in enumerate(zip(before, after, strict=True)):
        if math.hypot(a[0] - b[0], a[1] - b[1]) > distance + geo.EPS:
            return tr("model {k} would move more than {distance}\"", k=k + 1,
                      distance=format(distance, "g"))
        if any(geo.circle_gap(b, e) <= 1e-4 < geo.circle_gap(a, e) for e in enemies):
            return tr("model {k} would touch an enemy: a consolidation makes no new contact",
                      k=k + 1)
        if any(geo.circles_overlap(b, o) for o in [*others, *after[:k], *after[k + 1:]]):
            return tr("model {k} would stand on another model", k=k + 1)
    if groups(after) > groups(before):
        return tr("the unit would break its coherency ({coherency}\")",
                  coherency=format(COHERENCY, "g"))
    return ""


def fall_back(models: Sequence[geo.Circle], enemies: Sequence[geo.Circle],
              others: Sequence[geo.Circle], distance: float, width: float, depth: float
              ) -> tuple[list[geo.Circle], bool]:
    """SK.FALL_BACK: a unit that fails its morale check falls back ``distance`` (2D6) straight
    away from the enemy (from the enemy models' centre through its own; with none on the
    table, from the table's middle), as a body; it ends
    clear of any model it would stand on, moving on until it is; a model that would leave the
    table takes the unit off it (True)."""
    def centre(cs: Sequence[geo.Circle]) -> tuple[float, float]:
        return (sum(c[0] for c in cs) / len(cs), sum(c[1] for c in cs) / len(cs))

    # with no enemy model left on the table, it falls back away from the table's middle
    (ex, ey) = centre(enemies) if enemies else (width / 2, depth / 2)
    (mx, my) = centre(models)
    dx, dy = mx - ex, my - ey
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    go = distance
    while True:
        moved = [(c[0] + ux * go, c[1] + uy * go, c[2]) for c in models]
        if not all(geo.circle_on_table(c, width, depth) for c in moved):
            return moved, True
        if not any(geo.circle_blocked(c, [*others, *enemies]) for c in moved):
            return moved, False
        go += 0.1


def consolidate_toward(models: Sequence[geo.Circle], others: Sequence[geo.Circle],
                       enemies: Sequence[geo.Circle], toward: Sequence[geo.Circle],
                       distance: float) -> list[geo.Circle]:
    """SK.CONSOLIDATE: each model moves up to ``distance`` straight toward the nearest model
    of ``toward``, stopping an inch short of any enemy (a consolidation makes no new contact)
    and never onto another model; the models nearest first, so that the unit keeps together.
    A model whose move would break the unit's coherency (or leave it in more groups than it
    stood in, after casualties) moves less, or not at all."""
    placed = list(models)

    def nearest(m: geo.Circle) -> geo.Circle:
        return min(toward, key=lambda t: geo.circle_gap(m, t))

    for i in sorted(range(len(placed)), key=lambda k: (geo.circle_gap(placed[k],
                                                                      nearest(placed[k])), k)):
        m = placed[i]
        target = nearest(m)
        go = min(distance, max(0.0, geo.circle_gap(m, target) - 1.0))
        blockers = [b for b in (*others, *enemies, *placed[:i], *placed[i + 1:])
                    if math.hypot(b[0] - m[0], b[1] - m[1]) < go + m[2] + b[2]]
        before = groups(placed)
        for k in range(21):
            c = _toward(m, target, go * (1 - k / 20))
            if any(geo.circle_gap(c, e) < 1.0 - geo.EPS for e in enemies) or \
                    geo.circle_blocked(c, blockers):
                continue
            if groups([*placed[:i], c, *placed[i + 1:]]) <= before:
                placed[i] = c
                break
    return placed


def groups(models: Sequence[geo.Circle]) -> int:
    """SK.UNITS: how many groups a unit's models stand in, each model within 2" of another of
    its group (1: in coherency)."""
    left = set(range(len(models)))
    hypot = math.hypot
    reach = COHERENCY + geo.EPS
    count = 0
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            x, y, r = models[todo.pop()]
            near = [j for j in left
                    if hypot(x - models[j][0], y - models[j][1]) - r - models[j][2] <= reach]
            left.difference_update(near)
            todo.extend(near)
    return count
