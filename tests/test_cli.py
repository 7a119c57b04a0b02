"""The command line as a person runs it: demo, replay, inspect, export, verify."""

from __future__ import annotations

import json

from regiment.store import SqliteStore
from regiment.tools.cli import main


def run_demo(tmp_path, capsys, seed=None):
    db = tmp_path / "demo.db"
    assert main(["demo", "--store", str(db), *(["--seed", seed] if seed else [])]) == 0
    out = capsys.readouterr().out
    with SqliteStore(db) as store:
        game_id = store.games()[-1]
    return db, game_id, out


def test_demo_plays_a_real_battle_on_sqlite_and_shows_how_to_check_it(tmp_path, capsys):
    from regiment.tools.demo import DEFAULT_SEED

    db, game_id, out = run_demo(tmp_path, capsys)
    for told in ("(CH.RANGE, S3 p.27)", "stand and shoot", "Combat result:", "round 3",
                 "break test: Ld", "they break", "caught", "(FP.PURSUE_MOVE, S0 p.60)",
                 "an undo never re-rolls dice", "The game ends", "How the units ended"):
        assert told in out, told
    assert f"regiment replay {db} --game {game_id}" in out
    assert f"regiment replay {db} --game {game_id} --html replay.html" in out
    assert f"regiment verify {db} --game {game_id} --seed {DEFAULT_SEED}" in out
    assert main(["verify", str(db), "--game", game_id, "--seed", DEFAULT_SEED]) == 0
    assert "every die matches the revealed seed" in capsys.readouterr().out


