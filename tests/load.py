"""``make load``: 200 concurrent games from simulated clients against two server processes on
one PostgreSQL, under three faults at once:

- one process is killed with SIGKILL a quarter of the way through and started again;
- in a third of the games each seat sends every command through both processes at the same
  moment (racing seats): one process wins each race, and the other must keep the
  connection it was sent on and tell it every step (SERVER.RACE);
- the database is restarted (``pg_ctl -m immediate``, down for a second) two thirds of the way
  through: commands meanwhile are answered that it cannot be reached, and play goes on when it
  is back (STORE.OUTAGE).

Each game has two seats, each its own WebSocket, the seats of a game on different processes
(so every step also crosses LISTEN/NOTIFY). A seat plays a random legal command when the
decision is its own, and keeps the signed receipt of every step it is told of. A seat whose
process dies reconnects to the other one, or to the same one once it is back, asking for the
records after the last it saw, and plays on. At the end each game's log is fetched and
verified: its hash chain, every outcome re-derived, every shared die made again from the
seats' and the server's reveals (each seat commits, reveals and signs as a player's program
does), and every receipt either seat kept, with its own signature (nothing acknowledged may
be missing, and no game may fork); every racing seat's second connection must have been told
every record; and neither server may have written a traceback.

Prints steps/s and the latency of a step (command sent to its answer), p50 and p99, and of a
roll (called to made, both seats' reveals between), then a row
a fault: games, steps, what happened, lost, watchers behind, tracebacks.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

import regiment.phases  # noqa: F401 - the rulebooks verify re-derives outcomes with
from regiment.tools.server.signing import read_receipts
from regiment.tools.source import read_export
from regiment.tools.verify import verify

from .postgres import TempPostgres
from .servers import Dealer, Server, dumps

HERE = Path(__file__).resolve().parent
SCENARIO = (HERE.parent / "examples" / "ford_clash.toml").read_text()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    rolls: list[float] = field(default_factory=list)   # a roll called to made (reveals)
    steps: int = 0
    reconnects: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    killed_at: int | None = None
    outage_at: int | None = None
    outage_refused: int = 0        # commands answered StoreUnavailable
    outage_recovered: float = 0.0  # seconds from the database back to the next step made
    back_at: float = 0.0


class Follower:
    """A racing seat's second connection, on the other process: every command its seat sends
    goes through it too, and it must be told every record of the game."""

    def __init__(self, server: Server, made: dict[str, Any], who: str) -> None:
        self.server, self.made, self.who = server, made, who
        self.records = 0
        self.ws: ClientConnection | None = None
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        token = self.made["seats"][self.who]
        while True:
            url = (f"{self.server.ws}/games/{self.made['id']}/ws?token={token}"
                   f"&after={self.records}")
            try:
                async with connect(url, open_timeout=5, max_size=2**24) as ws:
                    self.ws = ws
                    async for text in ws:
                        self.records += len(json.loads(text).get("events", []))
            except (ConnectionClosed, OSError, TimeoutError):
                pass
            self.ws = None
            await asyncio.sleep(0.2)

    async def send(self, text: str) -> None:
        if self.ws is not None:
            try:
                await self.ws.send(text)
            except ConnectionClosed:
                pass


async def seat_loop(servers: list[Server], prefer: int, made: dict[str, Any], who: str,
                    rng: random.Random, stats: Stats, receipts: list[dict[str, Any]],
                    done: asyncio.Event, follower: Follower | None) -> dict[str, Any]:
    """One seat: connect, play its decisions, keep receipts; reconnect when its process
    dies. Returns the last message it was sent."""
    seen, last, attempt = 0, {}, 0
    token = made["seats"][who]
    dealer = Dealer(made["id"], who)   # the dice are shared: this seat's part of them
    rolled_at: float | None = None
    while not done.is_set():
        server = servers[(prefer + attempt) % len(servers)]
        url = f"{server.ws}/games/{made['id']}/ws?token={token}&after={seen}"
        try:
            async with connect(url, open_timeout=5, max_size=2**24) as ws:
                attempt = 0
                sent_at: float | None = None
                dealer.revealed.clear()   # joined again: what the server held may be gone
                async for text in ws:
                    msg = json.loads(text)
                    arrived = time.perf_counter()
                    if "pending" not in msg and "error" not in msg:
                        continue   # another seat's signature, at the end
                    if "error" in msg:
                        kind = msg["error"].get("rule") or msg["error"]["type"]
                        stats.refused[kind] = stats.refused.get(kind, 0) + 1
                        if kind == "StoreUnavailable":
                            stats.outage_refused += 1
                            await asyncio.sleep(0.3)   # the database is away: try shortly
                        if "pending" not in msg:
                            break
                        sent_at = None
                        # a reveal refused (the database away, a race): sent again now,
                        # where the refusal says a roll still waits for it
                        dealer.revealed.clear()
                    for reply in dealer.replies(msg):
                        if "reveal" in reply and rolled_at is None:
                            rolled_at = arrived
                        await ws.send(dumps(reply))
                    else:
                        seen += len(msg.get("events", ()))
                        if "receipt" in msg:
                            receipts.append(dealer.kept(msg["receipt"]))
                        if rolled_at is not None and any(e["type"] == "DiceRevealed"
                                                         for e in msg.get("events", ())):
                            stats.rolls.append(arrived - rolled_at)
                            rolled_at = None
                        if sent_at is not None and msg.get("events"):
                            stats.latencies.append(time.perf_counter() - sent_at)
                            stats.steps += 1
                            if stats.back_at and not stats.outage_recovered:
                                stats.outage_recovered = time.monotonic() - stats.back_at
                            sent_at = None
                    last = msg
                    pending = msg["pending"]
                    if pending["kind"] == "over":
                        done.set()
                        return last
                    if pending["kind"] == "decision" and pending["player"] == who \
                            and sent_at is None:
                        legal = [c for c in pending["legal"] if c["cmd"] not in ("undo", "redo")]
                        command = dumps(dealer.signed(rng.choice(legal)))
                        if follower is not None:   # both processes at the same moment
                            await asyncio.gather(ws.send(command), follower.send(command))
                        else:
                            await ws.send(command)
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
                   results: list[dict[str, Any]], racing: bool) -> None:
    rng = random.Random(index)
    done = asyncio.Event()
    kept: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    prefer = {"red": index % 2, "blue": (index + 1) % 2}
    followers = {who: Follower(servers[1 - prefer[who]], made, who) for who in kept} \
        if racing else {}
    ends = await asyncio.gather(*(
        seat_loop(servers, prefer[who], made, who, random.Random(rng.random()), stats,
                  kept[who], done, followers.get(who)) for who in kept))
    over = next((e["pending"] for e in ends if e.get("pending", {}).get("kind") == "over"),
                None)
    seed = next((e.get("seed") for e in ends if e.get("seed")), None)   # dice=seeded
    results.append({"made": made, "receipts": kept, "over": over, "seed": seed,
                    "racing": racing,
                    "followers": followers})


async def killer(servers: list[Server], stats: Stats, at_steps: int) -> None:
    """SIGKILL the first process once ``at_steps`` steps are made, then start it again."""
    while stats.steps < at_steps:
        await asyncio.sleep(0.05)
    servers[0].kill()
    stats.killed_at = stats.steps
    await asyncio.sleep(1.0)
    await asyncio.to_thread(servers[0].start)


async def outage(pg: TempPostgres, stats: Stats, at_steps: int,
                 after: asyncio.Task[None]) -> None:
    """Crash and restart the database once ``at_steps`` steps are made (and the killed
    process is back: a server process does not start without its database)."""
    while stats.steps < at_steps or not after.done():
        await asyncio.sleep(0.05)
    stats.outage_at = stats.steps
    await asyncio.to_thread(pg.restart, 1.0)
    stats.back_at = time.monotonic()


def check(server: Server, result: dict[str, Any], work: Path) -> tuple[str | None, int]:
    """Why a game does not verify (None: it does), and how many records its racing seats'
    second connections were not told."""
    made = result["made"]
    token = made["seats"]["red"]
    log = work / f"{made['id']}.jsonl"
    log.write_text(httpx.get(f"{server.http}/games/{made['id']}/log?token={token}",
                             timeout=60).text)
    records = read_export(log)
    behind = sum(max(0, len(records) - f.records) for f in result["followers"].values())
    if not result["over"]:
        return "the game did not end", behind
    receipts = []
    for who, kept in result["receipts"].items():
        lines = [json.dumps(r) for r in kept]
        receipts += read_receipts(lines, f"{who}'s receipts", made["id"], None)
    try:
        # shared dice: every die made again, no secret; seeded: every die against the seed
        verify(records, bytes.fromhex(result["seed"]) if result["seed"] else None, receipts)
    except Exception as exc:   # TamperedLog, CorruptLog: said in the report
        return str(exc), behind
    return None, behind


async def settle(results: list[dict[str, Any]], server: Server) -> None:
    """Give the racing seats' second connections a moment to be told the last steps."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        waiting = []
        for r in results:
            if not r["racing"]:
                continue
            state = httpx.get(f"{server.http}/games/{r['made']['id']}?token="
                              f"{r['made']['seats']['red']}", timeout=30).json()
            waiting += [f for f in r["followers"].values() if f.records < state["records"]]
        if not waiting:
            return
        await asyncio.sleep(0.2)


