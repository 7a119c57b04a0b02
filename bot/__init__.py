"""The bundled bot: a player for either side of any game, as an embedding program plays one.

``choose(game)`` is the command the bot sends for the decision the game waits on;
``play(game, seats)`` plays those seats' decisions until the game waits on another seat, a
roll that is not seeded, a measurement, or is over. Each rulebook plays by its own view's
``choose`` (fantasy: charges by their odds, shots by the wounds they are worth, the march
where no enemy is near...); a rulebook without one takes the first legal choice. It plays
plainly: it drives demos, simulations, property tests, and the game server's bot seats
(``POST /games?bot=SEAT``), and is an opponent to begin against, not a strong one.
"""

from __future__ import annotations

from collections.abc import Collection

from regiment.core.commands import Command
from regiment.core.game import Game
from regiment.core.pending import Decision

__all__ = ["choose", "play"]


def choose(game: Game) -> Command:
    """The bot's command for the decision ``game`` waits on (ValueError: it waits on no
    decision, but on a roll, a measurement, or nothing)."""
    pending = game.pending
    if not isinstance(pending, Decision):
        raise ValueError(f"the bot only makes decisions, not {pending.kind}")
    view = getattr(game.preset, "view", None)
    if view is None:
        return pending.legal[0]
    return view.choose(game.state, pending)  # type: ignore[no-any-return]


def play(game: Game, seats: Collection[str], most: int = 10_000) -> int:
    """Play ``seats``' decisions in turn, at most ``most`` steps; how many it played."""
    played = 0
    while played < most:
        pending = game.pending
        if not isinstance(pending, Decision) or pending.player not in seats:
            break
        game.submit(choose(game))
        played += 1
    return played
