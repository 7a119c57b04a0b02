"""Shared fixtures: a small scenario, every store, and a random player for property tests."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.game import Game
from regiment.core.scenario import load_scenario, parse_scenario
from regiment.store import LogFileStore, MemoryStore, SqliteStore

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def unit(uid: str, player: str, x: float, y: float, facing: float, **extra: Any
         ) -> dict[str, Any]:
    base = {
        "id": uid, "player": player, "name": uid.title(), "models": 20, "files": 5,
        "base": [20, 20],
        "profile": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7},
        "position": [x, y], "facing": facing,
    }
    base.update(extra)
    return base


def small_scenario(**top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "preset": "fantasy8", "first": "red", "dice": "seeded", "seed": "c0ffee", "turns": 2,
        "undo": "solo",   # one program plays both seats (UNDO.POLICY)
        "players": [{"id": "red"}, {"id": "blue"}],
        "units": [unit("boyz", "red", 20, 10, 0), unit("wolves", "red", 40, 10, 0,
                                                       rules=["swiftstride"]),
                  unit("spears", "blue", 20, 22, 180), unit("swords", "blue", 40, 24, 180)],
    }
    data.update(top)
    return parse_scenario(copy.deepcopy(data))


def close_scenario(**top: Any) -> dict[str, Any]:
    """Units a few inches apart, champions and a musician among them, and a pair already
    fighting: random play reaches charges, combats, breaks, pursuits and reforms."""
    data: dict[str, Any] = {
        "preset": "fantasy8", "first": "red", "dice": "seeded", "seed": "beef", "turns": 3,
        "undo": "solo",   # one program plays both seats (UNDO.POLICY)
        "players": [{"id": "red"}, {"id": "blue"}],
        "units": [unit("boyz", "red", 16, 10, 0, command=["champion", "standard"]),
                  unit("wolves", "red", 36, 10, 0, rules=["swiftstride"], models=10),
                  unit("spears", "blue", 16, 16, 180, command=["champion", "musician"],
                       equipment=["spear"]),
                  unit("swords", "blue", 36, 15, 180, equipment=["crossbow"], models=15),
                  unit("ogres", "red", 56, 20, 0, models=6, files=3, base=[40, 40],
                       troop="monstrous_infantry"),
                  unit("guard", "blue", 56, 20, 180, command=["standard"])],
    }
    data.update(top)
    return parse_scenario(copy.deepcopy(data))


def melee_scenario(**top: Any) -> dict[str, Any]:
    """A multiple combat at the start (a wide unit against two side by side, one model at the
    seam touching both) with units near enough to charge into it or each other."""
    w = 5 * 20 / 25.4
    data: dict[str, Any] = {
        "preset": "fantasy8", "first": "blue", "dice": "seeded", "seed": "5ea5", "turns": 3,
        "undo": "solo",   # one program plays both seats (UNDO.POLICY)
        "players": [{"id": "red"}, {"id": "blue"}],
        "units": [unit("line", "blue", 36 + w / 4, 20, 0, models=30, files=10,
                       command=["standard", "musician"]),
                  unit("left", "red", 36 - w / 2, 20, 180, command=["champion"]),
                  unit("right", "red", 36 + w / 2, 20, 180, models=15),
                  unit("flank", "blue", 27, 22, 90, models=15),
                  unit("boyz", "red", 20, 32, 90, models=15),
                  unit("guard", "blue", 50, 30, 270, models=10)],
    }
    data.update(top)
    return parse_scenario(copy.deepcopy(data))


def heroes_scenario(**top: Any) -> dict[str, Any]:
    """Characters: one begins in a unit 8" from the enemy, one may join a unit in its remaining
    moves, one begins in a unit already fighting a unit with a champion."""
    hero = {"models": 1, "files": 1, "rules": ["character"],
            "profile": {"M": 4, "WS": 5, "BS": 3, "S": 4, "T": 4, "W": 2, "I": 5, "A": 3,
                        "Ld": 9}}
    data: dict[str, Any] = {
        "preset": "fantasy8", "first": "red", "dice": "seeded", "seed": "4e705", "turns": 3,
        "undo": "solo",   # one program plays both seats (UNDO.POLICY)
        "players": [{"id": "red"}, {"id": "blue"}],
        "units": [unit("boyz", "red", 20, 12, 0),
                  unit("boss", "red", 20, 4, 0, joined="boyz", **hero),
                  unit("spears", "blue", 20, 20, 180, command=["standard"]),
                  unit("cap", "blue", 20, 26, 180, **hero),
                  unit("wolves", "red", 45, 20, 0, command=["champion"], models=10),
                  unit("guard", "blue", 45, 20, 180, models=15),
                  unit("hero", "blue", 45, 30, 180, joined="guard", battle_standard=True,
                       **hero)],
    }
    data.update(top)
    return parse_scenario(copy.deepcopy(data))


def squad(uid: str, player: str, catalogue: str, x: float, y: float, facing: float = 0.0,
          count: int = 5, **extra: Any) -> dict[str, Any]:
    """A skirmish squad from the catalogue, in rows of five centred on (x, y)."""
    return {"id": uid, "player": player, "catalogue": catalogue,
            "formation": {"centre": [x, y], "facing": facing, "count": count,
                          "per_row": min(count, 5), "spacing": 0.5}, **extra}


def skirmish_scenario(**top: Any) -> dict[str, Any]:
    """The skirmish game: assault marines near two squads of guardsmen, tactical marines
    behind them with their bolters, and a carnifex on the guardsmen's flank."""
    data: dict[str, Any] = {
        "preset": "skirmish40k", "first": "red", "dice": "seeded", "seed": "5c1", "turns": 3,
        "undo": "solo",   # one program plays both seats (UNDO.POLICY)
        "table": {"width": 48, "depth": 48},
        "players": [{"id": "red"}, {"id": "blue"}],
        "units": [squad("assault", "red", "assault_marines", 24, 16, count=8),
                  squad("tactical", "red", "tactical_marines", 38, 10),
                  squad("first", "blue", "guardsmen", 19, 23, 180),
                  squad("second", "blue", "guardsmen", 29, 23, 180),
                  squad("beast", "blue", "carnifex", 8, 24, 180, count=1)]}
    data.update(top)
    return parse_scenario(copy.deepcopy(data))


