"""Shared dice (issue 60): every seat and the host contribute to every die, fixed in advance,
revealed roll by roll; nobody, the host included, can foresee or steer one; a wrong reveal
is refused, a withheld one ends the game as the scenario says, and a split view is caught by
verify with either seat's receipts. The game library first, then the real server."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from websockets.sync.client import connect

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.errors import IllegalCommand, TamperedLog
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.core.shared import SERVER, Chain, commitment, receipt_message, shared_faces
from regiment.store.memory import MemoryStore
from regiment.tools.receipts import Receipt
from regiment.tools.server.signing import read_receipts
from regiment.tools.verify import verify

from .conftest import EXAMPLES
from .servers import Dealer, Server, dumps, first_legal

FORD = (EXAMPLES / "ford_clash.toml").read_text()


class Table:
    """A game of shared dice played through the library: the host's chain is the game's own,
    each seat's a chain and a key of its own."""

    def __init__(self, undo: str = "consent", store: MemoryStore | None = None) -> None:
        raw = tomllib.loads(FORD)
        raw.update(dice="shared", undo=undo)
        raw.pop("seed", None)
        self.store = store or MemoryStore()
        self.game = Game.new(parse_scenario(raw), store=self.store)
        self.host_key = Ed25519PrivateKey.generate()
        players = self.game.state.players
        self.chains = {p: Chain(length=256) for p in players}
        self.keys = {p: Ed25519PrivateKey.generate() for p in players}

    def commitments(self) -> dict[str, Any]:
        game = self.game
        out = {p: commitment(game.game_id, p, self.chains[p], self.keys[p]) for p in self.chains}
        out[SERVER] = commitment(game.game_id, SERVER, game.dice.chain, self.host_key)  # type: ignore[attr-defined]
        return out

    def values(self, k: int) -> dict[str, str]:
        out = {p: c.value(k) for p, c in self.chains.items()}
        out[SERVER] = self.game.dice.chain.value(k)  # type: ignore[attr-defined]
        return out

    def step(self, rng: random.Random) -> None:
        """One step: a reveal for a roll that waits for one, known dice rolled, or a random
        legal command (undo left out)."""
        game, pending = self.game, self.game.pending
        if pending.kind == "roll":
            if pending.round is None:   # dice an undone step rolled
                game.submit({"cmd": "roll", "by": pending.player, "faces": list(pending.known)})
            else:
                game.submit({"cmd": "reveal", "by": pending.player, "round": pending.round,
                             "values": self.values(pending.round)})
            return
        legal = [c for c in game.legal() if c.name not in ("undo", "redo")]
        game.submit(rng.choice(legal))

    def until_roll(self, rng: random.Random) -> None:
        while not (self.game.pending.kind == "roll" and self.game.pending.round is not None):
            assert not self.game.state.over
            self.step(rng)


def test_dice_shared_a_game_plays_to_its_end_verifies_with_no_secret_and_loads():
    """DICE.SHARED: a whole game; verify re-derives every die from the reveals in the log
    (nothing secret given), and a load folds the same game."""
    table = Table()
    game = table.game
    game.submit({"cmd": "commit_dice", "by": "blue", "commitments": table.commitments()})
    rng = random.Random(7)
    for _ in range(3000):
        if game.state.over:
            break
        table.step(rng)
    assert game.state.over and game.timeline.rounds > 5
    report = verify(game.history)
    assert report.rounds == game.timeline.rounds and report.dice > report.rounds
    assert Game.load(game.game_id, table.store).head == game.head
    # the host's chain is a secret of the store's, never in the log
    assert game.dice.seed.hex() not in json.dumps([r.data for r in game.history], default=str)  # type: ignore[attr-defined]


