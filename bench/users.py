"""What users feel (issue 15): the replay command on a long game against ``Game.load`` of the
same store, the command line's start-up against a bare interpreter, the memory a live game
holds for each event, and the round trip of a ``serve`` line. Each against its floor, measured
in the same run, interleaved over several rounds (medians, with their spread)."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from longgame import long_game  # (bench/ is on the path: bench.py runs from it)

from regiment.core.game import Game
from regiment.store import MemoryStore, SqliteStore, open_store
from regiment.tools.cli import main

ROUNDS = 5


def spread(values: list[float], unit: str = "s", scale: float = 1.0) -> str:
    return (f"{statistics.median(values) * scale:.3f} {unit} "
            f"({min(values) * scale:.3f}-{max(values) * scale:.3f})")


def bench_replay_cli(out: list[str], events: int, scenario: Any, play_until: Any) -> None:
    """The replay and verify commands on a long game against ``Game.load`` of the same store:
    each run in this process (``main``, as the command line runs it, its start-up aside),
    and verify also as users run it, a process of its own (with the interpreter's start-up
    and its imports), interleaved over the rounds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.db"
        store = SqliteStore(path, durable=False)
        game = long_game(scenario, store)
        play_until(game, events, random.Random(3))
        gid, n = game.game_id, game.version
        store.close()
        reader = open_store(path, readonly=True)
        exe = str(Path(sys.executable).with_name("regiment"))
        tells, loads, checks, runs = [], [], [], []
        for _ in range(ROUNDS):
            tells.append(_in_process(["replay", str(path)]))
            checks.append(_in_process(["verify", str(path)]))
            gc.collect()
            start = time.perf_counter()
            Game.load(gid, reader)
            loads.append(time.perf_counter() - start)
            runs.append(_run([exe, "verify", str(path)]))
        load = statistics.median(loads)
        out.append(f"the replay and verify commands on a {n:,}-event game (SQLite, output to "
                   "a file; the floor: Game.load of the same store)")
        out.append(f"  floor, Game.load: {spread(loads)}")
        out.append(f"  regiment replay: {spread(tells)};  ratio "
                   f"{statistics.median(tells) / load:.2f}x  (target <= 2x)")
        out.append(f"  regiment verify, in process: {spread(checks)};  ratio "
                   f"{statistics.median(checks) / load:.2f}x  (target <= 3x)")
        out.append(f"  regiment verify, its own process: {spread(runs)};  ratio "
                   f"{statistics.median(runs) / load:.2f}x  (target <= 3x)")


def _in_process(argv: list[str]) -> float:
    gc.collect()
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):   # its progress lines
        main(argv)
    return time.perf_counter() - start


