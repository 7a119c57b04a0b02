"""What the skirmish rules ask of the table: the one interface between them and geometry.

Each question is answered by geometry when the scenario places every model, or, in table mode
(``table.measured``), asked of the players as a measurement with the rule that needs it
(TABLE.ASK, core.measure). In table mode a squad's models have no positions: each is an
``Unplaced`` base, which refuses to be measured, so a rule that reads a position it should
have asked for fails loudly instead of reading a made-up one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core import measure
from regiment.phases.common.table import measured, yes_no
from regiment.phases.common.table import question as _q

from .state import SkirmishState, Squad

S = SkirmishState
__all__ = ["measured", "yes_no"]   # the skirmish rules ask through this module alone


def models_in_range(state: S, squad: Squad, target: Squad, rule: str,
                    geometric: Callable[[], int], half: bool = False, most: int = 0) -> int:
    """SK.SHOOT, SK.OVERWATCH: how many of ``squad``'s models have a model of ``target``
    within their gun's range (``half``: within half of it, a Rapid Fire gun's two shots; at
    most ``most`` models, those in range)."""
    key = measure.key("in_half_range" if half else "in_range", squad.id, target.id)
    if measured(state):
        gun = squad.guns[0]
        q = _q(state, "number", key, rule, squad, target.id,
               most=float(most if half else len(squad.models)),
               extra=gun.range / 2 if half else gun.range)
        return measure.count(state, q)
    n = geometric()
    if measure.heard:
        measure.tell(key, str(n))
    return n


def distance(state: S, squad: Squad, target: Squad, rule: str,
             geometric: Callable[[], float]) -> float:
    """GEO.DISTANCE: from ``squad``'s nearest model to ``target``'s nearest, edge to edge."""
    key = measure.key("distance", squad.id, target.id)
    if measured(state):
        return measure.distance(state, _q(state, "distance", key, rule, squad, target.id))
    d = round(geometric(), 4)
    if measure.heard:
        measure.tell(key, format(d, "g"))
    return d


def touched(state: S, squad: Squad, primary: str, others: list[Squad],
            geometric: Callable[[], list[str]]) -> list[str]:
    """SK.CHARGE_MOVE: the enemy squads besides its primary target that the charge touched."""
    if not others:
        return []
    key = measure.key("touches", squad.id, primary)
    if measured(state):
        q = _q(state, "units", key, "SK.CHARGE_MOVE", squad, primary,
               tuple(o.id for o in others))
        return list(measure.units(state, q))
    answer = geometric()
    if measure.heard:
        measure.tell(key, ",".join(answer))
    return answer


def pools(state: S, squad: Squad, foes: list[str],
          geometric: Callable[[], dict[Any, int]]) -> dict[Any, int]:
    """SK.ENGAGED, SK.ALLOCATE: how many of ``squad``'s models fight each enemy squad, and
    (with two or more) how many may split their attacks among them all."""
    keys = [measure.key("engaged", squad.id, f) for f in foes]
    both = measure.key("engaged", squad.id, "+".join(foes))
    if measured(state):
        # each model fights one foe, or splits among them all: the counts together are at
        # most the squad's models, so each question allows only what the earlier left over
        n = len(squad.models)
        out: dict[Any, int] = {}
        asked: list[tuple[Any, str, str, str]] = [
            (f, key, "SK.ENGAGED", f) for f, key in zip(foes, keys, strict=True)]
        if len(foes) > 1:
            asked.append((frozenset(foes), both, "SK.ALLOCATE", "+".join(foes)))
        for pool, key, rule, other in asked:
            left = n - sum(out.values())
            out[pool] = measure.count(state, _q(state, "number", key, rule, squad, other,
                                                most=float(left))) if left else 0
        return {k: v for k, v in out.items() if v}
    answer = geometric()
    if measure.heard:
        for f, key in zip(foes, keys, strict=True):
            measure.tell(key, str(answer.get(f, 0)))
        if len(foes) > 1:
            measure.tell(both, str(sum(v for k, v in answer.items() if not isinstance(k, str))))
    return answer


def has_difficult(state: S) -> bool:
    """SK.TERRAIN, SK.MOVE: the table has difficult terrain, mapped or at the players' table."""
    return bool(state.table.get("difficult") or state.table.get("difficult_at_table"))


def terrain(state: S, squad: Squad, geometric: Callable[[], bool]) -> bool:
    """SK.TERRAIN: whether the charge crossed difficult terrain (only asked where the table
    has some)."""
    if not has_difficult(state):
        return False
    return yes_no(state, measure.key("difficult", squad.id), "SK.TERRAIN", squad, "", geometric)
