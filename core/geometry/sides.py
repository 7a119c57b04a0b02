"""GEO.ARCS: the sides of a box that a moving box faces, and the places flush against a side
where the moving box stops."""

from __future__ import annotations

import math
from functools import lru_cache

from . import lazy_shapely as shp
from .shapes import (
    SIDES,
    Box,
    Point,
    apart,
    arc,
    arc_region,
    corners,
    gap,
    inward_edges,
    overlaps,
    wedge,
)

CLEAR_OF = 1e-7   # a point this far inside an arc's wedge is in no other's, to shapely too


def front_edge(b: Box) -> shp.LineString:
    fl, fr, _, _ = corners(b)
    return shp.LineString([fl, fr])


def side_shares(mover: Box, target: Box) -> dict[str, float]:
    """How much of ``mover``'s front edge lies in each arc of ``target``."""
    edge = front_edge(mover)
    return {s: float(arc_region(target, s).intersection(edge).length) for s in SIDES}


@lru_cache(maxsize=4096)
def facing_sides(mover: Box, target: Box) -> tuple[str, ...]:
    """GEO.ARCS: the side(s) of ``target`` whose arc holds the larger part of ``mover``'s
    front; two when the front is split exactly evenly. A front plainly inside one arc's
    wedge (both its ends more than CLEAR_OF inside it: the wedge is convex, the others share
    no point with it) is that arc's alone, with no area asked of shapely (a rulebook may ask
    it of every pair of a big battle's units each turn: issue 61)."""
    fl, fr, _, _ = corners(mover)
    side = arc(target, fl)
    if math.dist(fl, fr) > 1e-3 and _within(wedge(target, side), (fl, fr)):
        return (side,)
    shares = side_shares(mover, target)
    best = max(shares.values())
    return tuple(s for s in SIDES if abs(shares[s] - best) <= 1e-4)


def _within(tri: tuple[Point, Point, Point], points: tuple[Point, ...]) -> bool:
    """Whether every point is more than CLEAR_OF inside the triangle ``tri``."""
    edges = inward_edges(tri)
    return edges is not None and all(ux * y - uy * x - k > CLEAR_OF
                                     for ux, uy, k in edges for x, y in points)


def side_segment(b: Box, side: str) -> tuple[Point, Point]:
    """The two ends of one side of a box, left to right as seen from outside it."""
    fl, fr, br, bl = corners(b)
    return {"front": (fr, fl), "right": (br, fr), "rear": (bl, br), "left": (fl, bl)}[side]


def side_bearing(b: Box, side: str) -> float:
    """The outward bearing of one side of a box."""
    return (b.facing + {"front": 0.0, "right": 90.0, "rear": 180.0, "left": 270.0}[side]) % 360


def flush_against(mover: Box, target: Box, side: str) -> Box:
    """``mover`` with its front flush against ``side`` of ``target``, with as much of the two
    edges in contact as possible and as little sideways travel as that allows."""
    p, q = side_segment(target, side)
    length = math.dist(p, q) or 1e-9   # (a side of no length: a unit of no model)
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    slack = abs(length - mover.width) / 2
    along = (mover.x - mid[0]) * ux + (mover.y - mid[1]) * uy
    off = max(-slack, min(slack, along))
    facing = (side_bearing(target, side) + 180.0) % 360
    return Box(round(mid[0] + ux * off, 4), round(mid[1] + uy * off, 4), round(facing, 4),
               mover.width, mover.depth)


def flush_beside(mover: Box, target: Box, side: str, others: list[Box]) -> Box | None:
    """``flush_against`` with ``others`` already on that side: the front flush against ``side``
    of ``target``, overlapping none of ``others`` (it may touch them), with as much front in
    contact as it can have and then as little sideways travel. None when no place is free."""
    first = flush_against(mover, target, side)
    reach = mover.width + mover.depth
    near = [o for o in others if not apart(first, o, reach) and gap(first, o) < reach]
    if not any(overlaps(first, o) for o in near):
        return first
    p, q = side_segment(target, side)
    length = math.dist(p, q) or 1e-9   # (a side of no length: a unit of no model)
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    half = mover.width / 2

    def at(off: float) -> Box:
        return first._replace(x=round(mid[0] + ux * off, 4), y=round(mid[1] + uy * off, 4))

    natural = (first.x - mid[0]) * ux + (first.y - mid[1]) * uy
    along = (mover.x - mid[0]) * ux + (mover.y - mid[1]) * uy
    offsets = []
    for o in near:  # flush beside each unit already there, on either side of it
        ts = [(cx - mid[0]) * ux + (cy - mid[1]) * uy for cx, cy in corners(o)]
        offsets += [max(ts) + half, min(ts) - half]
    best: tuple[float, float, Box] | None = None
    for off in offsets:
        touch = min(off + half, length / 2) - max(off - half, -length / 2)
        if touch <= 1e-3:
            continue
        b = at(off)
        if any(overlaps(b, o) for o in near):
            continue
        key = (-round(touch, 4), abs(off - along) + abs(off - natural) * 1e-6)
        if best is None or key < best[:2]:
            best = (*key, b)
    return None if best is None else best[2]
