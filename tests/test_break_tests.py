"""Break tests (BT.*) and Leadership tests (LD.*)."""

from __future__ import annotations

import itertools

from regiment.phases.fantasy.result import ld_test

from . import battle as b


def test_ld_test_two_dice_at_most_leadership_capped_at_ten():
    assert ld_test(7, 0, (3, 4)) == (True, 7, False)
    assert ld_test(7, 0, (4, 4))[0] is False
    assert ld_test(12, 0, (5, 6)) == (False, 10, False)     # Ld never counts above 10
    assert ld_test(9, 3, (3, 3)) == (True, 6, False)


def test_ld_insane_double_one_always_passes():
    passed, need, insane = ld_test(7, 9, (1, 1))
    assert passed and need == -2 and insane
    assert ld_test(7, 0, (1, 1)) == (True, 7, False)       # passed anyway: not insane courage
    every = [f for f in itertools.product(range(1, 7), repeat=2) if ld_test(2, 10, f)[0]]
    assert every == [(1, 1)]


def lost_by(margin_wounds: int, a_extra=None, b_extra=None, side="front"):
    """Red loses a round by ``margin_wounds`` (both sides 30 strong: +3 ranks each)."""
    a = b.unit("a", "red", **{"models": 30, **(a_extra or {})})
    foe = b.against(a, b.unit("b", "blue", **{"models": 30, **(b_extra or {})}), side)
    g = b.game([a, foe], phase="close_combat")
    b.fight(g)
    b.answer(g, {"to_hit": [(1,) * 20, (6,) * margin_wounds],
                 "to_wound": [(6,) * margin_wounds]}, default=1, stop="break_test")
    return g


def test_bt_who_the_losing_side_tests():
    g = lost_by(3)
    assert g.pending.purpose == "break_test" and g.pending.unit == "a"


def test_bt_test_leadership_less_the_margin():
    """BT.TEST: 6 against 3 is a penalty of 3 ([S1])."""
    g = lost_by(3, {"profile": {"Ld": 8}})
    decided = [e for s in g.timeline.steps for e in s if e.type == "CombatResultDecided"][0]
    assert decided.margin == 3
    events = b.answer(g, {"break_test": [(3, 3)]}, stop="flee")
    test = b.one(events, "BreakTestTaken")
    assert (test.leadership, test.penalty, test.needs, test.passed) == (8, 3, 5, False)
    assert g.state.units["a"].status == "fleeing"


def test_bt_test_a_pass_stays_and_fights_on():
    g = lost_by(1, {"profile": {"Ld": 8}})
    events = b.answer(g, {"break_test": [(3, 3)]})
    assert b.one(events, "BreakTestTaken").passed
    assert g.state.units["a"].status == "engaged"


def test_bt_steadfast_more_full_ranks_ignores_the_penalty():
    g = lost_by(4, {"models": 30}, {"models": 10})   # 4 wounds against +2 more ranks
    test = b.one(b.answer(g, {"break_test": [(4, 3)]}, stop="flee"), "BreakTestTaken")
    assert test.steadfast and test.penalty == 0 and test.passed


def test_bt_disrupted_a_ranked_enemy_in_the_flank_denies_steadfast():
    g = lost_by(2, {"models": 40}, {"models": 10}, side="right")
    test = b.one(b.answer(g, {"break_test": [(4, 3)]}, stop="flee"), "BreakTestTaken")
    assert not test.steadfast and test.penalty > 0 and test.why["code"] == "disrupted"


def test_bt_special_stubborn_ignores_the_penalty_and_unbreakable_never_tests():
    g = lost_by(4, {"rules": ["stubborn"]})
    test = b.one(b.answer(g, {"break_test": [(4, 3)]}, stop="flee"), "BreakTestTaken")
    assert test.penalty == 0 and test.passed
    g = lost_by(4, {"rules": ["unbreakable"]})
    decided = [e for s in g.timeline.steps for e in s if e.type == "CombatResultDecided"][0]
    assert decided.tests == () and decided.unbreakable == ("a",)
    assert g.pending.kind == "decision"


def test_bt_special_insane_courage_holds_whatever_the_penalty():
    g = lost_by(9)
    test = b.one(b.answer(g, {"break_test": [(1, 1)]}), "BreakTestTaken")
    assert test.passed and test.insane and test.needs < 2


def test_bt_test_is_told_with_the_score_the_rule_and_its_page():
    from regiment.phases.fantasy.narrate import sentence

    data = {"unit": "spearmen", "leadership": 7, "penalty": 7, "steadfast": False,
            "faces": [3, 2], "passed": False, "needs": 0, "insane": False, "why": "",
            "result": [2, 9]}
    state = b.game([b.unit("spearmen", "blue", name="Empire Spearmen"),
                    b.unit("boyz", "red", 36, 40, 180)]).state
    assert sentence("BreakTestTaken", data, state) == (
        "Empire Spearmen break test: Ld 7 - 7 (lost 2 to 9; BT.TEST, S1 p.55) needs 0; "
        "rolled 3+2 = 5: they break.")
