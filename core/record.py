"""The envelope of a stored event, kept apart from its payload (the event's ``data``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

if TYPE_CHECKING:
    from .events import Event


class Draft(NamedTuple):
    """An event ready to append: the store gives it its place in the hash chain. Its data is
    plain data, or the event itself (a game's own drafts: the store encodes its fields
    straight, and the record holds ``event.to_data()`` as a reader sees it)."""

    seq: int
    step: int
    type: str
    v: int
    data: dict[str, Any] | Event
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

    def now(self) -> dict[str, Any]:
        """Its event's data in today's shape (``data_now``)."""
        return data_now(self)

    def to_json(self) -> dict[str, Any]:
        """The export form of DESIGN.md: hashes in hex."""
        return {"seq": self.seq, "step": self.step, "type": self.type, "v": self.v,
                "data": self.data, "at": self.at, "prev": self.prev.hex(),
                "hash": self.hash.hex()}


class BuiltWhenRead(Sequence[Record]):
    """Records read as a list (indexed, sliced, iterated, compared), each built by ``_get``
    when it is read: what ``Sealed`` and ``RecordLog`` share."""

    __slots__ = ()

    def _get(self, i: int) -> Record:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> list[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | list[Record]:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self)))]
        return self._get(index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def hash_at(self, i: int) -> bytes:
        """Record ``i``'s hash (a head), without building the record where it is known."""
        return self._get(i).hash

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list is


class Sealed(BuiltWhenRead):
    """What a store's ``append`` returns: the records it sealed, and the frames it encoded
    them into (the bytes it stored), which a game keeps instead of the records.

    A record is built when it is read, not when it is sealed: its data decoded from the
    canonical bytes that were hashed (``decode``), exactly as a reader of the store will see
    it. A live game reads almost none of them (its head after a step, an event a client asks
    for), and decoding each as it was sealed cost 5-12 % of a game's live steps (measured on
    the bench's one-against-one duel: 2.31 against 2.19 ms a game, seven interleaved rounds
    of 150). The stores write what they need of a record from ``drafts`` and ``hashes``. It
    reads as a list of records (indexed, sliced, iterated, compared, added to a list)."""

    __slots__ = ("_built", "_data", "_decode", "_prev", "drafts", "frames", "hashes")

    def __init__(self, drafts: Sequence[Draft], frames: list[bytes], hashes: list[bytes],
                 data: list[bytes], prev: bytes, decode: Callable[[bytes], Any]) -> None:
        self.drafts, self.frames, self.hashes = drafts, frames, hashes
        self._data, self._prev, self._decode = data, prev, decode
        self._built: dict[int, Record] = {}

    def __len__(self) -> int:
        return len(self.hashes)

    def _get(self, i: int) -> Record:
        i = range(len(self.hashes))[i]   # (an IndexError out of range)
        r = self._built.get(i)
        if r is None:
            d = self.drafts[i]
            prev = self.hashes[i - 1] if i else self._prev
            r = self._built[i] = Record(d.seq, d.step, d.type, d.v, self._decode(self._data[i]),
                                        d.at, prev, self.hashes[i])
        return r

    def hash_at(self, i: int) -> bytes:
        return self.hashes[i]

    def __add__(self, other: Sequence[Record]) -> list[Record]:
        return [*self, *other]

    def __radd__(self, other: Sequence[Record]) -> list[Record]:
        return [*other, *self]

    def __repr__(self) -> str:
        return f"Sealed(<{len(self.hashes)} records>)"


