"""The charge sub-phase (CH.*, GEO.DISTANCE): declarations, reactions, redirects, moves."""

from __future__ import annotations

import itertools

import pytest

from regiment.core import geometry as geo
from regiment.core.commands import Roll
from regiment.core.dice import ManualDice
from regiment.core.errors import IllegalCommand
from regiment.core.game import Game
from regiment.phases.fantasy import charge
from regiment.phases.fantasy.commands import DeclareCharge
from regiment.phases.fantasy.faces import counted
from regiment.phases.fantasy.state import UnitState
from regiment.phases.fantasy.units import box
from regiment.store import MemoryStore

from . import battle as b
from .conftest import small_scenario, unit


def state_unit(**extra) -> UnitState:
    return UnitState.from_scenario(small_scenario()["units"][0] | extra)


def test_geo_distance_is_between_footprints_not_centres():
    scenario = small_scenario(units=[unit("a", "red", 20, 10, 0), unit("b", "blue", 20, 22, 180)])
    a = UnitState.from_scenario(scenario["units"][0])
    b = UnitState.from_scenario(scenario["units"][1])
    assert charge.gap(a, b) == pytest.approx(12.0)  # front edges face each other 12" apart
    side = UnitState.from_scenario(small_scenario(units=[
        unit("a", "red", 20, 10, 0), unit("c", "blue", 40, 10, 0)])["units"][1])
    assert charge.gap(a, side) == pytest.approx(20 - 100 / 25.4)  # edge to edge, side by side


def test_ch_range_is_two_dice_plus_movement():
    boyz = state_unit()
    for one, two in itertools.product(range(1, 7), repeat=2):
        assert charge.charge_range(boyz, (one, two)) == one + two + 4


def test_ch_range_swiftstride_rolls_three_and_drops_the_lowest():
    wolves = state_unit(rules=["swiftstride"])
    assert charge.movement_dice(wolves) == 3
    assert charge.charge_range(wolves, (1, 6, 5)) == 11 + 4
    assert counted((2, 2, 6)) == (6, 2)


def test_ch_range_the_odds_of_a_charge_match_the_table():
    """2D6 >= k for k = 3..12, exactly, by enumerating the dice."""
    table = [97.2, 91.7, 83.3, 72.2, 58.3, 41.7, 27.8, 16.7, 8.3, 2.8]
    faces = list(itertools.product(range(1, 7), repeat=2))
    for k, expected in zip(range(3, 13), table, strict=True):
        hits = sum(1 for f in faces if sum(counted(f)) >= k)
        assert round(100 * hits / len(faces), 1) == expected


