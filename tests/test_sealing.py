"""The write path: events encoded straight from their fields, bodies put together from parts.

Both are shortcuts of the canonical encoding (store/codec.py), so both are checked against it:
every event the example battles make encodes as its data does, and every frame of a batch is
the whole record's map encoded canonically.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regiment.core.events import EVENTS, DiceRolled, load_rulebooks
from regiment.core.game import Game
from regiment.core.record import Draft, Record
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore
from regiment.store.codec import GENESIS, canonical, decode_record, encode_canonical, link
from regiment.store.sealing import event_bytes, seal
from regiment.tools.demo import play

from .conftest import EXAMPLES


def battle_events(name: str) -> list:
    scenario = load_scenario(EXAMPLES / f"{name}.toml")
    scenario["seed"] = scenario["seed"] or "60de"
    game = Game.new(scenario, store=MemoryStore())
    play(game, show_undo=True)
    return [game.timeline.events(s) for s in range(len(game.timeline.steps))]


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.toml")))
def test_an_event_encodes_as_its_data_does(name):
    game_steps = battle_events(name)
    kinds = set()
    for events in game_steps:
        for e in events:
            assert event_bytes(e) == encode_canonical(e.to_data()), e.type
            kinds.add(type(e))
    assert len(kinds) > 5


def test_a_game_s_records_hold_its_events_data_as_a_reader_sees_it():
    scenario = load_scenario(EXAMPLES / "ford_clash.toml")
    scenario["seed"] = "60de"
    game = Game.new(scenario, store=MemoryStore())
    play(game, show_undo=False)
    again = Game.load(game.game_id, game.store)
    assert list(again.records) == list(game.records)
    last = game.timeline.events(len(game.timeline.steps) - 1)
    tail = game.records[len(game.records) - len(last):]
    assert [r.data for r in tail] == [msgpack.unpackb(encode_canonical(e.to_data()))
                                      for e in last]


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=6)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=8)


def for_hint(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type, as a rule could give them (Any: plain data)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return plain
    if hint is int:
        return st.integers(-(2**63), 2**63 - 1)
    if hint is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*map(for_hint, args))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(for_hint(args[0]), max_size=3).map(tuple)
        return st.tuples(*map(for_hint, args))
    if origin is dict or hint is dict:
        return st.dictionaries(st.text(max_size=5), for_hint(args[1]) if args else plain,
                               max_size=3)
    if typing.is_typeddict(hint):   # a map of known keys (PartData, SparedData): each typed
        hints = typing.get_type_hints(hint)
        return st.fixed_dictionaries({k: for_hint(v) for k, v in hints.items()
                                      if k in hint.__required_keys__},
                                     optional={k: for_hint(v) for k, v in hints.items()
                                               if k in hint.__optional_keys__})
    return st.from_type(hint)


def any_event(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    return st.builds(cls, **{f.name: for_hint(hints[f.name])
                             for f in dataclasses.fields(cls)})


def every_event_class() -> list[type]:
    load_rulebooks()
    return [EVENTS[name] for name in sorted(EVENTS)]


@settings(max_examples=400)
@given(st.sampled_from(every_event_class()).flatmap(any_event))
def test_every_kind_of_event_encodes_as_its_data_does(event):
    """Beyond the events the example battles make: every registered class (those with fields
    renamed or sparse among them), its fields holding anything of their types."""
    assert event_bytes(event) == encode_canonical(event.to_data())


@pytest.mark.parametrize("field, bad", [("faces", (1, b"raw")), ("faces", {1, 2}),
                                        ("index", 2**64), ("unit", b"boyz")])
def test_an_event_field_that_is_not_plain_data_is_refused_and_nothing_is_stored(field, bad):
    fields = {"purpose": "charge", "unit": "boyz", "faces": (3, 4), "index": 0, field: bad}
    event = DiceRolled(**fields)
    with pytest.raises(ValueError):
        event_bytes(event)
    store = MemoryStore()
    with pytest.raises(ValueError):
        store.append("g", [Draft(0, 0, event.type, event.v, event, "t")], 0)
    assert store.version("g") == 0


texts = st.sampled_from(["2026-12-03T10:00:00Z", "2026-12-03T10:00:01Z", "t"])
values = st.integers(-(2**63), 2**63 - 1) | st.text()
drafted = st.lists(st.tuples(st.sampled_from([("DiceRolled", 1), ("PhaseChanged", 1),
                                              ("UnitMoved", 3), ("Nobody", 7)]),
                             st.integers(0, 3), texts,
                             st.dictionaries(st.text(max_size=5), values, max_size=3)),
                   min_size=1, max_size=8)


@given(drafted)
def test_every_frame_of_a_batch_is_its_whole_record_encoded(batch):
    """A batch's repeated parts (its time, its step, a type and version) are encoded once:
    each frame must still be exactly the whole record's canonical map, chained on the last."""
    drafts = [Draft(i, step, type_, v, data, at)
              for i, ((type_, v), step, at, data) in enumerate(batch)]
    records, frames = seal(drafts, GENESIS)
    prev = GENESIS
    for d, r, frame in zip(drafts, records, frames, strict=True):
        whole = {"at": d.at, "data": d.data, "seq": d.seq, "step": d.step, "type": d.type,
                 "v": d.v}
        assert r.hash == link(prev, msgpack.packb(canonical(whole)))
        framed = {**canonical(whole), "hash": r.hash, "prev": prev}
        assert frame == msgpack.packb({k: framed[k] for k in sorted(framed)})
        prev = r.hash


