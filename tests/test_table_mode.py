"""Table mode (TABLE.*): the players measure, the engine asks. Every example battle that can be
played at a table is played twice, on geometry and in table mode with geometry's answers, and
must come out the same; bad measurements are refused with the rule that asked; answers are
events (undo, replay, verify); `play --table` and `serve --table` run it as users do."""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regiment.core.errors import BadRequest, IllegalCommand, InvalidScenario
from regiment.core.game import Game
from regiment.core.measure import read
from regiment.core.scenario import parse_scenario
from regiment.store import MemoryStore, open_store
from regiment.tools.html import page
from regiment.tools.verify import verify

from .conftest import EXAMPLES
from .tabletop import at_the_table, example, first_difference, lockstep, outcomes

# every fantasy example battle: charges, flank charges from hills, a multiple combat begun on
# the table, special attacks, characters joining, challenging, leaving and fighting alone
AT_THE_TABLE = ("ford_clash", "orcs_vs_empire", "chariot_and_giant", "knights_flank",
                "black_fire_ford", "mill_race", "the_captain", "vampire_duel", "border_patrol")


@pytest.mark.parametrize("preset", ["fantasy8", "fantasy-classic"])
@pytest.mark.parametrize("name", AT_THE_TABLE)
def test_table_ask_every_example_battle_comes_out_the_same_in_table_mode(name, preset):
    """The same commands, the same dice, and the measurements geometry gives: the same
    outcomes, event for event (where units stand aside), and the same winner."""
    played = lockstep(example(name, preset))
    known, measured = played.known, played.measured
    assert known.pending.kind == "over" and measured.pending.kind == "over"
    a, b = outcomes(known), outcomes(measured, played.extra)
    assert a == b, first_difference(a, b)
    assert measured.state.winner == known.state.winner
    rules = {rule for _, rule, _ in played.asked}
    if any(r.type == "ChargeRolled" and r.data["success"] for r in known.history):
        assert {"CH.CHARGE_MOVE", "CH.RANGE", "CC.WHO_FIGHTS"} <= rules   # a charge landed
    moves = {r.data["reason"]["code"] for r in known.history if r.type == "UnitMoved"}
    if moves & {"forward", "back", "sideways"}:   # MOVE.*: how much of its move was used
        assert {"MOVE.FORWARD", "MOVE.BACK"} & rules
    if "march" in moves:
        assert {"MOVE.MARCH"} <= rules
    if any(r.type == "ShotsFired" for r in known.history):   # SHOOT.*: arc, sight, range
        assert {"SHOOT.WHO"} <= rules
    # a table-mode game is a fair, checkable game like any other
    assert verify(measured.records).steps == len(measured.timeline.steps)
    again = Game.load(measured.game_id, measured.store)
    assert again.state.summary() == measured.state.summary()


@pytest.mark.parametrize("name", ["two_targets", "the_brood"])
def test_table_ask_every_skirmish_battle_comes_out_the_same_in_table_mode(name):
    """The skirmish preset: the squads' models have no positions; the players count the models
    in range and fighting, measure the charge, say whether there was room and terrain."""
    played = lockstep(example(name))
    known, measured = played.known, played.measured
    assert known.pending.kind == "over" and measured.pending.kind == "over"
    a, b = outcomes(known), outcomes(measured, played.extra)
    assert a == b, first_difference(a, b)
    rules = {rule for _, rule, _ in played.asked}
    assert {"SK.CHARGE_MOVE", "SK.ENGAGED"} <= rules and rules & {"SK.SHOOT", "SK.OVERWATCH"}
    assert verify(measured.records).steps == len(measured.timeline.steps)
    again = Game.load(measured.game_id, measured.store)
    assert again.state.summary() == measured.state.summary()


def test_table_ask_covers_every_question_the_rules_ask():
    """Across the example battles, table mode asks every kind of measurement it has."""
    kinds = set()
    for name in AT_THE_TABLE:
        kinds |= {q.split(":")[0] for q, _, _ in lockstep(example(name, "fantasy-classic")).asked}
    assert kinds >= {"distance", "side", "room", "models", "flee_edge", "flee_through",
                     "nearest", "pursue_edge", "pursue_into", "touches", "within", "down_hill",
                     "on_hill", "character", "leave", "reform"}


# --- a small table-mode battle, measured by hand ------------------------------------------

