"""Table geometry (GEO.*): what the rules ask of the table, answered with plain vector maths
where it is a formula and with shapely where it is a question about areas.

Coordinates are inches; (0, 0) is the table's bottom-left corner. A unit is a ``Box``: the
centre of its front edge, a bearing (0 faces +y, 90 faces +x), and its width and depth. The
rules ask geometry only through these functions, so a tabletop mode can answer the same
questions from measurements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

MM_PER_INCH = 25.4
EPS = 1e-6
SIDES = ("front", "right", "rear", "left")
Point = tuple[float, float]


class Box(NamedTuple):
    x: float
    y: float
    facing: float
    width: float
    depth: float

    @property
    def position(self) -> Point:
        return (self.x, self.y)


def unit_size(models: int, files: int, base: tuple[float, float]) -> tuple[float, float]:
    """Width and depth in inches of a block of ``models``, ``files`` abreast."""
    rows = -(-models // files)
    return files * base[0] / MM_PER_INCH, rows * base[1] / MM_PER_INCH


@lru_cache(maxsize=1024)
def axes(facing: float) -> tuple[Point, Point]:
    """The unit vectors forward and to the right of a bearing."""
    rad = math.radians(facing)
    return (math.sin(rad), math.cos(rad)), (math.cos(rad), -math.sin(rad))


def bearing(frm: Point, to: Point) -> float:
    """The bearing in degrees [0, 360) from one point toward another."""
    return math.degrees(math.atan2(to[0] - frm[0], to[1] - frm[1])) % 360.0


def turn_between(a: float, b: float) -> float:
    """The smallest angle, in degrees, that turns bearing ``a`` into ``b``."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


@lru_cache(maxsize=8192)
def corners(b: Box) -> tuple[Point, Point, Point, Point]:
    """Front-left, front-right, back-right, back-left."""
    (fx, fy), (rx, ry) = axes(b.facing)
    hw = b.width / 2
    fl = (b.x - rx * hw, b.y - ry * hw)
    fr = (b.x + rx * hw, b.y + ry * hw)
    return fl, fr, (fr[0] - fx * b.depth, fr[1] - fy * b.depth), \
        (fl[0] - fx * b.depth, fl[1] - fy * b.depth)


def bounds(*boxes: Box) -> tuple[float, float, float, float]:
    """The axis-aligned rectangle (min x, min y, max x, max y) around some boxes."""
    if len(boxes) == 1:
        return _bounds(boxes[0])
    xs = [x for b in boxes for x, _ in corners(b)]
    ys = [y for b in boxes for _, y in corners(b)]
    return min(xs), min(ys), max(xs), max(ys)


@lru_cache(maxsize=8192)
def _bounds(b: Box) -> tuple[float, float, float, float]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners(b)
    return min(x0, x1, x2, x3), min(y0, y1, y2, y3), max(x0, x1, x2, x3), max(y0, y1, y2, y3)


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _grown(r: tuple[float, float, float, float], d: float) -> tuple[float, float, float, float]:
    return r[0] - d, r[1] - d, r[2] + d, r[3] + d


def within(a: Box, b: Box, d: float) -> bool:
    """Whether two footprints are less than ``d`` apart (a cheap look at their bounding
    rectangles first: most units on a table are nowhere near each other)."""
    ax0, ay0, ax1, ay1 = bounds(a)
    bx0, by0, bx1, by1 = bounds(b)
    if ax0 - d > bx1 or bx0 - d > ax1 or ay0 - d > by1 or by0 - d > ay1:
        return False
    return distance(a, b) < d


def polygon(b: Box) -> Polygon:
    return Polygon(corners(b))


def centre(b: Box) -> Point:
    (fx, fy), _ = axes(b.facing)
    return (b.x - fx * b.depth / 2, b.y - fy * b.depth / 2)


@lru_cache(maxsize=8192)
def gap(a: Box, b: Box) -> float:
    """GEO.DISTANCE between two boxes."""
    return distance(a, b)


