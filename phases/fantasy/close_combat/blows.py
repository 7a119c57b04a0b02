"""SPECIAL.EFFECTS on a group of attacks: what the attacker's and the target's special rules
do to its count and its needs, each with the part it names in the log (``parts`` of the group,
and of ``AttacksResolved.needs``): extra Attacks, armour (Scaly Skin, Armour Piercing), a save
of the target's own (Regeneration, undone by Flaming Attacks), and the dice that do more on a 6
(Poisoned Attacks, Killing Blow) or multiply a wound (Multiple Wounds)."""

from __future__ import annotations

from typing import Any

from .. import effects
from ..effects import Part
from ..state import UnitState
from ..units import strength_weapon
from . import attacks

SLAIN_OUTRIGHT = ("infantry", "cavalry")   # SR.KILLING_BLOW: what a killing blow slays


def armour_of(e: UnitState, by: UnitState | None) -> tuple[int | None, int, list[Part]]:
    """ATK.ARMOUR, SR.SCALY_SKIN, SR.ARMOUR_PIERCING: ``e``'s armour save (its Scaly Skin,
    improved by 1 for each step its worn armour gave the roster's save), the extra piercing
    of ``by``'s attacks, and the parts that changed them."""
    parts: list[Part] = []
    save = e.armour
    if not effects.any_effects(e) and (by is None or not effects.any_effects(by)):
        return save, 0, parts
    scaly = effects.own_save(e, "armour")
    if scaly is not None:
        part, need = scaly
        worn = 7 - save if save else 0
        better = max(1, need - worn)
        if save is None or better < save:
            parts.append(Part(part.rule, part.special, better - (save or 7), "armour"))
            save = better
    piercing = 0
    if by is not None:
        made = effects.made(by, "piercing", 0)
        piercing = made.value
        parts += [Part(p.rule, p.special, p.change, "armour") for p in made.parts]
    return save, piercing, parts


def ward_of(e: UnitState, by: UnitState | None, ward: int) -> tuple[int, list[Part]]:
    """ATK.WARD, SR.REGENERATION, SR.FLAMING: ``e``'s ward need with its regeneration (the
    better of the two is taken), unless ``by``'s attacks are flaming."""
    if not effects.any_effects(e):
        return ward, []
    regen = effects.own_save(e, "regeneration")
    if regen is None:
        return ward, []
    part, need = regen
    undone = effects.cancels(by, "regeneration") if by is not None else None
    if undone is not None:
        return ward, [Part(undone.rule, undone.special, 0, "ward")]
    if ward and ward <= need:
        return ward, []
    return need, [part]


def struck(g: dict[str, Any], u: UnitState, e: UnitState, parts: list[Part],
           close: bool = True) -> dict[str, Any]:
    """SR.POISONED, SR.KILLING_BLOW, SR.MULTIPLE_WOUNDS: ``g`` with the dice that do more
    (killing blows and multiple wounds in close combat only) and every part that acted."""
    if not parts and not effects.any_effects(u):
        return g
    out = dict(g)
    poison = effects.on_six(u, "to_hit", "wounds")
    if poison is not None and out.get("hit"):
        out["poison"] = True
        parts.append(Part(poison.rule, poison.special, 0, "to_hit"))
    kill = effects.on_six(u, "to_wound", "slays") if close else None
    if kill is not None and e.troop in SLAIN_OUTRIGHT and out.get("wound"):
        out["killing"] = e.profile["W"]
        parts.append(Part(kill.rule, kill.special, 0, "to_wound"))
    many = effects.multiplies(u) if close else None
    if many is not None and e.profile["W"] > 1:
        out["multiple"], out["cap"] = many[1], e.profile["W"]
        parts.append(Part(many[0].rule, many[0].special, 0, "wounds"))
    if parts:   # after the saves' own (shields.saves)
        out["parts"] = [*out.get("parts", ()), *(p.written() for p in parts)]
    return out


def attacks_parts(u: UnitState, extra: int) -> list[Part]:
    """SPECIAL.EFFECTS: the Attacks ``u``'s rules added to a group, ``extra`` in all, shared
    among the rules in proportion to what each gives a model."""
    if not extra:
        return []
    made = [p for p in effects.made(u, "A", 0).parts if p.change]
    total = sum(p.change for p in made)
    if not made or not extra or not total:
        return []
    fighters, left = divmod(extra, total)
    out = [Part(p.rule, p.special, p.change * fighters, "A") for p in made]
    if left:   # a split pool's share: what is left goes to the first rule
        out[0] = Part(out[0].rule, out[0].special, out[0].change + left, "A")
    return [p for p in out if p.change]


def volley(u: UnitState, t: UnitState, g: dict[str, Any], s: int, piercing: int
           ) -> dict[str, Any]:
    """SHOOT.WEAPONS, ATK.ARMOUR, ATK.WARD: a volley's group ``g`` with the target's saves
    against the weapon's Strength ``s`` and ``piercing``, as both units' rules change them."""
    save, extra, parts = armour_of(t, u)
    ward, warded = ward_of(t, u, attacks.ward_need(t.ward))
    out = {k: v for k, v in g.items() if k != "rolls"}   # the log's order: rolls last
    out.update(armour=attacks.armour_need(save, s, 0, piercing + extra), ward=ward,
               rolls=g.get("rolls", {}))
    return struck(out, u, t, [*parts, *warded], close=False)


def armed(u: UnitState, g: dict[str, Any]) -> dict[str, Any]:
    """ATK.TO_WOUND, SPECIAL.EFFECTS: a group of ``u``'s own blows (not its mount's, not
    special hits) names the weapon that added to its Strength (games from engine 0.14.0)."""
    weapon = strength_weapon(u)
    if weapon is None or g.get("mount") or g.get("special"):
        return g
    part = Part("ATK.TO_WOUND", weapon[0], weapon[1], "S").written()
    return {**g, "parts": [part, *g.get("parts", ())]}