def test_dice_shared_a_roll_of_new_faces_is_refused():
    """DICE.SHARED: a seat cannot enter faces of its own choosing for a new roll."""
    table = Table()
    table.game.submit({"cmd": "commit_dice", "by": "blue", "commitments": table.commitments()})
    table.until_roll(random.Random(3))
    pending = table.game.pending
    before = table.game.version
    with pytest.raises(IllegalCommand) as refused:
        table.game.submit({"cmd": "roll", "by": pending.player, "faces": [6] * pending.dice})
    assert refused.value.rule == "DICE.SHARED" and table.game.version == before


def test_dice_commit_a_host_that_changes_its_chain_after_seeing_the_seats_is_refused():
    """DICE.COMMIT: the host's chain is fixed in GameStarted before any seat commits: a host
    that grinds a new chain once it has seen the seats' commitments is refused; so is a seat
    commitment not signed by its key, a second set, and an undo of the commitments."""
    table = Table(undo="solo")
    game = table.game
    before = game.version
    ground = table.commitments()
    ground[SERVER] = commitment(game.game_id, SERVER, Chain(length=256), table.host_key)
    with pytest.raises(IllegalCommand) as refused:
        game.submit({"cmd": "commit_dice", "by": "blue", "commitments": ground})
    assert refused.value.code == "bad_commitment" and game.version == before
    forged = table.commitments()
    forged["red"] = {**forged["red"], "key": forged["blue"]["key"]}
    with pytest.raises(IllegalCommand, match="not signed by the key it names"):
        game.submit({"cmd": "commit_dice", "by": "blue", "commitments": forged})
    game.submit({"cmd": "commit_dice", "by": "blue", "commitments": table.commitments()})
    with pytest.raises(IllegalCommand, match="already in"):
        game.submit({"cmd": "commit_dice", "by": "blue", "commitments": table.commitments()})
    with pytest.raises(IllegalCommand) as undone:
        game.submit({"cmd": "undo", "by": "red"})
    assert undone.value.rule == "DICE.COMMIT"


def _sixes(rng: random.Random, trials: int, attempt: Any) -> int:
    sixes = 0
    for t in range(trials):
        seat_value = rng.randbytes(32).hex()   # the seat's x[1], unknown to the host
        host_value = attempt(t)
        face = shared_faces({SERVER: host_value, "red": seat_value}, "g", 1, "ab" * 32, 1)[0]
        sixes += face == 6
    return sixes


def test_dice_shared_a_host_that_grinds_its_chain_cannot_steer_a_die():
    """Grinding: a host that tries 50 chains for each game, keeping the one whose first die
    is a 6 against its best guess of the seat's value, gets a 6 as often as luck gives one
    (1 in 6; a host that could steer would get 600 of 600)."""
    rng = random.Random(60)

    def ground(t: int) -> str:
        guess = hashlib.sha256(f"guess {t}".encode()).hexdigest()
        for _ in range(50):
            mine = rng.randbytes(32).hex()
            if shared_faces({SERVER: mine, "red": guess}, "g", 1, "ab" * 32, 1)[0] == 6:
                return mine
        return mine

    sixes = _sixes(rng, 600, ground)
    assert 60 < sixes < 145, sixes   # 100 expected; 145 is 4.8 standard deviations above


def test_dice_shared_nobody_knows_a_roll_before_the_last_reveal():
    """Foreknowledge: everything the host holds before the last seat reveals (its own chain,
    the log, the other seat's reveal) leaves the die a one-in-six guess: its best guess of
    the missing value names the face of 600 rolls about 100 times."""
    rng = random.Random(61)
    hits = 0
    for _ in range(600):
        host, red, blue = (rng.randbytes(32).hex() for _ in range(3))
        real = shared_faces({SERVER: host, "red": red, "blue": blue}, "g", 1, "cd" * 32, 1)
        guess = shared_faces({SERVER: host, "red": red, "blue": "00" * 32}, "g", 1, "cd" * 32, 1)
        hits += real == guess
    assert 60 < hits < 145, hits