def charge_12_inches() -> Game:
    """Unit a charges unit b, 12" away; the game waits for the charge range dice."""
    units = [unit("a", "red", 20, 10, 0), unit("b", "blue", 20, 22, 180)]
    game = Game.new(small_scenario(units=units), store=MemoryStore(), dice=ManualDice())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "b"})
    game.submit({"cmd": "react", "by": "blue", "unit": "b", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    game.submit({"cmd": "move_charger", "by": "red", "unit": "a"})
    return game


def test_ch_range_reaching_exactly_the_distance_succeeds():
    game = charge_12_inches()
    rolled = next(e for e in game.submit(Roll(by="red", faces=(4, 4))) if e.type ==
                  "ChargeRolled")
    assert (rolled.range, rolled.distance, rolled.success) == (12.0, 12.0, True)
    game.undo("red")
    rolled = next(e for e in game.submit(Roll(by="red", faces=(4, 4))) if e.type ==
                  "ChargeRolled")
    assert rolled.success  # the same dice after an undo (DICE.NO_REROLL)


def test_ch_range_short_is_a_failed_charge():
    game = charge_12_inches()
    rolled = next(e for e in game.submit(Roll(by="red", faces=(4, 3))) if e.type ==
                  "ChargeRolled")
    assert (rolled.range, rolled.success) == (11.0, False)
    assert not game.state.units["a"].charged


def test_ch_move_order_the_active_player_picks_each_charger_in_turn():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=ManualDice())
    for uid, target in (("boyz", "spears"), ("wolves", "swords")):
        game.submit({"cmd": "declare_charge", "by": "red", "unit": uid, "target": target})
        game.submit({"cmd": "react", "by": "blue", "unit": target, "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    assert {c.unit for c in game.pending.legal} == {"boyz", "wolves"}
    game.submit({"cmd": "move_charger", "by": "red", "unit": "wolves"})
    with pytest.raises(IllegalCommand):  # one at a time: the wolves roll first
        game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    game.submit(Roll(by="red", faces=(1, 1, 1)))
    assert [c.unit for c in game.pending.legal] == ["boyz"]
    with pytest.raises(IllegalCommand) as info:
        game.submit({"cmd": "move_charger", "by": "red", "unit": "wolves"})
    assert info.value.rule == "CH.MOVE_ORDER"
    game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    game.submit(Roll(by="red", faces=(6, 6)))
    assert game.state.phase == "turn.movement.remaining"   # rally and compulsory: the engine's


def test_ch_declare_one_charge_a_turn_at_an_enemy():
    game = Game.new(small_scenario(), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    for command in ({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "swords"},
                    {"cmd": "declare_charge", "by": "red", "unit": "wolves", "target": "boyz"}):
        with pytest.raises(IllegalCommand) as info:
            game.submit(command)
        assert info.value.rule == "CH.DECLARE"
    assert all(c.unit != "boyz" for c in game.pending.legal if c.name == "declare_charge")


def test_ch_declare_a_fleeing_unit_cannot_charge():
    game = Game.new(small_scenario(), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "flee"})
    game.submit({"cmd": "decline_redirect", "by": "red", "unit": "boyz"})
    while game.state.player == "red":
        game.submit(game.pending.legal[-1])
    with pytest.raises(IllegalCommand, match="fleeing"):
        game.submit({"cmd": "declare_charge", "by": "blue", "unit": "spears", "target": "boyz"})


def test_ch_react_flee_rolls_and_a_fleeing_unit_must_flee():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=ManualDice())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    assert {c.reaction for c in game.pending.legal} == {"hold", "flee"}
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "flee"})
    assert game.pending.to_dict() == {"kind": "roll", "player": "blue", "purpose": "flee",
                                      "unit": "spears", "dice": 2}
    fled = next(e for e in game.submit(Roll(by="blue", faces=(5, 3))) if e.type == "UnitFled")
    assert fled.distance == 8 and game.state.units["spears"].status == "fleeing"
    moved = game.state.units["spears"]
    assert moved.facing == 0.0 and moved.position[1] > 22  # turned away, 8" further off
    game.submit({"cmd": "decline_redirect", "by": "red", "unit": "boyz"})
    # a unit already charged may be charged again (a multiple combat): the wolves could
    assert DeclareCharge(by="red", unit="wolves", target="spears") in game.pending.legal
    game.submit({"cmd": "end_charges", "by": "red"})
    game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    game.submit(Roll(by="red", faces=(1, 1)))
    while game.state.player == "red":
        game.submit({"cmd": "end_phase", "by": "red"})
    game.submit({"cmd": "end_charges", "by": "blue"})
    game.submit(Roll(by="blue", faces=(6, 6)))          # the spears fail to rally
    game.submit(Roll(by="blue", faces=(1, 1)))          # and flee 2" more
    while game.state.player == "blue":
        game.submit(game.pending.legal[-1])
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "wolves", "target": "spears"})
    assert [c.reaction for c in game.pending.legal] == ["flee"]
    with pytest.raises(IllegalCommand) as info:
        game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    assert info.value.rule == "CH.REACT"


def test_ch_react_immune_to_psychology_may_not_flee_and_only_the_target_reacts():
    units = [unit("a", "red", 20, 10, 0), unit("b", "blue", 20, 22, 180,
                                              rules=["immune_to_psychology"])]
    game = Game.new(small_scenario(units=units), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "b"})
    assert [c.reaction for c in game.pending.legal] == ["hold"]
    # the flee is refused by the rule that forbids it (SPECIAL.EFFECTS), the seat by CH.REACT
    for command, rule, said in (
            ({"cmd": "react", "by": "blue", "unit": "b", "reaction": "flee"}, "SR.ITP",
             "may not flee (Immune to Psychology)"),
            ({"cmd": "react", "by": "red", "unit": "b", "reaction": "hold"}, "CH.REACT",
             "blue's unit")):
        with pytest.raises(IllegalCommand) as info:
            game.submit(command)
        assert info.value.rule == rule and said in str(info.value)


