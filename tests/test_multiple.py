"""Multiple combats: forming them, splitting attacks, the shared result, break tests, flee and
pursuit among many units, reform with several foes (CR.BOOKKEEPING, CC.ALLOCATE, BT.WHO,
FP.MULTI_ORDER and the multiple-combat parts of the rules they extend)."""

from __future__ import annotations

import pytest

from regiment.core.commands import Roll
from regiment.core.errors import IllegalCommand
from regiment.core.geometry import gap, overlaps
from regiment.core.schema import to_plain
from regiment.phases.fantasy.commands import Allocate
from regiment.phases.fantasy.state import Combat
from regiment.phases.fantasy.units import box

from . import battle as b

W = 5 * 20 / 25.4   # five 20 mm files, in inches


def seam(**top):
    """Red ``a`` faces the seam between blue ``x`` and ``y``, standing side by side: its
    middle model touches both."""
    x = b.unit("x", "blue", 34.0, 20.0, 0.0)
    y = b.unit("y", "blue", 34.0 + W, 20.0, 0.0)
    a = b.unit("a", "red", 34.0 + W / 2, 20.0, 180.0)
    return b.game([x, y, a], phase="close_combat", **top)


def chain():
    """Red ``a`` fights blue ``x`` (five goblins in one rank), whose rear red ``c`` fights, whose
    rear blue ``y`` fights: one combat of four units linked through the enemies they touch."""
    x = b.unit("x", "blue", models=5)
    a = b.against(x, b.unit("a", "red"), "front")
    c = b.against(x, b.unit("c", "red"), "rear")
    y = b.against(c, b.unit("y", "blue"), "rear")
    return b.game([a, x, c, y], phase="close_combat")


# --- forming multiple combats ----------------------------------------------------------------


def test_ch_declare_a_unit_already_fighting_may_be_charged_and_the_charger_joins_its_combat():
    x = b.unit("x", "blue", 36.0, 20.0, 0.0)
    a = b.against(x, b.unit("a", "red"), "front")
    # c stands off x's left flank, facing it
    c = b.unit("c", "red", 36.0 - W / 2 - 6.0, 20.0 - 2.5, 90.0)
    g = b.game([x, a, c])
    assert list(g.state.combats) == ["0-x-a"]
    g.submit({"cmd": "declare_charge", "by": "red", "unit": "c", "target": "x"})
    assert [r.reaction for r in g.pending.legal] == ["hold"]   # engaged: it may only hold
    g.submit({"cmd": "react", "by": "blue", "unit": "x", "reaction": "hold"})
    joined = b.one(b.charge(g, "c", (6, 6)), "CombatJoined")
    assert joined.combat == "0-x-a" and joined.units == ("c",) and joined.chargers == ("c",)
    combat = g.state.combats["0-x-a"]
    assert combat.units == ("x", "a", "c") and g.state.units["c"].status == "engaged"
    from regiment.phases.fantasy.close_combat.combat import side_fought
    assert side_fought(g.state, "x", "c") == "left"


def test_ch_charge_move_a_second_charger_lands_beside_the_first():
    x = b.unit("x", "blue", 36.0, 30.0, 180.0, files=10)
    a = b.unit("a", "red", 33.0, 20.0, 0.0)
    c = b.unit("c", "red", 39.5, 20.0, 0.0)
    g = b.game([x, a, c])
    b.declare(g, "a", "x")
    b.declare(g, "c", "x")
    g.submit({"cmd": "end_charges", "by": "red"})
    for uid in ("a", "c"):
        g.submit({"cmd": "move_charger", "by": "red", "unit": uid})
        b.answer(g, {"charge_range": [(6, 6)]})
    st = g.state
    ba, bc, bx = box(st.units["a"]), box(st.units["c"]), box(st.units["x"])
    assert not overlaps(ba, bc) and gap(ba, bc) < 1e-3          # side by side, touching
    assert gap(ba, bx) < 1e-3 and gap(bc, bx) < 1e-3
    assert st.combats[next(iter(st.combats))].units == ("a", "x", "c")


