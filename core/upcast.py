"""Reading events of older schema versions: upcasters migrate ``(type, v)`` one version a step.

An upcaster is registered for the version it reads and returns the data of version ``v + 1``.
An event type or version that neither the code nor an upcaster knows is ``UnknownEventType``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .about import TAGGED_SINCE, from_legacy_text, legacy_text
from .errors import CorruptLog, UnknownEventType
from .events import EVENTS, Event, load_rulebooks
from .measure import Key
from .reasons import REASONS_AS_CODES, REASONS_WITH_RULES
from .schema import SchemaError
from .version import Version

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
        try:
            data = step(data)
        except SchemaError as exc:
            raise CorruptLog(str(exc), where=where) from None
        except CorruptLog as exc:
            raise exc.at(where) from None
        v += 1
    if v != cls.v:
        raise UnknownEventType(f"{type_name} v{v} is newer than this engine's v{cls.v}",
                               where=where)
    try:
        return cls.schema.build(data, type_name)  # type: ignore[no-any-return]  # a cls
    except SchemaError as exc:
        raise CorruptLog(str(exc), where=where) from None


# --- Writing as an older engine wrote ------------------------------------------------------
#
# A game keeps the shapes of the engine that began it (LOG.RULINGS): its moves, played again
# by a later engine (``record import``), must make the very records it wrote, hash for hash.
# So each upcaster that changes a shape has its inverse, used only when such a game appends;
# readers see today's shapes alone (a record is upcast where it is decoded).

# (the data; the engine that began the game; a piece's name by its id, for the English of
# engines before 0.10.0)
Downcaster = Callable[[dict[str, Any], Version, Callable[[str], str]], dict[str, Any]]
DOWNCASTERS: dict[tuple[str, int], tuple[Version, Downcaster]] = {}


def downcaster(type_name: str, v: int, since: Version) -> Callable[[Downcaster], Downcaster]:
    """Register the inverse of ``upcaster(type_name, v - 1)``: the data of version ``v - 1``,
    written by games an engine older than ``since`` began."""

    def wrap(fn: Downcaster) -> Downcaster:
        DOWNCASTERS[(type_name, v)] = (since, fn)
        return fn

    return wrap


def newest_change() -> Version:
    """The newest engine whose games write shapes older engines did not (a game begun by it or
    a later one writes every event as it is)."""
    return max((since for since, _ in DOWNCASTERS.values()), default=(0, 0, 0))


def as_written(e: Event, engine: Version, name: Callable[[str], str] = str
               ) -> tuple[int, dict[str, Any]] | None:
    """``(v, data)`` of ``e`` as the engine ``engine`` wrote it, or None: as it is."""
    step = DOWNCASTERS.get((e.type, e.v))
    if step is None or engine >= step[0]:
        return None
    v, data = e.v, e.to_data()
    while step is not None and engine < step[0]:
        data, v = step[1](data, engine, name), v - 1
        step = DOWNCASTERS.get((e.type, v))
    return v, data


# --- RollRequested v1 -> v2, MeasurementRequested v1 -> v2: continuations as tagged maps ----


@upcaster("RollRequested", 1)
def _roll_tagged(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != "about"}
    about = from_legacy_text(data.get("purpose", ""), _text(data.get("about", "")))
    if about is not None:
        out["about"] = about
    return out


@downcaster("RollRequested", 2, TAGGED_SINCE)
def _roll_text(data: dict[str, Any], *_: Any) -> dict[str, Any]:
    return {**{k: v for k, v in data.items() if k != "about"},
            "about": legacy_text(data.get("about"))}


def _resume(data: dict[str, Any], change: Callable[[str, Any], Any]) -> dict[str, Any]:
    resume = data.get("resume")
    if not isinstance(resume, dict) or not isinstance(resume.get("roll"), dict):
        return data
    roll = resume["roll"]
    roll = {**roll, "about": change(str(roll.get("purpose", "")), roll.get("about"))}
    return {**data, "resume": {**resume, "roll": roll}}


@upcaster("MeasurementRequested", 1)
def _resume_tagged(data: dict[str, Any]) -> dict[str, Any]:
    return _resume(data, lambda purpose, text: from_legacy_text(purpose, _text(text)))


@downcaster("MeasurementRequested", 2, TAGGED_SINCE)
def _resume_text(data: dict[str, Any], *_: Any) -> dict[str, Any]:
    return _resume(data, lambda purpose, about: legacy_text(about))


# --- MeasurementRequested v2 -> v3, Measured v1 -> v2: a question's key as a tagged map -----


@upcaster("MeasurementRequested", 2)
@upcaster("Measured", 1)
def _key_tagged(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "key": Key.parse(_text(data.get("key", ""))).tagged()}


@downcaster("MeasurementRequested", 3, TAGGED_SINCE)
@downcaster("Measured", 2, TAGGED_SINCE)
def _key_text(data: dict[str, Any], *_: Any) -> dict[str, Any]:
    return {**data, "key": Key.of_tagged(data["key"]).text()}


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise SchemaError(f"expected an older engine's text, got {type(value).__name__}")
    return value


# --- CommandWithdrawn v1 -> v2: its reason names its rule -----------------------------------


@upcaster("CommandWithdrawn", 1)
def _withdrawn_ruled(data: dict[str, Any]) -> dict[str, Any]:
    why = data.get("why", "")
    if isinstance(why, dict):
        why = {"code": why.get("code", "told"), "rule": data.get("rule", ""),
               **{k: v for k, v in why.items() if k != "code"}}
    else:
        why = {"code": "told", "rule": data.get("rule", ""), "text": str(why)}
    return {**data, "why": why}


@downcaster("CommandWithdrawn", 2, REASONS_WITH_RULES)
def _withdrawn_unruled(data: dict[str, Any], engine: Version, _: Any) -> dict[str, Any]:
    why = data["why"]
    if why["code"] == "told" or engine < REASONS_AS_CODES:
        return {**data, "why": why.get("text", "")}
    return {**data, "why": {k: v for k, v in why.items() if k not in ("rule", "text")}}