def distance(a: Box, b: Box) -> float:
    """The shortest distance between two footprints: 0 when they touch or overlap, else the
    least distance from a corner of one to a side of the other (plain vector maths: moves ask
    it dozens of times a step)."""
    ca, cb = corners(a), corners(b)
    if _apart_axis(a, b, ca, cb, 0.0) is None:
        return 0.0
    best = math.inf
    for pts, poly in ((ca, cb), (cb, ca)):
        for i in range(4):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % 4]
            dx, dy = x1 - x0, y1 - y0
            length2 = dx * dx + dy * dy
            for px, py in pts:
                t = 0.0 if length2 == 0.0 else \
                    max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
                best = min(best, math.hypot(px - x0 - t * dx, py - y0 - t * dy))
    return best


def _apart_axis(a: Box, b: Box, ca: tuple[Point, ...], cb: tuple[Point, ...], slack: float
                ) -> float | None:
    """Separating axes: the first edge direction along which the two rectangles' shadows
    overlap by no more than ``slack`` (None: they overlap along all four)."""
    for facing in (a.facing, a.facing + 90.0, b.facing, b.facing + 90.0):
        (ux, uy), _ = axes(facing)
        pa = [x * ux + y * uy for x, y in ca]
        pb = [x * ux + y * uy for x, y in cb]
        if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= slack:
            return facing
    return None


def local(b: Box, p: Point) -> Point:
    """``p`` in the box's own frame: (to the right, forward) of its centre."""
    (fx, fy), (rx, ry) = axes(b.facing)
    cx, cy = centre(b)
    dx, dy = p[0] - cx, p[1] - cy
    return dx * rx + dy * ry, dx * fx + dy * fy


def arc(b: Box, p: Point) -> str:
    """GEO.ARCS: the arc of ``b`` (front, right, rear, left) that holds point ``p``: the arcs
    are split by the lines through the box's diagonals. A point on a diagonal counts as front
    or rear."""
    lx, ly = local(b, p)
    hw, hd = b.width / 2, b.depth / 2
    if abs(lx) * hd <= abs(ly) * hw + EPS:
        return "front" if ly > 0 else "rear"
    return "right" if lx > 0 else "left"


def arc_region(b: Box, side: str, far: float = 1000.0) -> Polygon:
    """GEO.ARCS: the wedge of one arc, from the centre out through two corners."""
    fl, fr, br, bl = corners(b)
    pairs = {"front": (fl, fr), "right": (fr, br), "rear": (br, bl), "left": (bl, fl)}
    c = centre(b)
    p, q = pairs[side]

    def out(pt: Point) -> Point:
        dx, dy = pt[0] - c[0], pt[1] - c[1]
        n = math.hypot(dx, dy) or 1.0
        return (c[0] + dx / n * far, c[1] + dy / n * far)

    return Polygon([c, out(p), out(q)])


@lru_cache(maxsize=8192)
def sees(viewer: Box, target: Box) -> bool:
    """Whether ``target`` is at least partly inside the viewer's front arc (GEO.ARCS)."""
    return float(arc_region(viewer, "front").intersection(polygon(target)).area) > EPS


@lru_cache(maxsize=64)
def _walls(polygons: tuple[tuple[tuple[float, float], ...], ...]) -> tuple[Polygon, ...]:
    return tuple(Polygon(p) for p in polygons)


def walls_of(polygons: Sequence[Sequence[Sequence[float]]]) -> tuple[Polygon, ...]:
    """Sight-blocking polygons as shapely shapes, made once a table."""
    return _walls(tuple(tuple((float(x), float(y)) for x, y in p) for p in polygons))


def clear_line(a: tuple[float, float], b: tuple[float, float], walls: Sequence[Polygon]
               ) -> bool:
    """GEO.SIGHT: the straight line from ``a`` to ``b`` passes through no wall (grazing its
    edge or corner does not block it)."""
    line = LineString([a, b])
    return not any(line.intersects(w) and not line.touches(w) for w in walls)