def test_geo_arcs_each_unit_knows_the_enemies_it_touches_and_on_which_side():
    import json

    from regiment.tools.serve import answer

    g = chain()
    got = answer(g, json.dumps({"query": "contacts"}))["contacts"]
    assert got["x"] == [{"enemy": "a", "side": "front", "models": 5},
                        {"enemy": "c", "side": "rear", "models": 5}]
    assert got["c"] == [{"enemy": "x", "side": "front", "models": 5},
                        {"enemy": "y", "side": "rear", "models": 5}]
    assert got["y"] == [{"enemy": "c", "side": "front", "models": 5}]


def test_ch_charge_move_a_charger_touching_two_combats_links_them_into_one():
    # two combats side by side: a1 against x1, a2 against x2; c charges x1's rear, and its
    # wide front comes to touch x2's rear too
    x1 = b.unit("x1", "blue", 34.0, 20.0, 0.0)
    x2 = b.unit("x2", "blue", 34.0 + W, 20.0, 0.0)
    a1 = b.against(x1, b.unit("a1", "red"), "front")
    a2 = b.against(x2, b.unit("a2", "red"), "front")
    c = b.unit("c", "red", 34.0 + W / 2, 10.0, 0.0, files=10)
    g = b.game([x1, x2, a1, a2, c])
    assert sorted(g.state.combats) == ["0-x1-a1", "0-x2-a2"]
    b.declare(g, "c", "x1")
    joined = b.one(b.charge(g, "c", (6, 6)), "CombatJoined")
    assert joined.combat == "0-x1-a1" and joined.merged == ("0-x2-a2",)
    assert list(g.state.combats) == ["0-x1-a1"]
    assert g.state.combats["0-x1-a1"].units == ("x1", "a1", "c", "x2", "a2")
    from regiment.phases.fantasy.narrate import sentence
    assert "takes in combat 0-x2-a2" in sentence("CombatJoined", to_plain(joined), g.state)


def test_scenario_units_linked_through_enemies_form_one_combat():
    g = chain()
    assert g.state.combats == {"0-a-x": Combat(id="0-a-x", units=("a", "x", "c", "y"))}


# --- fighting (CC.ALLOCATE) ------------------------------------------------------------------


def test_cc_allocate_a_model_touching_two_units_splits_its_attacks_before_rolling():
    g = seam()
    b.fight(g)
    p = g.pending
    assert p.decision == "allocate" and p.player == "red"
    # the middle model and the one behind it: 2 attacks, split any way between x and y
    assert [c.attacks for c in p.legal] == [{"x": 2, "y": 0}, {"x": 1, "y": 1},
                                            {"x": 0, "y": 2}]
    step = b.one(g.submit(Allocate(by="red", unit="a", attacks={"x": 0, "y": 2})),
                 "InitiativeStepBegan")
    red = {s["target"]: s["attacks"] for s in step.strikes if s["unit"] == "a"}
    assert red == {"x": 4, "y": 6}   # two models and their supporters each, and the split


def test_cc_allocate_a_split_that_does_not_add_up_is_refused_and_changes_nothing():
    g = seam()
    b.fight(g)
    before = g.state
    for bad, words in (({"x": 2, "y": 1}, "add up to 3"), ({"x": 2}, "split among x, y"),
                       ({"x": 3, "y": -1}, "none below 0")):
        with pytest.raises(IllegalCommand, match=words) as info:
            g.submit(Allocate(by="red", unit="a", attacks=bad))
        assert info.value.rule == "CC.ALLOCATE"
        assert g.state is before


def test_cc_allocate_wounds_never_carry_over_to_another_unit():
    g = seam()
    b.fight(g)
    g.submit(Allocate(by="red", unit="a", attacks={"x": 2, "y": 0}))
    # every red blow hits and wounds; blue misses: x takes 6 wounds, y 4 (no more)
    events = b.blows(g, {"a": 10})
    lost = {e.target: e.lost for e in b.of(events, "AttacksResolved") if e.unit == "a"}
    assert lost == {"x": 6, "y": 4}


# --- the result (CR.BOOKKEEPING, CR.NO_MORE_FOES) ----------------------------------------


