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

from .effects import (
    DECLARED,
    Cancels,
    Causes,
    Effect,
    Forbidden,
    Forced,
    Modify,
    Multiplies,
    OnSix,
    Reroll,
    Save,
    Spared,
    Strikes,
)


@dataclass(frozen=True)
class Special:
    name: str                       # as a scenario writes it
    kind: Literal["rule", "equipment"]
    rules: tuple[str, ...]          # the rule IDs whose functions read it
    source: str                     # the page it comes from, or [G]
    changes: str                    # what it changes, in one sentence
    told: str                       # how the narration names it
    effects: tuple[Effect, ...] = ()   # what it does, where (effects.py)
    takes: str = ""                 # a value written after its name: "save" (5+), "hits" (D3)


SPECIALS: dict[str, Special] = {}


def special(name: str, rules: tuple[str, ...], source: str, changes: str, told: str,
            kind: Literal["rule", "equipment"] = "rule", effects: tuple[Effect, ...] = (),
            takes: str = "") -> Special:
    """SPECIAL.REGISTRY, SPECIAL.EFFECTS: declare a special rule or piece of equipment: the
    rule IDs it acts in (those of its effects are added), and its effects."""
    if name in SPECIALS:
        raise ValueError(f"the special rule {name!r} is declared twice")
    acts = tuple(dict.fromkeys((*rules, *(e.rule for e in effects))))
    declared = SPECIALS[name] = Special(name, kind, acts, source, changes, told, effects, takes)
    DECLARED[name] = effects
    return declared


def known(kind: Literal["rule", "equipment"]) -> tuple[str, ...]:
    """The names a scenario may use in a unit's ``rules`` or ``equipment``, in order."""
    return tuple(s.name for s in SPECIALS.values() if s.kind == kind)


VALUES = {"save": ("2+", "3+", "4+", "5+", "6+", "2", "3", "4", "5", "6"),
          "hits": ("2", "3", "4", "5", "6", "D3", "D6")}


def written(item: str) -> tuple[Special | None, str]:
    """A unit's rule as a scenario writes it, ``frenzy`` or ``scaly_skin 5+``: its
    declaration (None: unknown) and its value (``""``: none written)."""
    name, _, value = item.partition(" ")
    return SPECIALS.get(name), value.strip()


class Bearer(Protocol):
    """Whatever has rules and equipment (a unit's state, read-only)."""

    @property
    def rules(self) -> tuple[str, ...]: ...

    @property
    def equipment(self) -> tuple[str, ...]: ...


def has(u: Bearer, rule: Special) -> bool:
    """The unit has this special rule (with a value or without)."""
    return rule.name in u.rules or any(r.partition(" ")[0] == rule.name for r in u.rules
                                       if " " in r)


def carries(u: Bearer, item: Special) -> bool:
    """The unit carries this equipment."""
    return item.name in u.equipment


# --- special rules ------------------------------------------------------------------------------

STUBBORN = special(
    "stubborn", ("BT.SPECIAL",), "[G]",
    "takes its break tests on its Leadership without the combat's penalty", mark("stubborn"),
    effects=(Spared("BT.SPECIAL", what=("break_penalty",)),))
UNBREAKABLE = special(
    "unbreakable", ("BT.SPECIAL", "BT.WHO"), "[G]",
    "never takes a break test and never flees from combat", mark("Unbreakable"),
    effects=(Spared("BT.SPECIAL", what=("break_test",)),))
SWIFTSTRIDE = special(
    "swiftstride", ("CH.RANGE", "CH.REACT", "FP.FLEE_ROLL", "FP.PURSUE_ROLL"), "[G]",
    "rolls 3D6 and drops the lowest for its charge, flee and pursuit distances",
    mark("Swiftstride"))
ALWAYS_STRIKES_FIRST = special(
    "always_strikes_first", ("CC.INITIATIVE", "CC.ASF"), "[G]",
    "strikes before every unit without it, and re-rolls misses against a foe of no higher "
    "Initiative", mark("Always Strikes First"),
    effects=(Strikes("CC.INITIATIVE", order="first"),
             Reroll("CC.ASF", "no_higher_initiative", roll="to_hit")))
HATRED = special(
    "hatred", ("CC.HATRED",), "[G]",
    "re-rolls its misses in the first round of a close combat", mark("Hatred"),
    effects=(Reroll("CC.HATRED", "first_round", roll="to_hit"),))
