"""FP.*: flee and pursuit, as the steps of the machine's ``pursuit`` phase.

The steps, in the machine's order (``phases/fantasy/machine.py``): each winner that may pursue
chooses (``choose``), those that chose to stay take their restraint test (``restraint``), the
broken units roll how far they flee (``flee_rolls``), the pursuers how far they go
(``pursuit_rolls``), the caught are destroyed (``caught``), then the broken units move
(``flee_moves``) and the pursuers (``pursuer_moves``), each in their player's order. Each step
has its queue (who is still to act in it, from the fight's typed state) and the guard that says
it is done; the outcomes come from ``rules`` and the other rule modules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.commands import Command
from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import Awaiting
from regiment.phases.common.engine import per_state

from .. import charge, effects
from ..characters.rules import unit_leadership
from ..close_combat import combat
from ..commands import FleeOrder, Overrun, Pursue, PursuitOrder, Restrain
from ..events import (
    CombatEnded,
    LeadershipTested,
    OrderChosen,
    UnitDestroyed,
    UnitFled,
)
from ..faces import counted, dropped
from ..flow import Flow, fight_of
from ..result import ld_test
from ..rolls import FleeRoll, FleeTie, Toward, ask
from ..rulings import ruled
from ..state import MOVES_ON, NO_RESULT, Pursuit, State, UnitState
from ..why import COMBAT_ENDED, DESTROYED, written
from . import moves
from . import rules as pursuit
from .events import (
    FleeDirectionChosen,
    PursuitDeclared,
    PursuitRolled,
    PursuitsCompleted,
    UnitCaught,
)


class PursuitFlow:
    """Flee and pursuit after a round's break tests (FP.*)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"pursue": self._pursue, "overrun": self._pursue, "restrain": self._pursue,
                "flee_order": self._order, "pursuit_order": self._order}

    def rolls(self) -> dict[str, dict[str, Any]]:
        """Each step's rolls, and what each leads to: the step that asked goes on."""
        return {"restraint": {"restrain": self._restrain_rolled},
                "flee_rolls": {"flee": self._flight_rolled},
                "pursuit_rolls": {"pursuit": self._pursuit_rolled,
                                  "overrun": self._pursuit_rolled},
                "flee_moves": {"random_choice": self._direction_rolled}}

    def drives(self) -> dict[str, Any]:
        return {"restraint": self._drive_restraint, "flee_rolls": self._drive_flee_rolls,
                "pursuit_rolls": self._drive_pursuit_rolls, "caught": self._caught,
                "flee_moves": self._drive_flee_moves, "pursuer_moves": self._drive_pursuer_moves}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {"choose": self._ask_pursuers,
                "flee_moves": lambda s: self._ask_move_order(s, "flee"),
                "pursuer_moves": lambda s: self._ask_move_order(s, "pursuit")}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        """The named guards of the pursuit's steps: each says its step is done."""
        return {"pursuers_chosen": self._pursuers_chosen,
                "restraints_tested": self._restraints_tested,
                "flights_rolled": self._flights_rolled,
                "pursuits_rolled": self._pursuits_rolled,
                "none_caught": self._none_caught,
                "flights_moved": self._flights_moved}

    def _pursuers_chosen(self, state: State) -> bool:
        return self._undecided(state) is None

    def _restraints_tested(self, state: State) -> bool:
        return not self._restraining(state)

    def _flights_rolled(self, state: State) -> bool:
        return not self._unrolled_flights(state)

    def _pursuits_rolled(self, state: State) -> bool:
        return not self._unrolled_pursuits(state)

    def _none_caught(self, state: State) -> bool:
        return not self._caught(state)

    def _flights_moved(self, state: State) -> bool:
        return not self._left(state, "flee")

    def _order(self, state: State, cmd: FleeOrder | PursuitOrder) -> list[Event]:
        """FP.MULTI_ORDER: which of a player's units flees, or pursues, next."""
        self.flow.check_offered(state, cmd, "FP.MULTI_ORDER")
        what = cmd.name.removesuffix("_order")
        return self.flow.then(state, [OrderChosen(combat=fight_of(state).combat, what=what,
                                                  unit=cmd.unit)], cmd.name)

    @per_state
    def _candidates(self, state: State) -> dict[str, tuple[str, list[str]]]:
        """FP.CHOOSE_PURSUIT, FP.OVERRUN: winners that may pursue (with the broken units they
        touched: every enemy they touch must have broken) or overrun (they destroyed every
        foe they touched in the round they charged in, CR.NO_MORE_FOES)."""
        fight = fight_of(state)
        result = fight.result or NO_RESULT
        winner = result.winner
        cmb = state.combats.get(fight.combat)
        if cmb is None:
            return {}
        out: dict[str, tuple[str, list[str]]] = {}
        broken = set(fight.broken)
        if winner is not None:
            for uid in cmb.units:
                u = state.units[uid]
                if u.player != winner or u.status != "engaged":
                    continue
                foes = [state.units[o] for o in cmb.units if state.units[o].player != winner
                        and state.units[o].status in ("engaged", "fleeing")
                        and combat.in_contact_at_all(u, state.units[o])]
                if foes and all(f.id in broken for f in foes):
                    out[uid] = ("pursue", [f.id for f in foes])
        for uid in result.free:
            if state.units[uid].status == "ready" and uid in cmb.chargers:
                out[uid] = ("overrun", [])
        return out

    @per_state
    def plans(self, state: State) -> dict[str, tuple[Pursuit, str]]:
        """FP.CHOOSE_PURSUIT: what each unit that chose does, its restraint test taken into
        account (``intent``), with the unit it goes after."""
        fight = fight_of(state)
        tests = fight.restraint
        return {u: (pursuit.intent(kind, target, tests.get(u)), target)
                for u, (kind, target) in fight.decided.items()}

    def _undecided(self, state: State) -> str | None:
        decided = fight_of(state).decided
        return next((u for u in self._candidates(state) if u not in decided), None)

    def _pursue(self, state: State, cmd: Pursue | Overrun | Restrain) -> list[Event]:
        options = self._candidates(state).get(cmd.unit)
        mover = state.units.get(cmd.unit)
        forced = effects.forced(mover, "pursue") if mover is not None and options else None
        if forced is not None and cmd.name == "restrain":   # SPECIAL.EFFECTS: Frenzy
            raise self.flow.illegal(state, cmd, tr("{unit} must pursue ({rule})",
                                                   unit=mover.name if mover else cmd.unit,
                                                   rule=effects.told(forced)), forced.rule)
        if isinstance(cmd, Pursue) and options and cmd.target not in options[1]:
            name, nobody = state.units[cmd.unit].name, tr("none")
            raise self.flow.illegal(
                state, cmd, tr("{unit} may only pursue a broken unit it touched: {units}",
                               unit=name, units=", ".join(options[1]) or nobody),
                "FP.CHOOSE_PURSUIT")
        self.flow.check_offered(state, cmd, "FP.CHOOSE_PURSUIT")
        target = getattr(cmd, "target", "")
        if cmd.name == "restrain":
            _kind, targets = self._candidates(state)[cmd.unit]
            target = targets[0] if targets else ""
        declared = PursuitDeclared(unit=cmd.unit, target=target, kind=cmd.name,
                                   forced=forced.written() if forced is not None else None)
        return self.flow.then(state, [declared], cmd.name)

    # Each step of the pursuit has its queue: who is still to act in it, in order.

    def _restraining(self, state: State) -> list[str]:
        """FP.CHOOSE_PURSUIT: units that chose to stay and take their Leadership test."""
        return [u for u, (kind, _) in self.plans(state).items()
                if kind == Pursuit.RESTRAINING]

    def _unrolled_flights(self, state: State) -> list[str]:
        """FP.FLEE_ROLL: broken units still to roll how far they flee."""
        fight = fight_of(state)
        return [b for b in fight.broken if b not in fight.fled
                and state.units[b].status == "fleeing"]

    def _unrolled_pursuits(self, state: State) -> list[str]:
        """FP.PURSUE_ROLL: pursuers and overrunning units still to roll."""
        rolled = fight_of(state).rolled
        return [u for u, (kind, _) in self.plans(state).items()
                if kind in MOVES_ON and u not in rolled]

    def _drive_restraint(self, state: State) -> list[Event]:
        """FP.CHOOSE_PURSUIT: a Leadership test to stay."""
        u = state.units[self._restraining(state)[0]]
        return [RollRequested(purpose="restrain", unit=u.id, player=u.player, dice=2)]

    def _drive_flee_rolls(self, state: State) -> list[Event]:
        """FP.FLEE_ROLL: each broken unit rolls its flight."""
        u = state.units[self._unrolled_flights(state)[0]]
        return [ask("flee", u.id, u.player, charge.movement_dice(u), FleeRoll("combat"))]

    def _flight_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                       ) -> list[Event]:
        """FP.FLEE_ROLL: how far the broken unit flees; it moves once the pursuers rolled."""
        return self.flow.finish(state, [UnitFled(unit=aw.unit or "", distance=sum(counted(faces)),
                                                 reason="broke", dice=faces)])

    def _drive_pursuit_rolls(self, state: State) -> list[Event]:
        """FP.PURSUE_ROLL: each pursuer (or overrunning unit) rolls how far it goes."""
        uid = self._unrolled_pursuits(state)[0]
        kind, target = self.plans(state)[uid]
        u = state.units[uid]
        return [ask("pursuit" if kind == Pursuit.PURSUE else "overrun", uid, u.player,
                    charge.movement_dice(u), Toward(target))]

    def _drive_flee_moves(self, state: State) -> list[Event]:
        """FP.FLEE_DIRECTION, FP.MULTI_ORDER: the broken units move, in their player's order."""
        fleeing = self._to_move(state, "flee")
        return self._flee_move(state, fleeing) if fleeing else []

    def _drive_pursuer_moves(self, state: State) -> list[Event]:
        """FP.PURSUE_MOVE, FP.MULTI_ORDER: the pursuers move, in their player's order; then
        the units touching no enemy leave the combat."""
        if fight_of(state).pursued:
            return []
        if self._left(state, "pursuit"):
            pursuers = self._to_move(state, "pursuit")
            return self._pursuer_move(state, pursuers) if pursuers else []
        return self._pursuits_done(state)

    def _left(self, state: State, what: str) -> list[str]:
        """The broken units (``flee``) or pursuers (``pursuit``) that have still to move."""
        fight = fight_of(state)
        done = fight.moved
        if what == "flee":
            return [b for b in fight.broken if state.units[b].status == "fleeing"
                    and b in fight.fled and b not in done]
        return [u for u, (kind, _) in self.plans(state).items()
                if kind in MOVES_ON and u in fight.rolled
                and u not in done and state.units[u].status in ("engaged", "ready")]

    def _to_move(self, state: State, what: str) -> list[str]:
        """The next to move; empty while its player has to say which (FP.MULTI_ORDER)."""
        left = self._left(state, what)
        if len(left) > 1:
            chosen = fight_of(state).next.get(what)
            return [chosen] if chosen in left else []
        return left

    def _order_needed(self, state: State) -> tuple[str, list[str]] | None:
        """FP.MULTI_ORDER: the moves waiting for a player to order them, if any."""
        for what in ("flee", "pursuit"):
            left = self._left(state, what)
            if left:
                return (what, left) if not self._to_move(state, what) else None
        return None

    @per_state
    def _caught(self, state: State) -> list[Event]:
        """FP.CAUGHT: a broken unit is destroyed if any of its pursuers rolled as far (the
        step's guard and its drive ask the same state: kept with it)."""
        fight = fight_of(state)
        decided, rolled, fled = self.plans(state), fight.rolled, fight.fled
        events: list[Event] = []
        cur = state
        for b in fight.broken:
            if cur.units[b].status != "fleeing" or b not in fled or b in fight.moved:
                continue
            by = [p for p, (k, t) in decided.items() if k == Pursuit.PURSUE and t == b
                  and rolled.get(p, 0) >= fled[b]]
            if by:
                more: list[Event] = [UnitCaught(unit=b, by=by[0]),
                                     UnitDestroyed(unit=b, reason=written(DESTROYED, state,
                                                                          "caught"))]
                more += self.flow.flights.panic_after(fold(cur, more, self.flow.fold_table),
                                                      [b], "was destroyed")
                cur = fold(cur, more, self.flow.fold_table)
                events += more
        return events

    def _flee_move(self, state: State, fleeing: list[str]) -> list[Event]:
        """FP.FLEE_DIRECTION: away from the enemy unit of the combat with the most ranks five
        models wide; a die chooses among equals."""
        fight = fight_of(state)
        u = state.units[fleeing[0]]
        away_id = fight.away.get(u.id)
        if away_id is None:
            among = self._flee_from(state, u)
            if len(among) > 1:
                return [ask("random_choice", u.id, u.player, 1, FleeTie(among))]
            away_id = among[0] if among else ""
        return self.flow.flights.flee_events(state, u, state.units.get(away_id),
                                             fight.fled[u.id], "flee")

    def _flee_from(self, state: State, u: UnitState) -> tuple[str, ...]:
        """FP.FLEE_DIRECTION: the enemy units of the combat ``u`` may flee from (a tie, when
        several)."""
        fight = fight_of(state)
        foes = [state.units[o] for o in fight.units if state.units[o].player != u.player
                and state.units[o].status in ("engaged", "ready")]
        return tuple(f.id for f in pursuit.flee_from(state, u, foes))

    def _direction_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                          ) -> list[Event]:
        """FP.FLEE_DIRECTION: a D6 picks one of the tied enemy units (faces beyond the last
        whole share are rolled again, so every unit is as likely)."""
        among = self._flee_from(state, state.units[aw.unit or ""])  # the step's own tie
        n = len(among)
        if faces[0] > n * (6 // n):
            return [ask("random_choice", aw.unit, aw.player, 1, FleeTie(among))]
        pick = among[(faces[0] - 1) % n]
        return self.flow.finish(state, [FleeDirectionChosen(unit=aw.unit or "", away_from=pick,
                                                        among=among, faces=faces)])

    def _pursuer_move(self, state: State, pursuers: list[str]) -> list[Event]:
        fight = fight_of(state)
        uid = pursuers[0]
        kind, target = self.plans(state)[uid]
        return moves.pursuer_moves(state, state.units[uid], kind, target, fight.rolled[uid],
                                   self.flow.fold_table)

    def _pursuits_done(self, state: State) -> list[Event]:
        """Units of the combat left touching no enemy leave it; a combat with one side left
        ends."""
        fight = fight_of(state)
        cmb = state.combats.get(fight.combat)
        if cmb is None:
            return [PursuitsCompleted(combat=fight.combat)]
        left = tuple(u for u in cmb.units if state.units[u].status == "engaged"
                     and not combat.touching(state, cmb, u))
        events: list[Event] = [PursuitsCompleted(combat=cmb.id, left=left)]
        cur = fold(state, events, self.flow.fold_table)
        cmb = cur.combats[cmb.id]
        if not all(any(cur.units[o].status == "engaged" and cur.units[o].player == p
                       for o in cmb.units) for p in cur.players):
            events.append(CombatEnded(combat=cmb.id,
                                      reason=written(COMBAT_ENDED, state, "no_foes")))
        return events

    def _restrain_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                         ) -> list[Event]:
        u = state.units[aw.unit or ""]
        passed, need, insane = ld_test(unit_leadership(state, u), 0, faces)
        return self.flow.finish(state, [LeadershipTested(unit=u.id, purpose="restrain",
                                                     leadership=unit_leadership(state, u),
                                                     penalty=0,
                                                     faces=faces, passed=passed, needs=need,
                                                     insane=insane)])

    def _pursuit_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                        ) -> list[Event]:
        """FP.PURSUE_ROLL, FP.CAUGHT: caught if the pursuit equals or beats the flee roll."""
        dist = sum(counted(faces))
        fled = fight_of(state).fled
        target = self.plans(state)[aw.unit or ""][1]   # whom the step's pursuer goes after
        caught = bool(target) and target in fled and dist >= fled[target]
        told = ruled(state, "story_told_whole")   # Swiftstride's dropped die, in the log
        return self.flow.finish(state, [PursuitRolled(unit=aw.unit or "", target=target,
                                                  dice=counted(faces), distance=dist,
                                                  caught=caught,
                                                  dropped=dropped(faces) if told else ())])

    def _ask_pursuers(self, state: State) -> Decision | None:
        """FP.CHOOSE_PURSUIT: each winner that may pursue chooses, in turn."""
        undecided = self._undecided(state)
        if undecided is None:
            return None
        u = state.units[undecided]
        kind, targets = self._candidates(state)[undecided]
        choices: list[Command] = ([Pursue(by=u.player, unit=u.id, target=t) for t in targets]
                                  if kind == "pursue" else [Overrun(by=u.player, unit=u.id)])
        if effects.forced(u, "pursue") is not None:   # SPECIAL.EFFECTS: it may not stay
            return Decision(player=u.player, decision="pursue", legal=tuple(choices))
        return Decision(player=u.player, decision="pursue",
                        legal=(*choices, Restrain(by=u.player, unit=u.id)))

    def _ask_move_order(self, state: State, what: str) -> Decision | None:
        """FP.MULTI_ORDER: the order in which broken units flee (``flee``) and pursuers move
        (``pursuit``), when a player has several to move."""
        order = self._order_needed(state)
        if order is None or order[0] != what:
            return None
        movers = order[1]
        who = state.units[movers[0]].player
        cls = FleeOrder if what == "flee" else PursuitOrder
        return Decision(player=who, decision=f"{what}_order",
                        legal=tuple(cls(by=who, unit=u) for u in movers))


# the flow's part: its place among the parts, its name (parts.py)
PART = (7, "pursuits", PursuitFlow)
