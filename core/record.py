"""The envelope of a stored event, kept apart from its payload (the event's ``data``)."""

from __future__ import annotations

from typing import Any, NamedTuple


class Draft(NamedTuple):
    """An event ready to append: the store gives it its place in the hash chain."""

    seq: int
    step: int
    type: str
    v: int
    data: dict[str, Any]
    at: str


class Record(NamedTuple):
    """A stored event: ``hash`` = BLAKE2b(``prev`` + canonical msgpack of the other fields).

    A named tuple rather than a dataclass: a replay builds one per event, and a tuple is
    built three times faster (measured: 0.36 us against 1.09 us).
    """

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