def _run(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def bench_startup(out: list[str], rounds: int = 15) -> None:
    exe = Path(sys.executable).with_name("regiment")
    bare, odds, helps = [], [], []
    for _ in range(rounds):
        bare.append(_run([sys.executable, "-c", "pass"]))
        odds.append(_run([str(exe), "odds", "break", "7"]))
        helps.append(_run([str(exe), "--help"]))
    floor = statistics.median(bare)
    out.append(f"command-line start-up ({rounds} interleaved runs)")
    out.append(f"  floor, a bare python -c pass: {spread(bare)}")
    out.append(f"  regiment odds break 7: {spread(odds)};  ratio "
               f"{statistics.median(odds) / floor:.2f}x  (target <= 5x)")
    out.append(f"  regiment --help: {spread(helps)};  ratio "
               f"{statistics.median(helps) / floor:.2f}x")


def bench_memory(out: list[str], scenario: Any, play_until: Any, events: int = 500) -> None:
    """Bytes a game holds for each event, live and loaded from its log. The records' stored
    bytes are told apart: a memory store holds them and a game shares the same objects (a
    load, and a live game since 0.6), while a game on SQLite holds them itself."""
    warm = long_game(scenario, MemoryStore())   # rulebook, schemas and caches load first
    play_until(warm, events, random.Random(4), undo_rate=0.0)
    del warm
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    game = long_game(scenario, MemoryStore())
    play_until(game, events, random.Random(5), undo_rate=0.0)
    gc.collect()
    live = tracemalloc.get_traced_memory()[0] - base
    n = game.version
    frames = game.store.frames(game.game_id)  # type: ignore[attr-defined]
    stored = sum(sys.getsizeof(f) for f in frames) + sys.getsizeof(frames)
    base = tracemalloc.get_traced_memory()[0]
    loaded = Game.load(game.game_id, game.store)
    held = tracemalloc.get_traced_memory()[0] - base
    del loaded
    with tempfile.TemporaryDirectory() as tmp:   # SQLite's own cache is not Python memory
        store = SqliteStore(Path(tmp) / "m.db", durable=False)
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
        on_disk = long_game(scenario, store)
        play_until(on_disk, events, random.Random(5), undo_rate=0.0)
        gc.collect()
        sqlite = (tracemalloc.get_traced_memory()[0] - base) / on_disk.version
        store.close()
    tracemalloc.stop()
    kib = n * 1024
    out.append(f"memory of a game ({n} events, tracemalloc, after a game of the same length "
               "has loaded what every game shares)")
    out.append(f"  live: {(live - stored) / kib:.2f} KiB an event;  loaded from its log: "
               f"{held / kib:.2f};  the records' stored bytes, shared with a memory store: "
               f"{stored / kib:.2f}  (target: live <= 0.4 KiB)")
    out.append(f"  live on SQLite, the record bytes held by the game: {sqlite / 1024:.2f} KiB "
               "an event")


def bench_serve(out: list[str], steps: int = 2_000) -> None:
    """The round trip of a JSON line through ``regiment serve`` (a child process), each
    line the first legal command of the pending decision."""
    exe = Path(sys.executable).with_name("regiment")
    with tempfile.TemporaryDirectory() as tmp:
        text = (Path(__file__).resolve().parent.parent / "examples" / "ford_clash.toml"
                ).read_text()
        battle = Path(tmp) / "long.toml"
        battle.write_text(text.replace("turns = 3", "turns = 400"))
        proc = subprocess.Popen([str(exe), "serve", str(battle), "--store", ":memory:"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env={**os.environ})
        assert proc.stdin is not None and proc.stdout is not None
        answer = json.loads(proc.stdout.readline())
        times = []
        for _ in range(steps):
            if answer["pending"]["kind"] != "decision":
                break
            line = json.dumps(answer["pending"]["legal"][0]) + "\n"
            start = time.perf_counter()
            proc.stdin.write(line)
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            times.append(time.perf_counter() - start)
        proc.stdin.close()
        proc.wait()
    times.sort()
    p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
    out.append(f"serve round trip ({len(times)} lines, each the first legal command)")
    out.append(f"  p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms, worst {times[-1] * 1e3:.2f} ms")


def bench_simulate(out: list[str], games: int = 600, rounds: int = 3) -> None:
    """``regiment simulate`` on one process and on every core, interleaved; the floor is one
    process's rate times the cores (no sharing at all). The same standard output is checked."""
    exe = Path(sys.executable).with_name("regiment")
    cores = os.cpu_count() or 1
    rates: dict[int, list[float]] = {1: [], cores: []}
    outputs: dict[int, str] = {}
    for _ in range(rounds):
        for jobs in rates:
            start = time.perf_counter()
            done = subprocess.run([str(exe), "simulate", "mill_race", "-n", str(games),
                                   "--seed", "5eed", "--jobs", str(jobs)],
                                  capture_output=True, text=True, check=True)
            rates[jobs].append(games / (time.perf_counter() - start))
            outputs[jobs] = done.stdout
    one, every = statistics.median(rates[1]), statistics.median(rates[cores])
    same = "the same standard output" if outputs[1] == outputs[cores] else "OUTPUTS DIFFER"
    out.append(f"simulate, the mill race, {games} games ({rounds} interleaved rounds, whole "
               "commands)")
    out.append(f"  --jobs 1: {one:.1f} games/s;  --jobs {cores} (every core): {every:.1f} games/s"
               f";  {every / one:.2f}x, of at most {cores}x (goal: {0.9 * cores:.1f}x);  {same}")