def test_dice_reveal_a_wrong_reveal_is_refused_and_changes_nothing():
    """DICE.REVEAL: a value that does not hash to the party's previous one, a round out of
    turn, or a party missing: refused, the game as it was."""
    table = Table()
    game = table.game
    game.submit({"cmd": "commit_dice", "by": "blue", "commitments": table.commitments()})
    table.until_roll(random.Random(5))
    pending = game.pending
    k, before, head = pending.round, game.version, game.head
    wrong = {**table.values(k), "red": table.chains["red"].value(k + 1)}   # a later value
    bad = [({"round": k, "values": wrong}, "bad_reveal"),
           ({"round": k + 1, "values": table.values(k + 1)}, "wrong_round"),
           ({"round": k, "values": {SERVER: table.values(k)[SERVER]}}, "reveals_missing")]
    for fields, code in bad:
        with pytest.raises(IllegalCommand) as refused:
            game.submit({"cmd": "reveal", "by": pending.player, **fields})
        assert refused.value.code == code and game.version == before and game.head == head


def test_dice_reveal_an_undo_rolls_the_same_dice_again_and_a_round_is_revealed_once():
    """DICE.REVEAL, DICE.NO_REROLL: after an undo of a reveal (granted), the same faces come
    out with no new reveal; the next new dice take the next round, never one revealed."""
    table = Table()
    game = table.game
    game.submit({"cmd": "commit_dice", "by": "blue", "commitments": table.commitments()})
    table.until_roll(random.Random(11))
    roller = game.pending.player
    other = "blue" if roller == "red" else "red"
    table.step(random.Random(0))   # the reveal
    faces = [e for e in game.timeline.events(game.timeline.live[-1]) if e.type == "DiceRolled"]
    k = game.timeline.rounds
    game.submit({"cmd": "undo", "by": roller})
    game.submit({"cmd": "grant_undo", "by": other})
    pending = game.pending
    assert pending.kind == "roll" and pending.round is None and \
        list(pending.known) == list(faces[0].faces[:pending.dice])
    game.submit({"cmd": "roll", "by": pending.player, "faces": list(pending.known)})
    table.until_roll(random.Random(12))
    assert game.pending.round == k + 1


def test_dice_shared_a_split_view_is_caught_by_verify_with_either_seats_receipts():
    """A host that shows red one game and blue another from step 3 on: red's receipts (the
    host's signature and red's of each head red saw) fail verify of blue's log, and blue's
    fail red's, each naming the split view."""
    host = Ed25519PrivateKey.generate()
    red_view = Table(undo="solo")
    game = red_view.game
    game.submit({"cmd": "commit_dice", "by": "blue", "commitments": red_view.commitments()})
    game.submit(next(c for c in game.legal() if c.name not in ("undo", "redo")))
    store = MemoryStore()   # blue's view: the same first steps, then other commands
    from regiment.core.record import Draft

    store.append(game.game_id, [Draft(r.seq, r.step, r.type, r.v, r.data, r.at)
                                for r in game.records], 0)
    blue_game = Game.load(game.game_id, store)
    rng_red, rng_blue = random.Random(1), random.Random(2)
    for _ in range(12):
        red_view.step(rng_red)
        legal = [c for c in blue_game.legal() if c.name not in ("undo", "redo")]
        if blue_game.pending.kind == "decision" and legal:
            blue_game.submit(rng_blue.choice(legal))
    assert game.head != blue_game.head

    def receipts(seen: Game, seat: str) -> list[str]:
        lines = []
        for step in range(len(seen.timeline.steps)):
            head = seen.records.hash_at(seen.timeline.last_seq(step)).hex()
            msg = receipt_message(seen.game_id, step, head)
            key = red_view.keys[seat]
            lines.append(json.dumps({
                "game": seen.game_id, "step": step, "head": head,
                "key": host.public_key().public_bytes_raw().hex(), "sig": host.sign(msg).hex(),
                "seats": {seat: {"head": head, "key": key.public_key().public_bytes_raw().hex(),
                                 "sig": key.sign(msg).hex()}}}))
        return lines

    red_receipts = read_receipts(receipts(game, "red"), "red.jsonl", game.game_id, None)
    blue_receipts = read_receipts(receipts(blue_game, "blue"), "blue.jsonl", game.game_id, None)
    assert any(isinstance(r, Receipt) and r.party == "red" for r in red_receipts)
    verify(game.history, receipts=red_receipts)            # each view holds its own
    verify(blue_game.history, receipts=blue_receipts)
    with pytest.raises(TamperedLog, match="split view"):
        verify(blue_game.history, receipts=red_receipts)
    with pytest.raises(TamperedLog, match="split view"):
        verify(game.history, receipts=blue_receipts)


