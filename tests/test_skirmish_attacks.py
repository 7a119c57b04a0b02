"""SK.TO_HIT, SK.TO_WOUND, SK.SAVE (issue 14): the skirmish game's attack tables."""

from __future__ import annotations

from regiment.phases.skirmish.attacks import save, to_hit, to_wound


def test_sk_to_hit_by_weapon_skill():
    assert [to_hit(4, e) for e in (3, 4, 8, 9)] == [3, 4, 4, 5]


def test_sk_to_wound_the_skirmish_table():
    # S against T 4: S 6+ 2+, 5 3+, 4 4+, 3 5+, 2 and 1 6+, and none at T-4 (S 1 against T 5)
    assert [to_wound(s, 4) for s in (7, 6, 5, 4, 3, 2, 1)] == [2, 2, 3, 4, 5, 6, 6]
    assert to_wound(1, 5) == 0 and to_wound(2, 5) == 6


def test_sk_save_an_ap_equal_or_better_denies_it():
    assert save(3, 5) == 3          # AP 5 against a 3+ save: saved on 3+
    assert save(3, 3) == 0          # AP 3: no save
    assert save(3, 2) == 0          # AP 2: no save
    assert save(4, 0) == 4          # no AP
    assert save(7, 0) == 0          # no save at all
