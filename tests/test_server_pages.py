"""The replay page of a long game, asked for while another game is played on the same server
(issue 55 item 3): the page, which verifies the whole log, is built off the event loop, once
for its head; another game's steps go on meanwhile."""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from regiment.core.game import Game
from regiment.store import open_store

from .servers import Server, dumps
from .test_server import SCENARIO, recv


def bloat(store_path: str, game_id: str, pairs: int) -> int:
    """Grow a game by ``pairs`` undo-redo pairs (two records each, as a seat could send them
    all game long); its record count."""
    store = open_store(store_path)
    try:
        game = Game.load(game_id, store)
        game.submit({"cmd": "end_charges", "by": "red"})
        for _ in range(pairs):
            game.undo("red")
            game.redo("red")
        return game.version
    finally:
        store.close()


def round_trips(ws: Any, n: int) -> list[float]:
    """Seconds from each command sent to its answer: undo and redo, one after the other."""
    out = []
    for i in range(n):
        start = time.perf_counter()
        ws.send(dumps({"cmd": "undo" if i % 2 == 0 else "redo", "by": "red"}))
        message = recv(ws)
        assert "error" not in message, message
        out.append(time.perf_counter() - start)
        time.sleep(0.06)   # (under the seat's rate)
    return out


def test_server_limits_a_long_games_page_does_not_stall_another_game(tmp_path: Path):
    store, key = str(tmp_path / "games.db"), tmp_path / "server.key"
    with Server(store, key) as s:
        big, other = s.create(SCENARIO), s.create(SCENARIO)
    records = bloat(store, big["id"], 12_000)
    assert records > 24_000
    with Server(store, key) as s, connect(
            f"{s.ws}/games/{other['id']}/ws?token={other['seats']['red']}") as ws:
        recv(ws)
        ws.send(dumps({"cmd": "end_charges", "by": "red"}))
        recv(ws)
        quiet = round_trips(ws, 20)
        took: list[float] = []

        def spectate() -> None:
            start = time.perf_counter()
            r = httpx.get(f"{s.http}{big['spectate']}", timeout=120)
            assert r.status_code == 200 and "verified" in r.text.lower()
            took.append(time.perf_counter() - start)

        reader = threading.Thread(target=spectate)
        reader.start()
        time.sleep(0.3)   # the page is being built: its log loaded, then verified
        busy = round_trips(ws, 30)
        reader.join()
        again = time.perf_counter()
        spectate()   # the same head: the page built already
        cached = time.perf_counter() - again
        assert s.tracebacks() == 0
    print(f"page of {records} records built in {took[0]:.2f} s, {cached:.3f} s again; another "
          f"game's step: {statistics.median(quiet) * 1000:.1f} ms quiet, median "
          f"{statistics.median(busy) * 1000:.1f} ms and worst {max(busy) * 1000:.1f} ms "
          "meanwhile")
    assert took[0] > 0.5                          # a page worth the care
    assert max(busy) < 0.25, busy                 # no step waited for it
    assert cached < took[0] / 3
