"""Progress of long commands on standard error: a bar on a terminal, plain quarters in a file
or a pipe, nothing for a short run (issue 15)."""

from __future__ import annotations

import io

from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore
from regiment.tools.demo import play
from regiment.tools.progress import LONG, progress
from regiment.tools.verify import verify

from .conftest import EXAMPLES


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_run_tells_each_quarter_in_plain_text_when_not_on_a_terminal():
    out = io.StringIO()
    with progress("verifying", 8_000, out) as advance:
        for _ in range(8_000):
            advance(1)
    assert out.getvalue().splitlines() == [
        "verifying: 25 % (2,000 of 8,000 steps)", "verifying: 50 % (4,000 of 8,000 steps)",
        "verifying: 75 % (6,000 of 8,000 steps)", "verifying: 100 % (8,000 of 8,000 steps)"]


def test_a_short_run_shows_nothing_and_a_terminal_gets_a_bar():
    quiet = io.StringIO()
    with progress("verifying", LONG - 1, quiet) as advance:
        advance(LONG - 1)
    assert quiet.getvalue() == ""
    tty = Terminal()
    with progress("verifying", LONG, tty) as advance:
        advance(LONG)
    assert "verifying" in tty.getvalue() and "%" not in tty.getvalue().split("verifying")[0]


def test_verify_counts_every_step_it_re_derives():
    game = Game.new(load_scenario(EXAMPLES / "ford_clash.toml"), store=MemoryStore())
    play(game, show_undo=False)
    seen: list[int] = []
    report = verify(list(game.records), advance=seen.append)
    assert sum(seen) == report.steps == len(game.timeline.steps)
