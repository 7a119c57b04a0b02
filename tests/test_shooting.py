"""SHOOT.*: the fantasy shooting phase (engine 0.12.0): who may shoot at whom, the to-hit
need and its modifiers, the attack sequence and panic after a volley, and table mode."""

from __future__ import annotations

from regiment.core.i18n import language

from . import battle as b

XBOWS = ["hand_weapon", "crossbow"]
BOWS = ["hand_weapon", "bow"]


def shooting(units, **top):
    return b.game(units, phase="shooting", **top)


def shoot(g, unit="archers", target="foe", by="red"):
    return g.submit({"cmd": "shoot", "by": by, "unit": unit, "target": target})


def refused(g, **fields):
    return b.refused(g, shoot, **fields)   # a refused shot changes nothing


def fired(events):
    return b.one(events, "ShotsFired")


def archers(x=36.0, y=10.0, facing=0.0, **extra):
    return b.unit("archers", "red", x, y, facing, equipment=extra.pop("equipment", BOWS),
                  **extra)


def test_shoot_who_a_unit_with_a_missile_weapon_shoots_once_at_an_enemy_in_front():
    g = shooting([archers(), b.unit("foe", "blue", 36, 20, 180),
                  b.unit("men", "red", 50, 10, 0)])
    assert [(c.unit, c.target) for c in g.pending.legal if c.name == "shoot"] == [
        ("archers", "foe")]
    err = refused(g, unit="men")
    assert err.rule == "SHOOT.WHO" and "no missile weapon" in str(err)
    e = fired(shoot(g))
    # 20 unmoved bowmen 5 wide: the front rank's 5 and half the other 15, rounded up (volleys)
    assert (e.weapon, e.distance, e.modifiers, e.hit, e.shots) == ("bow", 10.0, (), 4, 13)
    assert g.pending.kind == "roll" and g.pending.purpose == "shooting_hit"
    b.answer(g, default=6)
    assert "has shot this turn" in str(refused(g))


def test_shoot_who_not_out_of_the_front_arc_out_of_range_or_at_an_engaged_enemy():
    behind = b.unit("foe", "blue", 36, 6, 0)     # its front 4.85" behind the archers' rear
    g = shooting([archers(y=14.0), behind])
    assert "front arc" in str(refused(g))
    far = shooting([archers(), b.unit("foe", "blue", 36, 40, 180)])   # 30" > the bow's 24"
    err = refused(far)
    assert err.rule == "SHOOT.WHO" and "beyond the 24\"" in str(err)
    a, f = b.unit("foe", "blue", 36, 26, 0), b.unit("friend", "red", 36, 26, 0)
    fighting = shooting([archers(), a, b.against(a, f, "front")])
    assert "engaged" in str(refused(fighting))


def test_shoot_who_sight_is_blocked_by_terrain_and_by_other_units():
    wall = shooting([archers(), b.unit("foe", "blue", 36, 22, 180)],
                    table={"width": 72.0, "depth": 48.0,
                           "blocking": [[[30, 15], [42, 15], [42, 16], [30, 16]]]})
    assert "cannot see" in str(refused(wall))
    screen = shooting([archers(), b.unit("foe", "blue", 36, 22, 180),
                       b.unit("screen", "red", 36, 14, 0, models=40, files=10)])
    assert "cannot see" in str(refused(screen))


def test_shoot_who_not_after_a_march_and_a_move_or_fire_weapon_not_after_any_move():
    g = b.game([archers(), b.unit("foe", "blue", 36, 40, 180),
                b.unit("xbows", "red", 50, 10, 0, equipment=XBOWS)], phase="remaining")
    g.submit({"cmd": "move", "by": "red", "unit": "archers", "kind": "march",
              "path": [["forward", 8]]})
    g.submit({"cmd": "move", "by": "red", "unit": "xbows", "path": [["forward", 2]]})
    g.submit({"cmd": "end_phase", "by": "red"})
    g.submit({"cmd": "end_phase", "by": "red"})   # magic
    assert g.state.phase == "turn.shooting"
    assert "made a march move" in str(refused(g))
    err = refused(g, unit="xbows")
    assert err.rule == "SHOOT.WHO" and "move or fire" in str(err)


