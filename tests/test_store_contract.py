"""The EventStore contract, run against every store (memory, log file, SQLite)."""

from __future__ import annotations

import pytest

from regiment.core.errors import BadRequest, ConcurrencyConflict
from regiment.core.record import Draft
from regiment.store.codec import GENESIS, check_link


def drafts(start: int, count: int, step: int, game: str = "g1") -> list[Draft]:
    return [Draft(seq=start + i, step=step, type="PhaseChanged", v=1,
                  data={"phase": f"p{start + i}", "turn": 1, "player": "red"},
                  at="2026-11-30T00:00:00.000000Z") for i in range(count)]


def test_append_then_read_returns_the_same_records(store_factory):
    store = store_factory()
    first = store.append("g1", drafts(0, 3, 0), 0)
    second = store.append("g1", drafts(3, 2, 1), 3)
    read = list(store_factory().read("g1"))
    assert [r.seq for r in read] == [0, 1, 2, 3, 4]
    assert [r.hash for r in read] == [r.hash for r in first + second]
    assert [r.data for r in read] == [d.data for d in drafts(0, 3, 0) + drafts(3, 2, 1)]
    assert list(store_factory().read("g1", start=3))[0].seq == 3


def test_records_form_a_hash_chain(store_factory):
    store = store_factory()
    store.append("g1", drafts(0, 2, 0), 0)
    store = store_factory()
    store.append("g1", drafts(2, 2, 1), 2)  # a reopened store continues the chain
    prev = GENESIS
    for r in store_factory().read("g1"):
        assert check_link(r, prev) is None
        prev = r.hash


def test_expected_version_is_enforced(store_factory):
    store = store_factory()
    store.append("g1", drafts(0, 2, 0), 0)
    with pytest.raises(ConcurrencyConflict, match="expected version 1"):
        store.append("g1", drafts(1, 1, 1), 1)
    with pytest.raises(ConcurrencyConflict):
        store.append("g1", drafts(5, 1, 1), 2)  # seq must follow on
    assert store_factory().version("g1") == 2


def test_a_failed_append_writes_nothing(store_factory):
    store = store_factory()
    store.append("g1", drafts(0, 1, 0), 0)
    bad = [*drafts(1, 1, 1), Draft(seq=2, step=1, type="X", v=1, data={"b": b"raw"}, at="")]
    with pytest.raises(ValueError, match="not plain data"):
        store.append("g1", bad, 1)
    assert store_factory().version("g1") == 1
    store_factory().append("g1", drafts(1, 1, 1), 1)


def test_games_are_listed_oldest_first_and_kept_apart(store_factory):
    store = store_factory()
    store.append("g1", drafts(0, 1, 0), 0)
    later = [Draft(seq=0, step=0, type="PhaseChanged", v=1, data={"x": 1},
                   at="2026-12-01T00:00:00.000000Z")]
    store.append("g2", later, 0)
    store = store_factory()
    assert store.games() == ["g1", "g2"]
    assert store.version("g2") == 1 and store.version("nope") == 0
    assert list(store.read("nope")) == []


def test_snapshots_and_secrets_round_trip(store_factory):
    store = store_factory()
    store.append("g1", drafts(0, 1, 0), 0)
    assert store.load_snapshot("g1") is None and store.get_secret("g1") is None
    store.save_snapshot("g1", 0, {"phase": "x", "units": {"a": [1, 2]}})
    store.put_secret("g1", b"\x01\x02")
    store = store_factory()
    assert store.load_snapshot("g1") == (0, {"phase": "x", "units": {"a": [1, 2]}})
    assert store.get_secret("g1") == b"\x01\x02"


def test_bad_game_ids_are_refused(store_factory):
    with pytest.raises(BadRequest, match="game id"):
        store_factory().append("../etc/passwd", drafts(0, 1, 0), 0)
