"""UNDO.CONSENT as hosted games play it: consent means consent, dice or not."""

from __future__ import annotations

import pytest

from regiment.core.errors import IllegalCommand
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore
from regiment.tools.bot import choose

from .conftest import EXAMPLES, small_scenario


def consent_game() -> Game:
    scenario = load_scenario(EXAMPLES / "ford_clash.toml")
    scenario["undo"] = "consent"
    return Game.new(scenario, store=MemoryStore())


def play_until(game: Game, rolled: bool) -> str:
    """Play bot commands until the newest step rolled dice (``rolled``) or rolled none; who
    made it."""
    while True:
        command = choose(game)
        game.submit(command)
        step = game.timeline.last_live()
        assert step is not None
        if game.timeline.rolled_dice(step) == rolled:
            return command.by


def play_until_a_step_without_dice(game: Game) -> str:
    return play_until(game, rolled=False)


def other(game: Game, seat: str) -> str:
    return game.state.opponent(seat)


def test_undo_consent_the_other_seats_step_needs_consent_even_without_dice():
    game = consent_game()
    maker = play_until_a_step_without_dice(game)
    step = game.timeline.last_live()
    events = game.undo(other(game, maker))
    assert [e.type for e in events[1:]] == ["UndoRequested"]
    assert game.timeline.last_live() == step           # nothing undone yet
    assert game.pending.kind == "decision" and game.pending.player == maker
    with pytest.raises(IllegalCommand, match="other player"):
        game.submit({"cmd": "grant_undo", "by": other(game, maker)})
    done = game.submit({"cmd": "grant_undo", "by": maker})
    assert done[-1].to_data() == {"step": step, "by": other(game, maker), "consent": maker}


def test_undo_consent_a_seat_takes_back_its_own_step_alone_while_the_other_has_not_acted():
    game = consent_game()
    maker = play_until_a_step_without_dice(game)
    step = game.timeline.last_live()
    events = game.undo(maker)
    assert events[-1].type == "StepUndone" and events[-1].to_data()["consent"] is None
    assert step in game.timeline.redo


