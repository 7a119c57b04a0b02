"""The fantasy rulebook's plain bot (``tools/bot.py`` asks it through the preset's view).

It charges what it will probably reach, moves toward the nearest enemy to charge it next
turn (marching when none is near), shoots at the target it expects to hurt most (the
nearest of equals), holds (or stands and shoots), pursues, challenges and accepts, turns to
face an enemy in its flank. It exists to drive demos, simulations and property tests, not to
play well.
"""

from __future__ import annotations

from functools import cache, lru_cache

from regiment.core import geometry as geo
from regiment.core.commands import Command
from regiment.core.pending import Decision
from regiment.phases.common.table import measured

from .charge import box_gap, gap
from .commands import DeclareCharge, LeaveUnit, Move, React, Shoot
from .moving import aims
from .odds import charge_odds, movement_roll, unsaved_chance
from .shooting.rules import aim
from .shooting.steps import volley
from .specials import SWIFTSTRIDE, has
from .state import State
from .units import box

PREFERRED = {
    "redirect": ("redirect", "decline_redirect"),
    "redirect_target": ("redirect", "decline_redirect"),
    "challenge": ("challenge", "decline_challenge"),
    "answer_challenge": ("accept_challenge", "refuse_challenge"),
    "pursue": ("pursue", "overrun", "restrain"),
    "reform_order": ("reform_order",),
}


# CH.RANGE: the most the charge dice can add (2D6, or the highest two of 3D6), from the odds'
# own distribution of them
MOST_ROLLED = max(movement_roll(3))


def choose(state: State, pending: Decision) -> Command:
    legal = list(pending.legal)
    if pending.decision == "declare_charge":
        best, best_odds = legal[-1], 0.4
        for c in legal:
            if not isinstance(c, DeclareCharge):
                continue
            unit, target = state.units[c.unit], state.units[c.target]
            swift = has(unit, SWIFTSTRIDE)
            if unit.position is not None and target.position is not None:
                odds = _reach_chance(box(unit), box(target), unit.profile["M"], swift)
            elif measured(state):   # at a table it cannot measure: it tries the first target
                odds = 0.5          # it may, and the players' measurement decides (TABLE.ASK)
            else:
                odds = _chance_at(gap(unit, target), unit.profile["M"], swift)
            if odds > best_odds:
                best, best_odds = c, odds
        return best
    if pending.decision == "react":
        reactions = [c for c in legal if isinstance(c, React)]
        target = state.units[reactions[0].unit]
        declaring = state.context.declaring
        charger = state.units[declaring[0] if declaring else reactions[0].unit]
        by = {getattr(c, "reaction", ""): c for c in legal}   # (any other option: "")
        if "flee" in by and (charger.models >= 2 * target.models or len(by) == 1):
            return by["flee"]
        return by.get("stand_and_shoot") or by.get("hold") or legal[0]
    if pending.decision == "remaining_moves":
        # characters join a unit when they can, and leave one that has taken losses (to lead
        # a fresher one, a turn later)
        for c in legal:
            if c.name == "join_unit":
                return c
        for c in legal:
            if isinstance(c, LeaveUnit):
                host = state.units[state.units[c.character].joined or ""]
                if host.models < host.start_models:
                    return c
        # MOVE.*: each unit that may move goes toward the enemy it means to charge
        for uid in dict.fromkeys(c.unit for c in legal if isinstance(c, Move)):
            move = aims.toward(state, state.units[uid])
            if move is not None:
                return move
        return legal[-1]   # end the phase
    if pending.decision == "shoot":   # SHOOT.WHO: the target it expects to hurt most
        shots = [c for c in legal if isinstance(c, Shoot)]
        if shots and all(state.units[c.unit].position is not None for c in shots):
            return max(shots, key=lambda c: (expected_wounds(state, c),
                                             -gap(state.units[c.unit], state.units[c.target])))
        return shots[0] if shots else legal[-1]
    if pending.decision == "reform":
        facing = [c for c in legal if getattr(c, "face", "")]
        return facing[0] if facing else legal[-1]
    for name in PREFERRED.get(pending.decision, ()):
        for c in legal:
            if c.name == name:
                return c
    return legal[0]


def expected_wounds(state: State, shot: Shoot) -> float:
    """SHOOT.HIT, ATK.SEQUENCE: the unsaved wounds a volley is expected to do: its shots
    times the chance of one (the need to hit with its modifiers, to wound, both saves)."""
    u, t = state.units[shot.unit], state.units[shot.target]
    fired = aim(state, u, t)
    g = volley(u, t, fired)
    return fired.shots * float(unsaved_chance(fired.hit, g["wound"], g["armour"], g["ward"],
                                              hit2=fired.hit2))


@cache   # (the bot weighs every charge it may declare, at every declaration)
def _charge_chance(need: int, swiftstride: bool) -> float:
    return float(charge_odds(need, swiftstride))


def _chance_at(distance: float, m: int, swiftstride: bool) -> float:
    """CH.RANGE: the chance that the dice make up what ``distance`` is beyond Movement ``m``
    (whole inches, rounded up)."""
    return _charge_chance(int(-(-(distance - m) // 1)), swiftstride)


@lru_cache(maxsize=8192)   # (every pair, at every declaration: most stood still since)
def _reach_chance(unit: geo.Box, target: geo.Box, m: int, swiftstride: bool) -> float:
    """CH.RANGE: the chance that a charger standing at ``unit`` with Movement ``m`` reaches
    ``target`` (0 where no dice reach it, and no distance is measured)."""
    if geo.apart(unit, target, m + MOST_ROLLED):
        return 0.0
    return _chance_at(box_gap(unit, target), m, swiftstride)