def raw_battle(dice: str = "scripted", script: tuple[int, ...] = ()) -> dict:
    """Boyz and Spearmen on the players' table: no positions."""
    unit = {"models": 20, "files": 5,
            "profile": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 4, "W": 1, "I": 2, "A": 1,
                        "Ld": 7}}
    return {"preset": "fantasy8", "first": "red", "dice": dice, "turns": 2,
            "script": list(script) or [4] * 400,
            "players": [{"id": "red"}, {"id": "blue"}],
            "table": {"measured": True},
            "units": [{"id": "boyz", "player": "red", **unit},
                      {"id": "spears", "player": "blue", **unit}]}


def battle(**kw) -> Game:
    return Game.new(parse_scenario(raw_battle(**kw)), store=MemoryStore())


def measure(game: Game, value) -> None:
    p = game.pending
    game.submit({"cmd": "measure", "by": p.player, "value": value})


def to_contact(game: Game) -> Game:
    """Boyz declare a charge on the spearmen's front, the spearmen hold, the boyz charge in:
    8" away, room to get there, 5 models a side in contact."""
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    measure(game, "front")
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    return game


def test_table_positions_a_battle_without_positions_needs_table_mode():
    raw = raw_battle()
    del raw["table"]
    with pytest.raises(InvalidScenario, match=r"units\[0\].position: missing.*table mode"):
        parse_scenario(raw)
    played = parse_scenario(raw, measured=True)   # what play --table does
    assert played["table"]["measured"] and played["units"][0]["position"] is None


def test_table_positions_are_dropped_and_what_needs_them_is_refused():
    from .conftest import small_scenario

    scenario = parse_scenario(small_scenario(), measured=True)
    assert all(u["position"] is None for u in scenario["units"])
    hills = copy.deepcopy(small_scenario())
    hills["table"] = {"hills": [[[0, 0], [5, 0], [5, 5]]]}
    assert parse_scenario(hills, measured=True)["table"]["hills_at_table"]
    from regiment.core.scenario import load_scenario

    brood = load_scenario(EXAMPLES / "the_brood.toml", measured=True)
    squads = {u["id"]: u for u in brood["units"]}
    assert all(u["models"] is None for u in squads.values())
    assert squads["gaunts"]["count"] == 10 and squads["guard"]["touching"] == ["gaunts"]


def test_table_ask_the_engine_asks_with_the_rule_and_the_answers_decide():
    game = battle()
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    p = game.pending
    assert (p.kind, p.measure, p.rule, p.player) == ("measurement", "side", "CH.CHARGE_MOVE",
                                                     "red")
    assert p.to_dict()["options"][:4] == ["front", "right", "rear", "left"]
    measure(game, "left")
    assert game.state.context.sides["boyz"] == "left"
    to_contact_rest(game)
    began = [r for r in game.history if r.type == "CombatBegan"]
    assert began and began[0].data["units"] == ["boyz", "spears"]
    touch = {r.data["unit"]: r.data for r in game.history if r.type == "ContactMeasured"}
    assert touch["spears"]["side"] == "left" and touch["spears"]["models"] == 4
    assert touch["boyz"]["side"] == "front" and touch["boyz"]["models"] == 5
    moves = [r.data for r in game.history if r.type == "UnitMoved"]
    assert moves and all(m["position"] is None for m in moves)   # no positions are made up


def to_contact_rest(game: Game) -> None:
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    assert game.pending.rule == "CH.RANGE"       # the dice first, then the tape
    measure(game, 8)
    assert game.pending.rule == "CH.CHARGE_MOVE" and game.pending.measure == "yes_no"
    measure(game, "yes")
    measure(game, 5)                             # boyz touching spears
    assert game.pending.to_dict()["most"] == 4   # the spearmen's left flank: 4 ranks
    measure(game, 4)


def to_remaining_moves(game: Game) -> Game:
    """The captain's battle at a table, to the empire's remaining moves of turn 1."""
    for _ in range(20):
        p = game.pending
        if getattr(p, "decision", "") == "remaining_moves":
            return game
        game.submit({"cmd": "end_charges" if "charge" in game.state.phase else "end_phase",
                     "by": "empire"})
    raise AssertionError(game.pending)


