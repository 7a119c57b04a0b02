"""The turn machine as data: the compiled tables agree with the live transitions machine."""

from __future__ import annotations

import itertools

import pytest
from transitions import MachineError

from regiment.core.commands import COMMANDS
from regiment.core.game import Game
from regiment.phases.fantasy import machine as m
from regiment.phases.fantasy.preset import GUARDS, FantasyPreset
from regiment.store import MemoryStore

from .conftest import small_scenario


class Model:
    def __init__(self, guards: dict[str, bool]) -> None:
        for name, value in guards.items():
            setattr(self, name, lambda value=value: value)


def test_compiled_table_matches_the_live_machine_for_every_leaf_trigger_and_guard():
    machine = m.build_machine()
    table = m.compile_machine(machine)
    everything = sorted({c for row in m.TRANSITIONS for c in row.get("conditions", ())})
    checked = 0
    for leaf in table.leaves:
        for trigger in machine.events:
            # every combination of the guards that could matter here (the others are False)
            names = sorted({c for row in m.TRANSITIONS if row["trigger"] == trigger
                            and (leaf + ".").startswith(row["source"] + ".")
                            for c in row.get("conditions", ())})
            for values in itertools.product([False, True], repeat=len(names)):
                guards = dict.fromkeys(everything, False)
                guards.update(zip(names, values, strict=True))
                model = Model(guards)
                machine.add_model(model, initial=leaf)
                try:
                    fired = model.trigger(trigger)
                except MachineError:
                    fired = False
                live = model.state if fired else None
                machine.remove_model(model)
                expected = None
                for edge in table.edges[leaf].get(trigger, ()):
                    if all(guards[c] for c in edge.conditions):
                        expected = edge.dest
                        break
                assert live == expected, (leaf, trigger, guards)
                checked += 1
    assert checked > 400


def test_turn_order_state_names_keep_their_underscores():
    table = m.turn_table()
    assert "turn.close_combat.combat.break_tests.test_order" in table.leaves
    assert table.recorded["turn.close_combat.combat.break_tests.tests"] == \
        "turn.close_combat.combat.break_tests"
    assert "turn.movement.charge.charge_moves" in table.leaves
    assert table.initial == "turn.start"


def test_the_pursuit_is_its_steps_each_with_its_named_guard():
    """FP.*: the pursuit's steps are states of the machine, in the order the rules give, each
    left by the guard that says it is done; the log records the pursuit, not its steps."""
    table = m.turn_table()
    pursuit = "turn.close_combat.combat.pursuit"
    steps = [leaf.rsplit(".", 1)[1] for leaf in table.leaves if leaf.startswith(pursuit + ".")]
    assert steps == ["choose", "restraint", "flee_rolls", "pursuit_rolls", "caught",
                     "flee_moves", "pursuer_moves"]
    assert table.entry[pursuit] == f"{pursuit}.choose"
    chain, leaf = [], f"{pursuit}.choose"
    while table.steps[leaf]:
        (edge,) = table.steps[leaf]
        chain.append(edge.conditions)
        leaf = edge.dest
    assert chain == [("pursuers_chosen",), ("restraints_tested",), ("flights_rolled",),
                     ("pursuits_rolled",), ("none_caught",), ("flights_moved",)]
    assert all(table.recorded[f"{pursuit}.{s}"] == pursuit for s in steps)
    done = {"pursuers_chosen", "restraints_tested"}   # and the flights still to roll

    def guard(name):
        return lambda state: name in done

    guards = {c: guard(c) for es in table.steps.values() for e in es for c in e.conditions}
    assert table.locate(pursuit, guards, None) == f"{pursuit}.flee_rolls"


def test_no_step_loops_on_itself_but_for_a_queue_of_its_own():
    """A command that leaves the game in its step is a step where several units (or players)
    act in turn, each in the order the state keeps: the loops are exactly the rows the
    machine's data marks as a queue, each with the rule ID that makes it one."""
    from .test_rules_reference import reference

    table = m.turn_table()
    loops = {(leaf, t) for leaf in table.leaves
             for t, es in table.edges[leaf].items() for e in es if e.dest == leaf}
    queues = {(row["source"], row["trigger"]): row["queue"] for row in m.TRANSITIONS
              if "queue" in row}
    assert loops == set(queues)
    assert all(row["source"] == row["dest"] for row in m.TRANSITIONS if "queue" in row)
    known = reference()
    assert {rule for rule in queues.values() if rule not in known} == set()


def test_turn_order_every_leaf_is_reachable_and_the_turn_comes_round():
    table = m.turn_table()
    seen, todo = {table.initial}, [table.initial]
    while todo:
        for edges in table.edges[todo.pop()].values():
            for e in edges:
                if e.dest not in seen:
                    seen.add(e.dest)
                    todo.append(e.dest)
    assert seen == set(table.leaves)
    assert any(e.dest == "turn.start" for e in table.autos["turn.end"])


def test_every_guard_command_and_handler_in_the_table_exists():
    preset = FantasyPreset()
    assert set(GUARDS) <= set(preset.guards)
    for row in m.TRANSITIONS:
        for guard in row.get("conditions", ()):
            assert guard in preset.guards, guard
        if not row.get("auto"):
            assert row["trigger"] in COMMANDS, row["trigger"]
            assert row["trigger"] in preset.handlers, row["trigger"]


