"""Exact odds, by enumerating every way the dice can fall (no sampling).

Each distribution is a map from a total to its exact probability (a Fraction), built from the
same rule functions the game uses, so the odds a player asks for are the game's own.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

from regiment.phases.common.tables import success

from .faces import counted


@cache
def movement_roll(dice: int) -> dict[int, Fraction]:
    """CH.RANGE, FP.FLEE_ROLL: 2D6, or 3D6 keeping the highest two (Swiftstride)."""
    out: dict[int, Fraction] = {}
    n = 6 ** dice
    for faces in itertools.product(range(1, 7), repeat=dice):
        total = sum(counted(faces))
        out[total] = out.get(total, Fraction(0)) + Fraction(1, n)
    return out


def at_least(dist: dict[int, Fraction], k: int) -> Fraction:
    return sum((p for v, p in dist.items() if v >= k), Fraction(0))


@cache   # the bot weighs every charge it may declare at each declaration
def charge_odds(needed: int, swiftstride: bool = False) -> Fraction:
    """CH.RANGE: the chance the dice reach ``needed`` inches (distance minus Movement)."""
    return at_least(movement_roll(3 if swiftstride else 2), needed)


def leadership_odds(need: int) -> Fraction:
    """LD.TEST, LD.INSANE: the chance 2D6 rolls ``need`` or less, or a double 1."""
    hits = sum(1 for a, b in itertools.product(range(1, 7), repeat=2)
               if a + b <= need or a == b == 1)
    return Fraction(hits, 36)


def catch_odds(pursuer_dice: int = 2, flee_dice: int = 2) -> Fraction:
    """FP.CAUGHT: the chance a pursuit roll equals or beats the flee roll."""
    pursue, flee = movement_roll(pursuer_dice), movement_roll(flee_dice)
    return sum((pp * pf for vp, pp in pursue.items() for vf, pf in flee.items() if vp >= vf),
               Fraction(0))


def percent(p: Fraction) -> float:
    return round(float(p) * 100, 1)


def break_odds(leadership: int, lost_by: int, steadfast: bool = False,
               stubborn: bool = False) -> Fraction:
    """BT.TEST, BT.STEADFAST, BT.SPECIAL, LD.INSANE: the chance a unit holds its break test:
    a Leadership test less the margin it lost by (none if steadfast or stubborn)."""
    penalty = 0 if steadfast or stubborn else lost_by
    return leadership_odds(min(10, leadership) - penalty)


def unsaved_chance(hit: int, wound: int, armour: int = 0, ward: int = 0,
                   reroll_misses: bool = False, hit2: int = 0, poison: bool = False,
                   killing: bool = False) -> Fraction:
    """ATK.SEQUENCE: the chance one attack ends as an unsaved wound: it hits (re-rolling a
    miss, CC.ASF; a 6 and then ``hit2``, ATK.TO_HIT_SHOOTING), wounds, and the armour
    (ATK.ARMOUR) and ward (ATK.WARD) saves both fail. SR.POISONED: a 6 to hit wounds at once;
    SR.KILLING_BLOW: a 6 to wound is saved by the ward alone."""
    p_hit = success(hit) * (success(hit2) if hit2 else 1)
    six = Fraction(1, 6) if poison and not hit2 and hit else Fraction(0)
    if reroll_misses:
        missed = 1 - p_hit
        p_hit = 1 - missed ** 2
        six += missed * six
    rolled = p_hit - six   # the hits that roll to wound
    slay = rolled * Fraction(1, 6) if killing and wound else Fraction(0)
    wounds = six + rolled * success(wound) - slay
    return (wounds * (1 - success(armour)) + slay) * (1 - success(ward))


def attack_odds(attacks: int, hit: int, wound: int, armour: int = 0, ward: int = 0,
                reroll_misses: bool = False, hit2: int = 0, poison: bool = False,
                killing: bool = False) -> dict[int, Fraction]:
    """ATK.SEQUENCE: the exact distribution of unsaved wounds from ``attacks`` attacks (each
    attack is independent: the binomial of the chance of one)."""
    p = unsaved_chance(hit, wound, armour, ward, reroll_misses, hit2, poison, killing)
    return {k: math.comb(attacks, k) * p ** k * (1 - p) ** (attacks - k)
            for k in range(attacks + 1)}


def mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))
