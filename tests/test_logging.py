"""The library never configures logging on import; the command line does."""

from __future__ import annotations

import subprocess
import sys


def test_importing_regiment_leaves_structlog_unconfigured():
    code = ("import structlog, regiment.core, regiment.phases, regiment.store, regiment.tools.cli;"
            "print(structlog.is_configured())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_library_prints_nothing_when_logging_is_not_configured(capsys):
    import random

    from regiment.core.game import Game
    from regiment.store import MemoryStore

    from .conftest import random_play, small_scenario

    game = Game.new(small_scenario(), store=MemoryStore())
    random_play(game, random.Random(1), 30)
    Game.load(game.game_id, game.store)
    assert capsys.readouterr() == ("", "")


def test_the_command_line_logs_to_stderr_only(tmp_path):
    out = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "-v", "demo", "--store",
                          str(tmp_path / "d.db"), "--seed", "01"], capture_output=True, text=True,
                         check=True)
    assert "game_created" in out.stderr and "game_created" not in out.stdout
