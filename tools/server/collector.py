"""The game server's garbage collector: set for a process that holds many games, and watched.

A held game is mostly values that make no reference cycles (states, records, events), and a
server makes a few hundred young objects a step; with CPython's default threshold (a young
collection every 700 new objects) the collector ran some 400 times in 8,000 steps of 200 games
and a full collection paused the event loop for 55-90 ms, a step's whole p50 (measured: issue
29, bench/hosted.py's load, the collector's time taken by the callback below). ``tune``:

- ``gc.freeze()`` once the server is built: what it made to start (modules, rulebooks, the
  compiled machines) is moved out of every later collection's way.
- a young collection every ``YOUNG`` new objects rather than 700, the older generations as
  CPython has them (each collected after ten of the one below). Cycles are still found; the
  young ones wait longer (some 10,000 objects: about a MiB).

Measured the same way: the collector's time fell from 34 to 10 us a step and its longest pause
from 55-90 to 13 ms. ``Watch`` keeps those figures for ``GET /status``.
"""

from __future__ import annotations

import gc
import time
from typing import Any

YOUNG = 10_000


def tune() -> None:
    """Freeze what the process holds now and collect the young generation less often."""
    gc.collect()   # the cycles made while starting are freed, not frozen
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


class Watch:
    """The collector's collections, time and longest pause, from its own callbacks."""

    def __init__(self) -> None:
        self.collections = 0
        self.seconds = 0.0
        self.longest = 0.0
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = time.perf_counter() - self._began
        self.collections += 1
        self.seconds += took
        self.longest = max(self.longest, took)

    def start(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def stop(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    @property
    def watching(self) -> bool:
        return self in gc.callbacks

    def figures(self) -> dict[str, Any]:
        """What ``GET /status`` shows: the collector's work so far and how it is set."""
        return {"collections": self.collections, "seconds": round(self.seconds, 6),
                "longest": round(self.longest, 6), "threshold": list(gc.get_threshold()),
                "frozen": gc.get_freeze_count()}


WATCH = Watch()
