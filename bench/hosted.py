"""Hosted games (issue 29, items 1 and 2): ``regiment server`` as users run it, a child process,
and a load client in this process playing many games at once over real WebSockets.

For each store (SQLite with durable commits; PostgreSQL when it is installed, ``make
postgres``) it prints steps/s, the latency of a step (a command sent to its answer) p50 and
p99, and the server's CPU a step (its process's user and system time over the games, from
``/proc``) against the floor: the CPU of the engine's own live step (``Game.submit`` and the
decision it leads to, ``Game.pending`` with its legal commands, of the same scenario on a
memory store, in this process), measured in the same run; and the time the server's garbage
collector took a step, with its longest pause (``/status``: tools/server/collector.py). Then the
server's memory: what a held game adds (its events told apart) and what a connection adds,
weighed in one more round with the server's Python memory traced (``PYTHONTRACEMALLOC=1``:
``/status`` then collects garbage and reports it), every game held and its seats connected
when weighed, after a warm-up round (modules imported at first use are the process's);
beside it the growth of the resident size in the last timed round, which counts what the
allocator keeps; and whether games nobody watches are let go.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.store import MemoryStore

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import peer  # noqa: E402

from tests.postgres import TempPostgres  # noqa: E402
from tests.servers import Dealer, Server  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
SHARED = "SQLite, durable, shared dice"
SCENARIO = (ROOT / "examples" / "ford_clash.toml").read_text().replace("turns = 3",
                                                                       "turns = 60")


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def resident(pid: int) -> int:
    """A process's resident set, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def choose(pending: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = [c for c in pending.get("legal", ()) if c["cmd"] not in ("undo", "redo")]
    return rng.choice(legal) if legal else None


@dataclass
class Load:
    steps: int = 0
    records: int = 0
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    rolls: list[float] = field(default_factory=list)   # shared dice: called to revealed
    received: int = 0   # the bytes the seats were sent (every message, the frames' text)
    told: list[int] = field(default_factory=list)   # the bytes of each step's message


@dataclass
class Gates:
    """Where the seats wait for each other: all joined, the start, all played (the games
    still held, their connections open, for their memory to be weighed), the release."""

    joined: asyncio.Barrier
    start: asyncio.Event
    played: asyncio.Barrier
    release: asyncio.Event


async def seat(url: str, who: str, rng: random.Random, steps: int, load: Load, gates: Gates,
               stop: asyncio.Event, dealer: Dealer | None = None) -> None:
    """One seat of one game: joins, waits for every game to be joined, then plays its own
    decisions until the game has made ``steps`` steps (or is over); keeps its connection
    until every seat has played and it is let go."""
    # as a browser does, each connection offers per-message deflate
    async with connect(url, max_size=2**24) as ws:
        msg = json.loads(await ws.recv())
        await gates.joined.wait()
        await gates.start.wait()
        await play_seat(ws, msg, who, rng, steps, load, stop, dealer)
        await gates.played.wait()
        await gates.release.wait()


