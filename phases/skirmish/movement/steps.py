"""SK.MOVE: the movement phase, as the machine's ``movement`` step: each squad of the active
player moves once (``move``), a squad going through difficult terrain rolling its 2D6 first
(``move`` with ``kind = "difficult"``). In table mode the players move the models and say how
far the farthest went (TABLE.ASK)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.commands import Command, EndPhase
from regiment.core.events import Event, RollRequested
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import Awaiting
from regiment.phases.common.commands import Move
from regiment.phases.common.table import question

from .. import table
from ..moves import spots
from ..rulings import ruled
from ..state import SkirmishState, Squad
from . import rules
from .events import DifficultTerrainRolled, SquadMoved

if TYPE_CHECKING:
    from ..preset import SkirmishPreset

S = SkirmishState
KINDS = ("forward", "difficult")


def options(state: S) -> tuple[list[Command], dict[str, str]]:
    """The moves offered (any other may be sent, and is checked): each squad that may move,
    straight toward the nearest enemy squad as far as it may go, or else the longest
    straight move it has in any direction (within what it rolled for difficult terrain);
    where the table has difficult terrain, its roll; in table mode, a move to make on the
    table. With them, each squad that may move but has no move, and why (SK.MOVE)."""
    p = state.player
    out: list[Command] = []
    stuck: dict[str, str] = {}
    for s in state.squads.values():
        if rules.why_not_mover(state, s):
            continue
        if table.has_difficult(state) and not s.terrain_roll:
            out.append(Move(by=p, unit=s.id, kind="difficult"))
        if table.measured(state):
            out.append(Move(by=p, unit=s.id))
            continue
        aim = toward(state, s)
        if aim is None:
            aim, why = anywhere(state, s)
            if why:
                stuck[s.id] = why
        if aim is not None:
            out.append(aim)
    return out, stuck


HEADINGS = tuple(range(0, 360, 30))


def anywhere(state: S, s: Squad) -> tuple[Move | None, str]:
    """SK.MOVE: the longest straight move of the whole squad in one of twelve directions
    (each tried at its allowance, then halved), or why none is open: the last problem met at
    the shortest try (a move through difficult terrain not rolled for counts as none)."""
    most = rules.allowance(s)
    first = s.models[0]
    best: tuple[float, Move] | None = None
    why = ""
    for heading in HEADINGS:
        dx, dy = math.sin(math.radians(heading)), math.cos(math.radians(heading))
        go = most
        while go >= 0.25:
            x, y = round(first[0] + dx * go, 4), round(first[1] + dy * go, 4)
            after, _ = rules.ends(s, (), x, y)
            assert after is not None
            if not s.terrain_roll and rules.through_difficult(state, s, after):
                why = tr("the move goes through difficult terrain: roll for it first")
            else:
                why = rules.problem(state, s, after)
                if not why:
                    if best is None or go > best[0]:
                        best = (go, Move(by=s.player, unit=s.id, x=x, y=y))
                    break
            go /= 2
    if best is not None:
        return best[1], ""
    return None, tr("{unit} has no room to move {most}\" or less: {why}", unit=s.name,
                    most=format(most, "g"), why=why)


def toward(state: S, s: Squad) -> Move | None:
    """The squad moved whole, straight toward the nearest enemy model, as far as its
    allowance and the 1" it must keep allow (halved until the move is clear)."""
    foes = [c for q in state.squads.values() if q.player != s.player and q.on_table
            for c in q.models]
    if not foes:
        return None
    first = s.models[0]
    near = min(foes, key=lambda f: geo.circle_gap(first, f))
    dx, dy = near[0] - first[0], near[1] - first[1]
    length = math.hypot(dx, dy) or 1.0
    room = min(f_gap for f_gap in (geo.circle_gap(m, f) for m in s.models for f in foes))
    go = min(rules.allowance(s), max(0.0, room - rules.APART - 0.05))
    for _ in range(6):
        if go < 0.1:
            return None
        x, y = round(first[0] + dx / length * go, 4), round(first[1] + dy / length * go, 4)
        after, _ = rules.ends(s, (), x, y)
        assert after is not None
        if (s.terrain_roll or not rules.through_difficult(state, s, after)) and \
                not rules.problem(state, s, after):
            return Move(by=s.player, unit=s.id, x=x, y=y)
        go /= 2
    return None


def ask_move(state: S) -> Decision:
    moves, stuck = options(state)
    return Decision(player=state.player, decision="move",
                    legal=(*moves, EndPhase(by=state.player)), idle=tuple(stuck.items()))


def move(engine: SkirmishPreset, state: S, cmd: Move) -> list[Event]:
    engine.check_turn(state, cmd, "SK.MOVE")
    s = state.squads.get(cmd.unit)
    if s is None:
        raise engine.illegal(state, cmd, tr("there is no squad {unit}", unit=repr(cmd.unit)),
                             "SK.MOVE")
    why = rules.why_not_mover(state, s)
    if not why and cmd.kind not in KINDS:
        why = tr("{kind} is not one of {kinds}", kind=cmd.kind, kinds=", ".join(KINDS))
    if why:
        raise engine.illegal(state, cmd, why, "SK.MOVE")
    if cmd.kind == "difficult":   # the 2D6 first, once a turn
        if not table.has_difficult(state) or s.terrain_roll:
            raise engine.illegal(state, cmd, tr("{unit} has no difficult terrain roll to "
                                                "make", unit=s.name), "SK.MOVE")
        return [RollRequested(purpose="difficult_terrain", unit=s.id, player=s.player,
                              dice=2)]
    if table.measured(state):
        most = rules.allowance(s)
        gone = measure.distance(state, question(state, "distance", measure.key("moved", s.id),
                                                "SK.MOVE", s, most=most))
        return engine.then(state, [SquadMoved(unit=s.id, distance=gone, models=None)], "move")
    after, bad = rules.ends(s, cmd.path, cmd.x, cmd.y, ruled(state, "bounded_paths"))
    if after is None:
        raise engine.illegal(state, cmd, bad, "SK.MOVE")
    if rules.through_difficult(state, s, after) and not s.terrain_roll:
        raise engine.illegal(state, cmd, tr("the move goes through difficult terrain: roll "
                                            "for it first (move with kind difficult)"),
                             "SK.MOVE")
    why = rules.problem(state, s, after)
    if why:
        raise engine.illegal(state, cmd, why, "SK.MOVE")
    gone = rules.farthest_gone(s, after)
    if measure.heard:
        measure.tell(measure.key("moved", s.id), format(gone, "g"))
    return engine.then(state, [SquadMoved(unit=s.id, distance=gone, models=spots(after))],
                       "move")


def terrain_rolled(state: S, aw: Awaiting, faces: tuple[int, ...]) -> list[Event]:
    """SK.MOVE: the highest of the squad's 2D6 is how far its models go through difficult
    terrain this turn."""
    return [DifficultTerrainRolled(unit=aw.unit or "", faces=faces, most=max(faces))]
