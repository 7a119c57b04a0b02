"""GEO.SIGHT: lines of sight across the table, and the walls that block them."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import shapely
from shapely.geometry import LineString, Polygon

from .shapes import EPS, Box, arc_region, corners, polygon


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
