"""The skirmish game's attack tables (RULES.md section 12, with section 3's sequence): to hit
by Weapon Skill against Weapon Skill, to wound by Strength against Toughness, and the save
that a hit's AP may deny (SK.TO_HIT, SK.TO_WOUND, SK.SAVE)."""

from __future__ import annotations

from regiment.phases.common.tables import to_hit, to_wound

__all__ = ["save", "to_hit", "to_wound"]


def save(sv: int, ap: int) -> int:
    """SK.SAVE: the armour save (``sv``+), none (0) when the hit's AP is equal to or better
    (lower) than the save; AP 0 is no AP at all."""
    if ap and ap <= sv:
        return 0
    return sv if 2 <= sv <= 6 else 0