def test_the_machine_is_built_once_and_shared_between_games(monkeypatch):
    first = m.turn_table()

    def refuse(*a, **k):
        raise AssertionError("a game built a machine of its own")

    monkeypatch.setattr(m, "build_machine", refuse)
    a = Game.new(small_scenario(), store=MemoryStore())
    b = Game.new(small_scenario(), store=MemoryStore())
    assert m.turn_table() is first
    assert a.preset.machine is b.preset.machine is first


@pytest.mark.parametrize("name, leaf", [
    ("close_combat", "turn.close_combat.choose_combat"),
    ("charge", "turn.movement.charge.declaration"),
    ("turn.magic", "turn.magic"),
])
def test_a_scenario_phase_names_a_state_of_the_turn(name, leaf):
    from regiment.phases.fantasy.preset import state_phase

    assert state_phase(m.turn_table(), name) == leaf


def test_each_leaf_says_in_one_place_what_it_asks_and_what_it_does():
    """The flow as data: a table of the machine's leaves, each with the commands it takes,
    the decision it asks for and what the engine does there by itself; a leaf where a player
    may send a command besides end_phase has its question, and a name the machine does not
    know is refused when the table is built."""
    from regiment.phases.common.machine import leaves

    for name in ("fantasy8", "fantasy-classic"):
        preset = FantasyPreset(name)
        table = preset.leaves
        assert {leaf.path for leaf in table.values()} == set(preset.machine.leaves)
        for leaf in table.values():
            if set(leaf.commands) - {"end_phase"}:
                assert leaf.asks is not None, leaf.name
        assert table["declaration"].asks is not None and table["rally"].drives is not None
    with pytest.raises(ValueError, match="does not have: \\['charge_movs'\\]"):
        leaves(FantasyPreset().machine, FantasyPreset().handlers, {"charge_movs": lambda s: None},
               {})
    with pytest.raises(ValueError, match=r"no handler for .*'declare_charge'.* in leaf "
                                         r"'declaration'"):
        leaves(FantasyPreset().machine, {}, {}, {})


def test_the_machine_diagram_in_docs_is_the_live_machines():
    """docs/machine.md is what `make diagrams` draws from the machines the games run on; each
    edge of the live fantasy machine is an arrow of its diagram, and `regiment machine`
    prints the same diagram."""
    import subprocess
    import sys
    from pathlib import Path

    from regiment.tools.machine import diagram, document

    docs = Path(__file__).resolve().parent.parent / "docs" / "machine.md"
    assert docs.read_text(encoding="utf-8") == document(), "run make diagrams"
    drawn = diagram("fantasy8")
    live = m.build_machine()
    arrows = 0
    for trigger, event in live.events.items():
        for source, ts in event.transitions.items():
            for t in ts:
                label = trigger + (f" [{', '.join(str(c.func) for c in t.conditions)}]"
                                   if t.conditions else "")
                dest = str(t.dest).replace(".", "__")
                found = [line for line in drawn.splitlines() if "-->" in line and
                         line.split(" --> ")[0].strip().startswith(source.replace(".", "__"))
                         and f" : {label}" in line]
                assert any(dest in line.split(" --> ")[1] for line in found), \
                    (trigger, source, str(t.dest))
                arrows += 1
    assert arrows == len(m.TRANSITIONS)
    shown = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "machine", "skirm"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stdout == diagram("skirmish40k")


def _closure(table, leaf):
    """The steps a game may be at once the phase is entered at ``leaf``: it and the steps
    its step edges lead to."""
    seen, todo = {leaf}, [leaf]
    while todo:
        for e in table.steps.get(todo.pop(), ()):
            if e.dest not in seen:
                seen.add(e.dest)
                todo.append(e.dest)
    return seen


@pytest.mark.parametrize("name", ["orcs_vs_empire", "the_captain", "black_fire_ford",
                                  "chariot_and_giant", "the_brood", "two_targets"])
def test_every_move_of_a_played_game_is_an_edge_of_the_machine(name):
    """The machine is the sequence: folding a whole battle event by event, each time the
    step the game is at changes, the machine has the edge it took (a command's, an
    automatic one, or the way to a next step). A step the flow reached another way, or a
    guard that let the game skip back, fails here."""
    from regiment.core.events import GameStarted
    from regiment.core.fold import fold
    from regiment.core.upcast import decode_event

    from .test_golden import story

    _, game = story(name)
    preset, table = game.preset, game.preset.machine
    events = [decode_event(r.type, r.v, r.data) for r in game.records]
    started = events[0]
    assert isinstance(started, GameStarted)
    state = preset.initial_state(started)
    moves, at = set(), None
    for e in events[1:]:
        state = fold(state, [e], game.table)
        if not state.phase or state.over:
            continue
        now = preset.where(state)
        if at is not None and now != at:
            reach = _closure(table, at) | {
                d for es in table.edges[at].values() for edge in es
                for d in _closure(table, edge.dest)}
            assert now in reach, (name, at, now, type(e).__name__)
            moves.add((at, now))
        at = now
    assert len(moves) > 10