def test_char_join_at_the_table_is_measured_and_a_join_too_far_is_withdrawn():
    """CHAR.JOIN in table mode: the join is offered, then the distance is measured; beyond the
    character's Movement the join is withdrawn (the log keeps the measurement, the state is
    as before it), within it the character joins."""
    game = to_remaining_moves(Game.new(at_the_table(example("the_captain")),
                                       store=MemoryStore()))
    join = {"cmd": "join_unit", "by": "empire", "character": "captain", "unit": "spearmen"}
    before = game.state.summary()
    game.submit(join)
    assert (game.pending.rule, game.pending.measure) == ("CHAR.JOIN", "distance")
    measure(game, 7)                              # the captain's Movement is 4
    withdrawn = [r for r in game.history if r.type == "CommandWithdrawn"]
    assert withdrawn and withdrawn[-1].data["rule"] == "CHAR.JOIN"
    assert withdrawn[-1].data["why"] == {"code": "beyond_movement", "rule": "CHAR.JOIN",
                                         "unit": "spearmen", "distance": "7.0", "m": 4}
    assert game.state.summary() == before and game.state.units["captain"].joined is None
    game.submit(join)
    measure(game, 3)
    assert game.state.units["captain"].joined == "spearmen"
    assert verify(game.records).steps == len(game.timeline.steps)


@pytest.mark.parametrize("value, rule, why", [
    (-2, "CH.RANGE", "cannot be negative"),
    (500, "CH.RANGE", "farther than two points of this table"),
    ("far", "CH.RANGE", "a number of inches"),
])
def test_table_measure_a_distance_that_cannot_be_is_refused(value, rule, why):
    game = to_contact(battle())
    before = (game.version, game.state.summary())
    with pytest.raises(IllegalCommand, match=why) as err:
        measure(game, value)
    assert err.value.rule == rule
    assert (game.version, game.state.summary()) == before


def test_table_measure_more_models_in_contact_than_the_side_has_is_refused():
    game = to_contact(battle())
    measure(game, 8)
    measure(game, "yes")
    before = (game.version, game.state.summary())
    for wrong in (6, 0, "many"):   # the boyz' front rank is 5 models
        with pytest.raises(IllegalCommand) as err:
            measure(game, wrong)
        assert err.value.rule == "CC.WHO_FIGHTS"
        assert (game.version, game.state.summary()) == before
    measure(game, 5)
    with pytest.raises(IllegalCommand, match="1 to 5 models"):   # the spearmen's front
        measure(game, 7)


def test_table_measure_the_models_a_charger_counts_are_bounded_by_the_side_it_meets():
    """TABLE.MEASURE, CC.WHO_FIGHTS (0.13.0): five wolf riders (25 mm wide) on the left flank
    of swordsmen three ranks deep (60 mm): at most 4 of them touch it (those along its length,
    and one at a corner), not their whole frontage of 5."""
    raw = raw_battle()
    raw["units"][0].update({"models": 5, "files": 5, "base": [25, 50], "troop": "cavalry"})
    raw["units"][1].update({"models": 15, "files": 5, "base": [20, 20]})
    game = Game.new(parse_scenario(raw), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    measure(game, "left")
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    measure(game, 8)
    measure(game, "yes")
    assert game.pending.question == "models:boyz:spears" and game.pending.most == 4
    with pytest.raises(IllegalCommand, match="1 to 4 models"):
        measure(game, 5)
    measure(game, 4)
    assert game.pending.question == "models:spears:boyz" and game.pending.most == 3


def test_table_measure_a_side_or_an_answer_not_offered_is_refused_and_only_by_its_player():
    game = battle()
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    before = (game.version, game.state.summary())
    with pytest.raises(IllegalCommand, match="not one of") as err:
        measure(game, "underneath")
    assert err.value.rule == "CH.CHARGE_MOVE"
    with pytest.raises(IllegalCommand, match="red's to take"):
        game.submit({"cmd": "measure", "by": "blue", "value": "front"})
    with pytest.raises(IllegalCommand, match="waits for a measurement") as err:
        game.submit({"cmd": "end_charges", "by": "red"})
    assert err.value.rule == "CH.CHARGE_MOVE"
    assert (game.version, game.state.summary()) == before
    fresh = battle()
    with pytest.raises(IllegalCommand, match="no measurement is asked for") as err:
        measure_by(fresh, "red", 3)
    assert err.value.rule == "TABLE.MEASURE"


def measure_by(game: Game, player: str, value) -> None:
    game.submit({"cmd": "measure", "by": player, "value": value})


def test_table_ask_undo_then_redo_is_the_identity_and_a_new_answer_keeps_the_dice():
    game = to_contact(battle(script=(6, 5, *([4] * 400))))
    measure(game, 8)
    summary, version = game.state.summary(), game.version
    game.undo("red")
    assert game.pending.rule == "CH.RANGE"       # the measurement is asked again
    game.redo("red")
    assert game.state.summary() == summary
    game.undo("red")
    measure(game, 15.5)                          # too far for 6 + 5 + M 4
    rolled = [r.data for r in game.history if r.type == "ChargeRolled"]
    assert rolled[-1]["distance"] == 15.5 and not rolled[-1]["success"]
    faces = [r.data["faces"] for r in game.history if r.type == "DiceRolled"]
    assert faces[-1] == [6, 5]                   # the same dice: measuring never re-rolls
    assert game.version > version
    again = Game.load(game.game_id, game.store)
    assert again.state.summary() == game.state.summary()
    assert verify(game.records).steps == len(game.timeline.steps)


def test_table_ask_a_log_of_measurements_tells_them_and_the_page_draws_no_positions():
    game = to_contact(battle())
    to_contact_measured(game)
    from regiment.tools.replay import narrate

    text = "\n".join(narrate(game, game.records))
    assert "Measured at the table: Orc" not in text   # names as the scenario gave them
    assert "boyz and spears are 8\" apart" in text.replace("Boyz", "boyz").replace(
        "Spears", "spears")
    assert "(CH.RANGE, S3 p.27; TABLE.MEASURE)" in text
    html = page(game.records)
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>',
                                html, re.S).group(1))
    assert data["measured"] is True
    assert all(f["units"] == [] and f["roster"] for f in data["frames"])


