"""``make load``: 200 concurrent games from simulated clients against two server processes on
one PostgreSQL; one process is killed with SIGKILL during the run and started again.

Each game has two seats, each its own WebSocket, the seats of a game on different processes
(so every step also crosses LISTEN/NOTIFY). A seat plays a random legal command when the
decision is its own, and keeps the signed receipt of every step it is told of. A seat whose
process dies reconnects to the other one, or to the same one once it is back, asking for the
records after the last it saw, and plays on. At the end each game's log is fetched, and
verified: its hash chain, every outcome re-derived, every die against the revealed seed, and
every receipt either seat kept (nothing acknowledged may be missing, and no game may fork).

Prints steps/s and the latency of a step (command sent to its answer), p50 and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import regiment.phases  # noqa: F401 - the rulebooks verify re-derives outcomes with
from regiment.tools.signing import read_receipts
from regiment.tools.source import read_export
from regiment.tools.verify import verify

from .postgres import TempPostgres
from .servers import Server, dumps

HERE = Path(__file__).resolve().parent
SCENARIO = (HERE.parent / "examples" / "ford_clash.toml").read_text()


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.steps = 0
        self.reconnects = 0
        self.refused: dict[str, int] = {}
        self.killed_at: int | None = None


async def seat_loop(servers: list[Server], prefer: int, made: dict[str, Any], who: str,
                    rng: random.Random, stats: Stats, receipts: list[dict[str, Any]],
                    done: asyncio.Event) -> dict[str, Any]:
    """One seat: connect, play its decisions, keep receipts; reconnect when its process
    dies. Returns the last message it was sent."""
    seen, last, attempt = 0, {}, 0
    token = made["seats"][who]
    while not done.is_set():
        server = servers[(prefer + attempt) % len(servers)]
        url = f"{server.ws}/games/{made['id']}/ws?token={token}&after={seen}"
        try:
            async with connect(url, open_timeout=5, max_size=2**24) as ws:
                attempt = 0
                sent_at: float | None = None
                async for text in ws:
                    msg = json.loads(text)
                    if "error" in msg:
                        kind = msg["error"].get("rule") or msg["error"]["type"]
                        stats.refused[kind] = stats.refused.get(kind, 0) + 1
                        if "pending" not in msg:
                            break
                        sent_at = None
                    else:
                        seen += len(msg["events"])
                        receipts.append(msg["receipt"])
                        if sent_at is not None and msg["events"]:
                            stats.latencies.append(time.perf_counter() - sent_at)
                            stats.steps += 1
                            sent_at = None
                    last = msg
                    pending = msg["pending"]
                    if pending["kind"] == "over":
                        done.set()
                        return last
                    if pending["kind"] == "decision" and pending["player"] == who \
                            and sent_at is None:
                        legal = [c for c in pending["legal"] if c["cmd"] not in ("undo", "redo")]
                        await ws.send(dumps(rng.choice(legal)))
                        sent_at = time.perf_counter()
        except (ConnectionClosed, OSError, TimeoutError):
            pass   # its process died (or the network): reconnect, to the other one first
        if done.is_set():
            break
        stats.reconnects += 1
        attempt += 1
        await asyncio.sleep(0.2)
    return last


async def one_game(servers: list[Server], index: int, made: dict[str, Any], stats: Stats,
                   results: list[dict[str, Any]]) -> None:
    rng = random.Random(index)
    done = asyncio.Event()
    kept: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    ends = await asyncio.gather(
        seat_loop(servers, index % 2, made, "red", random.Random(rng.random()), stats,
                  kept["red"], done),
        seat_loop(servers, (index + 1) % 2, made, "blue", random.Random(rng.random()), stats,
                  kept["blue"], done))
    seed = next((e.get("seed") for e in ends if e.get("seed")), None)
    results.append({"made": made, "receipts": kept, "seed": seed})


async def killer(servers: list[Server], stats: Stats, at_steps: int) -> None:
    """SIGKILL the first process once ``at_steps`` steps are made, then start it again."""
    while stats.steps < at_steps:
        await asyncio.sleep(0.05)
    servers[0].kill()
    stats.killed_at = stats.steps
    await asyncio.sleep(1.0)
    await asyncio.to_thread(servers[0].start)


def check(server: Server, result: dict[str, Any], work: Path) -> str | None:
    """Why a game does not verify (None: it does)."""
    made = result["made"]
    token = made["seats"]["red"]
    log = work / f"{made['id']}.jsonl"
    log.write_text(httpx.get(f"{server.http}/games/{made['id']}/log?token={token}",
                             timeout=60).text)
    records = read_export(log)
    if result["seed"] is None:
        return "the game did not end, so its seed was not revealed"
    receipts = []
    for who, kept in result["receipts"].items():
        lines = [json.dumps(r) for r in kept]
        receipts += read_receipts(lines, f"{who}'s receipts", made["id"], None)
    try:
        verify(records, bytes.fromhex(result["seed"]), receipts)
    except Exception as exc:   # TamperedLog, CorruptLog: said in the report
        return str(exc)
    return None


async def run(games: int) -> int:
    with TempPostgres() as pg, tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        url = pg.fresh()
        key = work / "server.key"
        servers = [Server(url, key).start()]
        servers.append(Server(url, key).start())
        stats, results = Stats(), []
        try:
            made = [servers[i % 2].create(SCENARIO) for i in range(games)]   # then all at once
            start = time.perf_counter()
            kill = asyncio.create_task(killer(servers, stats, at_steps=games * 15))
            await asyncio.gather(*(one_game(servers, i, made[i], stats, results)
                                   for i in range(games)))
            took = time.perf_counter() - start
            if stats.killed_at is None:
                kill.cancel()
            else:
                await kill   # started again before the logs are read
            failures = [(r["made"]["id"], why) for r in results
                        if (why := check(servers[1], r, work)) is not None]
        finally:
            for s in servers:
                s.stop()
            for s in servers:
                if s.errors.strip():
                    print(f"server on port {s.port} said:\n{s.errors[-3000:]}", file=sys.stderr)
    lat = sorted(stats.latencies)
    p = (lambda q: lat[min(len(lat) - 1, int(len(lat) * q))] * 1e3) if lat else (lambda q: 0.0)
    print(f"regiment load: {games} games, {stats.steps} steps in {took:.1f} s: "
          f"{stats.steps / took:,.0f} steps/s; a step's latency p50 {p(0.5):.1f} ms, p99 "
          f"{p(0.99):.1f} ms (median of all {statistics.median(lat) * 1e3:.1f} ms)")
    kills = ("no process killed (the games ended first)" if stats.killed_at is None else
             f"one of the two server processes killed with SIGKILL after {stats.killed_at} "
             "steps and started again")
    print(f"  {kills}; {stats.reconnects} reconnections, each carrying on from the last "
          "record its seat had seen")
    print(f"  refused on the way: {stats.refused or 'nothing'}")
    receipts = sum(len(k) for r in results for k in r["receipts"].values())
    print(f"  verified: {len(results) - len(failures)} of {games} games (hash chain, every "
          f"outcome re-derived, every die against its revealed seed), with {receipts:,} "
          f"signed receipts")
    for game_id, why in failures[:10]:
        print(f"  FAILED {game_id}: {why}")
    return 1 if failures or len(results) != games or stats.killed_at is None else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make load")
    parser.add_argument("games", nargs="?", type=int, default=200)
    args = parser.parse_args(argv)
    return asyncio.run(run(args.games))


if __name__ == "__main__":
    sys.exit(main())
