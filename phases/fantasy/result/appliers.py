"""How the combat result (CR.*) and the break tests (BT.*) change the state."""

from __future__ import annotations

from typing import Any

from ..evolve import leave, the_fight, with_fight, with_unit
from ..state import NO_RESULT, State
from ..values import Status
from . import events as ev


def result_decided(s: State, e: ev.CombatResultDecided) -> State:
    totals = {p: side["total"] for p, side in e.sides.items()}
    s = leave(s, *e.no_more_foes)  # CR.NO_MORE_FOES: they leave the combat at once
    result = NO_RESULT.evolve(winner=e.winner, margin=e.margin, totals=totals,
                              free=tuple(e.no_more_foes))
    return with_fight(s, result=result, tests=tuple(e.tests))


def break_test(s: State, e: ev.BreakTestTaken) -> State:
    fight = the_fight(s)
    tests = tuple(u for u in fight.tests if u != e.unit)
    pens = {**fight.penalties, e.unit: e.penalty}
    if e.passed:
        return with_fight(s, tests=tests, penalties=pens)
    s = with_unit(s, e.unit, status=Status.FLEEING)
    s = _standards_taken(s, e.unit, fight.outcome.winner)
    return with_fight(s, tests=tests, penalties=pens, broken=(*fight.broken, e.unit))


def _standards_taken(s: State, uid: str, winner: str | None) -> State:
    """VP.POINTS: a unit broken in close combat loses its standards to the winner (its own,
    a battle standard, and those of the characters in it)."""
    u = s.units[uid]
    carried = [u, *(s.units[c] for c in u.characters if c in s.units)]
    n = sum(("standard" in x.command) + x.battle_standard for x in carried)
    if not n or winner is None or uid in s.captured:
        return s
    return s.evolve(captured={**s.captured, uid: (winner, n)})


APPLIERS: dict[type[Any], Any] = {
    ev.CombatResultDecided: result_decided,
    ev.BreakTestTaken: break_test,
}
