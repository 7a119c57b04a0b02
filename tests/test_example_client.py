"""``examples/client.py``, the short client the README runs against a game server: its pace
stays within what the server takes (SERVER.LIMITS), and a connection the server drops ends it
with the reason, never a hang. Its whole games are played in tests/test_server_limits.py."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
import types
from pathlib import Path

import httpx
from hypothesis import example, given, settings
from hypothesis import strategies as st

from regiment.tools.server.seats import Seat as ServerSeat

from .conftest import EXAMPLES
from .servers import Server

CLIENT = Path(__file__).resolve().parent.parent / "examples" / "client.py"


def load_client() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("example_client", CLIENT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Clock:
    """Time as the client sees it: moved on by its waits and by the gaps between its sends."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)


class Socket:
    def __init__(self, clock: Clock) -> None:
        self.clock, self.sent = clock, []

    def send(self, text: str) -> None:
        self.sent.append(self.clock.now)


CLIENT_MODULE = load_client()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.0, 0.0, 0.001, 0.02, 0.05, 0.3, 2.0]),
                min_size=60, max_size=400))
@example([0.0] * 200)   # a seat that passes phase after phase, answered at once
def test_server_limits_the_example_client_sends_within_the_servers_rate(gaps):
    """Whatever the gaps between the moves it makes, every message the example client sends
    is one the server's bucket for its seat takes (20 a second, 40 at once). 0.16.2's client
    counted each wait twice and sent at 32 a second once its burst was spent: the server
    refused it and closed it as flooding (the CI run of 2026-12-07, black_fire_ford)."""
    clock = Clock()
    client = CLIENT_MODULE
    client.time = types.SimpleNamespace(monotonic=clock.monotonic, sleep=clock.sleep)
    try:
        seat = client.Seat("g", "red", "ws://unused")
        seat.ws = Socket(clock)
        for gap in gaps:
            clock.now += gap
            seat.send({"cmd": "pass"})
    finally:
        client.time = time
    server = ServerSeat(at=seat.ws.sent[0] - 1e-9)
    assert all(server.take(at) for at in seat.ws.sent)


def test_the_example_client_ends_saying_why_when_its_server_goes(tmp_path):
    """The server killed while the client plays: each seat's thread ends, and the client exits
    at once, non-zero, saying its connection was closed; it hung for ever when one seat's
    connection was closed (0.16.2)."""
    battle = EXAMPLES / "black_fire_ford.toml"
    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        client = subprocess.Popen([sys.executable, str(CLIENT), s.http, str(battle)],
                                  cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        assert client.stdout is not None
        first = client.stdout.readline()   # game <id>; spectators: <address with a token>
        assert first.startswith("game "), first
        game_id, token = first.split()[1].rstrip(";"), first.strip().rsplit("token=", 1)[1]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:   # killed once both seats play
            log = httpx.get(f"{s.http}/games/{game_id}/log?token={token}", timeout=10)
            if log.status_code == 200 and log.text.count("\n") > 20:
                break
            time.sleep(0.02)
        s.kill()
        started = time.monotonic()
        out, err = client.communicate(timeout=60)
    assert time.monotonic() - started < 30
    assert client.returncode != 0, out
    assert "Traceback" not in err and "the connection ended" in err, err


def test_the_example_client_stops_every_seat_when_one_is_refused(tmp_path):
    """One seat sends a command the server refuses (not a rate): that seat says why, and the
    other stops at once rather than wait for ever for a game that cannot go on (0.16.2: the
    other seat's thread never ended)."""
    import threading

    battle = (EXAMPLES / "black_fire_ford.toml").read_bytes()
    client = load_client()
    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        game = httpx.post(f"{s.http}/games?undo=consent", content=battle, timeout=30).json()
        url = s.ws + f"/games/{game['id']}/ws?token="
        seats = [client.Seat(game["id"], who, url + token)
                 for who, token in game["seats"].items()]
        wrong = seats[0]
        wrong.act = lambda message, pending: wrong.send({"cmd": "fly", "by": wrong.me})
        threads = [threading.Thread(target=seat.play, args=(seats,), daemon=True)
                   for seat in seats]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert not any(thread.is_alive() for thread in threads)
        assert wrong.failed.startswith("refused: "), wrong.failed
        assert seats[1].failed == f"stopped: {wrong.me} failed", seats[1].failed
        assert s.tracebacks() == 0