def to_contact_measured(game: Game) -> None:
    measure(game, 8)
    measure(game, "yes")
    measure(game, 5)
    measure(game, 5)


def test_table_ask_served_over_json_lines():
    """`regiment serve --table`: the measurement pends like a roll, and is answered with
    {"cmd": "measure"}; a bad one is an error line naming the rule."""
    proc = subprocess.Popen([sys.executable, "-m", "regiment.tools.cli", "serve",
                             str(EXAMPLES / "ford_clash.toml"), "--table", "--store",
                             ":memory:"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)

    def send(obj: dict) -> dict:
        proc.stdin.write(json.dumps(obj) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    try:
        hello = json.loads(proc.stdout.readline())
        started = hello["events"][0]["data"]["scenario"]
        assert started["table"]["measured"] and started["units"][0]["position"] is None
        asked = send({"cmd": "declare_charge", "by": "red", "unit": "boyz",
                      "target": "spears"})["pending"]
        assert asked["kind"] == "measurement" and asked["rule"] == "CH.CHARGE_MOVE"
        assert asked["question"] == "side:boyz:spears" and "front/left" in asked["options"]
        wrong = send({"cmd": "measure", "by": "red", "value": "sideways"})
        assert wrong["error"]["rule"] == "CH.CHARGE_MOVE"
        done = send({"cmd": "measure", "by": "red", "value": "front"})
        assert [e["type"] for e in done["events"]][:3] == ["CommandIssued", "Measured",
                                                           "ChargeDeclared"]
        assert done["pending"]["decision"] == "react"
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0


def test_table_ask_a_game_at_the_table_stores_and_loads_on_sqlite(tmp_path):
    store = open_store(tmp_path / "t.db")
    game = Game.new(at_the_table(example("ford_clash")), store=store)
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    measure(game, "front/left")
    assert game.pending.kind == "roll" or game.pending.kind == "decision"
    again = Game.load(game.game_id, open_store(tmp_path / "t.db"))
    assert again.state.summary() == game.state.summary()


def answer(question: str) -> str:
    """What a table answers to a measurement, as the players would type it: the first option,
    room to move, no table edge, one model in contact, 5 inches."""
    if re.search(r"^\s+1\. ", question, re.M):
        return "1"
    question = " ".join(question.split())   # as the terminal wrapped it
    if "(yes or no)" in question or "(да или нет)" in question:
        return "yes" if re.search(r"room|места", question) else "no"
    if re.search(r": (1 to|от 1 до) ", question):
        return "1"
    most = re.search(r": (?:0 to|от 0 до) ([\d.]+)", question)
    return format(min(5.0, float(most.group(1))) if most else 5.0, "g")


@pytest.mark.parametrize("lang, words", [
    ("en", {"measure": "measure at the table:", "roll": r"Roll (\d+)D6[^\n]*: $",
            "over": r"The game is over: ([^\n]*)\.", "told": "Measured at the table:"}),
    ("ru", {"measure": "измерение на столе:", "roll": r"Бросьте (\d+)D6[^\n]*: $",
            "over": r"Игра окончена: ([^\n]*)\.", "told": "Измерено на столе:"}),
])
@pytest.mark.parametrize("battle", ["ford_clash", "two_targets"])
def test_table_ask_a_battle_plays_to_its_end_at_the_table_with_real_dice(lang, words, battle,
                                                                         tmp_path):
    """`regiment play --table --dice manual` from start to end, in English and in Russian, a
    fantasy battle and a skirmish: real dice typed at each roll, measurements typed where the
    rules ask."""
    from .test_play import Terminal

    db = tmp_path / "table.db"
    term = Terminal("--lang", lang, "play", battle, "--table", "--dice", "manual",
                    "--store", str(db))
    prompt = re.compile(words["roll"] + r"|(\w+)(?: \(Enter: 1\))?> $|" + words["over"])
    over, measured = None, 0
    for _ in range(3000):
        start = term.mark
        m = term.expect(prompt.pattern, timeout=30)
        if m.group(3) is not None:
            over = m.group(3)
            term.expect(r"> $")
            break
        shown = term.seen[start:m.start()]
        if m.group(1):
            term.type(" ".join(["4"] * int(m.group(1))))
        elif words["measure"] in shown:
            measured += 1
            term.type(answer(shown[shown.rindex(words["measure"]):]))
        else:
            term.type("1")
    term.type("quit")
    assert term.close() == 0
    assert over is not None, f"the battle did not end:\n{term.seen[-3000:]}"
    assert measured >= 3
    assert words["told"] in term.seen and "Traceback" not in term.seen
    game = open_store(db).games()[-1]
    records = list(open_store(db).read(game))
    assert verify(records).steps >= measured
    assert any(r.type == "Measured" for r in records)


SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
BAD = st.one_of(st.floats(-1e6, -0.01), st.floats(1000, 1e9), st.text(max_size=8),
                st.integers(-5, 0), st.integers(40, 500), st.just("sideways"))


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 150), bad=st.lists(BAD, max_size=4),
       preset=st.sampled_from(["fantasy8", "fantasy-classic"]))
