"""Who may sit where, and how the server writes its messages: a seat's token is kept only as
its hash, and found by comparing every seat's in constant time (SERVER.SEAT); messages are
JSON written by msgspec."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import msgspec

SPECTATE = "spectate"
# Compared against when a game has no seats, so that a missing game costs what a wrong token
# for an existing one does (two seats and the spectators').
NO_SEATS = {"": "0" * 64, " ": "1" * 64, "  ": "2" * 64}
# A seat the bundled bot plays (regiment.bot) holds this instead of a token's hash: no token
# hashes to it (a hash is 64 hex digits), so no client can take the seat.
BOT = "bot"


def token_hash(token: str) -> str:
    """Tokens are kept hashed: a copy of the store does not seat its holder at any game."""
    return hashlib.sha256(token.encode()).hexdigest()


# msgspec writes the same JSON as ``json.dumps`` with no spaces, only with letters beyond
# ASCII as they are (UTF-8) rather than escaped: an update of ford_clash, 1.2 KB, in 5 us
# against 39 (measured), and a server writes one each step for each game.
def _as_text(value: Any) -> Any:
    """A told message (``i18n.Told``, a str that keeps its message id) as its text: msgspec
    encodes no subclass of str of its own accord."""
    if isinstance(value, str):
        return str(value)
    raise NotImplementedError(f"{type(value).__name__} is not JSON")


_JSON = msgspec.json.Encoder(enc_hook=_as_text)


def dumps(obj: Any) -> str:
    return _JSON.encode(obj).decode()


def seat_of_digest(seats: dict[str, str], digest: str) -> str | None:
    """The role whose token hash is ``digest``: every seat compared, in constant time."""
    found = None
    for role, h in seats.items():
        if secrets.compare_digest(h, digest):
            found = role
    return found
