"""The game server under the faults a hosted game meets, each tried the way it was found:
server processes racing on one game over a real PostgreSQL (SERVER.RACE), the database
restarted under a running server (STORE.OUTAGE), and real clients that dawdle, flood, probe
or hang up (SERVER.LIMITS). Nothing acknowledged is lost, every watcher hears every step, and
nothing a client sends puts a traceback in the server's log."""

from __future__ import annotations

import contextlib
import json
import socket
import statistics
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .postgres import TempPostgres
from .servers import Server, dumps, first_legal
from .test_server import SCENARIO, recv


def join(server: Server, game: str, token: str, after: int = 0) -> Any:
    return connect(f"{server.ws}/games/{game}/ws?token={token}&after={after}")


def spectate_token(made: dict[str, Any]) -> str:
    return parse_qs(urlparse(made["spectate"]).query)["token"][0]


class Conn:
    """A connection and what it has been told: records, the last head, the last pending."""

    def __init__(self, name: str, ws: Any) -> None:
        self.name, self.ws = name, ws
        self.records, self.head, self.last = 0, "", {}

    def take(self, timeout: float) -> bool:
        try:
            msg = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return False
        self.records += len(msg.get("events", []))
        if "head" in msg:
            self.head = msg["head"]
        if "pending" in msg:
            self.last = msg
        return True


def settle(conns: list[Conn], server: Server, made: dict[str, Any], wait: float = 10.0) -> str:
    """Read from every connection until each holds the game's head as the store has it."""
    token = made["seats"]["red"]
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for c in conns:
            while c.take(0.05):
                pass
        state = httpx.get(f"{server.http}/games/{made['id']}?token={token}").json()
        if all(c.head == state["head"] and c.records == state["records"] for c in conns):
            return str(state["head"])
    behind = {c.name: (c.records, c.head[:10]) for c in conns}
    raise AssertionError(f"not every watcher was told every step: {behind}, the store holds "
                         f"{state['records']} records at {state['head'][:10]}")


@pytest.fixture
def racing_pair(postgres: Any, tmp_path: Path) -> Any:
    url = postgres.fresh()
    key = tmp_path / "server.key"
    one = Server(url, key, verbose=True).start()
    two = Server(url, key, verbose=True).start()
    yield one, two
    one.stop()
    two.stop()


def test_server_race_a_process_that_loses_a_race_keeps_every_watcher(racing_pair):
    """Each seat holds a connection to both processes and sends its every command through both
    at once; a spectator watches through the second. Every connection hears every step,
    whichever process made it (the command that lost is refused, or applied if still legal),
    and the game never forks."""
    one, two = racing_pair
    made = one.create(SCENARIO)
    gid, seats = made["id"], made["seats"]
    with contextlib.ExitStack() as stack:
        conns = {f"{who}@{n}": Conn(f"{who}@{n}", stack.enter_context(
            join(server, gid, spectate_token(made) if who == "spectator" else seats[who])))
            for who, n, server in (("red", 1, one), ("red", 2, two), ("blue", 1, one),
                                   ("blue", 2, two), ("spectator", 2, two))}
        every = list(conns.values())
        settle(every, one, made)
        sent = 0
        for _ in range(40):
            command = first_legal(conns["red@1"].last)
            if command is None:
                break
            pair = [conns[f"{command['by']}@1"], conns[f"{command['by']}@2"]]
            text = dumps(command)
            threads = [threading.Thread(target=c.ws.send, args=(text,)) for c in pair]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            sent += 2
            settle(every, one, made)   # fails if a process let go of its watchers
        races = one.logged("race_lost") + two.logged("race_lost")
        assert sent >= 40 and races >= 1, f"{races} races in {sent} commands"
    log = httpx.get(f"{two.http}/games/{gid}/log?token={seats['red']}").text.splitlines()
    records = [json.loads(line) for line in log[:-1]]
    assert [r["seq"] for r in records] == list(range(len(records)))   # one line: no fork
    assert one.tracebacks() == two.tracebacks() == 0


def play_on(conns: dict[str, Conn], steps: int) -> int:
    """Both seats play their first legal command, each answer awaited; how many were made."""
    made = 0
    for _ in range(steps):
        command = first_legal(conns["red"].last)
        if command is None:
            break
        mover = conns[command["by"]]
        mover.ws.send(dumps(command))
        while not mover.take(20):
            pass
        if "error" in mover.last:
            return made
        for c in conns.values():
            if c is not mover:
                c.take(20)
        made += 1
    return made