def test_shoot_hit_long_range_moving_and_cover_make_it_harder():
    g = b.game([archers(), b.unit("foe", "blue", 36, 28, 180)], phase="remaining",
               table={"width": 72.0, "depth": 48.0,
                      "hard_cover": [[[30, 26], [42, 26], [42, 34], [30, 34]]]})
    g.submit({"cmd": "move", "by": "red", "unit": "archers", "path": [["forward", 2]]})
    g.submit({"cmd": "end_phase", "by": "red"})
    g.submit({"cmd": "end_phase", "by": "red"})
    e = fired(shoot(g))   # 16" of 24": long; moved; hard cover: 4+ +1 +1 +2 = 8: 6 then 5+
    assert e.modifiers == ("long_range", "moved", "hard_cover") and (e.hit, e.hit2) == (6, 5)
    told = g.preset.sentence("ShotsFired", e.to_data(), g.state)
    assert "6+ then 5+ to hit" in told and "hard cover -2" in told and "(SHOOT.WHO" in told


def test_shoot_hit_a_need_of_10_or_more_cannot_hit_and_rolls_no_dice():
    cover = {"width": 72.0, "depth": 48.0,
             "hard_cover": [[[30, 26], [42, 26], [42, 34], [30, 34]]]}
    g = shooting([archers(profile={"BS": 1}), b.unit("foe", "blue", 36, 28, 180)], table=cover)
    e = fired(shoot(g))   # 6+, long range +1, hard cover +2: 9, a 6 then 6+
    assert (e.hit, e.hit2) == (6, 6) and g.pending.kind == "roll"
    g = b.game([archers(profile={"BS": 1}), b.unit("foe", "blue", 36, 28, 180)],
               phase="remaining", table=cover)
    g.submit({"cmd": "move", "by": "red", "unit": "archers", "path": [["forward", 1]]})
    g.submit({"cmd": "end_phase", "by": "red"})
    g.submit({"cmd": "end_phase", "by": "red"})
    events = shoot(g)   # and moved +1: 10, no hit possible
    e = fired(events)
    assert (e.hit, e.hit2) == (0, 0) and not b.of(events, "InitiativeStepBegan")
    assert "no hit is possible" in g.preset.sentence("ShotsFired", e.to_data(), g.state)
    assert g.pending.kind == "decision"


def test_shoot_weapons_strength_and_armour_piercing_follow_the_weapon():
    g = shooting([archers(equipment=["hand_weapon", "handgun"]),
                  b.unit("foe", "blue", 36, 20, 180, armour=4)])
    shoot(g)
    events = b.answer(g, {"shooting_hit": [(6,) * 5], "to_wound": [(3,) * 5],
                          "armour": [(6,) * 5]})
    hit = b.one(events, "AttacksResolved")
    # handgun: S4 against T3 wounds on 3+; armour 4+ worsened by 1 (S4) and 1 (piercing): 6+
    assert (hit.needs["wound"], hit.needs["armour"]) == (3, 6) and hit.step == "shooting"
    assert hit.unsaved == 0 and hit.saved == 5


def test_shoot_hit_a_quarter_lost_to_shooting_causes_a_panic_test():
    g = shooting([archers(models=30, files=10), b.unit("foe", "blue", 36, 20, 180, models=12,
                                                       files=4)])
    shoot(g)
    events = b.answer(g, {"shooting_hit": [(6,) * 10], "to_wound": [(6,) * 10],
                          "panic": [(6, 6)], "flee": [(1, 1)]}, default=1)
    assert b.of(events, "PanicCaused")
    assert [e for e in b.of(events, "LeadershipTested") if e.purpose == "panic"]


