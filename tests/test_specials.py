"""Special rules as declared effects (SPECIAL.EFFECTS): each rule of the fantasy game is one
declaration, and the log, the story and every language name it wherever it acted: the number
it changed (with its change), the test it spared and the choice it forced."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regiment.core.errors import IllegalCommand
from regiment.core.i18n import language
from regiment.tools.replay import narrate

from . import battle as b


def duel(a_extra=None, b_extra=None, side="front", **top):
    a = b.unit("a", "red", **(a_extra or {}))
    foe = b.against(a, b.unit("b", "blue", **(b_extra or {})), side)
    return b.game([a, foe], phase="close_combat", **top)


def told(g, rule, lang="en"):
    with language(lang):
        return [line for line in narrate(g, g.records) if rule in line]


def mine(events, unit="a"):
    return next(e for e in b.of(events, "AttacksResolved") if e.unit == unit)


def test_sr_frenzy_an_attack_more_a_model_named_in_the_log_and_the_story():
    """SR.FRENZY: +1 Attack: the five models of the front rank make five more attacks than
    they would (the supporting rank's one each is not a model's Attacks), and the group says
    so: Frenzy, +5, in both languages."""
    g = duel({"rules": ["frenzy"], "profile": {"I": 4}}, {"profile": {"I": 1}})
    b.fight(g)
    events = b.answer(g, default=1, stop="break_test")
    a = mine(events)
    assert a.attacks == 15   # 5 x (1 + 1) in front, 5 supporting
    assert a.needs["parts"] == [{"rule": "SR.FRENZY", "special": "frenzy", "of": "A",
                                 "change": 5}]
    assert "reroll_by" not in a.needs
    foe = mine(events, "b")
    assert foe.attacks == 10 and "parts" not in foe.needs
    lines = told(g, "SR.FRENZY")
    assert len(lines) == 1 and "Frenzy: +5 attacks" in lines[0]
    ru = told(g, "SR.FRENZY", "ru")
    assert len(ru) == 1 and "Бешенство" in ru[0]


def frenzied_winner():
    """Red's frenzied unit wins its combat and blue's unit breaks: red must pursue."""
    g = duel({"rules": ["frenzy"], "profile": {"I": 4}}, {"profile": {"I": 1, "Ld": 2}})
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 15], "to_wound": [(6,) * 15]}, default=1,
             stop="break_test")
    b.answer(g, {"break_test": [(6, 6)]}, stop="flee")
    return g


def test_sr_frenzy_must_pursue_no_restraint_offered_or_taken_and_the_log_says_why():
    g = frenzied_winner()
    p = g.pending
    assert p.kind == "decision" and p.decision == "pursue"
    assert {c.name for c in p.legal} == {"pursue"}
    before = g.state
    with pytest.raises(IllegalCommand) as info:
        g.submit({"cmd": "restrain", "by": "red", "unit": "a"})
    assert info.value.rule == "SR.FRENZY" and "must pursue (Frenzy)" in str(info.value)
    assert g.state == before
    events = g.submit(p.legal[0])
    declared = b.one(events, "PursuitDeclared")
    assert declared.forced == {"rule": "SR.FRENZY", "special": "frenzy"}
    lines = told(g, "SR.FRENZY")
    assert any("as Frenzy makes it" in line for line in lines)
    assert any("Бешенство" in line for line in told(g, "SR.FRENZY", "ru"))


def test_sr_frenzy_takes_no_panic_test_and_the_log_names_the_test_not_taken():
    """SR.FRENZY, PANIC.TRIGGERS: a friend breaking within 6" calls for a panic test: the
    unit without Frenzy takes it; the frenzied one is named as spared, with its rule."""
    a = b.unit("a", "red", models=30)
    foe = b.against(a, b.unit("b", "blue", profile={"Ld": 2}))
    near = b.unit("near", "blue", 44, 26, 180, models=10)
    wild = b.unit("wild", "blue", 28, 26, 180, models=10, rules=["frenzy"])
    g = b.game([a, foe, near, wild], phase="close_combat")
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 10, (1,) * 10], "to_wound": [(6, 6)]}, default=1,
             stop="break_test")
    events = b.answer(g, {"break_test": [(3, 4)], "panic": [(5, 5)], "flee": [(2, 2)]})
    caused = b.one(events, "PanicCaused")
    assert caused.units == ("near",)
    assert caused.spared == ({"unit": "wild", "rule": "SR.FRENZY", "special": "frenzy"},)
    assert [e.unit for e in b.of(events, "LeadershipTested")] == ["near"]
    assert g.state.units["wild"].status == "ready"
    line = next(x for x in told(g, "SR.FRENZY") if "Panic" in x)
    assert "Wild take no panic test (Frenzy)" in line   # a unit of many: plural


def test_sr_frenzy_may_not_flee_from_a_charge():
    g = b.game([b.unit("a", "red", 36, 10, 0),
                b.unit("x", "blue", 36, 20, 180, rules=["frenzy"])])
    g.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    reactions = {c.reaction for c in g.pending.legal}
    assert "flee" not in reactions and "hold" in reactions
    with pytest.raises(IllegalCommand) as info:
        g.submit({"cmd": "react", "by": "blue", "unit": "x", "reaction": "flee"})
    assert info.value.rule == "SR.FRENZY" and "may not flee (Frenzy)" in str(info.value)


def test_sr_itp_an_older_game_names_nothing_it_did_not_before():
    """SPECIAL.EFFECTS, LOG.RULINGS: a game begun under engine 0.13.0 leaves the immune unit
    out of its PanicCaused, as that engine wrote it; from 0.14.0 the log names it."""
    def play(engine):
        a = b.unit("a", "red", models=30)
        foe = b.against(a, b.unit("b", "blue", profile={"Ld": 2}))
        calm = b.unit("calm", "blue", 44, 26, 180, models=10, rules=["immune_to_psychology"])
        g = (b.old_game([a, foe, calm], engine, phase="close_combat") if engine
             else b.game([a, foe, calm], phase="close_combat"))
        b.fight(g)
        b.answer(g, {"to_hit": [(6,) * 10, (1,) * 10], "to_wound": [(6, 6)]}, default=1,
                 stop="break_test")
        return b.answer(g, {"break_test": [(3, 4)], "flee": [(2, 2)]})

    assert not b.of(play("0.13.0"), "PanicCaused")
    caused = b.one(play(None), "PanicCaused")
    assert caused.units == () and caused.spared == (
        {"unit": "calm", "rule": "SR.ITP", "special": "immune_to_psychology"},)


def parts_of(e):
    return {(p["special"], p.get("of"), p.get("change", 0)) for p in e.needs.get("parts", ())}


def test_sr_devastating_charge_an_attack_more_only_in_the_turn_it_charged():
    charged = duel({"rules": ["devastating_charge"], "charged": True, "profile": {"I": 4}},
                   {"profile": {"I": 1}})
    b.fight(charged)
    a = mine(b.answer(charged, default=1, stop="break_test"))
    assert a.attacks == 15 and parts_of(a) == {("devastating_charge", "A", 5)}
    still = duel({"rules": ["devastating_charge"], "profile": {"I": 4}}, {"profile": {"I": 1}})
    b.fight(still)
    a = mine(b.answer(still, default=1, stop="break_test"))
    assert a.attacks == 10 and "parts" not in a.needs


def test_sr_poisoned_a_six_to_hit_wounds_without_a_roll():
    """SR.POISONED: 10 attacks, three 6s and two 4s to hit: the 6s wound at once, only the
    two 4s roll to wound (both fail on 1s): three wounds, no save."""
    g = duel({"rules": ["poisoned_attacks"], "profile": {"I": 4}}, {"profile": {"I": 1}})
    b.fight(g)
    assert g.pending.purpose == "to_hit" and g.pending.dice == 10
    b.answer(g, {"to_hit": [(6, 6, 6, 4, 4, 1, 1, 1, 1, 1)]}, stop="to_wound")
    assert g.pending.purpose == "to_wound" and g.pending.dice == 2
    a = mine(b.answer(g, {"to_wound": [(1, 1)]}, default=1, stop="break_test"))
    assert (a.hits, a.wounds, a.unsaved) == (5, 3, 3)
    assert parts_of(a) == {("poisoned_attacks", "to_hit", 0)}
    assert any("Poisoned Attacks: each 6 to hit wounds" in x for x in told(g, "SR.POISONED"))


def test_sr_killing_blow_a_six_to_wound_slays_with_no_armour_save():
    """SR.KILLING_BLOW: four wounds, two of them 6s: the armour (4+) is rolled for the other
    two only; the two killing blows each take a model of two Wounds whole."""
    g = duel({"rules": ["killing_blow"], "profile": {"I": 4}},
             {"profile": {"I": 1, "W": 2}, "armour": 4})
    b.fight(g)
    b.answer(g, {"to_hit": [(4, 4, 4, 4, 1, 1, 1, 1, 1, 1)], "to_wound": [(6, 6, 4, 4)]},
             stop="armour")
    assert g.pending.purpose == "armour" and g.pending.dice == 2
    a = mine(b.answer(g, {"armour": [(1, 1)]}, default=1, stop="break_test"))
    assert (a.wounds, a.saved, a.unsaved) == (4, 0, 2 + 2 * 2)
    assert a.slain == 3
    assert parts_of(a) == {("killing_blow", "to_wound", 0)}


def test_sr_killing_blow_not_against_a_monster_and_a_ward_still_saves():
    g = duel({"rules": ["killing_blow"], "profile": {"I": 4}},
             {"troop": "monstrous_infantry", "profile": {"I": 1, "W": 3}, "armour": 4})
    b.fight(g)
    a = mine(b.answer(g, default=6, stop="break_test"))
    assert "parts" not in a.needs
    g = duel({"rules": ["killing_blow"], "profile": {"I": 4}}, {"profile": {"I": 1}, "ward": 5})
    b.fight(g)
    b.answer(g, {"to_hit": [(4,) * 2 + (1,) * 8], "to_wound": [(6, 6)]}, stop="ward")
    assert g.pending.purpose == "ward" and g.pending.dice == 2
    a = mine(b.answer(g, {"ward": [(5, 1)]}, default=1, stop="break_test"))
    assert (a.saved, a.unsaved) == (1, 1)


def test_sr_armour_piercing_worsens_the_save_by_one_more():
    g = duel({"rules": ["armour_piercing"], "profile": {"I": 4}},
             {"profile": {"I": 1}, "armour": 4})
    b.fight(g)
    a = mine(b.answer(g, default=4, stop="break_test"))
    assert a.needs["armour"] == 5 and parts_of(a) == {("armour_piercing", "armour", 1)}
    assert any("the armour save 1 worse" in x for x in told(g, "SR.ARMOUR_PIERCING"))


def test_sr_scaly_skin_an_armour_save_that_worn_armour_improves():
    """SR.SCALY_SKIN: Scaly Skin 5+ and a roster save of 6+ (one step of armour): 4+."""
    g = duel({"profile": {"I": 4}},
             {"profile": {"I": 1}, "armour": 6, "rules": ["scaly_skin 5+"]})
    b.fight(g)
    a = mine(b.answer(g, default=4, stop="break_test"))
    assert a.needs["armour"] == 4 and parts_of(a) == {("scaly_skin", "armour", -2)}
    bare = duel({"profile": {"I": 4}}, {"profile": {"I": 1}, "rules": ["scaly_skin 5+"]})
    b.fight(bare)
    assert mine(b.answer(bare, default=4, stop="break_test")).needs["armour"] == 5


def test_sr_regeneration_a_save_of_its_own_that_flaming_attacks_undo():
    g = duel({"profile": {"I": 4}}, {"profile": {"I": 1}, "rules": ["regeneration"]})
    b.fight(g)
    a = mine(b.answer(g, default=4, stop="break_test"))
    assert a.needs["ward"] == 4 and parts_of(a) == {("regeneration", "ward", 0)}
    assert any("Regeneration: a 4+ save of its own" in x for x in told(g, "SR.REGENERATION"))
    assert any("Регенерация" in x for x in told(g, "SR.REGENERATION", "ru"))


def test_sr_flaming_no_regeneration_against_its_wounds():
    g = duel({"rules": ["flaming_attacks"], "profile": {"I": 4}},
             {"profile": {"I": 1}, "rules": ["regeneration 3+"]})
    b.fight(g)
    a = mine(b.answer(g, default=4, stop="break_test"))
    assert a.needs["ward"] == 0 and parts_of(a) == {("flaming_attacks", "ward", 0)}
    assert any("Flaming Attacks: no regeneration save" in x for x in told(g, "SR.FLAMING"))


def test_sr_multiple_wounds_each_unsaved_wound_becomes_a_die_of_wounds():
    """SR.MULTIPLE_WOUNDS: D3 against models of 3 Wounds: two unsaved wounds, D3 each
    (a 6: three, a 2: one): four wounds, a model slain and one wounded."""
    g = duel({"rules": ["multiple_wounds D3"], "profile": {"I": 4}},
             {"profile": {"I": 1, "W": 3}})
    b.fight(g)
    b.answer(g, {"to_hit": [(4, 4) + (1,) * 8], "to_wound": [(4, 4)]}, stop="multiple_wounds")
    assert g.pending.purpose == "multiple_wounds" and g.pending.dice == 2
    a = mine(b.answer(g, {"multiple_wounds": [(6, 2)]}, default=1, stop="break_test"))
    assert (a.unsaved, a.slain) == (4, 1)
    assert g.state.units["b"].wounded == 1
    assert any("each unsaved wound becomes D3" in x for x in told(g, "SR.MULTIPLE_WOUNDS"))


def test_sr_multiple_wounds_no_more_than_the_models_wounds():
    g = duel({"rules": ["multiple_wounds 6"], "profile": {"I": 4}},
             {"profile": {"I": 1, "W": 2}})
    b.fight(g)
    a = mine(b.answer(g, {"to_hit": [(4,) + (1,) * 9], "to_wound": [(4,)]}, default=1,
                      stop="break_test"))
    assert a.unsaved == 2


def test_sr_itp_may_not_flee_and_takes_no_panic_test():
    g = b.game([b.unit("a", "red", 36, 10, 0),
                b.unit("x", "blue", 36, 20, 180, rules=["immune_to_psychology"])])
    g.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    assert "flee" not in {c.reaction for c in g.pending.legal}


@pytest.mark.parametrize("bad", ["frenzy 2", "scaly_skin 9+", "multiple_wounds D4", "frenzzy"])
def test_special_registry_a_value_a_rule_does_not_take_is_refused(bad):
    from regiment.core.errors import InvalidScenario

    with pytest.raises(InvalidScenario) as info:
        b.game([b.unit("a", "red", rules=[bad]), b.unit("x", "blue", 36, 40, 180)])
    assert "units[0].rules[0]" in str(info.value)


def test_special_effects_every_common_rule_is_one_declaration_with_its_sentence():
    """SPECIAL.EFFECTS: each special rule declares its effects, each effect's rule ID is in
    the rule reference, and the name the story gives it has Russian words."""
    from pathlib import Path

    from regiment.core.i18n import tr
    from regiment.phases.fantasy.specials import SPECIALS

    reference = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    for s in SPECIALS.values():
        if s.kind != "rule" or s.name in ("character", "swiftstride"):
            continue
        assert s.effects, s.name
        for e in s.effects:
            assert f"**{e.rule}**" in reference, (s.name, e.rule)
        with language("ru"):
            assert tr(s.told) != s.told, s.name


def test_special_effects_odds_count_poison_and_killing_blow_and_name_them(capsys):
    """SR.POISONED, SR.KILLING_BLOW: `regiment odds attacks` takes the rules from the
    catalogue's profiles, counts what they do and names them."""
    from fractions import Fraction

    from regiment.phases.fantasy.odds import unsaved_chance
    from regiment.tools.cli import main

    # a 6 to hit (1/6) wounds; the other hits (1/3) wound on 5+ (1/3)
    assert unsaved_chance(4, 5, poison=True) == Fraction(1, 6) + Fraction(1, 3) * Fraction(1, 3)
    # 3+ and 3+: 1/9 are killing blows (no armour), the other 1/3 face the 4+ armour
    assert unsaved_chance(3, 3, 4, killing=True) == Fraction(1, 9) + Fraction(1, 3) / 2
    assert main(["odds", "attacks", "10", "--attacker", "ghouls", "--target", "orc_boyz"]) == 0
    out = capsys.readouterr().out
    assert "Poisoned Attacks: each 6 to hit wounds" in out and "SR.POISONED" in out