def test_store_outage_the_database_restarted_under_a_running_server(tmp_path):
    """``pg_ctl -m immediate restart`` while a game is played: every command during the
    outage is answered (the database cannot be reached; nothing changed) and play goes on
    when it is back, with every acknowledged step in the store; games can be made again."""
    with TempPostgres() as pg:
        server = Server(pg.fresh(), tmp_path / "server.key").start()
        try:
            made = server.create(SCENARIO)
            gid, seats = made["id"], made["seats"]
            stack = contextlib.ExitStack()
            conns = {who: Conn(who, stack.enter_context(join(server, gid, seats[who])))
                     for who in ("red", "blue")}
            for c in conns.values():
                c.take(20)
            assert play_on(conns, 6) == 6
            acked = conns["red"].head
            stop = threading.Thread(target=pg._run, args=(
                pg.pg_ctl, "-D", str(pg.data), "-m", "immediate", "-w", "stop"))
            stop.start()
            stop.join()
            refused = []
            for _ in range(5):   # while it is down
                command = first_legal(conns["red"].last)
                assert command is not None
                mover = conns[command["by"]]
                mover.ws.send(dumps(command))
                assert mover.take(20)
                refused.append(mover.last.get("error", {}))
            assert all(e.get("type") == "StoreUnavailable" for e in refused), refused
            # the first append finds the connection cut as it commits (one statement: it
            # cannot know it was not written, and says the store will be asked); the rest
            # find the database gone
            assert "read again from the database" in refused[0]["message"] or \
                "cannot be reached" in refused[0]["message"], refused[0]
            assert all("cannot be reached" in e["message"] for e in refused[1:]), refused
            r = httpx.post(f"{server.http}/games", content=SCENARIO.encode(), timeout=30)
            assert r.status_code == 503 and "cannot be reached" in r.json()["error"]["message"]
            assert "dice seed" not in r.text
            pg._run(pg.pg_ctl, "-D", str(pg.data), "-o", pg.options, "-l",
                    str(pg.dir / "log"), "-w", "-t", "60", "start")
            deadline = time.monotonic() + 20
            while True:   # back within the back-off (2 s at most)
                state = httpx.get(f"{server.http}/games/{gid}?token={seats['red']}")
                if state.status_code == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert state.status_code == 200 and state.json()["head"] == acked
            assert play_on(conns, 6) == 6
            assert server.create(SCENARIO)["id"]
            stack.close()
        finally:
            server.stop()
        assert server.tracebacks() == 0, server.errors[-2000:]


def test_store_outage_an_append_cut_off_mid_commit_is_read_back_not_guessed(postgres):
    """The store's side of an outage: an append whose connection breaks reads back from the
    database whether its step was written, so it is never reported lost when it committed."""
    import psycopg

    from regiment.core.errors import StoreUnavailable
    from regiment.store.postgres import PostgresStore

    from .test_store_contract import drafts

    url = postgres.fresh()
    store = PostgresStore(url)
    store.append("g", drafts(0, 2, 0), 0)
    other = PostgresStore(url)
    kill = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
    other.db.execute(kill + " AND datname = current_database() AND application_name = ''")
    # the connection was cut; the next append finds out, makes a new one, and appends
    assert [r.seq for r in store.append("g", drafts(2, 1, 1), 2)] == [2]
    assert store.version("g") == 3
    # committed, then cut before the answer: the store reads back that it was written
    real = store._append

    def commit_then_cut(db, game_id, drafts_, expected, stage):
        real(db, game_id, drafts_, expected, stage)   # committed...
        db.close()   # ...and the connection gone before the answer was read
        raise psycopg.OperationalError("the server closed the connection")

    store._append = commit_then_cut   # type: ignore[method-assign]
    sealed = store.append("g", drafts(3, 1, 2), 3)
    store._append = real   # type: ignore[method-assign]
    assert [r.seq for r in sealed] == [3] and store.version("g") == 4
    assert [r.seq for r in store.read("g")] == [0, 1, 2, 3]
    # a database that stays away: a clear StoreUnavailable, at once
    store.url = url.replace(f":{postgres.port}/", ":1/")
    other.db.execute(kill + " AND datname = current_database() AND application_name = ''")
    with pytest.raises(StoreUnavailable, match="cannot be reached"):
        store.version("g")
    start = time.monotonic()
    with pytest.raises(StoreUnavailable, match="cannot be reached"):   # within the back-off
        store.append("g", drafts(4, 1, 3), 4)
    assert time.monotonic() - start < 0.05
    store.close()
    other.close()


# --- hostile and idle clients (SERVER.LIMITS) -----------------------------------------------


@pytest.fixture
def limited(tmp_path: Path) -> Any:
    """A server with the default limit on games made, and short deadlines for the test."""
    with Server(str(tmp_path / "games.db"), tmp_path / "server.key",
                options=("--header-timeout", "1", "--body-timeout", "1")) as s:
        yield s


def test_server_limits_a_scenario_nested_a_thousand_deep_is_refused_cleanly(limited):
    for depth in (200, 1000, 5000):
        body = ("x = " + "[" * depth + "]" * depth + "\n").encode()
        r = httpx.post(f"{limited.http}/games", content=body, timeout=30)
        assert r.status_code == 400 and "nested" in r.json()["error"]["message"], r.text
    assert limited.tracebacks() == 0, limited.errors[-2000:]


def test_server_limits_a_client_that_hangs_up_mid_upload_leaves_no_traceback(limited):
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", limited.port)) as s:
            s.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n"
                      + b"#" * 100)
    time.sleep(0.5)
    assert httpx.get(f"{limited.http}/key").status_code == 200
    assert limited.tracebacks() == 0, limited.errors[-2000:]


