"""The canonical msgpack codec and the BLAKE2b hash chain.

A record's hash is BLAKE2b-256 over the previous record's hash and the canonical encoding of
its body ``{at, data, seq, step, type, v}``: maps with sorted keys, no raw bytes inside ``data``,
numbers as they are. A record exported to JSON and read back therefore hashes the same.

Everything read back goes through ``decode_record``, which treats its bytes as hostile: sizes
of frames, strings and containers are capped, extension types are refused, and the decoded
value must have exactly the shape of a record. Whatever is wrong is a ``CorruptLog`` that says
where; nothing crashes, hangs or allocates without bound.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any

import msgpack
import msgspec

from regiment.core.errors import CorruptLog
from regiment.core.events import EVENTS, Event
from regiment.core.record import Record
from regiment.core.upcast import UPCASTERS, decode_event

HASH_SIZE = 32
GENESIS = bytes(HASH_SIZE)  # the ``prev`` of a game's first record

MAX_FRAME = 8 * 1024 * 1024
MAX_STR = 1024 * 1024
MAX_ITEMS = 200_000
MAX_INT = 2**63 - 1

_KEYS = frozenset({"seq", "step", "type", "v", "data", "at", "prev", "hash"})
_BODY_KEYS = frozenset({"seq", "step", "type", "v", "data", "at"})


def canonical(value: Any, where: str = "data") -> Any:
    """A copy of ``value`` with every map's keys sorted; refuses what JSON could not carry."""
    kind = type(value)
    if kind is dict:
        out = {}
        for key in sorted(value):
            if type(key) is not str:
                raise ValueError(f"{where}: map keys must be strings, got {key!r}")
            out[key] = canonical(value[key], where)
        return out
    if kind is list or kind is tuple:
        return [canonical(v, where) for v in value]
    if kind is int:
        if not -MAX_INT - 1 <= value <= MAX_INT:
            raise ValueError(f"{where}: integer {value} does not fit in 64 bits")
        return value
    if kind in (str, float, bool) or value is None:
        return value
    if isinstance(value, StrEnum):   # a state's word (a unit's status): written as its word
        return str(value)
    raise ValueError(f"{where}: {kind.__name__} is not plain data")


# The canonical encoding, fast: msgspec writes maps with sorted keys in C, byte for byte what
# msgpack writes for ``canonical(value)`` (tests/test_codec.py checks it on random data), 14
# times faster. It would also write raw bytes and sets, so ``check_plain`` goes first.
_CANONICAL = msgspec.msgpack.Encoder(order="sorted")
_SCALARS = frozenset({str, int, float, bool, type(None)})


def check_plain(value: Any, where: str = "data") -> None:
    """Refuse what a JSON export could not carry back: raw bytes, sets, objects."""
    kind = type(value)
    if kind is dict:
        for item in value.values():
            if type(item) not in _SCALARS:
                check_plain(item, where)
    elif kind is list or kind is tuple:
        for item in value:
            if type(item) not in _SCALARS:
                check_plain(item, where)
    elif kind not in _SCALARS and not isinstance(value, StrEnum):   # (an enum: its word)
        raise ValueError(f"{where}: {kind.__name__} is not plain data")


def encode_canonical(value: Any, where: str = "data") -> bytes:
    check_plain(value, where)
    try:
        return _CANONICAL.encode(value)
    except (TypeError, OverflowError) as exc:  # non-string keys, integers over 64 bits
        raise ValueError(f"{where}: {exc}") from None


def body_bytes(seq: int, step: int, type_: str, v: int, data: Any, at: str) -> bytes:
    """The canonical encoding that a record's hash covers (keys written in sorted order)."""
    return encode_canonical({"at": at, "data": data, "seq": seq, "step": step, "type": type_,
                             "v": v})


# An empty hasher of the chain's size, copied for each record: a copy is cheaper than making
# one with its size given (0.39 against 0.50 us a record, timeit, best of 5); nothing updates
# this one.
_LINK = hashlib.blake2b(digest_size=HASH_SIZE)


def link(prev: bytes, body: bytes) -> bytes:
    """The hash of a record: BLAKE2b of ``prev`` and its body (HASH_SIZE bytes)."""
    h = _LINK.copy()
    h.update(prev + body)
    return h.digest()


def encode_record(r: Record) -> bytes:
    check_plain(r.data)
    return _CANONICAL.encode({"at": r.at, "data": r.data, "hash": r.hash, "prev": r.prev,
                              "seq": r.seq, "step": r.step, "type": r.type, "v": r.v})


