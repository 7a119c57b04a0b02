"""SK.MORALE after shooting: a squad that has lost a quarter of the models it had as the turn
began, to the shooting phase's volleys, takes a morale check (2D6 against its Leadership)
once the volley is done; a squad that fails falls back 2D6 from the enemy (SK.FALL_BACK)."""

from __future__ import annotations

from regiment.core import measure
from regiment.core.events import Event, RollRequested

from .. import moves, table
from ..events import ModelsMoved
from ..fight.events import FellBack, MoraleTested
from ..models import morale_passed
from ..rulings import ruled
from ..state import SkirmishState, Squad

S = SkirmishState


def shaken(state: S, s: Squad) -> bool:
    """SK.MORALE: ``s`` owes its check: a quarter or more of its turn's models lost, in this
    shooting phase (its first player's turn aside: squads from the scenario count as they
    began), and not yet tested."""
    start = s.turn_models or s.start_models
    return s.status == "ready" and bool(s.models) and not s.morale_checked and \
        4 * (start - len(s.models)) >= start > len(s.models)


def drive(state: S) -> list[Event]:
    """The next check or fall back the shooting owes, once no volley is being rolled."""
    if state.volley is not None or not ruled(state, "shooting_morale"):
        return []
    for s in state.squads.values():
        if s.player == state.player:
            continue
        if s.broken and s.status == "ready":
            return [RollRequested(purpose="fall_back", unit=s.id, player=s.player, dice=2)]
        if shaken(state, s):
            return [RollRequested(purpose="morale", unit=s.id, player=s.player, dice=2)]
    return []


def morale_rolled(state: S, uid: str, faces: tuple[int, ...]) -> list[Event]:
    s = state.squads[uid]
    a, b = faces
    ld = s.profile["Ld"]
    return [MoraleTested(unit=uid, faces=(a, b), leadership=ld, penalty=0,
                         passed=morale_passed(ld, 0, (a, b)), cause="shooting")]


def fall_back_rolled(state: S, uid: str, faces: tuple[int, ...]) -> list[Event]:
    """SK.FALL_BACK: 2D6 straight away from the enemy's models (at a table: does it reach the
    edge?)."""
    s = state.squads[uid]
    distance = float(sum(faces))
    a, b = faces
    if table.measured(state):
        off = table.yes_no(state, measure.key("fall_back_edge", uid), "SK.FALL_BACK", s, "",
                           lambda: False, extra=distance)
        return [FellBack(unit=uid, faces=(a, b), distance=distance, off_table=off)]
    foes = [c for q in state.squads.values() if q.player != s.player and q.on_table
            for c in q.models]
    others = [c for q in state.squads.values() if q.id != uid and q.player == s.player
              and q.on_table for c in q.models]
    moved, off = moves.fall_back(s.models, foes, others, distance, state.table["width"],
                                 state.table["depth"])
    if measure.heard:
        measure.tell(measure.key("fall_back_edge", uid), "yes" if off else "no")
    return [FellBack(unit=uid, faces=(a, b), distance=distance, off_table=off),
            ModelsMoved(unit=uid, reason="fall_back", models=moves.spots(moved), off_table=off)]
