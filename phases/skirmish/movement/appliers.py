"""How the events of the movement phase change the state (SK.MOVE)."""

from __future__ import annotations

from typing import Any

from ..evolve import with_squad
from ..state import SkirmishState
from . import events as ev

S = SkirmishState


def terrain_rolled(state: S, e: ev.DifficultTerrainRolled) -> S:
    return with_squad(state, e.unit, terrain_roll=e.most)


def squad_moved(state: S, e: ev.SquadMoved) -> S:
    if e.models is None:   # table mode
        return with_squad(state, e.unit, moved=True)
    s = state.squads[e.unit]
    models = tuple((x, y, m[2]) for (x, y), m in zip(e.models, s.models, strict=True))
    return with_squad(state, e.unit, moved=True, models=models)


APPLIERS: dict[type[Any], Any] = {ev.DifficultTerrainRolled: terrain_rolled,
                                  ev.SquadMoved: squad_moved}
