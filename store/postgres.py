"""A store on PostgreSQL (psycopg 3), for a game server of several processes and machines.

The same contract as the other stores (tests/test_store_contract.py runs on all four):
- ``events (game_id, seq)`` is the primary key, so two processes appending the same game at the
  same version cannot both succeed: the second gets ``ConcurrencyConflict``, and no game forks
  (STORE.VERSION). An append is one transaction, its step whole or not at all.
- ``games`` keeps each game's record count and head, read with every append (``FOR UPDATE``)
  and checked against the events on every read, as the SQLite store does.
- an append ``NOTIFY``s the channel ``regiment`` with ``GAME_ID VERSION`` when it commits, so
  that a server process hears that another one moved a game on (``listen``).
- the connection is re-made when it breaks (a database restarted, a network gone), with
  back-off (STORE.OUTAGE): while the database cannot be reached every call fails at once with
  ``StoreUnavailable``, which says so, and nothing is changed. A read is tried again once on a
  new connection; an append whose connection broke reads back whether its step committed
  before it answers, so a step is never reported lost that was written, nor twice written.
- a game server's store (``grouped=True``) commits with ``synchronous_commit = off``: a
  COMMIT returns once its WAL is written, not flushed, and ``sync()``, from a thread of its
  own, commits a write of its own (a row of ``syncs``) synchronously, which flushes the WAL up
  to its commit record and so every commit before it, of every process (group commit, as
  ``SqliteStore.sync``). A database that crashed before the flush may have lost a step that
  committed: each connection knows the start time of the database it was made to
  (``incarnation``), ``sync()`` says which one it flushed, and the server reads again the
  games whose steps went to an earlier one (``tools.server.durable``).
- dice seeds live in their own table, ``secrets``, never in the events: the database's access
  rights keep it (a server's role may read it; a reporting role should be granted ``events``
  and ``games`` only).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from regiment.core.errors import ConcurrencyConflict, CorruptLog, StoreError, StoreUnavailable
from regiment.core.record import Draft, Record

from .base import CAUGHT_UP, Reading, check_append, check_game_id
from .codec import GENESIS, HASH_SIZE, decode_blob, encode_blob
from .postgres_connection import Connection, reason, safe
from .postgres_schema import APPEND_KNOWN, SCHEMA
from .sealing import seal

CHANNEL = "regiment"
HEADS = 10_000   # games whose head an append remembers (a few hundred bytes each)
# Seconds a listener waits after a note for the notes that follow it, to take them at once:
# every append notifies, this process's own too, and a thread woken for each one took the
# interpreter from the event loop each time (issue 29: 13 % of a PostgreSQL server's
# samples were its listener's)
LISTEN_WINDOW = 0.005

class PostgresStore(Connection, Reading):
    """``PostgresStore("postgresql://user@host:port/db")``: tables are made when missing."""

    def __init__(self, url: str, *, connect_timeout: float = 5.0, grouped: bool = False
                 ) -> None:
        self.url = url
        self.grouped = grouped
        self._syncer: psycopg.Connection[Any] | None = None
        # the database server's start time as the connection saw it when it was made: the
        # incarnation each of its commits went to (tools.server.durable)
        self.incarnation: Any = None
        self._process = f"{socket.gethostname()}:{os.getpid()}"   # its row in ``syncs``
        # game -> (records, head) as this process last appended them: the next append
        # of the game goes in one statement if the game still stands there
        self._heads: dict[str, tuple[int, bytes]] = {}
        self.path = safe(url)   # for messages: never the password
        self.connect_timeout = max(2, int(connect_timeout))   # libpq's least
        self._db: psycopg.Connection[Any] | None = None
        self._failures = 0
        self._retry_at = 0.0
        try:
            db = psycopg.connect(url, autocommit=True, connect_timeout=self.connect_timeout)
        except psycopg.Error as exc:
            raise StoreError(f"{self.path}: cannot connect ({reason(exc)})") from None
        try:
            with db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(7263)")   # one CREATE at once
                db.execute(SCHEMA)
            self._grouping(db)
        except psycopg.Error as exc:
            db.close()
            raise StoreError(f"{self.path}: cannot make the tables ({reason(exc)})") from None
        self._db = db

    # --- the log ----------------------------------------------------------------------------

    def append(self, game_id: str, drafts: Sequence[Draft], expected_version: int
               ) -> Sequence[Record]:
        check_game_id(game_id)
        for attempt in (1, 2):
            db = self.db
            stage = ["statements"]
            try:
                return self._append(db, game_id, drafts, expected_version, stage)
            except (pg_errors.UniqueViolation, pg_errors.SerializationFailure):
                raise ConcurrencyConflict(f"game {game_id}: another writer appended first") \
                    from None
            except psycopg.Error as exc:
                if not self._lost(db):
                    raise StoreError(f"{self.path}: could not append to game {game_id} "
                                     f"({reason(exc)}); nothing was written") from None
                why = reason(exc)
            # The connection broke. Before the COMMIT went, the database rolled the step back;
            # during it, the step may have been written: read back which.
            if stage[0] == "commit":
                done = self._committed(game_id, drafts, expected_version, why)
                if done is not None:
                    return done
            if attempt == 2:
                raise StoreUnavailable(f"{self.path}: the connection to the database was lost "
                                       f"({why}); nothing was written")
        raise AssertionError("unreachable")

    def _append(self, db: psycopg.Connection[Any], game_id: str, drafts: Sequence[Draft],
                expected_version: int, stage: list[str]) -> Sequence[Record]:
        known = self._heads.pop(game_id, None)
        if known is not None and known[0] == expected_version and drafts:
            done = self._append_known(db, game_id, drafts, known, stage)
            if done is not None:
                return done
            stage[0] = "statements"   # the game had moved on: the long way says how
        done = self._append_read(db, game_id, drafts, expected_version, stage)
        if done:
            self._known(game_id, expected_version + len(done), done[-1].hash)
        return done

    def _append_known(self, db: psycopg.Connection[Any], game_id: str, drafts: Sequence[Draft],
                      known: tuple[int, bytes], stage: list[str]) -> Sequence[Record] | None:
        """The step on the head this process last wrote: one statement, one round trip (the
        long way is six: issue 29 measured the PostgreSQL server waiting on them for half its
        time). The games row is moved on only if it still stands where this process left
        it, and the records go in only if it was; None if it was not (another process
        appended: the long way reads the row and says so)."""
        version, head = known
        step = drafts[0].step
        if any(d.step != step or "," in d.type for d in drafts):   # not one step's: the long way
            return None
        records, frames = seal(drafts, head)
        stage[0] = "commit"   # the statement is its own transaction
        row = db.execute(APPEND_KNOWN, {
            "game": game_id, "version": version, "head": head,
            "records": version + len(records), "new_head": records.hashes[-1], "step": step,
            "lengths": ",".join(str(len(f)) for f in frames),
            "types": ",".join(d.type for d in drafts), "frames": b"".join(frames),
            "hashes": b"".join(records.hashes), "hash_size": HASH_SIZE,
            "channel": CHANNEL, "note": f"{game_id} {version + len(records)}"},
            prepare=True).fetchone()
        if row is None:
            return None
        if row[0] != len(records):   # the events table disagrees with the games row
            raise CorruptLog(f"game {game_id}: {row[0]} of {len(records)} records were "
                             "written", where=self._where(game_id, version))
        self._known(game_id, version + len(records), records.hashes[-1])
        return records

    def _known(self, game_id: str, version: int, head: bytes) -> None:
        self._heads[game_id] = (version, head)
        if len(self._heads) > HEADS:   # the game least recently appended to goes
            del self._heads[next(iter(self._heads))]

    def _append_read(self, db: psycopg.Connection[Any], game_id: str, drafts: Sequence[Draft],
                     expected_version: int, stage: list[str]) -> Sequence[Record]:
        with db.transaction():
            row = db.execute("SELECT records, head FROM games WHERE game_id = %s FOR UPDATE",
                             (game_id,)).fetchone()
            version, head = (row[0], bytes(row[1])) if row else (0, GENESIS)
            check_append(game_id, drafts, expected_version, version)
            records, frames = seal(drafts, head)
            if not records:
                return records
            if row is None:
                db.execute("INSERT INTO games (game_id, started, records, head) "
                           "VALUES (%s, %s, 0, %s)", (game_id, drafts[0].at, GENESIS))
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO events VALUES (%s, %s, %s, %s, %s, %s)",
                    [(game_id, d.seq, d.step, d.type, f, h)
                     for d, f, h in zip(drafts, frames, records.hashes, strict=True)])
            db.execute("UPDATE games SET records = %s, head = %s WHERE game_id = %s",
                       (version + len(records), records.hashes[-1], game_id))
            db.execute("SELECT pg_notify(%s, %s)",
                       (CHANNEL, f"{game_id} {version + len(records)}"))
            stage[0] = "commit"   # the block's end sends it
        return records

    def _committed(self, game_id: str, drafts: Sequence[Draft], expected: int, why: str
                   ) -> Sequence[Record] | None:
        """After a broken append: the sealed step if the database holds it (it committed),
        None if it holds the game as before (nothing was written). Either way it is known
        before the caller is answered; while it cannot be known, ``StoreUnavailable``."""
        try:
            row = self.db.execute("SELECT records, head FROM games WHERE game_id = %s",
                                  (game_id,)).fetchone()
        except (psycopg.Error, StoreUnavailable):
            self._db = None
            raise StoreUnavailable(
                f"{self.path}: the connection to the database was lost during an append "
                f"({why}); whether the step was written is read again from the database "
                "once it is back") from None
        version, head = (int(row[0]), bytes(row[1])) if row else (0, GENESIS)
        if version == expected:
            return None
        prev = self._head_at(game_id, expected)
        records, _ = seal(drafts, prev)
        if records and version == expected + len(records) and head == records.hashes[-1]:
            return records
        raise ConcurrencyConflict(f"game {game_id}: another writer appended first")

    def _head_at(self, game_id: str, version: int) -> bytes:
        if version == 0:
            return GENESIS
        row = self._one("SELECT hash FROM events WHERE game_id = %s AND seq = %s",
                        (game_id, version - 1))
        if row is None:
            raise CorruptLog(f"record {version - 1} is missing", where=self._where(game_id,
                                                                                   version - 1))
        return bytes(row[0])

    def _payloads(self, game_id: str, start: int) -> Iterator[tuple[int, bytes]]:
        """The game's payloads, checked against its games row (as the SQLite store does)."""
        def read(db: psycopg.Connection[Any]) -> tuple[int, bytes, list[Any]] | None:
            with db.transaction():   # one snapshot: the row and the events agree
                row = db.execute("SELECT records, head FROM games WHERE game_id = %s",
                                 (game_id,)).fetchone()
                if row is None:
                    return None
                rows = db.execute(
                    "SELECT seq, record, hash FROM events WHERE game_id = %s AND seq >= %s "
                    "AND seq < %s ORDER BY seq", (game_id, start, row[0])).fetchall()
                return row[0], bytes(row[1]), rows

        got = self._call(f"read game {game_id}", read)
        if got is None:
            return
        count, head, rows = got
        expected, last = start, None
        for seq, blob, digest in rows:
            if seq != expected:
                raise CorruptLog(f"record {expected} is missing (the next is {seq})",
                                 where=self._where(game_id, expected))
            yield seq, bytes(blob)
            expected += 1
            last = bytes(digest)
        if expected < count or (last is not None and last != head):
            raise CorruptLog(f"the game holds {expected} records, its games row says {count}",
                             where=self._where(game_id, expected))

    def _where(self, game_id: str, seq: int) -> str:
        return f"{self.path} {game_id} record {seq}"

    def version(self, game_id: str) -> int:
        row = self._one("SELECT records FROM games WHERE game_id = %s", (game_id,))
        return int(row[0]) if row else 0

    def games(self) -> list[str]:
        """Game ids, oldest first."""
        return [r[0] for r in self._all("SELECT game_id FROM games ORDER BY created")]

    # --- beside the log ----------------------------------------------------------------------

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None:
        self._write("INSERT INTO snapshots VALUES (%s, %s, %s) ON CONFLICT (game_id) DO UPDATE "
                    "SET seq = EXCLUDED.seq, data = EXCLUDED.data",
                    (game_id, seq, encode_blob(data)), "save a snapshot")

    def load_snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        row = self._one("SELECT seq, data FROM snapshots WHERE game_id = %s", (game_id,))
        if row is None:
            return None
        value = decode_blob(bytes(row[1]), f"{self.path} {game_id} snapshot")
        if not isinstance(value, dict):
            raise CorruptLog("not a snapshot", where=f"{self.path} {game_id} snapshot")
        return int(row[0]), value

    def put_secret(self, game_id: str, seed: bytes) -> None:
        self._write("INSERT INTO secrets VALUES (%s, %s) ON CONFLICT (game_id) DO UPDATE SET "
                    "seed = EXCLUDED.seed", (game_id, bytes(seed)), "keep the dice seed")

    def get_secret(self, game_id: str) -> bytes | None:
        row = self._one("SELECT seed FROM secrets WHERE game_id = %s", (game_id,))
        return bytes(row[0]) if row else None

    def put_seats(self, game_id: str, seats: dict[str, str]) -> None:
        """Each seat's token hash (a player's name, or ``spectate``), kept with the game."""
        def put(db: psycopg.Connection[Any]) -> None:
            with db.transaction(), db.cursor() as cur:
                cur.executemany("INSERT INTO seats VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                                [(game_id, role, h) for role, h in seats.items()])

        self._call("keep the seats", put)

    def seated(self, token_hash: str) -> list[tuple[str, str]]:
        """(game id, role) of every seat whose token hashes to ``token_hash``."""
        return [(r[0], r[1]) for r in self._all(
            "SELECT game_id, role FROM seats WHERE token_hash = %s ORDER BY game_id",
            (token_hash,))]

    def get_seats(self, game_id: str) -> dict[str, str]:
        return {role: h for role, h in self._all(
            "SELECT role, token_hash FROM seats WHERE game_id = %s", (game_id,))}

    def listen(self) -> Iterator[tuple[str, int]]:
        """(game id, version) each time an append to this database commits, from any process:
        a connection of its own, blocking; a server runs it in a thread."""
        try:
            conn = psycopg.connect(self.url, autocommit=True,
                                   connect_timeout=self.connect_timeout)
        except psycopg.Error as exc:
            raise StoreUnavailable(f"{self.path}: cannot connect to listen ({reason(exc)})") \
                from None
        with conn:
            conn.execute(f"LISTEN {CHANNEL}")
            yield CAUGHT_UP, 0   # what was appended while nobody listened is not notified
            while True:
                notes = list(conn.notifies(stop_after=1))   # the first, waited for
                time.sleep(LISTEN_WINDOW)   # those made meanwhile come with it
                notes.extend(conn.notifies(timeout=0.0))
                for note in notes:
                    game_id, _, version = note.payload.partition(" ")
                    if version.isdigit():
                        yield game_id, int(version)

    def sync(self) -> Any:
        """Make every commit made before the call durable, this process's and every other's
        (``grouped``; otherwise each commit already is): a write of its own commits
        synchronously, and so flushes the WAL to its commit record. Returns the incarnation
        it flushed (the server's start time): a commit made to an earlier one may have been
        lost in the crash that ended it. ``StoreUnavailable`` when the database cannot be
        asked. Called from one thread only, on a connection of its own."""
        if not self.grouped:
            return None
        try:
            if self._syncer is None or self._syncer.closed or self._syncer.broken:
                self._syncer = None
                self._syncer = psycopg.connect(self.url, autocommit=True,
                                               connect_timeout=self.connect_timeout)
                self._syncer.execute("SET synchronous_commit TO on")
            # A commit waits for the flush only if its transaction wrote to the WAL: a
            # transaction id alone does not, so a row of this process's own is written.
            started = self._syncer.execute(
                "INSERT INTO syncs VALUES (%s, 1) ON CONFLICT (process) DO UPDATE "
                "SET n = syncs.n + 1 RETURNING pg_postmaster_start_time()",
                (self._process,)).fetchall()[0][0]
        except psycopg.Error as exc:
            if self._syncer is not None and self._syncer.broken:
                self._syncer = None
            raise StoreUnavailable(f"{self.path}: could not make the latest steps durable "
                                   f"({reason(exc)}); they are read again from the database")\
                from None
        return started

    def close(self) -> None:
        if self._syncer is not None:
            self._syncer.close()
        if self._db is not None:
            self._db.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
