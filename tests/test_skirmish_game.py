"""The skirmish preset played as a game (SK.TURN, SK.SHOOT and seed 004's situations): real
games through ``Game``, the dice entered by hand so that every outcome is chosen."""

from __future__ import annotations

import math
from typing import Any

import pytest

from regiment.core import geometry as geo
from regiment.core.commands import EndPhase
from regiment.core.dice import ManualDice
from regiment.core.errors import IllegalCommand
from regiment.core.events import GameStarted
from regiment.core.game import Game
from regiment.core.i18n import language
from regiment.core.scenario import load_scenario, parse_scenario
from regiment.phases.skirmish.assault import charge_moves
from regiment.phases.skirmish.fight.steps import attacks_per_model
from regiment.phases.skirmish.models import in_base_contact, take_wounds
from regiment.phases.skirmish.state import skirmish
from regiment.phases.skirmish.victory import kill_points
from regiment.store import MemoryStore
from regiment.tools.bot import choose
from regiment.tools.replay import narrate
from regiment.tools.verify import verify

from .conftest import EXAMPLES

R = 25 / 25.4 / 2          # a 25 mm base's radius, inches
TOUCH = 2 * R              # centre to centre, two 25 mm bases in contact
STEP = TOUCH + 0.5         # models in a row half an inch apart


def row(x: float, y: float, n: int) -> list[list[float]]:
    return [[x + i * STEP, y] for i in range(n)]


def sq(uid: str, player: str, catalogue: str, models: list[list[float]], **extra: Any
       ) -> dict[str, Any]:
    return {"id": uid, "player": player, "catalogue": catalogue, "models": models, **extra}


def new(units: list[dict[str, Any]], phase: str = "assault", turns: int = 2,
        manual: bool = True, engine: str | None = None, **table: Any) -> Game:
    """A game; ``engine``: as that earlier engine began it (LOG.RULINGS)."""
    scenario = parse_scenario({"preset": "skirmish40k", "first": "red", "turns": turns,
                               "phase": phase, "seed": "5c", "table": {"width": 48,
                                                                         "depth": 48, **table},
                               "players": [{"id": "red"}, {"id": "blue"}], "units": units})
    dice = ManualDice() if manual else None
    if engine is None:
        return Game.new(scenario, store=MemoryStore(), dice=dice)
    assert dice is not None
    started = GameStarted(game_id="old", scenario=scenario, preset=scenario["preset"],
                          engine_version=engine, dice_commitment=dice.commitment(),
                          dice=dice.kind, undo="free")
    return Game.new(scenario, store=MemoryStore(), dice=dice, started=started)


def roll(game: Game, *faces: int) -> None:
    pending = game.pending
    assert pending.kind == "roll", pending
    game.submit({"cmd": "roll", "by": pending.player, "faces": list(faces)})


def send(game: Game, **cmd: Any) -> None:
    game.submit({"by": game.pending.player, **cmd})  # type: ignore[attr-defined]


def events(game: Game, kind: str) -> list[dict[str, Any]]:
    return [r.data for r in game.records if r.type == kind]


# --- SK.TURN -------------------------------------------------------------------------------------


def test_sk_turn_shooting_then_assaults_then_the_fight_then_the_other_player():
    game = new([sq("tac", "red", "tactical_marines", row(10, 5, 3)),
                sq("guard", "blue", "guardsmen", row(10, 43, 3))], phase="shooting", turns=1)
    seen = []
    while game.pending.kind != "over":
        pending = game.pending
        seen.append((game.state.player, game.state.phase.removeprefix("turn."),
                     pending.decision))  # type: ignore[attr-defined]
        game.submit(EndPhase(by=pending.player))  # type: ignore[attr-defined]
    assert seen == [("red", "shooting", "shoot"),
                    ("red", "assault.declaration", "declare_assault"),
                    ("red", "fight.choose_combat", "resolve_combat"),
                    ("blue", "movement", "move"),          # SK.MOVE: from engine 0.12.0
                    ("blue", "shooting", "shoot"),
                    ("blue", "assault.declaration", "declare_assault"),
                    ("blue", "fight.choose_combat", "resolve_combat")]
    assert events(game, "GameEnded") == [{"winner": None, "ending": {
        "code": "points", "turns": 1, "rule": "SK.VICTORY", "points": {"red": 0, "blue": 0}}}]


