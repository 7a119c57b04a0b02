"""Combat result (CR.*), break tests (BT.*) and Leadership tests (LD.*): pure arithmetic.

Every function returns the parts that made its number, each with its rule and unit, so that
the events carry their reasons and an explanation never has to guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regiment.core.geometry import area_share
from regiment.core.reasons import Reason

from .. import effects, table
from ..close_combat.combat import side_fought, touching
from ..specials import STUBBORN
from ..state import Combat, State, UnitState
from ..units import box, full_ranks
from ..variants import Variant
from ..why import BREAK_TEST, written

Part = dict[str, Any]


def ld_test(ld: int, penalty: int, faces: tuple[int, ...]) -> tuple[bool, int, bool]:
    """LD.TEST, LD.INSANE: pass on 2D6 <= Ld - penalty (Ld capped at 10); a double 1 always
    passes. Returns (passed, the total needed, whether only insane courage passed it)."""
    need = min(10, ld) - penalty
    double_one = len(faces) == 2 and faces[0] == faces[1] == 1
    passed = sum(faces) <= need
    return passed or double_one, need, double_one and not passed


def rank_bonus(u: UnitState) -> int:
    """CR.RANKS: +1 for each full rank after the first, up to +3."""
    return min(3, max(0, full_ranks(u) - 1))


def flank_rear(state: State, side_units: list[UnitState], enemy_units: list[UnitState],
               variant: Variant) -> list[Part]:
    """CR.FLANK, CR.REAR: per enemy unit fought in its flank (+1, +2 if an attacker there has
    a full rank) or rear (+2, +3); flat +1/+2 under fantasy-classic. Several attackers on the
    same facing of one enemy add nothing more."""
    parts = []
    for e in enemy_units:
        facings: dict[str, list[UnitState]] = {}
        for u in side_units:
            side = side_fought(state, e.id, u.id)
            if side in ("left", "right"):
                facings.setdefault("flank", []).append(u)
            elif side == "rear":
                facings.setdefault("rear", []).append(u)
        for facing, who in facings.items():
            ranked = any(full_ranks(u) >= 1 for u in who)
            value = (variant.flank if facing == "flank" else variant.rear)[ranked]
            rule = "CR.FLANK" if facing == "flank" else "CR.REAR"
            parts.append({"rule": rule, "unit": who[0].id, "value": value, "against": e.id})
    return parts


def high_ground(mine: list[UnitState], theirs: list[UnitState], up: set[str]) -> str:
    """CR.HIGH_GROUND (fantasy-classic): the first of ``mine`` standing (half its footprint or
    more) on a hill when no enemy unit in the combat does; "" when none. ``up``: the units
    standing on a hill (``table.on_hills``)."""
    if not up or any(e.id in up for e in theirs):
        return ""
    return next((u.id for u in mine if u.id in up), "")


def side_parts(state: State, combat: Combat, player: str, caused: Mapping[str, int],
               overkill: Mapping[str, int], variant: Variant, hill_areas: list[Any] | None = None,
               free: set[str] | frozenset[str] = frozenset()) -> list[Part]:
    """CR.WOUNDS, CR.OVERKILL, CR.CHARGE, CR.RANKS, CR.STANDARD, CR.BSB, CR.FLANK/REAR,
    CR.BOOKKEEPING: one side's parts of the result, each with the unit that earned it. The
    wounds of every unit of the side add up, those of units that have left (``free``: they
    destroyed their foes, CR.NO_MORE_FOES) too; the other bonuses come once a side from the
    units still fighting."""
    mine = [state.units[u] for u in combat.units if state.units[u].player == player]
    theirs = [state.units[u] for u in combat.units if state.units[u].player != player
              and state.units[u].status == "engaged" and u not in free]
    fighting = [u for u in mine if u.status == "engaged" and u.id not in free]
    hill_areas = hill_areas or []
    # CHAR.IN_UNIT: what a unit's characters caused counts as the unit's
    def of(table: Mapping[str, int], u: UnitState) -> int:
        own = table.get(u.id, 0)
        return own + sum(table.get(c, 0) for c in u.characters) if u.characters else own

    parts: list[Part] = [{"rule": "CR.WOUNDS", "unit": u.id, "value": of(caused, u)}
                         for u in mine if of(caused, u)]
    over = sum(of(overkill, u) for u in mine)
    if over:
        who = next(u.id for u in mine if of(overkill, u))
        parts.append({"rule": "CR.OVERKILL", "unit": who, "value": min(3, over)})
    chargers = [u for u in mine if u.id in combat.chargers]  # this round's
    if chargers:
        hill = any(u.id in combat.hill for u in chargers)
        parts.append({"rule": "CR.CHARGE", "unit": chargers[0].id,
                      "value": variant.hill_charge if hill else 1})
    areas = hill_areas
    up = table.on_hills(state, combat.id, [*fighting, *theirs],
                        lambda u: area_share(box(u), areas) >= 0.5) \
        if variant.high_ground else set()
    on_high = high_ground(fighting, theirs, up)
    if on_high:
        parts.append({"rule": "CR.HIGH_GROUND", "unit": on_high, "value": 1})
    if fighting:
        best = max(fighting, key=rank_bonus)
        if rank_bonus(best):
            parts.append({"rule": "CR.RANKS", "unit": best.id, "value": rank_bonus(best)})
        flag = next((u for u in fighting if "standard" in u.command), None)
        if flag is not None:
            parts.append({"rule": "CR.STANDARD", "unit": flag.id, "value": 1})
        bsb = next((u for u in fighting if u.battle_standard or any(
            state.units[c].battle_standard for c in u.characters)), None)
        if bsb is not None:
            parts.append({"rule": "CR.BSB", "unit": bsb.id, "value": 1})
        parts += flank_rear(state, fighting, theirs, variant)
    return parts


def decide(totals: dict[str, int], musicians: dict[str, bool]
           ) -> tuple[str | None, int, str | None]:
    """CR.WINNER, CR.MUSICIAN: (winner or None on a draw, margin, the side a musician won it
    for). On equal results a side with a musician wins by 1 if the other has none."""
    (a, ta), (b, tb) = totals.items()
    if ta != tb:
        return (a, ta - tb, None) if ta > tb else (b, tb - ta, None)
    if musicians.get(a) != musicians.get(b):
        side = a if musicians.get(a) else b
        return side, 1, side
    return None, 0, None


def steadfast(state: State, combat: Combat, uid: str) -> tuple[bool, Reason | None]:
    """BT.STEADFAST, BT.DISRUPTED: more full ranks than every enemy unit it faces, unless an
    enemy with two or more full ranks fights it in the flank or rear (the seed's reading:
    disrupted units cannot be steadfast)."""
    u = state.units[uid]
    foes = touching(state, combat, uid)
    if not foes:
        return False, None
    for e, side in foes:
        if side != "front" and full_ranks(e) >= 2:
            return False, written(BREAK_TEST, state, "disrupted", enemy=e.id, side=side)
    mine = full_ranks(u)
    if all(mine > full_ranks(e) for e, _ in foes):
        return True, written(BREAK_TEST, state, "more_ranks", mine=mine,
                             theirs=max(full_ranks(e) for e, _ in foes))
    return False, None


def break_penalty(state: State, combat: Combat, uid: str, margin: int
                  ) -> tuple[int, bool, Reason | None]:
    """BT.TEST, BT.STEADFAST, BT.SPECIAL: the penalty (the margin), none if steadfast or
    stubborn. Returns (penalty, steadfast, why)."""
    u = state.units[uid]
    firm, why = steadfast(state, combat, uid)
    if firm:
        return 0, True, why
    if effects.spared(u, "break_penalty") is not None:   # Stubborn (SPECIAL.EFFECTS)
        return 0, False, written(BREAK_TEST, state, "stubborn",
                                 rules=", ".join(STUBBORN.rules))
    return margin, False, why