async def play_seat(ws: Any, msg: dict[str, Any], who: str, rng: random.Random, steps: int,
                    load: Load, stop: asyncio.Event, dealer: Dealer | None = None) -> None:
    """A seat's decisions; with shared dice (``dealer``) also its commitment, its reveals and
    its signature of the newest head riding along with each command, as a player's program
    sends them."""
    made, sent_at, rolled_at, arrived = 0, None, None, time.perf_counter()
    while True:
        pending = msg["pending"]
        if pending["kind"] == "over" or made >= steps:
            stop.set()
            return
        if dealer is not None:
            for reply in dealer.replies(msg):
                if "reveal" in reply and rolled_at is None:
                    rolled_at = arrived   # the roll waits from the message that called it
                await ws.send(json.dumps(reply, separators=(",", ":")))
        if pending["kind"] == "decision" and pending["player"] == who and sent_at is None:
            command = choose(pending, rng)
            if command is None:
                stop.set()
                return
            if dealer is not None:
                command = dealer.signed(command)
            await ws.send(json.dumps(command, separators=(",", ":")))
            sent_at = time.perf_counter()
        while True:   # the next message that says where the game stands
            recv = asyncio.ensure_future(ws.recv())
            halt = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({recv, halt}, return_when=asyncio.FIRST_COMPLETED)
            if recv not in done:
                recv.cancel()
                return
            halt.cancel()
            text = recv.result()
            msg = json.loads(text)
            arrived = time.perf_counter()
            load.received += len(text)   # (ASCII: msgspec escapes what is not)
            if "pending" in msg or "error" in msg:   # (not another seat's signature, told)
                break
        if "error" in msg:
            load.refused += 1
            sent_at = None
            if "pending" not in msg:
                return
            continue
        made += 1
        load.records += len(msg["events"])
        load.told.append(len(text))
        if rolled_at is not None and any(e["type"] == "DiceRevealed" for e in msg["events"]):
            load.rolls.append(arrived - rolled_at)
            rolled_at = None
        if sent_at is not None:
            load.latencies.append(time.perf_counter() - sent_at)
            load.steps += 1
            sent_at = None


async def play(server: Server, games: int, steps: int, watchers: int, dice: str = "seeded"
               ) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as client:
        made = []
        for _ in range(games):
            r = await client.post(f"/games?dice={dice}", content=SCENARIO.encode())
            r.raise_for_status()
            made.append(r.json())
        assert server.proc is not None
        pid = server.proc.pid
        load = Load()
        gates = Gates(asyncio.Barrier(2 * games + 1), asyncio.Event(),
                      asyncio.Barrier(2 * games + 1), asyncio.Event())
        memory = [await weigh(client, pid)]      # before anyone joined
        tasks = []
        for i, m in enumerate(made):
            stop = asyncio.Event()
            for who, token in m["seats"].items():
                url = f"{server.ws}/games/{m['id']}/ws?token={token}"
                rng = random.Random(f"{i}{who}")
                dealer = Dealer(m["id"], who) if dice == "shared" else None
                tasks.append(asyncio.create_task(seat(url, who, rng, steps, load, gates,
                                                      stop, dealer)))
        await gates.joined.wait()
        (user0, sys0), t0 = cpu_split(pid), time.perf_counter()
        gates.start.set()
        await gates.played.wait()
        wall = time.perf_counter() - t0
        user1, sys1 = cpu_split(pid)
        cpu, system = user1 - user0 + sys1 - sys0, sys1 - sys0
        memory.append(await weigh(client, pid))  # every game held, two connections each
        # what a connection adds: spectators join and hold every game; nothing else moves
        spectators = []
        for m in made[:watchers]:
            token = m["spectate"].split("token=")[1]
            ws = await connect(f"{server.ws}/games/{m['id']}/ws?token={token}",
                               max_size=2**24)
            await ws.recv()
            spectators.append(ws)
        memory.append(await weigh(client, pid))
        gates.release.set()
        await asyncio.gather(*tasks)
        for ws in spectators:
            await ws.close()
        await asyncio.sleep(0.3)
        memory.append(await weigh(client, pid))  # everyone left
    left = memory[-1]
    before, after = memory[0]["gc"], memory[1]["gc"]
    collected = {"seconds": after.get("seconds", 0) - before.get("seconds", 0),
                 "longest": after.get("longest", 0)}
    return {"load": load, "wall": wall, "cpu": cpu, "system": system, "memory": memory,
            "gc": collected,
            "held_after": left["held"], "watchers": len(spectators),
            "per_sync": left["commits"] / left["syncs"] if left["syncs"] else None}


async def weigh(client: httpx.AsyncClient, pid: int) -> dict[str, int]:
    """The server's resident size, and (under PYTHONTRACEMALLOC) its traced Python memory
    and the bytes of the records its held games keep; its games held and commits and syncs
    so far; what its garbage collector did so far (``gc``: tools/server/collector.py)."""
    status = (await client.get("/status")).json()
    return {"rss": resident(pid), "traced": status.get("traced", 0),
            "events": status.get("events_bytes", 0), "held": status["games_held"],
            "commits": status.get("commits", 0), "syncs": status.get("syncs", 0),
            "gc": status.get("gc", {})}