def test_turn_order_the_turn_passes_and_game_turns_count_up():
    game = Game.new(small_scenario(turns=2), store=MemoryStore())
    seen = []
    while game.pending.kind != "over":
        state = game.state
        if not seen or seen[-1] != (state.turn, state.player):
            seen.append((state.turn, state.player))
        game.submit(game.pending.legal[-1])
    assert seen == [(1, "red"), (1, "blue"), (2, "red"), (2, "blue")]
    phases = [e.phase for step in game.timeline.steps for e in step if e.type == "PhaseChanged"]
    assert phases[:9] == [
        "turn.start", "turn.movement.charge.declaration", "turn.movement.charge.charge_moves",
        "turn.movement.rally", "turn.movement.compulsory", "turn.movement.remaining",
        "turn.magic", "turn.shooting", "turn.close_combat.choose_combat"]


# --- sight, stand and shoot, redirects, charge moves -------------------------------------


def test_ch_declare_the_target_must_be_in_the_front_arc():
    game = b.game([b.unit("a", "red", 20, 10, 0), b.unit("behind", "blue", 20, 4, 0),
                   b.unit("ahead", "blue", 40, 20, 180)])
    targets = {c.target for c in game.pending.legal if c.name == "declare_charge"}
    assert targets == {"ahead"}
    with pytest.raises(IllegalCommand, match="front arc") as info:
        game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "behind"})
    assert info.value.rule == "CH.DECLARE"
    assert {"cmd": "declare_charge", "by": "red", "unit": "a", "target": "ahead"} in \
        info.value.legal


def test_ch_declare_an_answer_kept_with_the_charger_follows_what_the_target_becomes():
    """CH.DECLARE: whether a unit may charge is kept with the charger's value by what it
    depends on of the target: the same charger asked of the target moved behind it, or
    destroyed, answers anew, and as the reasons say."""
    game = b.game([b.unit("a", "red", 20, 10, 0), b.unit("ahead", "blue", 40, 20, 180)])
    st = game.state
    a, ahead = st.units["a"], st.units["ahead"]
    assert charge.chargeable(st, a, ahead) and not charge.eligible_target(st, a, ahead)
    for changed in (ahead.evolve(position=(20.0, 4.0), facing=0.0),
                    ahead.evolve(status="destroyed")):
        later = st.evolve(units={**st.units, "ahead": changed})
        assert later.units["a"] is a                      # the same charger value
        assert not charge.chargeable(later, a, changed)
        assert charge.eligible_target(later, a, changed)  # and the reason says why
    assert charge.chargeable(st, a, ahead)               # the first answer still holds


def test_ch_declare_the_wrong_player_is_refused_with_the_legal_choices():
    game = b.game([b.unit("a", "red", 20, 10, 0), b.unit("x", "blue", 20, 20, 180)])
    before = game.version
    with pytest.raises(IllegalCommand) as info:
        game.submit({"cmd": "declare_charge", "by": "blue", "unit": "x", "target": "a"})
    assert info.value.rule == "CH.DECLARE" and info.value.legal
    assert game.version == before


def crossbows(distance: float) -> Game:
    """Red charges blue crossbowmen standing ``distance`` inches away."""
    return b.game([b.unit("a", "red", 36, 10, 0),
                   b.unit("xb", "blue", 36, 10 + distance, 180, equipment=["crossbow"])])


def test_ch_react_stand_and_shoot_only_beyond_its_movement_and_in_range():
    near = crossbows(4.0)
    near.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "xb"})
    assert "stand_and_shoot" not in {c.reaction for c in near.pending.legal}
    with pytest.raises(IllegalCommand, match="within") as info:
        near.submit({"cmd": "react", "by": "blue", "unit": "xb", "reaction": "stand_and_shoot"})
    assert info.value.rule == "CH.REACT"
    far = crossbows(10.0)
    far.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "xb"})
    assert {c.reaction for c in far.pending.legal} == {"hold", "stand_and_shoot", "flee"}


