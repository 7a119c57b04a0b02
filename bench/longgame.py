"""A game the bench plays to a long log at random: begun as engine 0.12.0 began it.

A random game ends when a side is wiped out; the bench walks a few steps back and plays on
until the log holds the records it wants. A game begun under engine 0.13.0 takes no undo once
it is over (GAME.OVER: its seed may be revealed then), so the bench's long games are begun as
0.12.0 began them (LOG.RULINGS), the last engine whose games take one. What the bench times
(loading, replaying, verifying, undoing a log) is the same for either.
"""

from __future__ import annotations

from typing import Any

from regiment.core.dice import SeededDice
from regiment.core.events import GameStarted
from regiment.core.game import Game

BEFORE_GAME_OVER = "0.12.0"


def long_game(scenario: dict[str, Any], store: Any) -> Game:
    dice = SeededDice(scenario.get("seed") or "0b5e55")
    started = GameStarted(game_id="bench", scenario=scenario, preset=scenario["preset"],
                          engine_version=BEFORE_GAME_OVER, dice_commitment=dice.commitment(),
                          dice=dice.kind, undo=scenario.get("undo", "free"))
    return Game.new(scenario, store=store, dice=dice, started=started)
