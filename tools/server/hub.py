"""The games one server process holds: made, loaded, moved on by a seat's command, caught up
with what another process appended, and told to the connections that watch them.

The engine is synchronous and quick (a step takes well under a millisecond); the hub runs it
on the server's event loop, one step at a time, so that two commands to one game never
interleave within a process. Across processes the store decides: an append names the version
it follows, and the loser of a race catches up with the winner's step, keeping the game's
watchers, and tries its command once more (STORE.VERSION, SERVER.RACE), so no game ever forks
and every watcher is told every step, whichever process made it.

A game is held in memory only while a connection watches it: a game made and never joined,
or only read over HTTP, is not kept (SERVER.LIMITS). A token is checked against the seats the
store keeps before anything of the game is loaded, so a wrong token costs one query and
answers alike whether the game exists or not.
"""

from __future__ import annotations

import secrets
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from regiment import bot
from regiment.core.commands import HOST_COMMANDS
from regiment.core.errors import (
    BadRequest,
    ConcurrencyConflict,
    IllegalCommand,
    InvalidScenario,
    RegimentError,
    StoreUnavailable,
)
from regiment.core.game import Game
from regiment.core.log import get_logger
from regiment.core.scenario import UNDO, parse_scenario

from ..serve import event_json, pending_json
from .dicing import SHARED_NOTE, UNDO_NOTES, Dicing, shared
from .durable import Flusher
from .seating import BOT, NO_SEATS, SPECTATE, dumps, seat_of_digest, token_hash
from .signing import ServerKey

log = get_logger("regiment.server")
MAX_SCENARIO = 256 * 1024



@dataclass
class Watcher:
    """One connection: its seat (a player, or ``spectate``), how many records it has been
    sent, and how to send it a message."""

    seat: str
    send: Callable[[str], Any]   # a coroutine function: the message as JSON text
    seen: int = 0
    greeted: bool = True         # sent its first message (till then it is told nothing)


@dataclass
class Held:
    game: Game
    seats: dict[str, str]                      # role -> token hash
    watchers: list[Watcher] = field(default_factory=list)
    mark: int = 0                              # its newest commit's (tools.durable)
    cosigned: dict[str, Any] = field(default_factory=dict)   # seat -> its newest signed head


