"""The rulebook's concept folders, found rather than listed (SPECIAL.REGISTRY's kin).

Each folder of ``phases/fantasy`` (``charge``, ``pursuit``, ``psychology``...) holds a concept's
steps, rule functions, events, appliers and sentences. The hubs (``appliers.APPLIERS``,
``narrate.TEMPLATES``, the preset's parts) gather them from here: a new folder, or a new
event in one, is found by what its modules export (``APPLIERS``, ``SENTENCES``, and a steps
module's ``PART``: the name the flow knows it by, its place in the order of the parts, its
class), never added by hand to a central list. A name given twice is an error when the
rulebook is imported, not a silent override.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).parent


@cache
def concepts() -> tuple[str, ...]:
    """The concept folders, by name (every package beside this module)."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.ispkg))


def _module(concept: str, name: str) -> ModuleType | None:
    if not (HERE / concept / f"{name}.py").exists():
        return None
    return importlib.import_module(f"{__package__}.{concept}.{name}")


def gathered(module: str, attr: str) -> dict[Any, Any]:
    """Every concept's ``attr`` from its ``module`` (``appliers``: ``APPLIERS``), merged;
    a key two concepts give is refused."""
    out: dict[Any, Any] = {}
    for concept in concepts():
        found = _module(concept, module)
        table = getattr(found, attr, None) if found is not None else None
        for key, value in (table or {}).items():
            if key in out:
                raise ValueError(f"{concept}.{module}.{attr}: {key!r} is given twice")
            out[key] = value
    return out


def flows() -> list[tuple[str, type[Any]]]:
    """Every part of the flow, in their order: (the name the flow knows it by, its class).
    A part is a class a concept's module names in its ``PART``: (its place in the order, its
    name, the class). Where two parts drive one step,
    the first in that order acts first."""
    found = []
    modules = [f"{__package__}.{c}.{f.stem}" for c in concepts()
               for f in sorted((HERE / c).glob("*.py"))]
    for name in modules:
        part = getattr(importlib.import_module(name), "PART", None)
        if part is not None:
            found.append(part)
    orders = [p[0] for p in found]
    if len(set(orders)) != len(orders):
        raise ValueError(f"two parts of the flow share a place: {sorted(orders)}")
    return [(name, cls) for _, name, cls in sorted(found, key=lambda p: p[0])]
