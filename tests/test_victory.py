"""VP.POINTS, VP.WIN: a fantasy game played out is won by victory points (engine 0.12.0)."""

from __future__ import annotations

from regiment.core.i18n import language
from regiment.core.scenario import parse_scenario
from regiment.phases.fantasy.victory import unit_points, victory_points

from . import battle as b


def units():
    return [b.unit("men", "red", 20, 10, 0, points=100),
            b.unit("foe", "blue", 50, 30, 180, points=120),
            b.unit("boss", "blue", 60, 40, 180, models=1, files=1, points=80, general=True)]


def with_status(g, **changes):
    st = g.state
    out = dict(st.units)
    for uid, fields in changes.items():
        out[uid] = out[uid].evolve(**fields)
    return st.evolve(units=out)


def test_vp_points_full_value_for_destroyed_fled_or_fleeing_half_for_a_quarter_left():
    g = b.game(units())
    foe = g.state.units["foe"]
    st = g.state
    assert unit_points(st, foe) == 0
    for status in ("destroyed", "fleeing"):
        assert unit_points(st, foe.evolve(status=status)) == 120
    assert unit_points(st, foe.evolve(models=5)) == 60     # 5 of 20: a quarter
    assert unit_points(st, foe.evolve(models=6)) == 0
    boss = g.state.units["boss"]
    assert unit_points(st, boss.evolve(status="destroyed", models=0)) == 180   # slain: +100
    st = with_status(g, foe={"status": "fleeing"}, men={"models": 4})
    assert victory_points(st) == {"red": 120, "blue": 50}


def test_vp_points_the_catalogue_values_a_unit_by_its_models_unless_it_says():
    sc = parse_scenario({"preset": "fantasy8", "players": [{"id": "a"}, {"id": "b"}],
                         "units": [{"id": "boyz", "player": "a", "catalogue": "orc_boyz",
                                    "models": 20, "position": [20, 10]},
                                   {"id": "elite", "player": "b", "catalogue": "orc_boyz",
                                    "models": 10, "points": 99, "position": [20, 30]},
                                   {"id": "plain", "player": "b", "models": 10,
                                    "profile": dict(b.PROFILE), "position": [50, 30]}]})
    points = {u["id"]: u.get("points") for u in sc["units"]}
    assert points == {"boyz": 120, "elite": 99, "plain": None}   # 6 a model; its own; none


def test_vp_points_a_standard_is_captured_by_breaking_its_unit_in_close_combat():
    target = b.unit("foe", "blue", 36, 30, 0, command=["standard"], points=50)
    men = b.unit("men", "red", points=50, profile={"I": 5})   # it strikes first
    g = b.game([target, b.against(target, men, "front")], phase="close_combat")
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 5], "to_wound": [(6,) * 5], "break_test": [(6, 6)]},
             default=1)
    assert g.state.captured == {"foe": ("red", 1)}
    assert victory_points(g.state)["red"] >= 100


def test_vp_win_more_points_wins_and_equal_points_are_a_draw():
    g = b.game(units())
    ended = g.preset.game_over(with_status(g, foe={"status": "destroyed", "models": 0}))
    assert ended.winner == "red" and ended.ending == {
        "code": "points", "turns": 3, "rule": "VP.WIN", "points": {"red": 120, "blue": 0},
        "scored": [{"player": "red", "unit": "foe", "points": 120, "why": "destroyed"}]}
    told = g.preset.sentence("GameEnded", ended.to_data(), g.state)
    assert "victory points: red 120, blue 0" in told and "(VP.WIN)" in told
    with language("ru"):
        ru = g.preset.sentence("GameEnded", ended.to_data(), g.state)
    assert "VP.WIN" in ru and "victory points" not in ru and "red 120" in ru
    draw = g.preset.game_over(g.state)
    assert draw.winner is None and draw.ending["points"] == {"red": 0, "blue": 0}


def test_vp_win_a_side_with_no_unit_left_loses_at_once():
    g = b.game(units())
    gone = with_status(g, foe={"status": "destroyed"}, boss={"status": "destroyed"})
    ended = g.preset.game_over(gone)
    assert ended.winner == "red" and ended.ending["code"] == "side_left"


def test_vp_win_games_begun_before_0_12_0_end_as_they_did():
    g = b.old_game(units(), engine="0.11.0")
    ended = g.preset.game_over(with_status(g, foe={"status": "destroyed"}))
    assert ended.winner is None and ended.ending["code"] == "turns_played"


