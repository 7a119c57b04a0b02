"""The envelope of a stored event, kept apart from its payload (the event's ``data``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, kw_only=True, slots=True)
class Draft:
    """An event ready to append: the store gives it its place in the hash chain."""

    seq: int
    step: int
    type: str
    v: int
    data: dict[str, Any]
    at: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Record:
    """A stored event: ``hash`` = BLAKE2b(``prev`` + canonical msgpack of the other fields)."""

    seq: int
    step: int
    type: str
    v: int
    data: dict[str, Any]
    at: str
    prev: bytes
    hash: bytes

    def to_json(self) -> dict[str, Any]:
        """The export form of DESIGN.md: hashes in hex."""
        return {"seq": self.seq, "step": self.step, "type": self.type, "v": self.v,
                "data": self.data, "at": self.at, "prev": self.prev.hex(),
                "hash": self.hash.hex()}
