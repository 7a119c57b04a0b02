"""MOVE.*: the remaining moves, as steps of the machine's ``movement.remaining`` phase. A
``move`` command is checked by the pure rules of ``moving.rules`` and refused with the rule
that forbids it; a march with an enemy near, or a reformed unit's move after it, first takes
its Leadership test (a roll whose continuation is the move, ``rolls.MoveTo``). In table mode
the players make the move and say how much of it they used (TABLE.ASK)."""

from __future__ import annotations

from typing import Any

from regiment.core import measure
from regiment.core.commands import Command
from regiment.core.events import Event
from regiment.core.i18n import tr
from regiment.core.state import Awaiting
from regiment.phases.common.table import question

from .. import table
from ..acting import standing_enemies
from ..characters.rules import unit_leadership
from ..commands import Move
from ..events import LeadershipTested, UnitMoved
from ..flow import Flow, Quiet
from ..result import ld_test
from ..rolls import MoveTo, ask, read
from ..rulings import ruled
from ..state import State, UnitState
from ..why import MOVED
from . import KINDS, aims, rules
from .paths import Leg

MUSICIAN = "musician"


class MoveFlow(Quiet):
    """Each unit's one remaining move (MOVE.REMAINING), in games begun under engine 0.12.0;
    the remaining moves' decision is the characters' and these together (``options``)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"move": self._move}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {"remaining": {"march": self._tested, "reform_move": self._tested}}

    def options(self, state: State) -> list[Command]:
        """The moves offered (any other path may be sent, and is checked): each unit that may
        move, as far forward as it can go straight, and marching so when it may, and its
        quarter and half turns (MOVE.TURN)."""
        if not ruled(state, "remaining_moves"):
            return []
        out: list[Command] = []
        for u in state.units.values():
            if not rules.still(state, u):   # (no reason told: only whether)
                out += aims.straight_moves(state, u)
                out += aims.turn_moves(state, u)
        return out

    def _move(self, state: State, cmd: Move) -> list[Event]:
        self.flow.check_turn(state, cmd, "MOVE.REMAINING")
        if not ruled(state, "remaining_moves"):
            raise self.flow.illegal(state, cmd, tr("units make remaining moves in games "
                                                    "begun under engine 0.12.0 or later"),
                                     "MOVE.REMAINING")
        u = self.flow.unit_of(state, cmd, cmd.unit, "MOVE.REMAINING")
        why = rules.movable(state, u)
        if why:
            raise self.flow.illegal(state, cmd, why, "MOVE.REMAINING")
        if cmd.kind not in KINDS:
            raise self.flow.illegal(state, cmd, tr("{kind} is not one of {kinds}", kind=cmd.kind,
                                                    kinds=", ".join(KINDS)), "MOVE.REMAINING")
        if cmd.kind == "march" and u.id in state.context.march_failed:
            raise self.flow.illegal(state, cmd, tr("{unit} failed its test to march this turn: "
                                                    "it may make a normal move", unit=u.name),
                                     "MOVE.MARCH")
        bounded = ruled(state, "bounded_paths")
        legs, bad = rules.legs_of(cmd.path, cmd.kind, bounded)
        if bad is None and bounded:
            bad = rules.mixed(cmd.kind, bool(cmd.path), cmd.x, cmd.y, cmd.facing)
        if bad is not None:
            raise self.flow.illegal(state, cmd, bad.why, bad.rule)
        if cmd.kind == "reform" and legs and MUSICIAN not in u.command:
            raise self.flow.illegal(state, cmd, tr("only a unit with a musician may move after "
                                                    "reforming"), "MOVE.REFORM")
        facing = u.facing if cmd.facing is None else cmd.facing % 360.0
        end = (cmd.x, cmd.y, facing) if cmd.x is not None and cmd.y is not None else None
        plan = rules.check(state, u, cmd.kind, legs, cmd.files, facing, end)
        if isinstance(plan, rules.Refusal):
            raise self.flow.illegal(state, cmd, plan.why, plan.rule)
        then = MoveTo(plan.kind, plan.files, plan.facing,
                      tuple((leg.kind, leg.amount) for leg in plan.legs))
        if plan.kind == "march" and self._enemy_near(state, u):
            return [ask("march", u.id, u.player, 2, then)]
        if plan.kind == "reform" and plan.legs:
            return [ask("reform_move", u.id, u.player, 2, then)]
        return self.flow.then(state, self._made(state, u, plan), "move")

    def _enemy_near(self, state: State, u: UnitState) -> bool:
        """MOVE.MARCH: a non-fleeing enemy within 8" of ``u`` as it begins its move."""
        return bool(table.within(state, u, standing_enemies(state, u), rules.MARCH_ZONE,
                                 "MOVE.MARCH"))

    def _tested(self, state: State, aw: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        """MOVE.MARCH, MOVE.REFORM: the test taken; passed, the move is made; failed, a march
        is not (the unit may still make its normal move) and a reform is made without the
        move after it."""
        u = state.units[aw.unit or ""]
        ld = unit_leadership(state, u)
        passed, need, insane = ld_test(ld, 0, faces)
        events: list[Event] = [LeadershipTested(unit=u.id, purpose=aw.purpose, leadership=ld,
                                                penalty=0, faces=faces, passed=passed,
                                                needs=need, insane=insane)]
        to = read(MoveTo, aw)
        legs = tuple(Leg(k, a) for k, a in to.legs) if passed else ()
        if passed or to.move == "reform":
            plan = rules.check(state, u, to.move, legs, to.files, to.facing, None)
            assert isinstance(plan, rules.Plan), plan   # checked when the move was given
            events += self._made(state, u, plan)
        return self.flow.finish(state, events)

    def _made(self, state: State, u: UnitState, plan: rules.Plan) -> list[Event]:
        """The move, as ``UnitMoved`` events: a reform first (its new frontage), then the
        path, ending where ``plan`` ends; in table mode, how much of its move the players
        say it used."""
        out: list[Event] = []
        if plan.kind == "reform":
            b = rules.reformed(u, plan.files, plan.facing) if plan.end is not None else None
            out.append(UnitMoved(unit=u.id, reason=MOVED.make("reform"), files=plan.files,
                                 position=None if b is None else (b.x, b.y),
                                 facing=None if b is None else b.facing))
            if not plan.legs:
                return out
        kind = "forward" if plan.kind == "reform" else plan.kind
        most = rules.allowance(u, plan.kind)
        key = measure.key("moved", u.id)
        if plan.end is None:   # table mode: the players moved it
            used = measure.distance(state, question(state, "distance", key, rules.RULE_OF[kind],
                                                    u, most=most))
            return [*out, UnitMoved(unit=u.id, reason=MOVED.make(kind), position=None, facing=None,
                                    distance=used)]
        if measure.heard:
            measure.tell(key, format(plan.used, "g"))
        return [*out, UnitMoved(unit=u.id, reason=MOVED.make(kind),
                                position=(plan.end.x, plan.end.y),
                                facing=plan.end.facing, distance=plan.used)]


# the flow's part: its place among the parts, its name (parts.py)
PART = (10, "moves", MoveFlow)
