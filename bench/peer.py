"""The peer (issue 61 item 2): boardgame.io 0.50.2's ``Server``, what a developer would pick to
host turn-based games instead, on the load ``bench/hosted.py`` puts on regiment's server, in
the same run: GAMES matches of two seats, each seat its own connection (socket.io), each
moving as soon as it is its turn, a load client in another process (Node, its own client
library: bench/bgio/load.cjs), the server's CPU from ``/proc``. Its game is two players
rolling a die in turn (bench/bgio/game.cjs): rules that cost next to nothing, so what is
measured is its hosting, its storage and its state machine. In memory, and with its FlatFile
storage (node-persist: a file a match, rewritten each move, no fsync).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.postgres import free_port

HERE = Path(__file__).resolve().parent / "bgio"


def available() -> str | None:
    """Why the peer cannot run here, or None."""
    if shutil.which("node") is None:
        return "Node.js is not installed (make peer)"
    if not (HERE / "node_modules" / "boardgame.io").is_dir():
        return "boardgame.io is not installed (make peer)"
    return None


def cpu(pid: int) -> float:
    """A process's user and system CPU seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime, stime


def run(games: int, moves: int, flat: bool) -> dict[str, Any]:
    """One run: the server started, the load client played, the server's CPU over it. A
    server that does not start (its lobby listens on the port after its own, which another
    process may hold) is started again on other ports, twice at most."""
    for _ in range(3):
        port = free_port()
        with tempfile.TemporaryDirectory() as tmp:
            server = subprocess.Popen(["node", str(HERE / "server.cjs"), str(port),
                                       *([tmp] if flat else [])], cwd=HERE,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True)
            try:
                if _ready(server):
                    return _load(server, port, games, moves)
            finally:
                server.terminate()
                server.wait(10)
    raise RuntimeError("boardgame.io's server did not start, three times")


def _ready(server: subprocess.Popen[str]) -> bool:
    assert server.stdout is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if line.startswith("ready"):
            time.sleep(0.3)   # its lobby API listens a moment after
            return True
        if not line and server.poll() is not None:
            return False   # it ended (a port taken): what it said is in its output
    return False


def _load(server: subprocess.Popen[str], port: int, games: int, moves: int) -> dict[str, Any]:
    load = subprocess.Popen(["node", str(HERE / "load.cjs"), str(port), str(games),
                             str(moves)], cwd=HERE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert load.stdout is not None
    before = after = 0.0
    lines = []
    for line in load.stdout:   # its CPU over the moves alone, as regiment's is
        if line.strip() == "start":
            before = cpu(server.pid)
        elif line.strip() == "end":
            after = cpu(server.pid)
        else:
            lines.append(line)
    error = load.stderr.read() if load.stderr else ""
    code = load.wait(600)
    if code != 0 or not lines:
        raise RuntimeError(f"the peer's load client failed: {error[-500:]}")
    out: dict[str, Any] = json.loads(lines[-1])
    out["cpu"] = after - before
    return out
