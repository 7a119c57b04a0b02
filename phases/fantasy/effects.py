"""SPECIAL.EFFECTS: what a special rule does, declared as data, and the numbers made with it.

A special rule (``specials.py``) is a list of effects, each saying where it acts and the rule
ID it acts under:

- ``Modify``: a characteristic or a need changes (``A`` +1; ``armour`` -1 is a better save;
  ``piercing`` +1 is a worse save for the foe);
- ``Reroll``: a roll is taken again (the misses to hit);
- ``OnSix``: a natural 6 does more (to hit: it wounds; to wound: it slays, no armour save);
- ``Save``: a save of its own (regeneration), which ``Cancels`` of the attacker's undoes;
- ``Spared``: a test or a penalty the unit never takes (panic, a break test, the combat's
  penalty);
- ``Forced`` and ``Forbidden``: a choice made for the unit (must pursue) or taken from it (may
  not flee);
- ``Strikes``: its place in the order of blows (first, last);
- ``Causes``: what its foes must test for (fear, terror);
- ``Multiplies``: each unsaved wound becomes several.

The engine asks the effects wherever such a number or choice is made (``made``, ``spared``,
``forced``, ``forbidden``, ``reroll``...), never the rule's name, and every number made that
way carries its parts (``Made``): the base, then each rule with its change. The log keeps the
parts, so the story names every rule that acted, in every language, by construction.

An effect acts only when its condition holds (``when``: a name in ``WHEN``, a small pure
function of the unit, its foe and the round), so a declaration stays data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol, Required, TypedDict, TypeVar

from regiment.core.i18n import tr


class Bearer(Protocol):
    """Whatever has a profile, rules and equipment (a unit's state, read-only)."""

    @property
    def rules(self) -> tuple[str, ...]: ...

    @property
    def equipment(self) -> tuple[str, ...]: ...

    @property
    def profile(self) -> dict[str, int]: ...

    @property
    def charged(self) -> bool: ...


@dataclass(frozen=True)
class Ask:
    """Where the engine asks: the unit, the foe (if any) and the round of close combat (0:
    outside close combat)."""

    unit: Bearer
    foe: Bearer | None = None
    round: int = 0


def _first_round(a: Ask) -> bool:
    return a.round == 1


def _charged(a: Ask) -> bool:
    return a.unit.charged and a.round <= 1


def _no_higher_initiative(a: Ask) -> bool:
    return a.foe is not None and a.unit.profile["I"] >= a.foe.profile["I"]


# The conditions an effect may act under, by name: small pure functions of where it is asked
WHEN: dict[str, Callable[[Ask], bool]] = {
    "always": lambda a: True,
    "first_round": _first_round,              # the first round of a close combat
    "charged": _charged,                      # in the turn the unit charged
    "no_higher_initiative": _no_higher_initiative,   # against a foe of no higher Initiative
}


@dataclass(frozen=True)
class Effect:
    rule: str                  # the rule ID it acts under
    when: str = "always"       # a name in WHEN

    def holds(self, ask: Ask) -> bool:
        return WHEN[self.when](ask)


@dataclass(frozen=True)
class Modify(Effect):
    what: str = ""             # "A", "S", "I", "armour" (own save), "piercing" (foe's save)
    by: int = 0


@dataclass(frozen=True)
class Reroll(Effect):
    roll: str = "to_hit"       # the misses of this roll are taken again


@dataclass(frozen=True)
class OnSix(Effect):
    roll: str = "to_hit"       # a natural 6 on this roll...
    then: Literal["wounds", "slays"] = "wounds"   # ...wounds without a roll, or slays


@dataclass(frozen=True)
class Save(Effect):
    kind: str = "regeneration"   # a save of its own, taken like a ward save (ATK.WARD)
    need: int = 4


@dataclass(frozen=True)
class Cancels(Effect):
    save: str = "regeneration"   # the foe's save of this kind is not taken against it


@dataclass(frozen=True)
class Spared(Effect):
    what: tuple[str, ...] = ()   # "panic", "fear", "terror", "break_test", "break_penalty"


@dataclass(frozen=True)
class Forced(Effect):
    choice: str = ""             # "pursue": it may not restrain


@dataclass(frozen=True)
class Forbidden(Effect):
    choice: str = ""             # "flee": it may not flee as a charge reaction


@dataclass(frozen=True)
class Strikes(Effect):
    order: Literal["first", "last"] = "first"


@dataclass(frozen=True)
class Causes(Effect):
    what: tuple[str, ...] = ()   # what its foes must test for: "fear", "terror"


@dataclass(frozen=True)
class Multiplies(Effect):
    wounds: str = "2"            # each unsaved wound becomes this many: "2", "D3", "D6"


class PartData(TypedDict, total=False):
    """A part as the log keeps it: ``{"rule", "special", "of", "change"}`` (``of`` and
    ``change`` left out when empty)."""

    rule: Required[str]
    special: Required[str]
    of: str
    change: int


class SparedData(PartData, total=False):
    """A test a rule spared, in ``PanicCaused.spared``: the part and the unit."""

    unit: Required[str]


@dataclass(frozen=True)
class Part:
    """One rule's share of a number: the rule ID, the special rule that has it and its
    change (0: it acted without changing a count, as a re-roll or a test not taken)."""

    rule: str
    special: str
    change: int = 0
    of: str = ""                 # what it changed: "A", "armour", "ward"...

    def written(self) -> PartData:
        out: PartData = {"rule": self.rule, "special": self.special}
        if self.of:
            out["of"] = self.of
        if self.change:
            out["change"] = self.change
        return out

    @classmethod
    def of_data(cls, data: PartData) -> Part:
        return cls(str(data.get("rule", "")), str(data.get("special", "")),
                   int(data.get("change", 0)), str(data.get("of", "")))


@dataclass(frozen=True)
class Made:
    """A number with its parts: the base, then each rule and its change."""

    base: int
    parts: tuple[Part, ...] = ()

    @property
    def value(self) -> int:
        return self.base + sum(p.change for p in self.parts)


E = TypeVar("E", bound=Effect)
# special rule name -> (its effects, and the value written after its name, if any): filled
# by ``specials.special``; here so that this module needs nothing of the rulebook's
DECLARED: dict[str, tuple[Effect, ...]] = {}


@lru_cache(maxsize=4096)
def named(rules: tuple[str, ...], equipment: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The special rules and equipment of a unit with effects: (name, written value)."""
    out = []
    for item in (*rules, *equipment):
        name, _, value = item.partition(" ")
        if DECLARED.get(name):
            out.append((name, value))
    return tuple(out)


def any_effects(u: Bearer) -> bool:
    """Whether any of ``u``'s rules or equipment has effects (the common case: none, and
    every question below is answered at once)."""
    return bool(named(u.rules, u.equipment))


def acting(u: Bearer, kind: type[E]) -> Iterator[tuple[str, str, E]]:
    """Each effect of ``kind`` ``u``'s rules declare: (special rule, its value, effect)."""
    for name, value in named(u.rules, u.equipment):
        for e in DECLARED[name]:
            if isinstance(e, kind):
                yield name, value, e


def made(u: Bearer, what: str, base: int, ask: Ask | None = None) -> Made:
    """SPECIAL.EFFECTS: ``base`` with every ``Modify`` of ``what`` that holds now."""
    if not named(u.rules, u.equipment):
        return Made(base)
    ask = ask or Ask(u)
    parts = tuple(Part(e.rule, name, e.by, what) for name, _, e in acting(u, Modify)
                  if e.what == what and e.holds(ask))
    return Made(base, parts)


def spared(u: Bearer, what: str, ask: Ask | None = None) -> Part | None:
    """SPECIAL.EFFECTS: the rule that spares ``u`` a test or a penalty (``what``), or None."""
    ask = ask or Ask(u)
    return next((Part(e.rule, name) for name, _, e in acting(u, Spared)
                 if what in e.what and e.holds(ask)), None)


def forced(u: Bearer, choice: str) -> Part | None:
    """SPECIAL.EFFECTS: the rule that makes ``u`` take ``choice``, or None."""
    return next((Part(e.rule, name) for name, _, e in acting(u, Forced)
                 if e.choice == choice and e.holds(Ask(u))), None)


def forbidden(u: Bearer, choice: str) -> Part | None:
    """SPECIAL.EFFECTS: the rule that keeps ``u`` from ``choice``, or None."""
    return next((Part(e.rule, name) for name, _, e in acting(u, Forbidden)
                 if e.choice == choice and e.holds(Ask(u))), None)


def reroll(u: Bearer, roll: str, ask: Ask) -> Part | None:
    """SPECIAL.EFFECTS: the first rule, in the order they are declared, that lets ``u``
    re-roll its misses of ``roll`` now, or None."""
    found = {name: e for name, _, e in acting(u, Reroll) if e.roll == roll and e.holds(ask)}
    return next((Part(found[n].rule, n) for n in DECLARED if n in found), None)   # in order


def strikes(u: Bearer) -> tuple[Part | None, Part | None]:
    """SPECIAL.EFFECTS: the rules that make ``u`` strike first, and last (CC.INITIATIVE)."""
    first = last = None
    if not named(u.rules, u.equipment):
        return first, last
    for name, _, e in acting(u, Strikes):
        if e.order == "first" and first is None:
            first = Part(e.rule, name)
        elif e.order == "last" and last is None:
            last = Part(e.rule, name)
    return first, last


def on_six(u: Bearer, roll: str, then: str) -> Part | None:
    """SPECIAL.EFFECTS: the rule that makes a natural 6 on ``roll`` do ``then``, or None."""
    return next((Part(e.rule, name) for name, _, e in acting(u, OnSix)
                 if e.roll == roll and e.then == then), None)


def own_save(u: Bearer, kind: str) -> tuple[Part, int] | None:
    """SPECIAL.EFFECTS: ``u``'s save of ``kind`` (its rule, its need), or None; a value
    written after the rule's name (``regeneration 5``) is its need."""
    for name, value, e in acting(u, Save):
        if e.kind == kind:
            return Part(e.rule, name, of="ward"), int(value.rstrip("+") or e.need)
    return None


def cancels(u: Bearer, save: str) -> Part | None:
    """SPECIAL.EFFECTS: the rule of ``u``'s attacks that undoes the foe's ``save``."""
    return next((Part(e.rule, name) for name, _, e in acting(u, Cancels) if e.save == save),
                None)


def causes(u: Bearer, what: str) -> Part | None:
    """SPECIAL.EFFECTS: the rule by which ``u`` causes ``what`` (fear, terror), or None."""
    if not named(u.rules, u.equipment):
        return None
    return next((Part(e.rule, name) for name, _, e in acting(u, Causes) if what in e.what),
                None)


def multiplies(u: Bearer) -> tuple[Part, str] | None:
    """SPECIAL.EFFECTS: the rule that multiplies ``u``'s unsaved wounds, and by how many."""
    for name, value, e in acting(u, Multiplies):
        return Part(e.rule, name), value or e.wounds
    return None


def told(part: Part | PartData) -> str:
    """The special rule of a part, as the story names it: ``Frenzy``."""
    from .specials import SPECIALS

    p = part if isinstance(part, Part) else Part.of_data(part)
    found = SPECIALS.get(p.special)
    return tr(found.told) if found else p.special


def parts_of(data: Iterable[Part | PartData] | None) -> list[Part]:
    """The parts a log holds (``needs.parts``, ``spared``...), typed."""
    return [p if isinstance(p, Part) else Part.of_data(p) for p in data or ()]


def changes_told(parts: Iterable[Part | PartData] | None, of: str) -> str:
    """The parts that changed ``of``, as the story tells them: `` (Frenzy +5)`` or ``""``."""
    said = [p for p in parts_of(parts) if p.of == of and p.change]
    if not said:
        return ""
    return " (" + ", ".join(f"{told(p)} {p.change:+d}" for p in said) + ")"


def reroll_told(rule: str) -> str:
    """The special rule that grants re-rolls under ``rule`` (a log's ``reroll_by``), as the
    story names it."""
    from .specials import SPECIALS

    found = next((s for s in SPECIALS.values() for e in s.effects
                  if isinstance(e, Reroll) and e.rule == rule), None)
    return tr(found.told) if found is not None else rule


def acted(parts: Iterable[Part | PartData] | None, needs: Mapping[str, object]
          ) -> tuple[str, list[str]]:
    """What the special rules did to a group of attacks, as the story tells it (``; Frenzy:
    +5 attacks; Poisoned Attacks: each 6 to hit wounds``), and their rule IDs."""
    said, rules = [], []
    for p in parts_of(parts):
        name = told(p)
        if p.of == "A":
            change = format(p.change, "+d")
            said.append(tr("{rule}: {change} attacks", rule=name, change=change))
        elif p.of == "armour" and p.change > 0:
            said.append(tr("{rule}: the armour save {n} worse", rule=name, n=p.change))
        elif p.of == "armour":
            said.append(tr("{rule}: the armour save {n} better", rule=name, n=-p.change))
        elif p.of == "ward" and p.special == "regeneration":
            said.append(tr("{rule}: a {need}+ save of its own", rule=name,
                           need=needs.get("ward", 0)))
        elif p.of == "ward":
            said.append(tr("{rule}: no regeneration save", rule=name))
        elif p.of == "S":
            change = format(p.change, "+d")
            said.append(tr("{rule}: {change} Strength", rule=name, change=change))
        elif p.of == "WS":
            said.append(tr("{rule}: Weapon Skill 1 this round", rule=name))
        elif p.of == "foe_WS":
            said.append(tr("{rule}: the foe's Weapon Skill 1 this round", rule=name))
        elif p.of == "to_hit":
            said.append(tr("{rule}: each 6 to hit wounds", rule=name))
        elif p.of == "to_wound":
            said.append(tr("{rule}: each 6 to wound slays", rule=name))
        elif p.of == "wounds":
            said.append(tr("{rule}: each unsaved wound becomes {n}", rule=name,
                           n=needs.get("multiple", "")))
        else:
            said.append(name)
        rules.append(p.rule)
    return "".join(f"; {x}" for x in said), rules
