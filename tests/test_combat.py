"""Close combat (CC.*): the order of combats, initiative steps, who fights, challenges."""

from __future__ import annotations

import pytest

from regiment.core.errors import IllegalCommand
from regiment.phases.fantasy.close_combat import combat, strikes
from regiment.phases.fantasy.state import NO_FIGHT

from . import battle as b


def steps_of(events):
    return [(e.step, e.unit, e.attacks) for e in b.of(events, "AttacksResolved")]


def duel(a_extra=None, b_extra=None, side="front", **top):
    a = b.unit("a", "red", **(a_extra or {}))
    foe = b.against(a, b.unit("b", "blue", **(b_extra or {})), side)
    return b.game([a, foe], phase="close_combat", **top)


def test_cc_order_the_active_player_fights_each_combat_then_may_end_the_phase():
    a = b.unit("a", "red", 20, 20)
    c = b.unit("c", "red", 50, 20)
    g = b.game([a, b.against(a, b.unit("x", "blue")), c, b.against(c, b.unit("y", "blue"))],
               phase="close_combat")
    assert {x.combat for x in g.pending.legal} == {"0-a-x", "0-c-y"}
    with pytest.raises(IllegalCommand) as info:
        g.submit({"cmd": "end_phase", "by": "red"})
    assert info.value.rule in ("CC.ORDER", "TURN.ORDER")
    b.fight(g, "0-c-y")
    b.finish(g)
    assert [x.combat for x in g.pending.legal if x.name == "fight"] == ["0-a-x"]


def test_cc_initiative_higher_strikes_first_and_casualties_cannot_strike_back():
    g = duel({"profile": {"I": 5, "S": 6}}, {"profile": {"I": 2}, "models": 5})
    events = b.fight(g)
    events += b.answer(g, default=6, stop="break_test")
    resolved = b.of(events, "AttacksResolved")
    assert [(e.step, e.unit) for e in resolved] == [("initiative_5", "a")]
    assert g.state.units["b"].status == "destroyed"   # no step 2 for the dead


def test_cc_initiative_same_step_strikes_simultaneously():
    g = duel()
    events = b.fight(g)
    events += b.answer(g, default=6, stop="break_test")
    resolved = b.of(events, "AttacksResolved")
    assert {e.step for e in resolved} == {"initiative_3"}
    assert {e.unit for e in resolved} == {"a", "b"}
    assert all(e.attacks == 10 for e in resolved)    # both struck with all they had


def test_cc_initiative_always_strikes_last_after_every_unit_without_it():
    """CC.INITIATIVE: Always Strikes Last (a `Strikes` effect) strikes after a unit of lower
    Initiative; with Always Strikes First too, the two cancel and Initiative decides."""
    g = duel({"profile": {"I": 6}, "rules": ["always_strikes_last"]}, {"profile": {"I": 1}})
    events = b.fight(g) + b.answer(g, default=1, stop="break_test")
    assert [e.step for e in b.of(events, "AttacksResolved")] == ["initiative_1", "asl_6"]
    both = duel({"profile": {"I": 6}, "rules": ["always_strikes_last", "always_strikes_first"]},
                {"profile": {"I": 1}})
    events = b.fight(both) + b.answer(both, default=1, stop="break_test")
    assert [e.step for e in b.of(events, "AttacksResolved")] == ["initiative_6",
                                                                "initiative_1"]


def test_cc_initiative_great_weapons_strike_last():
    g = duel({"profile": {"I": 6}, "equipment": ["great_weapon"]}, {"profile": {"I": 1}})
    events = b.fight(g)
    events += b.answer(g, default=1, stop="break_test")
    assert [e.step for e in b.of(events, "AttacksResolved")] == ["initiative_1",
                                                                "asl_6"]


def test_cc_asf_strikes_first_and_rerolls_misses():
    g = duel({"profile": {"I": 2}, "rules": ["always_strikes_first"]}, {"profile": {"I": 2}})
    b.fight(g)
    assert g.pending.unit == "a" and g.pending.purpose == "to_hit"
    events = b.answer(g, {"to_hit": [(1, 2, 3, 4, 4, 4, 4, 4, 4, 4), (4, 4, 1)]},
                      default=1, stop="break_test")
    first = b.of(events, "AttacksResolved")[0]
    assert first.step == "asf_2" and first.needs["reroll"]
    assert first.hits == 7 + 2


