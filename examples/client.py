"""A game server's client, as short as it can be: make a game (under undo consent, as players
apart would), seat both players, play a random legal move for whoever must decide until the
game ends, and keep what a player keeps to settle a dispute later: the log, the revealed seed
and the server's signed receipts.

    python examples/client.py http://127.0.0.1:8000 examples/ford_clash.toml

Needs the ``websockets`` package (``pip install 'regiment[server]'``).
"""

import contextlib
import json
import os
import random
import shutil
import sys
import time
import urllib.request

from websockets.sync.client import connect


def main(server: str, scenario: str) -> None:
    with open(scenario, "rb") as handle:
        request = urllib.request.Request(f"{server}/games?undo=consent", data=handle.read(),
                                         method="POST")
    game = json.load(urllib.request.urlopen(request))
    print(f"game {game['id']}; spectators: {server}{game['spectate']}")
    for note in game["notes"]:   # the undo policy the game plays under, among them
        print(note)
    ws_url = server.replace("http", "ws", 1) + f"/games/{game['id']}/ws?token="
    with contextlib.ExitStack() as stack:
        seats = {player: stack.enter_context(connect(ws_url + token))
                 for player, token in game["seats"].items()}
        message, receipts = play(seats)
    player = next(iter(game["seats"]))
    token = game["seats"][player]
    with open("game.jsonl", "wb") as out:
        out.write(urllib.request.urlopen(f"{server}/games/{game['id']}/log?token={token}").read())
    with open("receipts.jsonl", "w") as out:
        out.writelines(json.dumps(r) + "\n" for r in receipts)
    key = json.load(urllib.request.urlopen(f"{server}/key"))["key"]
    print(f"over after {len(receipts)} steps; check it with:")
    print(f"{regiment()} verify game.jsonl --seed {message['seed']} --receipts receipts.jsonl "
          f"--key {key}")


def regiment() -> str:
    """The regiment command as it can be typed here: the one beside this Python
    (``.venv/bin/regiment`` after ``make demo``) unless it is the one on the PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "regiment")
    if not os.path.exists(beside) or shutil.which("regiment") == beside:
        return "regiment"
    near = os.path.relpath(beside)
    return near if not near.startswith("..") else beside


def play(seats: dict) -> tuple[dict, list]:
    """Random legal moves until the game ends: the last message, and the receipts."""
    message = [json.loads(ws.recv()) for ws in seats.values()][0]
    receipts = []
    while message["pending"]["kind"] == "decision":
        player = message["pending"]["player"]
        moves = [c for c in message["pending"]["legal"] if c["cmd"] not in ("undo", "redo")]
        message = send(seats[player], json.dumps(random.choice(moves)))
        for other, ws in seats.items():      # every seat is told of every step
            if other != player:
                json.loads(ws.recv())
        receipts.append(message["receipt"])  # the server's signed word for this step
    return message, receipts


def send(ws, command: str) -> dict:
    """The answer to a command, sent again after the wait the server names when the seat
    sent faster than it takes (a seat passing phase after phase can); any other refusal
    ends the client, saying why."""
    while True:
        ws.send(command)
        answer = json.loads(ws.recv())
        error = answer.get("error")
        if error is None:
            return answer
        if error["type"] != "RateLimited":
            raise SystemExit(f"refused: {error['message']}")
        time.sleep(error["retry_after"] + 0.01)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
