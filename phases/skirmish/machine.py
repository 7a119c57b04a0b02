"""The skirmish turn as a hierarchical state machine, defined as data (SK.TURN): shooting, the
assault sub-phase (each declaration, its overwatch and its charge move), then the fight of
every combat (initiative steps, result, morale, sweeping advances, pile in and
consolidation). Rows marked ``auto`` are taken by the engine when their guards hold."""

from __future__ import annotations

from functools import cache
from typing import Any

from regiment.phases.common.machine import Compiled, build_machine, compile_machine

STATES: list[Any] = [
    {"name": "turn", "initial": "start", "children": [
        "start",
        "movement",
        "shooting",
        {"name": "assault", "initial": "declaration", "children": [
            "declaration", "overwatch", "charge_move",
        ]},
        {"name": "fight", "initial": "choose_combat", "children": [
            "choose_combat",
            {"name": "combat", "initial": "steps", "children": [
                "steps", "result", "morale",
                {"name": "sweep", "initial": "sweep_rolls", "steps": True,
                 "children": ["sweep_rolls", "fall_backs"]},
                {"name": "consolidate", "initial": "consolidation_rolls", "steps": True,
                 "children": ["consolidation_rolls", "consolidation_moves"]},
            ]},
        ]},
        "end",
    ]},
    "over",
]

T = "turn"
A = "turn.assault"
C = "turn.fight.combat"

TRANSITIONS: list[dict[str, Any]] = [
    # SK.MOVE: the movement phase first (games from engine 0.12.0)
    {"trigger": "begin", "source": f"{T}.start", "dest": f"{T}.movement", "auto": True,
     "conditions": ["movement_phase"]},
    {"trigger": "begin", "source": f"{T}.start", "dest": f"{T}.shooting", "auto": True},
    {"trigger": "move", "source": f"{T}.movement", "dest": f"{T}.movement"},
    {"trigger": "end_phase", "source": f"{T}.movement", "dest": f"{T}.shooting"},
    {"trigger": "shoot", "source": f"{T}.shooting", "dest": f"{T}.shooting"},
    {"trigger": "end_phase", "source": f"{T}.shooting", "dest": A},
    # SK.DECLARE, SK.OVERWATCH, SK.CHARGE_MOVE: one charge at a time
    {"trigger": "declare_assault", "source": f"{A}.declaration", "dest": f"{A}.overwatch"},
    {"trigger": "fire_overwatch", "source": f"{A}.overwatch", "dest": f"{A}.overwatch"},
    {"trigger": "hold_overwatch", "source": f"{A}.overwatch", "dest": f"{A}.overwatch"},
    {"trigger": "resolved", "source": f"{A}.overwatch", "dest": f"{A}.charge_move",
     "conditions": ["overwatch_done"], "auto": True},
    {"trigger": "resolved", "source": f"{A}.charge_move", "dest": f"{A}.declaration",
     "conditions": ["charge_done"], "auto": True},
    {"trigger": "end_phase", "source": f"{A}.declaration", "dest": "turn.fight"},
    # the fight: the active player picks each combat; each is fought to its end
    {"trigger": "resolve_combat", "source": "turn.fight.choose_combat", "dest": C},
    {"trigger": "end_phase", "source": "turn.fight.choose_combat", "dest": f"{T}.end",
     "conditions": ["no_combats_left"]},
    {"trigger": "split_attacks", "source": f"{C}.steps", "dest": f"{C}.steps"},
    {"trigger": "resolved", "source": f"{C}.steps", "dest": f"{C}.result",
     "conditions": ["steps_done"], "auto": True},
    {"trigger": "resolved", "source": f"{C}.result", "dest": f"{C}.morale",
     "conditions": ["result_decided"], "auto": True},
    {"trigger": "resolved", "source": f"{C}.morale", "dest": f"{C}.sweep",
     "conditions": ["tests_done"], "auto": True},
    # SK.SWEEP, SK.FALL_BACK: each broken squad's sweep rolls, then those that got away
    {"trigger": "done", "source": f"{C}.sweep.sweep_rolls", "dest": f"{C}.sweep.fall_backs",
     "conditions": ["sweeps_resolved"], "auto": True},
    {"trigger": "resolved", "source": f"{C}.sweep", "dest": f"{C}.consolidate",
     "conditions": ["sweeps_done"], "auto": True},
    # SK.CONSOLIDATE: each squad left rolls its D6, then makes its move
    {"trigger": "done", "source": f"{C}.consolidate.consolidation_rolls",
     "dest": f"{C}.consolidate.consolidation_moves", "conditions": ["consolidation_rolled"],
     "auto": True},
    {"trigger": "consolidate", "source": f"{C}.consolidate.consolidation_moves",
     "dest": f"{C}.consolidate.consolidation_rolls"},
    {"trigger": "resolved", "source": f"{C}.consolidate", "dest": "turn.fight.choose_combat",
     "conditions": ["fight_over"], "auto": True},
    # the other player's turn, or the end of the game
    {"trigger": "next_turn", "source": f"{T}.end", "dest": "over", "auto": True,
     "conditions": ["last_turn"]},
    {"trigger": "next_turn", "source": f"{T}.end", "dest": "over", "auto": True,
     "conditions": ["one_side_left"]},
    {"trigger": "next_turn", "source": f"{T}.end", "dest": f"{T}.start", "auto": True},
]


@cache
def turn_table() -> Compiled:
    """The compiled skirmish turn, built once per process."""
    return compile_machine(build_machine(STATES, TRANSITIONS), TRANSITIONS, STATES)
