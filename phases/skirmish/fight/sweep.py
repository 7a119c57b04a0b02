"""SK.SWEEP: sweeping advances after a multiple assault (S4).

After the morale checks, each winning unit that may sweep rolls once, as for a single
sweeping advance, and compares that one roll with the roll of each losing unit it fought that
falls back: an equal or higher result destroys that unit. Each roll is a D6 plus the unit's
Initiative (the general rules' sweeping advance; S4 says "as for a simple sweeping advance").
"""

from __future__ import annotations

from fractions import Fraction


def sweep_total(face: int, initiative: int) -> int:
    """SK.SWEEP: a sweeping advance roll, D6 + Initiative."""
    return face + initiative


def caught(winner: int, loser: int) -> bool:
    """SK.SWEEP: the winner's total equal to or above the loser's destroys the loser."""
    return winner >= loser


def sweep_odds(initiative: int, against: int) -> Fraction:
    """SK.SWEEP: the chance a unit of Initiative ``initiative`` catches one of ``against``,
    counted over every way the two dice can fall."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7)
               if caught(sweep_total(a, initiative), sweep_total(b, against)))
    return Fraction(ways, 36)