# --- the real server ---------------------------------------------------------------------


def _made(s: Server, extra: str = "") -> dict[str, Any]:
    import httpx

    r = httpx.post(f"{s.http}/games?undo=consent", content=(extra + FORD).encode(), timeout=30)
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["dice"] == "shared" and any("DICE.SHARED" in n for n in made["notes"])
    return dict(made)


def _join(s: Server, made: dict[str, Any], stack: contextlib.ExitStack
          ) -> tuple[dict[str, Any], dict[str, Dealer]]:
    ws = {p: stack.enter_context(connect(f"{s.ws}/games/{made['id']}/ws?token={t}"))
          for p, t in made["seats"].items()}
    return ws, {p: Dealer(made["id"], p) for p in ws}


def _recv(ws: Any, timeout: float = 20) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=timeout)))


def _to_roll(ws: dict[str, Any], dealers: dict[str, Dealer]) -> dict[str, Any]:
    """Both seats commit, then play the first legal command, paced, until a roll waits for
    reveals: its message."""
    messages = {p: _recv(w) for p, w in ws.items()}
    for p in ws:
        dealers[p].answer(ws[p], messages[p])
    messages = {p: _recv(w) for p, w in ws.items()}   # the commitments' step
    assert all(not m["shared"]["commit"] for m in messages.values())
    message = messages["red"]
    for _ in range(400):
        pending = message["pending"]
        if pending["kind"] == "roll" and pending.get("round"):
            return message
        command = first_legal(message)
        assert command is not None, pending
        ws[command["by"]].send(dumps(command))
        time.sleep(0.06)
        message = {p: _recv(w) for p, w in ws.items()}["red"]
    raise AssertionError("no roll")


def test_dice_reveal_the_server_refuses_a_wrong_reveal_a_seats_host_command_and_a_foreign_head(
        tmp_path: Path):
    """Through the server: a reveal that does not hash to the seat's anchor, a seat sending a
    command only the host writes, a head the server never had signed as seen: each refused
    with its code, nothing changed; the right reveals then make the roll."""
    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        made = _made(s)
        with contextlib.ExitStack() as stack:
            ws, dealers = _join(s, made, stack)
            message = _to_roll(ws, dealers)
            k, head = message["pending"]["round"], message["head"]
            red = ws["red"]
            red.send(dumps({"reveal": {"round": k, "value": "00" * 32}}))
            assert _recv(red)["error"]["code"] == "bad_reveal"
            red.send(dumps({"cmd": "reveal", "by": "red", "round": k, "values": {}}))
            assert _recv(red)["error"]["code"] == "host_command"
            sig = dealers["red"].key.sign(receipt_message(made["id"], 1, "ab" * 32)).hex()
            red.send(dumps({"signed": {"step": 1, "head": "ab" * 32, "sig": sig}}))
            assert _recv(red)["error"]["code"] == "split_view"
            for p in ws:
                dealers[p].answer(ws[p], message)
            rolled = {p: _recv(w) for p, w in ws.items()}
            types = [e["type"] for e in rolled["red"]["events"]]
            assert "DiceRevealed" in types and "DiceRolled" in types
            revealed = next(e for e in rolled["red"]["events"] if e["type"] == "DiceRevealed")
            assert revealed["data"]["head"] == head and revealed["data"]["round"] == k
        assert s.tracebacks() == 0


