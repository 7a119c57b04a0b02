"""``regiment simulate``: a scenario played many times by the bots, on every core of the machine
(``--jobs``) or on a Dask cluster (``--scheduler``), with the same results as on one core.

Each game's dice follow from its seed alone, so the games can be played anywhere in any order;
their tallies are added up, which gives the same counts whatever the order. The games go out
in chunks that shrink as the games run out, so that the progress bar moves and the workers
finish together.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from regiment.core.errors import BadRequest

from .cores import default_jobs

Tally = dict[str, Any]   # {"winners": Counter, "ends": {unit: Counter}}


def empty(scenario: dict[str, Any]) -> Tally:
    return {"winners": Counter(), "ends": {u["id"]: Counter() for u in scenario["units"]}}


def play_games(scenario: dict[str, Any], seeds: Sequence[int]) -> Tally:
    """Play one game a seed with the bots and seeded dice; count who won and how each unit
    ended. A module-level function: worker processes and cluster workers call it."""
    import regiment.phases  # noqa: F401 - a fresh worker registers the presets
    from regiment.core.playout import Playout
    from regiment.core.protocols import view_of

    from .bot import choose

    out = empty(scenario)
    for seed in seeds:
        game = Playout.new(scenario, seed=f"{seed:x}")
        while game.pending.kind != "over":
            game.submit(choose(game))  # type: ignore[arg-type]
        out["winners"][game.state.winner or "no one"] += 1
        view = view_of(game.preset)
        for uid, how in (view.ends(game.state) if view is not None else {}).items():
            out["ends"][uid][how] += 1
    return out


def add(total: Tally, part: Tally) -> None:
    total["winners"].update(part["winners"])
    for uid, ends in part["ends"].items():
        total["ends"][uid].update(ends)


def chunks(first: int, n: int, workers: int) -> list[range]:
    """The seeds in pieces: one game at a time on one worker; else pieces that shrink as the
    games run out (each about a quarter of a worker's share of what is left, at most 50
    games, at least one), so that the progress bar moves early and the workers finish
    together: pieces of one size left a worker idle for up to a piece's time at the end
    (measured on 600 games on two cores: 38-game pieces, 0.28 s of a 2.7 s run)."""
    if workers <= 1:
        return [range(s, s + 1) for s in range(first, first + n)]
    out, at, end = [], first, first + n
    while at < end:
        size = max(1, min(50, math.ceil((end - at) / (workers * 4))))
        out.append(range(at, min(end, at + size)))
        at += size
    return out


def simulate(scenario: dict[str, Any], n: int, first_seed: int = 0, jobs: int = 1,
             scheduler: str | None = None,
             advance: Callable[[int], None] | None = None,
             pool: ProcessPoolExecutor | None = None) -> dict[str, Any]:
    """Play ``scenario`` ``n`` times, seeds ``first_seed`` on, on ``jobs`` processes (or on
    the Dask cluster at ``scheduler``); ``advance`` hears how many games each piece held.
    ``pool``: the workers (``workers(jobs)``), started beforehand; else made here."""
    total = empty(scenario)
    tick = advance or (lambda k: None)
    if scheduler is not None:
        for part, k in _on_cluster(scenario, chunks(first_seed, n, 8), scheduler):
            add(total, part)
            tick(k)
    elif jobs > 1 and n > 1:
        pieces = chunks(first_seed, n, jobs)
        with pool or workers(min(jobs, len(pieces)), scenario["preset"]) as running:
            futures = {running.submit(play_games, scenario, p): len(p) for p in pieces}
            for done in as_completed(futures):
                add(total, done.result())
                tick(futures[done])
    else:
        for piece in chunks(first_seed, n, 1):
            add(total, play_games(scenario, piece))
            tick(len(piece))
    return {"n": n, **total}


def workers(jobs: int, preset: str) -> ProcessPoolExecutor:
    """``jobs`` worker processes, every one started now: on Python 3.11 forked from this
    process, which has imported the library (spawned, each worker spent 0.3 s importing it
    before its first game), before any thread of ours runs (the progress bar's); each loads
    the ``preset``'s rulebook itself, all at once (``_ready``). On later Pythons, which warn against
    forking a process with threads, forked from a server that loaded the rulebooks."""
    import sys

    if sys.version_info < (3, 12):
        ctx = get_context("fork")
    else:
        ctx = get_context("forkserver")
        ctx.set_forkserver_preload(["regiment.tools.warm", "regiment.tools.bot",
                                    "regiment.core.playout"])
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
    list(pool.map(_ready, [preset] * jobs))   # every worker up before the first game
    return pool


def _ready(preset: str) -> str:
    """A worker's first task: its rulebook loaded, so that its first game starts at once."""
    from regiment.core.geometry import lazy_shapely
    from regiment.core.protocols import PRESETS
    from regiment.phases import PRESETS as _registered  # noqa: F401 - registers the presets

    PRESETS[preset]
    lazy_shapely.load()   # (imported when a shape is first asked: a worker's games will ask)
    return preset


def _on_cluster(scenario: dict[str, Any], pieces: list[range], address: str
                ) -> Any:
    """The pieces played on a Dask cluster (dask.distributed), as each comes back."""
    try:
        from dask.distributed import Client
        from dask.distributed import as_completed as arrived
    except ImportError:
        raise BadRequest("--scheduler needs dask.distributed: pip install "
                         "'regiment[cluster]'") from None
    try:
        client = Client(address, timeout="5s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise BadRequest(f"no Dask scheduler answers at {address}: {exc}") from None
    with client:
        futures = client.map(play_games, [scenario] * len(pieces), pieces, pure=False)
        sizes = {f.key: len(p) for f, p in zip(futures, pieces, strict=True)}
        for future in arrived(futures):
            yield future.result(), sizes[future.key]


class Clock:
    """Games a second, for the line on standard error at the end."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def rate(self, n: int) -> str:
        took = time.perf_counter() - self.start
        return f"{n} games in {took:.1f} s: {n / took if took else 0:,.1f} games/s"


class Rate(ProgressColumn):
    """Games a second, as the bar sees them."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} games/s" if speed else "- games/s", style="progress.data.speed")


def run_simulate(args: argparse.Namespace, console: Console) -> int:
    from regiment.core.scenario import load_scenario

    from .chances import pct, wilson
    from .listings import scenario_path

    scenario = load_scenario(scenario_path(args.scenario))
    if scenario.get("table", {}).get("measured"):
        raise BadRequest(f"{args.scenario} is a table-mode battle (table.measured): its "
                         "players measure on their own table, which the bots have not got "
                         "(TABLE.POSITIONS); simulate it from a scenario with positions")
    scenario["dice"] = "seeded"
    # a process costs about as much to start as 20 games: no more than one every 20 games
    jobs = max(1, min(args.jobs or default_jobs(), args.n // 20))
    where = f"on the Dask cluster at {args.scheduler}" if args.scheduler else \
        f"on {jobs} process{'es' if jobs > 1 else ''}"
    err = Console(stderr=True)
    clock = Clock()
    # the workers start before the progress bar's thread does (see workers)
    pool = (workers(jobs, scenario["preset"]) if jobs > 1 and args.n > 1 and not args.scheduler
            else None)
    # rate and time left on standard error; the results alone on standard output, the same
    # whatever the number of processes
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  Rate(), TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task(f"playing {where}", total=args.n)
        out = simulate(scenario, args.n, args.seed, jobs, args.scheduler,
                       lambda k: bar.advance(task, k), pool)
    err.print(f"{clock.rate(args.n)} {where}", highlight=False)
    n = out["n"]
    names = {u["id"]: u.get("name", u["id"]) for u in scenario["units"]}
    table = Table(title=f"{scenario.get('name') or args.scenario}: {n} games by the bots, "
                  f"dice seeds 0x{args.seed:x} to 0x{args.seed + n - 1:x}")
    table.add_column("outcome")
    table.add_column("rate", justify="right")
    table.add_column("95 % interval", justify="right")
    for who in [p["id"] for p in scenario["players"]] + ["no one"]:
        k = out["winners"][who]
        lo, hi = wilson(k, n)
        table.add_row(f"won by {who}" if who != "no one" else "no winner (a draw)",
                      pct(k / n), f"{pct(lo)} - {pct(hi)}")
    for uid, ends in out["ends"].items():
        for how in sorted(h for h in ends if h != "standing"):
            k = ends[how]
            if k:
                lo, hi = wilson(k, n)
                table.add_row(f"{names[uid]} {how} at the end", pct(k / n),
                              f"{pct(lo)} - {pct(hi)}")
    console.print(table)
    console.print("Rates are of games by the bundled bots (tools/bot.py), which play plainly; "
                  "the intervals are Wilson score intervals.")
    return 0
