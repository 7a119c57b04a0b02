"""Plain values the fantasy state is made of: one shared empty mapping, and the way back from
any typed value to plain data."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any

from regiment.core.state import Value


def plain(value: Any) -> Any:
    """Values, mappings and tuples as plain dicts and lists (summaries, JSON)."""
    if isinstance(value, Value):
        return {k: plain(v) for k, v in value.__dict__.items()}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):   # a NamedTuple
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


class _Empty(Mapping[Any, Any]):
    """The empty value of every mapping field: one shared, read-only, hashable object instead
    of a new dict for each field of each fight (appliers make a new dict to change one)."""

    __slots__ = ()

    def __getitem__(self, key: Any) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __contains__(self, key: object) -> bool:
        return False

    def get(self, key: Any, default: Any = None) -> Any:
        return default

    def keys(self) -> Any:   # what {**mapping} asks for: no Python-level iteration
        return ()

    def items(self) -> Any:
        return ()

    def values(self) -> Any:
        return ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and not other

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"


EMPTY: Mapping[Any, Any] = _Empty()


class Status(StrEnum):
    """What a unit is doing (a character joined to a unit is ``JOINED``); a value compares
    equal to its word, which is how it is shown and written."""

    READY = "ready"
    FLEEING = "fleeing"
    ENGAGED = "engaged"
    DESTROYED = "destroyed"
    OFF_TABLE = "off_table"
    JOINED = "joined"


class Reaction(StrEnum):
    """CH.REACT: a charged unit's reaction."""

    HOLD = "hold"
    STAND_AND_SHOOT = "stand_and_shoot"
    FLEE = "flee"


class Troop(StrEnum):
    """What a unit is (the scenario's ``troop``): its ranks, who it stomps, who rides."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    MONSTROUS_INFANTRY = "monstrous_infantry"
    MONSTROUS_CAVALRY = "monstrous_cavalry"
    MONSTROUS_BEAST = "monstrous_beast"
    MONSTER = "monster"
    CHARIOT = "chariot"
