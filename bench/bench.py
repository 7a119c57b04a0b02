"""``make bench``: the kernel's speed as ratios to floors measured in the same run.

These machines are noisy and absolute times drift; a ratio to a floor measured seconds apart
on the same machine holds. Each figure is the median of several rounds, interleaved with its
floor's so that drift hits both alike, and printed with its range (a few, where noted, are the
best of several repeats).

- replay: events/s of ``Game.load`` and its ratio to two floors, msgpack's decode and
  msgspec's into a typed ``Struct``, each with a dict-dispatch fold of the same records, and
  to a third, the least a load that checks what it reads does (each frame hashed and its
  event decoded, in a bare loop: no fold); ``verify`` of the same log against ``Game.load``.
- undo/redo: median latency at 100, 10,000 and 100,000 events, and the largest over the
  smallest.
- durable appends: steps/s with fsync per step, for each store, against raw file appends and raw
  SQLite inserts of the same bytes with the same fsync.
- bytes per event; the median cost of creating a game; a try (``Game.preview``) against the
  step it tries.
- whole combats per second, live and as a playout, and where the time goes (bench/combats.py).
- multiple combats of 2, 4, 6 and 8 units: combats per second and the cost of a round per unit.
- a skirmish assault of three squads as a playout, against replaying its own logs
  (bench/skirmish.py).
- big battles: the live cost of an event with 2, 8, 32 and 64 units on the table
  (bench/battles.py).
- what users feel (bench/users.py): the replay command on a long game against Game.load,
  start-up against a bare interpreter, memory a live game holds an event, serve's round trip,
  simulate on one process and on every core.
- the play page (bench/page.py): a command confirmed to the board redrawn, in Chromium, with
  100 games played at once on the same server, against an idle server;
- hosted games (bench/hosted.py): ``regiment server`` with 200 games, SQLite and PostgreSQL:
  steps/s, p50 and p99, the server's CPU a step against the engine's own step, memory a held
  game and a connection.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import msgspec

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.events import EVENTS
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.store import LogFileStore, MemoryStore, SqliteStore
from regiment.store.logfile import END, HEADER, crc32c

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from battles import bench_big  # noqa: E402
from combats import bench_combats, bench_multiple  # noqa: E402
from hosted import bench_hosted  # noqa: E402
from learning import bench_learning  # noqa: E402
from longgame import long_game  # noqa: E402
from page import bench_page  # noqa: E402
from rivals import eventsourcing_replay  # noqa: E402
from skirmish import bench_skirmish  # noqa: E402
from users import (  # noqa: E402
    bench_memory,
    bench_replay_cli,
    bench_serve,
    bench_simulate,
    bench_startup,
)

APPEND_ROUNDS = 5
REPLAY_ROUNDS = 5


def scenario(turns: int = 100) -> dict:
    import tomllib

    data = tomllib.loads((HERE.parent / "examples" / "ford_clash.toml").read_text())
    data["turns"] = turns
    return parse_scenario(data)


def best(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def collected(fn: Callable[[], object]) -> float:
    """The time of one call of ``fn``, the garbage collected before it."""
    gc.collect()
    return best(fn, 1)


def play_until(game: Game, events: int, rng: random.Random, undo_rate: float = 0.05) -> None:
    """A random legal game (undo and redo mixed in) until the log holds ``events`` records."""
    while game.version < events:
        pending = game.pending
        if pending.kind == "over":  # a side was wiped out: take a few steps back, play on
            for _ in range(rng.randint(1, 6)):
                if game.timeline.last_live() is None:
                    raise RuntimeError("the scenario ended before the log was long enough")
                game.undo(game.state.players[0])
            continue
        legal = game.legal()
        meta = [c for c in legal if c.name in ("undo", "redo")]
        if meta and rng.random() < undo_rate:
            game.submit(rng.choice(meta))
        else:
            game.submit(rng.choice(list(pending.legal)))


class Frame(msgspec.Struct, frozen=True, gc=False):
    """A stored record as the typed floor decodes it: every field, its data a map."""

    seq: int
    step: int
    type: str
    v: int
    data: dict[str, Any]
    at: str
    prev: bytes
    hash: bytes


class Envelope(msgspec.Struct, frozen=True, gc=False):
    """A stored record as the checked floor decodes it: its data left as bytes."""

    seq: int
    step: int
    type: str
    v: int
    data: msgspec.Raw
    at: str
    prev: bytes
    hash: bytes


def checked_floor(frames: list[bytes]) -> Callable[[], None]:
    """The least a load that checks what it reads does, in a bare loop: each frame's envelope
    decoded, the frame hashed (BLAKE2b, as the chain is), its event decoded into its class;
    no hash compared, no chain followed, no fold. What Game.load does beyond it is Python."""
    envelope = msgspec.msgpack.Decoder(Envelope).decode
    link = hashlib.blake2b(digest_size=32)
    events = {cls.__name__: (cls.v, msgspec.msgpack.Decoder(cls).decode)
              for cls in EVENTS.values()}

    def run() -> None:
        for f in frames:
            e = envelope(f)
            h = link.copy()
            h.update(f)
            h.digest()
            kind = events.get(e.type)
            if kind is not None and kind[0] == e.v:   # (an older shape is upcast: not here)
                kind[1](e.data)
    return run


def bench_replay(out: list[str], events: int) -> None:
    store = MemoryStore()
    game = long_game(scenario(turns=events // 20 + 10), store)
    start = time.perf_counter()
    play_until(game, events, random.Random(1))
    played = time.perf_counter() - start
    frames = store.frames(game.game_id)
    n = len(frames)
    state: dict = {}

    def handler(t: str) -> Callable[[dict], None]:
        def fold(data: dict) -> None:
            state[t] = data
        return fold

    handlers = {t: handler(t) for t in {msgpack.unpackb(f)["type"] for f in frames}}

    def floor() -> None:
        unpackb = msgpack.unpackb
        for f in frames:
            m = unpackb(f)
            handlers[m["type"]](m["data"])

    # the fastest typed form msgspec decodes a record into: a frozen Struct the collector
    # does not track (measured against a plain one, a frozen one and a dict: 1.74 against
    # 1.66, 1.69 and 1.44 million records a second)
    decode = msgspec.msgpack.Decoder(Frame).decode

    def fast_floor() -> None:
        for f in frames:
            m = decode(f)
            handlers[m.type](m.data)

    least = checked_floor(frames)

    # Alternate them so that drift in the machine's speed hits them alike.
    from regiment.tools.cores import default_jobs
    from regiment.tools.verify import verify

    records = list(game.records)
    cores = default_jobs()
    rival = eventsourcing_replay(n)
    floors, fast, leasts, loads, verifies, pieces, rivals = [], [], [], [], [], [], []
    for _ in range(REPLAY_ROUNDS):
        # each from a collected heap: what the one before left to collect (the library's
        # replay, 100,000 events made and dropped) must not be collected in the next's time
        floors.append(collected(floor))
        fast.append(collected(fast_floor))
        leasts.append(collected(least))
        loads.append(collected(lambda: Game.load(game.game_id, store)))
        verifies.append(collected(lambda: verify(records)))
        pieces.append(collected(lambda: verify(records, jobs=cores)))
        if rival is not None:
            rivals.append(collected(rival))
    med = statistics.median
    t_floor = med(floors)

    def rate(times: list[float]) -> str:
        return (f"{n / med(times):10,.0f} events/s ({n / max(times):,.0f}-"
                f"{n / min(times):,.0f})")

    def ratio(times: list[float], to: list[float]) -> str:
        # each round's own ratio: drift between rounds cancels
        each = [t / f for t, f in zip(times, to, strict=True)]
        return f"{med(each):.2f}x ({min(each):.2f}-{max(each):.2f})"

    out.append(f"replay ({n:,} events, {len(game.timeline.steps):,} steps, memory store; "
               f"medians of {REPLAY_ROUNDS} interleaved rounds, their range)")
    out.append(f"  floor (msgpack decode + dict-dispatch fold): {rate(floors)}")
    out.append(f"  floor (msgspec typed decode + dispatch fold): {rate(fast)}")
    out.append(f"  floor (checked: + hash, event decoded):      {rate(leasts)}   "
               f"{ratio(leasts, fast)} the typed floor")
    out.append(f"  Game.load:                                   {rate(loads)}   "
               f"{ratio(loads, floors)} the msgpack floor (target <= 3x); "
               f"{ratio(loads, fast)} the typed floor (target <= 2.5x); "
               f"{ratio(loads, leasts)} the checked floor")
    if rivals:
        out.append(f"  eventsourcing's replay (bench/rivals.py):    {rate(rivals)}   "
                   f"Game.load {ratio(rivals, loads)} it (target >= 10x)")
    else:
        out.append("  eventsourcing's replay: not measured (the library is not installed)")
    out.append(f"  verify (chain, every step re-derived):       {rate(verifies)}   "
               f"{ratio(verifies, loads)} Game.load (target <= 3x)")
    out.append(f"  verify --jobs {cores} (in pieces, one a core):     {rate(pieces)}   "
               f"{ratio(pieces, loads)} Game.load (target <= 3x)")
    out.append(f"  live play (rules, dice, codec, chain):       {n / played:12,.0f} events/s"
               f"   {played / len(game.timeline.steps) * 1e6:.0f} us/step")
    with tempfile.TemporaryDirectory() as tmp:
        for label, durable in (("sqlite", SqliteStore(Path(tmp) / "r.db", durable=False)),
                               ("log file", LogFileStore(Path(tmp) / "logs", fsync=False))):
            _copy_log(durable, game.game_id, game.records)
            t = best(lambda d=durable: Game.load(game.game_id, d), repeat=3)
            out.append(f"  Game.load from the {label} store:{' ' * (13 - len(label))}"
                       f"{n / t:12,.0f} events/s   ratio {t / t_floor:.2f}x")
            durable.close()
    bench_sizes(out, game, store)


def _copy_log(store: object, game_id: str, records: list) -> None:
    """Append a recorded game to another store, step by step, through its own codec."""
    from regiment.core.record import Draft

    seq = 0
    step_of = None
    batch: list = []
    for r in records:
        if step_of is not None and r.step != step_of:
            store.append(game_id, batch, seq - len(batch))  # type: ignore[attr-defined]
            batch = []
        step_of = r.step
        batch.append(Draft(seq=seq, step=r.step, type=r.type, v=r.v, data=r.data, at=r.at))
        seq += 1
    if batch:
        store.append(game_id, batch, seq - len(batch))  # type: ignore[attr-defined]


def bench_undo(out: list[str], sizes: tuple[int, ...]) -> None:
    out.append("undo and redo (median of 300 each, memory store; each also appends a step)")
    medians, walks = {}, {}
    for size in sizes:
        game = long_game(scenario(turns=size // 20 + 10), MemoryStore())
        rng = random.Random(2)
        play_until(game, size, rng, undo_rate=0.0)
        # the step undone and redone is the same kind at every size (magic -> shooting, two
        # events): the cost of a redo is that of its step, and the log's length must not show
        while game.state.phase != "turn.magic":
            play_until(game, game.version + 1, rng, undo_rate=0.0)
        game.submit({"cmd": "end_phase", "by": game.state.player})
        at = game.version
        undo, redo = [], []
        for _ in range(300):
            start = time.perf_counter()
            game.undo("red")
            undo.append(time.perf_counter() - start)
            start = time.perf_counter()
            game.redo("blue")
            redo.append(time.perf_counter() - start)
        medians[size] = (statistics.median(undo), statistics.median(redo))
        # a game keeps one state in EVERY (core.history): an undo folds up to EVERY - 1 steps
        # again, as many as lie since the last kept state; so also undo 24 steps in a row,
        # over every position, and redo them
        walk = []
        for _ in range(24):
            start = time.perf_counter()
            game.undo("red")
            walk.append(time.perf_counter() - start)
        for _ in range(24):
            game.redo("blue")
        walks[size] = statistics.median(walk)
        out.append(f"  at {at:>7,} events: undo {medians[size][0] * 1e6:6.1f} us, "
                   f"redo {medians[size][1] * 1e6:6.1f} us;  24 undos in a row: median "
                   f"{walks[size] * 1e6:.1f} us, worst {max(walk) * 1e6:.1f} us")
    small, large = medians[sizes[0]], medians[sizes[-1]]
    # the one step undone 300 times costs what its place since the last kept state costs
    # (0 to 7 steps folded again), which differs by size; the undos in a row cover every place
    out.append(f"  largest / smallest: undos in a row {walks[sizes[-1]] / walks[sizes[0]]:.2f}x, "
               f"redo {large[1] / small[1]:.2f}x  (target <= 1.5x);  the one step undone "
               f"{large[0] / small[0]:.2f}x")


def bench_appends(out: list[str], steps: int) -> None:
    store = MemoryStore()
    game = Game.new(scenario(), store=store)
    play_until(game, 400, random.Random(3), undo_rate=0.0)
    step_records = [r for r in game.records if r.step > 0]
    by_step: dict[int, list] = {}
    for r in step_records:
        by_step.setdefault(r.step, []).append(r)
    sample = list(by_step.values())[:steps]
    sample = (sample * (steps // len(sample) + 1))[:steps]
    per_step = sum(len(s) for s in sample) / len(sample)
    out.append(f"durable appends, fsync per step ({steps} steps of {per_step:.1f} events; "
               f"medians of {APPEND_ROUNDS} interleaved rounds, their range)")
    # fsync times swing with the disk: five interleaved rounds, each store beside its floor
    times: dict[str, list[float]] = {"raw file": [], "log file": [], "raw sql": [], "sql": []}
    for k in range(APPEND_ROUNDS):
        with tempfile.TemporaryDirectory() as tmp:
            tmp_path = Path(tmp)
            times["raw file"].append(_raw_file(tmp_path / f"raw{k}.bin", sample))
            times["log file"].append(_store_appends(LogFileStore(tmp_path / "logs"), sample))
            times["raw sql"].append(_raw_sqlite(tmp_path / f"raw{k}.db", sample))
            times["sql"].append(_store_appends(SqliteStore(tmp_path / "s.db"), sample))
    med = {k: statistics.median(v) for k, v in times.items()}

    def rate(k: str) -> str:
        return (f"{steps / med[k]:9,.0f} steps/s ({steps / max(times[k]):,.0f}-"
                f"{steps / min(times[k]):,.0f})")

    out.append(f"  raw file append + fsync: {rate('raw file')}")
    out.append(f"  LogFileStore:            {rate('log file')}   "
               f"ratio {med['log file'] / med['raw file']:.2f}x  (target <= 2x)")
    out.append(f"  raw SQLite insert (WAL, synchronous=FULL): {rate('raw sql')}")
    out.append(f"  SqliteStore:                               {rate('sql')}   "
               f"ratio {med['sql'] / med['raw sql']:.2f}x  (target <= 2x)")


def _raw_file(path: Path, sample: list) -> float:
    from regiment.store.codec import encode_record

    blobs = []
    for step in sample:
        parts = []
        for i, r in enumerate(step):
            payload = encode_record(r)
            flag = END if i == len(step) - 1 else 0
            parts += [HEADER.pack(len(payload) | flag, crc32c(payload)), payload]
        blobs.append(b"".join(parts))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    start = time.perf_counter()
    for blob in blobs:
        os.write(fd, blob)
        os.fsync(fd)
    elapsed = time.perf_counter() - start
    os.close(fd)
    return elapsed


def _raw_sqlite(path: Path, sample: list) -> float:
    from regiment.store.codec import encode_record

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE e (g TEXT, seq INTEGER, step INTEGER, type TEXT, record BLOB, "
               "hash BLOB, PRIMARY KEY (g, seq)) WITHOUT ROWID")
    rows = [[("g", r.seq, r.step, r.type, encode_record(r), r.hash) for r in s] for s in sample]
    seq = 0
    start = time.perf_counter()
    for step in rows:
        db.execute("BEGIN IMMEDIATE")
        db.executemany("INSERT INTO e VALUES (?, ?, ?, ?, ?, ?)",
                       [(g, seq + i, st, t, b, h) for i, (g, _, st, t, b, h) in enumerate(step)])
        db.execute("COMMIT")
        seq += len(step)
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def _store_appends(store: object, sample: list) -> float:
    """Time appends after a first one, so that creating the game's file is not counted."""
    from regiment.core.record import Draft

    first = sample[0][0]
    store.append("bench", [Draft(seq=0, step=0, type=first.type, v=first.v,  # type: ignore[attr-defined]
                                 data=first.data, at=first.at)], 0)
    seq = 1
    start = time.perf_counter()
    for n, step in enumerate(sample, 1):
        drafts = [Draft(seq=seq + i, step=n, type=r.type, v=r.v, data=r.data, at=r.at)
                  for i, r in enumerate(step)]
        store.append("bench", drafts, seq)  # type: ignore[attr-defined]
        seq += len(drafts)
    elapsed = time.perf_counter() - start
    store.close()  # type: ignore[attr-defined]
    return elapsed


