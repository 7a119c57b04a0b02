"""Characters in units (CHAR.*): joining, fighting in the front rank, challenges from inside a
unit, look out sir, standing alone, leaving, and a battle standard bearer as a character."""

from __future__ import annotations

import pytest

from regiment.core.errors import IllegalCommand
from regiment.phases.fantasy.units import box

from . import battle as b

CAPTAIN = {"models": 1, "files": 1, "rules": ["character"],
           "profile": {"WS": 5, "S": 4, "T": 4, "W": 2, "I": 5, "A": 3, "Ld": 9}}


def captain(x: float = 36.0, y: float = 12.0, **extra) -> dict:
    return b.unit("cap", "red", x, y, 0, **{**CAPTAIN, **extra})


def test_char_join_a_character_within_its_movement_joins_a_unit_of_its_kind():
    men = b.unit("men", "red", 36, 20, 0)          # 20 models, five wide, front at y 20
    near = captain(36, 14)                          # 2.9" behind their rear rank
    horse = b.unit("horse", "red", 12, 20, 0, troop="cavalry", base=[25, 50], models=5)
    g = b.game([men, near, horse, b.unit("far", "blue", 36, 44, 180)], phase="remaining")
    p = g.pending
    assert p.decision == "remaining_moves"
    assert [(c.character, c.unit) for c in p.legal if c.name == "join_unit"] == [
        ("cap", "men")]                             # not the cavalry, not the enemy
    before = box(g.state.units["men"])
    with pytest.raises(IllegalCommand) as refused:
        g.submit({"cmd": "join_unit", "by": "red", "character": "cap", "unit": "horse"})
    assert refused.value.rule == "CHAR.JOIN" and "on foot joins infantry" in str(refused.value)
    g.submit({"cmd": "join_unit", "by": "red", "character": "cap", "unit": "men"})
    st = g.state
    assert st.units["cap"].status == "joined" and st.units["men"].characters == ("cap",)
    assert st.units["men"].figures == 21 and box(st.units["men"]).depth > before.depth
    assert g.preset.sentence("CharacterJoined", {"character": "cap", "unit": "men"},
                             st).startswith("Cap joins Men, standing in its front rank.")


def test_char_join_a_unit_too_far_is_refused_with_its_reason_as_a_code():
    """A refusal a client may tell in its own words: the message, and its reason as a code
    with its parameters (pieces by id) in what the protocol sends."""
    from regiment.core.i18n import language

    men = b.unit("men", "red", 36, 20, 0)
    g = b.game([men, captain(36, 2), b.unit("far", "blue", 36, 44, 180)], phase="remaining")
    for lang, words in (("en", "beyond its Movement"), ("ru", "Движения")):
        with language(lang), pytest.raises(IllegalCommand) as refused:
            g.submit({"cmd": "join_unit", "by": "red", "character": "cap", "unit": "men"})
        sent = refused.value.to_dict()
        assert sent["rule"] == "CHAR.JOIN" and words in sent["message"]
        assert sent["reason"]["code"] == "beyond_movement" and sent["reason"]["unit"] == "men"


def test_char_in_unit_fights_with_its_own_profile_and_lends_its_leadership():
    men = b.unit("men", "red", 36, 20, 0)
    foe = b.against(men, b.unit("foe", "blue", profile={"I": 1}))
    g = b.game([men, foe, captain(joined="men")], phase="close_combat")
    assert g.state.units["men"].characters == ("cap",)
    b.fight(g)
    while g.pending.kind == "decision" and "challenge" in g.pending.decision:
        g.submit(next(c for c in g.pending.legal if c.name.startswith(("decline", "refuse"))))
    events = b.answer(g, default=1, stop="break_test")
    resolved = b.of(events, "AttacksResolved")
    steps = [(e.step, e.unit, e.attacks) for e in resolved]
    # the captain at Initiative 5 with his 3 attacks; the men at 3 with 4 of their front five
    # (his place is his) and the 5 behind them; the foe at 1
    assert steps == [("initiative_5", "cap", 3), ("initiative_3", "men", 4 + 5),
                     ("initiative_1", "foe", 10)]
    from regiment.phases.fantasy.characters.rules import unit_leadership

    assert unit_leadership(g.state, g.state.units["men"]) == 9   # his Ld, not their 7


def test_char_look_out_sir_blows_on_the_unit_fall_on_its_rank_and_file():
    men = b.unit("men", "red", 36, 20, 0)
    foe = b.against(men, b.unit("foe", "blue", profile={"I": 5, "S": 5}))
    g = b.game([men, foe, captain(joined="men")], phase="close_combat", first="blue")
    b.fight(g)
    while g.pending.kind == "decision" and "challenge" in g.pending.decision:
        g.submit(next(c for c in g.pending.legal if c.name.startswith(("decline", "refuse"))))
    b.answer(g, default=6, stop="break_test")
    st = g.state
    assert st.units["men"].models < 20 and st.units["cap"].models == 1
    assert st.units["cap"].wounded == 0


