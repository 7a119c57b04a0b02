"""One game in memory for a learner or a search: the engine's rules and state, no log.

A ``Session`` is what both faces of ``regiment.rl`` step: the PettingZoo environment rolls its
dice from a seed (as a seeded game does), the OpenSpiel game has each die come from a chance
node (as a game with real dice has them entered). Commands are decided and folded exactly as
``Game.submit`` decides and folds them, so a session's commands and faces, submitted to a
``Game`` (``to_game``), make an ordinary log that ``replay`` and ``verify`` read.

Its state is the engine's immutable ``GameState``: a copy (``copy``) shares it and every
value in it, and costs the same whatever the game's length (no log is folded again). The
history is a chain of pairs shared the same way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from regiment.core.commands import Command, Roll
from regiment.core.dice import SeededDice
from regiment.core.errors import InvalidScenario
from regiment.core.events import Event, GameStarted
from regiment.core.fold import appliers_for, folded
from regiment.core.pending import Decision, Over
from regiment.core.pending import Roll as RollPending
from regiment.core.playout import roll_into
from regiment.core.protocols import PRESETS, EventStore, Preset
from regiment.core.state import Awaiting, GameState

# a history: None, or (what came before, a command or the faces of one roll)
History = tuple[Any, "Command | tuple[int, ...]"] | None


@dataclass(frozen=True)
class Rules:
    """What every session of one scenario shares, made once: the preset, its appliers and the
    state the game opens with (before any die is rolled)."""

    scenario: dict[str, Any]
    preset: Preset[Any]
    table: dict[type[Event], Any]
    opening: GameState
    name: str = ""   # a bundled battle's name or a file's path: how a copy is found again

    @classmethod
    def of(cls, scenario: dict[str, Any], name: str = "") -> Rules:
        import regiment.phases  # noqa: F401  (the rulebooks register their presets)

        preset = PRESETS.get(scenario.get("preset", ""))
        if preset is None:
            raise InvalidScenario(f"no preset {scenario.get('preset')!r}", path="preset")
        public = {k: v for k, v in scenario.items() if k != "seed"}
        started = GameStarted(game_id="learner", scenario=public, preset=preset.name,
                              engine_version="", dice_commitment="", dice="seeded")
        table = appliers_for(preset.appliers)
        state = preset.initial_state(started)
        if any(getattr(p, "position", ()) is None for p in pieces(state).values()):
            raise InvalidScenario("a learner's table is mapped: every unit needs its position "
                                  "(table mode has the players measure)", path="units")
        state = folded(state, preset.opening(state), table)
        return cls(scenario, preset, table, state, name)


def pieces(state: Any) -> dict[str, Any]:
    """A rulebook's pieces by id, in the scenario's order: fantasy units, skirmish squads."""
    found: dict[str, Any] = getattr(state, "units", None) or getattr(state, "squads", {})
    return found


def seed_of(seed: int | str | None) -> str:
    """A dice seed (hex) from a learner's seed: an int (``reset(seed=42)``) always gives the
    same one, so that runs repeat; None a fresh one."""
    if seed is None:
        import secrets

        return secrets.token_hex(16)
    return hashlib.sha256(f"regiment.rl:{seed}".encode()).hexdigest()[:32]


class Session:
    """A game being played in memory. ``dice``: a SeededDice rolls every die itself; None
    leaves each roll waiting for its faces (``give``), one die at a time."""

    __slots__ = ("dice", "faces", "history", "rules", "state", "steps")

    def __init__(self, rules: Rules, dice: SeededDice | None) -> None:
        self.rules = rules
        self.dice = dice
        self.state: GameState = rules.opening
        self.faces: tuple[int, ...] = ()   # the faces given so far for the awaited roll
        self.history: History = None
        self.steps = 0
        self._settle()

    def copy(self) -> Session:
        """An independent copy: everything it holds is immutable and shared."""
        new = object.__new__(Session)
        new.rules, new.dice, new.state = self.rules, self.dice, self.state
        new.faces, new.history, new.steps = self.faces, self.history, self.steps
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Session:
        return self.copy()   # (OpenSpiel's clone deep-copies a state's attributes)

    # --- what it waits for ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        return bool(self.state.over)

    @property
    def awaiting(self) -> Awaiting | None:
        """The roll waiting for faces (only without seeded dice)."""
        return None if self.state.over else self.state.awaiting

    def decision(self) -> Decision | None:
        """The decision the game waits on (None: it is over, or waits for dice)."""
        if self.state.over or self.state.awaiting is not None:
            return None
        pending = self.rules.preset.pending(self.state)
        return pending if isinstance(pending, Decision) else None

    def outcome(self) -> dict[str, Any] | None:
        return Over.of(self.state).outcome() if self.state.over else None

    # --- moving it on --------------------------------------------------------------------

    def submit(self, command: Command) -> None:
        """Decide ``command`` as the engine does (IllegalCommand: nothing changes)."""
        events = self.rules.preset.decide(self.state, command)
        self.state = folded(self.state, events, self.rules.table)
        self.history = (self.history, command)
        self.steps += 1
        self._settle()

    def give(self, face: int) -> None:
        """One die's face for the awaited roll; the roll is made once every die has one."""
        aw = self.awaiting
        if aw is None or not 1 <= face <= 6:
            raise ValueError("no roll waits for a die" if aw is None else f"face {face}")
        self.faces = (*self.faces, face)
        self.steps += 1
        if len(self.faces) >= aw.dice:
            faces, self.faces = self.faces, ()
            self.history = (self.history, faces)
            self._rolled(aw, faces)
            self._settle()

    def _settle(self) -> None:
        while self.dice is not None and self.awaiting is not None:
            aw = self.state.awaiting
            assert aw is not None
            faces = self.dice.faces(self.state.dice_pos, aw.dice)
            self._rolled(aw, faces)
        # a roll of no dice waits for nothing (seeded dice make it at once too)
        while (aw := self.awaiting) is not None and aw.dice <= 0:
            self.history = (self.history, ())
            self._rolled(aw, ())

    def _rolled(self, aw: Awaiting, faces: tuple[int, ...]) -> None:
        self.state = roll_into(self.rules.preset, self.rules.table, self.state, aw, faces)[0]

    # --- its record ----------------------------------------------------------------------

    def record(self) -> list[Command | tuple[int, ...]]:
        """The commands and the rolls' faces (without seeded dice), in order."""
        out: list[Command | tuple[int, ...]] = []
        node = self.history
        while node is not None:
            node, item = node
            out.append(item)
        out.reverse()
        return out

    def to_game(self, store: EventStore, game_id: str | None = None) -> Any:
        """This game as an ordinary log in ``store``: its commands (and the faces of its rolls,
        as real dice entered) submitted to a ``Game``, which checks each again. A seeded
        session's seed goes to the store's secrets, as a seeded game's does."""
        from regiment.core.game import Game

        scenario = dict(self.rules.scenario)
        if self.dice is not None:
            scenario.update(dice="seeded", seed=self.dice.seed.hex())
        else:
            scenario.update(dice="manual")
            scenario.pop("seed", None)
        game = Game.new(scenario, store=store, preset=self.rules.preset, game_id=game_id)
        for item in self.record():
            if isinstance(item, Command):
                game.submit(item)
            else:
                roll = game.pending
                assert isinstance(roll, RollPending)   # (the engine waits for these dice)
                game.submit(Roll(by=roll.player, faces=item))
        return game
