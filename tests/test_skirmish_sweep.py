"""SK.SWEEP (seed 004): the sweeping advance's roll, its comparison and its exact odds."""

from __future__ import annotations

from fractions import Fraction

from regiment.phases.skirmish.fight.sweep import caught, sweep_odds, sweep_total
from regiment.tools.cli import main

PUBLISHED = {-3: 16.7, -2: 27.8, -1: 41.7, 0: 58.3, 1: 72.2, 2: 83.3, 3: 91.7}


def test_sk_sweep_equal_or_higher_destroys_the_unit_falling_back():
    assert caught(sweep_total(3, 4), sweep_total(4, 3))      # 7 against 7: destroyed
    assert not caught(sweep_total(1, 4), sweep_total(3, 3))  # 5 against 6: it escapes
    assert sweep_odds(4, 4) == Fraction(21, 36)


def test_sk_sweep_reproduces_the_published_table_at_every_initiative():
    for difference, percent in PUBLISHED.items():
        for loser in range(4, 8):   # the same by difference, whatever the Initiatives
            p = sweep_odds(loser + difference, loser)
            assert round(float(p) * 100, 1) == percent, (difference, loser)


def test_sk_sweep_odds_on_the_command_line(capsys):
    assert main(["odds", "sweep"]) == 0
    table = capsys.readouterr().out
    assert all(f"{p:.1f} %" in table for p in PUBLISHED.values())
    assert main(["odds", "sweep", "--initiative", "4", "--against", "3"]) == 0
    assert "72.2 % (exactly 13/18). (SK.SWEEP)" in capsys.readouterr().out
    assert main(["odds", "sweep", "--initiative", "4"]) == 2
    assert "go together" in capsys.readouterr().err