def test_cc_hatred_rerolls_misses_in_the_first_round_and_the_log_names_the_rule():
    """CC.HATRED: the misses are rolled again in the combat's first round; the log says which
    rule granted it, and the story names it in both languages."""
    from regiment.core.i18n import language
    from regiment.tools.replay import narrate

    g = duel({"profile": {"I": 3}, "rules": ["hatred"]}, {"profile": {"I": 1}})
    b.fight(g)
    events = b.answer(g, {"to_hit": [(1, 2, 3, 4, 4, 4, 4, 4, 4, 4), (4, 4, 1)]},
                      default=1, stop="break_test")
    mine = next(e for e in b.of(events, "AttacksResolved") if e.unit == "a")
    assert mine.needs["reroll"] and mine.needs["reroll_by"] == "CC.HATRED"
    assert mine.hits == 7 + 2
    theirs = next(e for e in b.of(events, "AttacksResolved") if e.unit == "b")
    assert not theirs.needs["reroll"] and "reroll_by" not in theirs.needs
    told = [line for line in narrate(g, g.records) if "CC.HATRED" in line]
    assert len(told) == 1 and "re-rolling misses (Hatred)" in told[0]
    with language("ru"):
        told = [line for line in narrate(g, g.records) if "CC.HATRED" in line]
    assert len(told) == 1 and "Ненависть" in told[0]


def test_cc_hatred_only_in_the_first_round():
    from regiment.phases.fantasy.effects import Ask, reroll

    g = duel({"rules": ["hatred"]})
    a, foe = g.state.units["a"], g.state.units["b"]
    assert reroll(a, "to_hit", Ask(a, foe, 1)).rule == "CC.HATRED"
    assert reroll(a, "to_hit", Ask(a, foe, 2)) is None
    assert reroll(foe, "to_hit", Ask(foe, a, 1)) is None


@pytest.mark.parametrize("name", ["always_strikes_first", "hatred"])
def test_special_registry_a_rerolls_declaration_gives_its_reason_and_sentence(name):
    """SPECIAL.REGISTRY, SPECIAL.EFFECTS: a special rule that grants re-rolls is its
    declaration, a ``Reroll`` effect among them; played, the log's reason is the rule it
    declared, and the story names it by the declaration's own name, translated."""
    from regiment.core.i18n import language, tr
    from regiment.phases.fantasy import specials
    from regiment.phases.fantasy.effects import Reroll
    from regiment.tools.replay import narrate

    special = specials.SPECIALS[name]
    rule = next(e.rule for e in special.effects if isinstance(e, Reroll))
    assert rule in special.rules
    g = duel({"profile": {"I": 3}, "rules": [name]}, {"profile": {"I": 3}})
    b.fight(g)
    events = b.answer(g, default=4, stop="break_test")
    assert {e.needs.get("reroll_by") for e in b.of(events, "AttacksResolved")
            if e.unit == "a"} == {rule}
    for lang in ("en", "ru"):
        with language(lang):
            lines = [line for line in narrate(g, g.records) if rule in line]
            assert lines and tr(special.told) in lines[0], (lang, lines)
    with language("ru"):
        assert tr(special.told) != special.told, "no Russian for " + special.told


def test_cc_asf_no_reroll_against_higher_initiative():
    g = duel({"profile": {"I": 2}, "rules": ["always_strikes_first"]}, {"profile": {"I": 5}})
    b.fight(g)
    events = b.answer(g, default=1, stop="break_test")
    assert not b.of(events, "AttacksResolved")[0].needs["reroll"]


def test_cc_who_fights_front_rank_and_one_supporting_rank():
    g = duel({"profile": {"A": 2}})
    state = g.state
    fight = NO_FIGHT
    groups = strikes.strikes(state, state.combats["0-a-b"], "initiative_3", fight)
    a = next(x for x in groups if x["unit"] == "a")
    assert a["attacks"] == 5 * 2 + 5        # the second rank supports with one attack each


