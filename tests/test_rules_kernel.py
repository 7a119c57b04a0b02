"""Rule-named tests of the kernel's own rules (GAME.*, DICE.*, UNDO.*, STORE.*).

Most behaviour is exercised at length in test_game.py and test_properties.py; these tests pin
each rule by name, so that docs/rules.md and the suite can be checked against each other.
"""

from __future__ import annotations

import pytest

from regiment.core.commands import Roll
from regiment.core.dice import ManualDice, ScriptedDice, SeededDice
from regiment.core.errors import ConcurrencyConflict, IllegalCommand
from regiment.core.game import Game
from regiment.store import MemoryStore

from .conftest import small_scenario
from .test_game import charge_and_roll


def refused(game: Game, command, rule: str) -> None:
    before = (game.state, game.version)
    with pytest.raises(IllegalCommand) as info:
        game.submit(command)
    assert info.value.rule == rule, info.value
    assert (game.state, game.version) == before


def test_game_player_only_the_two_players_may_send_commands():
    game = Game.new(small_scenario(), store=MemoryStore())
    refused(game, {"cmd": "end_charges", "by": "umpire"}, "GAME.PLAYER")


def test_game_end_the_turns_run_out_and_no_side_wins_a_side_left_alone_does():
    from regiment.core.tell import kernel_sentence

    game = Game.new(small_scenario(turns=1), store=MemoryStore())
    while game.pending.kind != "over":
        game.submit(game.pending.legal[-1])
    ended = [r.data for r in game.records if r.type == "GameEnded"]
    # the rulebook's victory rule decides (VP.WIN, games from 0.12.0): no points, a draw
    assert ended == [{"winner": None, "ending": {"code": "points", "turns": 1, "rule": "VP.WIN",
                                                 "points": {"red": 0, "blue": 0}}}]
    # where a rulebook has none (as before 0.12.0), no side wins when the turns run out
    unscored = game.preset.game_over(game.state.evolve(engine=(0, 11, 0))).to_data()
    assert unscored == {"winner": None, "ending": {"code": "turns_played", "turns": 1}}
    assert "No side wins: both still have pieces on the table" in \
        kernel_sentence("GameEnded", unscored)
    # the other ending: a side with no piece left loses, the other wins
    alone = game.state.evolve(units={k: u.evolve(status="destroyed")
                                     for k, u in game.state.units.items() if u.player == "blue"}
                              | {k: u for k, u in game.state.units.items() if u.player == "red"})
    won = game.preset.game_over(alone)   # the preset is its engine
    assert (won.ending, won.winner) == ({"code": "side_left", "player": "red"}, "red")
    told = game.preset.sentence("GameEnded", won.to_data(), alone)
    assert told == "The game ends: only red has units left. red wins (GAME.END)."
    # a game begun before 0.10.0 writes its end as that engine did: in English
    old = game.preset.game_over(alone.evolve(engine=(0, 9, 0)))
    assert old.to_data() == {"reason": "only red has units left", "winner": "red"}
    assert game.preset.sentence("GameEnded", old.to_data(), alone) == told


def played_out(engine: str | None = None) -> Game:
    from regiment.core.events import GameStarted

    sc = small_scenario(turns=1)
    dice = SeededDice(b"\x01\x02")
    started = None if engine is None else GameStarted(
        game_id="old", scenario=sc, preset=sc["preset"], engine_version=engine,
        dice_commitment=dice.commitment(), dice=dice.kind, undo="free")
    game = Game.new(sc, store=MemoryStore(), dice=dice, started=started)
    while game.pending.kind != "over":
        game.submit(game.pending.legal[-1])
    return game


def test_game_over_a_finished_game_takes_nothing_not_even_undo_or_redo():
    """GAME.OVER (games from 0.13.0): once GameEnded is logged the seed may be revealed, so no
    step is taken back or made again: an undo would let the seats replay rolls that anyone
    can now predict (issue 55 row 3). A game begun under 0.12.0 still takes them."""
    game = played_out()
    refused(game, {"cmd": "end_phase", "by": "blue"}, "GAME.OVER")
    refused(game, {"cmd": "undo", "by": "blue"}, "GAME.OVER")
    refused(game, {"cmd": "redo", "by": "red"}, "GAME.OVER")
    assert not game.can_undo and not [c for c in game.legal() if c.name == "undo"]
    old = played_out("0.12.0")
    old.undo("blue")
    old.redo("blue")
    assert old.state.over


def test_dice_faces_must_be_the_right_count_of_d6():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=ManualDice())
    charge_and_roll(game)
    for faces in ((4,), (4, 4, 4), (4, 0), (7, 1)):
        refused(game, Roll(by="red", faces=faces), "DICE.FACES")
    with pytest.raises(IllegalCommand) as info:
        game.submit(Roll(by="red", faces=(9, 9)))
    assert info.value.phase == "turn.movement.charge.charge_moves"
    assert "a D6 shows 1 to 6, not 9" in str(info.value)


