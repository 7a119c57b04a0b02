"""The fantasy preset: turn flow from the compiled machine, outcomes from rule functions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.commands import (
    Command,
    DeclareCharge,
    EndCharges,
    EndPhase,
    MoveCharger,
    React,
)
from regiment.core.errors import IllegalCommand
from regiment.core.events import Event, GameEnded, GameStarted, PhaseChanged, RollRequested
from regiment.core.fold import appliers_for, fold
from regiment.core.pending import Decision, Over
from regiment.core.state import Awaiting, GameState, UnitState

from . import charge
from .events import ChargeDeclared, ChargeReacted, ChargeRolled, TurnBegan, UnitFled
from .machine import SEPARATOR, Compiled, turn_table

Guard = Callable[[GameState], bool]


def _to_move(s: GameState) -> tuple[str, ...]:
    return tuple(s.context.get("to_move", ()))


GUARDS: dict[str, Guard] = {
    # CH.REDIRECT arrives with the charge rules; until then a flee ends the declaration.
    "may_redirect": lambda s: False,
    "no_chargers_left": lambda s: not _to_move(s),
    "no_combats_left": lambda s: not s.context.get("combats"),
    "steps_done": lambda s: not s.context.get("steps"),
    "result_decided": lambda s: "result" in s.context,
    "tests_done": lambda s: not s.context.get("tests"),
    "pursuits_done": lambda s: not s.context.get("pursuits"),
    "reforms_done": lambda s: not s.context.get("reforms"),
    "last_turn": lambda s: s.player != s.first and s.turn >= s.turns,
}


class FantasyPreset:
    """The ``fantasy8`` rules over the shared turn machine."""

    def __init__(self, name: str = "fantasy8", table: Compiled | None = None) -> None:
        self.name = name
        self.machine = table or turn_table()
        self.appliers = APPLIERS
        self.fold_table = appliers_for(APPLIERS)
        self.handlers: dict[str, Callable[[GameState, Any], list[Event]]] = {
            "declare_charge": self._declare_charge,
            "react": self._react,
            "end_charges": self._end_charges,
            "move_charger": self._move_charger,
            "end_phase": self._end_phase,
            "fight": self._fight,
            "redirect": self._no_redirect,
            "decline_redirect": self._no_redirect,
        }

    def __repr__(self) -> str:
        return f"FantasyPreset({self.name!r})"

    # --- set-up ----------------------------------------------------------------------------

    def initial_state(self, started: GameStarted) -> GameState:
        sc = started.scenario
        units = {u["id"]: UnitState.from_scenario(u) for u in sc["units"]}
        return GameState(game_id=started.game_id, preset=started.preset,
                         players=tuple(p["id"] for p in sc["players"]), first=sc["first"],
                         turns=sc["turns"], units=units, table=sc["table"],
                         context={"start_phase": sc.get("phase") or "start"})

    def opening(self, state: GameState) -> list[Event]:
        """TURN.ORDER: the first player's turn 1 begins, or the scenario's ``phase``."""
        events: list[Event] = [TurnBegan(turn=1, player=state.first)]
        phase = state_phase(self.machine, _scenario_phase(state))
        events.append(PhaseChanged(phase=phase, turn=1, player=state.first))
        return events + self._autos(fold(state, events, self.fold_table))

    # --- flow ------------------------------------------------------------------------------

    def _move(self, state: GameState, trigger: str) -> list[Event]:
        """Fire ``trigger`` on the compiled machine: the PhaseChanged events it causes."""
        for edge in self.machine.edges.get(state.phase, {}).get(trigger, ()):
            if all(GUARDS[c](state) for c in edge.conditions):
                events = self._enter(state, edge.dest)
                return events + self._autos(fold(state, events, self.fold_table))
        raise IllegalCommand(f"{trigger} is not possible in {state.phase}", rule="TURN.ORDER",
                             phase=state.phase)

    def _autos(self, state: GameState) -> list[Event]:
        """Take every automatic transition whose guards hold, until the turn rests."""
        out: list[Event] = []
        while not state.over:
            for edge in self.machine.autos.get(state.phase, ()):
                if all(GUARDS[c](state) for c in edge.conditions):
                    events = self._enter(state, edge.dest)
                    state = fold(state, events, self.fold_table)
                    out.extend(events)
                    break
            else:
                return out
        return out

    def _enter(self, state: GameState, dest: str) -> list[Event]:
        if dest == "over":
            return [GameEnded(reason=f"{state.turns} game turns played")]
        if dest == "turn.start":  # TURN.ORDER: the other player; a new game turn after both
            player = state.opponent(state.player)
            turn = state.turn + (1 if player == state.first else 0)
            return [TurnBegan(turn=turn, player=player),
                    PhaseChanged(phase=dest, turn=turn, player=player)]
        return [PhaseChanged(phase=dest, turn=state.turn, player=state.player)]

    def _then(self, state: GameState, events: list[Event], trigger: str) -> list[Event]:
        """Rule events, then the machine's move (unless a roll must come first)."""
        after = fold(state, events, self.fold_table)
        if after.awaiting is not None:
            return events
        return events + self._move(after, trigger)

    # --- commands --------------------------------------------------------------------------

    def decide(self, state: GameState, command: Command) -> list[Event]:
        edges = self.machine.edges.get(state.phase, {}).get(command.name)
        if not edges or edges[0].auto:
            raise self._illegal(state, command, f"{command.name} is not a command of "
                                f"{state.phase or 'this game'}", "TURN.ORDER")
        return self.handlers[command.name](state, command)

    def _illegal(self, state: GameState, command: Command, why: str, rule: str
                 ) -> IllegalCommand:
        return IllegalCommand(why, rule=rule, command=command, phase=state.phase,
                              legal=[c.to_dict() for c in self.legal(state)])

    def _unit(self, state: GameState, command: Command, uid: str, rule: str) -> UnitState:
        unit = state.units.get(uid)
        if unit is None:
            raise self._illegal(state, command, f"there is no unit {uid!r}", rule)
        return unit

    def _active(self, state: GameState, command: Command, rule: str) -> None:
        if command.by != state.player:
            raise self._illegal(state, command, f"it is {state.player}'s turn, not "
                                f"{command.by}'s", rule)

    def _declare_charge(self, state: GameState, cmd: DeclareCharge) -> list[Event]:
        self._active(state, cmd, "CH.DECLARE")
        unit = self._unit(state, cmd, cmd.unit, "CH.DECLARE")
        target = self._unit(state, cmd, cmd.target, "CH.DECLARE")
        why = charge.why_cannot_charge(state, unit) or charge.why_not_target(state, unit, target)
        if why:
            raise self._illegal(state, cmd, why, "CH.DECLARE")
        return self._then(state, [ChargeDeclared(unit=unit.id, target=target.id)],
                          "declare_charge")

    def _react(self, state: GameState, cmd: React) -> list[Event]:
        charger_id, target_id = state.context["declaring"]
        target = state.units[target_id]
        if cmd.unit != target_id:
            raise self._illegal(state, cmd, f"{target.name} must react first", "CH.REACT")
        if cmd.by != target.player:
            raise self._illegal(state, cmd, f"{target.name} is {target.player}'s unit",
                                "CH.REACT")
        if cmd.reaction not in charge.reactions(target):
            raise self._illegal(state, cmd, f"{target.name} may not {cmd.reaction}", "CH.REACT")
        events: list[Event] = [ChargeReacted(unit=target.id, reaction=cmd.reaction,
                                             charger=charger_id)]
        if cmd.reaction == "flee":
            events.append(RollRequested(purpose="flee", unit=target.id, player=target.player,
                                        dice=charge.movement_dice(target)))
        return self._then(state, events, "react")

    def _end_charges(self, state: GameState, cmd: EndCharges) -> list[Event]:
        self._active(state, cmd, "CH.DECLARE")
        return self._move(state, "end_charges")

    def _move_charger(self, state: GameState, cmd: MoveCharger) -> list[Event]:
        """CH.MOVE_ORDER: the active player picks the next charger; it rolls its range."""
        self._active(state, cmd, "CH.MOVE_ORDER")
        if cmd.unit not in _to_move(state):
            raise self._illegal(state, cmd, f"{cmd.unit!r} has no charge left to move",
                                "CH.MOVE_ORDER")
        unit = state.units[cmd.unit]
        return [RollRequested(purpose="charge_range", unit=unit.id, player=unit.player,
                              dice=charge.movement_dice(unit))]

    def _end_phase(self, state: GameState, cmd: EndPhase) -> list[Event]:
        self._active(state, cmd, "TURN.ORDER")
        return self._move(state, "end_phase")

    def _fight(self, state: GameState, cmd: Command) -> list[Event]:
        raise self._illegal(state, cmd, f"no combat {getattr(cmd, 'combat', '')!r} is waiting",
                            "CC.ORDER")

    def _no_redirect(self, state: GameState, cmd: Command) -> list[Event]:
        raise self._illegal(state, cmd, "no charge waits to be redirected", "CH.REDIRECT")

    # --- dice ------------------------------------------------------------------------------

    def on_roll(self, state: GameState, roll: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        if roll.purpose == "flee":
            events: list[Event] = [UnitFled(unit=roll.unit or "",
                                            distance=sum(charge.counted(faces)))]
            return self._then(state, events, "react")
        if roll.purpose == "charge_range":
            unit = state.units[roll.unit or ""]
            target = state.units[unit.declared or ""]
            reach = charge.charge_range(unit, faces)
            gap = charge.gap(unit, target)
            rolled = ChargeRolled(unit=unit.id, target=target.id, dice=charge.counted(faces),
                                  range=reach, distance=gap, success=reach >= gap)
            after = fold(state, [rolled], self.fold_table)
            return [rolled, *self._autos(after)]
        raise ValueError(f"no rule resolves a {roll.purpose} roll")

    # --- what is pending -------------------------------------------------------------------

    def pending(self, state: GameState) -> Decision | Over:
        if state.over:
            return Over(winner=state.winner, reason="the game is over")
        leaf = state.phase.rsplit(SEPARATOR, 1)[-1]
        p = state.player
        if leaf == "declaration":
            legal: list[Command] = []
            for unit in state.units.values():
                if charge.why_cannot_charge(state, unit):
                    continue
                legal += [DeclareCharge(by=p, unit=unit.id, target=t.id)
                          for t in state.units.values()
                          if not charge.why_not_target(state, unit, t)]
            return Decision(player=p, decision="declare_charge",
                            legal=(*legal, EndCharges(by=p)))
        if leaf == "reactions":
            target = state.units[state.context["declaring"][1]]
            return Decision(player=target.player, decision="react",
                            legal=tuple(React(by=target.player, unit=target.id, reaction=r)
                                        for r in charge.reactions(target)))
        if leaf == "charge_moves":
            return Decision(player=p, decision="move_charger",
                            legal=tuple(MoveCharger(by=p, unit=u) for u in _to_move(state)))
        return Decision(player=p, decision="end_phase", legal=(EndPhase(by=p),))

    def legal(self, state: GameState) -> list[Command]:
        pending = self.pending(state)
        return list(pending.legal) if isinstance(pending, Decision) else []


def _scenario_phase(state: GameState) -> str:
    return state.context.get("start_phase") or "start"


def state_phase(table: Compiled, name: str) -> str:
    """The leaf a scenario's ``phase`` names: a full dotted path, or any state's own name."""
    for leaf in table.leaves:
        parts = leaf.split(SEPARATOR)
        if leaf == name or name in parts:
            return leaf
    raise ValueError(f"no phase {name!r} in the turn")


# --- appliers: how each rule event changes the state ---------------------------------------


def _turn_began(s: GameState, e: TurnBegan) -> GameState:
    if s.turn == 0:  # the opening keeps what the scenario set up (a charge already made)
        return s.evolve(context={})
    units = {k: u.evolve(declared=None, reaction=None, charged=False)
             if (u.declared or u.reaction or u.charged) else u for k, u in s.units.items()}
    return s.evolve(units=units, context={})


def _charge_declared(s: GameState, e: ChargeDeclared) -> GameState:
    ctx = dict(s.context)
    ctx["declaring"] = (e.unit, e.target)
    ctx["to_move"] = (*_to_move(s), e.unit)
    return s.with_unit(s.units[e.unit].evolve(declared=e.target)).evolve(context=ctx)


def _charge_reacted(s: GameState, e: ChargeReacted) -> GameState:
    ctx = dict(s.context)
    ctx.pop("declaring", None)
    return s.with_unit(s.units[e.unit].evolve(reaction=e.reaction)).evolve(context=ctx)


def _unit_fled(s: GameState, e: UnitFled) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(status="fleeing"))


def _charge_rolled(s: GameState, e: ChargeRolled) -> GameState:
    ctx = dict(s.context)
    ctx["to_move"] = tuple(u for u in _to_move(s) if u != e.unit)
    s = s.evolve(context=ctx)
    return s.with_unit(s.units[e.unit].evolve(charged=True)) if e.success else s


APPLIERS: dict[str, Any] = {
    "TurnBegan": _turn_began,
    "ChargeDeclared": _charge_declared,
    "ChargeReacted": _charge_reacted,
    "UnitFled": _unit_fled,
    "ChargeRolled": _charge_rolled,
}
