"""SqliteStore: many games in one SQLite file, the embedded default.

WAL journal; each step is one ``BEGIN IMMEDIATE`` transaction that reads the game's head,
checks the expected version and inserts the step's records; the primary key ``(game_id, seq)``
makes a racing second writer fail instead of forking the log. ``synchronous=FULL`` (the
default, ``durable=True``) fsyncs the WAL at every commit.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from regiment.core.errors import ConcurrencyConflict, CorruptLog, StoreError
from regiment.core.record import Draft, Record

from .base import Reading, check_append, check_game_id
from .codec import GENESIS, decode_blob, encode_blob, seal

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    step INTEGER NOT NULL,
    type TEXT NOT NULL,
    record BLOB NOT NULL,
    hash BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS secrets (
    game_id TEXT PRIMARY KEY,
    seed BLOB NOT NULL
);
"""


class SqliteStore(Reading):
    def __init__(self, path: str | Path, *, durable: bool = True) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, timeout=10.0,
                                      check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"not a usable SQLite store: {exc}", where=str(path)) from None

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    def append(self, game_id: str, drafts: Sequence[Draft], expected_version: int
               ) -> list[Record]:
        check_game_id(game_id)
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT seq, hash FROM events WHERE game_id = ? "
                                 "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
                version, head = (row[0] + 1, row[1]) if row else (0, GENESIS)
                check_append(game_id, drafts, expected_version, version)
                records, frames = seal(drafts, head)
                if version == 0 and records:
                    db.execute("INSERT OR IGNORE INTO games VALUES (?, ?)",
                               (game_id, records[0].at))
                db.executemany(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, r.seq, r.step, r.type, f, r.hash)
                     for r, f in zip(records, frames, strict=True)],
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise ConcurrencyConflict(f"game {game_id}: another writer appended first") from None
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise ConcurrencyConflict(f"game {game_id}: the store is locked by another "
                                          f"writer ({exc})") from None
            raise StoreError(f"{self.path}: could not append the step ({exc}); "
                             "nothing was written") from None
        return records

    def _where(self, game_id: str, seq: int) -> str:
        return f"{self.path} {game_id} record {seq}"

    def _payloads(self, game_id: str, start: int) -> Iterator[tuple[int, bytes]]:
        cursor = self.db.execute("SELECT seq, record FROM events WHERE game_id = ? AND seq >= ? "
                                 "ORDER BY seq", (game_id, start))
        for seq, blob in cursor:
            if type(blob) is not bytes:
                raise CorruptLog("the record is not a blob", where=self._where(game_id, seq))
            yield seq, blob

    def version(self, game_id: str) -> int:
        row = self.db.execute("SELECT MAX(seq) FROM events WHERE game_id = ?",
                              (game_id,)).fetchone()
        return 0 if row[0] is None else row[0] + 1

    def games(self) -> list[str]:
        """Game ids, oldest first."""
        return [r[0] for r in self.db.execute("SELECT game_id FROM games ORDER BY rowid")]

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None:
        self.db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)",
                        (game_id, seq, encode_blob(data)))

    def load_snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        row = self.db.execute("SELECT seq, data FROM snapshots WHERE game_id = ?",
                              (game_id,)).fetchone()
        if row is None:
            return None
        value = decode_blob(row[1], f"{self.path} {game_id} snapshot")
        if not isinstance(value, dict):
            raise CorruptLog("not a snapshot", where=f"{self.path} {game_id} snapshot")
        return row[0], value

    def put_secret(self, game_id: str, seed: bytes) -> None:
        self.db.execute("INSERT OR REPLACE INTO secrets VALUES (?, ?)", (game_id, bytes(seed)))

    def get_secret(self, game_id: str) -> bytes | None:
        row = self.db.execute("SELECT seed FROM secrets WHERE game_id = ?",
                              (game_id,)).fetchone()
        return None if row is None else bytes(row[0])

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