async def run(games: int, dice: str = "shared") -> int:
    with TempPostgres() as pg, tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        url = pg.fresh()
        key = work / "server.key"
        servers = [Server(url, key, verbose=True).start()]
        servers.append(Server(url, key, verbose=True).start())
        stats, results = Stats(), []
        try:
            made = [servers[i % 2].create(SCENARIO, dice=dice) for i in range(games)]
            start = time.perf_counter()
            kill = asyncio.create_task(killer(servers, stats, at_steps=games * 10))
            faults = [kill, asyncio.create_task(outage(pg, stats, games * 25, kill))]
            await asyncio.gather(*(one_game(servers, i, made[i], stats, results,
                                            racing=i % 3 == 2) for i in range(games)))
            took = time.perf_counter() - start
            for task in faults:
                if task.done():
                    await task
                else:
                    task.cancel()
            await settle(results, servers[1])
            checked = [(r, *check(servers[1], r, work)) for r in results]
            for r in results:
                for f in r["followers"].values():
                    f.task.cancel()
        finally:
            for s in servers:
                s.stop()
        races = sum(s.logged("race_lost") for s in servers)
        tracebacks = sum(s.tracebacks() for s in servers)
        for s in servers:
            if s.tracebacks():
                at = s.errors.index("Traceback")
                print(f"server on port {s.port} said:\n{s.errors[at:at + 4000]}",
                      file=sys.stderr)
    return report(games, stats, took, checked, races, tracebacks)