def test_replay_tells_the_game_and_marks_what_was_taken_back(tmp_path, capsys):
    db, game_id, _ = run_demo(tmp_path, capsys, seed="5eed")
    assert main(["replay", str(db), "--game", game_id]) == 0
    out = capsys.readouterr().out
    assert "step 0 [set-up]" in out and "[taken back] step" in out and "undoes step" in out
    assert main(["replay", str(db), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["type"] == "GameStarted" and rows[0]["branch"] == "live"
    assert any(r["type"] == "ChargeRolled" and "CH.RANGE" in r["text"] for r in rows)
    assert {"live", "meta", "abandoned"} <= {r["branch"] for r in rows}


def test_export_then_verify_the_file_and_catch_an_edit(tmp_path, capsys):
    db, game_id, _ = run_demo(tmp_path, capsys, seed="5eed")
    out = tmp_path / "game.jsonl"
    assert main(["export", str(db), "-o", str(out)]) == 0  # the most recent game
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["data"]["game_id"] == game_id
    assert main(["verify", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["ok"] is True
    i = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "DiceRolled")
    record = json.loads(lines[i])
    record["data"]["faces"][0] = record["data"]["faces"][0] % 6 + 1
    lines[i] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n")
    assert main(["verify", str(out)]) == 1
    assert f"FAILED at record {i}" in capsys.readouterr().out


def test_verify_jobs_checks_the_log_in_pieces_with_the_same_answer(tmp_path, capsys,
                                                                  monkeypatch):
    """verify --jobs N: the same lines with 1 and 3 processes, for the honest log and for
    one with a die edited (the same record named); a number of processes out of range is a
    usage error (exit 2)."""
    from regiment.tools import pieces as module

    monkeypatch.setattr(module, "PIECE_RECORDS", 8)   # the demo's short log, in pieces
    db, _, _ = run_demo(tmp_path, capsys, seed="5eed")
    out = tmp_path / "game.jsonl"
    assert main(["export", str(db), "-o", str(out)]) == 0
    capsys.readouterr()
    said = {}
    for jobs in ("1", "3"):
        assert main(["verify", str(out), "--json", "--jobs", jobs]) == 0
        said[jobs] = capsys.readouterr().out
    assert said["1"] == said["3"] and '"ok": true' in said["3"]
    lines = out.read_text().splitlines()
    i = max(i for i, line in enumerate(lines) if json.loads(line).get("type") == "DiceRolled")
    record = json.loads(lines[i])
    record["data"]["faces"][0] = record["data"]["faces"][0] % 6 + 1
    lines[i] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n")
    for jobs in ("1", "3"):
        assert main(["verify", str(out), "--jobs", jobs]) == 1
        said[jobs] = capsys.readouterr().out
    assert said["1"] == said["3"] and f"FAILED at record {i}" in said["3"]
    try:
        main(["verify", str(out), "--jobs", "0"])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("--jobs 0 was taken")
    assert "1 to 1,024" in capsys.readouterr().err


def test_inspect_marks_undone_branches(tmp_path, capsys):
    db, game_id, _ = run_demo(tmp_path, capsys, seed="5eed")
    assert main(["inspect", str(db), "--game", game_id, "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    branches = {r["branch"] for r in rows}
    assert {"live", "meta", "abandoned"} <= branches
    assert main(["inspect", str(db)]) == 0
    assert "GameStarted" in capsys.readouterr().out


def test_errors_are_one_clear_line_and_exit_2(tmp_path, capsys):
    assert main(["inspect", str(tmp_path / "missing.db")]) == 2
    assert "no store at" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seq": 0}\n')
    assert main(["verify", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl line 1: not a record" in err and "CorruptLog" not in err
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"\x00not sqlite at all" * 100)
    assert main(["inspect", str(garbage)]) == 2
    assert "garbage.db" in capsys.readouterr().err


def test_every_rule_event_is_told_with_its_rules_or_is_bookkeeping():
    """Explanations: every outcome event renders as a sentence citing a rule ID."""
    import re

    import regiment.phases.fantasy.events  # noqa: F401 - registers the preset's events
    from regiment.core.events import EVENTS
    from regiment.phases.fantasy.narrate import TEMPLATES
    from regiment.tools.replay import QUIET

    kernel = {"GameStarted", "CommandIssued", "PhaseChanged", "RollRequested", "DiceRolled",
              "StepUndone", "StepRedone", "UndoRequested", "UndoRefused", "GameEnded"}
    rules_events = {n for n, cls in EVENTS.items()
                    if cls.__module__.startswith("regiment.phases.fantasy")}
    for name in rules_events - kernel - QUIET:
        assert name in TEMPLATES, f"{name} has no sentence"
    from regiment.core.game import Game
    from regiment.phases.fantasy.narrate import sentence
    from regiment.store import MemoryStore
    from regiment.tools.demo import bundled_scenario, play

    scenario = bundled_scenario()
    scenario["seed"] = "007c"
    game = Game.new(scenario, store=MemoryStore())
    play(game, show_undo=False)
    for r in game.records:
        if r.type in kernel or r.type in QUIET or r.data.get("reason") == "scenario":
            continue
        text = sentence(r.type, r.data, game.state)
        if text is not None:
            assert re.search(r"[(; ][A-Z]+\.[A-Z_]+(, S[0-4] p\.\d+| \[G\])", text), (r.type, text)


def test_replay_an_exported_file_tells_the_same_story(tmp_path, capsys):
    db, game_id, _ = run_demo(tmp_path, capsys, seed="5eed")
    out = tmp_path / "game.jsonl"
    assert main(["export", str(db), "--game", game_id, "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(db), "--game", game_id]) == 0
    from_store = capsys.readouterr().out
    assert main(["replay", str(out)]) == 0
    assert capsys.readouterr().out == from_store


def test_one_default_store_for_every_command(tmp_path, capsys, monkeypatch):
    """Issue 12: demo, play, serve, replay, verify, export, record and games all use
    regiment.db in the current folder unless told otherwise."""
    import pytest

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")   # the listing's lines whole
    assert main(["demo"]) == 0
    assert (tmp_path / "regiment.db").exists()
    capsys.readouterr()
    assert main(["verify"]) == 0
    assert ": OK:" in capsys.readouterr().out
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    with SqliteStore(tmp_path / "regiment.db") as store:
        game_id = store.games()[-1]
    assert game_id in out and "fantasy8" in out and "over" in out
    # how it ended, in the rulebook's word for its pieces, as the replay tells it
    assert "over: orcs won (only orcs has units left)" in out
    assert main(["record", "export", "-o", "t.record"]) == 0
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.startswith("regiment 0.")


def test_listings_of_scenarios_and_the_catalogue(capsys):
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "mill_race" in out and "The mill race" in out and out.count("Black Fire Ford") == 1
    assert main(["catalogue"]) == 0
    out = capsys.readouterr().out
    assert "orc_boyz" in out and "[[units]]" in out and "4 3 3 3 4 1 2 1 7" in out
    # the skirmish game's squads, a monstrous creature among them
    assert "assault_marines" in out and "carnifex" in out and "S9 AP1, close combat" in out
    # SHOOT.WEAPONS, SK.MOVE: what the rules name and the battles can use (issue 54 item 4)
    for listed in ("dwarf_rangers", "throwing_weapons", "Repeater",
                   "repeater_crossbow", "empire_huntsmen", "longbow"):
        assert listed in out
    assert "jump_marines" in out and "12 4 4 4 4 1 4 2 8" in out   # their own Movement


def test_odds_shoot_takes_a_weapon_of_multiple_shots_and_throwing_weapons(capsys):
    """SHOOT.HIT: odds shoot gives the repeater crossbow its -1 (BS 4: 3+ becomes 4+), and
    throwing weapons strike at the thrower's Strength (S3 against T4: 5+)."""
    assert main(["odds", "shoot", "10", "--shooter", "repeater_crossbowmen",
                 "--target", "orc_boyz"]) == 0
    out = capsys.readouterr().out
    assert "(multiple shots): hit 4+, wound 5+" in out
    assert main(["odds", "shoot", "10", "--shooter", "dwarf_rangers",
                 "--target", "orc_boyz"]) == 0
    assert "throwing_weapons shots of Dwarf Rangers at Orc Boyz: hit 4+, wound 5+" in \
        capsys.readouterr().out


def test_user_errors_exit_2_and_say_what(tmp_path, capsys):
    for argv, said in ((["odds", "charge", "9"], "needs the charger's Movement"),
                       (["odds", "attacks", "10", "--attacker", "orc_boyz"], "needs --target"),
                       (["odds", "attacks", "10", "--attacker", "orcs", "--target", "goblins"],
                        "no unit 'orcs' in the catalogue"),
                       (["games", str(tmp_path / "none.db")], "no store at"),
                       (["play", "no_such_battle"], "no bundled scenario of that name")):
        assert main(argv) == 2, argv
        assert said in capsys.readouterr().err, argv


# --- the command line as people type it (issue 26) -------------------------------------------


def test_every_reading_command_takes_the_store_as_a_path_or_as_store(tmp_path, capsys):
    db, _, _ = run_demo(tmp_path, capsys)
    for command in (["games"], ["replay"], ["inspect"], ["export"], ["verify"],
                    ["record", "export"]):
        assert main([*command, str(db)]) == 0, command
        by_path = capsys.readouterr().out
        assert main([*command, "--store", str(db)]) == 0, command
        assert capsys.readouterr().out == by_path, command
    try:
        main(["replay", str(db), "--store", str(tmp_path / "other.db")])
    except SystemExit as exc:
        assert exc.code == 2
    assert "name the store once" in capsys.readouterr().err


def test_options_may_follow_the_command(tmp_path, capsys):
    db, _, _ = run_demo(tmp_path, capsys)
    assert main(["replay", str(db), "--lang", "ru"]) == 0
    assert "шаг 0" in capsys.readouterr().out
    assert main(["--lang", "ru", "replay", "--store", str(db)]) == 0
    assert "шаг 0" in capsys.readouterr().out


def test_a_mistyped_name_is_answered_with_the_nearest(tmp_path, capsys):
    import pytest

    with pytest.raises(SystemExit) as done:
        main(["replpay"])
    assert done.value.code == 2 and "did you mean 'replay'?" in capsys.readouterr().err
    from regiment.tools.listings import scenario_path

    assert scenario_path("mill-race").name == "mill_race.toml"      # - for _
    assert scenario_path("mill_r").name == "mill_race.toml"         # a unique prefix
    assert main(["play", "mil_race", "--store", str(tmp_path / "x.db")]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'mill_race'?" in err and "InvalidScenario" not in err
    from .conftest import EXAMPLES

    bad = tmp_path / "bad.toml"
    bad.write_text((EXAMPLES / "orcs_vs_empire.toml").read_text(encoding="utf-8").replace(
        'catalogue = "orc_boyz"', 'catalogue = "orc_boy"'), encoding="utf-8")
    assert main(["play", str(bad), "--store", str(tmp_path / "y.db")]) == 2
    assert "did you mean 'orc_boyz'?" in capsys.readouterr().err


def test_commands_and_options_by_a_unique_beginning(tmp_path, capsys):
    import pytest

    assert main(["scen"]) == 0                                 # scenarios
    assert "mill_race" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:                    # several begin so: all named
        main(["re"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "did you mean 'record', 'replay' or 'repair'?" in err
    db = tmp_path / "g.db"
    assert main(["demo", "--store", str(db)]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:                    # the command's own usage
        main(["replay", str(db), "--gme", "x"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.startswith("usage: regiment replay")
    assert "unrecognized arguments: --gme x; did you mean '--game'?" in err
    assert main(["--lang", "ru", "gam", str(db)]) == 0          # after an option's value
    assert f"Games in {db}" in capsys.readouterr().out
    assert main(["odds", "attacks", "10", "--attacker", "orc_boy", "--target",
                 "empire_spear"]) == 0                        # catalogue names too
    assert "Orc Boyz attacks at Empire Spearmen" in capsys.readouterr().out
    assert main(["odds", "attacks", "10", "--attacker", "orcboyz", "--target",
                 "empire_spearmen"]) == 2
    assert "did you mean 'orc_boyz'" in capsys.readouterr().err


def test_a_game_id_may_be_shortened_to_a_unique_prefix(tmp_path, capsys):
    db, game_id, _ = run_demo(tmp_path, capsys)
    assert main(["verify", str(db), "--game", game_id[:6]]) == 0
    assert f"game {game_id}: OK" in capsys.readouterr().out
    assert main(["verify", str(db), "--game", "zzzz"]) == 2
    err = capsys.readouterr().err
    assert "has no game 'zzzz'" in err and "BadRequest" not in err


def test_errors_say_what_went_wrong_without_class_names(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "none.db")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("regiment verify: no store at") and "Request" not in err


def test_a_printed_command_is_the_one_the_user_ran(tmp_path, monkeypatch):
    import sys

    from regiment.tools.names import command_name

    monkeypatch.setattr(sys, "argv", [".venv/bin/regiment", "play"])
    monkeypatch.setenv("PATH", str(tmp_path))   # not on the PATH
    assert command_name() == ".venv/bin/regiment"
    monkeypatch.setattr(sys, "argv", ["pytest"])
    assert command_name() == "regiment"


def test_log_receipt_a_miscopied_head_code_is_shown_beside_the_logs_own(tmp_path, capsys):
    db, game_id, _ = run_demo(tmp_path, capsys)
    from regiment.core.record import step_heads
    from regiment.store import open_store

    heads = step_heads(list(open_store(db).read(game_id)))
    step = sorted(heads)[len(heads) // 2]
    code = heads[step].hex()[:10]
    wrong = code[:-1] + ("0" if code[-1] != "0" else "1")
    assert main(["verify", str(db), "--head", f"{step}:{wrong}"]) == 1
    err = capsys.readouterr()
    said = err.out + err.err
    assert f"its head at step {step} is {code}" in said and "miscopied" in said


def session_on(scenario: str = "ford_clash", **kw):
    import io

    from rich.console import Console

    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.play import Session

    from .conftest import EXAMPLES

    sc = load_scenario(EXAMPLES / f"{scenario}.toml")
    sc["dice"] = "manual"
    game = Game.new(sc, store=MemoryStore())
    out = io.StringIO()
    return Session(game, Console(file=out, width=200), lambda p: "quit", "x.db", **kw), out


def test_play_options_by_their_words_and_dice_by_counts(tmp_path):
    s, out = session_on()
    g = s.game
    assert s.answer("declare charge orc boyz empire spearmen", g.pending)
    assert g.state.units["boyz"].declared == "spears"
    s.answer("hold", g.pending)                       # blue: one word picks "react ... hold"
    assert g.state.units["spears"].reaction == "hold"
    s.answer("end charges", g.pending)
    s.answer("move", g.pending)                       # the only charger: a unique beginning
    assert g.pending.kind == "roll" and g.pending.dice == 2
    s.answer("1x6 1x5", g.pending)                    # by counts of each face
    rolled = [r for r in g.records if r.type == "DiceRolled"][-1]
    assert sorted(rolled.data["faces"]) == [5, 6]
    s.answer("udno", g.pending)                       # a typo of a word: "did you mean"
    assert "did you mean 'undo'?" in out.getvalue()


def test_play_words_in_the_players_language_and_by_their_beginning():
    from regiment.core.i18n import language

    s, _ = session_on()
    assert s.word("expl") == "explain" and s.word("UNDO") == "undo" and s.word("2") == "2"
    with language("ru"):
        assert s.word("помощь") == "help"


def test_play_auto_skip_passes_phases_where_nothing_can_be_done():
    s, out = session_on(auto_skip=True)
    g = s.game
    s.answer("end charges", g.pending)
    assert g.state.phase == "turn.movement.remaining"   # units may move (MOVE.REMAINING)
    s.answer("end phase", g.pending)
    answers = iter(["quit"])
    s.ask = lambda prompt: next(answers)
    s.run()
    told = out.getvalue()
    assert "Nothing can be done in" in told and "passed" in told
    assert g.state.phase.startswith("turn.close_combat") or g.pending.kind != "decision" or \
        g.pending.legal[0].name != "end_phase"


def test_play_auto_skip_is_the_default_and_no_auto_skip_keeps_stopping():
    """`play` passes the magic phase (not played) and any phase with nothing but passing by
    itself unless told `--no-auto-skip`."""
    from regiment.tools.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["play", "ford_clash"]).auto_skip is True
    assert parser.parse_args(["play", "ford_clash", "--auto-skip"]).auto_skip is True
    assert parser.parse_args(["play", "ford_clash", "--no-auto-skip"]).auto_skip is False


def test_play_bot_undo_takes_back_the_bots_steps_with_the_players_own():
    import io

    from rich.console import Console

    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.play import Session

    from .conftest import EXAMPLES

    # one person against the bot: solo, as `play --bot` makes it (UNDO.POLICY)
    game = Game.new({**load_scenario(EXAMPLES / "border_patrol.toml"), "undo": "solo"},
                    store=MemoryStore())
    typed = iter(["end charges", "end phase", "", "", "", "undo", "quit"])
    s = Session(game, Console(file=io.StringIO(), width=200), lambda p: next(typed), "x.db",
                bots=("empire",))
    s.run()
    told = s.console.file.getvalue()
    assert "empire (bot): end charges" in told   # the bot played its turn...
    st = game.state   # ... and undo went back past it to the orcs' own last decision
    assert (st.player, st.phase, st.turn) == ("orcs", "turn.close_combat.choose_combat", 1)


def test_the_command_lines_own_process_freezes_its_collector_at_the_end(monkeypatch, capsys):
    """``main()`` as the console script calls it (no argv: the process ends with it) collects
    once and freezes what is left, so that the interpreter's shutdown walks nothing more
    (issue 61: 0.09 s of a verify's exit, 0.02 s so); ``main(argv)`` in process leaves the
    caller's collector as it was."""
    import gc

    before = gc.get_freeze_count()
    assert main(["odds", "break", "7"]) == 0
    assert gc.get_freeze_count() == before
    monkeypatch.setattr("sys.argv", ["regiment", "odds", "break", "7"])
    try:
        assert main() == 0
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()
    assert "7" in capsys.readouterr().out
