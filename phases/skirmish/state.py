"""The skirmish game's state: squads of models on round bases, the charge being resolved, the
attacks being rolled, and the combats that last from turn to turn. Every value is frozen; only
the appliers (``appliers.py``) make new ones."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from regiment.core import geometry as geo
from regiment.core.state import GameState, Value

from .bases import place

ON_TABLE = ("ready", "locked", "falling_back")   # a squad's statuses while it is on the table


class SquadStatus(StrEnum):
    """What a squad is doing; a value compares equal to its word, as it is shown and written."""

    READY = "ready"
    LOCKED = "locked"          # in combat
    FALLING_BACK = "falling_back"
    DESTROYED = "destroyed"
    OFF_TABLE = "off_table"


@dataclass(frozen=True, kw_only=True)
class Weapon(Value):
    """A weapon every model of the squad carries; range 0 is a close combat weapon."""

    name: str
    S: int
    AP: int = 0
    range: float = 0.0
    shots: int = 1
    type: str = ""       # SK.SHOOT: rapid_fire, assault, heavy, pistol (none: shots as listed)


@dataclass(frozen=True, kw_only=True)
class Squad(Value):
    """One unit of models (SK.UNITS): its profile, and each model's base and wounds left."""

    id: str
    player: str
    name: str
    base: float                          # mm, round
    profile: Mapping[str, int]           # WS BS S T W I A Ld Sv
    weapons: tuple[Weapon, ...]
    models: tuple[geo.Circle, ...]       # centre and radius, inches
    wounds: tuple[int, ...]              # wounds left, model by model
    start_models: int
    status: SquadStatus = SquadStatus.READY   # ready, locked, falling_back, destroyed, off_table
    shot_at: str | None = None           # its target in this turn's shooting (SK.DECLARE)
    declared: bool = False               # declared an assault this turn
    overwatched: bool = False            # fired overwatch in this assault phase
    charged: bool = False                # charged this turn: +1 attack unless disordered
    disordered: bool = False             # charged two targets (SK.DECLARE)
    slowed: bool = False                 # charged through difficult terrain: strikes at I1
    touching: tuple[str, ...] = ()       # table mode: the enemy squads it begins touching
    moved: bool = False                  # moved this turn (SK.MOVE)
    turn_models: int = 0                 # its models as the turn began (SK.MORALE)
    morale_checked: bool = False         # took its check for shooting losses this turn
    broken: bool = False                 # failed that check: it falls back (SK.FALL_BACK)
    terrain_roll: int = 0                # its highest D6 for difficult terrain (SK.MOVE)

    @classmethod
    def from_scenario(cls, u: Mapping[str, Any]) -> Squad:
        models = place(dict(u))
        return cls(id=u["id"], player=u["player"], name=u["name"], base=u["base"],
                   profile=dict(u["profile"]), weapons=tuple(Weapon(**w) for w in u["weapons"]),
                   models=models, wounds=(u["profile"]["W"],) * len(models),
                   start_models=len(models), touching=tuple(u.get("touching", ())))

    @property
    def on_table(self) -> bool:
        return self.status in ON_TABLE and bool(self.models)

    @property
    def initiative(self) -> int:
        """The step it strikes in: its Initiative, 1 after a charge through difficult
        terrain (SK.TERRAIN)."""
        return 1 if self.slowed else self.profile["I"]

    @property
    def guns(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if w.range > 0 and w.shots > 0)

    @property
    def melee(self) -> Weapon:
        """What it strikes with: its close combat weapon, or bare Strength and no AP."""
        return next((w for w in self.weapons if w.range == 0),
                    Weapon(name="close combat", S=self.profile["S"]))

    @property
    def radius(self) -> float:
        return self.base / geo.MM_PER_INCH / 2


@dataclass(frozen=True, kw_only=True)
class Assault(Value):
    """A declared charge being resolved (SK.DECLARE): the targets whose owner has yet to
    choose whether they fire overwatch (SK.OVERWATCH)."""

    unit: str
    primary: str
    secondary: str | None
    overwatch: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Volley(Value):
    """Attacks being rolled, one stage at a time: to hit, to wound, then saves."""

    kind: str            # shooting, overwatch, melee
    unit: str
    target: str
    dice: int            # the dice of this stage
    need: int            # what each die needs
    S: int
    AP: int
    stage: str = "hit"   # hit, wound, save
    cover: bool = False  # the save is a cover save (SK.SHOOT)


@dataclass(frozen=True, kw_only=True)
class Strike(Value):
    """One squad's attacks on one enemy squad in an initiative step (SK.ALLOCATE)."""

    unit: str
    target: str
    attacks: int


@dataclass(frozen=True, kw_only=True)
class Pool(Value):
    """Attacks of models touching several enemy squads: their player splits them among those
    squads before any die is rolled (SK.ALLOCATE)."""

    unit: str
    among: tuple[str, ...]
    attacks: int


@dataclass(frozen=True, kw_only=True)
class Melee(Value):
    """A combat: the squads locked in it, and the round it began (SK.TERRAIN)."""

    id: str
    units: tuple[str, ...]
    since: int


@dataclass(frozen=True, kw_only=True)
class Fight(Value):
    """The combat being fought: its initiative steps, the step's strikes, and what the rules
    have decided of it so far."""

    combat: str
    steps: tuple[int, ...]                          # initiative steps still to come
    step: int = 0                                   # the step striking now
    strikes: tuple[Strike, ...] = ()
    pools: tuple[Pool, ...] = ()
    caused: Mapping[str, int] = field(default_factory=dict)   # unsaved wounds by each squad
    fought: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    winner: str | None = None                       # the winning side (SK.RESULT)
    penalty: int = 0
    decided: bool = False
    tests: tuple[str, ...] = ()                     # losers still to test morale
    broken: tuple[str, ...] = ()                    # losers that failed
    rolls: Mapping[str, int] = field(default_factory=dict)     # sweep and escape totals
    resolved: tuple[str, ...] = ()                  # losers whose sweeps are decided
    moved: tuple[str, ...] = ()                     # squads that have consolidated
    consolidating: tuple[str, float] | None = None  # a squad and its D6, awaiting its move


@dataclass(frozen=True, kw_only=True)
class SkirmishState(GameState):
    """The game as the skirmish rules see it."""

    squads: dict[str, Squad]
    table: dict[str, Any]
    round: int = 0                       # player turns begun (SK.TERRAIN: "an earlier turn")
    start_phase: str = "shooting"
    engine: tuple[int, int, int] = (0, 0, 0)   # the engine that began the game (rulings.py)
    assault: Assault | None = None
    volley: Volley | None = None
    melees: dict[str, Melee] = field(default_factory=dict)
    fought: tuple[str, ...] = ()         # combats fought this turn
    fight: Fight | None = None

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        out["squads"] = {s.id: {"models": len(s.models), "status": s.status,
                                "wounds": list(s.wounds)} for s in self.squads.values()}
        out["melees"] = {m.id: list(m.units) for m in self.melees.values()}
        return out

    def melee_of(self, uid: str) -> Melee | None:
        return next((m for m in self.melees.values() if uid in m.units), None)

    def others(self, *left_out: str) -> list[geo.Circle]:
        """Every model on the table but those of ``left_out``."""
        return [c for s in self.squads.values() if s.on_table and s.id not in left_out
                for c in s.models]


def skirmish(state: GameState) -> SkirmishState:
    """A kernel state known to be this rulebook's."""
    if not isinstance(state, SkirmishState):
        raise TypeError(f"not a skirmish game's state: {type(state).__name__}")
    return state