def engine_step(steps: int) -> tuple[float, float]:
    """The floor: CPU seconds of the engine's own live step, the same scenario on a memory
    store, random legal commands (undo and redo left out, as the load client does): the
    command (``Game.submit``) and the decision it leads to (``Game.pending``), which every
    front end shows its player and the server tells its seats. Returns (step, command
    alone)."""
    import tomllib

    done, cpu, submits = 0, 0.0, 0.0
    seed = 0
    while done < steps:
        raw = tomllib.loads(SCENARIO)
        raw["seed"] = f"{seed:064x}"
        seed += 1
        game = Game.new(parse_scenario(raw), store=MemoryStore())
        rng = random.Random(seed)
        pending = game.pending
        for _ in range(60):
            if pending.kind != "decision":
                break
            legal = list(pending.legal)   # its decisions (undo and redo are not among them)
            start = time.process_time()
            game.submit(rng.choice(legal))
            submitted = time.process_time()
            pending = game.pending   # the next decision and its commands, as a player sees them
            if pending.kind == "decision":
                list(pending.legal)
            cpu += time.process_time() - start
            submits += submitted - start
            done += 1
    return cpu / done, submits / done


def bench_hosted(out: list[str], games: int = 200, steps: int = 40, rounds: int = 3) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        key = Path(tmp) / "server.key"
        # each round a store of its own: a new SQLite file, a new PostgreSQL database
        def sqlite(label: str) -> str:
            return str(Path(tmp) / f"{label}.db")

        stores: list[tuple[str, Any]] = [("SQLite, durable", sqlite)]
        pg: TempPostgres | None = None
        try:
            pg = TempPostgres().start()
            new_schema = pg.fresh
            stores.append(("PostgreSQL", lambda label: new_schema()))
        except RuntimeError as exc:
            out.append(f"  (PostgreSQL left out: {exc})")
        # the server's own default (issue 60): each seat commits, reveals and signs
        stores.append((SHARED, sqlite))
        results: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in stores}
        peers: dict[str, list[dict[str, Any]]] = {"in memory": [], "FlatFile": []}
        no_peer = peer.available()
        traced: dict[str, dict[str, Any]] = {}
        floors, commands = [], []
        try:
            for r in range(rounds):   # interleaved: drift hits every store alike
                step, command = engine_step(2_000)
                floors.append(step)
                commands.append(command)
                for name, where in stores:
                    with Server(where(f"s{r}{len(name)}"), key) as server:
                        results[name].append(asyncio.run(play(
                            server, games, steps, games, "shared" if name == SHARED else
                            "seeded")))
                if no_peer is None:   # the peer in the same round (issue 61 item 2)
                    for kind, runs in peers.items():
                        try:
                            runs.append(peer.run(games, steps, flat=kind == "FlatFile"))
                        except RuntimeError as exc:   # (the rest of the bench goes on)
                            out.append(f"  (boardgame.io {kind} left out of round {r + 1}: "
                                       f"{exc})")
            for name, where in stores:   # memory: one more round, its Python heap traced
                if name == SHARED:
                    continue
                with Server(where("traced"), key,
                            env={"PYTHONTRACEMALLOC": "1"}) as server:
                    # warmed first: the modules a game imports when it first needs them and
                    # the bounded geometry caches are the process's, not a game's
                    asyncio.run(play(server, games // 4, steps, 0))
                    traced[name] = asyncio.run(play(server, games, steps, games))
        finally:
            if pg is not None:
                pg.stop()
    floor = statistics.median(floors)
    out.append(f"hosted games: regiment server, one process, {games} games of two seats "
               f"(each its own WebSocket), the load client in another process, {rounds} "
               "interleaved rounds")
    out.append(f"  floor, the engine's own live step, a command and the decision it leads to "
               f"(CPU, memory store): {_spread([f * 1e3 for f in floors], 'ms')}; the command "
               f"alone {statistics.median(commands) * 1e3:.3f} ms")
    rates = {}
    for name, runs in results.items():
        per_step = [r["cpu"] / max(1, r["load"].steps) for r in runs]
        rate = [r["load"].steps / r["wall"] for r in runs]
        p50 = [statistics.median(r["load"].latencies) for r in runs]
        p99 = [_pct(r["load"].latencies, 0.99) for r in runs]
        rates[name] = statistics.median(rate)
        out.append(f"  {name}: {_spread(rate, 'steps/s', 0)};  p50 {_spread(p50, 'ms', 2, 1e3)}"
                   f", p99 {_spread(p99, 'ms', 2, 1e3)} (p99/p50 "
                   f"{statistics.median(p99) / statistics.median(p50):.2f}x, goal <= 2x)")
        out.append(f"    server CPU a step {_spread(per_step, 'ms', 3, 1e3)}: "
                   f"{statistics.median(per_step) / floor:.2f}x the engine's step (goal <= 2.5x)"
                   f" ({statistics.median(r['system'] / r['cpu'] for r in runs):.0%} of it in "
                   f"the kernel);  refused {sum(r['load'].refused for r in runs)}"
                   + (f";  {runs[-1]['per_sync']:.1f} commits a sync" if runs[-1]["per_sync"]
                      else ""))
        gc_step = [r["gc"]["seconds"] / max(1, r["load"].steps) for r in runs]
        out.append(f"    garbage collection {_spread(gc_step, 'us', 1, 1e6)} a step, its longest "
                   f"pause {_spread([r['gc']['longest'] for r in runs], 'ms', 1, 1e3)}")
        out.extend(memory_lines(runs[-1], traced.get(name), games))
    shared_lines(out, results)
    peer_lines(out, results, peers, no_peer)
    rates.pop(SHARED, None)
    if len(rates) == 2:
        names = list(rates)
        out.append(f"  PostgreSQL's steps/s against SQLite's: "
                   f"{rates[names[0]] / rates[names[1]]:.2f}x slower (goal <= 1.5x)")


def peer_lines(out: list[str], results: dict[str, list[dict[str, Any]]],
               peers: dict[str, list[dict[str, Any]]], why: str | None) -> None:
    """boardgame.io's server on the same load, in the same rounds (bench/peer.py), and
    regiment's server CPU a step against its in-memory move."""
    if why is not None:
        out.append(f"  (boardgame.io left out: {why})")
        return
    moved: dict[str, float] = {}
    for kind, runs in peers.items():
        if not runs:
            continue
        per_move = [r["cpu"] / max(1, r["moves"]) for r in runs]
        rate = [r["moves"] / r["wall"] for r in runs]
        p50 = [statistics.median(r["latencies"]) / 1e3 for r in runs]
        p99 = [_pct(r["latencies"], 0.99) / 1e3 for r in runs]
        moved[kind] = statistics.median(per_move)
        sent = [r.get("received", 0) / max(1, r["moves"]) / 2 for r in runs]
        moved[f"{kind} bytes"] = statistics.median(sent)
        stalled = sum(r.get("stalled", 0) for r in runs)
        out.append(f"  boardgame.io 0.50.2, {kind}: {_spread(rate, 'moves/s', 0)};  p50 "
                   f"{_spread(p50, 'ms', 2, 1e3)}, p99 {_spread(p99, 'ms', 2, 1e3)};  server CPU "
                   f"a move {_spread(per_move, 'ms', 3, 1e3)};  {_spread(sent, 'B', 0)} a seat "
                   "a move" + (f";  {stalled} matches stalled (no move back in 15 s), left"
                               if stalled else ""))
    if "in memory" not in moved or "FlatFile" not in moved:
        return
    for name, runs in results.items():
        mine = statistics.median(r["cpu"] / max(1, r["load"].steps) for r in runs)
        # a step is one seat's command: each of the game's two seats is sent its message
        sent = statistics.median(r["load"].received / max(1, r["load"].steps) / 2 for r in runs)
        told = sorted(n for r in runs for n in r["load"].told)
        out.append(f"  regiment ({name}) against boardgame.io in memory: server CPU a step "
                   f"{mine / moved['in memory']:.2f}x its move (goal <= 1.0x); against its "
                   f"FlatFile {mine / moved['FlatFile']:.2f}x;  {sent:,.0f} B a seat a step "
                   f"({sent / max(1.0, moved['in memory bytes']):.2f}x its move's), a step's "
                   f"message {_pct(told, 0.5):,} B (p99 {_pct(told, 0.99):,})")


def shared_lines(out: list[str], results: dict[str, list[dict[str, Any]]]) -> None:
    """Issue 60 item 8: what shared dice cost beside the host's seed, on the same store in
    the same run: the server's CPU a step and a step's latency (each seat's commitment,
    reveals and signatures included), and how long a roll waits for both seats' reveals."""
    shared, seeded = results.get(SHARED), results.get("SQLite, durable")
    if not shared or not seeded:
        return

    def median(runs: list[dict[str, Any]], of: Any) -> float:
        return statistics.median(of(r) for r in runs)

    cpu = [median(runs, lambda r: r["cpu"] / max(1, r["load"].steps)) for runs in (shared,
                                                                                  seeded)]
    p50 = [median(runs, lambda r: statistics.median(r["load"].latencies)) for runs in (
        shared, seeded)]
    p99 = [median(runs, lambda r: _pct(r["load"].latencies, 0.99)) for runs in (shared, seeded)]
    rolls = [x for r in shared for x in r["load"].rolls]
    out.append(f"  shared dice against the host's seed (SQLite): server CPU a step "
               f"{cpu[0] / cpu[1]:.2f}x, a step's p50 {p50[0] / p50[1]:.2f}x, p99 "
               f"{p99[0] / p99[1]:.2f}x; a roll from called to made (both seats' reveals) "
               f"p50 {statistics.median(rolls) * 1e3:.2f} ms, p99 {_pct(rolls, 0.99) * 1e3:.2f}"
               f" ms over {len(rolls):,} rolls")


def memory_lines(timed: dict[str, Any], traced: dict[str, Any] | None,
                 games: int) -> list[str]:
    """A held game and a connection: the Python memory the server traced (its own round),
    the held game's events (its records' bytes) apart; and the resident size's growth."""
    kib = 1024
    out = []
    records = timed["load"].records / games / 2   # each seat is told every record
    if traced is not None:
        before, played, watched, left = traced["memory"]
        conn = (watched["traced"] - played["traced"]) / traced["watchers"]
        game = (played["traced"] - before["traced"]) / games - 2 * conn
        events = played["events"] / games
        # what stays once every game is let go is the process's (the bounded caches the
        # rules' geometry filled), not a held game's
        kept = (left["traced"] - before["traced"]) / games
        out.append(f"    memory (traced): a held game {game / kib:.1f} KiB = {events / kib:.1f}"
                   f" KiB of events ({records:.0f} records) + {kept / kib:.1f} KiB that stay "
                   f"once it is let go (caches) + {(game - events - kept) / kib:.1f} KiB (goal"
                   f" <= 40);  a connection {conn / kib:.1f} KiB (goal <= 20);  once everyone "
                   f"left: {left['held']} games held")
    before, played, watched, _ = (m["rss"] for m in timed["memory"])
    out.append(f"    memory (resident, timed round): {(played - before) / games / kib:.1f} KiB a "
               f"held game with its two connections;  a connection "
               f"{(watched - played) / timed['watchers'] / kib:.1f} KiB;  held once everyone "
               f"left: {timed['held_after']}")
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _spread(values: list[float], unit: str, digits: int = 3, scale: float = 1.0) -> str:
    med, lo, hi = (statistics.median(values) * scale, min(values) * scale, max(values) * scale)
    return f"{med:.{digits}f} {unit} ({lo:.{digits}f}-{hi:.{digits}f})"


if __name__ == "__main__":
    lines: list[str] = []
    bench_hosted(lines, *(int(a) for a in sys.argv[1:4]))
    print("\n".join(lines))