def test_sr_fear_a_failed_test_fights_at_weapon_skill_one_this_round():
    """SR.FEAR: at the start of the round the unit touching a frightening enemy tests (the
    frightening one does not); failed, it hits on 5+ (WS 1 against 3) and is hit on 3+, and
    both groups name Fear."""
    g = duel({"profile": {"I": 4}}, {"profile": {"I": 1}, "rules": ["fear"]})
    g.submit(next(c for c in g.pending.legal if c.name == "fight"))
    p = g.pending
    assert (p.kind, p.purpose, p.unit) == ("roll", "fear", "a")
    events = b.answer(g, {"fear": [(6, 6)]}, default=1, stop="break_test")
    test = b.one(events, "LeadershipTested")
    assert test.purpose == "fear" and not test.passed
    a, foe = mine(events), mine(events, "b")
    assert a.needs["hit"] == 5 and foe.needs["hit"] == 3
    assert parts_of(a) == {("fear", "WS", -2)} and parts_of(foe) == {("fear", "foe_WS", -2)}
    lines = told(g, "SR.FEAR")
    assert any("fear test" in x and "failed" in x for x in lines)
    assert any("Fear: Weapon Skill 1 this round" in x for x in lines)


def test_sr_fear_passed_fights_as_ever_and_the_immune_take_no_test():
    g = duel({"profile": {"I": 4}}, {"profile": {"I": 1}, "rules": ["fear"]})
    b.fight(g)
    events = b.answer(g, {"fear": [(2, 2)]}, default=1, stop="break_test")
    assert mine(events).needs["hit"] == 4 and "parts" not in mine(events).needs
    for immune in ("fear", "terror", "immune_to_psychology", "frenzy"):
        g = duel({"profile": {"I": 4}, "rules": [immune]}, {"profile": {"I": 1},
                                                           "rules": ["fear"]})
        b.fight(g)
        assert g.pending.kind != "roll" or g.pending.purpose != "fear", immune


