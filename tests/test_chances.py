"""regiment odds (exact) and regiment simulate (rates with intervals), as a player runs them."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from regiment.phases.fantasy import odds
from regiment.tools.chances import wilson
from regiment.tools.cli import main

from .conftest import EXAMPLES


def percents(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"(\d+\.\d) %", text)]


def test_odds_charge_prints_the_published_table(capsys):
    assert main(["odds", "charge"]) == 0
    out = capsys.readouterr().out
    assert percents(out) == [100.0, 97.2, 91.7, 83.3, 72.2, 58.3, 41.7, 27.8, 16.7, 8.3, 2.8]
    assert main(["odds", "charge", "--swiftstride"]) == 0
    assert percents(capsys.readouterr().out)[1:] == [99.5, 98.1, 94.9, 89.4, 80.6, 68.1, 52.3,
                                                     35.6, 19.9, 7.4]


def test_odds_charge_of_a_distance_with_movement(capsys):
    assert main(["odds", "charge", "9", "--movement", "4"]) == 0
    out = capsys.readouterr().out
    assert "must reach 5: 83.3 % (exactly 5/6)" in out and "CH.RANGE" in out


def test_odds_break_tests_match_the_leadership_table(capsys):
    table = [2.8, 8.3, 16.7, 27.8, 41.7, 58.3, 72.2, 83.3, 91.7, 97.2]
    for need, expected in zip(range(2, 11), table, strict=False):   # Ld 10 less the margin
        assert main(["odds", "break", "10", "--lost-by", str(10 - need)]) == 0
        assert percents(capsys.readouterr().out)[0] == expected
    assert main(["odds", "break", "7", "--lost-by", "5", "--steadfast"]) == 0
    assert "holds 58.3 %" in capsys.readouterr().out


def test_odds_catch_is_the_published_figure(capsys):
    assert main(["odds", "catch"]) == 0
    assert "55.6 %" in capsys.readouterr().out


def test_odds_attacks_from_catalogue_profiles(capsys):
    assert main(["odds", "attacks", "10", "--attacker", "orc_boyz", "--target",
                 "empire_spearmen"]) == 0
    out = capsys.readouterr().out
    # S3 against T3: 4+ to wound; WS3 against WS3: 4+ to hit; spearmen save 5+
    assert "hit 4+, wound 4+, armour 5+" in out
    assert "Expected unsaved wounds: 1.67" in out     # 10 x 1/2 x 1/2 x 2/3


def test_shoot_hit_odds_of_a_volley_from_catalogue_profiles_and_modifiers(capsys):
    assert main(["odds", "shoot", "10", "--shooter", "empire_crossbowmen", "--target",
                 "orc_boyz", "--long-range", "--cover", "soft"]) == 0
    out = capsys.readouterr().out
    # BS3: 4+, long range and soft cover: 6+; S4 against T4: 4+; 5+ armour worsened by 1: 6+
    assert "hit 6+, wound 4+, armour 6+ (SHOOT.HIT" in out
    assert "Expected unsaved wounds: 0.69" in out     # 10 x 1/6 x 1/2 x 5/6
    assert main(["odds", "shoot", "6", "--shooter", "goblin_archers", "--target",
                 "empire_swordsmen", "--long-range", "--moved", "--cover", "hard"]) == 0
    out = capsys.readouterr().out   # 4+ and 1 + 1 + 2: 8, a 6 then 5+
    assert "hit 6+ then 5+" in out
    assert odds.unsaved_chance(6, 4, hit2=5) == Fraction(1, 6) * Fraction(1, 3) * Fraction(1, 2)
    assert main(["odds", "shoot", "5", "--shooter", "orc_boyz", "--target", "goblins"]) == 2
    assert "has no missile weapon" in capsys.readouterr().err


def test_odds_attack_distribution_is_exact():
    dist = odds.attack_odds(10, 4, 4, 5)
    assert sum(dist.values()) == 1
    assert odds.mean(dist) == 10 * Fraction(1, 2) * Fraction(1, 2) * Fraction(2, 3)
    assert odds.unsaved_chance(4, 4, reroll_misses=True) == Fraction(3, 4) * Fraction(1, 2)


def test_wilson_intervals():
    lo, hi = wilson(0, 50)
    assert lo == 0.0 and hi == pytest.approx(0.0713, abs=1e-4)
    lo, hi = wilson(25, 50)
    assert (lo, hi) == (pytest.approx(0.3664, abs=1e-4), pytest.approx(0.6336, abs=1e-4))


def test_simulate_plays_a_scenario_many_times(capsys):
    assert main(["simulate", str(EXAMPLES / "mill_race.toml"), "-n", "30"]) == 0
    out = capsys.readouterr().out
    assert "30 games by the bots" in out and "95 % interval" in out
    rates = percents(out)
    won = [r for line in out.splitlines() if "won by" in line or "no winner" in line
           for r in percents(line)[:1]]
    assert abs(sum(won) - 100.0) < 0.2 and rates
