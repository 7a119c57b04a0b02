"""What every store shares: game-id checks and the conflict message."""

from __future__ import annotations

import re

from regiment.core.errors import BadRequest, ConcurrencyConflict
from regiment.core.record import Draft

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def check_game_id(game_id: str) -> str:
    if not isinstance(game_id, str) or not GAME_ID.match(game_id):
        raise BadRequest(f"a game id is 1-64 letters, digits, '-' or '_'; got {game_id!r}")
    return game_id


def check_append(game_id: str, drafts: list[Draft] | tuple[Draft, ...], expected: int,
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