def two_volleys(engine=None):
    """Two units of archers each kill 1 of the 8 models of ``foe`` in one shooting phase."""
    units = [archers(x=30.0), b.unit("bows2", "red", 46, 10, 0, equipment=BOWS),
             b.unit("foe", "blue", 38, 20, 180, models=8, files=4)]
    g = b.old_game(units, engine=engine, phase="shooting") if engine else shooting(units)
    events = []
    for unit in ("archers", "bows2"):
        events += shoot(g, unit=unit)
        events += b.answer(g, {"shooting_hit": [(6, 1, 1, 1, 1)], "to_wound": [(6,)],
                               "panic": [(6, 6)], "flee": [(1, 1)]}, default=1)
    return g, events


def test_panic_triggers_a_quarter_lost_over_the_whole_shooting_phase():
    """PANIC.TRIGGERS (0.13.0): a quarter of the models a unit had when the phase began, lost
    to shooting in the phase, calls for a panic test: two volleys of one slain each of 8."""
    g, events = two_volleys()
    assert g.state.units["foe"].models == 6
    caused = b.of(events, "PanicCaused")
    assert [c.units for c in caused] == [("foe",)]
    assert caused[0].reason["code"] == "shot"
    assert [e.unit for e in b.of(events, "LeadershipTested") if e.purpose == "panic"] == ["foe"]


def test_panic_triggers_games_begun_under_0_12_0_count_one_volley():
    g, events = two_volleys(engine="0.12.0")
    assert g.state.units["foe"].models == 6 and not b.of(events, "PanicCaused")


def test_shoot_weapons_throwing_weapons_reach_6_inches_at_the_users_strength():
    """SHOOT.WEAPONS: throwing weapons are offered (a scenario takes them), reach 6", and
    strike at the thrower's own Strength (S4 against T3: 3+ to wound)."""
    thrower = b.unit("axes", "red", 36, 10, 0, equipment=["hand_weapon", "throwing_weapons"],
                     profile={"S": 4})
    near = shooting([thrower, b.unit("foe", "blue", 36, 15, 180)])
    assert [c.target for c in near.pending.legal if c.name == "shoot"] == ["foe"]
    e = fired(shoot(near, unit="axes"))
    assert (e.weapon, e.modifiers) == ("throwing_weapons", ("long_range",))   # 5" of 6"
    hits = b.answer(near, {"shooting_hit": [(6,) * e.shots], "to_wound": [(3,) * e.shots]},
                    default=1)
    assert b.one(hits, "AttacksResolved").needs["wound"] == 3
    far = shooting([thrower, b.unit("foe", "blue", 36, 18, 180)])   # 8" away
    assert "beyond the 6\"" in str(refused(far, unit="axes"))


def test_shoot_hit_a_weapon_with_multiple_shots_fires_twice_at_minus_one():
    """SHOOT.HIT, SHOOT.WEAPONS: a repeater crossbow fires two shots a model at -1 to hit."""
    g = shooting([b.unit("rxb", "red", 36, 10, 0, models=10,
                         equipment=["hand_weapon", "repeater_crossbow"]),
                  b.unit("foe", "blue", 36, 18, 180)])
    e = fired(shoot(g, unit="rxb"))
    assert e.modifiers == ("multiple_shots",) and e.hit == 5 and e.shots == 2 * 5
    told = g.preset.sentence("ShotsFired", e.to_data(), g.state)
    assert "multiple shots -1" in told


def test_shoot_who_a_unit_on_a_hill_shoots_with_two_ranks():
    """SHOOT.WHO (0.13.0): crossbowmen standing on a hill shoot with their first two ranks;
    off it, or in a game begun under 0.12.0, with the front rank."""
    hill = {"width": 72.0, "depth": 48.0, "hills": [[[28, 0], [44, 0], [44, 12], [28, 12]]]}
    xbows = b.unit("xb", "red", 36, 10, 0, equipment=XBOWS)
    foe = b.unit("foe", "blue", 36, 24, 180)
    assert fired(shoot(shooting([xbows, foe], table=hill), unit="xb")).shots == 10
    assert fired(shoot(shooting([xbows, foe]), unit="xb")).shots == 5
    old = b.old_game([xbows, foe], engine="0.12.0", phase="shooting", table=hill)
    assert fired(shoot(old, unit="xb")).shots == 5


