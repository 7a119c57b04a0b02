"""Progress of a long command (``verify``, ``replay``) on standard error: a bar on a terminal,
and plain lines at each quarter when standard error is a file or a pipe. Short runs show
nothing: a few thousand steps take a second."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

LONG = 5_000   # steps: what is shorter shows no progress


@contextmanager
def progress(what: str, total: int, stream: IO[str] | None = None
             ) -> Iterator[Callable[[int], None]]:
    """``advance(k)``: ``k`` more of ``total`` steps done."""
    out = stream if stream is not None else sys.stderr
    if total < LONG:
        yield lambda k: None
        return
    if out.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        # drawn by ``advance`` (ten times a second at most), not by a thread of rich's own:
        # verify --jobs forks its workers while the bar is up
        with Progress(f"[bold]{what}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(file=out), transient=True, auto_refresh=False) as bar:
            task = bar.add_task(what, total=total)
            drawn = [0.0]

            def draw(k: int) -> None:
                bar.advance(task, k)
                now = time.monotonic()
                if now - drawn[0] >= 0.1:
                    drawn[0] = now
                    bar.refresh()

            yield draw
        return
    done = [0, 1]   # steps done, the next quarter to tell

    def advance(k: int) -> None:
        done[0] += k
        while done[1] <= 4 and done[0] * 4 >= total * done[1]:
            print(f"{what}: {25 * done[1]} % ({done[0]:,} of {total:,} steps)", file=out,
                  flush=True)
            done[1] += 1

    yield advance