@given(drafted, st.data())
def test_a_sealed_record_is_built_when_read_and_is_the_record_its_frame_holds(batch, data):
    """``seal`` keeps each record's parts and builds the record when it is read: whatever
    index, negative index or slice is read, in whatever order, it is the record a reader of
    the stored frame gets (its data decoded as a reader decodes it), and one not read is not
    built."""
    drafts = [Draft(i, step, type_, v, d, at) for i, ((type_, v), step, at, d) in
              enumerate(batch)]
    records, frames = seal(drafts, GENESIS)
    assert records.frames is frames and len(records) == len(frames) and not records._built
    stored = [Record(**msgpack.unpackb(f)) for f in frames]   # (steps here may pass seqs)
    order = data.draw(st.permutations(range(-len(frames), len(frames))))
    for i in order[:len(frames)]:
        assert records[i] == stored[i]
    assert len(records._built) <= len(frames)
    lo, hi = data.draw(st.integers(0, len(frames))), data.draw(st.integers(0, len(frames)))
    assert records[lo:hi] == stored[lo:hi]
    assert list(records) == stored == records
    half = len(stored) // 2   # added to a list either way, as a store's list once was
    assert records + stored[:half] == stored + stored[:half]
    assert stored[:half] + records == stored[:half] + stored
    assert [r.hash for r in records] == records.hashes
    with pytest.raises(IndexError):
        records[len(frames)]


def test_a_live_game_builds_none_of_a_step_s_records_until_one_is_read():
    scenario = load_scenario(EXAMPLES / "ford_clash.toml")
    scenario["seed"] = "60de"
    game = Game.new(scenario, store=MemoryStore())
    game.submit(game.legal()[0])
    tail = game.records._tail
    assert len(tail) > 0 and not tail._built   # (a Sealed, from the memory store)
    head = game.head                           # read from the hashes: nothing built
    assert not tail._built and head == game.records[-1].hash.hex()
    assert list(tail._built) == [len(tail) - 1]
    assert game.records[-1] == decode_record(game.store.frames(game.game_id)[-1])


def test_a_records_hash_is_the_one_its_record_holds_live_loaded_and_at_either_end():
    """``hash_at``: what a head is read from, the newest step's hashes or a record's bytes."""
    scenario = load_scenario(EXAMPLES / "ford_clash.toml")
    scenario["seed"] = "beef"
    game = Game.new(scenario, store=MemoryStore())
    for _ in range(6):
        game.submit(game.legal()[0])
    loaded = Game.load(game.game_id, game.store)
    for records in (game.records, loaded.records):
        n = len(records)
        assert [records.hash_at(i) for i in range(-n, n)] == [r.hash for r in records] * 2
        with pytest.raises(IndexError):
            records.hash_at(n)
    assert loaded.head == game.head == game.records[-1].hash.hex()
