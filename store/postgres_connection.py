"""A PostgresStore's connection, made again when it breaks (STORE.OUTAGE): while the database
cannot be reached every call fails at once with ``StoreUnavailable``, which says so, and
nothing is changed; a read is tried again once on a new connection."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg

from regiment.core.errors import StoreError, StoreUnavailable

BACKOFF = (0.05, 2.0)   # seconds before a new connection is tried: first, and at most
T = TypeVar("T")


class Connection:
    """The connection of a PostgresStore, and its queries through it."""

    url: str
    path: str
    grouped: bool
    incarnation: Any
    connect_timeout: int
    _db: psycopg.Connection[Any] | None
    _failures: int
    _retry_at: float

    def _grouping(self, db: psycopg.Connection[Any]) -> None:
        if self.grouped:   # durable at the next PostgresStore.sync()
            db.execute("SET synchronous_commit TO off")
            self.incarnation = db.execute("SELECT pg_postmaster_start_time()").fetchall()[0][0]

    # --- the connection, made again when it breaks (STORE.OUTAGE) --------------------------

    @property
    def db(self) -> psycopg.Connection[Any]:
        """The connection, or a new one if it broke; ``StoreUnavailable`` while the database
        cannot be reached (tried again after a back-off that doubles up to 2 s)."""
        db = self._db
        if db is not None and not db.closed and not db.broken:
            return db
        self._db = None
        now = time.monotonic()
        if now < self._retry_at:
            raise StoreUnavailable(f"{self.path}: the database cannot be reached; nothing was "
                                   "changed (it is tried again shortly)")
        try:
            db = psycopg.connect(self.url, autocommit=True,
                                 connect_timeout=self.connect_timeout)
            self._grouping(db)
            self._db = db
        except psycopg.Error as exc:
            self._failures += 1
            self._retry_at = now + min(BACKOFF[1], BACKOFF[0] * 2 ** (self._failures - 1))
            raise StoreUnavailable(f"{self.path}: the database cannot be reached "
                                   f"({reason(exc)}); nothing was changed") from None
        self._failures = 0
        return self._db

    def _lost(self, db: psycopg.Connection[Any]) -> bool:
        """Whether an error came from the connection itself breaking (then it is dropped)."""
        if db.closed or db.broken:
            if self._db is db:
                self._db = None
            return True
        return False

    def _call(self, what: str, fn: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``fn`` on the connection; on a broken one, once more on a new connection."""
        for attempt in (1, 2):
            db = self.db
            try:
                return fn(db)
            except psycopg.Error as exc:
                if not self._lost(db):
                    raise StoreError(f"{self.path}: could not {what} ({reason(exc)})") from None
                if attempt == 2:
                    raise StoreUnavailable(f"{self.path}: the connection to the database was "
                                           f"lost ({reason(exc)}); could not {what}, nothing "
                                           "was changed") from None
        raise AssertionError("unreachable")

    def _one(self, sql: str, args: tuple[Any, ...]) -> Any:
        rows = self._all(sql, args)
        return rows[0] if rows else None

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        return self._call("read", lambda db: db.execute(sql, args).fetchall())

    def _write(self, sql: str, args: tuple[Any, ...], what: str) -> None:
        self._call(what, lambda db: db.execute(sql, args))


def reason(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def safe(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "postgresql://(an unreadable address)"
    user = str(info.get("user", ""))
    host = str(info.get("host", ""))
    port = str(info.get("port", ""))
    db = str(info.get("dbname", ""))
    return f"postgresql://{user + '@' if user else ''}{host}{':' + str(port) if port else ''}/{db}"
