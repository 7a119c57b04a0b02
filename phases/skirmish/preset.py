"""The ``skirmish40k`` preset: the skirmish game's turn (SK.TURN) on the kernel.

Its flow is the fantasy presets' in kind: a player's command fires a trigger of the compiled
machine; a roll's faces come back through ``on_roll``; everything else the engine does by
itself (``_drive``: the volley being rolled, else the leaf's own step; then the machine's
automatic edges), until the game waits for a player or a die.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regiment.core.commands import Command
from regiment.core.events import Event, GameStarted, PhaseChanged, TurnBegan
from regiment.core.fold import appliers_for, fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import Awaiting
from regiment.phases.common.engine import Engine
from regiment.phases.common.machine import Rolled, leaf_named, leaves
from regiment.phases.common.rulings import version

from . import measures, narrate, table, victory, volleys
from .appliers import APPLIERS
from .assault import steps as assault
from .events import MeleeJoined
from .fight import steps as fight
from .machine import turn_table
from .models import in_base_contact
from .movement import morale
from .movement import steps as movement
from .rulings import RULINGS, ruled
from .state import SkirmishState, Squad
from .victory import kill_points
from .view import VIEW

S = SkirmishState


def _one_side_left(s: S) -> bool:
    return any(not any(q.player == p and q.on_table for q in s.squads.values())
               for p in s.players)


GUARDS: dict[str, Callable[[S], bool]] = {
    "overwatch_done": lambda s: s.assault is not None and not s.assault.overwatch
    and s.volley is None,
    "charge_done": lambda s: s.assault is None,
    "no_combats_left": lambda s: not fight.fights_left(s),
    "steps_done": lambda s: s.fight is not None and not s.fight.steps and not s.fight.strikes
    and not s.fight.pools and s.volley is None,
    "result_decided": lambda s: s.fight is not None and s.fight.decided,
    "tests_done": lambda s: s.fight is not None and not s.fight.tests,
    "sweeps_resolved": lambda s: s.fight is not None and not fight.unswept(s),
    "consolidation_rolled": lambda s: s.fight is not None and s.fight.consolidating is not None,
    "sweeps_done": lambda s: s.fight is not None and all(
        s.squads[b].status != "locked" for b in s.fight.broken),
    "fight_over": lambda s: s.fight is None,
    "last_turn": lambda s: s.player != s.first and s.turn >= s.turns,
    "movement_phase": lambda s: ruled(s, "movement_phase"),
    "one_side_left": _one_side_left,
}


class SkirmishPreset(Engine):
    """The skirmish game's rules behind the kernel's ``Preset`` protocol."""

    name = "skirmish40k"
    guards = GUARDS
    turn_rule = "SK.TURN"
    pieces = "squads"

    def __init__(self) -> None:
        self.machine = turn_table()
        self.appliers = APPLIERS
        self.view = VIEW
        self.fold_table = appliers_for(APPLIERS)
        handlers: dict[str, Callable[[S, Any], list[Event]]] = {
            "move": lambda s, c: movement.move(self, s, c),
            "shoot": lambda s, c: assault.shoot(self, s, c),
            "declare_assault": lambda s, c: assault.declare(self, s, c),
            "fire_overwatch": lambda s, c: assault.overwatch(self, s, c),
            "hold_overwatch": lambda s, c: assault.overwatch(self, s, c),
            "resolve_combat": lambda s, c: fight.begin(self, s, c),
            "split_attacks": lambda s, c: fight.split(self, s, c),
            "consolidate": lambda s, c: fight.consolidate(self, s, c),
            "end_phase": self._end_phase,
        }
        asks: dict[str, Callable[[S], Decision | None]] = {
            "movement": movement.ask_move, "shooting": assault.ask_shooting,
            "declaration": assault.ask_declaration,
            "overwatch": assault.ask_overwatch, "choose_combat": fight.ask_combat,
            "steps": fight.ask_split, "consolidation_moves": fight.ask_consolidate,
        }
        drives: dict[str, Callable[[S], list[Event]]] = {
            "shooting": morale.drive,
            "charge_move": assault.drive_charge, "steps": fight.drive_steps,
            "result": fight.drive_result, "morale": fight.drive_morale,
            "sweep_rolls": fight.drive_sweep_rolls, "fall_backs": fight.drive_fall_backs,
            "consolidation_rolls": fight.drive_consolidation_rolls,
        }
        # each step's rolls: the step that asked goes on with the dice
        rolls: dict[str, dict[str, Rolled]] = {
            "movement": {"difficult_terrain": movement.terrain_rolled},
            "shooting": {"morale": lambda s, a, f: morale.morale_rolled(s, a.unit or "", f),
                         "fall_back": lambda s, a, f: morale.fall_back_rolled(s, a.unit or "",
                                                                              f)},
            "charge_move": {"charge": lambda s, a, f: assault.charge_rolled(s, f)},
            "morale": {"morale": lambda s, a, f: fight.morale_rolled(s, a.unit or "", f)},
            "sweep_rolls": {
                "escape": lambda s, a, f: fight.sweep_rolled(s, a.unit or "", "escape", f),
                "sweep": lambda s, a, f: fight.sweep_rolled(s, a.unit or "", "sweep", f)},
            "fall_backs": {
                "fall_back": lambda s, a, f: fight.fall_back_rolled(s, a.unit or "", f)},
            "consolidation_rolls": {
                "consolidate": lambda s, a, f: fight.consolidation_rolled(a.unit or "", f)},
        }
        self.leaves = leaves(self.machine, handlers, asks, drives, rolls)
        self.at = {leaf.path: leaf for leaf in self.leaves.values()}

    def __repr__(self) -> str:
        return "SkirmishPreset()"

    # --- set-up ----------------------------------------------------------------------------

    def initial_state(self, started: GameStarted) -> S:
        sc = started.scenario
        engine = version(started.engine_version)
        first = "movement" if engine >= RULINGS["movement_phase"] else "shooting"   # SK.MOVE
        return SkirmishState(game_id=started.game_id, preset=started.preset,
                             players=tuple(p["id"] for p in sc["players"]), first=sc["first"],
                             turns=sc["turns"], table=sc["table"],
                             squads={u["id"]: Squad.from_scenario(u) for u in sc["units"]},
                             start_phase=sc.get("phase") or first, engine=engine)

    def opening(self, state: S) -> list[Event]:
        """The first player's turn 1 begins (in the scenario's ``phase``); squads already
        touching an enemy are locked in combat since before the game (SK.ENGAGED)."""
        events: list[Event] = [TurnBegan(turn=1, player=state.first)]
        squads = list(state.squads.values())
        links: dict[str, set[str]] = {s.id: set() for s in squads}
        for i, a in enumerate(squads):
            for b in squads[i + 1:]:
                if a.player != b.player and (b.id in a.touching or a.id in b.touching
                                             if table.measured(state) else
                                             any(in_base_contact(m, b.models)
                                                 for m in a.models)):
                    links[a.id].add(b.id)
                    links[b.id].add(a.id)
        seen: set[str] = set()
        for s in squads:   # squads linked through the enemies they touch are one combat
            if s.id in seen or not links[s.id]:
                continue
            group, todo = set(), [s.id]
            while todo:
                uid = todo.pop()
                if uid not in group:
                    group.add(uid)
                    todo.extend(links[uid] - group)
            seen |= group
            events.append(MeleeJoined(combat=f"0-{s.id}", since=0,
                                      units=tuple(q.id for q in squads if q.id in group)))
        phase = leaf_named(self.machine, state.start_phase)
        events.append(PhaseChanged(phase=phase, turn=1, player=state.first))
        return events + self.settle(fold(state, events, self.fold_table))

    # --- commands --------------------------------------------------------------------------

    def _end_phase(self, state: S, cmd: Command) -> list[Event]:
        self.check_turn(state, cmd, "SK.TURN")
        if state.phase.endswith("choose_combat") and fight.fights_left(state):
            raise self.illegal(state, cmd, tr("every combat must be fought first"), "SK.TURN")
        return self.fire(state, "end_phase")

    def drive(self, state: S) -> list[Event]:
        if state.volley is not None:
            return [volleys.roll_for(state, state.volley)]
        leaf = self.step(state)
        return leaf.drives(state) if leaf is not None and leaf.drives is not None else []

    def has_pieces(self, state: S, player: str) -> bool:
        return any(q.player == player and q.on_table for q in state.squads.values())

    def score(self, state: S) -> tuple[str, dict[str, int]] | None:
        """SK.VICTORY (games begun under 0.11.0): kill points decide a game played out."""
        return ("SK.VICTORY", kill_points(state)) if ruled(state, "kill_points") else None

    def itemised(self, state: S) -> list[dict[str, Any]]:
        """SK.VICTORY (games from engine 0.13.0): the kill points squad by squad."""
        return victory.itemised(state) if ruled(state, "points_itemised") else []

    # --- dice ------------------------------------------------------------------------------

    def on_roll(self, state: S, roll: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        if state.volley is not None:   # a volley's dice, in whichever step it is fired
            events = volleys.rolled(state, state.volley, faces)
        else:
            events = self.rolled(state, roll, faces)
        return self.finish(state, events)

    def roll_need(self, state: S) -> str | None:
        return narrate.roll_need(state)

    def roll_numbers(self, state: S) -> dict[str, int | bool] | None:
        return narrate.roll_numbers(state)

    def question(self, state: S, pending: Any) -> str:
        """The prompt of a pending measurement (table mode, TABLE.ASK)."""
        return measures.question(state, pending)

    def sentence(self, event_type: str, data: Mapping[str, Any], state: S) -> str | None:
        return narrate.sentence(event_type, data, state)
