"""The tables of a SqliteStore beside its games' logs: snapshots, a game server's seats, and
the dice seeds, which live in a file of their own beside the database (``store.secrets``)."""

from __future__ import annotations

from typing import Any

from regiment.core.errors import CorruptLog, StoreError

from .codec import decode_blob, encode_blob
from .secrets import SecretFile
from .sqlite_writes import FAILURES, Writes


class SideTables(Writes):
    readonly: bool
    _secrets: SecretFile | dict[str, bytes]
    _legacy: bool

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None:
        try:
            with self._writing() as db:
                db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)",
                           (game_id, seq, encode_blob(data)))
        except FAILURES as exc:
            raise self._failure(exc, "save a snapshot") from None

    def load_snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        rows = self._query("SELECT seq, data FROM snapshots WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        row = rows[0]
        if type(row[0]) is not int or type(row[1]) is not bytes:
            raise CorruptLog("not a snapshot", where=f"{self.path} {game_id} snapshot")
        value = decode_blob(row[1], f"{self.path} {game_id} snapshot")
        if not isinstance(value, dict):
            raise CorruptLog("not a snapshot", where=f"{self.path} {game_id} snapshot")
        return row[0], value

    def put_seats(self, game_id: str, seats: dict[str, str]) -> None:
        """Each seat's token hash (a player's name, or ``spectate``): a game server's."""
        try:
            with self._writing() as db:
                db.executemany("INSERT INTO seats VALUES (?, ?, ?)",
                               [(game_id, role, h) for role, h in seats.items()])
        except FAILURES as exc:
            raise self._failure(exc, "keep the seats") from None

    def seated(self, token_hash: str) -> list[tuple[str, str]]:
        """(game id, role) of every seat whose token hashes to ``token_hash``, oldest first."""
        try:
            rows = self._query("SELECT game_id, role FROM seats WHERE token_hash = ? "
                               "ORDER BY rowid", (token_hash,))
        except StoreError:   # a store older than the server has no seats table
            return []
        return [(r[0], r[1]) for r in rows if isinstance(r[0], str) and isinstance(r[1], str)]

    def get_seats(self, game_id: str) -> dict[str, str]:
        try:
            rows = self._query("SELECT role, token_hash FROM seats WHERE game_id = ?",
                               (game_id,))
        except StoreError:   # a store older than the server has no seats table
            return {}
        return {r[0]: r[1] for r in rows if isinstance(r[0], str) and isinstance(r[1], str)}

    def put_secret(self, game_id: str, seed: bytes) -> None:
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only; the seed was not kept")
        if isinstance(self._secrets, dict):
            self._secrets[game_id] = bytes(seed)
        else:
            self._secrets.put(game_id, seed)

    def get_secret(self, game_id: str) -> bytes | None:
        if isinstance(self._secrets, dict):
            return self._secrets.get(game_id)
        seed = self._secrets.get(game_id)
        if seed is None and self._legacy:
            rows = self._query("SELECT seed FROM secrets WHERE game_id = ?", (game_id,))
            seed = rows[0][0] if rows and type(rows[0][0]) is bytes else None
        return seed
