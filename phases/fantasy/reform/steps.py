"""REF.*: combat reform, as the steps of the machine's ``reform`` phase: who reforms first
(``reform_order``, when both players have a reform open), then each unit's reform
(``reforms``), with its Leadership test when its side lost. The reforms open come from
``rules``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.commands import Command
from regiment.core.events import Event
from regiment.core.pending import Decision
from regiment.core.state import Awaiting, memo

from .. import table
from ..characters.rules import unit_leadership
from ..close_combat import combat, contacts
from ..commands import Reform, ReformOrder, SkipReform
from ..events import CombatRoundEnded, LeadershipTested
from ..flow import Flow, fight_of
from ..result import ld_test
from ..rolls import ReformTo, ask, read
from ..state import MOVES_ON, NO_RESULT, State, UnitState
from ..why import REFORM_SKIPPED, REFORMED, written
from . import rules
from .events import ReformOrderChosen, ReformSkipped, UnitReformed

# The reforms open to a unit depend on the units on the table and its combat (and on the
# game's table and rulings, which a game's units are never shared with another's): one
# state's answer serves the next while the two hold the same units dict and combat, as
# states do across the events that change neither (a break test, a reform order chosen:
# half of a duel's reform checks were asked again so, measured). Kept by identity for the
# last few, with the objects themselves, so that an id is never reused while kept.
_KEPT: dict[tuple[int, int, str], tuple[Any, Any, list[Any]]] = {}
KEPT_MOST = 64


def _kept(state: State, cmb: Any, u: UnitState) -> list[Any]:
    """REF.WHO, REF.PLACEMENT, REF.CONTACT, CR.NO_MORE_FOES: the reforms open to ``u`` in
    ``cmb`` (freely, with none), worked out or kept from a state with the same units."""
    k = (id(state.units), id(cmb), u.id)
    hit = _KEPT.get(k)
    if hit is not None and hit[0] is state.units and hit[1] is cmb:
        return hit[2]
    found = (rules.reform_options(state, cmb, u) if cmb is not None
             else rules.free_reform_options(state, u))
    _KEPT[k] = (state.units, cmb, found)
    if len(_KEPT) > KEPT_MOST:
        del _KEPT[next(iter(_KEPT))]   # the oldest
    return found


class ReformFlow:
    """Combat reform at the end of a round (REF.*)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"reform": self._reform, "skip_reform": self._skip_reform,
                "reform_order": self._reform_order}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {"reforms": {"reform": self._reform_rolled}}

    def drives(self) -> dict[str, Any]:
        return {"reforms": self._drive_reform}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {"reform_order": self._ask_reform_order, "reforms": self._ask_reform}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        return {"reform_order_known": lambda s: not self._order_open(s, self._reformers(s))}

    def _reforms(self, state: State, u: UnitState) -> list[Any]:
        """REF.PLACEMENT, CR.NO_MORE_FOES: the reforms open to ``u`` as (files, face, turn,
        box), kept with the state (the drive, the pending decision and the command all ask of
        the same one)."""
        answers = memo(state)
        key = ("reforms", u.id)
        if key not in answers:
            cmb = state.combats.get(fight_of(state).combat)
            answers[key] = _kept(state, cmb, u)
        return answers[key]  # type: ignore[no-any-return]  # what this function memoized

    def _order_open(self, state: State, left: list[UnitState]) -> bool:
        """REF.ORDER: both players have a reform open and no order was chosen yet."""
        fight = fight_of(state)
        if fight.reform_first is not None:
            return False
        if fight.combat not in state.combats:
            return False
        players = {u.player for u in left if self._reforms(state, u)}
        return len(players) == 2

    def _reform_order(self, state: State, cmd: ReformOrder) -> list[Event]:
        self.flow.check_offered(state, cmd, "REF.ORDER")
        return self.flow.then(state, [ReformOrderChosen(combat=fight_of(state).combat,
                                                    first=cmd.first)], "reform_order")

    def _reformers(self, state: State) -> list[UnitState]:
        """REF.WHO, REF.ORDER: units still in the combat, those of the player who reforms
        first (the active player's, unless he chose otherwise) first; once the combat is
        over, the winners that stayed where they were (CR.NO_MORE_FOES)."""
        fight = fight_of(state)
        done = fight.reformed
        cmb = state.combats.get(fight.combat)
        if cmb is None:
            winner = (fight.result or NO_RESULT).winner
            moved = {u for u, (kind, _) in self.flow.pursuits.plans(state).items()
                     if kind in MOVES_ON}
            return [state.units[u] for u in fight.units
                    if state.units[u].player == winner and state.units[u].status == "ready"
                    and u not in done and u not in moved]
        units = [state.units[u] for u in cmb.units if state.units[u].status == "engaged"
                 and u not in done and combat.touching(state, cmb, u)]
        first = fight.reform_first or state.player
        return sorted(units, key=lambda u: u.player != first)

    def _drive_reform(self, state: State) -> list[Event]:
        fight = fight_of(state)
        if not fight or state.awaiting is not None:
            return []
        left = self._reformers(state)
        if left:
            if self._order_open(state, left):
                return []   # the active player says who reforms first
            u = left[0]
            if not self._reforms(state, u):
                return [ReformSkipped(unit=u.id, why=written(REFORM_SKIPPED, state,
                                                             "none_open"))]
            return []
        return [CombatRoundEnded(combat=fight.combat, round=fight.round)]

    def _reform(self, state: State, cmd: Reform) -> list[Event]:
        cmb = state.combats.get(fight_of(state).combat)
        if cmd not in self.flow.legal(state) and cmb is not None and cmd.unit in state.units:
            for (f, fc, t, _), (rule, why) in rules.reform_checks(state, cmb,
                                                                    state.units[cmd.unit]):
                if (f, fc, t) == (cmd.files, cmd.face, cmd.turn) and rule:
                    raise self.flow.illegal(state, cmd, why, rule)
        self.flow.check_offered(state, cmd, "REF.PLACEMENT")
        fight = fight_of(state)
        u = state.units[cmd.unit]
        asked = ReformTo(cmd.files, cmd.face, cmd.turn)
        if not table.reform_room(state, u, asked.text()):
            return self.flow.finish(state, [ReformSkipped(
                unit=u.id, why=written(REFORM_SKIPPED, state, "no_room"))])
        winner = fight.outcome.winner
        if winner is not None and winner != u.player:  # REF.TEST
            return [ask("reform", u.id, u.player, 2, asked)]
        return self.flow.finish(state, self._reformed(state, u, cmd.files, cmd.face, cmd.turn))

    def _reformed(self, state: State, u: UnitState, files: int, face: str, turn: int
                  ) -> list[Event]:
        for f, fc, t, b in self._reforms(state, u):
            if (f, fc, t) == (files, face, turn):
                how = (written(REFORMED, state, "face", unit=face) if face else
                       written(REFORMED, state, "turn", degrees=t) if t else
                       written(REFORMED, state, "files", files=files))
                if b is None:   # table mode: the players reform it, keeping contact
                    return [UnitReformed(unit=u.id, files=files, position=None, facing=None,
                                         how=how), *contacts.faced(state, u, face)]
                return [UnitReformed(unit=u.id, files=files, position=(b.x, b.y),
                                     facing=b.facing, how=how)]
        return [ReformSkipped(unit=u.id, why=written(REFORM_SKIPPED, state, "no_longer_open"))]

    def _reform_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                       ) -> list[Event]:
        u = state.units[aw.unit or ""]
        penalty = fight_of(state).penalties.get(u.id, 0)
        passed, need, insane = ld_test(unit_leadership(state, u), penalty, faces)
        events: list[Event] = [LeadershipTested(unit=u.id, purpose="reform",
                                                leadership=unit_leadership(state, u),
                                                penalty=penalty,
                                                faces=faces, passed=passed, needs=need,
                                                insane=insane)]
        to = read(ReformTo, aw)
        events += (self._reformed(state, u, to.files, to.face, to.turn) if passed else
                   [ReformSkipped(unit=u.id, why=written(REFORM_SKIPPED, state, "test_failed"))])
        return self.flow.finish(state, events)

    def _skip_reform(self, state: State, cmd: SkipReform) -> list[Event]:
        self.flow.check_offered(state, cmd, "REF.WHO")
        return self.flow.then(state, [ReformSkipped(unit=cmd.unit, why=written(
            REFORM_SKIPPED, state, "declined"))],
                          "skip_reform")

    def _ask_reform_order(self, state: State) -> Decision | None:
        """REF.ORDER: who reforms first, when both players have a reform open."""
        left = self._reformers(state)
        if not left or not self._order_open(state, left):
            return None
        p = state.player
        other = state.opponent(p)
        return Decision(player=p, decision="reform_order",
                        legal=(ReformOrder(by=p, first=p), ReformOrder(by=p, first=other)))

    def _ask_reform(self, state: State) -> Decision | None:
        """REF.PLACEMENT: each unit's reform, or none."""
        left = self._reformers(state)
        if not left:
            return None
        u = left[0]
        reforms: list[Command] = [Reform(by=u.player, unit=u.id, files=f, face=fc, turn=t)
                                  for f, fc, t, _ in self._reforms(state, u)]
        return Decision(player=u.player, decision="reform",
                        legal=(*reforms, SkipReform(by=u.player, unit=u.id)))


# the flow's part: its place among the parts, its name (parts.py)
PART = (8, "reforms", ReformFlow)