def test_cr_bookkeeping_wounds_add_up_and_the_other_bonuses_count_once_a_side(preset):
    x = b.unit("x", "blue", models=10, command=["standard"])
    a = b.against(x, b.unit("a", "red", models=25, command=["standard"]), "front")
    c = b.against(x, b.unit("c", "red", models=15, command=["standard"]), "left")
    g = b.game([x, a, c], phase="close_combat")
    events = b.fight(g)
    events += b.blows(g, {"a": 2, "c": 1})
    decided = b.one(events, "CombatResultDecided")
    red = decided.sides["red"]["parts"]
    by = {(p["rule"], p["unit"]): p["value"] for p in red}
    assert by[("CR.WOUNDS", "a")] == 2 and by[("CR.WOUNDS", "c")] == 1   # all wounds add up
    assert by[("CR.RANKS", "a")] == 3                  # the best unit's ranks only (5 ranks)
    assert [p["rule"] for p in red].count("CR.RANKS") == 1
    assert [p["rule"] for p in red].count("CR.STANDARD") == 1
    flank = 1 if preset == "fantasy-classic" else 2   # c has a full rank: +2 (fantasy8)
    assert by[("CR.FLANK", "c")] == flank
    from regiment.phases.fantasy.narrate import sentence
    text = sentence("CombatResultDecided", to_plain(decided), g.state)
    assert f"red {7 + flank} = A 6 (CR.WOUNDS +2, CR.RANKS +3, CR.STANDARD +1) + " \
        f"C {1 + flank} (CR.WOUNDS +1, CR.FLANK +{flank})" in text
    assert "CR.BOOKKEEPING" in text


def result_of(g):
    """Fight the waiting round, every die a 1 (nobody is hurt) and every split the first
    offered, up to the break tests."""
    events = b.fight(g) + b.answer(g, default=1, stop="break_test")
    while g.pending.kind == "decision" and g.pending.decision == "allocate":
        events += g.submit(g.pending.legal[0])
        events += b.answer(g, default=1, stop="break_test")
    return b.one(events, "CombatResultDecided")


def test_cr_ranks_the_s0_example_goblins_beside_trolls_give_their_side_two():
    """S0 p.57: goblins (+2 for ranks) fighting beside trolls (+1) give their side +2."""
    gob = b.unit("gob", "red", 34.0, 20.0, 180.0, models=15, files=5)
    trolls = b.unit("trolls", "red", 34.0 + W / 2 + 2.3622, 20.0, 180.0, models=6, files=3,
                    base=[40, 40], troop="monstrous_infantry", profile={"A": 3, "W": 3})
    dwarfs = b.unit("dwarfs", "blue", 36.0, 20.0, 0.0, models=30, files=10)
    g = b.game([gob, trolls, dwarfs], phase="close_combat")
    ranks = [p for p in result_of(g).sides["red"]["parts"] if p["rule"] == "CR.RANKS"]
    assert ranks == [{"rule": "CR.RANKS", "unit": "gob", "value": 2}]


def test_cr_flank_and_rear_the_s0_example_in_play_flank_and_rear_on_one_unit():
    """S0 p.59: two units fighting one enemy unit in its flank and its rear give +1 and +2."""
    orcs = b.unit("orcs", "red")
    flank = b.against(orcs, b.unit("f", "blue", models=4, files=4), "right")
    rear = b.against(orcs, b.unit("r", "blue", models=4, files=4), "rear")
    g = b.game([orcs, flank, rear], phase="close_combat")
    blue = {p["rule"]: (p["unit"], p["value"]) for p in result_of(g).sides["blue"]["parts"]}
    assert blue["CR.FLANK"] == ("f", 1) and blue["CR.REAR"] == ("r", 2)


