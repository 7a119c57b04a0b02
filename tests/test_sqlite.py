"""SqliteStore beyond the contract: two connections racing, and a damaged row."""

from __future__ import annotations

import sqlite3

import pytest

from regiment.core.errors import ConcurrencyConflict, CorruptLog
from regiment.store import SqliteStore

from .test_store_contract import drafts


def test_two_writers_on_one_game_cannot_fork_it(tmp_path):
    a, b = SqliteStore(tmp_path / "g.db"), SqliteStore(tmp_path / "g.db")
    a.append("g1", drafts(0, 1, 0), 0)
    with pytest.raises(ConcurrencyConflict, match="open for writing in another process"):
        b.append("g1", drafts(1, 1, 1), 1)     # STORE.ONE_WRITER
    b.append("g2", drafts(0, 1, 0), 0)         # another game of the same file is free
    a.close()                                  # the writer leaves: the game is free again
    b.append("g1", drafts(1, 1, 1), 1)
    with pytest.raises(ConcurrencyConflict, match="expected version 1"):
        b.append("g1", drafts(1, 1, 1), 1)     # a stale version never forks it (STORE.VERSION)
    assert [r.seq for r in b.read("g1")] == [0, 1]
    b.close()


def test_a_damaged_row_is_corrupt_log_naming_the_game_and_record(tmp_path):
    with SqliteStore(tmp_path / "g.db") as store:
        store.append("g1", drafts(0, 2, 0), 0)
    db = sqlite3.connect(tmp_path / "g.db")
    db.execute("UPDATE events SET record = ? WHERE seq = 1", (b"\xc1\xc1",))
    db.commit()
    db.close()
    with SqliteStore(tmp_path / "g.db") as store, pytest.raises(CorruptLog, match="g1 record 1"):
        list(store.read("g1"))


def test_a_file_that_is_not_sqlite_is_corrupt_log(tmp_path):
    (tmp_path / "x.db").write_bytes(b"garbage" * 1000)
    with pytest.raises(CorruptLog, match="not a regiment store"):
        SqliteStore(tmp_path / "x.db")


def test_a_full_database_is_a_store_error_and_loses_nothing(tmp_path):
    from regiment.core.errors import StoreError

    store = SqliteStore(tmp_path / "g.db")
    store.append("g1", drafts(0, 1, 0), 0)
    store.db.execute("PRAGMA max_page_count = " + str(
        store.db.execute("PRAGMA page_count").fetchone()[0]))  # the disk is now "full"
    big = [d._replace(data={"blob": "x" * 200_000}) for d in drafts(1, 3, 1)]
    with pytest.raises(StoreError, match="the disk is full; the store is as it was"):
        store.append("g1", big, 1)
    assert store.version("g1") == 1
    store.db.execute("PRAGMA max_page_count = 1073741823")
    store.append("g1", big, 1)
    assert [r.seq for r in store.read("g1")] == [0, 1, 2, 3]
    store.close()