def test_sk_turn_a_combat_left_with_both_sides_stays_locked_and_is_fought_next_turn():
    """The brood (examples/the_brood.toml): the carnifex joins a fight the hormagaunts have
    been in since before the game; the guardsmen hold, and the fight goes on in blue's turn."""
    scenario = load_scenario(EXAMPLES / "the_brood.toml")
    game = Game.new(scenario, store=MemoryStore())
    while game.pending.kind != "over":
        game.submit(choose(game))
    ended = [r for r in game.records if r.type == "FightEnded"]
    assert ended[0].data["locked"] == ["carnifex", "guard", "gaunts"]
    later = [r for r in game.records if r.type == "FightBegan" and r.seq > ended[0].seq]
    assert later[0].data["combat"] == ended[0].data["combat"]
    turn = [r for r in game.records if r.type == "TurnBegan" and r.seq < later[0].seq][-1]
    assert turn.data["player"] == "blue"
    assert verify(game.records).steps == len(game.timeline.steps)


def test_sk_turn_the_game_ends_when_a_side_has_no_squad_left():
    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 1)),
                sq("guard", "blue", "guardsmen", row(10, 30, 1))], phase="shooting")
    send(game, cmd="shoot", unit="tac", target="guard")
    roll(game, 6)
    roll(game, 6)      # S4 against T3 wounds on 3+; AP5 denies the guardsman's 5+ save
    send(game, cmd="end_phase")
    send(game, cmd="end_phase")
    send(game, cmd="end_phase")
    assert game.pending.kind == "over" and game.state.winner == "red"


# --- SK.VICTORY ----------------------------------------------------------------------------------


def played_out() -> Game:
    """One turn each, in which red's marine shoots down one of blue's two guardsmen squads."""
    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 1)),
                sq("guard", "blue", "guardsmen", row(10, 30, 1)),
                sq("vets", "blue", "guardsmen", row(40, 44, 2))], phase="shooting", turns=1)
    send(game, cmd="shoot", unit="tac", target="guard")
    roll(game, 6)
    roll(game, 6)      # S4 against T3 wounds on 3+; AP5 denies the guardsman's 5+ save
    while game.pending.kind != "over":
        send(game, cmd="end_phase")
    return game


def test_sk_victory_a_game_played_out_is_won_by_kill_points():
    game = played_out()
    assert game.state.squads["guard"].status == "destroyed"
    assert events(game, "GameEnded") == [{"winner": "red", "ending": {
        "code": "points", "turns": 1, "rule": "SK.VICTORY", "points": {"red": 1, "blue": 0},
        "scored": [{"player": "red", "unit": "guard", "points": 1, "why": "destroyed"}]}}]
    told = [line for line in narrate(game, game.records) if "ends" in line][-1]
    assert "1 game turn played; kill points: red 1, blue 0" in told
    assert "Scored: red: Guardsmen 1 (destroyed); blue: nothing (SK.VICTORY [G])." in told
    assert "red wins, with more points (SK.VICTORY)" in told
    with language("ru"):
        told = [line for line in narrate(game, game.records) if "окончена" in line][-1]
    assert "очки за уничтоженные отряды: red 1, blue 0" in told and "(SK.VICTORY)" in told
    assert verify(game.records).steps == len(game.timeline.steps)


@pytest.mark.parametrize("status", ["falling_back", "off_table", "destroyed", "locked",
                                    "ready"])
def test_sk_victory_a_squad_scores_destroyed_falling_back_or_fled_off_the_table(status):
    state = played_out().state
    squads = {**state.squads, "vets": state.squads["vets"].evolve(status=status)}
    points = kill_points(state.evolve(squads=squads))
    assert points == {"red": 1 + (status in ("falling_back", "off_table", "destroyed")),
                      "blue": 0}


def test_sk_victory_equal_kill_points_are_a_draw():
    game = new([sq("tac", "red", "tactical_marines", row(10, 5, 3)),
                sq("guard", "blue", "guardsmen", row(10, 43, 3))], phase="shooting", turns=1)
    while game.pending.kind != "over":
        send(game, cmd="end_phase")
    assert game.state.winner is None
    told = [line for line in narrate(game, game.records) if "ends" in line][-1]
    assert "No side wins: the points are equal (SK.VICTORY)." in told