SCENARIOS = {"small": small_scenario, "close": close_scenario, "melee": melee_scenario,
             "heroes": heroes_scenario, "skirmish": skirmish_scenario}


RULE_TESTS = {"test_charge", "test_attacks", "test_combat", "test_combat_result",
              "test_break_tests", "test_pursuit", "test_reform", "test_panic",
              "test_multiple"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Rule tests run under both fantasy presets, except those marked ``only(preset)``."""
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if module in RULE_TESTS and "preset" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("only")
        names = [only.args[0]] if only else ["fantasy8", "fantasy-classic"]
        metafunc.parametrize("preset", names, indirect=True)


@pytest.fixture(autouse=True)
def preset(request: pytest.FixtureRequest) -> Iterator[str]:
    """The preset a rule test plays under (tests/battle.py builds its games with it)."""
    from . import battle

    name = getattr(request, "param", "fantasy8")
    battle.PRESET = name
    yield name
    battle.PRESET = "fantasy8"


@pytest.fixture(autouse=True)
def _reset_logging() -> Iterator[None]:
    """The CLI configures structlog in-process; each test starts from the library's default."""
    yield
    structlog.reset_defaults()


@pytest.fixture
def scenario() -> dict[str, Any]:
    return small_scenario()


@pytest.fixture
def ford_clash() -> dict[str, Any]:
    return load_scenario(EXAMPLES / "ford_clash.toml")


StoreFactory = Callable[[], Any]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A real PostgreSQL server for the session (tests/postgres.py)."""
    import os

    from .postgres import SKIP, TempPostgres

    if os.environ.get(SKIP):
        pytest.skip(f"{SKIP} is set")
    with TempPostgres() as pg:
        yield pg


@pytest.fixture(params=["memory", "logfile", "sqlite", "postgresql"])
def store_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    """A function that opens the same store again (a fresh handle on the same data)."""
    opened: list[Any] = []
    memory = MemoryStore()
    url = request.getfixturevalue("postgres").fresh() if request.param == "postgresql" else ""

    def make() -> Any:
        if request.param == "memory":
            return memory
        for s in opened:  # one writer at a time: reopening closes the last handle
            s.close()
        if url:
            from regiment.store.postgres import PostgresStore

            s = PostgresStore(url)
            opened.append(s)
            return s
        s = LogFileStore(tmp_path / "logs") if request.param == "logfile" else SqliteStore(
            tmp_path / "games.db")
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()


def random_play(game: Game, rng: random.Random, steps: int, undo_rate: float = 0.2,
                manual_faces: bool = True) -> list[str]:
    """Play ``steps`` random legal commands (undo and redo mixed in); returns their names."""
    names = []
    for _ in range(steps):
        pending = game.pending
        if pending.kind == "over" and not game.timeline.redo:
            break
        options = game.legal()
        meta = [c for c in options if c.name in ("undo", "redo")]
        plain = [c for c in options if c.name not in ("undo", "redo")]
        if pending.kind == "roll" and not plain and manual_faces:
            from regiment.core.commands import Roll
            known = pending.known or (None,) * pending.dice
            plain = [Roll(by=pending.player,
                          faces=tuple(k or rng.randint(1, 6) for k in known))]
        if pending.kind == "measurement" and not plain:   # a distance, or units near
            from regiment.core.commands import Measure
            value: Any = int(rng.uniform(0, min(20.0, pending.most)) * 10) / 10 \
                if pending.measure == "distance" else \
                [o for o in pending.options if rng.random() < 0.5]
            plain = [Measure(by=pending.player, value=value)]
        pool = meta if (meta and (rng.random() < undo_rate or not plain)) else plain
        if not pool:
            break
        command = rng.choice(pool)
        game.submit(command)
        names.append(command.name)
    return names


@pytest.fixture(scope="session")
def after_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder like a fresh checkout on which ``make demo`` has just run."""
    venv = Path(sys.prefix)
    assert (venv / ".installed").exists(), "run the tests with make test (it builds .venv)"
    here = tmp_path_factory.mktemp("tour")
    root = Path(__file__).resolve().parent.parent
    (here / ".venv").symlink_to(venv)
    for name in ("Makefile", "pyproject.toml", "examples"):
        (here / name).symlink_to(root / name)
    done = subprocess.run(["make", "demo"], cwd=here, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "warning" not in done.stdout.lower(), done.stdout[:2000]   # the demo is quiet
    assert (here / "regiment.db").exists()
    return here


def undo_then_redo_is_the_identity(game: Game) -> bool:
    """Undo the last step and redo it (a finished game takes none: GAME.OVER); the state and
    the pending decision must be as before. False when there was nothing to take back."""
    if game.timeline.request is not None or game.timeline.last_live() is None or \
            game.state.over:
        return False
    before, pending = game.state, game.pending
    game.undo("red")
    game.redo("blue")
    assert game.state == before and game.pending == pending
    return True
