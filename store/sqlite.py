"""SqliteStore: many games in one SQLite file, the embedded default.

WAL journal; each step is one ``BEGIN IMMEDIATE`` transaction that reads the game's head,
checks the expected version and inserts the step's records; the primary key ``(game_id, seq)``
makes a racing second writer fail instead of forking the log. ``synchronous=FULL`` (the
default, ``durable=True``) fsyncs the WAL at every commit.

A game server's steps are written in a transaction they share, committed and made durable
by ``sync()`` from another thread (``grouped=True``: see ``store.sqlite_writes``).

Beside the database (``GAMES.db``) live two things that must not be inside it:

- ``GAMES.db.secrets``, the dice seeds, mode 600 (see ``store.secrets``); a 0.3.0 store's
  ``secrets`` table is moved there when the store is opened;
- ``GAMES.db.locks/``, one lock file a game: the first append (or ``claim``) takes an
  exclusive ``flock`` on it, as the log-file store does on its log, so a second process that
  writes the same game is refused (STORE.ONE_WRITER). The kernel drops the lock when the
  process ends, however it ends, so a crashed writer never blocks the game.

Every read treats the file as possibly damaged: ``PRAGMA quick_check`` runs when the store is
opened, each game's records must be dense from 0 and chain onto each other, and any error
SQLite raises on a damaged page is a ``CorruptLog``, never a crash or a shorter game.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from regiment.core.errors import ConcurrencyConflict, CorruptLog, StoreError
from regiment.core.log import get_logger
from regiment.core.record import Draft, Record

from .base import Reading, check_append, check_game_id
from .codec import GENESIS
from .sealing import seal
from .secrets import SUFFIX as SECRETS
from .secrets import SecretFile
from .sqlite_schema import SCHEMA
from .sqlite_tables import SideTables
from .sqlite_writes import FAILURES

log = get_logger("regiment.store")

MEMORY = ":memory:"


class SqliteStore(SideTables, Reading):
    def __init__(self, path: str | Path, *, durable: bool = True, check: bool = True,
                 readonly: bool = False, grouped: bool = False) -> None:
        """``readonly``: read the store as it is, changing nothing (no schema, no migration,
        no side files): what ``verify``, ``replay`` and ``export`` do. ``grouped``: commits
        are durable once ``sync()`` returns after them (above)."""
        self.path = Path(path)
        self.memory = str(path) == MEMORY
        self.grouped = grouped and not readonly and not self.memory
        # grouped: the generation of the shared transaction, which ends when its steps are
        # lost together (tools.server.durable marks each step with it); and the connection's lock,
        # as the loop writes and reads on it and the sync commits on it from its thread
        self.incarnation = 0
        self._lock = threading.RLock()
        self._wal: int | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._syncs = 0
        self._secrets: SecretFile | dict[str, bytes]
        self._locks: dict[str, int] = {}
        if self.memory:
            self._secrets = {}
        else:
            if not readonly:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._secrets = SecretFile(self.path.with_name(self.path.name + SECRETS))
        self.readonly = readonly
        try:
            self.db = self._open_ro(check) if readonly else self._open(durable, check)
        except FAILURES as exc:
            fallback = self._read_only(exc)
            if fallback is None:
                raise self._failure(exc, "open the store") from None
            self.db = fallback
        try:
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            self._counted = "records" in {r[1] for r in self.db.execute(
                "PRAGMA table_info(games)")}
        except FAILURES as exc:
            self.db.close()
            raise self._failure(exc, "open the store") from None
        if not {"games", "events"} <= tables:
            self.db.close()
            raise CorruptLog("not a regiment store (no games and events tables)",
                             where=str(self.path))
        self._legacy = "secrets" in tables   # a 0.3.0 store read without migrating it

    def _open_ro(self, check: bool) -> sqlite3.Connection:
        db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                             isolation_level=None, timeout=10.0, check_same_thread=False)
        db.text_factory = _text
        try:
            if check:
                self._check(db)
            db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except BaseException:
            db.close()
            raise
        return db

    def _open(self, durable: bool, check: bool) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0,
                             check_same_thread=False)
        db.text_factory = _text
        try:
            self.db = db
            if check:
                self._check(db)
            db.execute("PRAGMA journal_mode=WAL")
            full = durable and not self.grouped
            db.execute(f"PRAGMA synchronous={'FULL' if full else 'NORMAL'}")
            if self.grouped:   # checkpoints are sync()'s, in its thread
                db.execute("PRAGMA wal_autocheckpoint=0")
            db.executescript(SCHEMA)
            self._migrate()
        except BaseException:
            db.close()
            raise
        return db

    def _check(self, db: sqlite3.Connection) -> None:
        row = db.execute("PRAGMA quick_check(1)").fetchone()
        if row is None or row[0] != "ok":
            raise CorruptLog(f"the database is damaged (quick_check: {row and row[0]})",
                             where=str(self.path))

    def _read_only(self, exc: Exception) -> sqlite3.Connection | None:
        """The store read as it is on disk when it cannot be opened for writing (a full
        disk, a read-only file): only when no write waits in its WAL, since a read that
        skipped one would be a shorter game."""
        wal = self.path.with_name(self.path.name + "-wal")
        if (self.memory or not isinstance(exc, sqlite3.OperationalError)
                or not self.path.is_file() or (wal.exists() and wal.stat().st_size > 0)):
            return None
        try:
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?immutable=1", uri=True,
                                 isolation_level=None, check_same_thread=False)
            db.text_factory = _text
            self._check(db)
            db.execute("SELECT 1 FROM events LIMIT 1").fetchall()
        except FAILURES:
            return None
        log.warning("store_read_only", path=str(self.path), why=str(exc))
        self.readonly = True
        return db

    def _migrate(self) -> None:
        """Bring a 0.3.0 store up to date; its logs are never rewritten.

        - Its seeds were in a table of the shared file: they move beside it.
        - Its games rows gain the record count and head that every read checks the game's
          records against (so that damage cannot make a shorter game).
        """
        db = self.db
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        if "records" not in columns:
            db.execute("BEGIN IMMEDIATE")
            db.execute("ALTER TABLE games ADD COLUMN records INTEGER")
            db.execute("ALTER TABLE games ADD COLUMN head BLOB")
            db.execute("UPDATE games SET records = (SELECT COUNT(*) FROM events e WHERE "
                       "e.game_id = games.game_id), head = (SELECT hash FROM events e WHERE "
                       "e.game_id = games.game_id ORDER BY seq DESC LIMIT 1)")
            db.execute("COMMIT")
        old = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                         "name = 'secrets'").fetchone()
        if old is not None:
            for game_id, seed in db.execute("SELECT game_id, seed FROM secrets").fetchall():
                if isinstance(game_id, str) and type(seed) is bytes:
                    self.put_secret(game_id, seed)
            db.execute("DROP TABLE secrets")

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    def claim(self, game_id: str) -> None:
        """Become the one writer of ``game_id`` (STORE.ONE_WRITER); appends claim by
        themselves, ``claim`` lets a program be refused before its player makes a move."""
        check_game_id(game_id)
        if self.memory or game_id in self._locks:
            return
        folder = self.path.with_name(self.path.name + ".locks")
        try:
            folder.mkdir(mode=0o755, exist_ok=True)
            fd = os.open(folder / f"{game_id}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"{folder}: cannot take the game's writer lock "
                             f"({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise ConcurrencyConflict(
                    f"{self.path}: game {game_id} is open for writing in another process "
                    "(one writer a game; it is free again when that process ends)") from None
            raise StoreError(f"{folder}: cannot take the game's writer lock "
                             f"({exc.strerror})") from None
        self._locks[game_id] = fd

    def release(self, game_id: str) -> None:
        fd = self._locks.pop(game_id, None)
        if fd is not None:
            os.close(fd)   # closing the descriptor drops the flock

    def append(self, game_id: str, drafts: Sequence[Draft], expected_version: int
               ) -> Sequence[Record]:
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only (the disk was full, or the file "
                             "cannot be written); nothing was written")
        self.claim(game_id)
        try:
            with self._writing() as db:
                version, head = self._head(game_id)
                check_append(game_id, drafts, expected_version, version)
                records, frames = seal(drafts, head)
                if not records:
                    return records
                if version == 0:
                    db.execute("INSERT INTO games VALUES (?, ?, 0, NULL)",
                               (game_id, drafts[0].at))
                db.executemany(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, d.seq, d.step, d.type, f, h)
                     for d, f, h in zip(drafts, frames, records.hashes, strict=True)],
                )
                db.execute("UPDATE games SET records = ?, head = ? WHERE game_id = ?",
                           (version + len(records), records.hashes[-1], game_id))
        except sqlite3.IntegrityError:
            raise ConcurrencyConflict(f"game {game_id}: another writer appended first") from None
        except FAILURES as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise ConcurrencyConflict(f"game {game_id}: the store is locked by another "
                                          f"writer ({exc})") from None
            raise self._failure(exc, "append the step") from None
        return records

    def _head(self, game_id: str) -> tuple[int, bytes]:
        """(records, head) of a game inside an append's transaction, the games row and the
        last event agreeing (a store damaged since it was read must not be appended to)."""
        row = self.db.execute("SELECT seq, hash FROM events WHERE game_id = ? "
                              "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        version, head = (row[0] + 1, row[1]) if row else (0, GENESIS)
        kept = self._kept(game_id)
        if kept is not None and kept != (version, head) and row is not None:
            raise CorruptLog(f"the games row says {kept[0]} records, the events end at "
                             f"{version}", where=self._where(game_id, version - 1))
        return version, head

    def _kept(self, game_id: str) -> tuple[int, bytes] | None:
        """The record count and head the games row keeps (None: not known, or no game)."""
        if not self._counted:
            return None
        row = self.db.execute("SELECT records, head FROM games WHERE game_id = ?",
                              (game_id,)).fetchone()
        if row is None or row[0] is None:
            return None
        if type(row[0]) is not int or type(row[1]) is not bytes:
            raise CorruptLog("the games row is damaged", where=f"{self.path} {game_id}")
        return row[0], row[1]

    def _where(self, game_id: str, seq: int) -> str:
        return f"{self.path} {game_id} record {seq}"

    def _payloads(self, game_id: str, start: int) -> Iterator[tuple[int, bytes]]:
        """The game's payloads, checked against the games row: dense from 0, as many as it
        says, the last with its head. A row or page lost to damage is a CorruptLog, never a
        shorter game. Records appended while this reads are left for the next read."""
        expected = start
        try:
            with self._lock:   # read whole: a grouped store's sync commits on the connection
                kept = self._kept(game_id)
                limit = kept[0] if kept is not None else 2**62
                rows = self.db.execute("SELECT seq, record, hash FROM events WHERE game_id = ? "
                                       "AND seq >= ? AND seq < ? ORDER BY seq",
                                       (game_id, start, limit)).fetchall()
            last = None
            for seq, blob, digest in rows:
                if seq != expected:
                    raise CorruptLog(f"record {expected} is missing (the next is {seq!r})",
                                     where=self._where(game_id, expected))
                if type(blob) is not bytes:
                    raise CorruptLog("the record is not a blob", where=self._where(game_id, seq))
                yield seq, blob
                expected += 1
                last = digest
            if kept is not None and expected > start and (expected, last) != kept:
                raise CorruptLog(f"the game holds {expected} records ending {_hex(last)}, its "
                                 f"games row says {kept[0]} ending {_hex(kept[1])}",
                                 where=self._where(game_id, expected - 1))
            if kept is not None and expected == start < kept[0]:
                raise CorruptLog(f"records from {start} on are missing (the games row says "
                                 f"{kept[0]})", where=self._where(game_id, start))
        except FAILURES as exc:
            raise self._failure(exc, f"read game {game_id}") from None

    def version(self, game_id: str) -> int:
        row = self._query("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))[0]
        return 0 if row[0] is None else int(row[0]) + 1


    def games(self) -> list[str]:
        """Game ids, oldest first."""
        return [r[0] for r in self._query("SELECT game_id FROM games ORDER BY rowid")
                if isinstance(r[0], str)]

    def close(self) -> None:
        if self.grouped:   # what a server wrote since its last sync, told to no one yet
            with self._lock:
                self._commit()
        if self._checkpointer is not None:
            self._checkpointer.close()
        if self._wal is not None:
            os.close(self._wal)
            self._wal = None
        for game_id in list(self._locks):
            self.release(game_id)
        if isinstance(self._secrets, SecretFile):
            self._secrets.close()
        self.db.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _hex(digest: object) -> str:
    return digest.hex()[:16] + "..." if isinstance(digest, bytes) else repr(digest)


def _text(raw: bytes) -> str:
    """TEXT as SQLite gives it, checked: a damaged byte is the store's error, not Python's."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise sqlite3.DataError(f"text that is not UTF-8 (byte {exc.start})") from None
