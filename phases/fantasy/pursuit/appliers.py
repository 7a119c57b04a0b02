"""How the events of flee and pursuit change the state (FP.*)."""

from __future__ import annotations

from typing import Any

from ..evolve import leave, the_fight, with_fight
from ..state import Pursuit, State
from . import events as ev


def pursuit_declared(s: State, e: ev.PursuitDeclared) -> State:
    fight = the_fight(s)
    kind = Pursuit.RESTRAINING if e.kind == "restrain" else Pursuit(e.kind)
    return with_fight(s, decided={**fight.decided, e.unit: (kind, e.target)})


def pursuit_rolled(s: State, e: ev.PursuitRolled) -> State:
    fight = the_fight(s)
    return with_fight(s, rolled={**fight.rolled, e.unit: e.distance})


def pursuits_completed(s: State, e: ev.PursuitsCompleted) -> State:
    return with_fight(leave(s, *e.left), pursued=True)


def flee_direction(s: State, e: ev.FleeDirectionChosen) -> State:
    return with_fight(s, away={**the_fight(s).away, e.unit: e.away_from})


APPLIERS: dict[type[Any], Any] = {
    ev.PursuitDeclared: pursuit_declared,
    ev.PursuitRolled: pursuit_rolled,
    ev.PursuitsCompleted: pursuits_completed,
    ev.FleeDirectionChosen: flee_direction,
    ev.UnitCaught: lambda s, e: s,   # the destruction that follows says it all
}
