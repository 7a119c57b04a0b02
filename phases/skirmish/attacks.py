"""The skirmish game's attack tables (RULES.md section 12, with section 3's sequence): to hit
by Weapon Skill against Weapon Skill, to wound by Strength against Toughness, and the save
that a hit's AP may deny (SK.TO_HIT, SK.TO_WOUND, SK.SAVE)."""

from __future__ import annotations


def to_hit(ws: int, enemy_ws: int) -> int:
    """SK.TO_HIT: WS above the enemy's hits on 3+; the enemy's more than double, 5+; else 4+."""
    if ws > enemy_ws:
        return 3
    if enemy_ws > 2 * ws:
        return 5
    return 4


def to_wound(strength: int, toughness: int) -> int:
    """SK.TO_WOUND: S >= T+2 wounds on 2+, T+1 3+, T 4+, T-1 5+, T-2 and T-3 6+; T-4 or less
    cannot wound (0)."""
    d = strength - toughness
    if d >= 2:
        return 2
    if d <= -4:
        return 0
    return {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}[d]


def save(sv: int, ap: int) -> int:
    """SK.SAVE: the armour save (``sv``+), none (0) when the hit's AP is equal to or better
    (lower) than the save; AP 0 is no AP at all."""
    if ap and ap <= sv:
        return 0
    return sv if 2 <= sv <= 6 else 0
