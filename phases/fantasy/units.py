"""What a unit is, as the rules count it: ranks, full ranks, hordes, weapons, its box."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from regiment.core import geometry as geo
from regiment.core.geometry import Box, unit_size
from regiment.core.i18n import mark, tr

from .effects import Made, any_effects, made
from .specials import (
    ADDITIONAL_HAND_WEAPON,
    CHARACTER,
    GREAT_WEAPON,
    HALBERD,
    LANCE,
    SPEAR,
    carries,
    has,
)
from .state import State, UnitState

MONSTROUS = ("monstrous_infantry", "monstrous_cavalry", "monstrous_beast")
ON_FOOT = ("infantry", "monstrous_infantry")


class Weapon(NamedTuple):
    """SHOOT.WEAPONS: a missile weapon: its name, range, Strength (0: the user's own), the
    extra armour modifier (armour piercing) and the shots each model fires (several: a
    weapon with multiple shots, -1 to hit, SHOOT.HIT)."""

    name: str
    range: float
    strength: int
    piercing: int = 0
    shots: int = 1

    def strength_of(self, u: UnitState) -> int:
        """SHOOT.WEAPONS, ATK.TO_WOUND: the weapon's own Strength, or the shooter's."""
        return self.strength or u.profile["S"]


# SHOOT.WEAPONS, ATK.TO_HIT_SHOOTING: the missile weapons a unit may carry, in the order a
# unit carrying two shoots the first
MISSILES: dict[str, Weapon] = {w.name: w for w in (
    Weapon("bow", 24.0, 3), Weapon("shortbow", 18.0, 3), Weapon("longbow", 30.0, 3),
    Weapon("crossbow", 30.0, 4), Weapon("handgun", 24.0, 4, 1),
    Weapon("javelin", 12.0, 0), Weapon("throwing_weapons", 6.0, 0),
    Weapon("repeater_crossbow", 24.0, 3, 0, 2))}
ALIVE = ("ready", "fleeing", "engaged")
# A unit's status as players read it (play's roster, refusals)
STATUS_WORDS = {"ready": mark("ready"), "engaged": mark("engaged"), "fleeing": mark("fleeing"),
                "off_table": mark("off the table"), "destroyed": mark("destroyed"),
                "joined": mark("joined")}


SIDE_WORDS = {"front": mark("front"), "flank": mark("flank"), "rear": mark("rear"),
              "left": mark("left"), "right": mark("right")}


def status_word(status: str) -> str:
    return tr(STATUS_WORDS[status]) if status in STATUS_WORDS else status.replace("_", " ")


def side_word(side: str) -> str:
    return tr(SIDE_WORDS[side]) if side in SIDE_WORDS else side


def box(u: UnitState) -> Box:
    """The unit's rectangle on the table (GEO.ARCS, GEO.DISTANCE)."""
    b: Box | None = getattr(u, "_box", None)
    if b is None:   # first asked of this unit value
        b = _box(u.position, u.facing, u.models + len(u.characters), u.files, u.base)
        object.__setattr__(u, "_box", b)   # not a field: the unit is unchanged
    return b


@lru_cache(maxsize=8192)
def _box(position: tuple[float, float], facing: float, models: int, files: int,
         base: tuple[float, float]) -> Box:
    w, d = unit_size(models, files, base)
    return Box(position[0], position[1], facing, w, d)


def rank_width(u: UnitState) -> int:
    """UNIT.FULL_RANK: 5 models, or 3 for monstrous infantry, cavalry and beasts."""
    return 3 if u.troop in MONSTROUS else 5


def rank_sizes(u: UnitState) -> list[int]:
    """Models in each rank, front first (the rear rank may be short)."""
    if u.models <= 0:
        return []
    full, rest = divmod(u.models + len(u.characters), u.files)   # CHAR.IN_UNIT: they count
    return [u.files] * full + ([rest] if rest else [])


def full_ranks(u: UnitState) -> int:
    """UNIT.FULL_RANK: ranks with at least ``rank_width`` models, the front rank included; a
    short front rank means none."""
    sizes = rank_sizes(u)
    need = rank_width(u)
    if not sizes or sizes[0] < need:
        return 0
    return sum(1 for s in sizes if s >= need)


def horde(u: UnitState) -> bool:
    """CC.WHO_FIGHTS: a horde is 10 models wide (6 for monstrous infantry)."""
    return u.files >= (6 if u.troop == "monstrous_infantry" else 10) and \
        bool(rank_sizes(u)) and rank_sizes(u)[0] >= u.files


def missile(u: UnitState) -> Weapon | None:
    """CH.REACT, SHOOT.WEAPONS: the missile weapon a unit shoots with, if any."""
    for item in u.equipment:
        if item in MISSILES:
            return MISSILES[item]
    return None


def leadership(u: UnitState) -> int:
    """LD.TEST: Leadership is capped at 10."""
    return min(10, u.profile["Ld"])


def strength(u: UnitState) -> int:
    """ATK.TO_WOUND with weapons: great weapon +2 S, halberd +1 S (on foot); lance +2 S and
    cavalry spear +1 S in a turn the unit charged."""
    weapon = strength_weapon(u)
    return u.profile["S"] + (weapon[1] if weapon is not None else 0)


def strength_weapon(u: UnitState) -> tuple[str, int] | None:
    """ATK.TO_WOUND, SPECIAL.EFFECTS: the weapon that adds to ``u``'s Strength and by how
    much (the part a group of attacks names), or None."""
    if carries(u, GREAT_WEAPON):
        return GREAT_WEAPON.name, 2
    if carries(u, HALBERD) and u.troop in ON_FOOT:
        return HALBERD.name, 1
    if u.charged and u.troop not in ON_FOOT:
        if carries(u, LANCE):
            return LANCE.name, 2
        if carries(u, SPEAR):
            return SPEAR.name, 1
    return None


def attacks_of(u: UnitState, effects: bool = True) -> int:
    """CC.WHO_FIGHTS, SPECIAL.EFFECTS: a model's Attacks, one more with an additional hand
    weapon, and the changes its special rules make (Frenzy +1: ``attacks_made``)."""
    base = u.profile["A"] + (1 if carries(u, ADDITIONAL_HAND_WEAPON) else 0)
    return attacks_made(u).value if effects and any_effects(u) else base


def attacks_made(u: UnitState) -> Made:
    """CC.WHO_FIGHTS, SPECIAL.EFFECTS: a model's Attacks with their parts."""
    return made(u, "A", u.profile["A"] + (1 if carries(u, ADDITIONAL_HAND_WEAPON) else 0))


def has_champion(u: UnitState) -> bool:
    return "champion" in u.command and u.models > 1


def is_character(u: UnitState) -> bool:
    return has(u, CHARACTER) or (u.models == 1 and u.troop in ("infantry", "cavalry")
                                       and u.profile["W"] >= 2)


def stands_on_another(state: State, unit: UnitState, b: Box) -> bool:
    """GEO.NO_OVERLAP: whether ``unit`` placed at ``b`` would stand on another unit on the
    table (touching is not standing on it)."""
    return any(o.id != unit.id and o.status in ALIVE and geo.overlaps(b, box(o))
               for o in state.units.values())


def model_centres(u: UnitState, b: Box | None = None) -> list[geo.Point]:
    """The centre of each model's base, rank by rank from the front, each rank from the left
    (a short rear rank stands from the left, as CC.WHO_FIGHTS counts it); at ``b`` if given."""
    if b is None:
        kept: list[geo.Point] | None = getattr(u, "_centres", None)
        if kept is None:
            kept = model_centres(u, box(u))
            object.__setattr__(u, "_centres", kept)   # not a field: the unit is unchanged
        return kept
    (fx, fy), (rx, ry) = geo.axes(b.facing)
    bw, bd = u.base[0] / geo.MM_PER_INCH, u.base[1] / geo.MM_PER_INCH
    out = []
    for k, size in enumerate(rank_sizes(u)):
        for j in range(size):
            side, back = -b.width / 2 + (j + 0.5) * bw, (k + 0.5) * bd
            out.append((b.x + rx * side - fx * back, b.y + ry * side - fy * back))
    return out


def too_few_to_rally(u: UnitState) -> bool:
    """RALLY.TEST: a unit down to 25 % of its models or fewer rallies only on a double 1."""
    return u.models * 4 <= u.start_models


def along(u: UnitState, side: str) -> int:
    """How many of ``u``'s models stand along one of its sides now."""
    sizes = rank_sizes(u)
    if not sizes:
        return 0
    if side == "front":
        return sizes[0]
    if side == "rear":
        return sizes[-1]
    return len(sizes)


def touched_at_table(u: UnitState, e: UnitState) -> tuple[str, list[int]] | None:
    """Table mode: the side of ``u`` that ``e`` touches and which of the models along it do,
    from the measurement; None when they do not touch (or ``u`` is placed by geometry)."""
    for enemy, side, models, first in u.touch:
        if enemy == e.id:
            present = along(u, side)
            last = min(first + models, present)
            return side, list(range(min(first, max(present - 1, 0)), last)) or [0]
    return None