LIMITS: dict[str, Any] = {
    "raw": False, "use_list": True, "strict_map_key": True, "max_str_len": MAX_STR,
    "max_bin_len": MAX_STR, "max_array_len": MAX_ITEMS, "max_map_len": MAX_ITEMS,
    "max_ext_len": 0,
}


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"extension type {code} is not allowed in a log")


def unpack(payload: bytes, where: str = "") -> Any:
    """Decode untrusted msgpack with every size capped."""
    if len(payload) > MAX_FRAME:
        raise CorruptLog(f"a record of {len(payload)} bytes exceeds {MAX_FRAME}", where=where)
    try:
        return msgpack.unpackb(payload, ext_hook=_no_ext, **LIMITS)
    except Exception as exc:  # msgpack raises many types on hostile input; all mean "corrupt"
        raise CorruptLog(f"undecodable record ({type(exc).__name__}: {exc})", where=where) from None


_TYPES = (int, int, str, int, dict, str, bytes, bytes)
_new_record = tuple.__new__


def record_from_map(m: Any, where: str = "") -> Record:
    """Check that a decoded value has exactly a record's shape, and build the Record."""
    try:
        if type(m) is not dict or len(m) != 8:
            raise KeyError
        fields = (m["seq"], m["step"], m["type"], m["v"], m["data"], m["at"], m["prev"],
                  m["hash"])
    except KeyError:
        keys = sorted(map(str, m)) if type(m) is dict else type(m).__name__
        raise CorruptLog(f"not a record (fields {keys})", where=where) from None
    seq, step, _, v, _, _, prev, digest = fields
    if (tuple(map(type, fields)) != _TYPES or not 0 <= step <= seq or v < 1
            or len(prev) != HASH_SIZE or len(digest) != HASH_SIZE):
        raise CorruptLog("a record field has the wrong type or size", where=where)
    return _new_record(Record, fields)  # type: ignore[no-any-return]


# --- The read path: msgspec decodes and checks in C ---------------------------------------
#
# msgspec decodes a record's envelope, its data and its event straight from the bytes and
# checks every type on the way, in about half the time msgpack takes to decode alone (see
# bench/bench.py). Anything it refuses goes through the slower path above, whose message
# names the field.


_Hash = Annotated[bytes, msgspec.Meta(min_length=HASH_SIZE, max_length=HASH_SIZE)]
_Count = Annotated[int, msgspec.Meta(ge=0)]


class _Envelope(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A record's envelope; its ranges and sizes are checked in C as it is decoded."""

    seq: _Count
    step: _Count
    type: str
    v: Annotated[int, msgspec.Meta(ge=1)]
    data: msgspec.Raw
    at: str
    prev: _Hash
    hash: _Hash


_ENVELOPE = msgspec.msgpack.Decoder(_Envelope)
_DATA = msgspec.msgpack.Decoder(dict[str, Any])
_EVENT_DECODERS: dict[type, msgspec.msgpack.Decoder[Any]] = {}
_FAILURES = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, ValueError,
             TypeError, OverflowError, MemoryError)


def _split(payload: bytes, where: str) -> tuple[Record, msgspec.Raw]:
    if len(payload) > MAX_FRAME:
        raise CorruptLog(f"a record of {len(payload)} bytes exceeds {MAX_FRAME}", where=where)
    try:
        e = _ENVELOPE.decode(payload)
        data = _DATA.decode(e.data)
    except _FAILURES:
        return record_from_map(unpack(payload, where), where), msgspec.Raw()  # names the fault
    if e.step > e.seq:
        raise CorruptLog("a record field has the wrong type or size", where=where)
    return _new_record(Record, (e.seq, e.step, e.type, e.v, data, e.at, e.prev, e.hash)), e.data


class View(msgspec.Struct, frozen=True):
    """A record's step, type, version and data: what a story tells of it."""

    step: int
    type: str
    v: int
    data: dict[str, Any]


decode_view = msgspec.msgpack.Decoder(View).decode
"""The view of a record's bytes that a load already checked (the rest is skipped, in C)."""


def decode_record(payload: bytes, where: str = "") -> Record:
    """Bytes from any store or file to a Record, every field checked."""
    return _split(payload, where)[0]


# By event type: (its version, its class's decoder, how many fields it has, whether all of
# them are required, their names). A type not known yet (its rulebook not loaded) is not
# kept as missing.
_Plan = tuple[int, Callable[[Any], Event], int, bool, frozenset[str]]
_PLANS: dict[str, _Plan] = {}
_DATA_KEYS = msgspec.msgpack.Decoder(dict[str, msgspec.Raw]).decode   # a map's keys, values skipped


