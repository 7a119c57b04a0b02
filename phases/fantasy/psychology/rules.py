"""Who tests for fear and terror, and what failing does (SR.FEAR, SR.TERROR)."""

from __future__ import annotations

from .. import effects
from ..close_combat.combat import touching
from ..effects import Part
from ..state import Fight, State, UnitState


def fear_tests(state: State, fight: Fight) -> list[str]:
    """SR.FEAR: the units of the combat being fought that test for fear this round, in the
    combat's order: engaged, touching an enemy that causes fear, not spared it (a unit that
    causes fear itself, Immune to Psychology), and not tested yet this round."""
    cmb = state.combats.get(fight.combat)
    if cmb is None or not any(effects.causes(state.units[u], "fear") for u in cmb.units):
        return []
    out = []
    for uid in cmb.units:
        u = state.units[uid]
        if u.status != "engaged" or uid in fight.fear or effects.spared(u, "fear"):
            continue
        if any(effects.causes(e, "fear") for e, _ in touching(state, cmb, uid)):
            out.append(uid)
    return out


def frightened(state: State, fight: Fight) -> dict[str, Part]:
    """SR.FEAR: the units that failed their fear test this round, each with the rule of the
    enemy that frightens it: they fight with Weapon Skill 1."""
    cmb = state.combats.get(fight.combat)
    out: dict[str, Part] = {}
    if cmb is None:
        return out
    for uid, passed in fight.fear.items():
        if not passed and uid in state.units:
            part = next((p for e, _ in touching(state, cmb, uid)
                         if (p := effects.causes(e, "fear")) is not None), None)
            if part is not None:
                out[uid] = part
    return out


def terror_test(state: State, charger: UnitState, target: UnitState) -> bool:
    """SR.TERROR: a ready unit charged by one that causes terror tests, once a turn, unless a
    rule spares it."""
    return (target.status == "ready" and target.id not in state.context.terror
            and effects.causes(charger, "terror") is not None
            and effects.spared(target, "terror") is None)


def terrified(state: State, target: UnitState) -> bool:
    """SR.TERROR: it failed its terror test this turn: it may only flee."""
    return state.context.terror.get(target.id) is False
