"""shapely's shapes and functions, imported the first time one is asked for.

shapely (and numpy under it) is a third of a command's start-up, and reading a log asks it
nothing: a log's story, an export and a load are folds of its events, with no shape worked
out (measured: ``regiment replay`` of a demo game in its own process, 0.54 s against 0.75
when the rulebook imported shapely). A rule that asks a shape (a swept path, sight past
walls) imports it then. Use it as ``lazy_shapely.Polygon(...)``: a name imported from it
at the top of a module would import shapely there and then.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # what the type checker sees; at run time, ``__getattr__`` below
    from shapely import Point, get_coordinates, union_all
    from shapely.geometry import LineString, MultiPoint, Polygon
    from shapely.validation import explain_validity

__all__ = ["LineString", "MultiPoint", "Point", "Polygon", "explain_validity",
           "get_coordinates", "union_all"]

_FROM = {"LineString": "shapely.geometry", "MultiPoint": "shapely.geometry",
         "Point": "shapely.geometry", "Polygon": "shapely.geometry",
         "explain_validity": "shapely.validation", "get_coordinates": "shapely",
         "union_all": "shapely"}


def __getattr__(name: str) -> object:
    where = _FROM.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(where), name)
    globals()[name] = value   # (the next look finds it here, as any module attribute)
    return value


def load() -> None:
    """Import shapely now: what a long-running process does before it serves (a server's
    first step that asks a shape would wait for the import, and its collector's frozen heap
    would leave shapely's objects out)."""
    for name in _FROM:
        __getattr__(name)
