"""What every move of the rulebook is recorded as (``UnitMoved``), and the hills moves are
measured against."""

from __future__ import annotations

from typing import Any

from regiment.core import geometry as geo
from regiment.core.geometry import lazy_shapely as shp

from .events import UnitMoved
from .state import State
from .why import MOVED


def moved(uid: str, b: geo.Box | None, kind: str, dist: float = 0.0) -> UnitMoved:
    """A move of ``kind`` (``why.MOVED``) to ``b``; in table mode (no ``b``) only how far,
    as the players made it."""
    reason = MOVED.make(kind)
    if b is None:
        return UnitMoved(unit=uid, reason=reason, position=None, facing=None,
                         distance=round(dist, 4))
    return UnitMoved(unit=uid, reason=reason, position=(b.x, b.y), facing=b.facing,
                     distance=round(dist, 4))


def hill_regions(state: State) -> list[Any]:
    return [shp.Polygon(h) for h in state.table.get("hills", ())]