def test_vp_points_a_general_who_fled_off_the_table_is_not_slain():
    """VP.POINTS (0.13.0): the general's 100 is for the general slain; fled off the table
    it keeps its models (unit_destroyed) and scores only its unit's value."""
    g = b.game(units())
    boss = g.state.units["boss"]
    fled = boss.evolve(status="destroyed")             # fled off: its model kept
    assert unit_points(g.state, fled) == 80
    assert unit_points(g.state, boss.evolve(status="destroyed", models=0)) == 180
    old = b.old_game(units(), engine="0.12.0")
    assert unit_points(old.state, fled) == 180          # as 0.12.0 scored it


def test_vp_points_a_general_inside_a_unit_that_fled_off_keeps_its_model():
    """VP.POINTS: a character in a unit that fled off the table left with it (not slain)."""
    from regiment.phases.fantasy.appliers import unit_destroyed
    from regiment.phases.fantasy.events import UnitDestroyed
    from regiment.phases.fantasy.why import DESTROYED

    g = b.game(units())
    st = g.state
    st = st.evolve(units={**st.units, "foe": st.units["foe"].evolve(characters=("boss",)),
                          "boss": st.units["boss"].evolve(joined="foe", status="joined")})
    fled = unit_destroyed(st, UnitDestroyed(unit="foe", reason=DESTROYED.make(
        "fled_off_table")))
    assert fled.units["boss"].status == "destroyed" and fled.units["boss"].models == 1
    assert victory_points(fled)["red"] == 120 + 80      # both units' value, no general slain
    slain = unit_destroyed(st, UnitDestroyed(unit="foe", reason=DESTROYED.make("slain")))
    assert victory_points(slain)["red"] == 120 + 80 + 100


def test_vp_points_a_pursuer_off_the_table_is_not_lost():
    """VP.POINTS, FP.OFF_TABLE (0.13.0): a unit that pursued off the table and will come back
    scores nothing for the enemy (before: its full value, as if it had fled)."""
    g = b.game(units())
    foe = g.state.units["foe"].evolve(status="off_table")
    assert unit_points(g.state, foe) == 0
    assert unit_points(g.state, foe.evolve(models=5)) == 60      # a quarter left: half
    st = with_status(g, foe={"status": "off_table"}, men={"models": 4})
    assert victory_points(st) == {"red": 0, "blue": 50}
    ended = g.preset.game_over(st)
    assert ended.winner == "blue" and ended.ending["code"] == "points"
    old = b.old_game(units(), engine="0.12.0")
    assert unit_points(old.state, foe) == 120                    # as 0.12.0 scored it


def test_vp_points_a_game_won_on_points_says_unit_by_unit_how():
    """VP.POINTS (0.13.0): the ending keeps each item of the points with why it scored, the
    items add up to the totals, and the story tells them (in English and in Russian); a game
    begun under 0.12.0 ends as it did, with the totals alone."""
    g = b.game(units())
    st = with_status(g, foe={"status": "destroyed", "models": 0},
                     boss={"status": "destroyed", "models": 0}, men={"models": 4})
    st = st.evolve(units={**st.units, "other": st.units["men"].evolve(
        id="other", name="Other", player="blue", status="fleeing", points=30)})
    ended = g.preset.game_over(st)
    items = ended.ending["scored"]
    assert {(i["player"], i["unit"], i["points"], i["why"]) for i in items} == {
        ("red", "foe", 120, "destroyed"), ("red", "boss", 80, "destroyed"),
        ("red", "boss", 100, "general"), ("red", "other", 30, "fleeing"),
        ("blue", "men", 50, "quarter")}
    for p, total in ended.ending["points"].items():
        assert sum(i["points"] for i in items if i["player"] == p) == total
    told = g.preset.sentence("GameEnded", ended.to_data(), st)
    assert "Scored: red: Foe 120 (destroyed), Boss 80 (destroyed), Boss 100 (the general " \
        "slain), Other 30 (fleeing at the end); blue: Men 50 (a quarter or fewer left) " \
        "(VP.POINTS [G])." in told
    with language("ru"):
        ru = g.preset.sentence("GameEnded", ended.to_data(), st)
    assert "VP.POINTS" in ru and "destroyed" not in ru
    old = b.old_game(units(), engine="0.12.0")
    assert "scored" not in old.preset.game_over(with_status(old, foe={
        "status": "destroyed"})).ending
