"""The canonical codec: stable hashes, and hostile bytes that never crash, hang or balloon."""

from __future__ import annotations

import json
import time

import msgpack
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regiment.core.errors import CorruptLog
from regiment.core.record import Draft
from regiment.store.codec import (
    GENESIS,
    body_bytes,
    canonical,
    check_link,
    decode_blob,
    decode_record,
    link,
)
from regiment.store.logfile import MAGIC, scan
from regiment.store.sealing import seal
from regiment.tools.source import read_export

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=20,
)


def one(data: dict) -> Draft:
    return Draft(seq=0, step=0, type="GameStarted", v=1, data=data, at="2026-11-30T00:00:00Z")


@given(st.dictionaries(st.text(max_size=8), plain, max_size=5))
def test_the_hash_does_not_depend_on_key_order_and_survives_json(data):
    (record,), (frame,) = seal([one(data)], GENESIS)
    reordered = dict(reversed(list(data.items())))
    assert seal([one(reordered)], GENESIS)[0][0].hash == record.hash
    back = json.loads(json.dumps(record.to_json()))  # export, then read back
    assert body_bytes(back["seq"], back["step"], back["type"], back["v"], back["data"],
                      back["at"]) == body_bytes(0, 0, "GameStarted", 1, data, record.at)
    assert check_link(decode_record(frame, "test"), GENESIS) is None


@given(st.dictionaries(st.text(max_size=8), plain, max_size=5),
       st.integers(0, 2**40), st.integers(0, 2**31), st.text(min_size=1, max_size=30))
def test_a_sealed_frame_is_the_canonical_encoding_of_the_whole_record(data, seq, step, at):
    """seal puts the body and the frame together from their parts: the bytes must be those of
    the whole maps encoded canonically (what every earlier engine wrote and hashed)."""
    prev = bytes(range(32))
    draft = Draft(seq=seq, step=step, type="UnitMoved", v=3, data=data, at=at)
    (record,), (frame,) = seal([draft], prev)
    whole = {"at": at, "data": data, "seq": seq, "step": step, "type": "UnitMoved", "v": 3}
    assert record.hash == link(prev, msgpack.packb(canonical(whole)))
    framed = {**whole, "data": canonical(data), "hash": record.hash, "prev": prev}
    assert frame == msgpack.packb({k: framed[k] for k in sorted(framed)})


def test_raw_bytes_and_odd_types_are_not_plain_data():
    for bad in ({"b": b"x"}, {"s": {1, 2}}, {1: "int key"}, {"big": 2**64}):
        with pytest.raises(ValueError):
            canonical(bad)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_are_corrupt_log_never_a_crash(blob):
    for decode in (lambda b: decode_record(b, "fuzz"), lambda b: decode_blob(b, "fuzz"),
                   lambda b: scan(MAGIC + b, "fuzz")):
        try:
            decode(blob)
        except CorruptLog:
            pass


@settings(max_examples=300)
@given(st.data())
def test_mutated_records_are_corrupt_or_fail_their_hash(data):
    (record,), (frame,) = seal([one({"x": [1, 2.5, "y"], "z": None})], GENESIS)
    i = data.draw(st.integers(0, len(frame) - 1))
    byte = data.draw(st.integers(0, 255))
    mutated = frame[:i] + bytes([byte]) + frame[i + 1:]
    try:
        r = decode_record(mutated, "fuzz")
    except CorruptLog:
        return
    if mutated != frame:
        assert r == record or check_link(r, GENESIS) is not None


def test_declared_sizes_cannot_make_the_decoder_allocate():
    huge = [b"\xdd\xff\xff\xff\xff",            # array32 of 4 billion items
            b"\xdf\xff\xff\xff\xff",            # map32 of 4 billion pairs
            b"\xdb\xff\xff\xff\xff" + b"a",     # str32 of 4 GiB
            b"\xc6\xff\xff\xff\xff",            # bin32 of 4 GiB
            b"\xc9\xff\xff\xff\xff\x01",        # ext32
            b"\x91" * 100_000 + b"\xc0"]        # nesting 100,000 deep
    for blob in huge:
        start = time.perf_counter()
        with pytest.raises(CorruptLog):
            decode_record(blob, "fuzz")
        assert time.perf_counter() - start < 1.0


