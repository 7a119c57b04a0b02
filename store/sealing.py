"""The write path of the hash chain: drafts sealed into records and the frames stored.

A record's body is a canonical map ``{at, data, seq, step, type, v}``, and its frame the same
map with ``hash`` and ``prev`` added (store/codec.py). A canonical map is its header, then each
key and value in sorted key order, so the body and the frame are put together from parts,
each encoded once; the parts that repeat from record to record (a step's time and number, an
event type's name and version) are encoded once a batch. tests/test_codec.py and
tests/test_sealing.py check the bytes against encoding the whole maps.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from regiment.core.events import EVENTS, Event
from regiment.core.record import Draft, Record, Sealed

from .codec import (
    _CANONICAL,
    _DATA,
    _SCALARS,
    check_plain,
    encode_canonical,
    link,
)

_K = {k: _CANONICAL.encode(k) for k in ("at", "data", "hash", "prev", "seq", "step", "type",
                                        "v")}
_BODY_MAP = b"\x86"    # a fixmap of 6 entries
_FRAME_MAP = b"\x88"   # of 8
_BIN32 = b"\xc4\x20"   # the header of a 32-byte bin: every hash after the first prev
_HASH_KEY = _K["hash"] + _BIN32
_PREV_KEY = _K["prev"]

# By event class: a getter of its fields' values, or None when its data is not its fields as
# they are (a field renamed on the wire, or left out at its default: Event.sparse)
_FIELDS: dict[type, Callable[[Any], tuple[Any, ...]] | None] = {}


def _field_values(cls: type[Event]) -> Callable[[Any], tuple[Any, ...]] | None:
    names = tuple(cls.__dataclass_fields__)  # type: ignore[attr-defined]  # (an event is one)
    got: Callable[[Any], tuple[Any, ...]] | None = None
    if cls.schema.aliases or cls.sparse:
        pass
    elif len(names) > 1:
        got = operator.attrgetter(*names)
    else:   # attrgetter of one name gives the value, of none is an error
        def got(e: Any) -> tuple[Any, ...]:
            return tuple(getattr(e, n) for n in names)
    _FIELDS[cls] = got
    return got


def event_bytes(e: Event) -> bytes:
    """The canonical bytes of an event's data (``e.to_data()``), encoded from the event.

    msgspec writes a dataclass with its fields in sorted order, as it writes a dict with
    sorted keys: byte for byte what encoding ``e.to_data()`` writes (tests/test_sealing.py
    checks every event of the goldens), without building the dict first. Nothing is skipped:
    each field's value is checked plain as ``encode_canonical`` checks a dict's. A class whose
    data is not its fields as they are goes through ``to_data``.
    """
    cls = type(e)
    values = _FIELDS[cls] if cls in _FIELDS else _field_values(cls)
    if values is None:
        return encode_canonical(e.to_data())
    for value in values(e):
        if type(value) not in _SCALARS:
            check_plain(value)
    try:
        return _CANONICAL.encode(e)
    except (TypeError, OverflowError) as exc:  # non-string keys, integers over 64 bits
        raise ValueError(f"data: {exc}") from None


class Bodies:
    """A record's body in the two parts a frame puts the hash and prev between: ``at`` and
    ``data``, then ``seq``, ``step``, ``type`` and ``v``. The parts a batch repeats are kept:
    the time and step of the last record, and the type parts of registered event types at
    their version (a file being imported could name any number of others)."""

    __slots__ = ("at", "at_part", "step", "step_part")
    types: ClassVar[dict[tuple[str, int], bytes]] = {}

    def __init__(self) -> None:
        self.at: object = None
        self.step: object = None
        self.at_part = self.step_part = b""

    def parts(self, r: Draft | Record, data_b: bytes) -> tuple[bytes, bytes]:
        encode = _CANONICAL.encode
        if r.at != self.at or type(r.at) is not str:
            self.at, self.at_part = r.at, _K["at"] + encode(r.at) + _K["data"]
        if r.step != self.step or type(r.step) is not int:
            self.step, self.step_part = r.step, _K["step"] + encode(r.step)
        typed = self.types.get((r.type, r.v))
        if typed is None:
            typed = _K["type"] + encode(r.type) + _K["v"] + encode(r.v)
            cls = EVENTS.get(r.type) if type(r.type) is str else None
            if cls is not None and cls.v == r.v and type(r.v) is int:
                self.types[(r.type, r.v)] = typed
        return (self.at_part + data_b,
                b"".join((_K["seq"], encode(r.seq), self.step_part, typed)))


def data_bytes(data: dict[str, Any] | Event) -> bytes:
    """A draft's data in canonical bytes, given as plain data or as its event."""
    return event_bytes(data) if isinstance(data, Event) else encode_canonical(data)


def seal(drafts: Sequence[Draft], prev: bytes) -> tuple[Sealed, list[bytes]]:
    """Chain drafts onto ``prev``: the sealed records (built when read: ``Sealed``) and their
    encoded frames. A draft's data may be given as its event (``Draft``)."""
    frames: list[bytes] = []
    hashes: list[bytes] = []
    data: list[bytes] = []
    bodies = Bodies()
    first, prev_b = prev, _CANONICAL.encode(prev)
    for d in drafts:
        data_b = data_bytes(d.data)
        head, tail = bodies.parts(d, data_b)
        digest = link(prev, b"".join((_BODY_MAP, head, tail)))
        frames.append(b"".join((_FRAME_MAP, head, _HASH_KEY, digest, _PREV_KEY, prev_b, tail)))
        hashes.append(digest)
        data.append(data_b)
        prev, prev_b = digest, _BIN32 + digest
    return Sealed(tuple(drafts), frames, hashes, data, first, _DATA.decode), frames


def data_and_digest(bodies: Bodies, r: Record, prev: bytes) -> tuple[bytes, bytes]:
    """A record's data as canonical bytes, and the hash its contents give after ``prev``: the
    body put together from its parts as ``seal`` does, so that a verifier that compares the
    data too encodes it once (ValueError: the data is not plain). ``bodies`` is the walk's
    ``Bodies()``, which keeps the parts its records repeat."""
    data_b = encode_canonical(r.data)
    head, tail = bodies.parts(r, data_b)
    return data_b, link(prev, b"".join((_BODY_MAP, head, tail)))