def report(games: int, stats: Stats, took: float, checked: list[Any], races: int,
           tracebacks: int) -> int:
    lat = sorted(stats.latencies)
    p = (lambda q: lat[min(len(lat) - 1, int(len(lat) * q))] * 1e3) if lat else (lambda q: 0.0)
    print(f"regiment load: {games} games, {stats.steps} steps in {took:.1f} s: "
          f"{stats.steps / took:,.0f} steps/s; a step's latency p50 {p(0.5):.1f} ms, p99 "
          f"{p(0.99):.1f} ms (median of all {statistics.median(lat) * 1e3:.1f} ms)")
    rolls = sorted(stats.rolls)
    if rolls:   # shared dice: from the step that calls a roll to the step its reveals make
        print(f"  shared dice: {len(rolls):,} rolls, each from called to made (both seats' "
              f"reveals, sent as each seat's program is told) p50 "
              f"{rolls[len(rolls) // 2] * 1e3:.1f} ms, p99 "
              f"{rolls[min(len(rolls) - 1, int(len(rolls) * 0.99))] * 1e3:.1f} ms")
    receipts = sum(len(k) for r, _, _ in checked for k in r["receipts"].values())
    failures = [(r["made"]["id"], why) for r, why, _ in checked if why is not None]
    racing = [(r, why, behind) for r, why, behind in checked if r["racing"]]

    def lost(rows: list[Any]) -> int:
        return sum(1 for _, why, _ in rows if why is not None)

    dice = "every shared die made again from its reveals" if stats.rolls else \
        "every die against its revealed seed"
    print(f"  verified: {len(checked) - len(failures)} of {games} games (hash chain, every "
          f"outcome re-derived, {dice}), with {receipts:,} signed receipts")
    print(f"  refused on the way: {stats.refused or 'nothing'}")
    endings: dict[str, int] = {}
    for r, _, _ in checked:
        code = ((r["over"] or {}).get("outcome") or {}).get("ending", {}).get("code", "?")
        endings[code] = endings.get(code, 0) + 1
    print(f"  how the games ended: {endings}")
    print()
    print("| fault | games | what happened | games lost | records a watcher missed | "
          "tracebacks |")
    print("|---|---:|---|---:|---:|---:|")
    kill = ("not reached (the games ended first)" if stats.killed_at is None else
            f"killed after {stats.killed_at:,} steps and started again; "
            f"{stats.reconnects} reconnections")
    print(f"| a server process killed with SIGKILL | {games} | {kill} | {lost(checked)} | "
          f"- | {tracebacks} |")
    print(f"| racing seats: every command through both processes at once | {len(racing)} | "
          f"{races} races lost and caught up | {lost(racing)} | "
          f"{sum(b for _, _, b in racing)} | {tracebacks} |")
    down = ("not reached (the games ended first)" if stats.outage_at is None else
            f"restarted after {stats.outage_at:,} steps, down 1 s; {stats.outage_refused} "
            f"commands answered that it cannot be reached; play went on "
            f"{stats.outage_recovered * 1e3:.0f} ms after it was back")
    print(f"| the database restarted (`pg_ctl -m immediate`) | {games} | {down} | "
          f"{lost(checked)} | - | {tracebacks} |")
    for game_id, why in failures[:10]:
        print(f"  FAILED {game_id}: {why}")
    behind = sum(b for _, _, b in racing)
    bad = failures or len(checked) != games or stats.killed_at is None or \
        stats.outage_at is None or races == 0 or behind or tracebacks
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make load")
    parser.add_argument("games", nargs="?", type=int, default=200)
    parser.add_argument("--dice", choices=("shared", "seeded"), default="shared",
                        help="the server's default, shared (each seat commits, reveals and "
                        "signs), or the host's seed alone, to compare")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.games, args.dice))


if __name__ == "__main__":
    sys.exit(main())
