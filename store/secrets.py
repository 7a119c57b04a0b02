"""Secrets kept apart from the log: each game's dice seed until the players reveal it.

A log is made to be shared (exports, records, disputes), so the seed that would let its holder
foresee every die never enters it (DICE.SECRET). The SQLite store keeps seeds in a file of its
own beside the database, ``GAMES.db.secrets``, readable by its owner only (mode 600), so that
handing over or backing up the database does not hand over the dice. The file is itself a small
SQLite database: writes are atomic and several processes may share it.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from regiment.core.errors import CorruptLog, StoreError
from regiment.core.log import get_logger

SUFFIX = ".secrets"
log = get_logger("regiment.store")


class SecretFile:
    """``put``/``get`` a game's seed in a mode-600 file; opened only when first used."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _open(self, create: bool) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        if not self.path.exists():
            if not create:
                return None
            try:  # made 600 before SQLite writes a byte; its journal copies that mode
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                pass
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create the secrets file "
                                 f"({exc.strerror})") from None
        mode = stat.S_IMODE(self.path.stat().st_mode)
        if mode & 0o077:
            log.warning("secrets_file_readable_by_others", path=str(self.path), mode=oct(mode))
        try:
            db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0,
                                 check_same_thread=False)
            db.execute("CREATE TABLE IF NOT EXISTS seeds (game_id TEXT PRIMARY KEY, "
                       "seed BLOB NOT NULL)")
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"not a usable secrets file: {exc}", where=str(self.path)) from None
        self._db = db
        return db

    def put(self, game_id: str, seed: bytes) -> None:
        db = self._open(create=True)
        assert db is not None
        try:
            db.execute("INSERT OR REPLACE INTO seeds VALUES (?, ?)", (game_id, bytes(seed)))
        except sqlite3.DatabaseError as exc:
            full = getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
            raise StoreError(f"{self.path}: could not keep the dice seed "
                             f"({'the disk is full' if full else exc})") from None

    def get(self, game_id: str) -> bytes | None:
        db = self._open(create=False)
        if db is None:
            return None
        try:
            row = db.execute("SELECT seed FROM seeds WHERE game_id = ?", (game_id,)).fetchone()
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"cannot read the secrets file: {exc}", where=str(self.path)) \
                from None
        return None if row is None or type(row[0]) is not bytes else row[0]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
