"""CR.*, BT.*: the round's result (``result``: every side's parts, the winner, who tests) and
the break tests it calls for, as the steps of the machine's ``break_tests`` phase: the
losing player orders the tests (``test_order``, two or more to take), then each unit tests
(``tests``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.pending import Decision
from regiment.core.state import Awaiting

from .. import effects
from ..characters.rules import unit_leadership
from ..close_combat import combat
from ..commands import BreakTestOrder
from ..events import OrderChosen
from ..flow import Flow, fight_of
from ..motion import hill_regions
from ..state import State
from .events import BreakTestTaken, CombatResultDecided
from .rules import break_penalty, decide, ld_test, side_parts


class ResultFlow:
    """The combat result and the break tests (CR.*, BT.*)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"break_test_order": self._order}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {"tests": {"break_test": self._break_rolled}}

    def drives(self) -> dict[str, Any]:
        return {"result": self._drive_result, "tests": self._drive_tests}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {"test_order": self._ask_test_order}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        return {"test_order_known": self._test_order_known}

    def _drive_result(self, state: State) -> list[Event]:
        """CR.WINNER, CR.BOOKKEEPING, CR.NO_MORE_FOES, BT.WHO: every side's parts, unit by
        unit; units left touching no enemy have won and leave the combat."""
        fight = fight_of(state)
        if fight.result is not None:
            return []
        cmb = state.combats[fight.combat]
        alive = {p: [state.units[u] for u in cmb.units if state.units[u].player == p
                     and state.units[u].status == "engaged"] for p in state.players}
        free = tuple(u.id for p in state.players for u in alive[p]
                     if not combat.touching(state, cmb, u.id))
        fighting = {p: [u for u in alive[p] if u.id not in free] for p in state.players}
        sides: dict[str, Any] = {}
        for p in state.players:
            parts = side_parts(state, cmb, p, fight.caused, fight.overkill,
                               self.flow.variant, hill_regions(state), set(free))
            sides[p] = {"total": sum(x["value"] for x in parts), "parts": parts}
        a, b = state.players
        totals = {p: sides[p]["total"] for p in state.players}
        musician = None
        if fighting[a] and fighting[b]:
            music = {p: any("musician" in u.command for u in fighting[p])
                     for p in state.players}
            winner, margin, musician = decide(totals, music)
            if musician is not None:
                sides[musician]["parts"].append({"rule": "CR.MUSICIAN", "unit": next(
                    u.id for u in fighting[musician] if "musician" in u.command), "value": 1})
                sides[musician]["total"] += 1
        elif bool(alive[a]) != bool(alive[b]):
            winner = a if alive[a] else b  # CR.NO_MORE_FOES: the survivors win whatever
            margin = max(0, totals[winner] - totals[state.opponent(winner)])
        else:
            winner, margin = None, 0
        tests: tuple[str, ...] = ()
        unbreakable: tuple[str, ...] = ()
        if winner is not None:  # BT.WHO, BT.SPECIAL
            losers = fighting[state.opponent(winner)]
            spared = {u.id for u in losers if effects.spared(u, "break_test")}
            tests = tuple(u.id for u in losers if u.id not in spared)
            unbreakable = tuple(u.id for u in losers if u.id in spared)
        return [CombatResultDecided(combat=cmb.id, sides=sides, winner=winner,
                                    margin=margin, musician=musician, tests=tests,
                                    no_more_foes=free, unbreakable=unbreakable)]

    def _drive_tests(self, state: State) -> list[Event]:
        """BT.WHO: each loser tests, in the order its player chooses."""
        fight = fight_of(state)
        tests = fight.tests
        if not tests:
            return []
        if len(tests) > 1 and fight.next.get("break_test") not in tests:
            return []
        u = state.units[tests[0]]
        return [RollRequested(purpose="break_test", unit=u.id, player=u.player, dice=2)]

    def _order(self, state: State, cmd: BreakTestOrder) -> list[Event]:
        """BT.WHO: which of a player's units takes its break test next."""
        self.flow.check_offered(state, cmd, "BT.WHO")
        return self.flow.then(state, [OrderChosen(combat=fight_of(state).combat,
                                                  what="break_test", unit=cmd.unit)], cmd.name)

    def _break_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        """BT.TEST, BT.STEADFAST, BT.DISRUPTED, BT.SPECIAL, LD.INSANE."""
        fight = fight_of(state)
        cmb = state.combats[fight.combat]
        u = state.units[aw.unit or ""]
        penalty, firm, why = break_penalty(state, cmb, u.id, fight.outcome.margin)
        passed, need, insane = ld_test(unit_leadership(state, u), penalty, faces)
        totals = fight.outcome.totals
        mine = totals.get(u.player, 0)
        theirs = totals.get(state.opponent(u.player), 0)
        events: list[Event] = [BreakTestTaken(unit=u.id, leadership=unit_leadership(state, u),
                                              penalty=penalty, steadfast=firm, faces=faces,
                                              passed=passed, needs=need, insane=insane,
                                              why=why, result=(mine, theirs))]
        if not passed:
            after = fold(state, events, self.flow.fold_table)
            events += self.flow.flights.panic_after(after, [u.id], "broke")
        return self.flow.finish(state, events)

    def _test_order_known(self, state: State) -> bool:
        """BT.WHO: one loser left to test, or its player said which tests next."""
        fight = fight_of(state)
        return len(fight.tests) < 2 or fight.next.get("break_test") in fight.tests

    def _ask_test_order(self, state: State) -> Decision | None:
        """BT.WHO: the loser's player picks which unit tests next (two or more left)."""
        if self._test_order_known(state):
            return None
        tests = fight_of(state).tests
        who = state.units[tests[0]].player
        return Decision(player=who, decision="break_test_order",
                        legal=tuple(BreakTestOrder(by=who, unit=u) for u in tests))


# the flow's part: its place among the parts, its name (parts.py)
PART = (6, "results", ResultFlow)
