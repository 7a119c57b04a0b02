"""Special rules and equipment, each declared once (SPECIAL.REGISTRY).

A declaration says what a scenario calls it, the rule IDs whose functions read it, the source
page, what it changes and how the narration names it. Scenarios are checked against this
registry (an unknown name is refused with the known ones), and rule functions ask for a
declaration, never a bare string: ``has(unit, STUBBORN)``, ``carries(unit, GREAT_WEAPON)``, so a
misspelt name is an error that ruff and mypy see, not a rule that silently does nothing.

Adding a special rule is this declaration, the rule function that reads it, and its test:
see docs/presets.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from regiment.core.i18n import mark


@dataclass(frozen=True)
class Special:
    name: str                       # as a scenario writes it
    kind: Literal["rule", "equipment"]
    rules: tuple[str, ...]          # the rule IDs whose functions read it
    source: str                     # the page it comes from, or [G]
    changes: str                    # what it changes, in one sentence
    told: str                       # how the narration names it


SPECIALS: dict[str, Special] = {}


def special(name: str, rules: tuple[str, ...], source: str, changes: str, told: str,
            kind: Literal["rule", "equipment"] = "rule") -> Special:
    if name in SPECIALS:
        raise ValueError(f"the special rule {name!r} is declared twice")
    declared = SPECIALS[name] = Special(name, kind, rules, source, changes, told)
    return declared


def known(kind: Literal["rule", "equipment"]) -> tuple[str, ...]:
    """The names a scenario may use in a unit's ``rules`` or ``equipment``, in order."""
    return tuple(s.name for s in SPECIALS.values() if s.kind == kind)


class Bearer(Protocol):
    """Whatever has rules and equipment (a unit's state, read-only)."""

    @property
    def rules(self) -> tuple[str, ...]: ...

    @property
    def equipment(self) -> tuple[str, ...]: ...


def has(u: Bearer, rule: Special) -> bool:
    """The unit has this special rule."""
    return rule.name in u.rules


def carries(u: Bearer, item: Special) -> bool:
    """The unit carries this equipment."""
    return item.name in u.equipment


# --- special rules ------------------------------------------------------------------------------

STUBBORN = special(
    "stubborn", ("BT.SPECIAL",), "[G]",
    "takes its break tests on its Leadership without the combat's penalty", mark("stubborn"))
UNBREAKABLE = special(
    "unbreakable", ("BT.SPECIAL", "BT.WHO"), "[G]",
    "never takes a break test and never flees from combat", mark("Unbreakable"))
SWIFTSTRIDE = special(
    "swiftstride", ("CH.RANGE", "CH.REACT", "FP.FLEE_ROLL", "FP.PURSUE_ROLL"), "[G]",
    "rolls 3D6 and drops the lowest for its charge, flee and pursuit distances",
    mark("Swiftstride"))
ALWAYS_STRIKES_FIRST = special(
    "always_strikes_first", ("CC.INITIATIVE", "CC.ASF"), "[G]",
    "strikes before every unit without it, and re-rolls misses against a foe of no higher "
    "Initiative", mark("Always Strikes First"))
HATRED = special(
    "hatred", ("CC.HATRED",), "[G]",
    "re-rolls its misses in the first round of a close combat", mark("Hatred"))
ALWAYS_STRIKES_LAST = special(
    "always_strikes_last", ("CC.INITIATIVE",), "[G]",
    "strikes after every unit without it", mark("Always Strikes Last"))
IMMUNE_TO_PSYCHOLOGY = special(
    "immune_to_psychology", ("CH.REACT", "PANIC.TRIGGERS"), "[G]",
    "may not flee as a charge reaction and takes no panic tests", mark("Immune to Psychology"))
CHARACTER = special(
    "character", ("CC.CHALLENGE",), "[G]",
    "is a character: it may issue and accept challenges", mark("a character"))

# --- equipment ------------------------------------------------------------------------------------

HAND_WEAPON = special(
    "hand_weapon", ("ATK.PARRY",), "[G]",
    "with a shield, on foot, a 6+ parry save against close combat attacks from the front",
    mark("hand weapon"), kind="equipment")
SHIELD = special(
    "shield", ("ATK.PARRY", "ATK.ARMOUR"), "[G]",
    "with a hand weapon, on foot, a 6+ parry save against close combat attacks from the front "
    "(its +1 armour is in the roster's save)", mark("shield"), kind="equipment")
SPEAR = special(
    "spear", ("CC.WHO_FIGHTS", "ATK.TO_WOUND"), "[G]",
    "on foot, one more rank fights; mounted, +1 Strength in a turn it charged", mark("spears"),
    kind="equipment")
HALBERD = special(
    "halberd", ("ATK.TO_WOUND",), "[G]", "+1 Strength on foot", mark("halberds"), kind="equipment")
GREAT_WEAPON = special(
    "great_weapon", ("ATK.TO_WOUND", "CC.INITIATIVE"), "[G]",
    "+2 Strength, and the unit strikes last", mark("great weapons"), kind="equipment")
LANCE = special(
    "lance", ("ATK.TO_WOUND",), "[G]", "+2 Strength in a turn the unit charged", mark("lances"),
    kind="equipment")
ADDITIONAL_HAND_WEAPON = special(
    "additional_hand_weapon", ("CC.WHO_FIGHTS", "ATK.PARRY"), "[G]",
    "one more Attack a model (a model fighting with it does not parry)",
    mark("additional hand weapons"), kind="equipment")
BOW = special(
    "bow", ("CH.REACT",), "[G]", "stand and shoot at 24\"", mark("bows"), kind="equipment")
CROSSBOW = special(
    "crossbow", ("CH.REACT",), "[G]", "stand and shoot at 30\", Strength 4", mark("crossbows"),
    kind="equipment")
HANDGUN = special(
    "handgun", ("CH.REACT",), "[G]", "stand and shoot at 24\", Strength 4, armour piercing",
    mark("handguns"), kind="equipment")
SHORTBOW = special(
    "shortbow", ("CH.REACT", "SHOOT.WEAPONS"), "[G]", "shoots at 18\", Strength 3, volley fire",
    mark("short bows"), kind="equipment")
LONGBOW = special(
    "longbow", ("CH.REACT", "SHOOT.WEAPONS"), "[G]", "shoots at 30\", Strength 3, volley fire",
    mark("longbows"), kind="equipment")
JAVELIN = special(
    "javelin", ("CH.REACT", "SHOOT.WEAPONS"), "[G]", "shoots at 12\" at the user's Strength",
    mark("javelins"), kind="equipment")
THROWING_WEAPONS = special(
    "throwing_weapons", ("CH.REACT", "SHOOT.WEAPONS"), "[G]",
    "shoots at 6\" at the user's Strength", mark("throwing weapons"), kind="equipment")
REPEATER_CROSSBOW = special(
    "repeater_crossbow", ("CH.REACT", "SHOOT.WEAPONS", "SHOOT.HIT"), "[G]",
    "shoots twice a model at 24\", Strength 3, -1 to hit (multiple shots)",
    mark("repeater crossbows"), kind="equipment")
LIGHT_ARMOUR = special(
    "light_armour", ("ATK.ARMOUR",), "[G]",
    "worn armour (the roster's armour save already counts it)", mark("light armour"),
    kind="equipment")
HEAVY_ARMOUR = special(
    "heavy_armour", ("ATK.ARMOUR",), "[G]",
    "worn armour (the roster's armour save already counts it)", mark("heavy armour"),
    kind="equipment")
