"""Close combat (CC.*): who is fighting whom, who fights, initiative steps, the attacks.

A combat is plain data kept in ``GameState.combats``: its id, its units, its round, and the
units that charged into it (with whether they charged down a hill). Who touches whom, and on
which side, is read from the table each time it is needed (GEO.ARCS), since casualties change
a unit's depth.
"""

from __future__ import annotations

from typing import Any

from regiment.core.geometry import EPS, MM_PER_INCH, contact
from regiment.core.state import GameState, UnitState

from . import attacks
from .units import (
    ON_FOOT,
    attacks_of,
    box,
    carries,
    has,
    has_champion,
    horde,
    rank_sizes,
    strength,
)

Combat = dict[str, Any]


def enemies(state: GameState, combat: Combat, uid: str) -> list[UnitState]:
    """The enemy units of ``uid`` in its combat that are still on the table, fighting."""
    me = state.units[uid]
    return [state.units[o] for o in combat["units"]
            if state.units[o].player != me.player and state.units[o].status == "engaged"]


def touching(state: GameState, combat: Combat, uid: str) -> list[tuple[UnitState, str]]:
    """Enemies in base contact with ``uid`` and the side of ``uid`` each touches."""
    me = state.units[uid]
    out = []
    for e in enemies(state, combat, uid):
        c = contact(box(me), box(e))
        if c is not None:
            out.append((e, c[0]))
    return out


def side_fought(state: GameState, uid: str, enemy: str) -> str | None:
    """GEO.ARCS: the side of ``uid`` (front, left, right, rear) that ``enemy`` fights."""
    c = contact(box(state.units[uid]), box(state.units[enemy]))
    return None if c is None else c[0]


def models_in_contact(u: UnitState, e: UnitState) -> tuple[int, str]:
    """CC.WHO_FIGHTS: how many of ``u``'s models touch ``e`` (corner to corner counts), and
    the side of ``u`` they are on."""
    c = contact(box(u), box(e))
    if c is None:
        return 0, ""
    side, lo, hi = c
    along = (u.base[0] if side in ("front", "rear") else u.base[1]) / MM_PER_INCH
    sizes = rank_sizes(u)
    if side == "front":
        present = sizes[0] if sizes else 0
    elif side == "rear":
        present = sizes[-1] if sizes else 0
    else:
        present = len(sizes)
    n = sum(1 for i in range(present) if i * along <= hi + 1e-3 and (i + 1) * along >= lo - 1e-3)
    return n, side


def supporting(u: UnitState, fighting: int, charged: bool) -> int:
    """CC.WHO_FIGHTS: supporting attacks from the ranks behind a unit fighting to its front:
    one rank, one more for a horde, one more for infantry with spears (not in a turn they
    charged); each model one attack (monstrous infantry up to 3)."""
    ranks = 1 + horde(u) + (carries(u, "spear") and u.troop in ON_FOOT and not charged)
    each = min(3, u.profile["A"]) if u.troop == "monstrous_infantry" else 1
    sizes = rank_sizes(u)
    return sum(min(fighting, sizes[r]) * each for r in range(1, 1 + ranks) if r < len(sizes))


def strike_order(u: UnitState) -> tuple[int, int]:
    """CC.INITIATIVE, CC.ASF: Always Strikes First before everyone, Always Strikes Last (and
    great weapons) after; both, or neither: by Initiative."""
    first = has(u, "always_strikes_first")
    last = has(u, "always_strikes_last") or carries(u, "great_weapon")
    tier = 2 if first and not last else 0 if last and not first else 1
    return tier, u.profile["I"]


TIERS = {2: "asf", 1: "initiative", 0: "asl"}


def step_label(u: UnitState) -> str:
    """The name of the initiative step ``u`` strikes in: ``asf_4``, ``initiative_3``..."""
    tier, i = strike_order(u)
    return f"{TIERS[tier]}_{i}"


def step_order(label: str) -> tuple[int, int]:
    name, i = label.rsplit("_", 1)
    return {v: k for k, v in TIERS.items()}[name], int(i)


def steps(state: GameState, combat: Combat) -> list[str]:
    """CC.INITIATIVE: the steps of a round, first to strike first."""
    labels = {step_label(state.units[u]) for u in combat["units"]
              if state.units[u].status == "engaged"}
    return sorted(labels, key=step_order, reverse=True)


def describe_step(label: str) -> str:
    tier, i = step_order(label)
    return {2: f"Always Strikes First (I{i})", 0: f"Always Strikes Last (I{i})"}.get(
        tier, f"Initiative {i}")


def shield_bonus(u: UnitState) -> int:
    """ATK.ARMOUR: hand weapon and shield, on foot: +1 to the armour save in close combat."""
    other = any(carries(u, w) for w in ("great_weapon", "halberd", "spear"))
    return 1 if carries(u, "shield") and not other and u.troop in ON_FOOT else 0


def group(u: UnitState, e: UnitState, attacks_n: int, challenge: bool = False
          ) -> dict[str, Any]:
    """One group of close combat attacks from ``u`` at ``e``, with every need worked out."""
    s = strength(u)
    reroll = has(u, "always_strikes_first") and u.profile["I"] >= e.profile["I"]
    return {"unit": u.id, "target": e.id, "attacks": attacks_n, "challenge": challenge,
            "hit": attacks.to_hit(u.profile["WS"], e.profile["WS"]), "hit2": 0,
            "reroll": reroll, "wound": attacks.to_wound(s, e.profile["T"]),
            "armour": attacks.armour_need(e.armour, s, shield_bonus(e)),
            "ward": attacks.ward_need(e.ward), "rolls": {}}


def strikes(state: GameState, combat: Combat, step: str, fight: dict[str, Any]
            ) -> list[dict[str, Any]]:
    """CC.WHO_FIGHTS, CC.CHALLENGE: the groups of attacks made in one initiative step."""
    out = []
    duel = fight.get("duel") or {}
    for uid in combat["units"]:
        u = state.units[uid]
        if u.status != "engaged" or step_label(u) != step:
            continue
        in_duel = uid in duel
        for e, _side in touching(state, combat, uid):
            n, side = models_in_contact(u, e)
            if n == 0:
                continue
            a = attacks_of(u)
            # a champion stands in the front rank: one attack more when that rank fights
            champion = has_champion(u) and side == "front"
            total = n * a + (1 if champion else 0)
            if side == "front" and (in_duel or uid in fight.get("stood_back", ())):
                # the fighter attacks only the foe, or (refused) stands back and not at all
                total -= a + 1 if champion else a
            if side == "front":
                total += supporting(u, n, u.charged)
            if total > 0:
                out.append(group(u, e, total))
        if in_duel:
            foe = state.units[duel[uid]]
            out.append(group(u, foe, attacks_of(u) + (1 if has_champion(u) else 0),
                             challenge=True))
    return out


def in_contact_at_all(a: UnitState, b: UnitState) -> bool:
    c = contact(box(a), box(b))
    return c is not None and c[2] - c[1] > EPS
