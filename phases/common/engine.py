"""What every rulebook's engine does with its compiled machine: fire a trigger when its
guards hold, settle what needs no player (each leaf's drive, the automatic edges) until the
game waits for a player or a die, enter a leaf, and refuse a command with what is legal."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from regiment.core import i18n
from regiment.core.commands import Command, EndPhase
from regiment.core.endings import REASONS_AS_CODES, Ending, ending, legacy_reason
from regiment.core.errors import IllegalCommand
from regiment.core.events import Event, GameEnded, PhaseChanged, TurnBegan
from regiment.core.fold import Folded, fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision, Over
from regiment.core.state import GameState, memo

from .machine import Compiled, Leaf, Rolled

i18n.register(Path(__file__).with_name("locale"))
Guard = Callable[[Any], bool]
WHERE = "Engine.where"   # its answer's key in a state's memo
T = TypeVar("T")


def per_state(method: Callable[[Any, Any], T]) -> Callable[[Any, Any], T]:
    """Keep a method's answer with the state it was asked about: states never change, and the
    drive, the pending decision and the command check all ask of the same one. The answers
    live as long as their state and belong to it alone (``memo``), not to the preset that
    every game shares."""
    name = method.__qualname__

    @functools.wraps(method)
    def wrapper(self: Any, state: Any) -> T:
        answers = memo(state)
        if name in answers:
            return answers[name]  # type: ignore[no-any-return]  # what the guard memoized
        answer = answers[name] = method(self, state)
        return answer

    return wrapper


class Engine:
    """The flow of a rulebook's turn over its compiled machine. A rulebook gives its machine,
    its leaves (``at``), its appliers' table and its guards, and says what happens by itself
    (``drive``) and whose pieces are left (``has_pieces``); commands go to their leaf's
    handler, and the pending decision is the leaf's question.

    Its public methods are what a rulebook's flow builds on: ``fire`` a trigger of the
    machine, ``then`` (rule events, then the command's trigger), ``finish`` (rule events, then
    what follows by itself), ``settle``, and the refusals ``illegal``, ``check_turn`` and
    ``check_offered``."""

    machine: Compiled
    fold_table: dict[type[Event], Any]
    guards: dict[str, Guard]
    at: dict[str, Leaf]            # the machine's leaves by path, which is what a phase is
    start: str = "turn.start"      # the leaf a player's turn begins in
    turn_rule: str = "TURN.ORDER"  # the rule a command out of turn or phase breaks

    def where(self, state: Any) -> str:
        """The step of the turn the game is at (``Compiled.locate``): the phase the log
        recorded, or in a phase of steps the step its guards lead to (kept with the state:
        the drive, the question and the command all ask it of the same one)."""
        phase: str = state.phase
        if phase not in self.machine.entry:   # a phase that is its own step: no guard to ask
            return phase                      # (most states: the memo would cost more)
        answers = memo(state)
        leaf: str | None = answers.get(WHERE)
        if leaf is None:
            leaf = answers[WHERE] = self.machine.locate(phase, self.guards, state)
        return leaf

    def step(self, state: Any) -> Leaf | None:
        """The step's table (what it takes, asks, drives and rolls)."""
        return self.at.get(self.where(state))

    def fire(self, state: Any, trigger: str, at: str | None = None) -> Folded:
        """Fire ``trigger`` on the compiled machine from the step ``at`` (the game's own step
        unless given), then settle."""
        guards = self.guards
        for edge in self.machine.edges.get(at or self.where(state), {}).get(trigger, ()):
            if edge.holds(guards, state):
                return self.finish(state, self._enter(state, edge.dest))
        raise IllegalCommand(tr("{trigger} is not possible in {phase}", trigger=trigger,
                                phase=state.phase), rule="TURN.ORDER",
                             phase=state.phase, code="wrong_phase")

    def then(self, state: Any, events: list[Event], trigger: str) -> Folded:
        """Rule events, then the machine's move for the command that caused them (from the
        step that took the command)."""
        tail = self.fire(fold(state, events, self.fold_table), trigger, self.where(state))
        return Folded(events + tail, tail.state)

    def finish(self, state: Any, events: list[Event]) -> Folded:
        """Rule events, then whatever follows by itself."""
        tail = self.settle(fold(state, events, self.fold_table))
        return Folded(events + tail, tail.state)

    def settle(self, state: Any) -> Folded:
        """Do what needs no player: the phase's next automatic step, or an automatic edge.
        Returns the events with the state they lead to."""
        out: list[Event] = []
        while not state.over and state.awaiting is None:
            events = self.drive(state) or self._auto_edge(state)
            if not events:
                break
            state = fold(state, events, self.fold_table)
            out.extend(events)
        return Folded(out, state)

    def _auto_edge(self, state: Any) -> list[Event]:
        guards = self.guards
        for edge in self.machine.autos.get(self.where(state), ()):
            if edge.holds(guards, state):
                return self._enter(state, edge.dest)
        return []

    def drive(self, state: Any) -> list[Event]:
        raise NotImplementedError

    anywhere: dict[str, Rolled] = {}   # rolls a procedure of any step asks for (a panic test)

    def rolled(self, state: Any, roll: Any, faces: tuple[int, ...]) -> list[Event]:
        """What a roll leads to: the step that asked for it goes on with it (its ``rolls``),
        or the procedure any step may run (``anywhere``)."""
        leaf = self.step(state)
        handler = leaf.rolls.get(roll.purpose) if leaf is not None else None
        if handler is None:
            handler = self.anywhere.get(roll.purpose)
        if handler is None:   # a rulebook that asks for a roll no step takes: its own error
            raise KeyError(f"no step of {state.phase} takes a {roll.purpose} roll")
        return handler(state, roll, faces)

    def _enter(self, state: GameState, dest: str) -> list[Event]:
        if dest == "over":
            return [self.game_over(state)]
        if dest == self.start:  # the other player; a new game turn after both
            player = state.opponent(state.player)
            turn = state.turn + (1 if player == state.first else 0)
            return [TurnBegan(turn=turn, player=player),
                    PhaseChanged(phase=dest, turn=turn, player=player)]
        # a step's phase is what the log records (a command in a step records it again)
        return [PhaseChanged(phase=self.machine.recorded.get(dest, dest), turn=state.turn,
                             player=state.player)]

    # a side's pieces in short English: the reason of a game begun before 0.10.0, and how
    # `regiment games` lists a game's end (tools.listings)
    pieces = "units"

    def game_over(self, state: Any) -> GameEnded:
        """GAME.END: one side left wins; none left, no one does; when the turns run out, the
        rulebook's victory rule decides (``score``), or, where it has none, no one wins."""
        left = [p for p in state.players if self.has_pieces(state, p)]
        if len(left) == 1:
            end, winner = ending(Ending.SIDE_LEFT, player=left[0]), left[0]
        elif not left:
            end, winner = ending(Ending.NONE_LEFT), None
        elif (scored := self.score(state)) is not None:
            rule, points = scored
            end = ending(Ending.POINTS, turns=state.turns, rule=rule, points=points)
            items = self.itemised(state)
            if items:   # what each point was scored for, with the rule (games from 0.13.0)
                end["scored"] = items
            best = max(points.values())
            ahead = [p for p, n in points.items() if n == best]
            winner = ahead[0] if len(ahead) == 1 else None
        else:
            end, winner = ending(Ending.TURNS_PLAYED, turns=state.turns), None
        if state.engine < REASONS_AS_CODES:   # as the engine that began the game wrote it
            return GameEnded(reason=legacy_reason(end, self.pieces), winner=winner)
        return GameEnded(winner=winner, ending=end)

    def has_pieces(self, state: Any, player: str) -> bool:
        raise NotImplementedError

    def score(self, state: Any) -> tuple[str, dict[str, int]] | None:
        """The rulebook's victory rule, when its turns are played: the rule that scores and
        each player's points (None: no rule scores, and no one wins, GAME.END)."""
        return None

    def itemised(self, state: Any) -> list[dict[str, Any]]:
        """The rulebook's points item by item (``score``'s), for the log and the story: each
        ``{"player", "unit", "points", "why"}``; none where it does not itemise them."""
        return []

    def decide(self, state: Any, command: Command) -> list[Event]:
        """The events a command causes, from the handler its step has for it."""
        leaf = self.step(state)
        handle = leaf.handles.get(command.name) if leaf is not None else None
        if handle is None:
            raise self.illegal(state, command, tr("{command} is not a command of {phase}",
                                                   command=command.name,
                                                   phase=state.phase or tr("this game")),
                                self.turn_rule, "wrong_phase", "cmd")
        return handle(state, command)

    @per_state
    def pending(self, state: Any) -> Decision | Over:
        """The step's question, if it has one open; else the host ends the phase."""
        if state.over:
            return Over.of(state)
        leaf = self.step(state)
        ask = leaf.asks(state) if leaf is not None and leaf.asks is not None else None
        if ask is not None:
            return ask
        p = state.player
        return Decision(player=p, decision="end_phase", legal=(EndPhase(by=p),))

    def legal(self, state: Any) -> list[Command]:
        pending = self.pending(state)
        return list(pending.legal) if isinstance(pending, Decision) else []

    def illegal(self, state: GameState, command: Command, why: str, rule: str,
                code: str = "", field: str | None = None) -> IllegalCommand:
        return IllegalCommand(why, rule=rule, command=command, phase=state.phase,
                              legal=[c.wire() for c in self.legal(state)], code=code,
                              field=field)

    def check_turn(self, state: GameState, command: Command, rule: str) -> None:
        if command.by != state.player:
            raise self.illegal(state, command, tr("it is {player}'s turn, not {other}'s",
                                                   player=state.player, other=command.by),
                                rule, "not_your_turn", "by")

    def check_offered(self, state: GameState, command: Command, rule: str) -> None:
        """The command must be one of the legal ones now (for choices read from the table)."""
        if command not in self.legal(state):
            raise self.illegal(state, command, tr("{command} {args} is not one of the choices "
                                                   "open now", command=command.name,
                                                   args=command.args()), rule,
                                "not_offered")