def test_sk_victory_not_in_a_game_begun_before_0_11_0():
    """LOG.RULINGS: a game begun under 0.10.0 ends as 0.10.0 ended it, whoever scored."""
    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 1)),
                sq("guard", "blue", "guardsmen", row(10, 30, 1)),
                sq("vets", "blue", "guardsmen", row(40, 44, 2))], phase="shooting", turns=1,
               engine="0.10.0")
    send(game, cmd="shoot", unit="tac", target="guard")
    roll(game, 6)
    roll(game, 6)
    while game.pending.kind != "over":
        send(game, cmd="end_phase")
    assert events(game, "GameEnded") == [{"winner": None,
                                          "ending": {"code": "turns_played", "turns": 1}}]


# --- SK.SHOOT -------------------------------------------------------------------------------------


def test_sk_shoot_each_model_in_range_fires_hitting_on_seven_less_its_bs():
    # the bolters reach 24": of five marines in a row only the two nearest are in range
    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 5)),
                sq("guard", "blue", "guardsmen", [[38, 10]])], phase="shooting")
    assert [c.to_dict()["target"] for c in game.legal()
            if c.name == "shoot"] == ["guard"]   # type: ignore[attr-defined]
    send(game, cmd="shoot", unit="tac", target="guard")
    assert events(game, "SquadShot")[0] == {"unit": "tac", "target": "guard", "shots": 2,
                                            "need": 3}
    roll(game, 3, 2)                     # BS4: 3+ hits
    roll(game, 3)                        # S4 against T3: 3+
    taken = events(game, "WoundsTaken")  # AP5 against a 5+ save: none
    assert taken == [{"unit": "guard", "by": "tac", "wounds": 1, "removed": [0], "left": [],
                      "lost": 0}]
    assert skirmish(game.state).squads["guard"].status == "destroyed"


def test_sk_shoot_once_a_turn_at_a_squad_not_locked_the_nearest_falling_first():
    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 2)),
                sq("guard", "blue", "guardsmen", row(10, 20, 3)),
                sq("a", "red", "assault_marines", [[40, 40]]),
                sq("b", "blue", "guardsmen", [[40, 40 + TOUCH]])], phase="shooting")
    shots = [c.to_dict() for c in game.legal() if c.name == "shoot"]
    assert {(s["unit"], s["target"]) for s in shots} == {("tac", "guard")}   # b is locked
    send(game, cmd="shoot", unit="tac", target="guard")
    roll(game, 6, 6, 1, 1)   # bolters within half range, the squad unmoved: two shots each
    roll(game, 6, 1)
    # the one wound takes the guardsman nearest the marines: the first of the row
    assert events(game, "WoundsTaken")[0]["removed"] == [0]
    assert not [c for c in game.legal() if c.name == "shoot"]


def test_sk_shoot_only_at_a_squad_one_of_its_models_can_see():
    """SK.SHOOT (0.13.0): a wall between every marine and every guardsman hides the squad:
    it is not offered and a shot at it is refused; the squad beside the wall is offered."""
    wall = [[[5, 14], [30, 14], [30, 15], [5, 15]]]
    units = [sq("tac", "red", "tactical_marines", row(10, 10, 3)),
             sq("guard", "blue", "guardsmen", row(10, 20, 3)),
             sq("open", "blue", "guardsmen", [[34, 12]])]
    game = new(units, phase="shooting", blocking=wall)
    assert {c.to_dict()["target"] for c in game.legal()
            if c.name == "shoot"} == {"open"}   # type: ignore[attr-defined]
    with pytest.raises(IllegalCommand) as err:
        send(game, cmd="shoot", unit="tac", target="guard")
    assert err.value.rule == "SK.SHOOT"
    old = new(units, phase="shooting", engine="0.12.0", blocking=wall)
    assert {c.to_dict()["target"] for c in old.legal()
            if c.name == "shoot"} == {"open", "guard"}   # type: ignore[attr-defined]


# --- SK.DECLARE, SK.OVERWATCH, SK.CHARGE_MOVE -----------------------------------------------


def two_targets(**table: Any) -> Game:
    """Four assault marines 4" from two squads of guardsmen side by side."""
    return new([sq("ass", "red", "assault_marines", row(20, 10, 4)),
                sq("a", "blue", "guardsmen", row(17, 15, 3)),
                sq("b", "blue", "guardsmen", row(23, 15, 3))], **table)


