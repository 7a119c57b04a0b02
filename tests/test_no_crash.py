"""Nothing a client sends crashes the engine (issue 56 item 1): every bundled battle driven
with random legal commands and random well-formed moves, answers and rolls raises nothing but
a refusal (``RegimentError``), and the game it leaves verifies."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regiment.core.errors import RegimentError
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore
from regiment.tools.verify import verify

from .conftest import EXAMPLES

BATTLES = sorted(p.stem for p in EXAMPLES.glob("*.toml"))
LEGS = ("forward", "wheel", "turn", "back", "sideways")


def made_up(rng: random.Random, game: Game) -> dict[str, Any]:
    """A well-formed command a client might make up: a move of random legs or to a random
    place, a roll of random faces, a measurement of a random value, for the player to act."""
    pending = game.pending
    player = getattr(pending, "player", None) or game.state.players[0]
    pieces = [p for p in (getattr(game.state, "units", None) or getattr(game.state, "squads",
                                                                         {})).values()
              if getattr(p, "player", None) == player]
    pick = rng.randrange(4)
    if pick == 0 and pieces:
        legs = [[rng.choice(LEGS), rng.choice([90.0, -90.0, 180.0, round(rng.uniform(-60, 60),
                                                                          2)])]
                for _ in range(rng.randrange(1, 4))]
        return {"cmd": "move", "by": player, "unit": rng.choice(pieces).id,
                "kind": rng.choice(["forward", "march", "back", "sideways", "reform"]),
                "path": legs, "files": rng.randrange(0, 12)}
    if pick == 1 and pieces:
        return {"cmd": "move", "by": player, "unit": rng.choice(pieces).id,
                "x": round(rng.uniform(-5, 80), 3), "y": round(rng.uniform(-5, 55), 3),
                "facing": round(rng.uniform(0, 360), 1)}
    if pick == 2:
        return {"cmd": "roll", "by": player,
                "faces": [rng.randrange(1, 7) for _ in range(rng.randrange(1, 8))]}
    return {"cmd": "measure", "by": player,
            "value": rng.choice([round(rng.uniform(0, 60), 2), rng.randrange(0, 30), "yes",
                                 "no", "front", "left", "none"])}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), name=st.sampled_from(BATTLES))
def test_no_command_a_client_sends_crashes_the_engine(seed, name):
    rng = random.Random(seed)
    scenario = load_scenario(EXAMPLES / f"{name}.toml")
    scenario["seed"] = f"{seed:x}"
    game = Game.new(scenario, store=MemoryStore())
    drive(game, rng, 160, 0.7)
    assert verify(list(game.records)).steps == len(game.timeline.steps)


def drive(game: Game, rng: random.Random, steps: int, legal_share: float) -> None:
    """``steps`` commands, a legal one in ``legal_share`` of them and a made-up one else;
    anything raised but a refusal fails the test."""
    for _ in range(steps):
        if game.pending.kind == "over":
            return
        legal = game.legal()
        command: Any = rng.choice(legal) if legal and rng.random() < legal_share else \
            made_up(rng, game)
        try:
            game.submit(command)
        except RegimentError:
            pass


@pytest.mark.parametrize("seed", range(40))
def test_no_crash_border_patrol_with_made_up_moves(seed):
    """The battle the crash was found in (a challenge accepted after moves a bot made up),
    played with many made-up moves, every seed of a fixed range."""
    rng = random.Random(seed)
    scenario = load_scenario(EXAMPLES / "border_patrol.toml")
    scenario["seed"] = f"{seed:04d}"
    drive(Game.new(scenario, store=MemoryStore()), rng, 300, 0.6)
