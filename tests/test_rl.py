"""The learning environment (regiment.rl), certified by PettingZoo's and OpenSpiel's own test
functions, on a fantasy and a skirmish battle; and what those functions do not check: an
offered action is never refused, a learner's game is an ordinary log that ``verify`` reads,
a copy is independent of what it was copied from, and OpenSpiel's MCTS plays whole games."""

from __future__ import annotations

import collections
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regiment import rl
from regiment.rl.layout import FANTASY, SKIRMISH, Layout
from regiment.rl.observe import columns
from regiment.rl.session import seed_of
from regiment.store import open_store
from regiment.store.memory import MemoryStore

pettingzoo = pytest.importorskip("pettingzoo")   # (make test installs both)
pyspiel = pytest.importorskip("pyspiel")

BATTLES = ["knights_flank", "the_brood"]   # a fantasy battle and a skirmish one


def random_game(play: rl.Play, rng: random.Random, most: int = 5000) -> int:
    """Play random open actions (and dice, where the play waits for them) to the end."""
    acts = 0
    while not play.session.over and acts < most:
        if play.to_move() is None:
            play.give(rng.randint(1, 6))
            continue
        legal = play.legal()
        assert legal, f"a decision with nothing open: {play.decision()}"
        play.act(rng.choice(legal))
        acts += 1
    return acts


# --- PettingZoo's own tests ----------------------------------------------------------------

@pytest.mark.parametrize("battle", BATTLES)
def test_pettingzoo_api_test(battle: str):
    from pettingzoo.test import api_test

    api_test(rl.env(battle, seed=1), num_cycles=1000)
    api_test(rl.env(battle, seed=2, table=True), num_cycles=200)


@pytest.mark.parametrize("battle", BATTLES)
def test_pettingzoo_seed_test(battle: str):
    from pettingzoo.test import seed_test

    seed_test(lambda: rl.env(battle), num_cycles=500)


@pytest.mark.parametrize("battle", BATTLES)
def test_pettingzoo_parallel_api_test(battle: str):
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    parallel_api_test(turn_based_aec_to_parallel(rl.env(battle, seed=3)), num_cycles=1000)


# --- OpenSpiel's own test ------------------------------------------------------------------

@pytest.mark.parametrize("battle", BATTLES)
def test_openspiel_random_sim_test(battle: str):
    rl.register()
    game = pyspiel.load_game("python_regiment", {"scenario": battle})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_openspiel_game_is_loaded_by_its_string():
    rl.register()
    rl.register()   # again: harmless
    game = pyspiel.load_game("python_regiment(scenario=the_brood)")
    assert game.num_distinct_actions() == Layout.of(
        "skirmish40k", tuple(game.rules.opening.squads), game.rules.opening.players).size
    state = game.new_initial_state()
    assert state.current_player() in (0, 1)
    assert state.observation_tensor(0) != state.observation_tensor(1)   # ``mine`` differs


# --- what they do not check ----------------------------------------------------------------

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=st.sampled_from(["knights_flank", "the_brood", "border_patrol", "two_targets",
                               "chariot_and_giant"]),
       seed=st.integers(0, 10**6))
def test_an_offered_action_is_never_refused_and_the_game_is_an_ordinary_log(battle: str,
                                                                             seed: int):
    """Every action in the mask is taken (``act`` would raise IllegalAction otherwise), and
    the commands they made, submitted to a real Game, give the same state."""
    rng = random.Random(seed)
    chance = seed % 2 == 0
    play = rl.Play.new(rl.rules_of(battle), None if chance else seed_of(seed))
    random_game(play, rng, most=400)
    game = play.session.to_game(MemoryStore())
    assert game.state.summary() == play.session.state.summary()
    assert game.state.evolve(game_id="learner") == play.session.state   # (its id aside)


def test_an_action_not_offered_is_refused_and_changes_nothing():
    play = rl.Play.new(rl.rules_of("knights_flank"), seed_of(1))
    before = play.observe("empire").copy(), play.legal(), play.session.state
    closed = next(a for a in range(play.layout.size) if a not in play.legal())
    with pytest.raises(rl.IllegalAction, match=f"action {closed} "):
        play.act(closed)
    with pytest.raises(rl.IllegalAction):
        play.act(play.layout.size + 5)
    assert (play.observe("empire") == before[0]).all()
    assert play.legal() == before[1] and play.session.state is before[2]