def test_sk_declare_a_squad_that_shot_may_only_charge_its_shooting_target():
    game = two_targets(phase="shooting")
    send(game, cmd="shoot", unit="ass", target="b")
    roll(game, 1, 1, 1, 1)
    send(game, cmd="end_phase")
    charges = {(c.primary, c.secondary) for c in game.legal()   # type: ignore[attr-defined]
               if c.name == "declare_assault"}
    assert charges == {("b", ""), ("b", "a")}
    with pytest.raises(IllegalCommand, match="shot at b this turn"):
        send(game, cmd="declare_assault", unit="ass", primary="a")


def test_sk_declare_a_disordered_charge_has_no_bonus_attack_even_without_the_second_target():
    game = two_targets()
    send(game, cmd="declare_assault", unit="ass", primary="a", secondary="b")
    assert events(game, "AssaultDeclared")[0]["disordered"]
    send(game, cmd="hold_overwatch", unit="a")
    send(game, cmd="hold_overwatch", unit="b")
    roll(game, 6, 6)
    squad = skirmish(game.state).squads["ass"]
    assert squad.charged and squad.disordered and attacks_per_model(squad) == 2   # A2, no +1
    single = two_targets()
    send(single, cmd="declare_assault", unit="ass", primary="a")
    send(single, cmd="hold_overwatch", unit="a")
    roll(single, 6, 6)
    assert attacks_per_model(skirmish(single.state).squads["ass"]) == 3


def test_sk_overwatch_both_targets_in_the_order_their_owner_picks_once_an_assault_phase():
    game = new([sq("ass", "red", "assault_marines", row(20, 10, 2)),
                sq("ass2", "red", "assault_marines", row(30, 10, 2)),
                sq("a", "blue", "guardsmen", row(17, 15, 3)),
                sq("b", "blue", "guardsmen", row(26, 15, 3))])
    send(game, cmd="declare_assault", unit="ass", primary="a", secondary="b")
    pending = game.pending
    assert pending.player == "blue" and pending.decision == "overwatch"   # type: ignore[attr-defined]
    assert {(c.name, c.unit) for c in pending.legal} == {   # type: ignore[attr-defined]
        ("fire_overwatch", "a"), ("hold_overwatch", "a"), ("fire_overwatch", "b"),
        ("hold_overwatch", "b")}
    send(game, cmd="fire_overwatch", unit="b")          # blue picks b first
    assert events(game, "VolleyBegan")[0]["need"] == 6
    roll(game, 5, 5, 5)                                   # snap shots: only 6s hit
    send(game, cmd="fire_overwatch", unit="a")
    roll(game, 6, 1, 1)
    roll(game, 1)
    roll(game, 1, 1)                                      # the charge falls short
    fired = [e["unit"] for e in events(game, "OverwatchChosen") if e["fire"]]
    assert fired == ["b", "a"]
    send(game, cmd="declare_assault", unit="ass2", primary="b")
    assert events(game, "AssaultDeclared")[1]["overwatch"] == []   # b has fired this phase


def test_sk_charge_move_a_first_model_short_of_the_target_moves_no_model():
    game = two_targets()
    before = skirmish(game.state).squads["ass"].models
    send(game, cmd="declare_assault", unit="ass", primary="a")
    send(game, cmd="hold_overwatch", unit="a")
    roll(game, 1, 2)                 # 3" for a gap of 4" less the bases
    rolled = events(game, "AssaultRolled")[0]
    assert not rolled["reached"] and rolled["gap"] > 3
    assert skirmish(game.state).squads["ass"].models == before
    assert not skirmish(game.state).melees


def test_sk_charge_move_the_squad_goes_in_touching_and_in_coherency():
    game = two_targets()
    send(game, cmd="declare_assault", unit="ass", primary="a", secondary="b")
    send(game, cmd="hold_overwatch", unit="a")
    send(game, cmd="hold_overwatch", unit="b")
    roll(game, 4, 4)
    s = skirmish(game.state)
    models = list(s.squads["ass"].models)
    assert geo.chained(models, 2.0)
    enemy = [*s.squads["a"].models, *s.squads["b"].models]
    assert all(in_base_contact(m, enemy) for m in models)
    assert not any(geo.circles_overlap(m, o) for i, m in enumerate(models)
                   for o in [*models[i + 1:], *enemy])
    assert s.melee_of("ass").units == ("ass", "a", "b")   # type: ignore[union-attr]