ALWAYS_STRIKES_LAST = special(
    "always_strikes_last", ("CC.INITIATIVE",), "[G]",
    "strikes after every unit without it", mark("Always Strikes Last"),
    effects=(Strikes("CC.INITIATIVE", order="last"),))
IMMUNE_TO_PSYCHOLOGY = special(
    "immune_to_psychology", ("CH.REACT", "PANIC.TRIGGERS"), "[G]",
    "may not flee as a charge reaction and takes no panic tests", mark("Immune to Psychology"),
    effects=(Forbidden("SR.ITP", choice="flee"),
             Spared("SR.ITP", what=("panic", "fear", "terror"))))
FRENZY = special(
    "frenzy", (), "[G]",
    "+1 Attack, must pursue a broken foe, and is immune to psychology (may not flee as a "
    "charge reaction, takes no panic tests)", mark("Frenzy"),
    effects=(Modify("SR.FRENZY", what="A", by=1), Forced("SR.FRENZY", choice="pursue"),
             Forbidden("SR.FRENZY", choice="flee"),
             Spared("SR.FRENZY", what=("panic", "fear", "terror"))))
FEAR = special(
    "fear", (), "[G]",
    "enemies in base contact test their Leadership at the start of each round, fighting "
    "with Weapon Skill 1 that round if they fail; it is immune to fear itself", mark("Fear"),
    effects=(Causes("SR.FEAR", what=("fear",)), Spared("SR.FEAR", what=("fear",))))
TERROR = special(
    "terror", (), "[G]",
    "causes fear, and a unit it charges takes a panic test first, fleeing if it fails; it is "
    "immune to fear and terror itself", mark("Terror"),
    effects=(Causes("SR.TERROR", what=("fear", "terror")),
             Spared("SR.TERROR", what=("fear", "terror"))))
DEVASTATING_CHARGE = special(
    "devastating_charge", (), "[G]", "+1 Attack in the turn it charged",
    mark("Devastating Charge"), effects=(Modify("SR.DEVASTATING_CHARGE", "charged", "A", 1),))
KILLING_BLOW = special(
    "killing_blow", (), "[G]",
    "a 6 to wound slays an infantry or cavalry model outright, with no armour save",
    mark("Killing Blow"), effects=(OnSix("SR.KILLING_BLOW", roll="to_wound", then="slays"),))
POISONED_ATTACKS = special(
    "poisoned_attacks", (), "[G]", "a 6 to hit wounds without a roll to wound",
    mark("Poisoned Attacks"), effects=(OnSix("SR.POISONED", roll="to_hit", then="wounds"),))
ARMOUR_PIERCING = special(
    "armour_piercing", (), "[G]", "its hits worsen the foe's armour save by 1 more",
    mark("Armour Piercing"), effects=(Modify("SR.ARMOUR_PIERCING", what="piercing", by=1),))
REGENERATION = special(
    "regeneration", (), "[G]",
    "a ward save of its own against every wound (4+, or the value written after it), but "
    "not against flaming attacks", mark("Regeneration"),
    effects=(Save("SR.REGENERATION", kind="regeneration", need=4),), takes="save")
FLAMING_ATTACKS = special(
    "flaming_attacks", (), "[G]", "no regeneration save may be taken against its wounds",
    mark("Flaming Attacks"), effects=(Cancels("SR.FLAMING", save="regeneration"),))
SCALY_SKIN = special(
    "scaly_skin", (), "[G]",
    "an armour save of the value written after it (scaly_skin 5+), each step of worn armour "
    "improving it by 1", mark("Scaly Skin"),
    effects=(Save("SR.SCALY_SKIN", kind="armour", need=6),), takes="save")
MULTIPLE_WOUNDS = special(
    "multiple_wounds", (), "[G]",
    "each unsaved wound becomes the value written after it (2, D3, D6), no more than the "
    "model's Wounds", mark("Multiple Wounds"),
    effects=(Multiplies("SR.MULTIPLE_WOUNDS", wounds="2"),), takes="hits")
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
    "+2 Strength, and the unit strikes last", mark("great weapons"), kind="equipment",
    effects=(Strikes("CC.INITIATIVE", order="last"),))
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