@pytest.mark.parametrize("chance", [False, True], ids=["seeded", "dice_given"])
def test_a_learners_game_verifies_with_regiment_verify(tmp_path: Path, chance: bool):
    env = rl.env("border_patrol", seed=5)
    rng = random.Random(5)
    if chance:   # OpenSpiel's way: each die a chance outcome
        play = rl.Play.new(rl.rules_of("border_patrol"), None)
        random_game(play, rng)
        export = play.session
    else:        # PettingZoo's way: the engine's seeded dice
        env.reset(seed=5)
        for _agent in env.agent_iter():
            obs, _, done, cut, info = env.last()
            if done or cut:
                env.step(None)
                continue
            mask = obs["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        export = env.play.session
        assert info["outcome"]["rule"]
    assert export.over
    path = tmp_path / "learner.db"
    store = open_store(path)
    export.to_game(store, game_id="learner")
    store.close()
    done = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "verify", str(path),
                           "--game", "learner"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK" in done.stdout and "every outcome re-derived" in done.stdout


def test_a_copy_is_independent_and_shares_the_state():
    play = rl.Play.new(rl.rules_of("border_patrol"), seed_of(2))
    rng = random.Random(2)
    for _ in range(30):
        play.act(rng.choice(play.legal()))
    copy = play.copy()
    assert copy.session.state is play.session.state   # nothing folded again, nothing copied
    before = play.observe("orcs").copy(), play.legal()
    random_game(copy, rng)
    assert copy.session.over
    assert (play.observe("orcs") == before[0]).all() and play.legal() == before[1]
    assert not play.session.over


def test_openspiel_clone_goes_on_alone():
    rl.register()
    game = pyspiel.load_game("python_regiment", {"scenario": "knights_flank"})
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    assert clone.play.session.state is state.play.session.state
    seen = str(state), state.legal_actions(), state.history()
    while not clone.is_terminal():
        clone.apply_action(rng.randrange(6) if clone.is_chance_node()
                           else rng.choice(clone.legal_actions()))
    assert (str(state), state.legal_actions(), state.history()) == seen
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.play.session.state == state.play.session.state and str(again) == str(state)


def test_openspiel_mcts_plays_a_whole_game_against_the_rule_bot():
    from regiment.rl.arena import play_game

    rl.register()
    game = pyspiel.load_game("python_regiment", {"scenario": "knights_flank"})
    result, commands, near = play_game(game, 0, simulations=8, rng=random.Random(1))
    assert result in (-1.0, 0.0, 1.0)
    assert commands > 0 and near <= commands


def test_the_arena_prints_its_figures():
    done = subprocess.run([sys.executable, "-m", "regiment.rl.arena", "knights_flank",
                           "--games", "2", "--simulations", "4"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "games a minute" in done.stdout and "95 % interval" in done.stdout


# --- the spaces ----------------------------------------------------------------------------

def test_anchors_do_what_they_say():
    """``toward j`` ends nearer to j; ``edge j`` ends with j within the unit's range; ``flank
    j`` and ``rear j`` end nearer the place beside its flank or behind its rear."""
    from regiment.phases.fantasy.charge.rules import gap
    from regiment.phases.fantasy.units import box, missile
    from regiment.rl.moves import _beside

    rules = rl.rules_of("border_patrol")
    play = rl.Play.new(rules, seed_of(0))
    while play.decision().player != "empire" or play.decision().decision != "remaining_moves":
        labels = [play.layout.label(a) for a in play.legal()]
        ended = [a for a, lb in zip(play.legal(), labels, strict=True)
                 if lb in ("end_charges", "end_phase")]
        play.act(ended[0] if ended else play.legal()[0])   # to the empire's movement
    layout = play.layout
    state = play.session.state
    from regiment.rl.choices import options

    opts = options(layout, state, play.decision(), rules.preset)
    kinds: collections.Counter[str] = collections.Counter()
    for order in opts.orders():
        verb, unit = layout.verb_of(order)
        if verb not in ("move", "march"):
            continue
        for c in opts.group(order):
            label = layout.label(c.object) if c.object is not None else ""
            if not label.startswith(("toward", "edge", "flank", "rear")):
                continue
            foe = label.split()[1]
            after = rl.Play.new(rules, seed_of(1))
            after.session.state = state
            after.session.submit(c.command)
            moved = after.session.state
            if label.startswith("toward"):
                assert gap(moved.units[unit], moved.units[foe]) < gap(state.units[unit],
                                                                       state.units[foe])
            elif label.startswith(("flank", "rear")):   # nearer the place it aims at
                start = box(state.units[unit])
                places = dict(_beside(box(state.units[foe]), (start.x, start.y)))
                place, end = places[label.split()[0]], box(moved.units[unit])
                assert math.dist((end.x, end.y), place) < math.dist((start.x, start.y), place)
            elif c.amount == layout.amount(3):
                weapon = missile(state.units[unit])
                assert gap(moved.units[unit], moved.units[foe]) <= weapon.range
            kinds[label.split()[0]] += 1
    assert set(kinds) == {"toward", "edge", "flank", "rear"}, kinds


def test_every_phase_of_the_machines_has_a_column():
    """A new phase in a machine is a new encoding, decided on purpose (``ENCODING``)."""
    import regiment.phases  # noqa: F401
    from regiment.core.protocols import PRESETS

    for name, book in (("fantasy8", FANTASY), ("fantasy-classic", FANTASY),
                       ("skirmish40k", SKIRMISH)):
        recorded = set(PRESETS[name].machine.recorded.values())   # type: ignore[attr-defined]
        assert recorded <= set(book.phases), recorded - set(book.phases)


@pytest.mark.parametrize("battle", [*BATTLES, "border_patrol"])
def test_observations_are_named_and_seen_from_each_seat(battle: str):
    rules = rl.rules_of(battle)
    play = rl.Play.new(rules, seed_of(0))
    a, b = play.layout.seats
    names = columns(play.layout)
    first, second = play.observe(a), play.observe(b)
    assert first.shape == (len(names),) and first.dtype == np.float32
    assert np.isfinite(first).all()
    mine = [i for i, n in enumerate(names) if n.endswith(".mine")]
    assert (first[mine] + second[mine] == 1).all()   # each unit is one seat's
    assert len(set(play.layout.describe()["actions"])) == play.layout.size   # each named once


@pytest.mark.parametrize("battle", BATTLES)
def test_one_seat_against_the_bot_passes_gymnasiums_check_env(battle: str):
    """``rl.versus``: Gymnasium's own checker, then whole episodes by the mask alone."""
    from gymnasium.utils.env_checker import check_env

    env = rl.versus(battle)
    check_env(env, skip_render_check=True)
    rng = np.random.default_rng(0)
    for episode in range(3):
        env.reset(seed=episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, over, cut, info = env.step(action)
            done = over or cut
        assert reward in (-1.0, 0.0, 1.0) and "illegal" not in info and info["outcome"]


def test_a_move_is_told_in_info_exactly():
    """The command as the engine took it, and where the unit then stands."""
    env = rl.env("border_patrol", seed=11)
    env.reset(seed=11)
    rng = random.Random(11)
    for agent in env.agent_iter(2000):
        obs, _, done, cut, _ = env.last()
        if done or cut:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        moves = [a for a in legal if env.layout.label(int(a)).startswith("move ")]
        env.step(int(rng.choice(moves or list(legal))))
        told = env.infos[agent]
        if told.get("command") and told["command"]["cmd"] == "move":
            unit = env.play.session.state.units[told["command"]["unit"]]
            assert told["at"] == {"unit": unit.id, "x": round(unit.position[0], 4),
                                  "y": round(unit.position[1], 4),
                                  "facing": round(unit.facing % 360.0, 4)}
            return
    raise AssertionError("no move was made")


def test_a_table_the_players_measure_is_refused_saying_why():
    from regiment.core.errors import InvalidScenario
    from regiment.core.scenario import load_scenario

    measured = load_scenario(Path(__file__).resolve().parent.parent / "examples" /
                             "knights_flank.toml", measured=True)
    with pytest.raises(InvalidScenario, match="mapped"):
        rl.env(measured)
    with pytest.raises(InvalidScenario, match="did you mean 'knights_flank'"):
        rl.env("knights_flnk")
