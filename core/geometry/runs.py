"""GEO.MOVE, GEO.NO_OVERLAP: how far a move runs before the table edge or another unit
stops it, and whether models can all reach their new places."""

from __future__ import annotations

import math

from .shapes import (
    EPS,
    Box,
    Point,
    axes,
    bounds,
    corners,
    distance,
    grown,
    moved,
    outline,
    overlap,
    overlaps,
    polygon,
)


def edge_time(b: Box, heading: float, width: float, depth: float, middle: bool = True
              ) -> tuple[float, Point]:
    """How far ``b`` can move along ``heading`` before it touches the table edge, and the
    point where it touches: a corner, or, when a whole side meets the edge at once, the middle
    of that side. ``middle=False`` gives the first corner found instead (what engines before
    0.5.0 recorded; their logs are verified with it)."""
    (hx, hy), _ = axes(heading)
    best = math.inf
    touches: list[tuple[float, int, Point]] = []   # (when, which edge, the corner there)
    for cx, cy in corners(b):
        for edge, (v, d, lo, hi) in enumerate(((cx, hx, 0.0, width), (cy, hy, 0.0, depth))):
            if d > EPS:
                t, side = (hi - v) / d, 2 * edge + 1
            elif d < -EPS:
                t, side = (lo - v) / d, 2 * edge
            else:
                continue
            t = max(t, 0.0)
            touches.append((t, side, (cx + hx * t, cy + hy * t)))
            best = min(best, t)
    if not touches:
        return best, (round(b.x, 4), round(b.y, 4))
    first = min(touches, key=lambda x: x[0])
    if not middle:
        return best, (round(first[2][0], 4), round(first[2][1], 4))
    # every corner that meets the same edge at the same moment: what touched is the segment
    # between them, and its middle is the point
    met = [p for t, side, p in touches if side == first[1] and t <= best + 1e-6]
    xs, ys = [p[0] for p in met], [p[1] for p in met]
    point = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    return best, (round(point[0], 4), round(point[1], 4))


def back_off(b: Box, heading: float, q: Box) -> float:
    """How far ``b`` must go back (against ``heading``) to stand on ``q`` no more, touching
    it at most: 0 when it does not stand on it."""
    if not overlaps(b, q):
        return 0.0
    lo, hi = 0.0, b.width + b.depth + q.width + q.depth
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if overlaps(moved(b, -mid, heading), q) else (lo, mid)
    return hi


def clear_run(b: Box, heading: float, dist: float, blockers: list[Box]) -> float:
    """How far (up to ``dist``) ``b`` can move along ``heading`` before it would stand on a
    blocker; sliding along one it touches is free (unlike ``free_run``, which keeps a
    distance and so cannot leave a neighbour's side). Steps of 0.2" find the first overlap
    (nothing a unit meets is thinner), then halving finds where it begins."""
    path = bounds(b, moved(b, dist, heading))
    blockers = [q for q in blockers if overlap(path, grown(bounds(q), EPS))]
    if not blockers:
        return dist

    def hits(t: float) -> bool:
        here = moved(b, t, heading)
        return any(overlaps(here, q) for q in blockers)

    if hits(0.0):
        return 0.0
    done = 0.0
    for i in range(1, math.ceil(dist / 0.2) + 1):
        t = min(dist, i * 0.2)
        if hits(t):
            lo, hi = done, t
            for _ in range(40):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if hits(mid) else (mid, hi)
            return lo
        done = t
    return dist


def free_run(b: Box, heading: float, dist: float, blockers: list[Box], keep: float) -> float:
    """How far (up to ``dist``) ``b`` can move along ``heading`` and stay at least ``keep``
    inches from every blocker.

    Conservative advancement: a move of ``c`` inches brings the unit at most ``c`` nearer to
    anything, so it may always go on by its clearance beyond ``keep``; it never passes
    through a blocker, and it ends where the clearance is used up (to a millionth of an
    inch), or at ``dist``."""
    path = bounds(b, moved(b, dist, heading))
    blockers = [q for q in blockers if overlap(path, grown(bounds(q), keep + EPS))]
    if not blockers:
        return dist
    t = 0.0
    for _ in range(200):
        here = moved(b, t, heading)
        clear = min(distance(here, q) for q in blockers) - keep
        if clear < -EPS and t == 0.0:
            return 0.0
        if clear <= 1e-7:
            return t
        t += clear
        if t >= dist:
            return dist
    return t


def first_contact(b: Box, heading: float, dist: float, other: Box) -> float | None:
    """How far ``b`` moves along ``heading`` before it touches ``other`` (None: it does not
    within ``dist``)."""
    if not overlap(grown(bounds(b, moved(b, dist, heading)), 2 * EPS), bounds(other)):
        return None   # (its path's bounds miss the other's: no shapes made for a far unit)
    q = polygon(other)
    swept = polygon(b).union(outline(moved(b, dist, heading))).convex_hull
    if swept.distance(q) > EPS:
        return None
    lo, hi = 0.0, dist
    for _ in range(30):   # a bisection's boxes are never asked about again: outline, not polygon
        mid = (lo + hi) / 2
        if outline(moved(b, mid, heading)).distance(q) > EPS:
            lo = mid
        else:
            hi = mid
    return hi


def within_reach(old: list[Point], new: list[Point], reach: float) -> bool:
    """Whether each point of ``old`` can go to its own point of ``new`` (as many) moving no more
    than ``reach``: a matching of the pairs no farther apart than that (Kuhn's augmenting
    paths, after two cheap answers: some point with no partner at all, or every pair near)."""
    r2 = reach * reach + EPS
    xs = [p[0] for p in old] + [p[0] for p in new]
    ys = [p[1] for p in old] + [p[1] for p in new]
    if (max(xs) - min(xs)) ** 2 + (max(ys) - min(ys)) ** 2 <= r2:
        return True   # no two points are farther apart than the corners of what holds them
    # which pairs are near enough, all at once (numpy comes with shapely; imported here, as
    # shapely is when asked: see lazy_shapely)
    import numpy as np

    gaps = np.asarray(new)[:, None, :] - np.asarray(old)[None, :, :]
    close = (gaps * gaps).sum(axis=2) <= r2
    if not close.any(axis=1).all() or not close.any(axis=0).all():
        return False
    if close.all():
        return True
    near = [np.flatnonzero(row).tolist() for row in close]
    owner = [-1] * len(old)

    def place(i: int, seen: list[bool]) -> bool:
        for j in near[i]:
            if not seen[j]:
                seen[j] = True
                if owner[j] < 0 or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(place(i, [False] * len(old)) for i in range(len(new)))