def test_table_ask_random_measurements_replay_verify_and_refusals_change_nothing(
        tmp_path_factory, seed, steps, bad, preset):
    """Any measurements the players may give, any legal choices, undo and redo mixed in: the
    log replays to the same state and verifies, and a measurement that cannot be is refused
    without a trace."""
    from .conftest import random_play

    raw = example("ford_clash", preset)
    raw["dice"] = "manual"
    store = open_store(tmp_path_factory.mktemp("t") / "g.db")
    game = Game.new(at_the_table(raw), store=store)
    rng = random.Random(seed)
    random_play(game, rng, steps)
    for _ in range(200):   # on to the next measurement, if the game asks one again
        if game.pending.kind in ("measurement", "over"):
            break
        random_play(game, rng, 1, undo_rate=0)
    if game.pending.kind == "measurement":
        before = (game.version, game.state.summary(), len(list(store.read(game.game_id))))
        question = game.state.asking.question
        for value in bad:
            try:
                read(question, value)
                continue   # it can be (0": units in contact; "" : no units)
            except ValueError:
                pass
            with pytest.raises((IllegalCommand, BadRequest)):   # (beyond any table: BadRequest)
                measure(game, value)
            assert (game.version, game.state.summary(),
                    len(list(store.read(game.game_id)))) == before
    again = Game.load(game.game_id, store)
    assert again.state.summary() == game.state.summary()
    assert again.pending == game.pending
    assert verify(game.records).records == game.version


def test_table_ask_a_record_of_a_game_at_the_table_plays_again_to_the_same_log():
    """A table-mode game mailed as a record: importing it plays its commands again, the
    measurements with them, and gives the same log."""
    from regiment.tools.record import export_record, import_record

    game = to_contact(battle())
    to_contact_measured(game)
    again = import_record(export_record(game.records), MemoryStore())
    assert [r.hash for r in again.records] == [r.hash for r in game.records]