def test_ch_react_stand_and_shoot_is_resolved_at_once_at_minus_one():
    game = crossbows(10.0)
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "xb"})
    events = game.submit({"cmd": "react", "by": "blue", "unit": "xb",
                          "reaction": "stand_and_shoot"})
    assert game.pending.purpose == "stand_and_shoot_hit" and game.pending.dice == 5
    events += b.answer(game, {"stand_and_shoot_hit": [(5, 5, 4, 1, 6)],
                              "to_wound": [(3, 6, 2)]})
    volley = b.one(events, "AttacksResolved")
    # BS 3: 4+, -1 for standing and shooting: 5+; crossbow S4 against T3: 3+
    assert volley.needs["hit"] == 5 and volley.needs["wound"] == 3
    assert (volley.combat, volley.step, volley.hits, volley.wounds, volley.unsaved) == \
        (None, "stand_and_shoot", 3, 2, 2)
    assert game.state.units["a"].models == 18
    assert game.state.phase.endswith("declaration")


def test_ch_redirect_the_test_comes_first_and_a_pass_declares_at_a_new_target():
    """Seed 003: "пройдите тест на Лидерство ... Если же тест успешно пройден, то нападающее
    подразделение может немедленно снова объявить нападение": the test, then the target."""
    game = b.game([b.unit("a", "red", 30, 10, 0, profile={"Ld": 8}),
                   b.unit("x", "blue", 30, 20, 180), b.unit("y", "blue", 42, 20, 180)])
    b.declare(game, "a", "x", "flee", (3, 3))
    assert game.pending.decision == "redirect"
    assert {(c.name, getattr(c, "target", None)) for c in game.pending.legal} == \
        {("redirect", ""), ("decline_redirect", None)}
    with pytest.raises(IllegalCommand, match="Leadership test first") as info:
        game.submit({"cmd": "redirect", "by": "red", "unit": "a", "target": "y"})
    assert info.value.rule == "CH.REDIRECT"
    game.submit({"cmd": "redirect", "by": "red", "unit": "a"})
    tested = b.one(b.answer(game, {"redirect": [(4, 4)]}), "RedirectTested")
    assert tested.passed and tested.target == "x" and tested.faces == (4, 4)
    assert game.pending.decision == "redirect_target"
    assert {(c.name, getattr(c, "target", None)) for c in game.pending.legal} == \
        {("redirect", "y"), ("decline_redirect", None)}
    events = game.submit({"cmd": "redirect", "by": "red", "unit": "a", "target": "y"})
    redirected = b.one(events, "ChargeRedirected")
    assert redirected.passed and redirected.to_data()["from"] == "x"
    assert game.pending.decision == "react" and game.pending.player == "blue"
    assert game.state.units["a"].declared == "y"


def tried_redirect(ld: int, flee: tuple[int, int], test: tuple[int, int]
                   ) -> tuple[Game, list]:
    """A charges x, x flees (``flee``), and A tries to redirect (y is there to turn on)."""
    game = b.game([b.unit("a", "red", 30, 10, 0, profile={"Ld": ld}),
                   b.unit("x", "blue", 30, 20, 180), b.unit("y", "blue", 42, 20, 180)])
    b.declare(game, "a", "x", "flee", flee)
    game.submit({"cmd": "redirect", "by": "red", "unit": "a"})
    return game, b.answer(game, {"redirect": [test]})


def test_ch_redirect_a_pass_may_still_keep_after_the_first_target():
    game, _ = tried_redirect(8, (3, 3), (1, 2))
    game.submit({"cmd": "decline_redirect", "by": "red", "unit": "a"})
    assert game.state.units["a"].declared == "x"
    assert game.state.phase.endswith("declaration")


def test_ch_redirect_a_fail_keeps_the_first_target_and_it_is_once_a_turn():
    game, events = tried_redirect(6, (3, 3), (4, 4))
    assert not b.one(events, "RedirectTested").passed
    assert game.state.units["a"].declared == "x" and game.state.units["a"].redirected
    assert game.state.phase.endswith("declaration")


def test_ch_redirect_when_both_targets_fled_the_charger_chooses():
    game, _ = tried_redirect(8, (1, 1), (2, 2))
    game.submit({"cmd": "redirect", "by": "red", "unit": "a", "target": "y"})
    game.submit({"cmd": "react", "by": "blue", "unit": "y", "reaction": "flee"})
    b.answer(game, {"flee": [(6, 6)]})
    game.submit({"cmd": "end_charges", "by": "red"})
    assert {c.target for c in game.pending.legal} == {"x", "y"}


