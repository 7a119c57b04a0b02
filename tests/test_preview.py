"""A safe "what if" (issue 56 item 4): ``Game.preview`` and ``{"query": "try", "cmd": ...}``
answer what a command would do (its events up to any roll, no die rolled, and the board after)
or its refusal with the rule, and change nothing; ``Game.fork`` is a copy that shares nothing
writable and shows no die to come."""

from __future__ import annotations

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore

from .conftest import EXAMPLES
from .test_serve import Engine


def ford_clash() -> Game:
    return Game.new(load_scenario(EXAMPLES / "ford_clash.toml"), store=MemoryStore())


def unchanged(game: Game):
    return game.version, game.head, game.state.summary(), game.pending


def test_game_try_tells_a_commands_events_and_the_board_after_and_changes_nothing():
    game = ford_clash()
    before = unchanged(game)
    tried = game.preview({"cmd": "declare_charge", "by": "red", "unit": "boyz",
                          "target": "spears"})
    assert [e["type"] for e in tried["events"]] == ["CommandIssued", "ChargeDeclared",
                                                    "PhaseChanged"]
    assert "(CH.DECLARE" in tried["events"][1]["text"]
    assert tried["then"] == {"kind": "decision", "player": "blue", "decision": "react"}
    assert tried["board"]["pieces"] and unchanged(game) == before
    refused = game.preview({"cmd": "declare_charge", "by": "blue", "unit": "boyz",
                            "target": "spears"})
    assert refused["refused"]["rule"] and unchanged(game) == before
    made = game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz",
                        "target": "spears"})
    assert [e.type for e in made[:3]] == [e["type"] for e in tried["events"]]


def test_game_try_stops_at_a_roll_and_shows_no_die():
    """DICE.NO_REROLL: a charge moved in a try stops at its roll; no die is rolled, and the
    dice the real step then rolls are the game's as they would have been."""
    game = ford_clash()
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    before = unchanged(game)
    tried = game.preview({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    assert "DiceRolled" not in [e["type"] for e in tried["events"]]
    assert tried["then"]["kind"] == "roll" and tried["then"]["dice"] >= 2
    assert unchanged(game) == before
    for what in ({"cmd": "undo", "by": "red"}, {"cmd": "roll", "by": "red", "faces": [1, 1]}):
        assert game.preview(what)["refused"]["rule"] == "GAME.TRY"


def test_fork_shares_nothing_writable_and_rolls_no_die_of_the_games():
    game = ford_clash()
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    before = unchanged(game)
    fork = game.fork(MemoryStore())
    assert fork.head == game.head and fork.state.summary() == game.state.summary()
    fork.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    assert fork.pending.kind == "roll"            # the fork waits for faces: none shown
    assert unchanged(game) == before


def test_try_query_in_serve():
    e = Engine()
    try:
        answer = e.send({"query": "try", "cmd": {"cmd": "declare_charge", "by": "red",
                                                 "unit": "boyz", "target": "spears"}})
        assert answer["try"]["events"][1]["type"] == "ChargeDeclared"
        assert answer["pending"] == e.hello["pending"]            # nothing changed
        assert e.send({"query": "try", "cmd": {"cmd": "fly"}})["try"]["refused"]
    finally:
        e.close()
