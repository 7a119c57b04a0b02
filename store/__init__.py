"""regiment.store: event stores (memory, log file, SQLite) and the canonical msgpack codec."""

from pathlib import Path

from .logfile import LogFileStore
from .memory import MemoryStore
from .sqlite import SqliteStore

__all__ = ["LogFileStore", "MemoryStore", "SqliteStore", "open_store"]


def open_store(path: str | Path) -> LogFileStore | SqliteStore:
    """DESIGN's rule: a path ending in .db or .sqlite is SQLite, anything else a log directory."""
    text = str(path)
    if text.endswith((".db", ".sqlite")):
        return SqliteStore(text)
    return LogFileStore(text)