def test_cc_who_fights_a_unit_fought_in_the_flank_gets_no_support():
    g = duel(side="right")
    state = g.state
    groups = strikes.strikes(state, state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    a = next(x for x in groups if x["unit"] == "a")
    # a's right flank is 4 ranks deep: 4 models touch, none support; b fights to its front
    assert a["attacks"] == 4
    assert next(x for x in groups if x["unit"] == "b")["attacks"] > 4


def test_cc_who_fights_hordes_and_spears_add_ranks():
    horde = duel({"models": 30, "files": 10}, {"models": 30, "files": 10})
    groups = strikes.strikes(horde.state, horde.state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    assert next(x for x in groups if x["unit"] == "a")["attacks"] == 10 + 10 + 10
    spears = duel({"equipment": ["spear"], "models": 25})
    groups = strikes.strikes(spears.state, spears.state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    assert next(x for x in groups if x["unit"] == "a")["attacks"] == 5 + 5 + 5
    charged = duel({"equipment": ["spear"], "models": 25, "charged": True})
    groups = strikes.strikes(charged.state, charged.state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    assert next(x for x in groups if x["unit"] == "a")["attacks"] == 10   # not when charging


def test_cc_who_fights_monstrous_infantry_support_with_up_to_three():
    g = duel({"troop": "monstrous_infantry", "models": 6, "files": 3, "base": [40, 40],
              "profile": {"A": 3}})
    groups = strikes.strikes(g.state, g.state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    assert next(x for x in groups if x["unit"] == "a")["attacks"] == 3 * 3 + 3 * 3


def test_cc_who_fights_a_champion_has_one_more_attack():
    g = duel({"command": ["champion"]})
    groups = strikes.strikes(g.state, g.state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    assert next(x for x in groups if x["unit"] == "a")["attacks"] == 5 + 1 + 5


def challenge_game():
    """The CR.OVERKILL example: a Vampire Lord fights Empire Swordsmen with a champion."""
    lord = b.unit("lord", "red", catalogue="vampire_lord")
    swords = b.against(lord, b.unit("swords", "blue", catalogue="empire_swordsmen",
                                    models=15, command=["champion"]))
    return b.game([lord, swords], phase="close_combat")


def test_cc_challenge_fighters_attack_only_each_other():
    g = challenge_game()
    g.submit({"cmd": "fight", "by": "red", "combat": "0-lord-swords"})
    assert g.pending.decision == "challenge"
    g.submit({"cmd": "challenge", "by": "red", "unit": "lord"})
    assert {c.name for c in g.pending.legal} == {"accept_challenge", "refuse_challenge"}
    g.submit({"cmd": "accept_challenge", "by": "blue", "unit": "swords"})
    assert g.state.fight.duel == {"lord": "swords", "swords": "lord"}
    events = b.answer(g, default=1, stop="break_test")
    groups = b.of(events, "AttacksResolved")
    lord = [e for e in groups if e.unit == "lord"]
    assert [(e.challenge, e.attacks) for e in lord] == [(True, 4)]   # all at the champion
    champ = [e for e in groups if e.unit == "swords" and e.challenge]
    assert champ and champ[0].attacks == 2


def test_cc_challenge_no_other_model_attacks_a_lone_fighter_in_a_challenge():
    """CC.CHALLENGE (0.13.0): the lord fights the champion; the swordsmen's rank and file
    touching the lord make no attack at him (in 0.12.0 they did, and wounded him)."""
    def played(g):
        g.submit({"cmd": "fight", "by": "red", "combat": "0-lord-swords"})
        g.submit({"cmd": "challenge", "by": "red", "unit": "lord"})
        g.submit({"cmd": "accept_challenge", "by": "blue", "unit": "swords"})
        return b.of(b.answer(g, default=1, stop="break_test"), "AttacksResolved")

    at_lord = [(e.challenge, e.attacks) for e in played(challenge_game())
               if e.target == "lord"]
    assert at_lord == [(True, 2)]                       # the champion's, and nothing else
    lord = b.unit("lord", "red", catalogue="vampire_lord")
    swords = b.against(lord, b.unit("swords", "blue", catalogue="empire_swordsmen",
                                    models=15, command=["champion"]))
    old = b.old_game([lord, swords], engine="0.12.0", phase="close_combat")
    assert [e for e in played(old) if e.target == "lord" and not e.challenge]


def test_cc_challenge_refused_the_fighter_stands_back():
    g = challenge_game()
    g.submit({"cmd": "fight", "by": "red", "combat": "0-lord-swords"})
    g.submit({"cmd": "challenge", "by": "red", "unit": "lord"})
    g.submit({"cmd": "refuse_challenge", "by": "blue", "unit": "swords"})
    groups = strikes.strikes(g.state, g.state.combats["0-lord-swords"], "initiative_4",
                            g.state.fight)
    swords = next(x for x in groups if x["unit"] == "swords")
    # the lord's base touches 2 swordsmen's; the champion among them stands back
    touching = combat.models_in_contact(g.state.units["swords"], g.state.units["lord"])[0]
    assert swords["attacks"] == (touching - 1) + touching


def test_cc_challenge_only_with_a_fighter_on_each_side():
    g = duel()
    events = b.fight(g)
    assert not b.of(events, "ChallengeIssued")
    assert g.pending.kind == "roll"


def test_cc_who_fights_lances_on_the_charge_and_an_additional_hand_weapon():
    from regiment.phases.fantasy.units import strength

    knights = duel({"troop": "cavalry", "equipment": ["lance"], "charged": True,
                    "models": 5, "base": [25, 50]})
    assert strength(knights.state.units["a"]) == 5
    assert strength(knights.state.units["a"].evolve(charged=False)) == 3
    g = duel({"equipment": ["additional_hand_weapon"]})
    groups = strikes.strikes(g.state, g.state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    assert next(x for x in groups if x["unit"] == "a")["attacks"] == 5 * 2 + 5


def test_cc_who_fights_no_champion_bonus_when_fought_in_the_flank():
    g = duel({"command": ["champion"]}, side="right")
    groups = strikes.strikes(g.state, g.state.combats["0-a-b"], "initiative_3",
                            NO_FIGHT)
    assert next(x for x in groups if x["unit"] == "a")["attacks"] == 4


def test_cc_close_up_level_after_level_and_never_onto_a_unit():
    """CC.CLOSE_UP: X loses two ranks to the unit in its front and the one in its rear; the
    rear attacker R moves up with X's rear edge, and Y, which fought R from behind and so lost
    contact, moves up after R. Before engine 0.5.0, Y stayed where it was (LOG.RULINGS)."""
    from regiment.core import geometry as geo
    from regiment.phases.fantasy.state import fantasy
    from regiment.phases.fantasy.units import box

    from . import battle as b

    x = b.unit("x", "blue", 36, 20, 0)
    f = b.against(x, b.unit("f", "red"), "front")
    r = b.against(x, b.unit("r", "red", facing=0), "rear")
    y = b.against(r, b.unit("y", "blue"), "rear")
    g = b.game([x, f, r, y], phase="close_combat", first="red")
    b.fight(g)
    events = b.blows(g, {"f": 5, "r": 5})
    ups = {e.unit: e.distance for e in events
           if e.type == "UnitMoved" and e.reason["code"] == "close_up"}
    lost = 20 - g.state.units["x"].models
    assert lost == 10 and set(ups) == {"r", "y"}
    assert ups["r"] == pytest.approx(2 * 20 / 25.4, abs=1e-3) == ups["y"]
    st = fantasy(g.state)
    assert geo.contact(box(st.units["x"]), box(st.units["r"])) is not None
    assert geo.contact(box(st.units["r"]), box(st.units["y"])) is not None
    units = [box(u) for u in st.units.values()]
    assert not any(geo.stands_on(p, q) for i, p in enumerate(units) for q in units[i + 1:])


CHARIOT = {"models": 1, "files": 1, "base": [50, 100], "troop": "chariot",
           "impact_hits": "D6", "profile": {"S": 5, "I": 2}}
GIANT = {"models": 1, "files": 1, "base": [50, 50], "troop": "monster", "stomp": "D6",
         "profile": {"S": 6, "I": 3}}


def test_atk_impact_a_chariot_that_charged_hits_before_every_blow():
    g = duel({**CHARIOT, "charged": True}, {"profile": {"I": 5}})
    b.fight(g)
    assert (g.pending.kind, g.pending.purpose, g.pending.dice) == ("roll", "special_hits", 1)
    assert g.preset.roll_need(g.state) == "each die is that many hits"
    events = b.answer(g, {"special_hits": [(4,)], "to_wound": [(6, 6, 6, 1)]}, default=1,
                      stop="break_test")
    resolved = b.of(events, "AttacksResolved")
    first = resolved[0]
    assert (first.step, first.unit, first.needs["special"]) == \
        ("impact_10", "a", {"kind": "impact", "hits": "D6"})
    assert (first.attacks, first.hits, first.wounds, first.slain) == (1, 4, 3, 3)
    assert [e.step for e in resolved[1:]] == ["initiative_5", "initiative_2"]   # then blows
    told = g.preset.sentence("AttacksResolved", first.to_data(), g.state)
    assert told.startswith("A (impact hits, D6 from each of 1 model): 4 hits on B") and \
        "(ATK.IMPACT [G]; ATK.SPECIAL" in told


def test_atk_special_no_impact_hits_without_a_charge_and_no_stomp_on_cavalry():
    g = duel(CHARIOT, {"profile": {"I": 5}})
    b.fight(g)
    events = b.answer(g, default=1, stop="break_test")
    assert "impact_10" not in {e.step for e in b.of(events, "AttacksResolved")}
    g = duel(GIANT, {"troop": "cavalry", "base": [25, 50]})
    b.fight(g)
    events = b.answer(g, default=1, stop="break_test")
    assert "stomp_0" not in {e.step for e in b.of(events, "AttacksResolved")}


def test_atk_stomp_a_giant_stomps_after_every_blow():
    g = duel(GIANT, {"profile": {"I": 1}})
    b.fight(g)
    events = b.answer(g, {"to_hit": [(6,) * 5, (1,) * 20], "special_hits": [(5,)]}, default=6,
                      stop="break_test")   # the giant hits; the men miss it
    resolved = b.of(events, "AttacksResolved")
    assert [e.step for e in resolved] == ["initiative_3", "initiative_1", "stomp_0"]
    stomp = resolved[-1]
    assert (stomp.needs["special"], stomp.attacks, stomp.hits) == \
        ({"kind": "stomp", "hits": "D6"}, 1, 5)
    assert stomp.needs["wound"] == 2                      # the giant's own Strength 6 on T3


def test_cc_mount_the_horses_strike_at_their_own_initiative_with_their_own_profile():
    """Knights and their warhorses: the riders strike with the lance's Strength at their
    Initiative, the horses (WS 3, S 3, I 3, A 1) at theirs, one attack for each model in
    contact, no supporting rank and no lance; a unit without a mount makes no such attacks."""
    horse = {"name": "warhorses", "WS": 3, "S": 3, "I": 3, "A": 1}
    g = duel({"troop": "cavalry", "base": [25, 50], "models": 10, "files": 5, "charged": True,
              "equipment": ["lance"], "profile": {"I": 4, "S": 3},
              "mount": horse}, {"profile": {"I": 1, "WS": 3}})
    b.fight(g)
    events = b.answer(g, default=1, stop="break_test")
    resolved = b.of(events, "AttacksResolved")
    assert [(e.step, e.needs.get("mount", "")) for e in resolved] == [
        ("initiative_4", ""), ("initiative_3", "warhorses"), ("initiative_1", "")]
    riders, horses = resolved[0], resolved[1]
    assert riders.needs["wound"] == 2                 # S 3 + 2 for the lance against T 3
    assert horses.attacks == 5 and horses.needs["wound"] == 4   # five in contact, S 3
    told = g.preset.sentence("AttacksResolved", horses.to_data(), g.state)
    assert told.startswith("A' warhorses (Initiative 3): 5 attacks at B") and "CC.MOUNT" in told


def test_the_story_speaks_of_a_single_model_in_the_singular():
    """"Orc Boyz flee", but "Giant flees", "it breaks", "its player's choice"."""
    from regiment.phases.fantasy.narrate import sentence

    g = duel(GIANT, {"models": 20})
    st = g.state
    tell = lambda t, d: sentence(t, d, st)   # noqa: E731
    assert tell("UnitFled", {"unit": "a", "distance": 7, "dice": [3, 4]}).startswith(
        'A flees 7" (3+4 = 7).')
    assert tell("UnitFled", {"unit": "b", "distance": 7, "dice": [3, 4]}).startswith(
        'B flee 7"')
    assert tell("ChargeReacted", {"unit": "a", "reaction": "stand_and_shoot"}).startswith(
        "A stands and shoots.")
    assert tell("ReformSkipped", {"unit": "a", "why": "none"}).startswith("A does not reform")
    assert tell("OrderChosen", {"unit": "a", "what": "break_test", "combat": "c"}) \
        .startswith("A goes next (break test, its player's choice).")
