"""Terrain that blocks sight and movement (walls, buildings), for both games: its place in the
scenario (``table.blocking``) and the one question the rules ask of it, GEO.SIGHT: can one
piece see another?

On a mapped table the answer is geometry's: some straight line from the viewer to the target
crosses no blocking polygon (``core.geometry.clear_sight``). At a table (table mode) the
players look: the rules ask (TABLE.ASK), and only where the scenario says its table has such
terrain (``blocking_at_table``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core import measure
from regiment.core.geometry import lazy_shapely as shp
from regiment.core.scenario import Reader

from .table import measured, yes_no

Polygons = list[list[list[float]]]


MOST_POLYGONS = 32   # of one kind (walls, cover, hills...): a real table has a handful
MOST_CORNERS = 64


def parse_polygons(r: Reader, t: dict[str, Any], key: str) -> Polygons:
    """``table.KEY``: at most ``MOST_POLYGONS`` polygons, each of 3 to ``MOST_CORNERS``
    finite [x, y] corners making a simple shape with an area (no edge crossing another): a
    scenario's cost bound, and the shape every rule measuring against it may assume."""
    given = r.get(t, key, "table", list, [])
    if len(given) > MOST_POLYGONS:
        raise r.fail(f"table.{key}", f"expected at most {MOST_POLYGONS} polygons, got "
                     f"{len(given)}")
    polygons: Polygons = []
    for i, poly in enumerate(given):
        where = f"table.{key}[{i}]"
        if not isinstance(poly, list) or not 3 <= len(poly) <= MOST_CORNERS:
            raise r.fail(where, f"expected a polygon: a list of 3 to {MOST_CORNERS} [x, y] "
                         "corners")
        corners = [r.point(p, f"{where}[{j}]") for j, p in enumerate(poly)]
        shape = shp.Polygon(corners)
        if not shape.is_valid or shape.area <= 1e-9:
            raise r.fail(where, f"expected a simple polygon with an area, got one that is "
                         f"not: {shp.explain_validity(shape) if not shape.is_valid else 'no area'}")
        polygons.append(corners)
    return polygons


def parse_blocking(r: Reader, t: dict[str, Any], out: dict[str, Any], at_table: bool) -> None:
    """``table.blocking``: polygons (``parse_polygons``; in table mode ``true``: the table
    has some, and the players see where); into ``out``, the parsed table."""
    value = t.get("blocking", [])
    if at_table and value is True:
        out["blocking_at_table"] = True
        return
    polygons = parse_polygons(r, t, "blocking")
    if at_table:   # TABLE.POSITIONS: where it stands is on the players' table
        if polygons:
            out["blocking_at_table"] = True
        return
    if polygons:
        out["blocking"] = polygons


def walls(state: Any) -> Polygons:
    """The table's sight-blocking polygons (none in table mode)."""
    return state.table.get("blocking") or []


def sees(state: Any, rule: str, viewer: Any, target: str, geometric: Callable[[], bool]
         ) -> bool:
    """GEO.SIGHT: whether ``viewer`` can see ``target``: geometry on a mapped table (always
    on an open one), the players' word at a table that has sight-blocking terrain (asked
    under the key ``sight:<viewer>:<target>``)."""
    if measured(state):
        if not state.table.get("blocking_at_table"):
            return True
        return yes_no(state, measure.key("sight", viewer.id, target), rule, viewer, target,
                      lambda: True)
    if not walls(state):
        return True   # (the key not written: a charge declaration asks this of every pair)
    return yes_no(state, measure.key("sight", viewer.id, target), rule, viewer, target,
                  geometric)