def test_char_alone_a_unit_destroyed_around_its_character_leaves_it_fighting():
    men = b.unit("men", "red", 36, 20, 0, models=3, files=3)
    foe = b.against(men, b.unit("foe", "blue", profile={"I": 5, "S": 6, "A": 2}))
    g = b.game([men, foe, captain(joined="men")], phase="close_combat", first="blue")
    b.fight(g)
    while g.pending.kind == "decision" and "challenge" in g.pending.decision:
        g.submit(next(c for c in g.pending.legal if c.name.startswith(("decline", "refuse"))))
    events = b.answer(g, default=6, stop="break_test")
    alone = b.one(events, "CharacterLeft")
    assert (alone.character, alone.unit, alone.reason["code"]) == ("cap", "men", "alone")
    st = g.state
    assert st.units["men"].status == "destroyed" and st.units["cap"].status == "engaged"
    assert "cap" in next(iter(st.combats.values())).units
    told = g.preset.sentence("CharacterLeft", alone.to_data(), st)
    assert "fights on alone" in told and "(CHAR.ALONE" in told


def test_char_leave_a_character_leaves_a_unit_that_is_not_fighting():
    men = b.unit("men", "red", 36, 20, 0)
    enemy = b.unit("foe", "blue", 36, 24, 180)     # 4" in front of the men
    g = b.game([men, enemy, captain(joined="men")], phase="remaining")
    leave = [c for c in g.pending.legal if c.name == "leave_unit"]
    assert leave, g.pending.legal
    with pytest.raises(IllegalCommand) as refused:   # 0.5" from the enemy's front
        g.submit({"cmd": "leave_unit", "by": "red", "character": "cap", "x": 36.0, "y": 23.5,
                  "facing": 0.0})
    assert refused.value.rule == "CHAR.LEAVE" and "within 1\"" in str(refused.value)
    with pytest.raises(IllegalCommand) as far:
        g.submit({"cmd": "leave_unit", "by": "red", "character": "cap", "x": 60.0, "y": 20.0,
                  "facing": 0.0})
    assert "beyond its Movement" in str(far.value)
    g.submit(leave[0])
    st = g.state
    assert st.units["cap"].status == "ready" and st.units["men"].characters == ()
    assert st.units["men"].figures == 20


def test_char_in_unit_a_character_may_challenge_from_its_unit():
    men = b.unit("men", "red", 36, 20, 0)
    foe = b.against(men, b.unit("foe", "blue", command=["champion"], profile={"I": 1}))
    g = b.game([men, foe, captain(joined="men")], phase="close_combat")
    g.submit(next(c for c in g.pending.legal if c.name == "fight"))
    p = g.pending
    assert p.decision == "challenge" and [c.unit for c in p.legal if c.name == "challenge"] == [
        "cap"]
    g.submit({"cmd": "challenge", "by": "red", "unit": "cap"})
    g.submit({"cmd": "accept_challenge", "by": "blue", "unit": "foe"})
    events = b.answer(g, default=6, stop="break_test")
    duel = [e for e in b.of(events, "AttacksResolved") if e.challenge]
    assert [(e.unit, e.target, e.attacks) for e in duel][0] == ("cap", "foe", 3)


def test_char_in_unit_a_battle_standard_bearer_counts_for_its_unit():
    men = b.unit("men", "red", 36, 20, 0)
    foe = b.against(men, b.unit("foe", "blue"))
    g = b.game([men, foe, captain(joined="men", battle_standard=True)], phase="close_combat")
    b.fight(g)
    while g.pending.kind == "decision" and "challenge" in g.pending.decision:
        g.submit(next(c for c in g.pending.legal if c.name.startswith(("decline", "refuse"))))
    events = b.answer(g, default=1, stop="break_test")
    result = b.one(events, "CombatResultDecided")
    parts = result.sides["red"]["parts"]
    assert {"rule": "CR.BSB", "unit": "men", "value": 1} in parts


def test_char_in_unit_a_mounted_character_and_its_mount_fight_from_the_front_rank():
    """The Empire Captain on Warhorse, with the knights: he strikes at his Initiative with his
    lance, his warhorse at its own (CC.MOUNT)."""
    knights = b.unit("kn", "red", 36, 20, 0, catalogue="empire_knights", models=5)
    foe = b.against(knights, b.unit("foe", "blue", profile={"I": 1}))
    rider = b.unit("cap", "red", 36, 10, 0, catalogue="empire_captain_on_warhorse",
                   joined="kn")
    g = b.game([knights, foe, rider], phase="close_combat")
    b.fight(g)
    while g.pending.kind == "decision" and "challenge" in g.pending.decision:
        g.submit(next(c for c in g.pending.legal if c.name.startswith(("decline", "refuse"))))
    events = b.answer(g, default=1, stop="break_test")
    mine = [(e.step, e.unit, e.attacks, e.needs.get("mount", ""))
            for e in b.of(events, "AttacksResolved") if e.unit == "cap"]
    assert mine == [("initiative_5", "cap", 3, ""), ("initiative_3", "cap", 1, "warhorse")]


def test_char_in_unit_a_character_inside_a_unit_is_charged_with_its_unit():
    """CH.DECLARE, CHAR.IN_UNIT (games from 0.12.0): a character in a unit is no target of
    its own; a game begun before offered it, and still plays so."""
    men = b.unit("men", "blue", 36, 30, 180)
    cap = {**captain(36, 30, joined="men"), "player": "blue", "facing": 180.0}
    units = [men, cap, b.unit("boyz", "red", 36, 16, 0)]
    g = b.game(units)
    targets = {c.target for c in g.pending.legal if c.name == "declare_charge"}
    assert targets == {"men"}
    with pytest.raises(IllegalCommand) as err:
        g.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "cap"})
    assert err.value.rule == "CH.DECLARE" and "charge its unit" in str(err.value)
    old = b.old_game(units, engine="0.11.0")
    assert "cap" in {c.target for c in old.pending.legal if c.name == "declare_charge"}
