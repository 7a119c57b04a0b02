"""The turn as a hierarchical state machine, defined as data.

``STATES`` and ``TRANSITIONS`` are the one definition of the turn (TURN.ORDER). They build a
``transitions`` HierarchicalMachine once per table (state names joined with ``.``, so names
such as ``break_tests`` keep their underscores), and ``compile_machine`` reads that machine
into plain lookup tables: for each leaf state, each trigger, the guarded edges to the leaf
it leads to. Games never own a machine: the phase is a string in the game state, commands are
checked against the compiled table, and replay sets the phase from ``PhaseChanged`` events
without firing a single callback. ``tests/test_machine.py`` checks the compiled tables
against the live machine.

Triggers named like commands (``declare_charge``) are what players send; triggers marked
``auto`` are taken by the engine as soon as their guards hold.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from regiment.phases.common import machine as common
from regiment.phases.common.machine import SEPARATOR, Compiled, TurnMachine

__all__ = ["SEPARATOR", "STATES", "TRANSITIONS", "Compiled", "build_machine", "compile_machine",
           "turn_table"]


STATES: list[Any] = [
    {"name": "turn", "initial": "start", "children": [
        "start",
        {"name": "movement", "initial": "charge", "children": [
            {"name": "charge", "initial": "declaration", "children": [
                "declaration", "reactions", "redirect", "redirect_target", "charge_moves",
            ]},
            "rally", "compulsory", "remaining",
        ]},
        "magic",
        "shooting",
        {"name": "close_combat", "initial": "choose_combat", "children": [
            "choose_combat",
            {"name": "combat", "initial": "challenge", "children": [
                {"name": "challenge", "initial": "offers", "steps": True,
                 "children": ["offers", "answer"]},
                {"name": "initiative_steps", "initial": "allocation", "steps": True,
                 "children": ["allocation", "strikes"]},
                "result",
                {"name": "break_tests", "initial": "test_order", "steps": True,
                 "children": ["test_order", "tests"]},
                {"name": "pursuit", "initial": "choose", "steps": True, "children": [
                    "choose", "restraint", "flee_rolls", "pursuit_rolls", "caught",
                    "flee_moves", "pursuer_moves",
                ]},
                {"name": "reform", "initial": "reform_order", "steps": True,
                 "children": ["reform_order", "reforms"]},
            ]},
        ]},
        "end",
    ]},
    "over",
]

T = "turn"
CHARGE = "turn.movement.charge"
COMBAT = "turn.close_combat.combat"

# One row a transition: trigger, source, dest, guards, and whether the engine takes it itself.
TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "begin", "source": f"{T}.start", "dest": f"{T}.movement", "auto": True},
    # CH.DECLARE, CH.REACT, CH.REDIRECT
    {"trigger": "declare_charge", "source": f"{CHARGE}.declaration",
     "dest": f"{CHARGE}.reactions"},
    {"trigger": "react", "source": f"{CHARGE}.reactions", "dest": f"{CHARGE}.redirect",
     "conditions": ["may_redirect"]},
    {"trigger": "react", "source": f"{CHARGE}.reactions", "dest": f"{CHARGE}.declaration"},
    # CH.REDIRECT, games from engine 0.9.0 (seed 003): the test first, then the new target
    {"trigger": "redirect", "source": f"{CHARGE}.redirect",
     "dest": f"{CHARGE}.redirect_target", "conditions": ["redirect_test_passed"]},
    # (games begun before: the target named with the test, which reacts on a pass)
    {"trigger": "redirect", "source": f"{CHARGE}.redirect", "dest": f"{CHARGE}.reactions",
     "conditions": ["redirect_passed"]},
    {"trigger": "redirect", "source": f"{CHARGE}.redirect", "dest": f"{CHARGE}.declaration"},
    {"trigger": "decline_redirect", "source": f"{CHARGE}.redirect",
     "dest": f"{CHARGE}.declaration"},
    {"trigger": "redirect", "source": f"{CHARGE}.redirect_target",
     "dest": f"{CHARGE}.reactions"},
    {"trigger": "decline_redirect", "source": f"{CHARGE}.redirect_target",
     "dest": f"{CHARGE}.declaration"},
    {"trigger": "end_charges", "source": f"{CHARGE}.declaration", "dest": f"{CHARGE}.charge_moves"},
    # CH.MOVE_ORDER
    {"trigger": "move_charger", "source": f"{CHARGE}.charge_moves",
     "dest": f"{CHARGE}.charge_moves",
     "queue": "CH.MOVE_ORDER"},
    {"trigger": "charges_done", "source": f"{CHARGE}.charge_moves", "dest": f"{T}.movement.rally",
     "conditions": ["no_chargers_left"], "auto": True},
    # RALLY.TEST: the engine rallies (and moves) fleeing units itself, then goes on
    {"trigger": "rallied", "source": f"{T}.movement.rally", "dest": f"{T}.movement.compulsory",
     "conditions": ["rallies_done"], "auto": True},
    {"trigger": "moved", "source": f"{T}.movement.compulsory",
     "dest": f"{T}.movement.remaining", "auto": True},
    # CHAR.JOIN, CHAR.LEAVE: characters join and leave units in the remaining moves
    {"trigger": "join_unit", "source": f"{T}.movement.remaining",
     "dest": f"{T}.movement.remaining",
     "queue": "CHAR.JOIN"},
    {"trigger": "leave_unit", "source": f"{T}.movement.remaining",
     "dest": f"{T}.movement.remaining",
     "queue": "CHAR.LEAVE"},
    # MOVE.REMAINING: each unit's one move (games from engine 0.12.0)
    {"trigger": "move", "source": f"{T}.movement.remaining", "dest": f"{T}.movement.remaining",
     "queue": "MOVE.REMAINING"},
    {"trigger": "end_phase", "source": f"{T}.movement.remaining", "dest": f"{T}.magic"},
    {"trigger": "end_phase", "source": f"{T}.magic", "dest": f"{T}.shooting"},
    # SHOOT.WHO: each unit that may shoots once (games from engine 0.12.0)
    {"trigger": "shoot", "source": f"{T}.shooting", "dest": f"{T}.shooting",
     "queue": "SHOOT.WHO"},
    {"trigger": "end_phase", "source": f"{T}.shooting", "dest": f"{T}.close_combat"},
    # CC.ORDER: the active player picks each combat in turn, then the phase ends.
    {"trigger": "fight", "source": f"{T}.close_combat.choose_combat", "dest": COMBAT},
    {"trigger": "end_phase", "source": f"{T}.close_combat.choose_combat", "dest": f"{T}.end",
     "conditions": ["no_combats_left"]},
    # CC.CHALLENGE: each player may issue one, in turn; an issued one is answered
    {"trigger": "challenge", "source": f"{COMBAT}.challenge.offers",
     "dest": f"{COMBAT}.challenge.answer"},
    {"trigger": "decline_challenge", "source": f"{COMBAT}.challenge.offers",
     "dest": f"{COMBAT}.challenge.offers",
     "queue": "CC.CHALLENGE"},
    {"trigger": "done", "source": f"{COMBAT}.challenge.offers",
     "dest": f"{COMBAT}.challenge.answer", "conditions": ["challenge_issued"], "auto": True},
    {"trigger": "accept_challenge", "source": f"{COMBAT}.challenge.answer",
     "dest": f"{COMBAT}.challenge.answer",
     "queue": "CC.CHALLENGE"},
    {"trigger": "refuse_challenge", "source": f"{COMBAT}.challenge.answer",
     "dest": f"{COMBAT}.challenge.answer",
     "queue": "CC.CHALLENGE"},
    {"trigger": "resolved", "source": f"{COMBAT}.challenge", "dest": f"{COMBAT}.initiative_steps",
     "auto": True, "conditions": ["challenges_done"]},
    # CC.INITIATIVE, CC.ALLOCATE, ATK.SEQUENCE: each step's splits, then its strikes
    {"trigger": "allocate", "source": f"{COMBAT}.initiative_steps.allocation",
     "dest": f"{COMBAT}.initiative_steps.allocation",
     "queue": "CC.ALLOCATE"},
    {"trigger": "done", "source": f"{COMBAT}.initiative_steps.allocation",
     "dest": f"{COMBAT}.initiative_steps.strikes", "conditions": ["allocated"], "auto": True},
    {"trigger": "resolved", "source": f"{COMBAT}.initiative_steps", "dest": f"{COMBAT}.result",
     "auto": True, "conditions": ["steps_done"]},
    {"trigger": "resolved", "source": f"{COMBAT}.result", "dest": f"{COMBAT}.break_tests",
     "auto": True, "conditions": ["result_decided"]},
    # BT.WHO: the loser's player orders the tests, then each unit tests
    {"trigger": "break_test_order", "source": f"{COMBAT}.break_tests.test_order",
     "dest": f"{COMBAT}.break_tests.tests"},
    {"trigger": "done", "source": f"{COMBAT}.break_tests.test_order",
     "dest": f"{COMBAT}.break_tests.tests", "conditions": ["test_order_known"], "auto": True},
    {"trigger": "resolved", "source": f"{COMBAT}.break_tests", "dest": f"{COMBAT}.pursuit",
     "auto": True, "conditions": ["tests_done"]},
    # FP.*: pursuers chosen, restraint tests, flee rolls, pursuit rolls, the caught destroyed,
    # then the broken units' moves and the pursuers' (each in their player's order)
    {"trigger": "pursue", "source": f"{COMBAT}.pursuit.choose", "dest": f"{COMBAT}.pursuit.choose",
     "queue": "FP.CHOOSE_PURSUIT"},
    {"trigger": "overrun", "source": f"{COMBAT}.pursuit.choose",
     "dest": f"{COMBAT}.pursuit.choose",
     "queue": "FP.CHOOSE_PURSUIT"},
    {"trigger": "restrain", "source": f"{COMBAT}.pursuit.choose",
     "dest": f"{COMBAT}.pursuit.choose",
     "queue": "FP.CHOOSE_PURSUIT"},
    {"trigger": "done", "source": f"{COMBAT}.pursuit.choose", "dest": f"{COMBAT}.pursuit.restraint",
     "conditions": ["pursuers_chosen"], "auto": True},
    {"trigger": "done", "source": f"{COMBAT}.pursuit.restraint",
     "dest": f"{COMBAT}.pursuit.flee_rolls", "conditions": ["restraints_tested"], "auto": True},
    {"trigger": "done", "source": f"{COMBAT}.pursuit.flee_rolls",
     "dest": f"{COMBAT}.pursuit.pursuit_rolls", "conditions": ["flights_rolled"], "auto": True},
    {"trigger": "done", "source": f"{COMBAT}.pursuit.pursuit_rolls",
     "dest": f"{COMBAT}.pursuit.caught", "conditions": ["pursuits_rolled"], "auto": True},
    {"trigger": "done", "source": f"{COMBAT}.pursuit.caught",
     "dest": f"{COMBAT}.pursuit.flee_moves", "conditions": ["none_caught"], "auto": True},
    {"trigger": "flee_order", "source": f"{COMBAT}.pursuit.flee_moves",
     "dest": f"{COMBAT}.pursuit.flee_moves",
     "queue": "FP.MULTI_ORDER"},
    {"trigger": "done", "source": f"{COMBAT}.pursuit.flee_moves",
     "dest": f"{COMBAT}.pursuit.pursuer_moves", "conditions": ["flights_moved"], "auto": True},
    {"trigger": "pursuit_order", "source": f"{COMBAT}.pursuit.pursuer_moves",
     "dest": f"{COMBAT}.pursuit.pursuer_moves",
     "queue": "FP.MULTI_ORDER"},
    {"trigger": "resolved", "source": f"{COMBAT}.pursuit", "dest": f"{COMBAT}.reform",
     "auto": True, "conditions": ["pursuits_done"]},
    # REF.ORDER, REF.WHO: who reforms first, then each unit's reform
    {"trigger": "reform_order", "source": f"{COMBAT}.reform.reform_order",
     "dest": f"{COMBAT}.reform.reforms"},
    {"trigger": "done", "source": f"{COMBAT}.reform.reform_order",
     "dest": f"{COMBAT}.reform.reforms", "conditions": ["reform_order_known"], "auto": True},
    {"trigger": "reform", "source": f"{COMBAT}.reform.reforms", "dest": f"{COMBAT}.reform.reforms",
     "queue": "REF.WHO"},
    {"trigger": "skip_reform", "source": f"{COMBAT}.reform.reforms",
     "dest": f"{COMBAT}.reform.reforms",
     "queue": "REF.WHO"},
    {"trigger": "resolved", "source": f"{COMBAT}.reform", "dest": f"{T}.close_combat.choose_combat",
     "auto": True, "conditions": ["reforms_done"]},
    # TURN.ORDER: the other player's turn, or the end of the game.
    {"trigger": "next_turn", "source": f"{T}.end", "dest": "over", "auto": True,
     "conditions": ["last_turn"]},
    {"trigger": "next_turn", "source": f"{T}.end", "dest": "over", "auto": True,
     "conditions": ["one_side_left"]},
    {"trigger": "next_turn", "source": f"{T}.end", "dest": f"{T}.start", "auto": True},
]


def build_machine(states: list[Any] = STATES, transitions: list[dict[str, Any]] = TRANSITIONS
                  ) -> TurnMachine:
    """The fantasy turn as a live ``transitions`` machine (tests check the tables by it)."""
    return common.build_machine(states, transitions)


def compile_machine(machine: TurnMachine, transitions: list[dict[str, Any]] = TRANSITIONS,
                    states: list[Any] = STATES) -> Compiled:
    return common.compile_machine(machine, transitions, states)


@cache
def turn_table() -> Compiled:
    """The compiled turn, built once per process and shared by every game."""
    return compile_machine(build_machine())
