"""GEO.DISTANCE for round bases: a model as a circle (its centre and radius, in inches)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .shapes import EPS

Circle = tuple[float, float, float]


def circle_gap(a: Circle, b: Circle) -> float:
    """GEO.DISTANCE between two round bases: edge to edge, 0 when they touch or overlap."""
    return max(0.0, math.hypot(a[0] - b[0], a[1] - b[1]) - a[2] - b[2])


def circles_overlap(a: Circle, b: Circle) -> bool:
    """Whether two round bases share area (touching is not overlapping)."""
    return math.hypot(a[0] - b[0], a[1] - b[1]) < a[2] + b[2] - 1e-4


def circle_blocked(c: Circle, others: Sequence[Circle]) -> bool:
    """Whether a base placed at ``c`` would cut into any of ``others`` at all: the strict test
    a move's end is chosen by, so that positions written to six decimals never overlap."""
    x, y, r = c
    hypot = math.hypot
    for o in others:  # noqa: SIM110 - a loop, not any(): moves ask it thousands of times
        if hypot(x - o[0], y - o[1]) < r + o[2] - 1e-6:
            return True
    return False


def circle_run(c: Circle, toward: tuple[float, float], dist: float,
               others: Sequence[Circle]) -> float:
    """How far a base at ``c`` goes straight along ``toward`` (a direction), up to ``dist``,
    before it first touches one of ``others`` (solved exactly, base by base); 0 when it
    touches one already and moves into it."""
    x, y, r = c
    length = math.hypot(*toward) or 1.0
    ux, uy = toward[0] / length, toward[1] / length
    go = dist
    for ox, oy, orad in others:
        dx, dy = x - ox, y - oy
        reach = r + orad
        b = dx * ux + dy * uy
        inside = dx * dx + dy * dy - reach * reach
        if inside <= 0:
            if b < 0:          # touching (or on) it already, and moving into it
                return 0.0
            continue
        disc = b * b - inside
        if disc < 0 or b >= 0:
            continue           # the path passes it by, or leads away from it
        go = min(go, -b - math.sqrt(disc))
    return max(0.0, go)


def circle_on_table(c: Circle, width: float, depth: float) -> bool:
    return c[2] - EPS <= c[0] <= width - c[2] + EPS and c[2] - EPS <= c[1] <= depth - c[2] + EPS


def chained(circles: list[Circle], reach: float) -> bool:
    """Whether the bases form one group, each within ``reach`` (edge to edge) of another of
    them, one after another: a unit in coherency."""
    if len(circles) <= 1:
        return True
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j, c in enumerate(circles):
            if j not in seen and circle_gap(circles[i], c) <= reach + EPS:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(circles)