def clear_sight(viewer: Box, target: Box, walls: Sequence[Polygon]) -> bool:
    """GEO.SIGHT: some straight line from a point of the viewer's front edge to a point of the
    target inside the viewer's front arc passes through no wall (points five a side)."""
    if not walls:
        return True
    seen = arc_region(viewer, "front").intersection(polygon(target))
    if seen.is_empty:
        seen = polygon(target)
    targets = [(float(x), float(y)) for x, y in shapely.get_coordinates(seen)]
    targets.append(seen.centroid.coords[0])
    fl, fr, _, _ = corners(viewer)
    eyes = [(fl[0] + (fr[0] - fl[0]) * k / 4, fl[1] + (fr[1] - fl[1]) * k / 4)
            for k in range(5)]
    return any(clear_line(e, t, walls) for e in eyes for t in targets)


def front_edge(b: Box) -> LineString:
    fl, fr, _, _ = corners(b)
    return LineString([fl, fr])


def side_shares(mover: Box, target: Box) -> dict[str, float]:
    """How much of ``mover``'s front edge lies in each arc of ``target``."""
    edge = front_edge(mover)
    return {s: float(arc_region(target, s).intersection(edge).length) for s in SIDES}


@lru_cache(maxsize=4096)
def facing_sides(mover: Box, target: Box) -> tuple[str, ...]:
    """The side(s) of ``target`` whose arc holds the larger part of ``mover``'s front; two
    when the front is split exactly evenly."""
    shares = side_shares(mover, target)
    best = max(shares.values())
    return tuple(s for s in SIDES if abs(shares[s] - best) <= 1e-4)


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
    length = math.dist(p, q)
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    slack = abs(length - mover.width) / 2
    along = (mover.x - mid[0]) * ux + (mover.y - mid[1]) * uy
    off = max(-slack, min(slack, along))
    facing = (side_bearing(target, side) + 180.0) % 360
    return Box(round(mid[0] + ux * off, 4), round(mid[1] + uy * off, 4), round(facing, 4),
               mover.width, mover.depth)


@lru_cache(maxsize=8192)
def overlaps(a: Box, b: Box) -> bool:
    """Whether two footprints share area; touching along an edge or at a corner is not
    overlapping. Separating axes: two rectangles are apart (or only touch) when, along one
    of their four edge directions, their shadows do not overlap by more than a whisker."""
    return _apart_axis(a, b, corners(a), corners(b), 1e-4) is None


def stands_on(a: Box, b: Box) -> bool:
    """Whether two footprints share more than a speck of area (1/1000 square inch, a
    0.03" square): what a scenario may not set up and no move may end in. The moves
    themselves keep a tighter margin (``overlaps``)."""
    return overlap(bounds(a), bounds(b)) and overlaps(a, b) and \
        polygon(a).intersection(polygon(b)).area > 1e-3


def flush_beside(mover: Box, target: Box, side: str, others: list[Box]) -> Box | None:
    """``flush_against`` with ``others`` already on that side: the front flush against ``side``
    of ``target``, overlapping none of ``others`` (it may touch them), with as much front in
    contact as it can have and then as little sideways travel. None when no place is free."""
    first = flush_against(mover, target, side)
    near = [o for o in others if gap(first, o) < mover.width + mover.depth]
    if not any(overlaps(first, o) for o in near):
        return first
    p, q = side_segment(target, side)
    length = math.dist(p, q)
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


def moved(b: Box, dist: float, heading: float | None = None) -> Box:
    """The box moved ``dist`` along ``heading`` (its own facing when None), facing unchanged."""
    (fx, fy), _ = axes(b.facing if heading is None else heading)
    return Box(b.x + fx * dist, b.y + fy * dist, b.facing, b.width, b.depth)


def pivoted(b: Box, facing: float) -> Box:
    """The box turned about its centre to ``facing``."""
    cx, cy = centre(b)
    (fx, fy), _ = axes(facing)
    return Box(cx + fx * b.depth / 2, cy + fy * b.depth / 2, facing % 360, b.width, b.depth)


