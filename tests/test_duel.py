"""The duel (tests/duel.py), a rulebook of a few lines written against the kernel alone, plays,
undoes, redoes, replays, stores, exports and verifies through the same Game as the fantasy
presets: the kernel needs nothing from them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from regiment.core.commands import Roll
from regiment.core.errors import IllegalCommand, InvalidScenario, TamperedLog
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.store import LogFileStore, MemoryStore, SqliteStore
from regiment.tools.record import export_record, import_record
from regiment.tools.replay import narrate
from regiment.tools.verify import verify

from . import duel


@pytest.fixture
def rules():
    with duel.registered() as preset:
        yield preset


def strike_to_the_end(game: Game) -> None:
    while game.pending.kind != "over":
        game.submit({"cmd": "strike", "by": game.state.player})


def test_the_duel_imports_nothing_but_the_kernel():
    tree = ast.parse(Path(duel.__file__).read_text(encoding="utf-8"))
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert {m for m in modules if m and m.startswith("regiment.")} <= {
        "regiment.core.about", "regiment.core.commands", "regiment.core.errors",
        "regiment.core.events",
        "regiment.core.endings", "regiment.core.fold", "regiment.core.pending",
        "regiment.core.protocols",
        "regiment.core.scenario", "regiment.core.state", "regiment.core.tell"}


def test_the_duel_plays_to_its_end_and_verifies(rules):
    game = Game.new(parse_scenario(duel.scenario()), store=MemoryStore())
    assert game.pending.kind == "decision" and game.pending.player == "ann"
    assert [c.name for c in game.legal()] == ["strike", "guard"]
    game.submit({"cmd": "guard", "by": "ann"})
    assert game.state.guarding == "ann" and game.state.player == "bob"
    strike_to_the_end(game)
    struck = [r.data for r in game.records if r.type == "Struck"]
    assert struck and struck[0]["needs"] == 6 and all(s["needs"] == 4 for s in struck[1:])
    assert game.state.over
    loser = next((p for p, life in game.state.life.items() if life <= 0), None)
    assert game.state.winner == (game.state.opponent(loser) if loser else None)
    report = verify(list(game.records))
    assert report.steps == len(game.timeline.steps) and report.dice == len(struck)


def test_the_tools_tell_the_duel_in_its_own_words(rules):
    """The replay tells each rulebook's events through its preset (Preset.sentence): the
    duel's strikes read as the duel writes them, the kernel's undo as every game's does."""
    game = Game.new(parse_scenario(duel.scenario()), store=MemoryStore())
    game.submit({"cmd": "guard", "by": "ann"})
    game.undo("ann")
    strike_to_the_end(game)
    lines = list(narrate(game, list(game.records)))
    struck = [r.data for r in game.records if r.type == "Struck"]
    told = [line for line in lines if "(DUEL.STRIKE)" in line]
    assert len(told) == len(struck) and f"{struck[0]['face']} against" in told[0]
    assert any("ann goes on guard (DUEL.GUARD)." in line for line in lines)
    assert any("ann undoes step 1." in line for line in lines)


def test_the_duel_refuses_what_is_not_its_move_and_changes_nothing(rules):
    game = Game.new(parse_scenario(duel.scenario()), store=MemoryStore())
    before = (game.version, game.state)
    for bad, rule in (({"cmd": "strike", "by": "bob"}, "DUEL.TURN"),
                      ({"cmd": "declare_charge", "by": "ann", "unit": "a", "target": "b"},
                       "DUEL.TURN")):
        with pytest.raises(IllegalCommand) as info:
            game.submit(bad)
        assert info.value.rule == rule and (game.version, game.state) == before


def test_the_duel_undoes_and_redoes_without_new_dice(rules):
    game = Game.new(parse_scenario(duel.scenario()), store=MemoryStore())
    game.submit({"cmd": "strike", "by": "ann"})
    first = [r.data["faces"] for r in game.records if r.type == "DiceRolled"]
    game.undo("ann")   # the strike rolled a die: bob is asked first (UNDO.CONSENT)
    assert game.pending.decision == "consent_undo" and game.pending.player == "bob"
    game.submit({"cmd": "grant_undo", "by": "bob"})
    assert game.state.player == "ann" and game.state.life == {"ann": 3, "bob": 3}
    game.submit({"cmd": "strike", "by": "ann"})       # made again: the same die
    again = [r.data["faces"] for r in game.records if r.type == "DiceRolled"]
    assert again == first * 2
    game.undo("ann")
    game.submit({"cmd": "grant_undo", "by": "bob"})
    game.redo("ann")
    assert game.state.player == "bob"
    verify(list(game.records))


@pytest.mark.parametrize("kind", ["memory", "logfile", "sqlite"])
def test_the_duel_is_stored_loaded_and_replayed_as_it_was_played(rules, kind, tmp_path):
    store = {"memory": MemoryStore, "logfile": lambda: LogFileStore(tmp_path / "logs"),
             "sqlite": lambda: SqliteStore(tmp_path / "d.db")}[kind]()
    game = Game.new(parse_scenario(duel.scenario(life=2)), store=store)
    strike_to_the_end(game)
    loaded = Game.load(game.game_id, store)
    assert loaded.state == game.state and loaded.state.life == game.state.life
    again = import_record(export_record(list(game.records)), MemoryStore())
    assert again.records[-1].hash == game.records[-1].hash
    store.close()


def test_the_duel_with_manual_dice_asks_for_the_strike(rules):
    game = Game.new(parse_scenario(duel.scenario(dice="manual")), store=MemoryStore())
    game.submit({"cmd": "strike", "by": "ann"})
    pending = game.pending
    assert pending.kind == "roll" and pending.purpose == "strike" and pending.player == "ann"
    game.submit(Roll(by="ann", faces=(5,)))
    assert game.state.life == {"ann": 3, "bob": 2} and game.state.player == "bob"


def test_a_changed_duel_outcome_is_caught(rules):
    game = Game.new(parse_scenario(duel.scenario()), store=MemoryStore())
    strike_to_the_end(game)
    records = list(game.records)
    i = next(i for i, r in enumerate(records) if r.type == "Struck")
    bad = records[i]._replace(data={**records[i].data, "hit": not records[i].data["hit"]})
    with pytest.raises(TamperedLog, match=f"record {i}"):
        verify([*records[:i], bad, *records[i + 1:]])


def test_the_duel_scenario_is_checked_by_the_kernel_and_the_rulebook(rules):
    with pytest.raises(InvalidScenario, match="at life: expected 1 to 20"):
        parse_scenario(duel.scenario(life=99))
    with pytest.raises(InvalidScenario, match="at units: unknown field"):
        parse_scenario(duel.scenario(units=[]))
    with pytest.raises(InvalidScenario, match="at players: expected exactly two"):
        parse_scenario(duel.scenario(players=[{"id": "ann"}]))
    assert parse_scenario(duel.scenario())["life"] == 3


def test_a_rulebook_may_still_key_its_appliers_by_type_name():
    """Appliers are found by event class; a rulebook written against engine 0.9.0 named
    its events by type name, and ``appliers_for`` takes that too."""
    from regiment.core.fold import KERNEL_APPLIERS, appliers_for

    by_name = appliers_for({"Struck": duel._struck})
    assert by_name[duel.Struck] is duel._struck
    assert appliers_for(duel.APPLIERS)[duel.Guarded] is duel._guarded
    assert set(KERNEL_APPLIERS) <= set(by_name)
