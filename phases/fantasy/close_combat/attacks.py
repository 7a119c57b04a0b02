"""The attack sequence (ATK.*): the tables, and a batch of simultaneous attacks as data.

A batch (``Batch``) is every group (``Group``) of attacks that happen at the same time (one
initiative step of a combat, or one stand-and-shoot volley). ATK.SEQUENCE takes every group
through each step before any group goes on to the next, so the dice are asked for stage by
stage: every group's to-hit dice, then every group's to-wound dice, then armour, then ward.
``next_roll`` says which roll comes next from the faces already recorded, and ``tally``
counts a group's results from its faces: both are pure, so replay and ``verify`` count
exactly the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from regiment.core.about import TAGGED_SINCE
from regiment.core.upcast import downcaster, upcaster
from regiment.phases.common.tables import to_hit as to_hit  # ATK.TO_HIT, shared
from regiment.phases.common.tables import to_wound as to_wound  # ATK.TO_WOUND, shared

from ..effects import PartData
from ..rolls import AttackRoll
from ..values import EMPTY

STAGES = ("hit", "hit2", "wound", "armour", "ward", "multiple")
NO_ROLLS: Mapping[str, tuple[int, ...]] = EMPTY


class Group(NamedTuple):
    """One group of attacks from ``unit`` at ``target``, with every need worked out (0: that
    step cannot succeed), and the faces rolled so far, stage by stage. The event that begins
    a step carries each group as plain data (``data``); the batch keeps it typed."""

    unit: str
    target: str
    attacks: int
    hit: int
    hit2: int
    wound: int
    armour: int
    ward: int
    reroll: bool = False
    challenge: bool = False
    shooting: bool = False
    special: SpecialHits | None = None   # special hits, no to-hit roll (ATK.SPECIAL)
    mount: str = ""          # the mount whose attacks these are (CC.MOUNT)
    parry: bool = False      # its ward need is the target's parry save (ATK.PARRY)
    reroll_by: str = ""      # the rule that grants the re-roll of misses (CC.ASF, CC.HATRED)
    poison: bool = False     # a 6 to hit wounds without a roll (SR.POISONED)
    killing: int = 0         # a 6 to wound slays: the wounds it takes (SR.KILLING_BLOW)
    multiple: str = ""       # each unsaved wound becomes this many (SR.MULTIPLE_WOUNDS)...
    cap: int = 0             # ...no more than the target's Wounds
    parts: tuple[PartData, ...] = ()   # the rules that acted (SPECIAL.EFFECTS)
    rolls: Mapping[str, tuple[int, ...]] = NO_ROLLS

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Group:
        """A group from an event's data (``InitiativeStepBegan.strikes``)."""
        rolls = data.get("rolls")
        # _make: tuple.__new__ in C, where the generated __new__ is a Python call
        return cls._make((data["unit"], data["target"], data["attacks"], data["hit"],
                          data["hit2"], data["wound"], data["armour"], data["ward"],
                          bool(data.get("reroll")), bool(data.get("challenge")),
                          bool(data.get("shooting")),
                          SpecialHits.of(data["special"]) if data.get("special") else None,
                          data.get("mount", ""), bool(data.get("parry")),
                          data.get("reroll_by", ""), bool(data.get("poison")),
                          int(data.get("killing", 0)), str(data.get("multiple", "")),
                          int(data.get("cap", 0)), tuple(data.get("parts", ())),
                          {k: tuple(v) for k, v in rolls.items()} if rolls else NO_ROLLS))


class Batch(NamedTuple):
    """ATK.SEQUENCE: the attacks being rolled: one initiative step of a combat (``combat``
    None: a stand-and-shoot volley), its groups, the last roll filed, and how many groups'
    results are in."""

    combat: str | None
    step: str
    groups: tuple[Group, ...]
    last: AttackRoll | None = None
    done: int = 0


def to_hit_shooting(bs: int, modifiers: int) -> tuple[int, int]:
    """ATK.TO_HIT_SHOOTING: 7 - BS on a D6 after modifiers (stand and shoot: -1). A need of
    7+ hits on a 6 then 4+, 8+ on a 6 then 5+, 9+ on a 6 then 6; beyond, no hit is possible
    (0, 0). A natural 1 always misses. Returns (first need, second need or 0)."""
    need = max(2, 7 - bs + modifiers)
    if need <= 6:
        return need, 0
    if need <= 9:
        return 6, need - 3
    return 0, 0


def armour_need(save: int | None, s: int, bonus: int = 0, piercing: int = 0) -> int:
    """ATK.ARMOUR: the save worsened by 1 for each point of Strength above 3 (and armour
    piercing), improved by ``bonus`` (hand weapon and shield in combat). A natural 1 always
    fails; a need of 7+ cannot be made (0)."""
    if save is None:
        return 0
    need = max(2, save + max(0, s - 3) + piercing - bonus)
    return need if need <= 6 else 0


def ward_need(ward: int | None) -> int:
    """ATK.WARD: a ward save is never modified by Strength."""
    return max(2, ward) if ward else 0