def test_sr_terror_a_charged_unit_tests_first_and_a_failure_may_only_flee():
    g = b.game([b.unit("a", "red", 36, 10, 0, rules=["terror"]),
                b.unit("x", "blue", 36, 20, 180)])
    g.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    assert (g.pending.kind, g.pending.purpose, g.pending.unit) == ("roll", "terror", "x")
    events = b.answer(g, {"terror": [(6, 6)]})
    assert not b.one(events, "LeadershipTested").passed
    assert {c.reaction for c in g.pending.legal} == {"flee"}
    with pytest.raises(IllegalCommand):
        g.submit({"cmd": "react", "by": "blue", "unit": "x", "reaction": "hold"})
    assert any("terror test" in x for x in told(g, "SR.TERROR"))
    passed = b.game([b.unit("a", "red", 36, 10, 0, rules=["terror"]),
                     b.unit("x", "blue", 36, 20, 180)])
    passed.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    b.answer(passed, {"terror": [(2, 2)]})
    assert "hold" in {c.reaction for c in passed.pending.legal}


# every rule a scenario may give, with a value where it takes one
ANY_RULE = ["frenzy", "hatred", "fear", "terror", "stubborn", "unbreakable",
            "immune_to_psychology", "always_strikes_first", "always_strikes_last",
            "killing_blow", "poisoned_attacks", "armour_piercing", "regeneration 5+",
            "flaming_attacks", "devastating_charge", "scaly_skin 5+", "multiple_wounds D3",
            "multiple_wounds 2"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(20, 150),
       picks=st.lists(st.sets(st.sampled_from(ANY_RULE), max_size=3), min_size=6, max_size=6),
       scenario=st.sampled_from(["close", "melee"]))