def test_sk_charge_move_the_secondary_target_only_when_no_free_primary_model_is_in_reach():
    chargers = [(10.0, 10.0, R), (10.0 + STEP, 10.0, R), (10.0 + 2 * STEP, 10.0, R)]
    # the primary target has one model; the secondary two, as near
    primary = [(10.0, 13.0, R)]
    secondary = [(13.0, 13.0, R), (13.0 + STEP, 13.0, R)]
    moved = charge_moves(chargers, primary, secondary, [*primary, *secondary], [], 6.0)
    assert moved is not None
    touching_primary = [m for m in moved if in_base_contact(m, primary)]
    touching_secondary = [m for m in moved if in_base_contact(m, secondary)]
    assert len(touching_primary) == 1 and len(touching_secondary) == 2
    # a primary target with free models in reach takes every model, the secondary none
    wide = [(8.0 + i * STEP, 13.0, R) for i in range(5)]
    moved = charge_moves(chargers, wide, secondary[1:], [*wide, *secondary[1:]], [], 6.0)
    assert moved is not None and all(in_base_contact(m, wide) for m in moved)
    assert not any(in_base_contact(m, secondary[1:]) for m in moved)


# --- SK.ALLOCATE, SK.RESULT, SK.SWEEP, SK.CONSOLIDATE ---------------------------------------


def surrounded(*others: str) -> Game:
    """One assault marine touching a guardsman of each of ``others`` (north, south, east),
    locked since before the game; the fight is red's to begin."""
    spots = {"north": [20, 20 + TOUCH], "south": [20, 20 - TOUCH], "east": [20 + TOUCH, 20]}
    return new([sq("ass", "red", "assault_marines", [[20, 20]]),
                *(sq(o, "blue", "guardsmen", [spots[o]]) for o in others)], phase="fight")


def test_sk_allocate_a_model_touching_two_squads_splits_before_rolling_and_nothing_carries():
    game = surrounded("north", "south", "east")
    send(game, cmd="resolve_combat", combat="0-ass")
    pending = game.pending
    assert pending.decision == "split_attacks" and pending.player == "red"  # type: ignore[attr-defined]
    assert len(pending.legal) == 6      # type: ignore[attr-defined]  # 2 attacks among 3 squads
    send(game, cmd="split_attacks", unit="ass", split={"north": 2, "south": 0, "east": 0})
    roll(game, 3, 3)                     # WS4 against WS3: 3+
    roll(game, 3, 3)                     # S4 against T3: 3+
    roll(game, 1, 1)                     # 5+ saves, both failed
    taken = events(game, "WoundsTaken")[0]
    assert taken["wounds"] == 2 and taken["removed"] == [0] and taken["lost"] == 1
    assert skirmish(game.state).squads["south"].wounds == (1,)   # not carried over


def test_sk_result_sweep_a_winner_still_fighting_an_unbroken_squad_may_not_sweep():
    game = surrounded("north", "south", "east")
    send(game, cmd="resolve_combat", combat="0-ass")
    send(game, cmd="split_attacks", unit="ass", split={"north": 2, "south": 0, "east": 0})
    roll(game, 3, 3)
    roll(game, 3, 3)
    roll(game, 1, 1)
    roll(game, 1)                        # south strikes back and misses
    roll(game, 1)                        # so does east
    result = events(game, "MeleeResult")[0]
    # one wound lost on the dead guardsman does not count (SK.ALLOCATE)
    assert result["totals"] == {"red": 1, "blue": 0} and result["penalty"] == 1
    assert sorted(result["losers"]) == ["east", "south"]
    for _ in range(2):                   # south fails at Ld 7 - 1, east passes
        roll(game, *((6, 6) if game.pending.unit == "south" else (1, 1)))  # type: ignore[attr-defined]
    tests = sorted(events(game, "MoraleTested"), key=lambda t: t["unit"])
    assert [(t["unit"], t["penalty"], t["passed"]) for t in tests] == [("east", 1, True),
                                                                      ("south", 1, False)]
    roll(game, 3, 4)                     # no sweep: south falls back 7"
    assert events(game, "SweepResolved") == [{"unit": "south", "total": 0, "against": {},
                                              "caught": False, "by": None}]
    fell = skirmish(game.state).squads["south"]
    assert fell.status == "falling_back"
    assert fell.models[0][1] == pytest.approx(20 - TOUCH - 7, abs=1e-3)   # straight away
    ended = events(game, "FightEnded")[0]
    assert sorted(ended["locked"]) == ["ass", "east"]   # the fight goes on into the next turn