def test_ch_redirect_games_begun_before_0_9_0_name_the_target_with_the_attempt():
    """LOG.RULINGS: a 0.8.0 game re-derives its redirects as they were played."""
    game = b.old_game([b.unit("a", "red", 30, 10, 0, profile={"Ld": 8}),
                       b.unit("x", "blue", 30, 20, 180), b.unit("y", "blue", 42, 20, 180)])
    b.declare(game, "a", "x", "flee", (3, 3))
    assert {(c.name, getattr(c, "target", None)) for c in game.pending.legal} == \
        {("redirect", "y"), ("decline_redirect", None)}
    game.submit({"cmd": "redirect", "by": "red", "unit": "a", "target": "y"})
    redirected = b.one(b.answer(game, {"redirect": [(4, 4)]}), "ChargeRedirected")
    assert redirected.passed and redirected.faces == (4, 4)
    assert game.pending.decision == "react"


def charge_at(side_x: float = 30, **a: object) -> Game:
    return b.game([b.unit("a", "red", side_x, 10, 0, **a), b.unit("x", "blue", 30, 18, 180)])


def test_ch_charge_move_lands_flush_and_begins_a_combat():
    game = charge_at(31)
    b.declare(game, "a", "x")
    events = b.charge(game, "a", (3, 3))
    move = b.one(events, "UnitMoved")
    # fronts of equal width: the charger slides over to meet it edge to edge
    assert move.reason["code"] == "charge" and move.position == (30.0, 18.0) and move.facing == 0.0
    began = b.one(events, "CombatBegan")
    assert began.units == ("a", "x") and began.chargers == ("a",)
    assert game.state.units["a"].status == game.state.units["x"].status == "engaged"
    assert game.state.units["a"].charged


def test_ch_charge_move_needs_room_no_other_unit_in_the_way():
    game = b.game([b.unit("a", "red", 30, 10, 0), b.unit("x", "blue", 30, 20, 180),
                   b.unit("wall", "red", 30, 14.5, 0, models=5)])
    b.declare(game, "a", "x")
    rolled = b.one(b.charge(game, "a", (6, 6)), "ChargeRolled")
    assert not rolled.success and rolled.why == {"code": "in_the_way", "rule": "CH.CHARGE_MOVE",
                                                     "unit": "wall"}


def test_ch_failed_moves_the_highest_die_straight_on_and_never_into_contact():
    game = charge_at(30)
    b.declare(game, "a", "x")
    events = b.charge(game, "a", (1, 2))   # 3 + 4 = 7 < 8
    assert not b.one(events, "ChargeRolled").success
    move = b.one(events, "UnitMoved")
    assert (move.reason["code"], move.distance, move.position) == \
        ("failed_charge", 2.0, (30.0, 12.0))
    far = charge_at(30)
    b.declare(far, "a", "x")
    b.charge(far, "a", (1, 1))                     # 6: not enough; moves 1"
    assert far.state.units["a"].position == (30.0, 11.0)


def test_ch_failed_stops_an_inch_short_of_any_unit():
    game = b.game([b.unit("a", "red", 30, 10, 0), b.unit("x", "blue", 30, 20, 180),
                   b.unit("wall", "red", 30, 14.5, 0, models=5)])
    b.declare(game, "a", "x")
    events = b.charge(game, "a", (6, 6))   # no room: a failed charge
    move = b.one(events, "UnitMoved")
    wall_back = 14.5 - 20 / 25.4
    assert move.reason["code"] == "failed_charge"
    assert move.position[1] == pytest.approx(wall_back - 1.0, abs=1e-3)


