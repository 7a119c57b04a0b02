"""Who touches whom in a combat, and with how many models (CC.WHO_FIGHTS, GEO.ARCS).

Geometry reads it off the table each time it is needed. In table mode units have no
positions: when a charger lands, the players count the models in base contact (TABLE.ASK) and
``ContactMeasured`` keeps the counts on each unit (``UnitState.touch``). Casualties then take
models from the rear rank (ATK.SEQUENCE) and a side keeps its count while it has that
many.
"""

from __future__ import annotations

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.events import Event
from regiment.core.measure import SIDES, Question

from . import table
from .events import CombatBegan, CombatJoined, ContactMeasured
from .state import State, UnitState
from .units import box, rank_sizes


def along(u: UnitState, side: str) -> int:
    """How many of ``u``'s models stand along one of its sides now."""
    sizes = rank_sizes(u)
    if not sizes:
        return 0
    if side == "front":
        return sizes[0]
    if side == "rear":
        return sizes[-1]
    return len(sizes)


def touched(u: UnitState, e: UnitState) -> tuple[str, list[int]] | None:
    """Table mode: the side of ``u`` that ``e`` touches and which of the models along it do,
    from the measurement; None when they do not touch (or ``u`` is placed by geometry)."""
    for enemy, side, models, first in u.touch:
        if enemy == e.id:
            present = along(u, side)
            last = min(first + models, present)
            return side, list(range(min(first, max(present - 1, 0)), last)) or [0]
    return None


def charged(state: State, unit: UnitState, target: UnitState, side: str | None,
            joined: CombatBegan | CombatJoined) -> list[Event]:
    """CC.WHO_FIGHTS: in table mode, the models of the charger and of each enemy it now
    touches that are in base contact, counted by the players (and the side of each enemy it
    touches, unless a declaration gave the target's: ``side``); geometry needs no count."""
    state_unit = state.units[unit.id]
    enemies = [target.id] + [u for u in joined.units if u not in (unit.id, target.id)
                             and state.units[u].player != unit.player]
    if not table.measured(state):
        if measure.heard:
            _tell(state, state_unit, enemies, side is None)
        return []
    out: list[Event] = []
    for eid in enemies:
        enemy = state.units[eid]
        their = side if eid == target.id and side else _side(state, unit, enemy)
        mine = measure.count(state, _count(state, state_unit, enemy, "front"))
        theirs = measure.count(state, _count(state, enemy, state_unit, their))
        out += [ContactMeasured(unit=unit.id, enemy=eid, side="front", models=mine,
                                first=_next(state, state_unit, "front", eid)),
                ContactMeasured(unit=eid, enemy=unit.id, side=their, models=theirs,
                                first=_next(state, enemy, their, unit.id))]
    return out


def _side(state: State, unit: UnitState, enemy: UnitState) -> str:
    """The side of an enemy already fighting that the charger's front came to touch."""
    q = Question.make(key=f"side:{unit.id}:{enemy.id}", kind="side", rule="CH.CHARGE_MOVE",
                      player=unit.player, unit=unit.id, other=enemy.id, options=SIDES,
                      most=0.0, extra=0.0)
    return measure.ask(state, q)


def _count(state: State, u: UnitState, e: UnitState, side: str) -> Question:
    return Question.make(key=f"models:{u.id}:{e.id}", kind="count", rule="CC.WHO_FIGHTS",
                         player=u.player, unit=u.id, other=e.id, options=(side,),
                         most=float(along(u, side)), extra=0.0)


def _next(state: State, u: UnitState, side: str, enemy: str) -> int:
    """The first model along ``side`` that no other enemy of its combat touches (a unit fought
    on one side by two enemies has them side by side)."""
    mates = next((c.units for c in state.combats.values() if u.id in c.units), ())
    return sum(models for e, s, models, _ in u.touch if s == side and e != enemy
               and e in mates and state.units[e].status == "engaged")


def _tell(state: State, unit: UnitState, enemies: list[str], sides: bool) -> None:
    """What geometry answers to the counts table mode asks (for ``table.heard``)."""
    from .combat import models_in_contact

    for i, eid in enumerate(enemies):
        enemy = state.units[eid]
        c = geo.contact(box(enemy), box(unit))
        if (i or sides) and c is not None:   # a declaration asked the target's side
            measure.tell(f"side:{unit.id}:{eid}", c[0])
        measure.tell(f"models:{unit.id}:{eid}", str(models_in_contact(unit, enemy)[0]))
        measure.tell(f"models:{eid}:{unit.id}", str(models_in_contact(enemy, unit)[0]))
