"""The tests of fear and terror (SR.FEAR, SR.TERROR), asked by the steps the turn already
has: a round's fear tests before its challenges (``offers``, or ``answer`` where no
challenge is open), a charged unit's terror test
before it reacts (``reactions``). No machine row: a step with nothing to test passes as
before, so a log of a game without these rules is unchanged."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, RollRequested
from regiment.core.state import Awaiting

from ..characters.rules import unit_leadership
from ..events import LeadershipTested
from ..flow import Flow, Quiet, fight_of
from ..result import ld_test
from ..state import State
from . import rules


class PsychologyFlow(Quiet):
    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def drives(self) -> dict[str, Any]:
        # a round with no challenge to offer stands at its ``answer`` step from the first
        return {"offers": self._drive_fear, "answer": self._drive_fear,
                "reactions": self._drive_terror}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {"offers": {"fear": self._tested}, "answer": {"fear": self._tested},
                "reactions": {"terror": self._tested}}

    def _drive_fear(self, state: State) -> list[Event]:
        """SR.FEAR: the next unit of the round's combat that tests for fear."""
        if state.fight is None:
            return []
        tests = rules.fear_tests(state, fight_of(state))
        if not tests:
            return []
        u = state.units[tests[0]]
        return [RollRequested(purpose="fear", unit=u.id, player=u.player, dice=2)]

    def _drive_terror(self, state: State) -> list[Event]:
        """SR.TERROR: the unit charged by one that causes terror tests before it reacts."""
        declaring = state.context.declaring
        if declaring is None:
            return []
        charger, target = (state.units[u] for u in declaring)
        if not rules.terror_test(state, charger, target):
            return []
        return [RollRequested(purpose="terror", unit=target.id, player=target.player, dice=2)]

    def _tested(self, state: State, aw: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        """LD.TEST: a fear or terror test on the unit's Leadership."""
        u = state.units[aw.unit or ""]
        ld = unit_leadership(state, u)
        passed, need, insane = ld_test(ld, 0, faces)
        return self.flow.finish(state, [LeadershipTested(
            unit=u.id, purpose=aw.purpose, leadership=ld, penalty=0, faces=faces,
            passed=passed, needs=need, insane=insane)])


# the flow's part: its place among the parts, its name (parts.py); before the declarations and
# challenges: a terror test comes before the reaction, a round's fear tests before its
# challenges
PART = (1, "psychology", PsychologyFlow)
