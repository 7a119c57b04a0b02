"""Exact odds by enumerating dice: they match the published tables."""

from __future__ import annotations

from regiment.phases.fantasy import odds


def test_ch_range_odds_of_two_dice_reaching_k():
    table = [97.2, 91.7, 83.3, 72.2, 58.3, 41.7, 27.8, 16.7, 8.3, 2.8]
    assert [odds.percent(odds.charge_odds(k)) for k in range(3, 13)] == table


def test_ch_range_odds_with_swiftstride():
    table = [99.5, 98.1, 94.9, 89.4, 80.6, 68.1, 52.3, 35.6, 19.9, 7.4]
    assert [odds.percent(odds.charge_odds(k, swiftstride=True)) for k in range(3, 13)] == table


def test_ld_test_odds_on_leadership_two_to_eleven():
    table = [2.8, 8.3, 16.7, 27.8, 41.7, 58.3, 72.2, 83.3, 91.7, 97.2]
    assert [odds.percent(odds.leadership_odds(ld)) for ld in range(2, 12)] == table


def test_fp_caught_odds_a_2d6_pursuer_against_a_2d6_flee():
    assert odds.percent(odds.catch_odds()) == 55.6
    assert odds.catch_odds() == sum(odds.movement_roll(2).values()) * odds.catch_odds()


def test_odds_distributions_are_exact_and_sum_to_one():
    for dice in (2, 3):
        assert sum(odds.movement_roll(dice).values()) == 1
    assert odds.leadership_odds(1) == odds.leadership_odds(2)    # only the double 1
