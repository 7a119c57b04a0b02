"""regiment.store: event stores (memory, log file, SQLite, PostgreSQL) and the canonical msgpack
codec."""

from pathlib import Path
from typing import Any

from regiment.core.errors import BadRequest

from .logfile import LogFileStore
from .memory import MemoryStore
from .sqlite import SqliteStore

__all__ = ["LogFileStore", "MemoryStore", "SqliteStore", "open_store"]


SQLITE_MAGIC = b"SQLite format 3\x00"


def open_store(path: str | Path, *, readonly: bool = False, grouped: bool = False) -> Any:
    """DESIGN's rule: a path ending in .db or .sqlite is SQLite, anything else a log directory;
    a ``postgresql://`` address is a PostgreSQL database (psycopg is loaded only then).

    A path that already exists is taken for what it is: a directory is a log-file store, a
    file that begins as SQLite does is an SQLite store whatever its name, and any other file is
    refused (it would otherwise be made into a directory, or overwritten). ``readonly``
    opens an SQLite store to read it as it is (see ``SqliteStore``); ``grouped`` opens it for
    a game server, whose commits are made durable together (``SqliteStore.sync``,
    ``PostgresStore.sync``).
    """
    if isinstance(path, str) and path.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore

        return PostgresStore(path, grouped=grouped)
    p = Path(path)
    sqlite_name = str(path).endswith((".db", ".sqlite"))
    if p.is_dir():
        if sqlite_name:
            raise BadRequest(f"{p} is a directory, not an SQLite store")
        return LogFileStore(p)
    if p.exists():
        try:
            with open(p, "rb") as handle:
                magic = handle.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise BadRequest(f"cannot read the store {p}: {exc.strerror}") from None
        if magic == SQLITE_MAGIC or sqlite_name:
            return SqliteStore(p, readonly=readonly, grouped=grouped)   # damaged: CorruptLog
        raise BadRequest(f"{p} is a file that is not a store (a store is an SQLite file, or a "
                         "directory of game logs)")
    if sqlite_name:
        return SqliteStore(p, grouped=grouped)
    return LogFileStore(p)
