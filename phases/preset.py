"""The fantasy presets: turn flow from the compiled machine, outcomes from rule functions.

Flow has three kinds of move. A player's command fires its trigger on the machine. A roll's
faces come back through ``on_roll``. Everything else the engine does by itself in ``_settle``:
each phase's ``drive`` function asks for the next roll or makes the next automatic event, and
automatic edges of the machine are taken when their guards hold, until the game waits for a
player or a die.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.commands import Command
from regiment.core.errors import IllegalCommand
from regiment.core.events import Event, GameEnded, GameStarted, PhaseChanged
from regiment.core.fold import appliers_for, fold
from regiment.core.pending import Decision, Over
from regiment.core.state import Awaiting, GameState, UnitState

from . import charge
from .appliers import APPLIERS, to_move
from .events import CombatBegan, TurnBegan
from .flow_charge import ChargeFlow
from .flow_combat import CombatFlow, fight_of
from .machine import SEPARATOR, Compiled, turn_table
from .units import ALIVE, box

Guard = Callable[[GameState], bool]


def _may_redirect(s: GameState) -> bool:
    last = s.context.get("last")
    if not last or last[2] != "flee":
        return False
    return bool(charge.redirect_targets(s, s.units[last[0]]))


def _one_side_left(s: GameState) -> bool:
    return any(not any(u.player == p and u.status in (*ALIVE, "off_table")
                       for u in s.units.values()) for p in s.players)


GUARDS: dict[str, Guard] = {
    "may_redirect": _may_redirect,
    "redirect_passed": lambda s: "declaring" in s.context,
    "no_chargers_left": lambda s: not any(s.units[u].status == "ready" for u in to_move(s)),
    "no_combats_left": lambda s: all(c in s.context.get("fought", ()) for c in s.combats),
    "challenges_done": lambda s: fight_of(s).get("challenge") == "done",
    "steps_done": lambda s: not fight_of(s).get("steps") and "batch" not in s.context,
    "result_decided": lambda s: "result" in fight_of(s),
    "tests_done": lambda s: not fight_of(s).get("tests") and not s.context.get("panic"),
    "pursuits_done": lambda s: bool(fight_of(s).get("pursued")),
    "reforms_done": lambda s: "fight" not in s.context,
    "last_turn": lambda s: s.player != s.first and s.turn >= s.turns,
    "one_side_left": _one_side_left,
}


class FantasyPreset(ChargeFlow, CombatFlow):
    """The ``fantasy8`` rules (and ``fantasy-classic``, which differs in a few bonuses)."""

    def __init__(self, name: str = "fantasy8", table: Compiled | None = None) -> None:
        self.name = name
        self.classic = name == "fantasy-classic"
        self.machine = table or turn_table()
        self.appliers = APPLIERS
        self.fold_table = appliers_for(APPLIERS)
        self.handlers: dict[str, Callable[[GameState, Any], list[Event]]] = {
            **self.charge_handlers(), **self.combat_handlers(),
            "end_phase": self._end_phase,
        }
        self.rolls: dict[str, Callable[[GameState, Awaiting, tuple[int, ...]], list[Event]]] = {
            **self.charge_rolls(), **self.combat_rolls(),
        }
        self.drives: dict[str, Callable[[GameState], list[Event]]] = {
            **self.charge_drives(), **self.combat_drives(),
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
        """TURN.ORDER: the first player's turn 1 begins, or the scenario's ``phase``; units
        already touching an enemy form combats (the ones marked ``charged`` charged)."""
        events: list[Event] = [TurnBegan(turn=1, player=state.first)]
        events += self._touching_at_start(state)
        phase = state_phase(self.machine, _scenario_phase(state))
        events.append(PhaseChanged(phase=phase, turn=1, player=state.first))
        return events + self._settle(fold(state, events, self.fold_table))

    def _touching_at_start(self, state: GameState) -> list[Event]:
        from regiment.core.geometry import contact

        out: list[Event] = []
        taken: set[str] = set()
        units = list(state.units.values())
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if a.player == b.player or a.id in taken or b.id in taken:
                    continue
                if contact(box(a), box(b)) is None and contact(box(b), box(a)) is None:
                    continue
                taken |= {a.id, b.id}
                chargers = tuple(u.id for u in (a, b) if u.charged)
                out.append(CombatBegan(combat=f"0-{a.id}-{b.id}", units=(a.id, b.id),
                                       chargers=chargers, reason="scenario"))
        return out

    # --- flow ------------------------------------------------------------------------------

    def _move(self, state: GameState, trigger: str) -> list[Event]:
        """Fire ``trigger`` on the compiled machine, then settle."""
        for edge in self.machine.edges.get(state.phase, {}).get(trigger, ()):
            if all(GUARDS[c](state) for c in edge.conditions):
                events = self._enter(state, edge.dest)
                return events + self._settle(fold(state, events, self.fold_table))
        raise IllegalCommand(f"{trigger} is not possible in {state.phase}", rule="TURN.ORDER",
                             phase=state.phase)

    def _then(self, state: GameState, events: list[Event], trigger: str) -> list[Event]:
        """Rule events, then the machine's move for the command that caused them."""
        return events + self._move(fold(state, events, self.fold_table), trigger)

    def _finish(self, state: GameState, events: list[Event]) -> list[Event]:
        return events + self._settle(fold(state, events, self.fold_table))

    def _settle(self, state: GameState) -> list[Event]:
        """Do what needs no player: the phase's next automatic step, or an automatic edge."""
        out: list[Event] = []
        while not state.over and state.awaiting is None:
            events = self._drive(state) or self._auto_edge(state)
            if not events:
                break
            state = fold(state, events, self.fold_table)
            out.extend(events)
        return out

    def _auto_edge(self, state: GameState) -> list[Event]:
        for edge in self.machine.autos.get(state.phase, ()):
            if all(GUARDS[c](state) for c in edge.conditions):
                return self._enter(state, edge.dest)
        return []

    def _drive(self, state: GameState) -> list[Event]:
        if "batch" in state.context:
            return self.drive_batch(state)
        if state.context.get("panic"):
            return self.drive_panic(state)
        leaf = state.phase.rsplit(SEPARATOR, 1)[-1]
        drive = self.drives.get(leaf)
        return drive(state) if drive is not None else []

    def _enter(self, state: GameState, dest: str) -> list[Event]:
        if dest == "over":
            return [self._game_over(state)]
        if dest == "turn.start":  # TURN.ORDER: the other player; a new game turn after both
            player = state.opponent(state.player)
            turn = state.turn + (1 if player == state.first else 0)
            return [TurnBegan(turn=turn, player=player),
                    PhaseChanged(phase=dest, turn=turn, player=player)]
        return [PhaseChanged(phase=dest, turn=state.turn, player=state.player)]

    def _game_over(self, state: GameState) -> GameEnded:
        left = [p for p in state.players if any(u.player == p and u.status in
                                                (*ALIVE, "off_table")
                                                for u in state.units.values())]
        if len(left) == 1:
            return GameEnded(reason=f"only {left[0]} has units left", winner=left[0])
        if not left:
            return GameEnded(reason="no units are left on either side")
        return GameEnded(reason=f"{state.turns} game turns played")

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

    def _offered(self, state: GameState, command: Command, rule: str) -> None:
        """The command must be one of the legal ones now (for choices read from the table)."""
        if command not in self.legal(state):
            raise self._illegal(state, command, f"{command.name} {command.args()} is not one "
                                "of the choices open now", rule)

    def _end_phase(self, state: GameState, cmd: Command) -> list[Event]:
        self._active(state, cmd, "TURN.ORDER")
        if state.phase.endswith("choose_combat") and not GUARDS["no_combats_left"](state):
            raise self._illegal(state, cmd, "every combat must be fought first", "CC.ORDER")
        return self._move(state, "end_phase")

    # --- dice ------------------------------------------------------------------------------

    def on_roll(self, state: GameState, roll: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        handler = self.rolls.get(roll.purpose)
        if handler is None:
            return self._settle(state)  # attack dice: the batch has filed them (appliers)
        return handler(state, roll, faces)

    # --- what is pending -------------------------------------------------------------------

    def pending(self, state: GameState) -> Decision | Over:
        if state.over:
            return Over(winner=state.winner, reason="the game is over")
        leaf = state.phase.rsplit(SEPARATOR, 1)[-1]
        ask = self.charge_pending(state, leaf) or self.combat_pending(state, leaf)
        if ask is not None:
            return ask
        p = state.player
        from regiment.core.commands import EndPhase

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
