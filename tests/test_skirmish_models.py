"""SK.ENGAGED, SK.CASUALTIES, SK.RESULT (issue 14): who fights, who falls first, and the
result of a multiple assault summed per side with a common morale penalty."""

from __future__ import annotations

from regiment.phases.skirmish.models import casualties, engaged, morale_passed, result

R = 0.5   # 25 mm bases, near enough


def test_sk_engaged_base_contact_and_within_2_inches_of_a_friend_in_contact():
    foes = [(10.0, 11.0, R)]
    mine = [(10.0, 10.0, R),        # in base contact
            (11.5, 10.0, R),        # 0.5" from it: fights
            (14.6, 10.0, R),        # 2.1" from the nearest that fights... not
            (12.9, 10.0, R)]        # 0.4" from the second, but only the first touches: 1.9"
    assert engaged(mine, foes) == [0, 1, 3]


def test_sk_casualties_the_models_nearest_the_enemy_fall_first():
    foes = [(0.0, 10.0, R)]
    mine = [(5.0, 10.0, R), (1.0, 10.0, R), (3.0, 10.0, R), (1.0, 10.0, R)]
    assert casualties(mine, foes, 3) == [1, 3, 2]


def test_sk_result_summed_per_side_and_one_penalty_for_every_loser():
    # S4: the wounds of every unit of a side add up; each loser tests at the same penalty
    side = {"red": 3 + 2, "blue": 4}
    assert result(side) == ("red", 1)
    assert result({"red": 2, "blue": 2}) == (None, 0)
    assert morale_passed(8, 1, (3, 4)) and not morale_passed(8, 1, (4, 4))


def test_sk_allocate_one_enemy_or_a_pool_split_before_rolling():
    from regiment.phases.skirmish.models import attack_pools

    boyz = [(10.0, 11.0, R)]
    grots = [(11.0, 10.0, R)]
    mine = [(10.0, 10.0, R),        # touches both: a pool
            (9.0, 10.0, R),         # touches no one, 0" from the first: fights, and may
                                    # split as the friend it fights beside
            (7.0, 12.0, R)]         # touches the boyz? no: 3" away; near no friend in contact
    pools = attack_pools(mine, {"boyz": boyz, "grots": grots})
    assert pools == {frozenset({"boyz", "grots"}): 2}
    lone = attack_pools([(10.0, 10.0, R)], {"boyz": boyz, "grots": [(30.0, 30.0, R)]})
    assert lone == {"boyz": 1}


def test_sk_terrain_no_penalty_against_a_unit_locked_since_an_earlier_turn():
    from regiment.phases.skirmish.models import terrain_penalty

    assert terrain_penalty(True, False) and not terrain_penalty(True, True)
    assert not terrain_penalty(False, False)