def test_cr_flank_the_s0_example_in_play_two_units_in_the_flanks_of_two_units():
    """S0 p.59: two units fighting two different enemy units in their flanks: +1 for each."""
    o1 = b.unit("o1", "red", 36.0 - W / 2, 20.0)
    o2 = b.unit("o2", "red", 36.0 + W / 2, 20.0)
    front = b.unit("front", "blue", 36.0, 20.0, 180.0, files=10)
    d1 = b.against(o1, b.unit("d1", "blue", models=4, files=4), "left")
    d2 = b.against(o2, b.unit("d2", "blue", models=4, files=4), "right")
    g = b.game([o1, o2, front, d1, d2], phase="close_combat")
    assert len(g.state.combats) == 1                    # one combat, linked by the front unit
    flank = [(p["unit"], p["against"], p["value"]) for p in result_of(g).sides["blue"]["parts"]
             if p["rule"] == "CR.FLANK"]
    assert flank == [("d1", "o1", 1), ("d2", "o2", 1)]


def test_cr_no_more_foes_a_unit_that_destroys_its_foes_leaves_a_combat_that_goes_on():
    g = chain()
    events = b.fight(g) + b.blows(g, {"a": 10, "c": 10, "y": 10})
    decided = b.one(events, "CombatResultDecided")
    assert g.state.units["x"].status == "destroyed"
    assert decided.no_more_foes == ("a",)          # a's only foe is gone; c still fights y
    assert "a" not in decided.tests
    st = g.state
    assert st.units["a"].status == "ready" and "a" not in st.combats["0-a-x"].units
    red = {(p["rule"], p["unit"]) for p in decided.sides["red"]["parts"]}
    assert ("CR.WOUNDS", "a") in red               # its wounds still count for its side
    assert ("CR.RANKS", "a") not in red            # but not its ranks


# --- break tests (BT.WHO, BT.STEADFAST) -------------------------------------------------------


def two_against_one(**extra):
    """Blue ``x`` (25 models) fights red ``a`` in its front and red ``c`` in its flank, both
    small: blue wins when red rolls nothing."""
    x = b.unit("x", "blue", models=25, **extra)
    a = b.against(x, b.unit("a", "red", models=10), "front")
    c = b.against(x, b.unit("c", "red", models=10, files=5), "left")
    return b.game([x, a, c], phase="close_combat")


def blue_wins(g):
    """x wounds a three times and c twice; red does nothing: blue wins by plenty."""
    return b.blows(g, {"x": 5}, {"x": 5}, stop=None)


def test_bt_who_every_losing_unit_tests_in_the_order_its_player_chooses():
    g = two_against_one()
    b.fight(g)
    blue_wins(g)
    p = g.pending
    assert p.decision == "break_test_order" and p.player == "red"
    assert [c.unit for c in p.legal] == ["a", "c"]
    events = g.submit({"cmd": "break_test_order", "by": "red", "unit": "c"})
    assert b.one(events, "OrderChosen").unit == "c"
    assert g.pending.kind == "roll" and g.pending.unit == "c"
    g.submit(Roll(by="red", faces=(1, 1)))
    assert g.pending.kind == "roll" and g.pending.unit == "a"   # the last one goes by itself


def test_bt_steadfast_is_judged_unit_by_unit_against_the_enemies_it_faces():
    # a (6 ranks) outranks x (5) and is steadfast; c (2 ranks) is not, though its side has a
    x = b.unit("x", "blue", models=25)
    a = b.against(x, b.unit("a", "red", models=30), "front")
    c = b.against(x, b.unit("c", "red", models=10), "left")
    g = b.game([x, a, c], phase="close_combat")
    from regiment.phases.fantasy.result import steadfast
    st = g.state
    combat = st.combats["0-x-a"]
    assert steadfast(st, combat, "a")[0] is True
    assert steadfast(st, combat, "c")[0] is False


# --- flee and pursuit (FP.*) ------------------------------------------------------------------


def test_fp_choose_pursuit_a_target_the_unit_never_touched_is_refused():
    g = both_break()
    p = g.pending
    assert p.decision == "pursue" and {c.target for c in p.legal if c.name == "pursue"} == \
        {"a", "c"}
    before = g.state
    with pytest.raises(IllegalCommand) as info:
        g.submit({"cmd": "pursue", "by": "blue", "unit": "x", "target": "nobody"})
    assert info.value.rule == "FP.CHOOSE_PURSUIT" and g.state is before