@pytest.mark.parametrize("escape, caught", [(2, True), (3, False)])
def test_sk_sweep_one_roll_of_the_winner_against_each_squad_falling_back(escape, caught):
    game = surrounded("north", "south")
    send(game, cmd="resolve_combat", combat="0-ass")
    send(game, cmd="split_attacks", unit="ass", split={"north": 2, "south": 0})
    roll(game, 3, 3)
    roll(game, 3, 3)
    roll(game, 1, 1)                     # north falls
    roll(game, 1)                        # south strikes back and misses
    roll(game, 6, 6)                     # south fails its morale check
    roll(game, escape)                   # D6 + I3
    roll(game, 1)                        # the marine's D6 + I4 = 5
    resolved = events(game, "SweepResolved")[0]
    assert resolved["against"] == {"ass": 5} and resolved["caught"] is caught
    if not caught:
        roll(game, 1, 1)
        assert skirmish(game.state).squads["south"].status == "falling_back"
    roll(game, 3)                        # the marine's consolidation
    send(game, cmd="consolidate", unit="ass",
         toward="" if caught else "south")
    assert skirmish(game.state).fight is None
    assert skirmish(game.state).squads["south"].status == ("destroyed" if caught
                                                           else "falling_back")


def test_sk_consolidate_toward_an_enemy_makes_no_new_contact():
    game = surrounded("north")
    game2 = new([sq("ass", "red", "assault_marines", [[20, 20]]),
                 sq("north", "blue", "guardsmen", [[20, 20 + TOUCH]]),
                 sq("far", "blue", "guardsmen", [[20, 25]])], phase="fight")
    for g in (game, game2):
        send(g, cmd="resolve_combat", combat="0-ass")
        roll(g, 3, 3)
        roll(g, 3, 3)
        roll(g, 1, 1)                    # north falls: the fight is won
    roll(game2, 6)
    send(game2, cmd="consolidate", unit="ass", toward="far")
    s = skirmish(game2.state)
    marine, far = s.squads["ass"].models[0], s.squads["far"].models[0]
    assert math.dist(marine[:2], (20, 20)) <= 6 + 1e-6
    assert geo.circle_gap(marine, far) == pytest.approx(1.0, abs=1e-3)   # an inch short


def test_sk_terrain_a_charge_through_difficult_ground_strikes_at_initiative_one():
    game = new([sq("ass", "red", "assault_marines", [[10, 10]]),
                sq("guard", "blue", "guardsmen", [[10, 14]])],
               difficult=[[[8, 11.5], [12, 11.5], [12, 12.5], [8, 12.5]]])
    send(game, cmd="declare_assault", unit="ass", primary="guard")
    send(game, cmd="hold_overwatch", unit="guard")
    roll(game, 2, 2)
    rolled = events(game, "AssaultRolled")[0]
    assert rolled["difficult"] and rolled["slowed"]
    send(game, cmd="end_phase")
    send(game, cmd="resolve_combat", combat="1-ass")
    assert events(game, "FightBegan")[0]["steps"] == [3, 1]   # the guardsman strikes first


def test_sk_casualties_a_model_of_several_wounds_keeps_what_is_left():
    beast = [(10.0, 10.0, 1.2)]
    removed, left, lost = take_wounds(beast, [4], [(10.0, 13.0, R)], 3)
    assert (removed, left, lost) == ([], [1], 0)
    removed, left, lost = take_wounds(beast, [1], [(10.0, 13.0, R)], 3)
    assert (removed, left, lost) == ([0], [], 2)


