"""GEO.*: a unit as a box on the table (its front edge's centre, its facing, its width and
depth), and the plain questions about boxes: their corners, distances, arcs, contact, overlap
and the moves that keep their shape."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from . import lazy_shapely as shp

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


def grown(r: tuple[float, float, float, float], d: float) -> tuple[float, float, float, float]:
    return r[0] - d, r[1] - d, r[2] + d, r[3] + d


def apart(a: Box, b: Box, d: float) -> bool:
    """Whether the bounding rectangles of two boxes are more than ``d`` apart along x or y
    (then so are the boxes: a look that costs no distance)."""
    ax0, ay0, ax1, ay1 = _bounds(a)   # (the most asked look on a big table: no *args)
    bx0, by0, bx1, by1 = _bounds(b)
    return ax0 - d > bx1 or bx0 - d > ax1 or ay0 - d > by1 or by0 - d > ay1


def within(a: Box, b: Box, d: float) -> bool:
    """Whether two footprints are less than ``d`` apart (a cheap look at their bounding
    rectangles first: most units on a table are nowhere near each other)."""
    return not apart(a, b, d) and distance(a, b) < d


ROUNDING = 1e-4   # more than a gap rounded to 1/10000 inch can be short of the true one


def nearest(here: Box, boxes: Sequence[Box],
            measure: Callable[[Box, Box], float] | None = None) -> int:
    """GEO.DISTANCE: the index of the box nearest to ``here`` by ``measure`` (``gap``, or a
    gap rounded to 1/10000 inch), the first of equals: what ``min`` over every box gives; -1
    when there is none. An ordered scan.

    The distance between two boxes' bounding rectangles is never more than theirs: the boxes
    are looked at in the order of it, and once it exceeds the best gap found (by more than a
    gap rounded to 1/10000 inch could be short of it), no box left can be nearer or as near,
    so their gaps are not worked out. A unit on a crowded table works out a few instead of
    one a unit (issue 29: big battles)."""
    measure = measure or gap
    ax0, ay0, ax1, ay1 = bounds(here)
    order = []
    for i, b in enumerate(boxes):
        bx0, by0, bx1, by1 = bounds(b)
        dx, dy = max(0.0, bx0 - ax1, ax0 - bx1), max(0.0, by0 - ay1, ay0 - by1)
        order.append((math.hypot(dx, dy), i))
    order.sort()
    found, best = -1, math.inf
    for low, i in order:
        if low - ROUNDING > best:
            break
        g = measure(here, boxes[i])
        if g < best or (g == best and i < found):
            found, best = i, g
    return found


def outline(b: Box) -> shp.Polygon:
    """A box as a new shapely polygon (for boxes asked about once, as a bisection's are)."""
    return shp.Polygon(corners(b))


@lru_cache(maxsize=4096)
def polygon(b: Box) -> shp.Polygon:
    """A box as a shapely polygon, made once a box: a unit that did not move is asked about
    again and again, and shapely's shapes are immutable, so one can be shared."""
    return outline(b)


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
    # (comparisons, not min() and max(): half the time, the same values to the last bit)
    for pts, poly in ((ca, cb), (cb, ca)):
        x0, y0 = poly[3]
        for x1, y1 in poly:
            dx, dy = x1 - x0, y1 - y0
            length2 = dx * dx + dy * dy
            for px, py in pts:
                ex, ey = px - x0, py - y0
                t = 0.0
                if length2 != 0.0:
                    t = (ex * dx + ey * dy) / length2
                    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                h = math.hypot(ex - t * dx, ey - t * dy)
                if h < best:
                    best = h
            x0, y0 = x1, y1
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


@lru_cache(maxsize=4096)
def arc_region(b: Box, side: str, far: float = 1000.0) -> shp.Polygon:
    """GEO.ARCS: the wedge of one arc, from the centre out through two corners (made once a
    box and side, as ``polygon``)."""
    return shp.Polygon(wedge(b, side, far))


def wedge(b: Box, side: str, far: float = 1000.0) -> tuple[Point, Point, Point]:
    """The corners of ``arc_region``: the centre, and ``far`` out through each corner of the
    side."""
    fl, fr, br, bl = corners(b)
    pairs = {"front": (fl, fr), "right": (fr, br), "rear": (br, bl), "left": (bl, fl)}
    c = centre(b)
    p, q = pairs[side]

    def out(pt: Point) -> Point:
        dx, dy = pt[0] - c[0], pt[1] - c[1]
        n = math.hypot(dx, dy) or 1.0
        return (c[0] + dx / n * far, c[1] + dy / n * far)

    return c, out(p), out(q)


Edge = tuple[float, float, float]   # (ux, uy, k): ux * y - uy * x - k is how far inside


def inward_edges(tri: tuple[Point, Point, Point]) -> tuple[Edge, Edge, Edge] | None:
    """The three edges of a triangle (a ``wedge``), each as its unit direction turned to the
    inside and its offset: how far a point is inside an edge is one product each. None: a
    triangle of no area."""
    c, p, q = tri
    turn = (p[0] - c[0]) * (q[1] - c[1]) - (p[1] - c[1]) * (q[0] - c[0])
    if not turn:
        return None
    sign = 1.0 if turn > 0 else -1.0
    out = []
    for (ax, ay), (bx, by) in ((c, p), (p, q), (q, c)):
        length = math.hypot(bx - ax, by - ay)
        if not length:
            return None
        ux, uy = sign * (bx - ax) / length, sign * (by - ay) / length
        out.append((ux, uy, ux * ay - uy * ax))
    return out[0], out[1], out[2]


@lru_cache(maxsize=8192)
def overlaps(a: Box, b: Box) -> bool:
    """Whether two footprints share area; touching along an edge or at a corner is not
    overlapping. Separating axes: two rectangles are apart (or only touch) when, along one
    of their four edge directions, their shadows do not overlap by more than a whisker.
    Bounding rectangles apart: so are the boxes (an edge direction of one separates them),
    with no axis worked out."""
    if apart(a, b, 0.0):
        return False
    return _apart_axis(a, b, corners(a), corners(b), 1e-4) is None


def stands_on(a: Box, b: Box) -> bool:
    """Whether two footprints share more than a speck of area (1/1000 square inch, a
    0.03" square): what a scenario may not set up and no move may end in. The moves
    themselves keep a tighter margin (``overlaps``)."""
    return overlap(bounds(a), bounds(b)) and overlaps(a, b) and \
        polygon(a).intersection(polygon(b)).area > 1e-3


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
        if length <= EPS:   # a side of no length (a unit of no model) touches nothing
            continue
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


def area_share(b: Box, regions: list[shp.Polygon]) -> float:
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