def test_shoot_who_bows_that_did_not_move_fire_in_volleys():
    """SHOOT.WHO (0.13.0): 20 bowmen 5 wide that did not move: the front rank's 5 and half
    the other 15, rounded up; after a move, the front rank alone."""
    still = shooting([archers(), b.unit("foe", "blue", 36, 20, 180)])
    assert fired(shoot(still)).shots == 5 + 8
    g = b.game([archers(), b.unit("foe", "blue", 36, 24, 180)], phase="remaining")
    g.submit({"cmd": "move", "by": "red", "unit": "archers", "path": [["forward", 1]]})
    g.submit({"cmd": "end_phase", "by": "red"})
    g.submit({"cmd": "end_phase", "by": "red"})
    assert fired(shoot(g)).shots == 5


def test_shoot_who_games_begun_before_0_12_0_have_no_shooting():
    g = b.old_game([archers(), b.unit("foe", "blue", 36, 20, 180)], engine="0.11.0",
                   phase="shooting")
    assert g.pending.decision == "end_phase"
    assert "0.12.0" in str(refused(g))


def test_shoot_who_table_mode_measures_the_shot_and_withdraws_one_out_of_range():
    g = shooting([archers(), b.unit("foe", "blue", 36, 20, 180)],
                 table={"width": 72.0, "depth": 48.0, "measured": True})
    shoot(g)
    p = g.pending
    assert p.kind == "measurement" and p.question == "front_arc:archers:foe"
    g.submit({"cmd": "measure", "by": "red", "value": "yes"})
    assert g.pending.question == "line_of_sight:archers:foe"   # units may block it too
    g.submit({"cmd": "measure", "by": "red", "value": "yes"})
    assert g.pending.question == "range:archers:foe"
    events = g.submit({"cmd": "measure", "by": "red", "value": 30})
    w = b.one(events, "CommandWithdrawn")
    assert w.rule == "SHOOT.WHO" and w.why["code"] == "out_of_range"
    assert not g.state.context.shot


def test_shoot_narration_in_english_and_russian():
    g = shooting([archers(), b.unit("foe", "blue", 36, 26, 180)])
    e = fired(shoot(g))
    en = g.preset.sentence("ShotsFired", e.to_data(), g.state)
    assert en.startswith("Archers shoot 13 bow shots at Foe, 16.0\" away: 5+ to hit (long "
                         "range -1).")
    with language("ru"):
        ru = g.preset.sentence("ShotsFired", e.to_data(), g.state)
    assert "SHOOT.HIT" in ru and "shoot" not in ru.split("(")[0]


def test_shoot_hit_the_bot_shoots_the_target_it_expects_to_hurt_most_not_the_nearest():
    """Issue 28 item 4: of two targets, the nearer in hard cover (-2) and a farther one in the
    open at long range (-1), the bot shoots the farther: more unsaved wounds expected."""
    from regiment.phases.fantasy.bot import choose, expected_wounds
    from regiment.phases.fantasy.charge import gap

    g = shooting([archers(), b.unit("near", "blue", 36, 20, 180),
                  b.unit("far", "blue", 52, 22, 180)],
                 table={"width": 72.0, "depth": 48.0,
                        "hard_cover": [[[28, 18], [44, 18], [44, 24], [28, 24]]]})
    shots = {c.target: c for c in g.pending.legal if c.name == "shoot"}
    assert set(shots) == {"near", "far"}
    s = g.state
    assert gap(s.units["archers"], s.units["near"]) < gap(s.units["archers"], s.units["far"])
    assert expected_wounds(s, shots["far"]) > expected_wounds(s, shots["near"]) > 0
    assert choose(s, g.pending).target == "far"
    # with no cover the two are alike but for range: the nearer, at short range, is chosen
    open_ = shooting([archers(), b.unit("near", "blue", 36, 20, 180),
                      b.unit("far", "blue", 52, 22, 180)])
    assert choose(open_.state, open_.pending).target == "near"