def rounded(b: Box) -> Box:
    return Box(round(b.x, 4), round(b.y, 4), round(b.facing % 360, 4), b.width, b.depth)


def on_table(b: Box, width: float, depth: float) -> bool:
    return all(-EPS <= x <= width + EPS and -EPS <= y <= depth + EPS for x, y in corners(b))


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
    blockers = [q for q in blockers if overlap(path, _grown(bounds(q), EPS))]
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
    blockers = [q for q in blockers if overlap(path, _grown(bounds(q), keep + EPS))]
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
    q = polygon(other)
    swept = polygon(b).union(polygon(moved(b, dist, heading))).convex_hull
    if swept.distance(q) > EPS:
        return None
    lo, hi = 0.0, dist
    for _ in range(30):
        mid = (lo + hi) / 2
        if polygon(moved(b, mid, heading)).distance(q) > EPS:
            lo = mid
        else:
            hi = mid
    return hi


@lru_cache(maxsize=8192)
def contact(a: Box, b: Box) -> tuple[str, float, float] | None:
    """Which side of ``a`` touches ``b`` and the stretch of that side in contact, in inches
    from the side's first corner (front: left to right; flanks: front to back; rear: left to
    right). None when they do not touch along a side.

    Plain vector maths, no shapely: the rules ask this many times a turn. Two sides touch
    when they lie on one line (within a ten-thousandth of an inch) and overlap."""
    fl, fr, br, bl = corners(a)
    sides = (("front", fl, fr), ("right", fr, br), ("rear", bl, br), ("left", fl, bl))
    c = corners(b)
    edges = ((c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0]))
    best: tuple[str, float, float] | None = None
    for side, p, q in sides:
        length = math.dist(p, q)
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        for e0, e1 in edges:
            # both ends of b's edge on the line of a's side
            if abs((e0[0] - p[0]) * uy - (e0[1] - p[1]) * ux) > 1e-4:
                continue
            if abs((e1[0] - p[0]) * uy - (e1[1] - p[1]) * ux) > 1e-4:
                continue
            t0 = (e0[0] - p[0]) * ux + (e0[1] - p[1]) * uy
            t1 = (e1[0] - p[0]) * ux + (e1[1] - p[1]) * uy
            lo, hi = max(0.0, min(t0, t1)), min(length, max(t0, t1))
            if hi - lo > 1e-3 and (best is None or hi - lo > best[2] - best[1]):
                best = (side, lo, hi)
    return best


def area_share(b: Box, regions: list[Polygon]) -> float:
    """The share of a box's footprint inside any of ``regions`` (hills)."""
    if not regions:
        return 0.0
    p = polygon(b)
    inside = sum(float(p.intersection(r).area) for r in regions)
    return min(1.0, inside / float(p.area))


def farthest(a: Box, b: Box) -> float:
    """The greatest distance between a point of ``a`` and a point of ``b`` (for rectangles,
    always between two corners)."""
    best = 0.0
    theirs = corners(b)
    for px, py in corners(a):
        for qx, qy in theirs:
            d = (px - qx) * (px - qx) + (py - qy) * (py - qy)
            if d > best:
                best = d
    return math.sqrt(best)


def within_reach(old: list[Point], new: list[Point], reach: float) -> bool:
    """Whether each point of ``old`` can go to its own point of ``new`` (as many) moving no more
    than ``reach``: a matching of the pairs no farther apart than that (Kuhn's augmenting
    paths, after two cheap answers: some point with no partner at all, or every pair near)."""
    r2 = reach * reach + EPS
    xs = [p[0] for p in old] + [p[0] for p in new]
    ys = [p[1] for p in old] + [p[1] for p in new]
    if (max(xs) - min(xs)) ** 2 + (max(ys) - min(ys)) ** 2 <= r2:
        return True   # no two points are farther apart than the corners of what holds them
    # which pairs are near enough, all at once (numpy comes with shapely)
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


# --- round bases (circles) ----------------------------------------------------------------
# A model on a round base is a circle: its centre and its radius, in inches.

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
