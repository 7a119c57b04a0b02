"""The remaining moves' decisions about characters (CHAR.JOIN, CHAR.LEAVE): the flow's third
part, beside the charges and the combats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.commands import Command, EndPhase
from regiment.core.events import Event
from regiment.core.i18n import tr
from regiment.core.pending import Decision

from .. import table
from ..commands import JoinUnit, LeaveUnit
from ..events import CharacterJoined, CharacterLeft
from ..flow import Flow, Quiet
from ..state import State
from ..units import box
from ..why import LEFT, WITHDRAWN
from . import rules as chars


class CharacterFlow(Quiet):
    """Characters joining and leaving units in their remaining moves."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"join_unit": self._join, "leave_unit": self._leave}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {"remaining": self._ask_remaining}

    def _ask_remaining(self, state: State) -> Decision | None:
        """CHAR.JOIN, CHAR.LEAVE, MOVE.REMAINING: the joins, the leavings and the units' moves
        open to the active player, then the end of the phase; nothing to ask when there are
        none (the host ends it)."""
        p = state.player
        options: list[Command] = [*self.flow.moves.options(state)]
        options += [JoinUnit(by=p, character=c, unit=u)
                                  for c, u in chars.join_options(state, p)]
        for host in state.units.values():
            if host.player != p:
                continue
            for cid in host.characters:
                if table.measured(state):   # the players place it (TABLE.ASK)
                    if not chars.may_leave(state, state.units[cid], host):
                        options.append(LeaveUnit(by=p, character=cid))
                    continue
                options += [LeaveUnit(by=p, character=cid, x=b.x, y=b.y, facing=b.facing)
                            for b in chars.leave_spots(state, state.units[cid], host)]
        if not options:
            return None
        return Decision(player=p, decision="remaining_moves",
                        legal=(*options, EndPhase(by=p)))

    def _join(self, state: State, cmd: JoinUnit) -> list[Event]:
        self.flow.check_turn(state, cmd, "CHAR.JOIN")
        c = self.flow.unit_of(state, cmd, cmd.character, "CHAR.JOIN")
        host = self.flow.unit_of(state, cmd, cmd.unit, "CHAR.JOIN")
        why = chars.join_problem(state, c, host, measure_now=True)
        if why:
            raise self.flow.illegal(state, cmd, why, "CHAR.JOIN")
        return self.flow.then(state, [CharacterJoined(character=c.id, unit=host.id)],
                               "join_unit")

    def _leave(self, state: State, cmd: LeaveUnit) -> list[Event]:
        self.flow.check_turn(state, cmd, "CHAR.LEAVE")
        c = self.flow.unit_of(state, cmd, cmd.character, "CHAR.LEAVE")
        if c.joined is None:
            raise self.flow.illegal(state, cmd, tr("{unit} is in no unit", unit=c.name),
                                     "CHAR.LEAVE")
        host = state.units[c.joined]
        if table.measured(state):   # where it stands is the players' (TABLE.ASK)
            why = chars.may_leave(state, c, host) or (
                "" if chars.room_to_leave(state, c, host) else
                WITHDRAWN.said(tr(WITHDRAWN.codes["no_room_to_leave"].told, unit=c.name,
                                  host=host.name), "no_room_to_leave", unit=c.id,
                               host=host.id))
            if why:
                raise self.flow.illegal(state, cmd, why, "CHAR.LEAVE")
            return self.flow.then(state, [CharacterLeft(character=c.id, unit=host.id,
                                                         position=None, facing=None,
                                                         reason=LEFT.make("left"))],
                                   "leave_unit")
        if cmd.x is None or cmd.y is None:
            raise self.flow.illegal(state, cmd, tr("say where {unit} stands (x, y)",
                                                    unit=c.name), "CHAR.LEAVE")
        own = box(c)
        b = geo.rounded(geo.Box(cmd.x, cmd.y, cmd.facing % 360.0, own.width, own.depth))
        why = chars.leave_problem(state, c, host, b)
        if why:
            raise self.flow.illegal(state, cmd, why, "CHAR.LEAVE")
        if measure.heard:
            measure.tell(measure.key("leave", c.id), "yes")
        return self.flow.then(state, [CharacterLeft(character=c.id, unit=host.id,
                                                     position=(b.x, b.y), facing=b.facing,
                                                     reason=LEFT.make("left"))],
                               "leave_unit")


# the flow's part: its place among the parts, its name (parts.py)
PART = (9, "characters", CharacterFlow)