def test_skirmish_undo_never_rerolls_and_a_replay_equals_live_play():
    scenario = {**load_scenario(EXAMPLES / "two_targets.toml"), "undo": "solo"}
    game = Game.new(scenario, store=MemoryStore())
    while not events(game, "AssaultRolled"):
        game.submit(choose(game))
    faces = [r.data["faces"] for r in game.records if r.type == "DiceRolled"][-1]
    last = game.timeline.last_live()
    by = game.timeline.info[last].by  # type: ignore[index]
    command = [r for r in game.records if r.type == "CommandIssued"][-1].data
    game.undo(by)
    game.submit({"cmd": command["command"], "by": command["by"], **command["args"]})
    assert [r.data["faces"] for r in game.records if r.type == "DiceRolled"][-1] == faces
    while game.pending.kind != "over":
        game.submit(choose(game))
    again = Game.load(game.game_id, game.store)
    assert again.state == game.state
    assert verify(game.records).steps == len(game.timeline.steps)


def test_skirmish_every_event_is_told_citing_its_source_or_is_bookkeeping():
    """Explanations: each skirmish outcome is a sentence citing its rule IDs with the seed
    page they restate (S4) or the general rules ([G])."""
    import regiment.phases.skirmish.events  # noqa: F401 - every event of the rulebook
    from regiment.core.events import EVENTS
    from regiment.phases.skirmish.narrate import SENTENCES

    ours = {n for n, cls in EVENTS.items()   # (kept beside their steps: assault/, fight/)
            if cls.__module__.startswith("regiment.phases.skirmish.")}
    assert len(ours) >= 20
    assert ours - set(SENTENCES) == {"FightBegan", "ConsolidationRolled"}
    game = Game.new(load_scenario(EXAMPLES / "two_targets.toml"), store=MemoryStore())
    while game.pending.kind != "over":
        game.submit(choose(game))
    told = [game.preset.sentence(r.type, r.data, game.state) for r in game.records
            if r.type in SENTENCES]
    cited = [t for t in told if t]
    assert cited and all("S4)" in t or "[G])" in t for t in cited)
    assert any("(SK.SWEEP, S4)" in t for t in cited)


def test_sk_shoot_weapon_types_rapid_fire_heavy_pistol_and_assault():
    """SK.SHOOT (games from engine 0.12.0): a Rapid Fire gun fires twice within half range
    when its squad did not move, once otherwise, and its squad does not assault after; a
    Heavy gun only when its squad did not move; a Pistol once; an Assault gun its shots."""
    from regiment.phases.skirmish.state import Weapon
    from regiment.phases.skirmish.volleys import shots

    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 3)),
                sq("guard", "blue", "guardsmen", row(10, 20, 3)),
                sq("far", "blue", "guardsmen", row(10, 32, 3))], phase="shooting")
    st = game.state
    tac, guard, far = st.squads["tac"], st.squads["guard"], st.squads["far"]
    assert shots(st, tac, guard) == 6            # 10" away: within half of 24", two each
    assert shots(st, tac, far) == 3              # beyond 12": one each
    moved = tac.evolve(moved=True)
    assert shots(st, moved, guard) == 3          # it moved: one each

    def armed(kind: str, n: int = 1) -> Any:
        return tac.evolve(weapons=(Weapon(name=kind, S=4, range=24.0, shots=n, type=kind),))

    assert shots(st, armed("heavy"), guard) == 3
    assert shots(st, armed("heavy").evolve(moved=True), guard) == 0
    assert shots(st, armed("pistol", 3), guard) == 3
    assert shots(st, armed("assault", 2).evolve(moved=True), guard) == 6
    old = new([sq("tac", "red", "tactical_marines", row(10, 10, 3)),
               sq("guard", "blue", "guardsmen", row(10, 20, 3))], phase="shooting",
              engine="0.11.0")
    assert shots(old.state, old.state.squads["tac"], old.state.squads["guard"]) == 3
    send(game, cmd="shoot", unit="tac", target="guard")
    roll(game, *(1,) * 6)
    send(game, cmd="end_phase")
    assert not [c for c in game.legal() if c.name == "declare_assault" and c.unit == "tac"]


def rolled(game: Game, *faces: int) -> list[Any]:
    return game.submit({"cmd": "roll", "by": game.pending.player, "faces": list(faces)})