def test_undo_consent_once_the_other_seat_has_acted_since_its_own_step_needs_consent():
    """Red declares a charge, blue holds (neither rolls a die). Blue takes back its own hold
    alone; red then needs consent to take back its charge, though the hold is undone: blue
    acted on it. Asking for an undo, or answering one, is not acting."""
    game = Game.new(small_scenario(undo="consent"), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    assert game.undo("red")[-1].type == "UndoRequested"        # blue's step: ask
    game.submit({"cmd": "refuse_undo", "by": "blue"})
    assert game.undo("blue")[-1].type == "StepUndone"           # its own, no dice: alone
    asked = game.undo("red")
    assert asked[-1].type == "UndoRequested"                    # blue acted since: ask
    game.submit({"cmd": "grant_undo", "by": "blue"})
    assert game.timeline.last_live() is None
    # a step of one's own that the other has not acted on goes alone, whatever was asked
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.undo("blue")
    game.submit({"cmd": "refuse_undo", "by": "red"})
    assert game.undo("red")[-1].type == "StepUndone"


def test_undo_consent_a_step_that_rolled_dice_needs_consent_whoever_made_it():
    game = consent_game()
    while True:
        command = choose(game)
        game.submit(command)
        step = game.timeline.last_live()
        if step is not None and game.timeline.rolled_dice(step) and \
                game.timeline.by(step) == command.by:
            break
    assert game.undo(command.by)[-1].type == "UndoRequested"


def test_undo_consent_free_lets_either_seat_undo_anything():
    scenario = load_scenario(EXAMPLES / "ford_clash.toml")
    assert scenario["undo"] == "free"
    game = Game.new(scenario, store=MemoryStore())
    maker = play_until_a_step_without_dice(game)
    assert game.undo(other(game, maker))[-1].type == "StepUndone"


def test_undo_consent_a_refused_undo_is_not_asked_again():
    """UNDO.CONSENT (games from 0.13.0; issue 55 row 11): a seat whose undo request was
    refused may not ask for the same step again, so no seat can nag the other with requests
    without end; nothing is logged for the refused repeat."""
    game = Game.new(small_scenario(undo="consent"), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    assert game.undo("red")[-1].type == "UndoRequested"
    game.submit({"cmd": "refuse_undo", "by": "blue"})
    before = game.version
    with pytest.raises(IllegalCommand) as err:
        game.undo("red")
    assert err.value.rule == "UNDO.CONSENT" and "refused" in str(err.value)
    assert game.version == before
    assert game.undo("blue")[-1].type == "StepUndone"   # its own step, alone, as before


def test_undo_consent_only_the_seat_whose_step_it_was_redoes_it():
    """UNDO.CONSENT (games from 0.13.0; issue 55 row 11): a step its owner took back is not
    put back by the other seat: under consent the owner redoes it, or nobody."""
    game = consent_game()
    maker = play_until_a_step_without_dice(game)
    assert game.undo(maker)[-1].type == "StepUndone"
    before = game.version
    with pytest.raises(IllegalCommand) as err:
        game.redo(other(game, maker))
    assert err.value.rule == "UNDO.CONSENT" and game.version == before
    assert game.redo(maker)[-1].type == "StepRedone"


# --- UNDO.POLICY: free and solo (games from engine 0.15.0) ---------------------------------

def policy_game(undo: str, engine: str | None = None) -> Game:
    """The ford clash under ``undo``; begun by ``engine`` (LOG.RULINGS) when given."""
    from regiment.core.dice import SeededDice
    from regiment.core.events import GameStarted

    scenario = {**load_scenario(EXAMPLES / "ford_clash.toml"), "undo": undo}
    if engine is None:
        return Game.new(scenario, store=MemoryStore())
    dice = SeededDice(scenario["seed"])
    public = {k: v for k, v in scenario.items() if k != "seed"}
    started = GameStarted(game_id="older", scenario=public, preset=scenario["preset"],
                          engine_version=engine, dice_commitment=dice.commitment(),
                          dice=dice.kind, undo=undo)
    return Game.new(scenario, store=MemoryStore(), dice=dice, started=started)


def play_until_a_roll(game: Game) -> str:
    return play_until(game, rolled=True)


def test_undo_policy_free_asks_the_other_seat_before_a_step_that_rolled_dice_is_undone():
    """Nobody sees the dice of a step and takes it back alone to spend them elsewhere."""
    game = policy_game("free")
    maker = play_until_a_roll(game)
    step = game.timeline.last_live()
    events = game.undo(maker)
    assert [e.type for e in events[1:]] == ["UndoRequested"]
    assert game.timeline.last_live() == step   # nothing undone yet
    assert (game.pending.decision, game.pending.player) == ("consent_undo", other(game, maker))
    game.submit({"cmd": "refuse_undo", "by": other(game, maker)})
    assert game.timeline.last_live() == step
    with pytest.raises(IllegalCommand, match="refused"):
        game.undo(maker)   # not asked again (UNDO.CONSENT)


def test_undo_policy_free_takes_back_a_step_without_dice_alone_either_seat():
    game = policy_game("free")
    maker = play_until_a_step_without_dice(game)
    events = game.undo(other(game, maker))
    assert events[-1].type == "StepUndone" and events[-1].to_data()["consent"] is None


def test_undo_policy_solo_takes_back_a_step_that_rolled_dice_alone():
    game = policy_game("solo")
    maker = play_until_a_roll(game)
    faces = [r.data["faces"] for r in game.records if r.type == "DiceRolled"]
    events = game.undo(maker)
    assert events[-1].type == "StepUndone" and events[-1].to_data()["consent"] is None
    game.redo(maker)
    assert [r.data["faces"] for r in game.records if r.type == "DiceRolled"] == faces


def test_undo_policy_free_in_a_game_begun_before_0_15_0_undoes_a_rolled_step_alone():
    """LOG.RULINGS: a game begun under 0.14.0 is played, and verified, as it was."""
    from regiment.tools.verify import verify

    game = policy_game("free", engine="0.14.0")
    maker = play_until_a_roll(game)
    events = game.undo(maker)
    assert events[-1].type == "StepUndone" and events[-1].to_data()["consent"] is None
    assert verify(list(game.records)).steps == len(game.timeline.steps)