class RecordLog(BuiltWhenRead):
    """A game's records, each kept as the bytes it is stored in and built when read.

    A record is a tuple of eight objects and a decoded dict, three times the bytes it was
    stored in (measured: 0.52 against 0.23 KiB an event): a game that kept its records held
    most of its memory in them. So a load keeps the stored bytes it read, and a live game the
    frames its store sealed (with a memory store, the very bytes objects the store keeps).
    Only the newest step's records are kept whole: that is what a game is asked for after
    each step (its events, its head). Built records are not kept: reading the whole log again
    (an export, a narration) decodes it again, about 2 us a record.
    """

    __slots__ = ("_decode", "_items", "_tail", "_tail_at")

    def __init__(self, decode: Callable[[bytes], Record] | None = None) -> None:
        self._items: list[Record | bytes] = []
        self._decode = decode
        self._tail: Sequence[Record] = []
        self._tail_at = 0

    def __len__(self) -> int:
        return len(self._items)

    def held_bytes(self) -> int:
        """The memory of the records kept as bytes (a game's "events", which make bench
        weighs apart from the rest of a held game); records kept built, as a game made from
        records given rather than read from a store keeps them, are not counted."""
        return sum(sys.getsizeof(item) for item in self._items if type(item) is bytes)

    def _get(self, i: int) -> Record:
        item = self._items[i]
        if type(item) is not bytes:
            return item  # type: ignore[return-value]  # not bytes: the Record decoded
        if i < 0:
            i += len(self._items)
        if 0 <= i - self._tail_at < len(self._tail):   # (a replay may append after it)
            return self._tail[i - self._tail_at]
        if self._decode is None:
            raise ValueError("this log holds raw records but no decoder")
        return self._decode(item)

    def hash_at(self, i: int) -> bytes:
        """A head after each step (the server tells it, signed) is the newest step's, whose
        records a live game keeps sealed: their hashes are read without building them."""
        n = len(self._items)
        if -n <= i < 0:
            i += n
        tail = self._tail
        if 0 <= i - self._tail_at < len(tail) and isinstance(tail, BuiltWhenRead):
            return tail.hash_at(i - self._tail_at)
        return self._get(i).hash

    def __iter__(self) -> Iterator[Record]:
        for i in range(len(self._items)):
            yield self._get(i)

    def __repr__(self) -> str:
        return f"RecordLog(<{len(self._items)} records>)"

    @property
    def raw_append(self) -> Callable[[Record | bytes], None]:
        """The underlying list's append (a replay calls it once a record)."""
        return self._items.append

    def add(self, sealed: Sequence[Record]) -> None:
        """Append what a store sealed: the frames it gave with them, if this log can read
        them back, else the records themselves."""
        frames = getattr(sealed, "frames", None)
        if frames is None or self._decode is None:
            self._items.extend(sealed)
            return
        self._tail_at = len(self._items)
        self._tail = sealed   # (a Sealed builds a record when it is read)
        self._items.extend(frames)

    def stored(self, start: int, stop: int) -> list[Record | bytes]:
        """Records ``start`` to ``stop`` as kept: the newest step's whole, others as bytes."""
        items = self._items[start:stop]
        end = self._tail_at + len(self._tail)
        for i in range(max(start, self._tail_at), min(stop, end, len(self._items))):
            items[i - start] = self._tail[i - self._tail_at]
        return items

    def views(self, decode: Callable[[bytes], Any]) -> Iterator[Any]:
        """Each record as ``decode`` reads its stored bytes (a record already made is given
        as it is): a reader that needs only some fields need not build whole records."""
        for item in self._items:
            yield decode(item) if type(item) is bytes else item


def step_heads(records: Iterable[Record]) -> dict[int, bytes]:
    """Each step's head: the hash of its last record. A player who notes a head (a receipt)
    can later prove that a log holding his game was cut, forked or rewritten."""
    heads: dict[int, bytes] = {}
    for r in records:
        heads[r.step] = r.hash
    return heads


def data_now(r: Any) -> dict[str, Any]:
    """A record's (or a view's: type, v, data) event data in today's shape: as it is, or (an
    older engine's record) as an upcaster reads it. What a reader of records (a story, a
    page) reads, so that no reader knows an older shape."""
    from .events import EVENTS

    cls = EVENTS.get(r.type)
    if cls is None or cls.v == r.v:
        return r.data  # type: ignore[no-any-return]  # (a record's data is a map)
    from .upcast import decode_event

    return decode_event(r.type, r.v, r.data).to_data()
