"""A game played in memory with no log: the same rules, the same dice, no records.

``Playout`` is for simulations (odds by playing many games): it applies commands exactly as
``Game.submit`` does (the preset decides, seeded dice answer every roll, events are folded
into the state) but writes nothing, keeps no history and cannot undo. A playout's events are
the game's events: replaying them into a ``Game`` would give the same state.
"""

from __future__ import annotations

from typing import Any

from .commands import Command, parse_command
from .dice import SeededDice
from .errors import IllegalCommand
from .events import DiceRolled, Event, GameStarted
from .fold import appliers_for, folded
from .pending import Decision, Over, Pending
from .pending import Roll as RollPending
from .protocols import PRESETS, Preset
from .state import Awaiting, GameState


class Playout:
    """One game in memory. ``Playout.new(scenario)`` as with ``Game.new``, minus the store."""

    def __init__(self, preset: Preset[Any], state: GameState, dice: SeededDice) -> None:
        self.preset = preset
        self.state = state
        self.dice = dice
        self.table = appliers_for(preset.appliers)
        self.events = 0

    @classmethod
    def new(cls, scenario: dict[str, Any], *, seed: str | None = None,
            preset: Preset[Any] | None = None) -> Playout:
        preset = preset or PRESETS[scenario["preset"]]
        dice = SeededDice(seed or scenario.get("seed"))
        started = GameStarted(game_id="playout", scenario=scenario, preset=preset.name,
                              engine_version="", dice_commitment="", dice="seeded")
        state = preset.initial_state(started)
        out = cls(preset, state, dice)
        out._apply(preset.opening(state))
        return out

    @property
    def pending(self) -> Pending:
        state = self.state
        if state.over:
            return Over.of(state)
        if state.awaiting is not None:  # seeded dice never leave a roll pending
            aw = state.awaiting
            return RollPending(player=aw.player, purpose=aw.purpose, unit=aw.unit, dice=aw.dice)
        return self.preset.pending(state)

    def legal(self) -> list[Command]:
        pending = self.pending
        return list(pending.legal) if isinstance(pending, Decision) else []

    def submit(self, command: Command | dict[str, Any]) -> list[Event]:
        if not isinstance(command, Command):
            command = parse_command(command)
        if self.state.over:
            raise IllegalCommand("the game is over", rule="GAME.OVER", command=command,
                                 phase=self.state.phase)
        events = self.preset.decide(self.state, command)
        return self._apply(events)

    def _apply(self, decided: list[Event]) -> list[Event]:
        state = folded(self.state, decided, self.table)
        events = list(decided)
        while state.awaiting is not None and not state.over:
            aw = state.awaiting
            state, made = roll_into(self.preset, self.table, state, aw,
                                    self.dice.faces(state.dice_pos, aw.dice))
            events.extend(made)
        self.state = state
        self.events += len(events)
        return events


def roll_into(preset: Preset[Any], table: dict[type[Event], Any], state: GameState,
              aw: Awaiting, faces: tuple[int, ...]) -> tuple[GameState, list[Event]]:
    """The awaited roll ``aw`` made with ``faces`` at the state's dice position: its
    ``DiceRolled`` and the rules' outcome, folded (a playout's, a learner's session's)."""
    rolled = DiceRolled(purpose=aw.purpose, unit=aw.unit, faces=faces, index=state.dice_pos)
    after = table[DiceRolled](state, rolled)
    outcome = preset.on_roll(after, aw, faces)
    return folded(after, outcome, table), [rolled, *outcome]
