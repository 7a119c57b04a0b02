"""Game records (`regiment record export|import`): the moves of a game, mailed and played
again to the very same log; a changed, cut or foreign record is refused and nothing written."""

from __future__ import annotations

import json

import pytest

from regiment.core.dice import ManualDice
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore, SqliteStore
from regiment.tools.cli import main
from regiment.tools.demo import play
from regiment.tools.record import RecordError, export_record, import_record

from .conftest import EXAMPLES, random_play, small_scenario


def battle(seed: str | None = "3a11ce") -> Game:
    scenario = load_scenario(EXAMPLES / "mill_race.toml")
    scenario["seed"] = seed
    game = Game.new(scenario, store=MemoryStore())
    play(game, show_undo=True)
    return game


def same_log(a: Game, b: Game) -> None:
    assert [r.hash for r in a.records] == [r.hash for r in b.records]
    assert b.state == a.state


def test_a_record_imports_to_the_same_log_and_hashes():
    game = battle()
    lines = list(export_record(game.records, game.store.get_secret(game.game_id)))
    header = json.loads(lines[0])
    assert header["format"] == "regiment-record" and header["dice"]["seed"] == "3a11ce"
    assert json.loads(lines[1])["cmd"]["cmd"] == "declare_charge"
    assert any(json.loads(x).get("cmd", {}).get("cmd") == "undo" for x in lines)
    same_log(game, import_record(lines, MemoryStore()))


def test_a_record_without_the_seed_carries_the_faces_and_still_matches():
    game = battle(seed=None)                 # a random seed, kept secret by the store
    lines = list(export_record(game.records))
    assert "seed" not in json.loads(lines[0])["dice"]
    assert any("faces" in json.loads(x) for x in lines[1:-1])
    same_log(game, import_record(lines, MemoryStore()))


def test_a_record_of_manual_dice_holds_the_rolls_as_moves():
    game = Game.new(small_scenario(dice="manual"), store=MemoryStore(), dice=ManualDice())
    import random
    random_play(game, random.Random(4), 120)
    lines = list(export_record(game.records))
    assert any(json.loads(x).get("cmd", {}).get("cmd") == "roll" for x in lines)
    same_log(game, import_record(lines, MemoryStore()))


@pytest.mark.parametrize("change", ["a move", "a face", "cut", "engine", "not a record",
                                    "seed"])
def test_a_changed_record_is_refused_and_nothing_is_written(change):
    game = battle(seed=None)
    lines = list(export_record(game.records))
    if change == "a move":   # blue's first hold becomes a flee
        i = next(i for i, x in enumerate(lines) if '"reaction":"hold"' in x)
        lines[i] = lines[i].replace('"reaction":"hold"', '"reaction":"flee"')
    elif change == "a face":
        i = next(i for i, x in enumerate(lines) if '"faces"' in x)
        row = json.loads(lines[i])
        row["faces"][0][1][0] = row["faces"][0][1][0] % 6 + 1
        lines[i] = json.dumps(row)
    elif change == "cut":
        lines = lines[:-5]
    elif change == "engine":
        lines[0] = lines[0].replace('"engine":"', '"engine":"9.')
    elif change == "not a record":
        lines = ['{"seq": 0}']
    elif change == "seed":
        header = json.loads(lines[0])
        header["dice"]["seed"] = "00"
        lines[0] = json.dumps(header)
    store = MemoryStore()
    with pytest.raises(RecordError) as info:
        import_record(lines, store)
    assert store.games() == []
    words = {"a move": "refused|does not arrive", "a face": "refused|does not arrive",
             "cut": "cut short", "engine": "engine", "not a record": "not a game record",
             "seed": "commitment"}[change]
    import re
    assert re.search(words, str(info.value)), str(info.value)


def test_record_export_and_import_on_the_command_line(tmp_path, capsys):
    db = tmp_path / "games.db"
    game = battle()
    store = SqliteStore(db)
    imported = import_record(export_record(game.records, b"\x3a\x11\xce"), store)
    store.close()
    path = tmp_path / "mill.record"
    assert main(["record", "export", str(db), "--game", imported.game_id, "-o", str(path)]) == 0
    other = tmp_path / "theirs.db"
    assert main(["record", "import", str(path), "--store", str(other)]) == 0
    out = capsys.readouterr().out
    assert f"imported game {game.game_id}" in out and "the same log and hashes" in out
    again = Game.load(game.game_id, SqliteStore(other))
    same_log(game, again)
    # importing twice is refused, and says why
    assert main(["record", "import", str(path), "--store", str(other)]) == 2
    assert "already holds a game" in capsys.readouterr().err