def test_fp_choose_pursuit_a_unit_with_foes_still_fighting_may_not_pursue():
    g = two_against_one()
    b.fight(g)
    blue_wins(g)
    g.submit({"cmd": "break_test_order", "by": "red", "unit": "a"})
    b.answer(g, {"break_test": [(6, 6), (1, 1)]}, default=3)   # a breaks, c holds
    assert g.pending.decision != "pursue"                # x still fights c
    assert g.state.units["x"].status == "engaged"


def both_break():
    """Blue wins against a and c, and both break."""
    g = two_against_one()
    b.fight(g)
    blue_wins(g)
    g.submit({"cmd": "break_test_order", "by": "red", "unit": "a"})
    b.answer(g, {"break_test": [(6, 6), (6, 6)]})
    return g


def test_fp_multi_order_the_loser_orders_the_fleeing_and_the_winner_the_pursuing():
    g = both_break()
    g.submit({"cmd": "pursue", "by": "blue", "unit": "x", "target": "c"})
    b.answer(g, {"flee": [(6, 6), (6, 6)], "pursuit": [(1, 1)]})
    p = g.pending
    assert p.decision == "flee_order" and p.player == "red"
    assert [c.unit for c in p.legal] == ["a", "c"]
    events = g.submit({"cmd": "flee_order", "by": "red", "unit": "c"})
    moves = [e.unit for e in b.of(events, "UnitMoved") if e.reason["code"] == "flee"]
    assert moves[:2] == ["c", "a"]                      # c first, then the last by itself


def test_fp_caught_a_broken_unit_must_outroll_every_pursuer():
    g = both_break()
    g.submit({"cmd": "pursue", "by": "blue", "unit": "x", "target": "a"})
    events = b.answer(g, {"flee": [(4, 4), (1, 1)], "pursuit": [(4, 4)]})
    assert b.one(events, "UnitCaught").unit == "a"       # 8 against 8: caught
    assert g.state.units["c"].status == "fleeing"        # nobody pursued c


def goblins_broken_between(flank_models: int, dice: dict):
    """Goblins fought by spearmen in front (20) and on their right (``flank_models``) break;
    both spearmen hold back; the rolls that follow, from ``dice``."""
    gob = b.unit("g", "red", models=10)
    s1 = b.against(gob, b.unit("s1", "blue"), "front")
    s2 = b.against(gob, b.unit("s2", "blue", models=flank_models), "right")
    g = b.game([gob, s1, s2], phase="close_combat", first="red")
    b.fight(g)
    b.blows(g, {"s1": 4, "s2": 3})
    b.answer(g, {"break_test": [(6, 6)]})
    for uid in ("s1", "s2"):
        g.submit({"cmd": "restrain", "by": "blue", "unit": uid})
    return b.answer(g, {"restrain": [(1, 1), (1, 1)], "flee": [(3, 4)], **dice})


def fled_facing(events) -> float:
    return next(e for e in events if e.type == "UnitMoved" and e.reason["code"] == "flee").facing


def test_fp_flee_direction_the_most_numerous_of_enemies_equal_in_ranks():
    """S0 p.60: between enemies with as many ranks 5 wide, the unit flees from the most
    numerous (no die): s2 has 24 models to s1's 20, both four ranks of five."""
    events = goblins_broken_between(24, {})
    assert b.of(events, "FleeDirectionChosen") == []
    assert not any(e.type == "RollRequested" and e.purpose == "random_choice" for e in events)
    assert abs(fled_facing(events) - 270.0) < 10       # away from s2, on its right


def test_fp_flee_direction_a_die_chooses_between_enemies_equal_in_ranks():
    # goblins g fought by two equal spearmen units, front and flank: which to flee from?
    events = goblins_broken_between(20, {"random_choice": [(6,), (4,)]})
    chosen = b.one(events, "FleeDirectionChosen")
    assert chosen.among == ("s1", "s2") and chosen.away_from == "s2"   # 6 re-rolled, then 4
    assert abs(fled_facing(events) - 270.0) < 10       # away from s2, on its right


