"""The games one server process holds: made, loaded, moved on by a seat's command, caught up
with what another process appended, and told to the connections that watch them.

The engine is synchronous and quick (a step takes well under a millisecond); the hub runs it
on the server's event loop, one step at a time, so that two commands to one game never
interleave within a process. Across processes the store decides: an append names the version
it follows, and the loser of a race reloads the game and tries its command once more
(STORE.VERSION), so no game ever forks.
"""

from __future__ import annotations

import hashlib
import secrets
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from regiment.core.errors import (
    BadRequest,
    ConcurrencyConflict,
    IllegalCommand,
    InvalidScenario,
    RegimentError,
)
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario

from .serve import event_json, pending_json
from .signing import ServerKey

SPECTATE = "spectate"
MAX_SCENARIO = 256 * 1024


def token_hash(token: str) -> str:
    """Tokens are kept hashed: a copy of the store does not seat its holder at any game."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Watcher:
    """One connection: its seat (a player, or ``spectate``), how many records it has been
    sent, and how to send it a message."""

    seat: str
    send: Callable[[str], Any]   # a coroutine function: the message as JSON text
    seen: int = 0


@dataclass
class Held:
    game: Game
    seats: dict[str, str]                      # role -> token hash
    watchers: list[Watcher] = field(default_factory=list)


class Hub:
    def __init__(self, store: Any, key: ServerKey) -> None:
        self.store = store
        self.key = key
        self.held: dict[str, Held] = {}

    # --- making and finding games -------------------------------------------------------

    def create(self, body: bytes) -> dict[str, Any]:
        """A game from a scenario (TOML), with server-side seeded dice and one secret token a
        seat; answers its id, the tokens and the spectators' link."""
        if len(body) > MAX_SCENARIO:
            raise BadRequest(f"a scenario of {len(body)} bytes is larger than {MAX_SCENARIO}")
        try:
            raw = tomllib.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise InvalidScenario(f"not a TOML scenario ({exc})", path="") from None
        notes = []
        if "seed" in raw:   # whoever wrote it could foresee every die
            notes.append("the scenario's seed was not used: the server made the seed, and "
                         "keeps it until the game is over (DICE.SECRET)")
        if raw.get("dice", "seeded") != "seeded":
            raise InvalidScenario("the server plays with seeded dice only: players at a "
                                  "distance cannot check each other's real dice", path="dice")
        raw.setdefault("undo", "consent")   # players apart agree before a roll is undone
        raw["seed"] = secrets.token_hex(32)
        scenario = parse_scenario(raw)
        game = Game.new(scenario, store=self.store)
        tokens = {p: secrets.token_urlsafe(24) for p in game.state.players}
        tokens[SPECTATE] = secrets.token_urlsafe(24)
        seats = {role: token_hash(t) for role, t in tokens.items()}
        self.store.put_seats(game.game_id, seats)
        self.held[game.game_id] = Held(game, seats)
        spectate = tokens.pop(SPECTATE)
        return {"id": game.game_id, "seats": tokens,
                "spectate": f"/games/{game.game_id}/replay?token={spectate}", "notes": notes}

    def get(self, game_id: str) -> Held:
        """The game as the store has it now (loaded, or caught up if another process moved
        it on)."""
        held = self.held.get(game_id)
        if held is None:
            seats = self.store.get_seats(game_id)
            if not seats:
                raise BadRequest(f"no game {game_id!r} on this server")
            held = self.held[game_id] = Held(Game.load(game_id, self.store), seats)
            return held
        game = held.game
        if self.store.version(game_id) != game.version:   # moved on by another process
            try:   # fold only the new records
                game.replay(self.store.read_events(game_id, game.version))
            except RegimentError:   # anything odd: the whole game again, from the store
                held.game = Game.load(game_id, self.store)
        return held

    def leave(self, game_id: str, watcher: Watcher) -> None:
        """A connection closed. A game nobody watches is let go: a process serving many games
        keeps in memory only those being played, and loads a game again when it is joined."""
        held = self.held.get(game_id)
        if held is None:
            return
        if watcher in held.watchers:
            held.watchers.remove(watcher)
        if not held.watchers:
            del self.held[game_id]

    def seat_of(self, game_id: str, token: str | None) -> tuple[Held, str]:
        """The game and the seat a token holds; BadRequest for a wrong or missing token (said
        the same way for a game that does not exist, so ids cannot be probed)."""
        try:
            held = self.get(game_id)
        except BadRequest:
            held = None
        if held is not None and token:
            digest = token_hash(token)
            for role, h in held.seats.items():
                if secrets.compare_digest(h, digest):
                    return held, role
        raise BadRequest("no such game, or a wrong or missing token")

    # --- moving games on ----------------------------------------------------------------

    def command(self, game_id: str, seat: str, request: Any) -> None:
        """SERVER.SEAT: apply a seat's command as one step (IllegalCommand and BadRequest
        change nothing).
        A race lost to another process reloads the game and tries once more."""
        if seat == SPECTATE:
            raise IllegalCommand("spectators only watch: no command is accepted from them",
                                 rule="SERVER.SEAT")
        if not isinstance(request, dict):
            raise BadRequest("a command is a JSON object")
        if request.get("by") != seat:
            raise IllegalCommand(f"this seat is {seat!r}: it may send only commands by "
                                 f"{seat!r}, not by {request.get('by')!r}", rule="SERVER.SEAT")
        for attempt in (1, 2):
            held = self.get(game_id)
            try:
                held.game.submit(request)
                return
            except ConcurrencyConflict:
                self.held.pop(game_id, None)
                if attempt == 2:
                    raise

    def update(self, game_id: str) -> list[tuple[Watcher, dict[str, Any]]]:
        """What each connection to the game has not been told yet, with the game's pending
        decision, head and a signed receipt for its newest step."""
        held = self.held.get(game_id)
        if held is None or not held.watchers:
            return []
        game = held.game
        out = []
        base = self.snapshot(game)
        for w in held.watchers:
            if w.seen < game.version:
                out.append((w, {"events": [event_json(r) for r in game.records[w.seen:]],
                                **base}))
                w.seen = game.version
        return out

    def snapshot(self, game: Game) -> dict[str, Any]:
        step = game.records[-1].step
        msg: dict[str, Any] = {"pending": pending_json(game), "head": game.head,
                               "receipt": self.key.sign(game.game_id, step, game.head)}
        if game.state.over:
            msg["seed"] = self.revealed(game)
        return msg

    def revealed(self, game: Game) -> str | None:
        """The dice seed, once the game is over (never before: DICE.SECRET)."""
        if not game.state.over:
            return None
        seed = self.store.get_secret(game.game_id)
        return seed.hex() if seed else None

    def state(self, held: Held) -> dict[str, Any]:
        game = held.game
        return {"id": game.game_id, "preset": game.preset.name, "records": game.version,
                "state": game.state.summary(), "over": game.state.over,
                **self.snapshot(game)}