def bench_sizes(out: list[str], game: Game, store: MemoryStore) -> None:
    frames = store.frames(game.game_id)
    total = sum(len(f) for f in frames)
    with tempfile.TemporaryDirectory() as tmp:
        db = SqliteStore(Path(tmp) / "s.db", durable=False)
        logs = LogFileStore(Path(tmp) / "logs", fsync=False)
        for s in (db, logs):
            _copy_log(s, "size", game.records)
        logs.close()
        db.close()
        file_size = (Path(tmp) / "logs" / "size.rlog").stat().st_size
        db_size = sum(p.stat().st_size for p in Path(tmp).glob("s.db*"))
    out.append("bytes per event")
    out.append(f"  encoded record (msgpack, with prev and hash): {total / len(frames):6.1f}")
    out.append(f"  log file (with frame headers):                 {file_size / len(frames):6.1f}")
    out.append(f"  SQLite file (with index and WAL):              {db_size / len(frames):6.1f}")


def bench_create(out: list[str]) -> None:
    sc = scenario()
    times = []
    for _ in range(300):
        start = time.perf_counter()
        Game.new(sc, store=MemoryStore())
        times.append(time.perf_counter() - start)
    floor = best(lambda: [dict(sc) for _ in range(300)]) / 300
    out.append("creating a game (memory store, scenario already parsed; median of 300)")
    out.append(f"  Game.new: {statistics.median(times) * 1e3:.3f} ms  (target < 1 ms); "
               f"a dict copy of the scenario: {floor * 1e6:.2f} us")


