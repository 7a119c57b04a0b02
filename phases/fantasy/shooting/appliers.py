"""How the events of the shooting phase change the state (SHOOT.WHO: one volley a unit)."""

from __future__ import annotations

from typing import Any

from ..evolve import with_context
from ..state import State
from . import events as ev


def shots_fired(s: State, e: ev.ShotsFired) -> State:
    return with_context(s, shot=(*s.context.shot, e.unit))


APPLIERS: dict[type[Any], Any] = {ev.ShotsFired: shots_fired}