def _map_size(raw: msgspec.Raw) -> int:
    """How many keys the msgpack map in ``raw`` declares (-1: not a map)."""
    view = memoryview(raw)
    if not view:
        return -1
    head = view[0]
    if 0x80 <= head <= 0x8F:
        return head & 0x0F
    if head == 0xDE:
        return int.from_bytes(view[1:3], "big")
    if head == 0xDF:
        return int.from_bytes(view[1:5], "big")
    return -1


def _plan(type_: str) -> _Plan | None:
    cls = EVENTS.get(type_)
    if cls is None or cls.schema.aliases:   # (msgspec knows fields by name, not wire name)
        return None
    schema = cls.schema
    plan = _PLANS[type_] = (cls.v, msgspec.msgpack.Decoder(cls).decode, schema.n,
                            len(schema.required) == schema.n, schema.keys)
    return plan


def decode_fast(payload: bytes, e: _Envelope | None = None) -> tuple[int, int, Event]:
    """(seq, step, event) of a record, its event decoded straight from the stored bytes.

    The load path: no Record and no data dict are built (see core.record.RecordLog). msgspec
    skips unknown fields and fills defaults, so an unknown field must not hide: a map of as
    many keys as its class has fields, all of them required, is decoded at once (a key
    missing fails); any other map's keys are read first, and must be distinct and the
    class's (a sparse field left out: ``Event.sparse``, most often some of them, which went
    the slow way until issue 61: 12 % of the bench's long log). Anything else goes through
    ``decode_pair``, whose error says what is wrong.
    """
    if e is None:
        try:
            e = _ENVELOPE.decode(payload)
        except _FAILURES:
            e = None
    if e is not None and e.step <= e.seq and len(payload) <= MAX_FRAME:
        plan = _PLANS.get(e.type) or _plan(e.type)
        if plan is not None and plan[0] == e.v:
            _, decode, n, exact, keys = plan
            data = e.data
            size = _map_size(data)
            try:
                if exact and size == n:
                    return e.seq, e.step, decode(data)
                if 0 <= size <= n:
                    present = _DATA_KEYS(data).keys()
                    if len(present) == size and present <= keys:
                        return e.seq, e.step, decode(data)
            except _FAILURES:
                pass
        elif plan is not None and e.v < plan[0]:
            event = _upcast_fast(e.type, e.v, e.data, plan)
            if event is not None:
                return e.seq, e.step, event
    record, event = decode_pair(payload)
    return record.seq, record.step, event


def _upcast_fast(type_: str, v: int, raw: msgspec.Raw, plan: _Plan) -> Event | None:
    """An older version's record, upcast as ``decode_event`` upcasts it, then decoded into
    its class by the fast path's own decoder from today's shape encoded again (msgspec in C,
    where ``decode_event`` checks field by field in Python: 12 us a record, 6.5 % of the
    bench's long log). None: anything odd, which ``decode_pair`` then names."""
    try:
        data = _DATA.decode(raw)
        while v < plan[0]:
            data = UPCASTERS[(type_, v)](data)
            v += 1
        if not (isinstance(data, dict) and len(data) <= plan[2] and data.keys() <= plan[4]):
            return None
        return plan[1](_CANONICAL.encode(data))
    except Exception:   # (the slow path raises what is wrong, naming it)
        return None


def decode_pair(payload: bytes, where: str = "") -> tuple[Record, Event]:
    """A record and its event, both checked (the event decoded from the same bytes)."""
    record, raw = _split(payload, where)
    cls = EVENTS.get(record.type)
    if raw and cls is not None and cls.v == record.v and cls.schema.keys.issuperset(record.data):
        decoder = _EVENT_DECODERS.get(cls)
        if decoder is None:
            decoder = _EVENT_DECODERS[cls] = msgspec.msgpack.Decoder(cls)
        try:
            return record, decoder.decode(raw)
        except _FAILURES:
            pass  # the schema below says exactly what is wrong
    try:
        return record, decode_event(record.type, record.v, record.data)
    except CorruptLog as exc:
        raise exc.at(where or f"record {record.seq}") from None


def check_link(r: Record, prev: bytes) -> str | None:
    """Why ``r`` does not chain onto ``prev`` (None when it does)."""
    if r.prev != prev:
        return "its prev is not the hash of the record before it"
    try:
        body = body_bytes(r.seq, r.step, r.type, r.v, r.data, r.at)
    except ValueError as exc:
        return f"its data is not plain: {exc}"
    if link(prev, body) != r.hash:
        return "its hash does not match its contents"
    return None


def encode_blob(value: Any) -> bytes:
    """Snapshots and other side data: canonical msgpack of plain data."""
    return encode_canonical(value, "snapshot")


def decode_blob(payload: bytes, where: str) -> Any:
    return unpack(payload, where)
