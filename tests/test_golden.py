"""Golden replays: every example battle, played by the bots with its seeded dice, must tell
exactly the story stored under tests/golden/. A change in the rules or in the wording shows
as a diff; after checking it, regenerate with ``make golden`` (REGIMENT_GOLDEN=update)."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

import pytest

from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore
from regiment.tools.demo import play
from regiment.tools.replay import narrate
from regiment.tools.verify import verify

from .conftest import EXAMPLES

GOLDEN = Path(__file__).resolve().parent / "golden"
BATTLES = sorted(p.stem for p in EXAMPLES.glob("*.toml"))


def story(name: str) -> tuple[str, Game]:
    scenario = load_scenario(EXAMPLES / f"{name}.toml")
    scenario["seed"] = scenario["seed"] or "60de"
    game = Game.new(scenario, store=MemoryStore(), game_id=f"golden-{name}",
                    clock=lambda: "2026-01-01T00:00:00.000000Z")
    play(game, show_undo=False)
    lines = list(narrate(game, game.records))
    end = game.preset.view.final(game.state)  # type: ignore[attr-defined]
    lines.append("final " + json.dumps(end, sort_keys=True))
    return "\n".join(lines) + "\n", game


def test_there_are_at_least_three_example_battles():
    assert len(BATTLES) >= 3


@pytest.mark.parametrize("name", BATTLES)
def test_golden_replay(name):
    text, game = story(name)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("REGIMENT_GOLDEN") == "update":
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            f"golden/{name}.txt", "this run", n=2))
        pytest.fail(f"the {name} battle tells a different story:\n{diff[:6000]}")
    # the golden game is also a fair, checkable game
    assert verify(game.records).steps == len(game.timeline.steps)
    again = Game.load(game.game_id, game.store)
    assert again.state.summary() == game.state.summary()