def test_server_limits_slow_headers_and_slow_bodies_are_cut_off(limited):
    slow = []
    for _ in range(20):   # a request line and half a header, then nothing
        s = socket.create_connection(("127.0.0.1", limited.port))
        s.sendall(b"GET /key HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        slow.append(s)
    body = socket.create_connection(("127.0.0.1", limited.port))
    body.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\nx")
    start = time.monotonic()
    for s in slow:
        s.settimeout(5)
        assert s.recv(100) == b""   # closed by the server
        s.close()
    assert time.monotonic() - start < 4
    body.settimeout(5)
    answer = b""
    while not answer.endswith(b"}"):   # its headers, then its JSON body (maybe apart)
        chunk = body.recv(4000)
        if not chunk:
            break
        answer += chunk
    body.close()
    assert b" 408 " in answer.split(b"\r\n")[0] and b"did not arrive" in answer
    keep = socket.create_connection(("127.0.0.1", limited.port))   # between two requests too
    keep.sendall(b"GET /key HTTP/1.1\r\nHost: x\r\n\r\n")
    keep.settimeout(5)
    got = b""
    while not got.endswith(b"}"):   # the whole answer: its headers, then its JSON body
        got += keep.recv(4000)
    assert b" 200 " in got.split(b"\r\n")[0]
    keep.sendall(b"GET /k")
    assert keep.recv(4000) == b""
    keep.close()
    assert limited.tracebacks() == 0


def test_server_limits_games_made_from_one_address_are_limited_per_minute(limited):
    start = time.monotonic()
    answers = [httpx.post(f"{limited.http}/games", content=SCENARIO.encode(), timeout=30)
               for _ in range(25)]
    refilled = int((time.monotonic() - start) * 20 / 60)   # a game more every 3 s
    codes = [a.status_code for a in answers]
    assert codes[:20] == [201] * 20 and set(codes) <= {201, 429}, codes
    assert codes.count(429) >= 5 - refilled and 429 in codes, (codes, refilled)
    refused = next(a for a in answers if a.status_code == 429)
    assert "a minute" in refused.json()["error"]["message"]


def test_server_limits_binary_frames_count_against_the_same_rate_as_text(limited):
    made = limited.create(SCENARIO)
    with join(limited, made["id"], made["seats"]["red"]) as ws:
        recv(ws)
        for _ in range(150):
            ws.send(b"\x00binary")
        said, closed = [], None
        try:
            for _ in range(150):
                said.append(recv(ws)["error"]["message"])
        except ConnectionClosed as exc:
            closed = exc.rcvd.code if exc.rcvd is not None else None
        except TimeoutError:
            pass
    # refused for rate, binary as text, till 40 were refused within 10 s: then closed
    assert sum("too many messages" in m for m in said) >= 39 and closed == 1008, said[-3:]


def test_server_limits_wrong_tokens_load_nothing_and_answer_alike(tmp_path):
    """Reads with a wrong token never load a game, and take the same time whether the game
    exists or not."""
    store, key = str(tmp_path / "games.db"), tmp_path / "server.key"
    with Server(store, key) as s:
        games = [s.create(SCENARIO) for _ in range(20)]
        for made in games:   # long games: loading one costs something to see
            token = made["seats"]["red"]
            with join(s, made["id"], token) as red, join(s, made["id"],
                                                        made["seats"]["blue"]) as blue:
                conns = {"red": Conn("red", red), "blue": Conn("blue", blue)}
                for c in conns.values():
                    c.take(20)
                play_on(conns, 25)
    with Server(store, key) as s:   # a fresh process: nothing held
        def timed(gid: str) -> float:
            start = time.perf_counter()
            r = httpx.get(f"{s.http}/games/{gid}?token=wrong")
            assert r.status_code == 403
            return time.perf_counter() - start

        for made in games[:3]:
            timed(made["id"])   # warm up the process
        present = [timed(m["id"]) for m in games for _ in range(3)]
        absent = [timed(f"{i:016x}") for i in range(60)]
        assert httpx.get(f"{s.http}/status").json()["games_held"] == 0
        p, a = statistics.median(present), statistics.median(absent)
        assert p < 2 * a + 0.002 and a < 2 * p + 0.002, (p, a)


def test_server_limits_a_game_made_and_never_joined_is_not_held(limited):
    for _ in range(5):
        limited.create(SCENARIO)
    status = httpx.get(f"{limited.http}/status").json()
    assert (status["games_held"], status["connections"]) == (0, 0)
    made = limited.create(SCENARIO)
    with join(limited, made["id"], made["seats"]["red"]) as ws:
        recv(ws)
        status = httpx.get(f"{limited.http}/status").json()
        assert (status["games_held"], status["connections"]) == (1, 1)
    assert status["syncs"] >= 1 and status["commits"] >= 6   # SERVER.DURABLE: grouped
    deadline = time.monotonic() + 5
    while httpx.get(f"{limited.http}/status").json()["games_held"] and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    assert httpx.get(f"{limited.http}/status").json()["games_held"] == 0
