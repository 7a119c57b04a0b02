"""The game state: an immutable value that only ``apply`` (core.fold) produces.

States share structure: ``evolve`` copies one object's field dict and replaces what changed,
so a game can keep the state after every live step (undo and redo are O(1)) for a few hundred
bytes a step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T", bound="Value")


class Value:
    """A frozen value with a cheap ``evolve`` (one dict copy, no __init__ re-run)."""

    def evolve(self: T, **changes: Any) -> T:
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", {**self.__dict__, **changes})  # frozen: on purpose
        return new


@dataclass(frozen=True, kw_only=True)
class UnitState(Value):
    """One unit as the rules see it; static parts (profile, equipment) come from the scenario."""

    id: str
    player: str
    name: str
    troop: str
    models: int
    files: int
    base: tuple[float, float]
    profile: dict[str, int]
    position: tuple[float, float]
    facing: float
    armour: int | None = None
    ward: int | None = None
    equipment: tuple[str, ...] = ()
    command: tuple[str, ...] = ()
    battle_standard: bool = False
    rules: tuple[str, ...] = ()
    status: str = "ready"          # ready | fleeing | engaged | destroyed | off_table
    charged: bool = False          # it charged this turn
    declared: str | None = None    # the target of its charge this turn
    reaction: str | None = None    # its reaction to a charge this turn
    wounded: int = 0               # wounds taken by its one wounded model
    start_models: int = 0          # models at the start of the game (RALLY.TEST)
    left_at: tuple[float, float] | None = None  # where it left the table (FP.OFF_TABLE)
    redirected: bool = False       # it redirected a charge this turn (CH.REDIRECT)

    @property
    def ranks(self) -> int:
        return -(-self.models // self.files)

    @classmethod
    def from_scenario(cls, u: dict[str, Any]) -> UnitState:
        return cls(
            id=u["id"], player=u["player"], name=u["name"], troop=u["troop"],
            models=u["models"], files=u["files"], base=tuple(u["base"]),
            profile=dict(u["profile"]), position=tuple(u["position"]), facing=u["facing"],
            armour=u.get("armour"), ward=u.get("ward"),
            equipment=tuple(u.get("equipment", ())), command=tuple(u.get("command", ())),
            battle_standard=u.get("battle_standard", False), rules=tuple(u.get("rules", ())),
            charged=u.get("charged", False), start_models=u["models"],
        )


@dataclass(frozen=True, kw_only=True)
class Awaiting(Value):
    """A roll a rule has asked for and not yet had."""

    purpose: str
    unit: str | None
    player: str
    dice: int
    about: str = ""


@dataclass(frozen=True, kw_only=True)
class GameState(Value):
    game_id: str
    preset: str
    players: tuple[str, ...]
    first: str
    turns: int
    units: dict[str, UnitState]
    table: dict[str, Any]
    turn: int = 0
    player: str = ""
    phase: str = ""
    dice_pos: int = 0
    awaiting: Awaiting | None = None
    over: bool = False
    winner: str | None = None
    context: dict[str, Any] = field(default_factory=dict)  # the preset's per-turn bookkeeping
    combats: dict[str, Any] = field(default_factory=dict)  # combats that last across turns

    def opponent(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def with_unit(self, unit: UnitState) -> GameState:
        units = dict(self.units)
        units[unit.id] = unit
        return self.evolve(units=units)

    def summary(self) -> dict[str, Any]:
        """A plain-data view (for --json output, snapshots and equality in tests)."""
        return {
            "turn": self.turn, "player": self.player, "phase": self.phase,
            "dice_pos": self.dice_pos, "over": self.over, "winner": self.winner,
            "awaiting": None if self.awaiting is None else dict(self.awaiting.__dict__),
            "context": self.context, "combats": self.combats,
            "units": {k: {**u.__dict__} for k, u in self.units.items()},
        }