def test_fp_pursue_move_the_seed_example_goblins_flee_7_from_two_units_of_spearmen():
    """S0 p.60: goblins roll 7 and escape both units of spearmen. The Empire player moves the
    smaller unit first: it turns to the goblins and would reach them, so it stops 1" short.
    The bigger unit, next, would reach the smaller one: it stops 1" short of it."""
    gob = b.unit("g", "orcs", 36.0, 30.0, 0.0, models=35, files=5)
    big = b.against(gob, b.unit("big", "empire", models=30, files=5), "front")
    small = b.against(gob, b.unit("small", "empire", models=10, files=5), "right")
    g = b.game([gob, big, small], phase="close_combat", first="orcs",
               players=[{"id": "orcs"}, {"id": "empire"}])
    b.fight(g)
    b.blows(g, {"big": 4, "small": 2})
    b.answer(g, {"break_test": [(6, 6)]})
    g.submit({"cmd": "pursue", "by": "empire", "unit": "big", "target": "g"})
    g.submit({"cmd": "pursue", "by": "empire", "unit": "small", "target": "g"})
    b.answer(g, {"flee": [(3, 4)], "pursuit": [(3, 3), (3, 3)]})
    assert g.pending.decision == "pursuit_order" and g.pending.player == "empire"
    g.submit({"cmd": "pursuit_order", "by": "empire", "unit": "small"})
    st = g.state
    goblins, s, bg = (box(st.units[u]) for u in ("g", "small", "big"))
    assert st.units["g"].status == "fleeing"
    assert gap(s, goblins) == pytest.approx(1.0, abs=0.01)     # stopped 1" short
    assert gap(bg, s) == pytest.approx(1.0, abs=0.01)           # of the smaller unit
    assert gap(bg, goblins) >= 1.0 - 0.01


# --- reform with several foes (REF.*) ---------------------------------------------------------


def test_ref_contact_a_reform_that_loses_contact_with_one_of_two_foes_is_refused():
    g = seam()
    b.fight(g)
    g.submit(Allocate(by="red", unit="a", attacks={"x": 1, "y": 1}))
    b.answer(g, default=1)                             # a draw: nobody breaks
    b.reform_first(g, "red")
    p = g.pending
    assert p.decision == "reform" and p.legal[0].unit == "a"
    # wider, x and y would have more models in contact; narrower, a fewer
    offered = {c.files for c in p.legal if c.name == "reform"}
    assert offered == {4}
    before = g.state
    with pytest.raises(IllegalCommand) as info:
        g.submit({"cmd": "reform", "by": "red", "unit": "a", "files": 3})
    assert info.value.rule == "REF.CONTACT" and "instead of" in str(info.value)
    assert g.state is before


def test_cc_one_attacker_a_corner_model_fought_in_front_and_flank_attacks_once():
    """Issue 13 (the mill race, step 9): the Goblins, six wide and five deep, fight Dwarf
    Warriors in front and Empire Spearmen along their whole right flank. Every model attacks
    once: 6 front-rank models, 5 supporters behind them (the sixth, at the flank, fights the
    spearmen), and the flank models of ranks 2 to 5; the corner model is split as its player
    says, and the goblins make 15 attacks, not 17."""
    gob = b.unit("g", "blue", 36, 20, 0, models=30, files=6)
    dwarfs = b.against(gob, b.unit("d", "red", models=20, files=8))
    w = b.size(gob)
    spears = b.unit("s", "red", 36 + w[0] / 2, 20 - w[1] / 2, 270, models=20, files=5)
    g = b.game([gob, dwarfs, spears], phase="close_combat", first="blue")
    b.fight(g)
    while g.pending.kind == "decision" and g.pending.decision == "allocate":
        p = g.pending
        if p.player == "blue":
            assert {tuple(sorted(c.attacks)) for c in p.legal} == {("d", "s")}
            assert {sum(c.attacks.values()) for c in p.legal} == {1}   # one model, once
        g.submit(p.legal[0])
    step = next(e for e in reversed(g.timeline.events(len(g.timeline.steps) - 1))
                if e.type == "InitiativeStepBegan" and any(s["unit"] == "g" for s in e.strikes))
    mine = {s["target"]: s["attacks"] for s in step.strikes if s["unit"] == "g"}
    assert sum(mine.values()) == 6 + 5 + 4 and mine["s"] >= 4 and mine["d"] >= 10
