"""The two games' shared tables (the fantasy rules' ATK.TO_HIT and ATK.TO_WOUND, the skirmish
game's SK.TO_HIT and SK.TO_WOUND): to hit in close combat by Weapon Skill against Weapon
Skill, and to wound by Strength against Toughness."""

from __future__ import annotations

from fractions import Fraction


def success(need: int) -> Fraction:
    """The chance one D6 rolls ``need`` or more (0: it cannot be done)."""
    return Fraction(7 - need, 6) if 2 <= need <= 6 else Fraction(0)


def to_hit(ws: int, enemy_ws: int) -> int:
    """ATK.TO_HIT, SK.TO_HIT: WS above the enemy's hits on 3+; the enemy's WS more than double
    ours, 5+; otherwise 4+. A natural 1 always misses (every need here is 3+ or more)."""
    if ws > enemy_ws:
        return 3
    if enemy_ws > 2 * ws:
        return 5
    return 4


def to_wound(s: int, t: int) -> int:
    """ATK.TO_WOUND, SK.TO_WOUND: S >= T+2: 2+; T+1: 3+; T: 4+; T-1: 5+; T-2 or T-3: 6+;
    less: 0 (cannot wound)."""
    d = s - t
    if d >= 2:
        return 2
    if d <= -4:
        return 0
    return {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}[d]