def test_dice_pending_only_the_pending_roll_is_accepted():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=ManualDice())
    refused(game, Roll(by="red", faces=(3, 3)), "DICE.PENDING")
    charge_and_roll(game)
    refused(game, {"cmd": "end_phase", "by": "red"}, "DICE.PENDING")
    refused(game, Roll(by="blue", faces=(3, 3)), "DICE.PENDING")


def test_dice_no_reroll_after_undo_with_manual_dice():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=ManualDice())
    charge_and_roll(game)
    game.submit(Roll(by="red", faces=(5, 2)))
    game.undo("red")
    refused(game, Roll(by="red", faces=(6, 6)), "DICE.NO_REROLL")


def test_dice_seed_a_store_without_the_seed_can_read_but_not_roll():
    store = MemoryStore()
    game = Game.new(small_scenario(), store=store)
    charge_and_roll(game)
    store._secrets.clear()  # the seed stayed with another machine
    loaded = Game.load(game.game_id, store)
    assert loaded.state == game.state
    loaded.undo("red")
    loaded.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})  # known dice: fine
    assert loaded.state.summary() == game.state.summary()
    refused = None
    for _ in range(200):                     # play on until a command needs new dice
        command = loaded.pending.legal[-1]
        version = loaded.version
        try:
            loaded.submit(command)
        except IllegalCommand as exc:
            refused = exc
            assert loaded.version == version  # nothing was written
            break
    assert refused is not None and refused.rule == "DICE.SEED"


def test_dice_script_running_out_is_an_error_not_a_guess():
    game = Game.new(small_scenario(dice="scripted", script=[3]), store=MemoryStore())
    assert isinstance(game.dice, ScriptedDice)
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    refused(game, {"cmd": "move_charger", "by": "red", "unit": "boyz"}, "DICE.SCRIPT")


def test_undo_nothing_before_the_first_command():
    game = Game.new(small_scenario(), store=MemoryStore())
    refused(game, {"cmd": "undo", "by": "red"}, "UNDO.NOTHING")


def test_undo_redo_only_what_was_undone_and_not_after_a_new_command():
    game = Game.new(small_scenario(), store=MemoryStore())
    refused(game, {"cmd": "redo", "by": "red"}, "UNDO.REDO")
    game.submit({"cmd": "end_charges", "by": "red"})
    game.undo("red")
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    refused(game, {"cmd": "redo", "by": "red"}, "UNDO.REDO")


def test_undo_policy_off_allows_no_undo():
    game = Game.new(small_scenario(undo="off"), store=MemoryStore())
    game.submit({"cmd": "end_charges", "by": "red"})
    refused(game, {"cmd": "undo", "by": "blue"}, "UNDO.POLICY")


def test_undo_consent_is_recorded_in_the_marker():
    game = Game.new(small_scenario(undo="consent"), store=MemoryStore())
    charge_and_roll(game)
    game.undo("red")
    refused(game, {"cmd": "grant_undo", "by": "red"}, "UNDO.CONSENT")
    done = game.submit({"cmd": "grant_undo", "by": "blue"})
    assert done[-1].consent == "blue" and done[-1].by == "red"


def test_undo_dice_seeded_dice_come_out_the_same_after_an_undo():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=SeededDice("0123"))
    charge_and_roll(game)
    before = [e.faces for e in game.timeline.steps[-1] if e.type == "DiceRolled"]
    game.undo("red")
    game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    assert [e.faces for e in game.timeline.steps[-1] if e.type == "DiceRolled"] == before


def test_store_version_a_stale_writer_writes_nothing():
    store = MemoryStore()
    game = Game.new(small_scenario(), store=store)
    twin = Game.load(game.game_id, store)
    game.submit({"cmd": "end_charges", "by": "red"})
    with pytest.raises(ConcurrencyConflict):
        twin.submit({"cmd": "end_charges", "by": "red"})
    assert twin.version < game.version == store.version(game.game_id)


def test_turn_order_the_kernel_applies_every_event_it_emits():
    """TURN.ORDER: every event of the kernel's own, but the undo markers (the timeline's) and
    GameStarted (the rulebook's first state), has a kernel applier, so a rulebook need write
    appliers for its own events only; a TurnBegan changes nothing of the kernel's state."""
    from regiment.core import events as kernel_events
    from regiment.core.events import META_EVENTS, Event, GameStarted, TurnBegan
    from regiment.core.fold import KERNEL_APPLIERS
    from regiment.core.state import GameState

    own = {cls for cls in vars(kernel_events).values() if isinstance(cls, type)
           and issubclass(cls, Event) and cls is not Event
           and cls.__module__ == kernel_events.__name__}
    assert len(own) >= 14
    missing = {c.__name__ for c in own if c not in KERNEL_APPLIERS} - META_EVENTS - {
        GameStarted.__name__}
    assert not missing, missing
    state = GameState(game_id="g", preset="p", players=("a", "b"), first="a", turns=2)
    assert KERNEL_APPLIERS[TurnBegan](state, TurnBegan(turn=1, player="a")) is state
