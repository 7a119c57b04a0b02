"""Table geometry, answered with shapely (GEO.*).

Coordinates are inches; (0, 0) is the table's bottom-left corner. A unit's ``position`` is the
centre of its front edge and ``facing`` a bearing in degrees (0 faces +y, 90 faces +x). Its
footprint is ``files`` bases wide and ``ranks`` bases deep, behind the front edge. Bases are in
millimetres. The rules ask geometry only through these functions, so a tabletop mode can
answer the same questions from measurements.
"""

from __future__ import annotations

import math

from shapely.geometry import Polygon

MM_PER_INCH = 25.4


def footprint(position: tuple[float, float], facing: float, width: float, depth: float
              ) -> Polygon:
    """The rectangle of a unit: ``width`` x ``depth`` inches behind its front-centre point."""
    rad = math.radians(facing)
    fx, fy = math.sin(rad), math.cos(rad)          # forward
    rx, ry = math.cos(rad), -math.sin(rad)         # to the unit's right
    px, py = position
    hw = width / 2
    fl = (px - rx * hw, py - ry * hw)
    fr = (px + rx * hw, py + ry * hw)
    br = (fr[0] - fx * depth, fr[1] - fy * depth)
    bl = (fl[0] - fx * depth, fl[1] - fy * depth)
    return Polygon([fl, fr, br, bl])


def unit_size(models: int, files: int, base: tuple[float, float]) -> tuple[float, float]:
    """Width and depth in inches of a block of ``models`` in ``files`` files."""
    ranks = -(-models // files)
    return files * base[0] / MM_PER_INCH, ranks * base[1] / MM_PER_INCH


def distance(a: Polygon, b: Polygon) -> float:
    """GEO.DISTANCE: the shortest distance between two footprints, 0 when they touch."""
    return float(a.distance(b))