@pytest.mark.parametrize("how", ["concede", "contested"])
def test_dice_withheld_a_seat_that_keeps_the_other_waiting_ends_the_game(tmp_path, how):
    """DICE.WITHHELD: red reveals, blue does not; a second after red's reveal (the scenario's
    reveal_timeout) the game ends: blue concedes, or, under contested, no side wins."""
    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        made = _made(s, f'reveal_timeout = 1\nwithheld = "{how}"\n')
        with contextlib.ExitStack() as stack:
            ws, dealers = _join(s, made, stack)
            message = _to_roll(ws, dealers)
            dealers["red"].answer(ws["red"], message)
            started = time.monotonic()
            ended = _recv(ws["red"], timeout=10)
            waited = time.monotonic() - started
            end = next(e for e in ended["events"] if e["type"] == "GameEnded")["data"]
    assert ended["pending"]["kind"] == "over" and 0.9 < waited < 5
    assert end["ending"] == {"code": "withheld" if how == "concede" else "contested",
                             "player": "blue", "round": message["pending"]["round"]}
    assert end["winner"] == ("red" if how == "concede" else None)


def test_dice_commit_a_hosted_server_that_grinds_its_chain_once_the_seats_committed_is_refused():
    """A game server (the hub, in process) that waits for both seats' commitments and then
    grinds a chain of its own, keeping the one whose first die against its guess of the
    seats' values is a 6, cannot write it: its chain was bound in the game's first record."""
    from regiment.core.shared import SharedDice
    from regiment.tools.server.hub import Hub
    from regiment.tools.server.signing import ServerKey

    class Grinding(Hub):
        def _apply(self, held: Any, request: dict[str, Any]) -> None:
            if request.get("cmd") == "commit_dice":
                for _ in range(50):
                    dice = SharedDice.made()
                    guess = {SERVER: dice.chain.value(1), "red": "00" * 32, "blue": "11" * 32}
                    if shared_faces(guess, held.game.game_id, 1, held.game.head, 1) == (6,):
                        break
                held.game.dice = dice
                request["commitments"][SERVER] = commitment(
                    held.game.game_id, SERVER, dice.chain, self.key.private)
            super()._apply(held, request)

    hub = Grinding(MemoryStore(), ServerKey(Ed25519PrivateKey.generate()))
    made = hub.create(FORD.encode())
    held = hub.get(made["id"])
    hub.commit(held, "red", Dealer(made["id"], "red").commitment())
    with pytest.raises(IllegalCommand) as refused:
        hub.commit(held, "blue", Dealer(made["id"], "blue").commitment())
    assert refused.value.code == "bad_commitment" and not held.game.timeline.chains


def test_a_game_keeps_of_its_start_what_its_dice_ask_later_not_the_scenario():
    """DICE.WITHHELD's ending and time, DICE.COMMIT's game and commitment: all a game keeps of
    its ``GameStarted``. A loaded game (the server loads every game it holds) held the whole
    event, its scenario too: 8 KiB a held game (44-46 KiB against a goal of 40, engine 0.16.0
    to 0.16.2)."""
    import gc

    from regiment.core.events import GameStarted
    from regiment.core.revealing import REVEAL_TIMEOUT, Opening

    from .conftest import small_scenario

    store = MemoryStore()
    game = Game.new(small_scenario(withheld="contested", reveal_timeout=30), store=store)
    loaded = Game.load(game.game_id, store)
    first = loaded.history[0]
    for g in (game, loaded):
        assert g.started == Opening(g.game_id, "seeded", first.data["dice_commitment"],
                                    "contested", 30.0)
    del game, g   # (a live game's records hold the drafts it sealed, its first among them)
    gc.collect()
    assert not [o for o in gc.get_objects() if type(o) is GameStarted], \
        "a loaded game holds its GameStarted"
    plain = GameStarted(**{**first.data, "scenario": {}})
    assert Opening.of(plain)[3:] == ("concede", REVEAL_TIMEOUT)
