"""Reading events of older schema versions: upcasters migrate ``(type, v)`` one version a step.

An upcaster is registered for the version it reads and returns the data of version ``v + 1``.
An event type or version that neither the code nor an upcaster knows is ``UnknownEventType``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import CorruptLog, UnknownEventType
from .events import EVENTS, Event, load_rulebooks
from .schema import SchemaError

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(type_name: str, v: int) -> Callable[[Upcaster], Upcaster]:
    """Register a function migrating ``type_name`` data from version ``v`` to ``v + 1``."""

    def wrap(fn: Upcaster) -> Upcaster:
        UPCASTERS[(type_name, v)] = fn
        return fn

    return wrap


def decode_event(type_name: str, v: int, data: Any, where: str = "") -> Event:
    """Build the current event class from stored ``(type, v, data)``, upcasting if needed."""
    cls = EVENTS.get(type_name)
    if cls is None and load_rulebooks():   # a rulebook registered for later: load it
        cls = EVENTS.get(type_name)
    if cls is not None and v == cls.v:  # the replay's path: no upcasting
        try:
            return cls.schema.build(data, type_name)  # type: ignore[no-any-return]  # a cls
        except SchemaError as exc:
            raise CorruptLog(str(exc), where=where) from None
    if cls is None:
        raise UnknownEventType(f"unknown event type {type_name!r}", where=where)
    while v < cls.v:
        step = UPCASTERS.get((type_name, v))
        if step is None:
            raise UnknownEventType(f"no upcaster for {type_name} v{v} (current v{cls.v})",
                                   where=where)
        data = step(data)
        v += 1
    if v != cls.v:
        raise UnknownEventType(f"{type_name} v{v} is newer than this engine's v{cls.v}",
                               where=where)
    try:
        return cls.schema.build(data, type_name)  # type: ignore[no-any-return]  # a cls
    except SchemaError as exc:
        raise CorruptLog(str(exc), where=where) from None