class Hub(Dicing):
    def __init__(self, store: Any, key: ServerKey, flusher: Flusher | None = None) -> None:
        self.store = store
        self.key = key
        self.held: dict[str, Held] = {}
        self.flusher = flusher   # a store that groups its commits: its syncs
        self.blind: dict[str, dict[str, Any]] = {}   # shared dice (dicing), a held game's

    # --- making and finding games -------------------------------------------------------

    def create(self, body: bytes, undo: str | None = None, bots: tuple[str, ...] = (),
               table: dict[str, Any] | None = None, dice: str | None = None) -> dict[str, Any]:
        """A game from a scenario (TOML), with shared dice (DICE.SHARED: each seat and the
        host contribute; ``dice="seeded"``: the host's seed alone, as before protocol 3) and one
        secret token a seat; answers its id, the tokens, the spectators' link and notes (the undo
        policy it plays under among them). ``undo`` overrides the scenario's policy; ``bots`` are
        the seats the bundled bot plays (no token: the bot moves as soon as the game waits on
        it). The game is not held: it is loaded when a seat joins it. ``table``: a game for
        players at one table (``regiment play --web``), who see each other's dice: its
        ``dice`` (manual: real dice) and ``seed`` as they chose, ``measured`` for table mode,
        and the scenario's own undo policy."""
        if len(body) > MAX_SCENARIO:
            raise BadRequest(f"a scenario of {len(body)} bytes is larger than {MAX_SCENARIO}")
        if undo is not None and undo not in UNDO:
            raise BadRequest(f"undo={undo!r}: one of {', '.join(UNDO)}")
        try:
            raw = tomllib.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise InvalidScenario(f"not a TOML scenario ({exc})", path="") from None
        except RecursionError:
            raise InvalidScenario("not a scenario: arrays or tables nested too deep",
                                  path="") from None
        notes: list[str] = []
        if table is not None:
            return self._made(self._at_table(raw, table), bots, notes)
        if "seed" in raw:   # whoever wrote it could foresee every die
            notes.append("the scenario's seed was not used: the dice are the server's and "
                         "the seats' (DICE.SHARED), or with dice=seeded a seed the server "
                         "makes and keeps until the game is over (DICE.SECRET)")
        if raw.get("dice", "seeded") not in ("seeded", "shared"):
            raise InvalidScenario("the server plays with shared or seeded dice only: players "
                                  "at a distance cannot check each other's real dice",
                                  path="dice")
        if dice not in (None, "shared", "seeded"):
            raise BadRequest(f"dice={dice!r}: shared (every seat contributes) or seeded (the "
                             "host's seed alone)", field="dice")
        if undo is not None:
            raw["undo"] = undo
        raw.setdefault("undo", "consent")   # players apart agree before a step is undone
        raw["dice"] = dice or "shared"
        raw.pop("seed", None)
        if raw["dice"] == "seeded":
            raw["seed"] = secrets.token_hex(32)
        return self._made(parse_scenario(raw), bots, notes)

    def _made(self, scenario: dict[str, Any], bots: tuple[str, ...], notes: list[str]
              ) -> dict[str, Any]:
        players = [p["id"] for p in scenario["players"]]
        unknown = [b for b in bots if b not in players]
        if unknown:
            raise BadRequest(f"bot={unknown[0]!r}: not a player of this scenario (its players: "
                             f"{', '.join(players)})", field="bot")
        if set(bots) >= set(players):
            raise BadRequest("bot: a game needs a seat for a person (the bot plays at most "
                             "all but one)", field="bot")
        people = len(players) - len(set(bots))
        if scenario["undo"] == "solo" and people > 1:
            raise BadRequest("undo=solo is for a game one person plays against the bot: this "
                             f"one seats {people} people (UNDO.POLICY)", field="undo")
        if scenario["undo"] == "free" and people == 1:
            scenario = {**scenario, "undo": "solo"}   # one person: its undo is its own
        notes.append(UNDO_NOTES[scenario["undo"]])
        if scenario["dice"] == "shared":
            notes.append(SHARED_NOTE)
        game = Game.new(scenario, store=self.store)
        tokens = {p: secrets.token_urlsafe(24) for p in game.state.players if p not in bots}
        tokens[SPECTATE] = secrets.token_urlsafe(24)
        self.store.put_seats(game.game_id, {**{role: token_hash(t) for role, t in
                                                tokens.items()}, **dict.fromkeys(bots, BOT)})
        spectate = tokens.pop(SPECTATE)
        if bots:
            bot.play(game, bots)   # the bot's moves, if the game opens with its decision
            notes.append(f"the bundled bot plays {', '.join(bots)}")
        return {"id": game.game_id, "seats": tokens, "undo": scenario["undo"],
                "dice": scenario["dice"],
                "spectate": f"/games/{game.game_id}/replay?token={spectate}", "notes": notes}

    def get(self, game_id: str, seats: dict[str, str] | None = None) -> Held:
        """The game as the store has it now (loaded, or caught up if another process moved
        it on)."""
        held = self.held.get(game_id)
        if held is None:
            seats = seats or self.store.get_seats(game_id)
            if not seats:
                raise BadRequest(f"no game {game_id!r} on this server")
            held = self.held[game_id] = Held(Game.load(game_id, self.store), seats)
            self._marked(held)   # what it read is told once a sync after it returns
            return held
        if self.doubtful(held):
            self.reload(held)
        elif self._behind(held):   # moved on by another process
            self.catch_up(held)
        return held

    def uncertain(self, held: Held) -> bool:
        """Whether the game as this process holds it may have a step the store lost (made to
        a database that crashed before it was flushed): then it is read again before
        anything of it is told (SERVER.DURABLE)."""
        return self.flusher is not None and self.flusher.uncertain(held.mark)

    def doubtful(self, held: Held) -> bool:
        """Uncertain, or not yet durable while the database cannot be asked or since the
        incarnation its step went to ended (a SQLite transaction rolled back): a command is
        decided on the game as the store has it, not on a step it may have lost."""
        flusher = self.flusher
        return flusher is not None and (flusher.uncertain(held.mark) or (
            held.mark > flusher.synced and (flusher.failing or flusher.outdated(
                held.mark, getattr(self.store, "incarnation", None)))))

    def mark(self) -> int:
        """A commit (or a read) was just made: the number its sync is awaited with."""
        assert self.flusher is not None
        return self.flusher.mark(getattr(self.store, "incarnation", None))

    def reload(self, held: Held) -> None:
        """The whole game again, as the store has it; its watchers stay with it."""
        held.game = Game.load(held.game.game_id, self.store)
        self._marked(held)   # what it read may not be durable yet either

    def catch_up(self, held: Held) -> None:
        """Fold the steps another process appended; the game's watchers stay with it."""
        game = held.game
        try:   # fold only the new records
            game.replay(self.store.read_events(game.game_id, game.version))
        except StoreUnavailable:
            raise
        except RegimentError:   # anything odd: the whole game again, from the store
            held.game = Game.load(game.game_id, self.store)
        if shared(held.game):   # what seats signed through another process
            self.cosigned(held)
        self._marked(held)   # read from the store: durable once a sync after it is

    def _marked(self, held: Held) -> None:
        if self.flusher is not None:
            held.mark = self.mark()

    async def settled(self, held: Held) -> None:
        """Return once every step of the game this process holds is durable (SERVER.DURABLE:
        nothing is told, and no receipt signed, before)."""
        while self.flusher is not None and held.mark > self.flusher.synced:
            await self.flusher.wait(held.mark)   # StoreUnavailable: not known yet
        self._certain(held.mark, "the game's latest step", "it is read again from the database")

    async def stored(self, what: str) -> None:
        """Return once what this process just wrote to the store, or read from it, is durable
        (SERVER.DURABLE: a game's tokens are handed out, and a game read from the store is
        shown, only then). StoreUnavailable if the database restarted, or the transaction it
        went to could not be committed, before it was known durable: it may have been lost,
        so nothing of it is told; ``what`` says what it was."""
        if self.flusher is None:
            return
        mark = self.mark()
        await self.flusher.wait(mark)
        self._certain(mark, what, "nothing of it was told; try again")

    def _certain(self, mark: int, what: str, then: str) -> None:
        """StoreUnavailable if commit ``mark`` went to a database that restarted, or to a
        transaction that failed, before it was known durable (SERVER.DURABLE): ``then`` says
        what follows."""
        if self.flusher is not None and self.flusher.uncertain(mark):
            raise StoreUnavailable(f"the database restarted, or failed to commit, before "
                                   f"{what} was known durable: {then}")

    def ahead(self, held: Held) -> bool:
        """Whether the game holds a step not yet durable (its teller is the step's own), or
        one that may have been lost."""
        return self.flusher is not None and (held.mark > self.flusher.synced
                                             or self.flusher.uncertain(held.mark))

    def _behind(self, held: Held) -> bool:
        """Whether the store holds steps of the game this process has not folded."""
        return bool(self.store.version(held.game.game_id) != held.game.version)

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
            self.blind.pop(game_id, None)

    def sweep(self) -> int:
        """Drop every held game that no connection watches (SERVER.LIMITS); how many."""
        idle = [g for g, h in self.held.items() if not h.watchers]
        for game_id in idle:
            del self.held[game_id]
            self.blind.pop(game_id, None)
        return len(idle)

    def role_of(self, game_id: str, token: str | None) -> str:
        """The seat a token holds, the game not loaded (``seat_of``'s check alone)."""
        digest = token_hash(token or "")
        held = self.held.get(game_id)
        role = seat_of_digest(held.seats, digest) if held is not None and token else None
        if role is not None:
            return role
        try:
            seats = self.store.get_seats(game_id)
        except BadRequest:
            seats = {}
        role = seat_of_digest(seats or NO_SEATS, digest)
        if role is None or not seats or not token:
            raise BadRequest("no such game, or a wrong or missing token")
        return role

    def seat_of(self, game_id: str, token: str | None) -> tuple[Held, str]:
        """The game and the seat a token holds; BadRequest for a wrong or missing token (said
        the same way, after the same work, for a game that does not exist, so ids cannot be
        probed). Nothing is loaded until the token matches a seat."""
        digest = token_hash(token or "")
        held = self.held.get(game_id)
        role = seat_of_digest(held.seats, digest) if held is not None and token else None
        if role is not None:
            return self.get(game_id), role
        try:
            seats = self.store.get_seats(game_id)
        except BadRequest:   # not even a game id
            seats = {}
        role = seat_of_digest(seats or NO_SEATS, digest)
        if role is None or not seats or not token:
            raise BadRequest("no such game, or a wrong or missing token")
        return self.get(game_id, seats), role

    # --- moving games on ----------------------------------------------------------------

    def command(self, game_id: str, seat: str, request: Any) -> None:
        """SERVER.SEAT: apply a seat's command as one step (IllegalCommand and BadRequest
        change nothing). SERVER.RACE: a race lost to another process catches up with its
        step and tries once more; the game's watchers are told of both by ``update``."""
        if seat == SPECTATE:
            raise IllegalCommand("spectators only watch: no command is accepted from them",
                                 rule="SERVER.SEAT")
        if not isinstance(request, dict):
            raise BadRequest("a command is a JSON object")
        if request.get("by") != seat:
            raise IllegalCommand(f"this seat is {seat!r}: it may send only commands by "
                                 f"{seat!r}, not by {request.get('by')!r}", rule="SERVER.SEAT")
        if request.get("cmd") in HOST_COMMANDS:
            raise IllegalCommand(f"{request['cmd']} is written by the host, never by a seat "
                                 "(DICE.SHARED)", rule="SERVER.SEAT", code="host_command")
        # The game as this process holds it, without asking the store whether another
        # process moved it on: a step appended meanwhile makes the append a conflict (or,
        # decided on the older position, the command illegal), and only then is the store
        # asked and the game caught up. That saves a query before every command (13 % of a
        # PostgreSQL server's time, measured in issue 29).
        held = self.held.get(game_id) or self.get(game_id)
        self._apply(held, request)

    def _apply(self, held: Held, request: dict[str, Any]) -> None:
        """One step of the game (a seat's command, or one the host writes for shared dice),
        then what follows it without anyone: the bot's moves, dice an undone step already
        rolled (DICE.NO_REROLL)."""
        game_id = held.game.game_id
        if self.doubtful(held):
            self.reload(held)
        for attempt in (1, 2):
            try:
                held.game.submit(request)
                self._follow(held)
                self._marked(held)
                return
            except IllegalCommand:
                if attempt == 2 or not self._behind(held):
                    raise
                self.catch_up(held)
            except ConcurrencyConflict:   # SERVER.RACE: another process's step came first
                log.info("race_lost", game=game_id, attempt=attempt)
                self.catch_up(held)
                if attempt == 2:
                    raise ConcurrencyConflict(
                        "other steps were made at the same moment through another server "
                        "process; the game has moved on and this command was not applied "
                        "(nothing changed): look at the new position and send it again"
                    ) from None

    def update(self, game_id: str) -> list[tuple[Watcher, str]]:
        """What each connection to the game has not been told yet, with the game's pending
        decision, head and a signed receipt for its newest step, as JSON text. Connections
        told up to the same record are sent the same text, built once (the seats and the
        spectators of a game almost always are)."""
        held = self.held.get(game_id)
        if held is None or not held.watchers or self.ahead(held):
            return []
        game = held.game
        out = []
        base: dict[str, Any] | None = None
        texts: dict[int, str] = {}
        for w in held.watchers:
            if w.greeted and w.seen < game.version:
                if w.seen not in texts:
                    base = base or self.snapshot(game)
                    texts[w.seen] = dumps({"events": [event_json(r) for r in
                                                      game.records[w.seen:]], **base})
                out.append((w, texts[w.seen]))
                w.seen = game.version
        return out

    def snapshot(self, game: Game) -> dict[str, Any]:
        step = game.records[-1].step
        msg: dict[str, Any] = {"pending": pending_json(game), "head": game.head,
                               "receipt": self.key.sign(game.game_id, step, game.head)}
        if game.state.over and not shared(game):
            msg["seed"] = self.revealed(game)
        held = self.held.get(game.game_id)
        if held is not None and shared(game):
            msg["shared"] = self.shared_view(held)
        return msg

    def state(self, held: Held) -> dict[str, Any]:
        game = held.game
        return {"id": game.game_id, "preset": game.preset.name, "records": game.version,
                "state": game.state.summary(), "over": game.state.over,
                **self.snapshot(game)}
