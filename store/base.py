"""What every store shares: game-id checks and the conflict message."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from regiment.core.errors import BadRequest, ConcurrencyConflict, CorruptLog
from regiment.core.events import Event
from regiment.core.record import Draft, Record

from .codec import GENESIS, decode_fast, decode_record
from .frames import decode_checked, record_checked

BROKEN = "its prev is not the hash of the record before it: the log was damaged or changed"

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# What a store's ``listen`` yields as it (re)connects, in place of a game id: anything may have
# been appended while nobody listened, so a server catches up with every game it holds.
CAUGHT_UP = "*"


def check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or not GAME_ID.match(game_id):
        raise BadRequest(f"a game id is 1-64 letters, digits, '-' or '_'; got {game_id!r}")
    return game_id


def check_append(game_id: str, drafts: Sequence[Draft], expected: int,
                 version: int) -> None:
    """STORE.VERSION: an append must start exactly at the store's version of the game."""
    if expected != version:
        raise ConcurrencyConflict(
            f"game {game_id}: expected version {expected}, but the store holds {version} records"
        )
    for i, d in enumerate(drafts):
        if d.seq != version + i:
            raise ConcurrencyConflict(f"game {game_id}: draft {i} has seq {d.seq}, "
                                      f"expected {version + i}")


class Reading:
    """``read`` and ``read_events`` for a store that can list a game's raw payloads."""

    def _payloads(self, game_id: str, start: int) -> Iterator[tuple[int, bytes]]:
        """(seq, payload) for each stored record from ``start``."""
        raise NotImplementedError

    def _where(self, game_id: str, seq: int) -> str:
        """Where record ``seq`` lives, for error messages (formatted only on error)."""
        raise NotImplementedError

    def read(self, game_id: str, start: int = 0) -> Iterator[Record]:
        """Each stored record from ``start``, its hash checked against its contents and its
        ``prev`` against the record before it (STORE.DAMAGE: a damaged record is refused,
        never read as another game's)."""
        for record, _ in self._checked(game_id, start):
            yield record

    def read_chained(self, game_id: str) -> tuple[list[Record], list[bytes]]:
        """A game's records, read as ``read`` reads them, and each one's data as the bytes
        its hash covers: what ``verify`` compares the rules' events with, so that it need
        not encode and hash each record again."""
        records, data = [], []
        for record, raw in self._checked(game_id, 0):
            records.append(record)
            data.append(bytes(raw))
        return records, data

    def _checked(self, game_id: str, start: int) -> Iterator[tuple[Record, Any]]:
        last: bytes | None = GENESIS if start == 0 else None
        for seq, payload in self._payloads(game_id, start):
            try:
                record, digest, prev, raw = record_checked(payload)
            except CorruptLog as exc:
                raise exc.at(self._where(game_id, seq)) from None
            if record.seq != seq:
                raise CorruptLog(f"the record says seq {record.seq}",
                                 where=self._where(game_id, seq))
            if last is not None and prev != last:
                raise CorruptLog(BROKEN, where=self._where(game_id, seq))
            last = digest
            yield record, raw

    def read_events(self, game_id: str, start: int = 0
                    ) -> Iterator[tuple[int, int, Event, bytes]]:
        """(seq, step, event, stored bytes) of each record: the fast path of ``Game.load``,
        which builds a record from its bytes only when it is read (``record_decoder``); each
        hash checked as ``read`` checks it."""
        last: bytes | None = GENESIS if start == 0 else None
        for seq, payload in self._payloads(game_id, start):
            try:
                s, step, event, digest, prev = decode_checked(payload)
            except CorruptLog as exc:
                raise exc.at(self._where(game_id, seq)) from None
            if s != seq:
                raise CorruptLog(f"the record says seq {s}", where=self._where(game_id, seq))
            if last is not None and prev != last:
                raise CorruptLog(BROKEN, where=self._where(game_id, seq))
            last = digest
            yield seq, step, event, payload

    @staticmethod
    def record_decoder(payload: bytes) -> Record:
        return decode_record(payload)

    @staticmethod
    def event_decoder(payload: bytes) -> Event:
        """The event in a record's stored bytes, checked as a load checks it."""
        return decode_fast(payload)[2]