def test_sk_shoot_a_squad_in_cover_saves_on_the_better_of_armour_and_cover():
    cover = [[[0, 17], [48, 17], [48, 24], [0, 24]]]
    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 3)),
                sq("guard", "blue", "guardsmen", row(10, 20, 3))], phase="shooting",
               cover=cover)
    send(game, cmd="shoot", unit="tac", target="guard")
    rolled(game, *(6,) * 6)              # six hits
    out = rolled(game, *(6,) * 6)        # six wounds; AP 5 takes the guard's 5+ armour
    wound = [e for e in out if e.type == "VolleyRolled"][-1]
    assert (wound.then, wound.then_need, wound.cover) == ("save", 4, True)
    out = rolled(game, 4, 4, 4, 1, 1, 1)
    saved = [e for e in out if e.type == "VolleyRolled"][0]
    assert saved.successes == 3 and saved.cover
    told = game.preset.sentence("VolleyRolled", saved.to_data(), game.state)
    assert "to save in cover (4+)" in told and "SK.SHOOT" in told
    open_table = new([sq("tac", "red", "tactical_marines", row(10, 10, 3)),
                      sq("guard", "blue", "guardsmen", row(10, 20, 3))], phase="shooting")
    send(open_table, cmd="shoot", unit="tac", target="guard")
    rolled(open_table, *(6,) * 6)
    out = rolled(open_table, *(6,) * 6)   # bolters are AP 5: no armour save for the guard
    assert [e for e in out if e.type == "VolleyRolled"][-1].then == ""


def test_sk_morale_a_squad_that_loses_a_quarter_to_shooting_tests_and_falls_back():
    game = new([sq("tac", "red", "tactical_marines", row(10, 10, 5)),
                sq("guard", "blue", "guardsmen", row(10, 20, 8))], phase="shooting")
    send(game, cmd="shoot", unit="tac", target="guard")
    rolled(game, *(6,) * 10)                 # ten hits (rapid fire, within half range)
    rolled(game, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1)   # one wound: 1 of 8, less than a quarter
    assert game.pending.kind == "decision"
    game2 = new([sq("tac", "red", "tactical_marines", row(10, 10, 5)),
                 sq("guard", "blue", "guardsmen", row(10, 20, 8))], phase="shooting")
    send(game2, cmd="shoot", unit="tac", target="guard")
    rolled(game2, *(6,) * 10)
    rolled(game2, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1)   # two: 2 of 8, a quarter
    assert game2.pending.kind == "roll" and game2.pending.purpose == "morale"
    out = rolled(game2, 6, 6)
    test = [e for e in out if e.type == "MoraleTested"][0]
    assert not test.passed and test.cause == "shooting"
    told = game2.preset.sentence("MoraleTested", test.to_data(), game2.state)
    assert "lost a quarter of its models to shooting" in told and "SK.MORALE" in told
    assert game2.pending.kind == "roll" and game2.pending.purpose == "fall_back"
    out = rolled(game2, 3, 4)
    assert [e for e in out if e.type == "FellBack"][0].distance == 7.0
    assert game2.state.squads["guard"].status == "falling_back"
    old = new([sq("tac", "red", "tactical_marines", row(10, 10, 5)),
               sq("guard", "blue", "guardsmen", row(10, 20, 8))], phase="shooting",
              engine="0.11.0")
    send(old, cmd="shoot", unit="tac", target="guard")
    rolled(old, *(6,) * 5)
    rolled(old, 6, 6, 6, 1, 1)
    assert old.pending.kind == "decision"   # before 0.12.0: no check after shooting


def test_sk_shoot_the_bot_shoots_the_squad_it_expects_to_hurt_most_not_the_nearest():
    """Issue 28 item 4: guardsmen 9" away in cover (a 4+ save against the bolters' AP 5)
    and guardsmen 10.4" away in the open (no save), both within the bolters' half range:
    the bot shoots the farther squad."""
    from regiment.phases.skirmish.view import choose
    from regiment.phases.skirmish.volleys import expected_unsaved

    squads = [sq("tac", "red", "tactical_marines", row(10, 10, 3)),
              sq("near", "blue", "guardsmen", row(10, 20, 3)),
              sq("far", "blue", "guardsmen", row(22, 17, 3))]
    game = new(squads, phase="shooting", cover=[[[0, 18], [20, 18], [20, 24], [0, 24]]])
    st = game.state
    tac, near, far = (st.squads[k] for k in ("tac", "near", "far"))
    assert expected_unsaved(st, tac, far) > expected_unsaved(st, tac, near) > 0
    assert choose(st, game.pending).target == "far"
    plain = new(squads, phase="shooting")   # no cover: alike, and the nearer is shot
    assert choose(plain.state, plain.pending).target == "near"
