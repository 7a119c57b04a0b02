"""What a defender's shield does in close combat: the 6+ parry save of the 8th edition
(ATK.PARRY) for games begun under engine 0.9.0, the previous edition's +1 armour for games
begun before (LOG.RULINGS), and the armour and ward needs that follow (ATK.ARMOUR, ATK.WARD).
Which side an attacker stands on is ``strikes.guard``'s to say."""

from __future__ import annotations

from typing import Any, NamedTuple

from .close_combat import attacks, blows
from .specials import ADDITIONAL_HAND_WEAPON, GREAT_WEAPON, HALBERD, SHIELD, SPEAR, carries
from .state import UnitState
from .units import ON_FOOT


def shield_bonus(u: UnitState) -> int:
    """Games begun before engine 0.9.0 (LOG.RULINGS): hand weapon and shield, on foot, +1 to
    the armour save in close combat, from any side (the previous edition's rule)."""
    other = any(carries(u, w) for w in (GREAT_WEAPON, HALBERD, SPEAR))
    return 1 if carries(u, SHIELD) and not other and u.troop in ON_FOOT else 0


def can_parry(u: UnitState) -> bool:
    """ATK.PARRY: a model on foot fighting with a hand weapon and a shield, and no other
    weapon (a spear, a halberd, a great weapon or an additional hand weapon)."""
    other = any(carries(u, w) for w in (GREAT_WEAPON, HALBERD, SPEAR, ADDITIONAL_HAND_WEAPON))
    return carries(u, SHIELD) and not other and u.troop in ON_FOOT


PARRY = 6   # ATK.PARRY: the parry save's need


class Guard(NamedTuple):
    """What a defender's shield does against one group of close combat attacks: ``parry``,
    the 6+ parry save of ATK.PARRY (games from engine 0.9.0), or ``old``, the +1 armour of the
    previous edition (games begun before)."""

    parry: bool = False
    old: bool = False


FROM_THE_FRONT = Guard(parry=True)   # the current rules, attacked in the front (odds)
NO_SHIELD = Guard()


def saves(e: UnitState, s: int, g: Guard, by: UnitState | None = None) -> dict[str, Any]:
    """ATK.ARMOUR, ATK.WARD, ATK.PARRY: the armour and ward needs of ``e`` against a hit of
    Strength ``s``; a parry does not add to another ward save, the better is taken. ``by``'s
    special rules and ``e``'s change them (``blows``), and the group names each (``parts``)."""
    save, piercing, parts = blows.armour_of(e, by)
    ward, warded = blows.ward_of(e, by, attacks.ward_need(e.ward))
    out: dict[str, Any] = {"armour": attacks.armour_need(save, s,
                                                         shield_bonus(e) if g.old else 0,
                                                         piercing)}
    if g.parry:
        out["ward"], out["parry"] = min(ward or 7, PARRY), True
    else:
        out["ward"] = ward
    if parts or warded:
        out["parts"] = [p.written() for p in (*parts, *warded)]
    return out
