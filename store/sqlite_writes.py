"""How a SqliteStore writes on its connection, and what SQLite's errors mean to it.

A game server makes many games' steps a second and must not wait on the disk for each, nor
commit each on its event loop (``grouped=True``). Its steps are written into one transaction
that every game's steps join, each step in a savepoint of its own (a step that fails rolls
back to its savepoint and takes nothing else with it), and ``sync()``, called from another
thread, commits that transaction and makes it durable with one fsync of the WAL: one COMMIT
and one fsync for every step of every game made since the last (SQLite replays a WAL's
committed frames after a crash, and those an fsync has reached are there). The server tells
no client of a step before a ``sync()`` begun after it has returned (``tools.server.durable``);
checkpoints are made there too, off the writers' way. The connection is the loop's and the
sync's in turn (``_lock``); what the loop reads on it includes the steps not yet committed,
which are its own. If SQLite rolls back the whole transaction (it may, on a full disk or a
failed write) or its COMMIT fails, every step in it is lost together, none of them told:
the transaction's *generation* ends (``incarnation``), and the server reads the games whose
steps went to it again from the store before it tells anything of them, as it does for a
PostgreSQL server that restarted (``tools.server.durable``). While it serves, the server is the
store's one writer: another process that writes it waits for a gap between transactions.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from regiment.core.errors import CorruptLog, StoreError
from regiment.core.log import get_logger

log = get_logger("regiment.store")

CHECKPOINT_EVERY = 200   # syncs of a grouped store between its passive checkpoints
# what SQLite raises on a damaged file: its errors, and Python's when its message quotes bytes
# that are not UTF-8
FAILURES = (sqlite3.Error, UnicodeDecodeError)


class Writes:
    """A SqliteStore's connection in use: a step's writes in a transaction or a savepoint of
    the shared one, its commit and fsync (``sync``), a read under the connection's lock, and
    a SQLite error told as the store's own."""

    path: Path
    db: sqlite3.Connection
    grouped: bool
    incarnation: int
    _lock: threading.RLock
    _wal: int | None
    _checkpointer: sqlite3.Connection | None
    _syncs: int

    def _failure(self, exc: Exception, doing: str) -> CorruptLog | StoreError:
        """A SQLite error as the store's own: a full disk says so, damage is CorruptLog."""
        if isinstance(exc, UnicodeDecodeError):  # SQLite's message quoted a damaged name
            return CorruptLog("the database is damaged (text that is not UTF-8)",
                              where=str(self.path))
        code = getattr(exc, "sqlite_errorcode", None)
        if code == sqlite3.SQLITE_FULL or "disk is full" in str(exc):
            return StoreError(f"{self.path}: could not {doing}: the disk is full; the store is "
                              "as it was before")
        damaged = code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
        if damaged or type(exc) in (sqlite3.DatabaseError, sqlite3.DataError):
            return CorruptLog(f"the database is damaged or not a regiment store ({exc})",
                              where=str(self.path))
        return StoreError(f"{self.path}: could not {doing} ({exc})")

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            with self._lock:
                return self.db.execute(sql, args).fetchall()
        except FAILURES as exc:
            raise self._failure(exc, "read the store") from None

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One step's writes, all or none. Alone: a transaction of its own (``BEGIN
        IMMEDIATE`` ... ``COMMIT``). Grouped: a savepoint in the transaction that ``sync``
        commits; a write that fails rolls back to it, and if SQLite rolled back the whole
        transaction meanwhile, its generation ends (``_lost``)."""
        with self._lock:
            db = self.db
            if not self.grouped:
                db.execute("BEGIN IMMEDIATE")
            else:
                if not db.in_transaction:
                    db.execute("BEGIN IMMEDIATE")
                db.execute("SAVEPOINT step")
            try:
                yield db
                db.execute("RELEASE step" if self.grouped else "COMMIT")
            except BaseException:
                self._undo()
                raise

    def _undo(self) -> None:
        """A write that failed, taken back: alone, its transaction; grouped, its savepoint,
        or, when SQLite rolled the whole transaction back, the steps in it (``_lost``)."""
        db = self.db
        if not self.grouped:
            if db.in_transaction:  # SQLite may have rolled back itself (a full disk)
                db.execute("ROLLBACK")
            return
        if db.in_transaction:
            try:
                db.execute("ROLLBACK TO step")
                db.execute("RELEASE step")
                return
            except FAILURES:
                with contextlib.suppress(*FAILURES):
                    db.execute("ROLLBACK")
        self._lost("SQLite rolled back the transaction of the steps not yet synced")

    def _lost(self, why: str) -> None:
        """The shared transaction's steps are gone, none of them told: a new generation."""
        self.incarnation += 1
        log.warning("store_steps_lost", path=str(self.path), why=why,
                    generation=self.incarnation)

    def sync(self) -> int | None:
        """Make every step written before the call durable (``grouped``; otherwise each
        commit already is), and return the generation they went to if it is kept (the next,
        if they were lost: tools.server.durable reads their games again). Called from one thread
        other than the writers': a COMMIT of the shared transaction, then an fsync of the
        WAL, and every few hundred a passive checkpoint on a connection of its own, so that
        the WAL does not grow without end and no writer waits for one."""
        if not self.grouped:
            return None
        with self._lock:   # the loop writes no step while the transaction is committed
            self._commit()
            generation = self.incarnation
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            try:
                inode = wal.stat().st_ino
            except FileNotFoundError:   # nothing committed yet
                return generation
            if self._wal is not None and os.fstat(self._wal).st_ino != inode:
                os.close(self._wal)   # made again (every connection had closed it)
                self._wal = None
            if self._wal is None:
                self._wal = os.open(wal, os.O_RDONLY)
            os.fsync(self._wal)
            self._syncs += 1
            if self._syncs % CHECKPOINT_EVERY == 0:
                if self._checkpointer is None:
                    self._checkpointer = sqlite3.connect(str(self.path), isolation_level=None,
                                                         timeout=10.0, check_same_thread=False)
                self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except OSError as exc:
            raise StoreError(f"{wal}: could not make the last steps durable "
                             f"({exc.strerror})") from None
        except FAILURES as exc:
            raise self._failure(exc, "checkpoint the WAL") from None
        return generation

    def _commit(self) -> None:
        """Commit the shared transaction, if one is open (with ``_lock`` held); if it cannot
        be, its steps are lost together, and rolled back."""
        db = self.db
        if not db.in_transaction:
            return
        try:
            db.execute("COMMIT")
        except FAILURES as exc:
            with contextlib.suppress(*FAILURES):
                if db.in_transaction:
                    db.execute("ROLLBACK")
            self._lost(f"its COMMIT failed ({exc})")
