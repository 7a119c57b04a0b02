"""FP.PURSUE_MOVE, FP.PIVOT_CONTACT, FP.FRESH_ENEMY, FP.OFF_TABLE: a pursuer's move, as the
events it makes: the move itself (and what stopped it short), the table edge it left by, or the
fresh enemy it charged into (a new combat, or one it joins)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from regiment.core import geometry as geo
from regiment.core.events import Event
from regiment.core.fold import fold

from .. import table
from ..close_combat import combat, contacts
from ..events import (
    CombatBegan,
    CombatJoined,
    UnitLeftTable,
)
from ..motion import moved
from ..rulings import ruled
from ..state import Pursuit, State, UnitState
from ..units import box
from ..why import ENGAGED
from . import rules as pursuit


def pursuer_moves(state: State, u: UnitState, plan: Pursuit, target: str, dist: int,
                  fold_table: Mapping[type[Event], Any]) -> list[Event]:
    kind = plan.value   # as the events say it
    def heading() -> float:   # (geometry only: at a table the unit has no place)
        if kind == "pursue" and target in state.units:
            return geo.bearing(geo.centre(box(u)), geo.centre(box(state.units[target])))
        return u.facing

    def move() -> tuple[geo.Box, geo.Point | None, str | None, float]:
        return pursuit.pursue_move(state, u, heading(), dist, kind == "pursue")

    end, off, edge, fresh, run = table.pursue(state, u, dist, move)
    step = moved(u.id, end, "pursuit" if kind == "pursue" else "overrun", run)
    if end is not None and not off and fresh is None and run < dist - 1e-6 and \
            ruled(state, "story_told_whole"):   # FP.PURSUE_MOVE: say what stopped it
        by = pursuit.stopper(state, u, heading(), dist, kind == "pursue", run)
        if by:
            step = dataclasses.replace(step, stopped=by)
    events: list[Event] = [step]
    if off:   # in table mode the players saw where (no point is made up)
        events.append(UnitLeftTable(unit=u.id, point=edge))
    elif fresh is not None:  # FP.FRESH_ENEMY: a charge; fought next close combat phase
        joined = combat.combat_holding(state, fresh)
        began: CombatBegan | CombatJoined
        if joined is not None:  # into a unit already fighting: it joins that combat
            began = CombatJoined(combat=joined.id, units=(u.id,), chargers=(u.id,),
                                 reason=ENGAGED.make(kind))
        else:
            began = CombatBegan(combat=f"{state.turn}-{u.id}-{fresh}",
                                units=(u.id, fresh), chargers=(u.id,), reason=ENGAGED.make(kind))
        events.append(began)
        events += contacts.charged(fold(state, events, fold_table), u,
                                   state.units[fresh], None, began)
    return events
