"""How the events of combat reform change the state (REF.*)."""

from __future__ import annotations

from typing import Any

from ..evolve import the_fight, with_fight, with_unit
from ..state import State
from . import events as ev


def unit_reformed(s: State, e: ev.UnitReformed) -> State:
    s = with_unit(s, e.unit, files=e.files) if e.position is None else \
        with_unit(s, e.unit, files=e.files, position=tuple(e.position), facing=e.facing)
    return with_fight(s, reformed=(*the_fight(s).reformed, e.unit))


def skip_reform(s: State, e: ev.ReformSkipped) -> State:
    return with_fight(s, reformed=(*the_fight(s).reformed, e.unit))


APPLIERS: dict[type[Any], Any] = {
    ev.UnitReformed: unit_reformed,
    ev.ReformSkipped: skip_reform,
    ev.ReformOrderChosen: lambda s, e: with_fight(s, reform_first=e.first),
}