def test_table_measure_a_withdrawal_is_kept_in_english_and_told_in_russian():
    from regiment.core.i18n import language

    game = to_remaining_moves(Game.new(at_the_table(example("the_captain")),
                                       store=MemoryStore()))
    with language("ru"):
        game.submit({"cmd": "join_unit", "by": "empire", "character": "captain",
                     "unit": "spearmen"})
        measure(game, 7)
        record = next(r for r in game.history if r.type == "CommandWithdrawn")
        told = game.preset.sentence(record.type, record.data, game.state)
    assert record.data["why"]["code"] == "beyond_movement"   # a code, whatever the language
    assert "отменено" in told and "дальше его Движения (4\")" in told, told


def test_table_positions_the_bots_do_not_simulate_a_battle_at_the_table(tmp_path):
    """`regiment simulate` of a table-mode scenario: a clear refusal, exit 2, no traceback."""
    text = (EXAMPLES / "ford_clash.toml").read_text(encoding="utf-8")
    path = tmp_path / "at_table.toml"
    path.write_text(text.replace("[table]\n", "[table]\nmeasured = true\n"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "simulate", str(path),
                           "-n", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "table-mode battle" in done.stderr and "Traceback" not in done.stderr


def test_table_ask_the_replay_page_of_a_game_at_the_table_in_chromium(tmp_path):
    """`regiment replay --html` of a table-mode game, in a real browser: no table drawn (there
    are no positions), the roster of each step instead, and the measurements in the log."""
    from selenium.webdriver.common.by import By

    from regiment.tools.cli import main

    from .test_html import browser

    db = tmp_path / "table.db"
    game = Game.new(parse_scenario(raw_battle()), store=open_store(db))
    to_contact_measured(to_contact(game))
    out = tmp_path / "replay.html"
    assert main(["replay", str(db), "--html", str(out)]) == 0
    driver = browser()
    try:
        driver.get(out.as_uri())
        assert not driver.find_element(By.ID, "table").is_displayed()
        assert "table mode" in driver.find_element(By.ID, "legend").text
        assert "boyz" in driver.find_element(By.ID, "roster").text
        heads = driver.find_elements(By.CSS_SELECTOR, "#roster th")   # issue 26
        assert [h.text for h in heads] == ["unit", "player", "models", "ranks", "status",
                                           "combat"]
        for _ in range(len(game.timeline.steps)):
            driver.find_element(By.ID, "next").click()
        text = driver.find_element(By.TAG_NAME, "body").text
        assert "Measured at the table:" in text and "TABLE.MEASURE" in text
        assert "Verified" in driver.find_element(By.ID, "verdict").text
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()


def test_table_measure_a_hostile_answer_is_refused_briefly_and_changes_nothing():
    game = to_contact(battle())
    before = (game.version, game.state.summary())
    for value in ("9" * 100_000, ["a"] * 3, True, float("nan"), float("inf"), {"x": 1}):
        with pytest.raises((IllegalCommand, BadRequest)) as err:
            measure(game, value)
        assert len(str(err.value)) < 300
        assert (game.version, game.state.summary()) == before


def test_table_ask_explain_and_undo_at_the_table_from_the_command_line(tmp_path):
    """`play --table`: after a measurement, `explain` tells it with the rules' own words, and
    `undo` takes it back so that the same question is asked again."""
    from .test_play import Terminal

    term = Terminal("play", "ford_clash", "--table", "--store", str(tmp_path / "t.db"))
    term.expect(r"red> $")
    term.type("1")                       # Orc Boyz declare a charge on the Empire Spearmen
    term.expect(r"measure at the table: Which side of Empire Spearmen")
    term.expect(r"red> $")
    term.type("4")                       # its left flank
    term.expect(r"Measured at the table: Orc Boyz meets Empire Spearmen in its left")
    term.expect(r"blue> $")
    term.type("explain")
    term.expect(r"TABLE\.MEASURE: A measurement is taken by the player asked")
    term.expect(r"blue> $")
    term.type("undo")
    term.expect(r"measure at the table: Which side of Empire Spearmen")
    term.expect(r"red> $")
    term.type("quit")
    assert term.close() == 0
    assert "Traceback" not in term.seen


def test_table_ask_a_pursuer_that_reaches_the_edge_leaves_and_comes_back_with_no_place_made_up():
    """FP.OFF_TABLE at the table: the players say the pursuit reaches the edge; the unit
    leaves the table with no point recorded, and comes back in a later turn where the
    players put it; the game reloads and verifies."""
    def answer(p):
        kind = p.question.split(":")[0]
        if p.measure == "distance":
            return 3
        if p.measure == "yes_no":
            return "yes" if kind in ("pursue_edge", "room") else "no"
        if p.measure in ("count", "number"):
            return int(p.most)
        if p.measure == "unit":
            return "none" if "none" in p.options else p.options[0]
        return [] if p.measure == "units" else "front"

    raw = example("ford_clash")
    raw["seed"] = "2"
    game = Game.new(at_the_table(raw), store=MemoryStore())
    rng = random.Random(1)
    while game.pending.kind != "over":
        p = game.pending
        if p.kind == "measurement":
            measure(game, answer(p))
            continue
        pursue = [c for c in p.legal if c.name == "pursue"]
        game.submit(pursue[0] if pursue else rng.choice(p.legal))
    left = [r.data for r in game.history if r.type == "UnitLeftTable"]
    back = [r.data for r in game.history if r.type == "UnitReturned"]
    assert left and back and {d["unit"] for d in back} <= {d["unit"] for d in left}
    assert all(d["point"] is None for d in left) and all(d["position"] is None for d in back)
    assert verify(game.records).steps == len(game.timeline.steps)
    assert Game.load(game.game_id, game.store).state.summary() == game.state.summary()


def test_table_positions_a_skirmish_battle_lists_its_squads_by_count():
    """A skirmish battle written for a table: each squad by how many models it has, the
    squads that begin locked by ``touching``; it plays, and refuses a count that cannot be."""
    squad = {"base": 25, "profile": {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
                                     "Ld": 8, "Sv": 3},
             "weapons": [{"name": "bolter", "S": 4, "range": 24, "shots": 1}]}
    raw = {"preset": "skirmish40k", "first": "red", "dice": "scripted", "script": [4] * 500,
           "turns": 1, "players": [{"id": "red"}, {"id": "blue"}],
           "table": {"measured": True},
           "units": [{"id": "a", "player": "red", "count": 5, **squad},
                     {"id": "b", "player": "blue", "count": 4, "touching": ["a"], **squad}]}
    game = Game.new(parse_scenario(raw), store=MemoryStore())
    assert game.state.melees and set(next(iter(game.state.melees.values())).units) == {"a", "b"}
    assert len(game.state.squads["a"].models) == 5
    raw["units"][0]["count"] = 0
    with pytest.raises(InvalidScenario, match=r"units\[0\].count"):
        parse_scenario(raw)


def test_table_measure_a_yes_no_takes_json_true_and_false_and_nothing_else_takes_a_bool():
    """TABLE.MEASURE: a program answers yes or no with JSON's own ``true``/``false`` as well as
    the words; a distance or a count never reads a bool as 1 or 0."""
    from regiment.core.commands import parse_command
    from regiment.core.measure import Question

    def question(kind: str) -> Question:
        return Question.make(key=f"{kind}:a", kind=kind, rule="TABLE.MEASURE", player="p",
                             unit="a", most=10.0)

    command = parse_command(json.loads('{"cmd": "measure", "by": "p", "value": true}'))
    assert read(question("yes_no"), command.value) == "yes"
    assert read(question("yes_no"), False) == "no" and read(question("yes_no"), "да") == "yes"
    for kind in ("distance", "count", "number"):
        with pytest.raises(ValueError):
            read(question(kind), True)


@pytest.mark.parametrize("battle", ["ford_clash", "the_brood"])
def test_table_ask_the_bundled_bot_plays_a_whole_battle_at_a_table(battle):
    """TABLE.ASK: the bot asks nothing of positions a table has not got (``play --table
    --bot``, the play page's table): it chose by gaps between models it could not place, and
    crashed, in both rulebooks. The players' answers here: 3", the most models, no, no unit."""
    from regiment.bot import choose
    from regiment.core.commands import Measure

    game = Game.new(at_the_table(example(battle)), store=MemoryStore())
    for _ in range(3000):
        p = game.pending
        if p.kind == "over":
            break
        if p.kind == "measurement":
            value: object = {"distance": 3, "count": int(p.most), "number": int(p.most),
                             "yes_no": "no", "units": []}.get(p.measure)
            if value is None:
                value = "none" if "none" in p.options else p.options[0]
            game.submit(Measure(by=p.player, value=value))
        else:
            game.submit(choose(game))
    assert game.state.over
