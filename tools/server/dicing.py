"""Shared dice on the game server (DICE.SHARED; the scheme is core.shared's).

The host holds what the seats send it blind until every seat has sent it: a seat's commitment
until the other's is in too, a seat's reveal for a round until the other's is. On PostgreSQL
they wait in the store's secrets (beside its seeds, never in a log or an export), so that
seats joined to different server processes meet there; on a store one process serves, in
that process while the game is held. The host then writes one step: every commitment with
its own (DICE.COMMIT), or every reveal with its own, the host's last (DICE.REVEAL): no seat
sees another's first, and the host learns a roll only once its own value is fixed by its
chain. A seat that reveals nothing stalls only its own roll; one that lets the other wait
past the scenario's ``reveal_timeout`` concedes, or the game ends contested, as the scenario
says (DICE.WITHHELD).

Each seat signs the heads it has seen with the key of its commitment (LOG.RECEIPT): a
``signed`` beside any message it sends, or alone. The host checks it against its own log (a
head it never had at that step is a split view, refused and logged), keeps the newest of each
seat and tells it to every watcher, so that a receipt either seat keeps is signed by the host
and by both seats.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import TYPE_CHECKING, Any

from regiment import bot
from regiment.core.dice import SeededDice
from regiment.core.errors import BadRequest, IllegalCommand
from regiment.core.game import Game
from regiment.core.log import get_logger
from regiment.core.pending import Roll
from regiment.core.revealing import value_problem
from regiment.core.scenario import parse_scenario
from regiment.core.shared import (
    SERVER,
    SharedDice,
    commitment,
    commitment_problem,
    receipt_message,
    signed_by,
)

from .seating import BOT, SPECTATE

if TYPE_CHECKING:   # (the hub is made of this part: it imports it)
    from .hub import Held

log = get_logger("regiment.server")

UNDO_NOTES = {
    "consent": "undo: consent: undoing a step the other seat made, or one that rolled dice, "
               "needs the other seat's consent; a seat takes back its own last step alone "
               "only while it rolled no dice and the other seat has not acted since "
               "(UNDO.CONSENT)",
    "free": "undo: free: either seat may undo a step, the other seat's too, without asking, "
            "but a step that rolled dice only with the other seat's consent (UNDO.POLICY, "
            "UNDO.CONSENT)",
    "solo": "undo: solo: one person plays (the bot plays the other seat), and undoes any "
            "step without asking (UNDO.POLICY)",
    "off": "undo: off: no step can be undone (UNDO.POLICY)",
}
SHARED_NOTE = ("dice: shared: each seat's client commits to a hash chain of its own when it "
               "joins and reveals one value of it a roll; every die is made of the seats' "
               "values and the server's, so nobody, the server included, can foresee or "
               "steer one (DICE.SHARED)")


def people(seats: dict[str, str]) -> list[str]:
    """The seats a person plays: the parties of shared dice besides the host."""
    return sorted(r for r, h in seats.items() if h != BOT and r != SPECTATE)


def shared(game: Game) -> bool:
    return game.started.dice == "shared"


def _key(game_id: str, kind: str, seat: str) -> str:
    return f"{game_id}/{kind}/{seat}"


def _illegal(why: str, rule: str, code: str, field: str | None = None) -> IllegalCommand:
    return IllegalCommand(why, rule=rule, code=code, field=field)


class Dicing:
    """The hub's part for shared dice (a part of ``tools.server.hub.Hub``)."""

    store: Any
    key: Any
    blind: dict[str, dict[str, Any]]   # a held game's: what seats sent (_hold_blind)

    def _apply(self, held: Held, request: dict[str, Any]) -> None:
        raise NotImplementedError

    def _follow(self, held: Held) -> None:
        """What follows a step without anyone: the bot's moves, and shared dice an undone
        step already rolled (they come out again, no reveal asked: DICE.NO_REROLL)."""
        bots = [role for role, h in held.seats.items() if h == BOT]
        game = held.game
        for _ in range(10_000):
            if bots:   # the bot's answer is part of the same message's work
                bot.play(game, bots)
            pending = game.pending
            if not isinstance(pending, Roll) or not shared(game) or pending.round is not None \
                    or not pending.known:
                return
            game.submit({"cmd": "roll", "by": pending.player, "faces": list(pending.known)})

    @staticmethod
    def _at_table(raw: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
        for name in ("dice", "seed"):
            if table.get(name):
                raw[name] = table[name]
        if raw.get("dice", "seeded") == "seeded" and "seed" not in raw:
            raw["seed"] = secrets.token_hex(32)
        if table.get("measured"):
            raw["table"] = {**raw.get("table", {}), "measured": True}
        return parse_scenario(raw)

    def revealed(self, game: Game) -> str | None:
        """The dice seed, once the game is over (never before: DICE.SECRET)."""
        if not game.state.over:
            return None
        if isinstance(game.dice, SeededDice):   # the game rolls with it: no query needed
            return game.dice.seed.hex()
        seed = self.store.get_secret(game.game_id)
        return seed.hex() if seed else None

    def _shared_game(self, held: Held, seat: str) -> Game:
        game = held.game
        if not shared(game):
            raise BadRequest("this game's dice are not shared: there is nothing to commit, "
                             "reveal or sign")
        if seat not in people(held.seats):
            raise _illegal("only a seat a person plays commits, reveals and signs",
                           "SERVER.SEAT", "not_a_party")
        return game

    def commit(self, held: Held, seat: str, body: Any) -> None:
        """DICE.COMMIT: a seat's signed commitment, held blind; once every seat's is in, one
        step with them all and the host's."""
        game = self._shared_game(held, seat)
        if game.timeline.chains:
            raise _illegal("the dice commitments are already in", "DICE.COMMIT",
                           "already_committed", "commit")
        problem = commitment_problem(game.game_id, seat, body)
        if problem:
            raise _illegal(problem, "DICE.COMMIT", "bad_commitment", "commit")
        self._hold_blind(game.game_id, "commit", seat, body)
        got = {p: self._held_blind(game.game_id, "commit", p) for p in people(held.seats)}
        if any(c is None for c in got.values()):
            return
        assert isinstance(game.dice, SharedDice) and game.dice.chain is not None
        got[SERVER] = commitment(game.game_id, SERVER, game.dice.chain, self.key.private)
        self._apply(held, {"cmd": "commit_dice", "by": seat, "commitments": got})

    def _hold_blind(self, game_id: str, kind: str, seat: str, value: Any) -> None:
        """Keep what a seat sent till the other's is in: in the store's secrets where several
        processes share it (PostgreSQL: the seats of a game may be on different ones), else
        in this process (nothing is lost that matters: a seat's program sends it again when
        it joins again, and a durable write of it cost a step 1.6 ms more, measured)."""
        if self._shared_store():
            self.store.put_secret(_key(game_id, kind, seat), json.dumps(value).encode())
        else:
            self.blind.setdefault(game_id, {})[_key(game_id, kind, seat)] = value

    def _held_blind(self, game_id: str, kind: str, seat: str) -> Any:
        if not self._shared_store():
            return self.blind.get(game_id, {}).get(_key(game_id, kind, seat))
        data = self.store.get_secret(_key(game_id, kind, seat))
        return json.loads(data) if data else None

    def _shared_store(self) -> bool:
        return hasattr(self.store, "listen")   # several server processes may share it

    def reveal(self, held: Held, seat: str, body: Any) -> float | None:
        """DICE.REVEAL: a seat's value for the round the game waits for, checked against its
        chain and held blind; once every seat's is in, one step with them all and the host's.
        The seconds left before the seats that have not revealed are past the scenario's
        timeout (None: nothing is waited for)."""
        game = self._shared_game(held, seat)
        pending = game.pending
        k = getattr(pending, "round", None)
        if k is None:
            raise _illegal("no roll waits for a reveal", "DICE.REVEAL", "no_reveal_pending")
        if not isinstance(body, dict) or body.get("round") != k:
            raise _illegal(f"round {k} is the one to reveal", "DICE.REVEAL", "wrong_round",
                           "reveal.round")
        problem = value_problem(game.timeline, seat, k, body.get("value"))
        if problem:
            raise _illegal(problem, "DICE.REVEAL", "bad_reveal", "reveal.value")
        mine = self._held_blind(game.game_id, "reveal", seat)
        at = mine["at"] if mine and mine.get("round") == k else time.time()
        self._hold_blind(game.game_id, "reveal", seat,
                         {"round": k, "value": body["value"], "at": at})
        return self._reveal_if_all(held, k)

    def _reveal_if_all(self, held: Held, k: int) -> float | None:
        game = held.game
        got = {p: self._held_blind(game.game_id, "reveal", p) for p in people(held.seats)}
        values = {p: r["value"] for p, r in got.items() if r and r.get("round") == k}
        if len(values) < len(got):
            if not values:
                return None
            first = min(r["at"] for r in got.values() if r and r.get("round") == k)
            timeout = game.started.reveal_timeout
            return max(0.0, first + timeout - time.time())
        assert isinstance(game.dice, SharedDice) and game.dice.chain is not None
        values[SERVER] = game.dice.chain.value(k)   # the host's, last
        pending = game.pending
        assert isinstance(pending, Roll)   # (a round waits)
        self._apply(held, {"cmd": "reveal", "by": pending.player, "round": k,
                           "values": values})
        return None

    def expire(self, held: Held, k: int) -> float | None:
        """DICE.WITHHELD: round ``k`` still waits: the seconds still to wait, or, past the
        timeout, the step that ends the game for the seat that did not reveal (a round nobody
        revealed waits on: nobody was kept waiting)."""
        game = held.game
        if getattr(game.pending, "round", None) != k:
            return None
        left = self._reveal_if_all(held, k)
        if left is None or left > 0:
            return left
        late = [p for p in people(held.seats)
                if (self._held_blind(game.game_id, "reveal", p) or {}).get("round") != k]
        log.info("reveal_withheld", game=game.game_id, round=k, seat=late[0])
        self._apply(held, {"cmd": "withheld", "by": late[0], "round": k})
        return None

    def cosign(self, held: Held, seat: str, body: Any) -> dict[str, Any]:
        """LOG.RECEIPT: a seat's signature of a head it was shown, checked against the log
        (another head at that step is a split view) and the key of its commitment; kept, the
        newest of each seat, and returned for the other watchers."""
        game = self._shared_game(held, seat)
        chain = game.timeline.chains.get(seat)
        if chain is None:
            raise _illegal("a seat signs with the key of its commitment: commit first",
                           "LOG.RECEIPT", "not_committed", "signed")
        if not isinstance(body, dict):
            raise BadRequest("signed: a map of step, head and sig", field="signed")
        step, head, sig = body.get("step"), body.get("head"), body.get("sig")
        timeline = game.timeline
        if type(step) is not int or not 0 <= step < len(timeline.steps):
            raise BadRequest(f"signed.step: not a step of this game ({step!r})",
                             field="signed.step")
        logged = game.records.hash_at(timeline.last_seq(step)).hex()
        if head != logged:
            log.warning("split_view", game=game.game_id, seat=seat, step=step)
            raise _illegal(f"step {step}'s head here is {logged}, not {head!r}: that seat was "
                           "shown another game", "LOG.RECEIPT", "split_view", "signed.head")
        if not isinstance(sig, str) or not signed_by(chain.key, sig, receipt_message(
                game.game_id, step, head)):
            raise _illegal("the signature is not that seat's key's over this step and head",
                           "LOG.RECEIPT", "bad_signature", "signed.sig")
        kept = {"step": step, "head": head, "key": chain.key, "sig": sig}
        held.cosigned[seat] = kept
        self._hold_blind(game.game_id, "signed", seat, kept)
        return {seat: kept}

    def cosigned(self, held: Held) -> dict[str, Any]:
        """Each seat's newest signed head, as the store keeps them (another process's)."""
        for seat in people(held.seats):
            kept = self._held_blind(held.game.game_id, "signed", seat)
            if kept:
                held.cosigned[seat] = kept
        return held.cosigned

    def shared_view(self, held: Held) -> dict[str, Any]:
        """What a seat's client needs of shared dice: the seats whose commitments the host
        still waits for, and each seat's newest signed head."""
        game = held.game
        return {"commit": [] if game.timeline.chains else people(held.seats),
                "cosigned": held.cosigned}
