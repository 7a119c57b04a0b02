"""GEO.SIGHT: lines of sight across the table, and the walls that block them."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

from . import lazy_shapely as shp
from .shapes import (
    EPS,
    Box,
    Edge,
    Point,
    arc_region,
    centre,
    corners,
    inward_edges,
    polygon,
    wedge,
)


@lru_cache(maxsize=8192)
def sees(viewer: Box, target: Box) -> bool:
    """Whether ``target`` is at least partly inside the viewer's front arc (GEO.ARCS): the
    area they share is more than EPS. Most targets are plainly in or out (``_plainly``); the
    rest are asked of shapely (a big battle asks it of every pair: issues 29 and 61)."""
    plain = _plainly(viewer, target)
    if plain is not None:
        return plain
    return float(arc_region(viewer, "front").intersection(polygon(target)).area) > EPS


CLEAR = 1e-2     # a disc this wide is more than EPS of area (3e-4 square inches)
OUTSIDE = 1e-7   # corners this far beyond an edge share nothing with the wedge, to shapely too

@lru_cache(maxsize=1024)
def _edges(viewer: Box) -> tuple[Edge, Edge, Edge] | None:
    """The viewer's front wedge's ``inward_edges``, made once a viewer, which a big battle
    asks of every unit on the other side (issue 61: 5.9 against 2.6 us a pair, measured)."""
    return inward_edges(wedge(viewer, "front"))


def _plainly(viewer: Box, target: Box) -> bool | None:
    """True when the target's centre or a corner is more than CLEAR inside the viewer's
    front wedge (then a disc, or a quarter of one, that wide is inside both); False when
    every corner of the target is more than OUTSIDE beyond one edge of the wedge (a
    triangle: convex); None when it is not so plain. (Either margin is many times what
    rounding moves a point: an answer given is shapely's.)"""
    edges = _edges(viewer)
    if edges is None or min(target.width, target.depth) < 2 * CLEAR:
        return None
    points = (*corners(target), centre(target))
    inside = []   # how far each point is inside each edge
    for ux, uy, k in edges:
        d = [ux * y - uy * x - k for x, y in points]
        if max(d[0], d[1], d[2], d[3]) < -OUTSIDE:
            return False
        inside.append(d)
    return True if max(map(min, *inside)) > CLEAR else None


@lru_cache(maxsize=64)
def _walls(polygons: tuple[tuple[tuple[float, float], ...], ...]) -> tuple[shp.Polygon, ...]:
    return tuple(shp.Polygon(p) for p in polygons)


def walls_of(polygons: Sequence[Sequence[Sequence[float]]]) -> tuple[shp.Polygon, ...]:
    """Sight-blocking polygons as shapely shapes, made once a table."""
    return _walls(tuple(tuple((float(x), float(y)) for x, y in p) for p in polygons))


def clear_line(a: tuple[float, float], b: tuple[float, float], walls: Sequence[shp.Polygon]
               ) -> bool:
    """GEO.SIGHT: the straight line from ``a`` to ``b`` passes through no wall (grazing its
    edge or corner does not block it)."""
    line = shp.LineString([a, b])
    return not any(line.intersects(w) and not line.touches(w) for w in walls)


def clear_sight(viewer: Box, target: Box, walls: Sequence[shp.Polygon]) -> bool:
    """GEO.SIGHT: some straight line from a point of the viewer's front edge to a point of the
    target inside the viewer's front arc passes through no wall (points five a side)."""
    if not walls:
        return True
    seen = arc_region(viewer, "front").intersection(polygon(target))
    if seen.is_empty:
        seen = polygon(target)
    targets = [(float(x), float(y)) for x, y in shp.get_coordinates(seen)]
    targets.append(seen.centroid.coords[0])
    fl, fr, _, _ = corners(viewer)
    eyes = [(fl[0] + (fr[0] - fl[0]) * k / 4, fl[1] + (fr[1] - fl[1]) * k / 4)
            for k in range(5)]
    return any(clear_line(e, t, walls) for e in eyes for t in targets)


def shadow(eye: Point, wall: shp.Polygon, far: float = 1000.0) -> shp.Polygon:
    """GEO.SIGHT: what ``wall`` hides from ``eye``: the wall itself and every point behind it
    (a line from the eye to it crosses the wall). A point is hidden when its line crosses the
    wall's outline, so crosses one edge: it lies in the quadrilateral that edge casts away
    from the eye; the shadow is their union with the wall."""
    def away(p: tuple[float, float]) -> tuple[float, float]:
        dx, dy = p[0] - eye[0], p[1] - eye[1]
        n = math.hypot(dx, dy) or 1.0
        return p[0] + far * dx / n, p[1] + far * dy / n

    coords = [(float(x), float(y)) for x, y in wall.exterior.coords]
    parts = [wall]
    for a, b in itertools.pairwise(coords):
        quad = shp.Polygon([a, b, away(b), away(a)])
        if quad.area > EPS:   # an edge seen end on casts nothing
            parts.append(quad)
    return shp.union_all(parts)


def hidden_share(eye: Point, target: Box, walls: Sequence[shp.Polygon]) -> float:
    """SHOOT.COVER: the share of ``target``'s footprint hidden from ``eye`` by ``walls``
    (cover it stands in, or cover between): walls the eye itself stands in hide nothing."""
    shapes = [shadow(eye, w) for w in walls if not w.contains(shp.Point(eye))]
    if not shapes:
        return 0.0
    p = polygon(target)
    return min(1.0, float(p.intersection(shp.union_all(shapes)).area) / float(p.area))