def test_special_effects_games_with_any_rules_replay_undo_and_verify(seed, steps, picks,
                                                                     scenario):
    """SPECIAL.EFFECTS: random play of a battle whose units have random special rules:
    replay equals live play, undo then redo is the identity, and `verify` re-derives it."""
    import copy
    import random

    from regiment.core.game import Game
    from regiment.core.scenario import parse_scenario
    from regiment.store import MemoryStore
    from regiment.tools.verify import verify

    from .conftest import SCENARIOS, random_play, undo_then_redo_is_the_identity

    data = copy.deepcopy(SCENARIOS[scenario]())
    for u, rules in zip(data["units"], picks, strict=False):
        u["rules"] = sorted({*u.get("rules", ()), *rules})
    game = Game.new(parse_scenario(data), store=MemoryStore())
    rng = random.Random(seed)
    random_play(game, rng, steps, 0.2)
    assert Game.load(game.game_id, game.store).state == game.state
    assert verify(game.records).steps == len(game.timeline.steps)
    undo_then_redo_is_the_identity(game)


def test_special_effects_a_weapons_strength_is_named_from_engine_0_14_0():
    """ATK.TO_WOUND, SPECIAL.EFFECTS: a great weapon's +2 Strength is a part of the group it
    strikes with (4+ to wound becomes 2+), named in the story; a game begun under 0.13.0
    keeps the group as that engine wrote it."""
    g = duel({"equipment": ["great_weapon"], "profile": {"I": 4}}, {"profile": {"I": 1}})
    b.fight(g)
    a = mine(b.answer(g, default=1, stop="break_test"))
    assert a.needs["wound"] == 2 and parts_of(a) == {("great_weapon", "S", 2)}
    assert any("great weapons: +2 Strength" in x for x in told(g, "ATK.TO_WOUND"))
    assert any("Сила +2" in x for x in told(g, "ATK.TO_WOUND", "ru"))
    old = b.old_game([b.unit("a", "red", equipment=["great_weapon"], profile={"I": 4}),
                      b.against(b.unit("a", "red"), b.unit("b", "blue", profile={"I": 1}))],
                     "0.13.0", phase="close_combat")
    b.fight(old)
    a = mine(b.answer(old, default=1, stop="break_test"))
    assert a.needs["wound"] == 2 and "parts" not in a.needs