def test_ch_failed_wheels_to_face_its_target_and_never_slides_sideways():
    """CH.FAILED (0.13.0): a target 50 degrees off the charger's facing: the failed charger
    wheels toward it (its outer corner paying for the wheel) and moves ahead for the rest, as
    a charge would; in 0.12.0 it slid along the bearing, facing unchanged."""
    units = [b.unit("a", "red", 30, 10, 0), b.unit("x", "blue", 42, 20, 230)]
    game = b.game(units)
    b.declare(game, "a", "x")
    move = b.one(b.charge(game, "a", (1, 5)), "UnitMoved")    # 6 + 4 short of ~13": fails
    assert move.reason["code"] == "failed_charge" and move.distance <= 5.0 + 1e-6
    a = game.state.units["a"]
    bearing = geo.bearing((30, 10), geo.centre(box(game.state.units["x"])))
    assert 0 < a.facing <= bearing + 1e-6                    # it turned toward its target
    (fx, fy), _ = geo.axes(a.facing)
    start = geo.Box(30, 10, 0.0, *box(a)[3:5])
    moved = (a.position[0] - start.x, a.position[1] - start.y)
    # no sideways slide: the front centre went ahead of its new facing, not across it
    assert moved[0] * fx + moved[1] * fy > 0
    assert geo.gap(box(a), box(game.state.units["x"])) >= 1.0 - 1e-3
    old = b.old_game(units, engine="0.12.0")
    b.declare(old, "a", "x")
    b.charge(old, "a", (1, 5))
    assert old.state.units["a"].facing == 0.0                 # 0.12.0: facing unchanged


def test_ch_catch_fleeing_a_charge_that_reaches_the_fled_unit_destroys_it():
    game = charge_at(30)
    b.declare(game, "a", "x", "flee", (1, 2))             # 3": now 11" away
    assert game.pending.decision == "declare_charge"       # no other target: no redirect
    events = b.charge(game, "a", (4, 3))                   # 7 + 4 = 11
    assert b.one(events, "UnitCaught").by == "a"
    assert game.state.units["x"].status == "destroyed"
    assert not b.of(events, "CombatBegan")


def corner_charge() -> list[dict[str, object]]:
    target = b.unit("x", "blue", 36, 30, 0, models=16, files=4)   # 4 x 4 of 20 mm: a square
    w = 4 * 20 / 25.4
    # a charger square to the corner: its front centred on the front-right diagonal
    return [b.unit("a", "red", 36 + w / 2 + 3, 30 + 3, 225, models=4, files=4), target]


def test_ch_charge_move_a_side_split_evenly_is_drawn_before_any_charge_is_declared():
    """Seed 003: "Если модели равномерно расположены по двум секторам, то вы должны случайным
    образом выбрать ту сторону ... до объявления всех нападений": the die comes before the
    first declaration, and the declaration then rolls nothing."""
    game = b.game(corner_charge())
    assert game.pending.kind == "roll" and game.pending.purpose == "random_side"
    assert game.state.phase.endswith("declaration") and not game.state.context.targets
    drawn = b.one(b.answer(game, {"random_side": [(5,)]}), "SideDrawn")
    assert (drawn.unit, drawn.target, drawn.side) == ("a", "x", "right")
    assert game.pending.decision == "declare_charge"
    events = game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    assert b.one(events, "ChargeDeclared").side == "right"
    assert not b.of(events, "RollRequested")


def test_ch_charge_move_games_begun_before_0_9_0_roll_the_side_at_the_declaration():
    old = b.old_game(corner_charge())
    assert old.pending.decision == "declare_charge"
    old.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    assert old.pending.purpose == "random_side"
    declared = b.one(b.answer(old, {"random_side": [(5,)]}), "ChargeDeclared")
    assert declared.side == "right"


@pytest.mark.parametrize("seed", range(6))
def test_ch_declare_the_declarations_offered_are_those_worked_out_afresh(seed):
    """The declarations a charger is offered are kept with its value while its targets are
    the same units (``declarations._declarations``): in every state of random play they are
    the rules' own, each charger that may charge at each enemy it may charge, and the kept
    commands follow a target that fled, moved or was declared at."""
    import random

    from .conftest import close_scenario

    rng = random.Random(seed)
    asked = 0
    for game_seed in range(4):
        game = Game.new(close_scenario(seed=f"{seed:x}{game_seed:x}"), store=MemoryStore())
        for _ in range(120):
            pending = game.pending
            if pending.kind != "decision":
                break
            state = game.state
            if pending.decision == "declare_charge":
                asked += 1
                fresh = [DeclareCharge(by=state.player, unit=u.id, target=t.id)
                         for u in state.units.values() if not charge.why_cannot_charge(state, u)
                         for t in state.units.values()
                         if t.player != u.player and charge.targeting._chargeable(state, u, t)]
                offered = [c for c in pending.legal if isinstance(c, DeclareCharge)]
                assert offered == fresh
            game.submit(rng.choice(pending.legal))
    assert asked > 10