def test_a_record_must_have_exactly_a_records_shape():
    _, (frame,) = seal([one({})], GENESIS)
    m = msgpack.unpackb(frame)
    for change in ({"seq": -1}, {"seq": "0"}, {"prev": b"short"}, {"extra": 1}, {"v": 0},
                   {"data": [1]}):
        with pytest.raises(CorruptLog):
            decode_record(msgpack.packb({**m, **change}), "test")


@settings(max_examples=200)
@given(st.text(max_size=200))
def test_random_export_lines_are_corrupt_log(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("x") / "f.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    try:
        read_export(path)
    except CorruptLog:
        pass


def test_export_lines_with_nan_or_deep_nesting_are_refused(tmp_path):
    for line in ('{"seq": NaN}', "[" * 100_000 + "]" * 100_000, '{"prev": "zz"}'):
        path = tmp_path / "f.jsonl"
        path.write_text(line + "\n")
        with pytest.raises(CorruptLog, match="line 1"):
            read_export(path)


def test_the_fast_read_path_agrees_with_the_checked_path_on_every_event():
    import random

    from regiment.core.game import Game
    from regiment.core.upcast import decode_event
    from regiment.store import MemoryStore
    from regiment.store.codec import decode_pair

    from .conftest import random_play, small_scenario

    store = MemoryStore()
    game = Game.new(small_scenario(), store=store)
    random_play(game, random.Random(5), 150, 0.2)
    from regiment.store.codec import decode_fast

    for frame in store.frames(game.game_id):
        record, event = decode_pair(frame)
        assert record == decode_record(frame)
        checked = decode_event(record.type, record.v, record.data)
        assert event == checked and type(event) is type(checked)
        assert decode_fast(frame) == (record.seq, record.step, checked)


def test_the_fast_read_path_still_names_a_bad_field():
    from regiment.store.codec import decode_pair

    def frame(data: dict) -> bytes:
        return seal([Draft(seq=0, step=0, type="PhaseChanged", v=1, data=data, at="t")],
                    GENESIS)[1][0]

    with pytest.raises(CorruptLog, match=r"PhaseChanged\.turn: expected int"):
        decode_pair(frame({"phase": "x", "turn": True, "player": "red"}))
    with pytest.raises(CorruptLog, match="unknown field 'extra'"):
        decode_pair(frame({"phase": "x", "turn": 1, "player": "red", "extra": 1}))
    with pytest.raises(CorruptLog, match="missing field 'player'"):
        decode_pair(frame({"phase": "x", "turn": 1}))
    from regiment.store.codec import decode_fast

    for data, message in (({"phase": "x", "turn": 1, "player": "red", "extra": 1},
                           "unknown field 'extra'"),
                          ({"phase": "x", "turn": 1, "extra": "red"}, "unknown field 'extra'"),
                          ({"phase": "x", "turn": "1", "player": "red"}, "expected int")):
        with pytest.raises(CorruptLog, match=message):
            decode_fast(frame(data))


def test_the_fast_read_path_lets_no_unknown_field_take_a_defaulted_ones_place():
    """RollRequested's ``about`` has a default: a map of as many keys as its fields, with an
    unknown key instead of ``about``, would decode with the default if only keys were
    counted."""
    from regiment.store.codec import decode_fast

    def frame(data: dict, v: int = 2) -> bytes:
        return seal([Draft(seq=0, step=0, type="RollRequested", v=v, data=data, at="t")],
                    GENESIS)[1][0]

    good = {"purpose": "charge", "unit": "u", "player": "red", "dice": 2}
    toward = {"kind": "toward", "unit": "x"}
    assert decode_fast(frame({**good, "about": toward}))[2].about == toward
    assert decode_fast(frame(good))[2].about is None          # none: left out
    assert decode_fast(frame({**good, "about": "x"}, v=1))[2].about == toward   # (upcast)
    assert decode_fast(frame(good, v=1))[2].about is None     # an older record without it
    with pytest.raises(CorruptLog, match="unknown field 'bogus'"):
        decode_fast(frame({**good, "bogus": "x"}))


def test_the_fast_read_path_takes_some_sparse_fields_left_out(monkeypatch):
    """GameEnded has two sparse fields (``reason``, ``ending``): a record with one of them
    left out, the usual shape, is read on the fast path (issue 61: it went the slow way),
    to the event the slow path reads; a key twice, or one the class has not, is still the
    slow path's to name."""
    from regiment.store import codec

    def frame(data: dict) -> bytes:
        return seal([Draft(seq=0, step=0, type="GameEnded", v=1, data=data, at="t")],
                    GENESIS)[1][0]

    shapes = [{"winner": "red"}, {"winner": None, "ending": {"code": "turns"}},
              {"winner": "red", "reason": "x"}, {"winner": "red", "reason": "x", "ending": {}},
              {"ending": {"code": "turns"}}]
    slow = [codec.decode_pair(frame(d))[1] for d in shapes]

    def refused(payload: bytes, where: str = "") -> object:
        raise AssertionError("the slow path was taken")

    with monkeypatch.context() as m:
        m.setattr(codec, "decode_pair", refused)
        assert [codec.decode_fast(frame(d))[2] for d in shapes] == slow
    with pytest.raises(CorruptLog, match="unknown field 'bogus'"):
        codec.decode_fast(frame({"winner": "red", "bogus": 1}))
    # the same key twice: a map of two entries whose keys are one
    twice = b"\x82" + codec._CANONICAL.encode("winner") + b"\xc0" + \
        codec._CANONICAL.encode("winner") + codec._CANONICAL.encode("red")
    envelope = codec._CANONICAL.encode({"at": "t", "data": msgspec.Raw(twice), "hash": bytes(32),
                                        "prev": bytes(32), "seq": 0, "step": 0,
                                        "type": "GameEnded", "v": 1})
    with monkeypatch.context() as m:
        m.setattr(codec, "decode_pair", refused)
        with pytest.raises(AssertionError, match="the slow path was taken"):
            codec.decode_fast(envelope)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_on_the_fast_path_are_corrupt_log(blob):
    from regiment.core.errors import UnknownEventType
    from regiment.store.codec import decode_fast, decode_pair

    for decode in (decode_pair, decode_fast):
        try:
            decode(blob)
        except (CorruptLog, UnknownEventType):
            pass


@settings(max_examples=500)
@given(st.dictionaries(st.text(max_size=8), plain, max_size=6))
def test_the_fast_canonical_encoder_writes_exactly_the_reference_encoding(data):
    """encode_canonical (msgspec, C) is byte for byte msgpack of canonical() (the definition)."""
    from regiment.store.codec import encode_canonical

    assert encode_canonical(data) == msgpack.packb(canonical(data))


def test_the_fast_canonical_encoder_refuses_what_json_cannot_carry():
    from regiment.store.codec import encode_canonical

    for bad in ({"b": b"x"}, {"s": {1, 2}}, {1: "int key"}, {"big": 2**64}, {"o": object()},
                {"deep": [{"b": b"x"}]}):
        with pytest.raises(ValueError):
            encode_canonical(bad)


def test_the_fast_read_path_upcasts_every_older_record_as_the_checked_path_does(monkeypatch):
    """Every record of the games earlier engines wrote (0.3.0 to 0.12.0), read on the fast
    path, is the event ``decode_event`` upcasts it to, of the same class; those of an older
    version than their class's are upcast there, never handed to the slow path."""
    from pathlib import Path

    from regiment.core.events import EVENTS
    from regiment.core.upcast import decode_event
    from regiment.store import codec
    from regiment.store.codec import encode_record
    from regiment.tools.source import open_records

    data = Path(__file__).parent / "data"
    paths = [*sorted(data.glob("v0.*/*.jsonl")), data / "v0.3.0" / "logs"]
    older = 0
    slow = codec.decode_pair

    def counted(payload: bytes, where: str = "") -> object:
        record = slow(payload)[0]
        assert record.v == EVENTS[record.type].v, f"{record.type} v{record.v} went the slow way"
        return slow(payload, where)

    monkeypatch.setattr(codec, "decode_pair", counted)
    for path in paths:
        for record in open_records(str(path), None, [])[1]:
            checked = decode_event(record.type, record.v, record.data)
            fast = codec.decode_fast(encode_record(record))[2]
            assert fast == checked and type(fast) is type(checked), (path.name, record.seq)
            older += record.v < EVENTS[record.type].v
    assert older > 1000   # (the logs hold this many records of an older version)