def bench_try(out: list[str], rounds: int) -> None:
    """What a "what if" costs (``Game.preview``, the ``try`` query) against the step it tries:
    each bot command of a game of the border patrol tried, then made, interleaved, the median
    of each over the game, ``rounds`` games."""
    from regiment.core.scenario import load_scenario
    from regiment.tools.bot import choose

    battle = load_scenario(Path(__file__).resolve().parent.parent / "examples" /
                           "border_patrol.toml")
    ratios, tries, steps = [], [], []
    for _ in range(rounds):
        game = Game.new(battle, store=MemoryStore())
        tried, made = [], []
        while game.pending.kind != "over":
            command = choose(game)
            start = time.perf_counter()
            game.preview(command)
            tried.append(time.perf_counter() - start)
            start = time.perf_counter()
            game.submit(command)
            made.append(time.perf_counter() - start)
        tries.append(statistics.median(tried))
        steps.append(statistics.median(made))
        ratios.append(tries[-1] / steps[-1])
    out.append(f"a try (Game.preview: the events up to any roll, the board after), {rounds} "
               "games of the border patrol, each bot command tried then made")
    out.append(f"  try {statistics.median(tries) * 1e3:.3f} ms, the step it tries "
               f"{statistics.median(steps) * 1e3:.3f} ms: {statistics.median(ratios):.2f}x "
               f"({min(ratios):.2f}-{max(ratios):.2f})")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller sizes (a smoke test)")
    args = p.parse_args(argv)
    events = 10_000 if args.quick else 100_000
    sizes = (100, 1_000, 10_000) if args.quick else (100, 10_000, 100_000)
    out: list[str] = [f"regiment bench - Python {sys.version.split()[0]}, {os.cpu_count()} cores"]
    told = 0
    # Each section starts from a collected heap: what one leaves alive must not slow the next.
    for section in (lambda: bench_replay(out, events), lambda: bench_undo(out, sizes),
                    lambda: bench_appends(out, 100 if args.quick else 400),
                    lambda: bench_create(out),
                    lambda: bench_try(out, 2 if args.quick else 5),
                    lambda: bench_learning(out, 3 if args.quick else 7),
                    lambda: bench_combats(out, 100 if args.quick else 1_000),
                    lambda: bench_multiple(out, 50 if args.quick else 200),
                    lambda: bench_skirmish(out, 50 if args.quick else 200),
                    lambda: bench_big(out, 2 if args.quick else 6),
                    lambda: bench_replay_cli(out, 10_000 if args.quick else 50_000,
                                             scenario(turns=2_600), play_until),
                    lambda: bench_startup(out, 5 if args.quick else 15),
                    lambda: bench_memory(out, scenario(turns=100), play_until),
                    lambda: bench_serve(out, 300 if args.quick else 2_000),
                    lambda: bench_simulate(out, 100 if args.quick else 600),
                    lambda: bench_hosted(out, *((40, 20, 1) if args.quick else (200, 40, 3))),
                    lambda: bench_page(out, *((20, 10, 1) if args.quick else (100, 40, 3)))):
        gc.collect()
        section()
        # each section's lines as it ends: a run that fails later keeps what it measured
        print("\n".join(out[told:]), flush=True)
        told = len(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