def special_hits(value: str, faces: tuple[int, ...], models: int) -> int:
    """ATK.IMPACT, ATK.STOMP: the hits ``models`` make at ``value`` each: a number, or a die
    a model (D3: 1-2 one hit, 3-4 two, 5-6 three; D6: its face)."""
    if value == "D3":
        return sum((f + 1) // 2 for f in faces)
    if value == "D6":
        return sum(faces)
    return models * int(value)


class SpecialHits(NamedTuple):
    """ATK.SPECIAL, ATK.IMPACT, ATK.STOMP: what a group's special hits are (``impact``,
    ``stomp``) and how many hits a model makes (``D3``, ``D6`` or a number). The log holds it
    as ``written()`` (``{"kind": "impact", "hits": "D3"}``: ``InitiativeStepBegan.strikes``,
    ``AttacksResolved.needs``); logs before 0.13.0 as ``text()`` (``impact:D3``), and only
    this class writes or reads either."""

    kind: str
    value: str

    def text(self) -> str:
        return f"{self.kind}:{self.value}"

    def written(self) -> dict[str, str]:
        return {"kind": self.kind, "hits": self.value}

    @classmethod
    def of(cls, text: str | Mapping[str, Any]) -> SpecialHits:
        if not isinstance(text, str):
            return cls(str(text.get("kind", "")), str(text.get("hits", "")))
        kind, _, value = text.partition(":")
        return cls(kind, value)


    @property
    def rolled(self) -> bool:
        """Whether a die says how many hits each model makes."""
        return self.value in ("D3", "D6")


@upcaster("AttacksResolved", 1)
def _special_written(data: dict[str, Any]) -> dict[str, Any]:
    needs = data.get("needs")
    if not isinstance(needs, dict) or not isinstance(needs.get("special"), str):
        return data
    return {**data, "needs": {**needs, "special": SpecialHits.of(needs["special"]).written()}}


@upcaster("InitiativeStepBegan", 1)
def _strikes_written(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "strikes": [
        {**g, "special": SpecialHits.of(g["special"]).written()}
        if isinstance(g, dict) and isinstance(g.get("special"), str) and g["special"] else g
        for g in data.get("strikes", ())]}


@downcaster("InitiativeStepBegan", 2, TAGGED_SINCE)
def _strikes_text(data: dict[str, Any], *_: Any) -> dict[str, Any]:
    return {**data, "strikes": [
        {**g, "special": SpecialHits.of(g["special"]).text()}
        if isinstance(g.get("special"), dict) else g for g in data["strikes"]]}


@downcaster("AttacksResolved", 2, TAGGED_SINCE)
def _special_text(data: dict[str, Any], *_: Any) -> dict[str, Any]:
    needs = data.get("needs")
    if not isinstance(needs, dict) or not isinstance(needs.get("special"), dict):
        return data
    return {**data, "needs": {**needs, "special": SpecialHits.of(needs["special"]).text()}}


def _hits(g: Group, rolls: Mapping[str, tuple[int, ...]]) -> int:
    faces = rolls.get("hit", ())
    if g.special:   # special attacks hit without a roll to hit (ATK.SPECIAL)
        return special_hits(g.special.value, faces, g.attacks)
    if g.hit2 and not g.reroll:   # 7+ to hit: the 6s roll again
        return sum(1 for f in rolls.get("hit2", ()) if f >= g.hit2)
    hits = sum(1 for f in faces if f >= g.hit and f != 1)
    if g.reroll:                   # CC.ASF: misses are re-rolled once
        hits += sum(1 for f in rolls.get("hit2", ()) if f >= g.hit and f != 1)
    return hits


def _poisoned(g: Group, rolls: Mapping[str, tuple[int, ...]]) -> int:
    """SR.POISONED: the hits that wound without a roll: each natural 6 to hit (the first
    roll's, and a re-roll's; where a 6 only lets the die roll again, 7+, none)."""
    if not g.poison or g.special or (g.hit2 and not g.reroll):
        return 0
    sixes = sum(1 for f in rolls.get("hit", ()) if f == 6)
    return sixes + (sum(1 for f in rolls.get("hit2", ()) if f == 6) if g.reroll else 0)


def _wounds(g: Group, rolls: Mapping[str, tuple[int, ...]]) -> tuple[int, int]:
    """ATK.TO_WOUND, SR.POISONED, SR.KILLING_BLOW: the wounds, and how many of them are
    killing blows (a natural 6 to wound, no armour save)."""
    rolled = rolls.get("wound", ())
    wounds = sum(1 for f in rolled if f >= g.wound) if g.wound else 0
    kills = sum(1 for f in rolled if f == 6) if g.killing and g.wound else 0
    return wounds + _poisoned(g, rolls), kills


def _unsaved(g: Group, rolls: Mapping[str, tuple[int, ...]]) -> tuple[int, int, int, int]:
    """ATK.ARMOUR, ATK.WARD: (armour saves, ward saves, unsaved wounds, unsaved killing
    blows). The ward dice are the wounds the armour let through, then the killing blows."""
    wounds, kills = _wounds(g, rolls)
    saved = sum(1 for f in rolls.get("armour", ()) if f >= g.armour) if g.armour else 0
    ward = rolls.get("ward", ())
    through = wounds - kills - saved
    warded = sum(1 for f in ward[:through] if f >= g.ward) if g.ward else 0
    kills_warded = sum(1 for f in ward[through:] if f >= g.ward) if g.ward else 0
    return saved, warded + kills_warded, through - warded, kills - kills_warded


def multiplied(g: Group, unsaved: int, faces: tuple[int, ...]) -> int:
    """SR.MULTIPLE_WOUNDS: the wounds ``unsaved`` wounds become (2, or a die each: D3, D6),
    each no more than the target's Wounds."""
    if not g.multiple:
        return unsaved
    if g.multiple in ("D3", "D6"):
        each = [(f + 1) // 2 if g.multiple == "D3" else f for f in faces]
    else:
        each = [int(g.multiple)] * unsaved
    return sum(min(g.cap or n, n) for n in each)


def dice_needed(g: Group, stage: str) -> int:
    """How many dice ``stage`` of a group rolls, given its earlier stages (ATK.SEQUENCE)."""
    rolls = g.rolls
    if stage == "hit":
        if g.special:   # the dice that say how many hits, a model each (D3, D6)
            return g.attacks if g.special.rolled else 0
        return g.attacks if g.hit else 0
    if stage == "hit2":
        if g.special:
            return 0
        first = rolls.get("hit", ())
        if g.reroll:
            return sum(1 for f in first if f < g.hit or f == 1)
        return sum(1 for f in first if f == 6) if g.hit2 else 0
    if stage == "wound":
        return _hits(g, rolls) - _poisoned(g, rolls) if g.wound else 0
    wounds, kills = _wounds(g, rolls)
    if stage == "armour":
        return wounds - kills if g.armour else 0
    saved = sum(1 for f in rolls.get("armour", ()) if f >= g.armour) if g.armour else 0
    if stage == "ward":
        return wounds - saved if g.ward else 0
    # multiple: a die for each unsaved wound (not a killing blow's, which slays)
    return _unsaved(g, rolls)[2] if g.multiple in ("D3", "D6") else 0


def next_roll(groups: tuple[Group, ...] | list[Group], after: AttackRoll | None = None
              ) -> tuple[int, str, int] | None:
    """ATK.SEQUENCE: the next (group index, stage, dice) to roll, or None when all is known.
    ``after`` is the last roll filed: nothing before it is looked at again."""
    first_stage, first_group = 0, 0
    if after is not None:
        first_stage, first_group = STAGES.index(after.stage), after.group + 1
    for s in range(first_stage, len(STAGES)):
        stage = STAGES[s]
        for i in range(first_group if s == first_stage else 0, len(groups)):
            g = groups[i]
            if stage not in g.rolls:
                n = dice_needed(g, stage)
                if n:
                    return i, stage, n
    return None


def record(groups: tuple[Group, ...] | list[Group], faces: tuple[int, ...],
           at: AttackRoll | None = None) -> tuple[Group, ...]:
    """The groups with ``faces`` filed under the roll they answer: ``at`` (as the roll was
    asked for), or else the one ``next_roll`` names (a roll an engine before 0.9 asked with
    none)."""
    if at is not None:
        i, stage = at.group, at.stage
    else:
        nxt = next_roll(groups)
        if nxt is None:
            return tuple(groups)
        i, stage, _ = nxt
    out = list(groups)
    g = groups[i]
    out[i] = Group._make((*g[:-1], {**g.rolls, stage: tuple(faces)}))  # rolls: the last field
    return tuple(out)


def tally(g: Group) -> dict[str, int]:
    """ATK.SEQUENCE: attacks, hits, wounds, armour saves, ward saves and unsaved wounds
    (SR.MULTIPLE_WOUNDS multiplied, SR.KILLING_BLOW's each the target's Wounds)."""
    rolls = g.rolls
    hits = _hits(g, rolls)
    wounds, _ = _wounds(g, rolls)
    saved, warded, through, kills = _unsaved(g, rolls)
    unsaved = multiplied(g, through, rolls.get("multiple", ())) + kills * (g.killing or 1)
    return {"attacks": g.attacks, "hits": hits, "wounds": wounds, "saved": saved + warded,
            "armour_saved": saved, "ward_saved": warded, "unsaved": unsaved}


def purpose(g: Group, stage: str, step: str = "") -> str:
    """DESIGN roll purposes: to_hit (stand_and_shoot_hit; shooting_hit in the shooting phase,
    SHOOT.HIT), to_wound, armour, ward."""
    if stage in ("hit", "hit2"):
        if g.special:
            return "special_hits"
        if g.shooting:
            return "shooting_hit" if step == "shooting" else "stand_and_shoot_hit"
        return "to_hit"
    return {"wound": "to_wound", "armour": "armour", "ward": "ward",
            "multiple": "multiple_wounds"}[stage]


def roller(g: Group, stage: str) -> str:
    """Whose dice: the attacker's for hits, wounds and their multiples, the target's for
    saves."""
    return g.target if stage in ("armour", "ward") else g.unit
