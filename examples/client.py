"""A game server's client, as short as it can be: make a game (under undo consent, as players
apart would), seat both players, play a random legal move for whoever must decide until the
game ends, and keep what a player keeps to settle a dispute later: the log and the receipts,
each signed by the server and by both seats.

The dice are shared: each seat commits to a hash chain of its own when it joins, reveals one
value of it for each roll, and signs every head it is shown with its own key; the server
makes each roll from every seat's value and its own, so neither it nor a seat can foresee or
steer one. Each seat here is a thread with its own connection, as two players' programs are.

    python examples/client.py http://127.0.0.1:8000 examples/ford_clash.toml

Needs the ``websockets`` and ``cryptography`` packages (``pip install 'regiment[server]'``).
"""

import hashlib
import json
import os
import random
import shutil
import sys
import threading
import time
import urllib.request

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

LENGTH = 1024   # rounds of dice a seat's chain can reveal
PACE, AT_ONCE = 16.0, 30.0   # messages a second, and at once: below the server's 20 and 40


def main(server: str, scenario: str) -> None:
    with open(scenario, "rb") as handle:
        request = urllib.request.Request(f"{server}/games?undo=consent", data=handle.read(),
                                         method="POST")
    game = json.load(urllib.request.urlopen(request))
    print(f"game {game['id']}; spectators: {server}{game['spectate']}")
    for note in game["notes"]:   # the undo policy the game plays under, among them
        print(note)
    ws_url = server.replace("http", "ws", 1) + f"/games/{game['id']}/ws?token="
    seats = [Seat(game["id"], player, ws_url + token) for player, token in game["seats"].items()]
    threads = [threading.Thread(target=seat.play, args=(seats,)) for seat in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [f"{seat.me}: {seat.failed}" for seat in seats if seat.failed]
    if failed:
        raise SystemExit("; ".join(failed))
    token = next(iter(game["seats"].values()))
    with open("game.jsonl", "wb") as out:
        out.write(urllib.request.urlopen(f"{server}/games/{game['id']}/log?token={token}").read())
    receipts = seats[0].receipts   # either seat's: each is signed by the server and both seats
    with open("receipts.jsonl", "w") as out:
        out.writelines(json.dumps(receipts[step]) + "\n" for step in sorted(receipts))
    key = json.load(urllib.request.urlopen(f"{server}/key"))["key"]
    print(f"over after {len(receipts)} steps; check it with:")
    print(f"{regiment()} verify game.jsonl --receipts receipts.jsonl --key {key}")


class Seat:
    """One player's program: its chain and key, and what it was shown and signed."""

    def __init__(self, game_id: str, me: str, url: str) -> None:
        self.game_id, self.me, self.url = game_id, me, url
        self.key = Ed25519PrivateKey.generate()
        chain = [os.urandom(32)]   # x[LENGTH], the secret; x[i-1] = SHA-256(x[i])
        for _ in range(LENGTH):
            chain.append(hashlib.sha256(chain[-1]).digest())
        self.chain = chain[::-1]   # chain[k] = x[k]: the anchor first, round k's value at k
        self.receipts: dict[int, dict] = {}
        self.unsigned: dict | None = None   # the newest head shown, not yet signed to the server
        self.committed = False
        self.revealed: set[int] = set()
        self.failed = ""
        self.stopped = False   # by another seat's failure
        self.ws = None
        self.tokens, self.at = AT_ONCE, time.monotonic()   # the pace of its messages (pace)

    def commitment(self) -> dict:
        anchor = self.chain[0].hex()
        text = f"regiment-dice/1 commit {self.game_id} {self.me} {anchor} {LENGTH}"
        return {"anchor": anchor, "length": LENGTH, "key": self.public(),
                "sig": self.key.sign(text.encode()).hex()}

    def public(self) -> str:
        return self.key.public_key().public_bytes_raw().hex()

    def play(self, seats: list["Seat"]) -> None:
        """The game, to its end. A seat that fails (refused, or its connection closed) says
        why, and the others stop too: the game cannot go on without it."""
        try:
            self.turns()
        except (ConnectionClosed, OSError) as gone:   # closed, or the server is not there
            if not self.failed:
                if isinstance(gone, ConnectionClosed):
                    said = gone.rcvd.reason if gone.rcvd else "lost, no word from the server"
                    self.failed = f"the connection ended: {said or 'closed by the server'}"
                else:
                    self.failed = f"the server cannot be reached: {gone}"
        if self.failed and not self.stopped:
            for other in seats:
                if other is not self and not other.failed:
                    other.failed, other.stopped = f"stopped: {self.me} failed", True
                    if other.ws is not None:
                        other.ws.close()

    def turns(self) -> None:
        with connect(self.url) as ws:
            self.ws = ws
            while not self.failed:
                message = json.loads(ws.recv())
                if "error" in message:
                    if not self.refused(message["error"]):
                        return
                    continue   # its position is the one already acted on
                self.keep(message)
                pending = message.get("pending")
                if pending is None:
                    continue
                if pending["kind"] == "over":
                    self.finish()
                    return
                self.act(message, pending)

    def keep(self, message: dict) -> None:
        """A step's receipt, signed by this seat too; the other seat's signatures told."""
        shared = message.get("shared", {})   # each seat's newest signature rides along
        for seat, s in {**shared.get("cosigned", {}), **message.get("cosigned", {})}.items():
            if s["step"] in self.receipts:
                self.receipts[s["step"]]["seats"][seat] = {k: s[k] for k in ("head", "key",
                                                                           "sig")}
        self.committed = self.committed or (shared and not shared["commit"])
        receipt = message.get("receipt")
        if receipt and receipt["step"] not in self.receipts:
            mine = self.sign(receipt["step"], receipt["head"])
            self.receipts[receipt["step"]] = {**receipt, "seats": {self.me: {
                "head": receipt["head"], "key": self.public(), "sig": mine}}}
            self.unsigned = {"step": receipt["step"], "head": receipt["head"], "sig": mine}

    def sign(self, step: int, head: str) -> str:
        return self.key.sign(f"regiment-receipt/1 {self.game_id} {step} {head}".encode()).hex()

    def act(self, message: dict, pending: dict) -> None:
        if self.me in message.get("shared", {}).get("commit", ()):
            self.send({"commit": self.commitment()})
        elif pending["kind"] == "roll" and self.me in pending.get("parties", ()) and \
                pending["round"] not in self.revealed:
            self.revealed.add(pending["round"])
            self.send({"reveal": {"round": pending["round"],
                                  "value": self.chain[pending["round"]].hex()}})
        elif pending["kind"] == "decision" and pending["player"] == self.me:
            moves = [c for c in pending["legal"] if c["cmd"] not in ("undo", "redo")]
            self.send(random.choice(moves))

    def send(self, message: dict) -> None:
        """A message, with the newest head this seat was shown, signed (once committed)."""
        if self.committed and self.unsigned is not None:
            message = {**message, "signed": self.unsigned}
            self.unsigned = None
        self.last = message
        self.pace()
        self.ws.send(json.dumps(message))

    def pace(self) -> None:
        """Wait until a message may go: PACE a second, AT_ONCE at once, below the server's
        rate (20 a second, 40 at once), as it would refuse the rest and close a connection
        that keeps above it. A wait's time earns the token it waited for, once."""
        now = time.monotonic()
        self.tokens = min(AT_ONCE, self.tokens + (now - self.at) * PACE)
        self.at = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / PACE)
            self.at = time.monotonic()   # (0.16.2 counted the wait again at the next message)
            self.tokens = 1
        self.tokens -= 1

    def refused(self, error: dict) -> bool:
        """Sent again after the wait the server names when the seat sent faster than it
        takes (a seat passing phase after phase can); any other refusal ends the seat."""
        if error.get("code") in ("wrong_round", "no_reveal_pending"):
            return True   # a reveal sent again for a round the other seat's completed
        if error["type"] != "RateLimited":
            self.failed = f"refused: {error['message']}"
            return False
        time.sleep(error["retry_after"] + 0.01)
        self.pace()
        self.ws.send(json.dumps(self.last))
        return True

    def finish(self) -> None:
        """The last head signed, and the other seat's signature of it awaited (a few
        seconds at most), so that the last receipt is signed by all three."""
        if self.unsigned is not None:
            self.send({})
        last = max(self.receipts)
        deadline = time.monotonic() + 5
        while len(self.receipts[last]["seats"]) < 2 and time.monotonic() < deadline:
            try:
                message = json.loads(self.ws.recv(timeout=deadline - time.monotonic()))
            except TimeoutError:
                break
            if "error" in message and not self.refused(message["error"]):
                return
            self.keep(message)


def regiment() -> str:
    """The regiment command as it can be typed here: the one beside this Python
    (``.venv/bin/regiment`` after ``make demo``) unless it is the one on the PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "regiment")
    if not os.path.exists(beside) or shutil.which("regiment") == beside:
        return "regiment"
    near = os.path.relpath(beside)
    return near if not near.startswith("..") else beside


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
