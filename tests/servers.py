"""``regiment server`` as users run it: a child process on a free port, reached by real HTTP and
WebSocket clients (httpx, websockets). Used by the tests and by ``make load``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from .postgres import free_port

EXE = Path(sys.executable).with_name("regiment")


class Server:
    def __init__(self, store: str, key: Path, port: int | None = None,
                 options: tuple[str, ...] = ("--games-per-minute", "0"),
                 verbose: bool = False, env: dict[str, str] | None = None) -> None:
        self.store, self.key = store, key
        self.env = env or {}     # more of the server's environment (PYTHONTRACEMALLOC...)
        self.options = options   # the tests make many games from one address
        self.verbose = verbose   # its info log (JSON lines) to stderr too
        self.port = port or free_port()
        self.proc: subprocess.Popen[str] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def errors(self) -> str:
        """What the server wrote to stderr (a file: a pipe nobody reads would block it)."""
        return self.stderr.read_text() if self.stderr.exists() else ""

    def start(self) -> Server:
        self.stderr = self.key.with_name(f"server-{self.port}.err")
        with open(self.stderr, "a") as err:
            self.proc = subprocess.Popen(
                [str(EXE), *(["-v", "--log-json"] if self.verbose else []), "server",
                 "--store", self.store, "--key", str(self.key), "--port", str(self.port),
                 *self.options], stdout=subprocess.PIPE, stderr=err, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("regiment server:"):
            self.proc.kill()
            raise RuntimeError(f"the server did not start: {line}{self.errors}")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:   # uvicorn binds after the first line
            try:
                httpx.get(f"{self.http}/key", timeout=1.0)
                return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("the server did not answer within 20 s")

    def logged(self, event: str) -> int:
        """How many times the server logged ``event`` (with ``verbose``)."""
        return sum(1 for line in self.errors.splitlines() if f'"event": "{event}"' in line)

    def tracebacks(self) -> int:
        return self.errors.count("Traceback")

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind, as a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def create(self, scenario: str, dice: str = "seeded") -> dict[str, Any]:
        """A game of ``scenario``. Seeded dice unless told: these tests drive both seats in
        step, one message each a command, as a client of protocol 2 does; shared dice, with
        seats that commit, reveal and sign, are tests/test_shared_dice.py's."""
        r = httpx.post(f"{self.http}/games?dice={dice}", content=scenario.encode(), timeout=30)
        r.raise_for_status()
        return dict(r.json())

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def first_legal(message: dict[str, Any]) -> dict[str, Any] | None:
    pending = message.get("pending", {})
    if pending.get("kind") != "decision":
        return None
    legal = [c for c in pending["legal"] if c["cmd"] not in ("undo", "redo")]
    return dict(legal[0]) if legal else None


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


class Dealer:
    """A seat's part of shared dice, for a test or a load client that drives the seat by hand:
    its chain and key (regiment.core.shared); ``replies`` are what a message asks of it (its
    commitment, or a reveal), ``signed`` a message with the newest head it was shown,
    signed, as the example client sends them."""

    def __init__(self, game_id: str, seat: str) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        from regiment.core.shared import Chain

        self.game_id, self.seat = game_id, seat
        self.chain, self.key = Chain(length=512), Ed25519PrivateKey.generate()
        self.revealed: set[int] = set()
        self.committed = False
        self.unsigned: dict[str, Any] | None = None

    def commitment(self) -> dict[str, Any]:
        from regiment.core.shared import commitment

        return commitment(self.game_id, self.seat, self.chain, self.key)

    def replies(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """What ``message`` asks of this seat: its commitment, or its reveal of a round."""
        from regiment.core.shared import receipt_message

        shared = message.get("shared")
        if shared is not None:
            self.committed = self.seat not in shared["commit"]
        receipt = message.get("receipt")
        if receipt and self.committed:
            sig = self.key.sign(receipt_message(self.game_id, receipt["step"],
                                                receipt["head"])).hex()
            self.unsigned = {"step": receipt["step"], "head": receipt["head"], "sig": sig}
        if shared is not None and not self.committed:
            return [{"commit": self.commitment()}]
        pending = message.get("pending", {})
        k = pending.get("round")
        if pending.get("kind") == "roll" and self.seat in pending.get("parties", ()) and \
                k not in self.revealed:
            self.revealed.add(k)
            return [{"reveal": {"round": k, "value": self.chain.value(k)}}]
        return []

    @property
    def public(self) -> str:
        return self.key.public_key().public_bytes_raw().hex()

    def kept(self, receipt: dict[str, Any]) -> dict[str, Any]:
        """The server's receipt with this seat's own signature, as a player keeps it (once
        its commitment, which names its key, is in the log)."""
        from regiment.core.shared import receipt_message

        if not self.committed:
            return receipt
        sig = self.key.sign(receipt_message(self.game_id, receipt["step"], receipt["head"]))
        return {**receipt, "seats": {self.seat: {"head": receipt["head"], "key": self.public,
                                                 "sig": sig.hex()}}}

    def signed(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.unsigned is None:
            return message
        out, self.unsigned = {**message, "signed": self.unsigned}, None
        return out

    def answer(self, ws: Any, message: dict[str, Any]) -> bool:
        """Whether ``message`` asked this seat for its commitment or a reveal (then sent)."""
        replies = self.replies(message)
        for reply in replies:
            ws.send(dumps(reply))
        return bool(replies)
