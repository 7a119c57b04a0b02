"""MemoryStore: logs held in memory as encoded frames, for tests and simulations.

It stores the same bytes a durable store would, so the codec and the chain are exercised the
same way; only the disk is missing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from regiment.core.record import Draft, Record

from .base import Reading, check_append, check_game_id
from .codec import GENESIS, decode_blob, encode_blob
from .sealing import seal


class MemoryStore(Reading):
    def __init__(self) -> None:
        self._frames: dict[str, list[bytes]] = {}
        self._heads: dict[str, bytes] = {}
        self._snapshots: dict[str, tuple[int, bytes]] = {}
        self._secrets: dict[str, bytes] = {}
        self._seats: dict[str, dict[str, str]] = {}

    def __repr__(self) -> str:
        return f"MemoryStore(<{len(self._frames)} games>)"

    def append(self, game_id: str, drafts: Sequence[Draft], expected_version: int
               ) -> Sequence[Record]:
        frames = self._frames.get(game_id)
        if frames is None:
            check_game_id(game_id)
        version = len(frames) if frames is not None else 0
        check_append(game_id, drafts, expected_version, version)
        records, encoded = seal(drafts, self._heads.get(game_id, GENESIS))
        if frames is None:
            frames = self._frames[game_id] = []
        frames.extend(encoded)
        if records:
            self._heads[game_id] = records.hashes[-1]
        return records

    def _payloads(self, game_id: str, start: int) -> Iterator[tuple[int, bytes]]:
        frames = self._frames.get(game_id, [])
        return zip(range(start, len(frames)), frames[start:], strict=True)

    def _where(self, game_id: str, seq: int) -> str:
        return f"memory:{game_id} record {seq}"

    def version(self, game_id: str) -> int:
        return len(self._frames.get(game_id, ()))

    def games(self) -> list[str]:
        return list(self._frames)

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None:
        self._snapshots[game_id] = (seq, encode_blob(data))

    def load_snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        if game_id not in self._snapshots:
            return None
        seq, blob = self._snapshots[game_id]
        return seq, decode_blob(blob, f"memory:{game_id} snapshot")

    def put_seats(self, game_id: str, seats: dict[str, str]) -> None:
        self._seats.setdefault(game_id, {}).update(seats)

    def get_seats(self, game_id: str) -> dict[str, str]:
        return dict(self._seats.get(game_id, {}))

    def seated(self, token_hash: str) -> list[tuple[str, str]]:
        """(game id, role) of every seat whose token hashes to ``token_hash``."""
        return [(g, role) for g, seats in self._seats.items() for role, h in seats.items()
                if h == token_hash]

    def put_secret(self, game_id: str, seed: bytes) -> None:
        self._secrets[game_id] = bytes(seed)

    def get_secret(self, game_id: str) -> bytes | None:
        return self._secrets.get(game_id)

    def close(self) -> None:
        pass

    def frames(self, game_id: str) -> list[bytes]:
        """The raw encoded records (tests use them to tamper)."""
        return self._frames.get(game_id, [])
