"""A playout is the game without the log: same rules, same dice, same events."""

from __future__ import annotations

import pytest

from regiment.core.errors import IllegalCommand
from regiment.core.game import Game
from regiment.core.playout import Playout
from regiment.store import MemoryStore
from regiment.tools.bot import choose

from .conftest import close_scenario


@pytest.mark.parametrize("seed", ["1", "2a", "beef", "c0ffee"])
def test_a_playout_makes_the_same_game_as_a_logged_game(seed):
    scenario = close_scenario(seed=seed)
    game = Game.new(scenario, store=MemoryStore())
    out = Playout.new(scenario, seed=seed)
    assert out.state.summary() == game.state.summary()
    while game.pending.kind != "over":
        command = choose(game)
        assert choose(out) == command
        logged = [e for e in game.submit(command) if e.type != "CommandIssued"]
        assert out.submit(command) == logged
        assert out.state.summary() == game.state.summary()
    assert out.pending == game.pending


def test_a_playout_refuses_what_a_game_refuses():
    out = Playout.new(close_scenario())
    with pytest.raises(IllegalCommand) as info:
        out.submit({"cmd": "declare_charge", "by": "blue", "unit": "spears", "target": "boyz"})
    assert info.value.rule == "CH.DECLARE"
