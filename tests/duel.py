"""A duel: the smallest complete rulebook, written against the kernel alone.

It imports nothing but ``regiment.core``, and plays, undoes, redoes, replays, exports and
verifies through the same ``Game`` as the fantasy presets: the proof that the kernel needs
nothing from them. docs/presets.md walks through it.

The game: two duellists, each with some life (the scenario's ``life``, 3 by default). In
their turn the active player either strikes (one D6: 4+ takes a life from the other, 6+ when
the other is on guard) or goes on guard until struck. A duellist left with no life loses;
after the scenario's turns, it is a draw.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from regiment.core.about import Toward, of, tagged
from regiment.core.commands import Command, command
from regiment.core.endings import Ending
from regiment.core.endings import ending as ending_code
from regiment.core.errors import IllegalCommand
from regiment.core.events import (
    Event,
    GameEnded,
    GameStarted,
    PhaseChanged,
    RollRequested,
    event,
)
from regiment.core.fold import appliers_for, fold
from regiment.core.pending import Decision, Over
from regiment.core.protocols import PRESETS, register_preset
from regiment.core.scenario import SCHEMAS, Reader, register_schema
from regiment.core.state import Awaiting, GameState
from regiment.core.tell import kernel_sentence

# --- commands and events: what players decide, what happened -------------------------------


@command("strike")
class Strike(Command):
    by: str


@command("guard")
class Guard(Command):
    by: str


@event("Struck", rules=("DUEL.STRIKE",))
class Struck(Event):
    """``by`` struck ``target``: the die, what it needed, and whether it took a life."""

    by: str
    target: str
    face: int
    needs: int
    hit: bool


@event("Guarded", rules=("DUEL.GUARD",))
class Guarded(Event):
    by: str


# --- state and appliers: the only code that makes a new state ------------------------------


@dataclass(frozen=True, kw_only=True)
class DuelState(GameState):
    life: dict[str, int]
    guarding: str | None = None


def _struck(state: DuelState, e: Struck) -> DuelState:
    life = dict(state.life)
    if e.hit:
        life[e.target] -= 1
    return state.evolve(life=life, guarding=None)


def _guarded(state: DuelState, e: Guarded) -> DuelState:
    return state.evolve(guarding=e.by)


APPLIERS = {Struck: _struck, Guarded: _guarded}   # by event class
TABLE = appliers_for(APPLIERS)

# --- rules: small pure functions with their reasons -------------------------------------------


def needs(state: DuelState, target: str) -> int:
    """DUEL.STRIKE, DUEL.GUARD: a strike takes a life on 4+, on 6+ against a guard."""
    return 6 if state.guarding == target else 4


def ending(state: DuelState) -> list[Event]:
    """DUEL.END: no life left loses; after the last turn, a draw."""
    for player, life in state.life.items():
        if life <= 0:
            winner = state.opponent(player)
            return [GameEnded(winner=winner, ending=ending_code(Ending.SIDE_LEFT,
                                                               player=winner))]
    if state.player != state.first and state.turn >= state.turns:
        return [GameEnded(ending=ending_code(Ending.TURNS_PLAYED, turns=state.turns))]
    return []


# --- the flow, as data: for each phase, what the game asks and who answers ------------------

ASKS = {"duel.act": ("act", (Strike, Guard))}


class DuelPreset:
    """The duel's rules behind the kernel's ``Preset`` protocol."""

    name = "duel"
    appliers = APPLIERS

    def initial_state(self, started: GameStarted) -> DuelState:
        sc = started.scenario
        players = tuple(p["id"] for p in sc["players"])
        return DuelState(game_id=started.game_id, preset=started.preset, players=players,
                         first=sc["first"], turns=sc["turns"],
                         life=dict.fromkeys(players, sc["life"]))

    def opening(self, state: DuelState) -> list[Event]:
        return [PhaseChanged(phase="duel.act", turn=1, player=state.first)]

    def decide(self, state: DuelState, cmd: Command) -> list[Event]:
        if state.phase not in ASKS or not isinstance(cmd, ASKS[state.phase][1]):
            raise IllegalCommand(f"{cmd.name} is not a move of the duel now",
                                 rule="DUEL.TURN", command=cmd, phase=state.phase)
        if cmd.by != state.player:
            raise IllegalCommand(f"it is {state.player}'s turn", rule="DUEL.TURN",
                                 command=cmd, phase=state.phase)
        if isinstance(cmd, Strike):   # the kernel rolls it (seeded) or asks for it (manual)
            return [RollRequested(purpose="strike", unit=None, player=cmd.by, dice=1,
                                  about=tagged(Toward(state.opponent(cmd.by))))]
        events: list[Event] = [Guarded(by=cmd.by)]
        return events + self._next(fold(state, events, TABLE))

    def on_roll(self, state: DuelState, roll: Awaiting, faces: tuple[int, ...]
                ) -> list[Event]:
        target = of(Toward, roll.about).unit
        need = needs(state, target)
        events: list[Event] = [Struck(by=roll.player, target=target, face=faces[0],
                                      needs=need, hit=faces[0] >= need)]
        return events + self._next(fold(state, events, TABLE))

    def _next(self, state: DuelState) -> list[Event]:
        end = ending(state)
        if end:
            return end
        nxt = state.opponent(state.player)
        turn = state.turn + (1 if nxt == state.first else 0)
        return [PhaseChanged(phase="duel.act", turn=turn, player=nxt)]

    def pending(self, state: DuelState) -> Decision | Over:
        if state.over:
            return Over(winner=state.winner, reason="the duel is over")
        decision, kinds = ASKS[state.phase]
        return Decision(player=state.player, decision=decision,
                        legal=tuple(k(by=state.player) for k in kinds))

    def legal(self, state: DuelState) -> list[Command]:
        pending = self.pending(state)
        return list(pending.legal) if isinstance(pending, Decision) else []

    def roll_need(self, state: DuelState) -> str | None:
        aw = state.awaiting
        if aw is None:
            return None
        return f"{needs(state, of(Toward, aw.about).unit)}+ takes a life (DUEL.STRIKE)"

    def sentence(self, event_type: str, data: Mapping[str, Any], state: DuelState
                 ) -> str | None:
        """How the tools (replay, play, the replay page) tell the duel's events."""
        if event_type == "Struck":
            outcome = "takes a life" if data["hit"] else "misses"
            return (f"{data['by']} strikes {data['target']}: {data['face']} against "
                    f"{data['needs']}+, {outcome} (DUEL.STRIKE).")
        if event_type == "Guarded":
            return f"{data['by']} goes on guard (DUEL.GUARD)."
        return kernel_sentence(event_type, data)


# --- the scenario: what the duel adds to the kernel's part ------------------------------------


def parse_duel(r: Reader, top: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    life = r.get(top, "life", "", int, 3)
    if not 1 <= life <= 20:
        raise r.fail("life", f"expected 1 to 20, got {life}")
    return {**out, "life": life}


PRESET = DuelPreset()


@contextmanager
def registered() -> Iterator[DuelPreset]:
    """The duel registered for a test, and unregistered after it (other tests count presets)."""
    register_preset(PRESET)
    register_schema(("duel",), parse_duel, ("life",))
    try:
        yield PRESET
    finally:
        PRESETS.pop("duel", None)
        SCHEMAS.pop("duel", None)


def scenario(**top: Any) -> dict[str, Any]:
    return {"preset": "duel", "players": [{"id": "ann"}, {"id": "bob"}], "seed": "d0e1",
            "turns": 10, **top}


def lives(states: Sequence[DuelState]) -> list[dict[str, int]]:
    return [s.life for s in states]
