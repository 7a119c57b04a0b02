"""The bots that play either side from ``game.pending``, as an embedding program would: each
rulebook's own (its view's ``choose``); a rulebook without one gets the first legal choice.
They play plainly: they exist to drive demos, simulations and property tests.
"""

from __future__ import annotations

from regiment.core.commands import Command
from regiment.core.game import Game
from regiment.core.pending import Decision


def choose(game: Game) -> Command:
    pending = game.pending
    if not isinstance(pending, Decision):
        raise ValueError(f"the bot only makes decisions, not {pending.kind}")
    view = getattr(game.preset, "view", None)
    if view is None:
        return pending.legal[0]
    return view.choose(game.state, pending)  # type: ignore[no-any-return]
