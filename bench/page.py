"""The play page's latency (issue 57 item 5): from a command confirmed on the page to the
board redrawn after its step, in headless Chromium, over ``regiment server`` on SQLite while
the load client plays 100 games at once over their own WebSockets; the same clicks on an idle
server are the floor, measured in the same run, interleaved round by round.

The page measures itself (``window.regiment.latencies``: ``performance.now()`` when the
command is sent, and once the board the step leads to is drawn). Each round the page plays a
fresh game of the border patrol, every seat on it, choosing among the listed options with a
seeded generator."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hosted import SCENARIO, choose  # noqa: E402

from tests.servers import Server  # noqa: E402
from tests.test_html import browser  # noqa: E402
from tests.test_play_page import click, wait_ready  # noqa: E402


async def busy_seat(url: str, who: str, rng: random.Random, stop: threading.Event) -> None:
    """A seat of the load: plays a random legal command whenever it is its turn."""
    async with connect(url, max_size=2**24) as ws:
        msg = json.loads(await ws.recv())
        while not stop.is_set():
            p = msg.get("pending") or {}
            if p.get("kind") == "over":
                return
            if p.get("kind") == "decision" and p.get("player") == who:
                command = choose(p, rng)
                if command is not None:
                    await ws.send(json.dumps(command))
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            error = msg.get("error") or {}
            if error.get("code") == "rate_limited":
                await asyncio.sleep(float(error.get("retry_after") or 0.1))


def load(server: Server, games: int, stop: threading.Event, started: threading.Event) -> None:
    async def run() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as client:
            # the host's seed: these seats play, they do not commit or reveal (shared dice
            # are the page's own game's, whose page commits and reveals for its seats)
            made = [(await client.post("/games?dice=seeded", content=SCENARIO.encode())).json()
                    for _ in range(games)]
        seats = [busy_seat(f"{server.ws}/games/{m['id']}/ws?token={token}", who,
                           random.Random(f"{i}{who}"), stop)
                 for i, m in enumerate(made) for who, token in m["seats"].items()]
        started.set()
        await asyncio.gather(*seats, return_exceptions=True)
    asyncio.run(run())


def clicks(d: Any, server: Server, n: int, rng: random.Random) -> list[float]:
    """``n`` commands confirmed on the page, at a fresh game's table; their latencies (ms)."""
    made = httpx.post(f"{server.http}/games?battle=border_patrol", timeout=30).json()
    seats = "&".join(f"seat={t}" for t in made["seats"].values())
    d.get("about:blank")   # a new address that differs only after "#" would not load
    d.get(f"{server.http}/play#game={made['id']}&{seats}")
    # the page commits to its seats' dice as it joins: those steps first, so that none comes
    # between a decision read and its option clicked
    deadline = time.monotonic() + 60
    while not d.execute_script("const c = window.regiment && window.regiment.conns; return "
                               "!!c && c.length > 0 && c.every((x) => x.committed)"):
        if time.monotonic() > deadline:
            raise RuntimeError("the page did not commit to its dice")
        time.sleep(0.05)
    after = wait_ready(d, -1, timeout=60)["records"] - 1
    for _ in range(n):
        s = wait_ready(d, after, timeout=60)   # the step before has come back
        after = s["records"]
        if s["pending"]["kind"] != "decision":
            break
        options = [i for i, c in enumerate(s["legal"]) if c["cmd"] not in ("undo", "redo")]
        if not options:
            raise RuntimeError(f"{d.find_element('id', 'status').text}: {s}")
        click(d, f'#decision button[data-option="{rng.choice(options)}"]', timeout=30)
        click(d, "#confirm", timeout=30)
    else:   # the last command's step back (a game over has none to wait for)
        wait_ready(d, after, timeout=60)
    return [float(x) for x in d.execute_script("return window.regiment.latencies")]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_page(out: list[str], games: int = 100, n: int = 40, rounds: int = 3) -> None:
    out.append(f"the play page: a command confirmed to the board redrawn, headless Chromium, "
               f"regiment server on SQLite, {n} commands a round, {rounds} interleaved rounds")
    idle: list[float] = []
    busy: list[float] = []
    rng = random.Random(57)
    with tempfile.TemporaryDirectory() as tmp, \
            Server(str(Path(tmp) / "page.db"), Path(tmp) / "page.key") as server:
        d = browser()
        try:
            for _ in range(rounds):
                idle += clicks(d, server, n, rng)
                stop, started = threading.Event(), threading.Event()
                loader = threading.Thread(target=load, args=(server, games, stop, started))
                loader.start()
                started.wait(120)
                time.sleep(1.0)   # every seat joined and playing
                busy += clicks(d, server, n, rng)
                stop.set()
                loader.join(60)
        finally:
            d.quit()
    p50, p99 = statistics.median(busy), pct(busy, 0.99)
    f50, f99 = statistics.median(idle), pct(idle, 0.99)
    out.append(f"  floor, an idle server: p50 {f50:.1f} ms, p99 {f99:.1f} ms ({len(idle)} "
               f"commands)")
    out.append(f"  with {games} games played at once by the load client: p50 {p50:.1f} ms, "
               f"p99 {p99:.1f} ms ({len(busy)} commands);  {p50 / f50:.2f}x the floor at p50,"
               f" {p99 / f99:.2f}x at p99")


if __name__ == "__main__":
    lines: list[str] = []
    bench_page(lines, *((20, 10, 1) if "--quick" in sys.argv else (100, 40, 3)))
    print("\n".join(lines))
