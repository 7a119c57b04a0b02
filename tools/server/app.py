"""``regiment server``: many games at once, for players who are not at the same table.

An ASGI app (Starlette, served by uvicorn). DESIGN's contract:
- ``POST /games`` (a scenario, TOML) answers ``{"id", "seats": {PLAYER: TOKEN}, "spectate"}``;
- ``GET /games/{id}?token=T`` the state; ``GET /games/{id}/log?token=T`` the log as an export
  (JSON lines, ``regiment verify`` reads it); ``GET /games/{id}/replay?token=T`` the replay
  page, which follows the game live; ``GET /key`` the server's public key;
- a WebSocket at ``/games/{id}/ws?token=T[&after=N]`` speaks the engine protocol's messages:
  it first sends the records from ``N`` (0: all), the pending decision, the head and a signed
  receipt; then each command it is sent by its seat is answered, and every step of the game,
  made through any server process, is sent to every connection as it happens.

Seats (SERVER.SEAT): a command is taken only from the seat whose player it names; the
spectators' token only reads. Tokens are kept hashed. The dice are seeded on the server and
their seed is revealed when the game is over (DICE.SECRET), so that anyone can then check every
roll with ``verify --seed``. Every message after a step carries a receipt, the step's head
signed with the server's Ed25519 key (``tools.signing``).

What a client can hold or spend is bounded (SERVER.LIMITS): request headers must arrive within
10 s and a scenario's body within 10 s (``guard``); every frame a connection sends, text or
binary, counts against one rate; a client address may make a few games a minute; games
nobody watches are dropped from memory; a database that cannot be reached is answered 503 (a
WebSocket: an error message), with nothing changed, until it is back (STORE.OUTAGE).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Match, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from regiment.core.errors import (
    BadRequest,
    RateLimited,
    RegimentError,
    StoreError,
    StoreUnavailable,
)
from regiment.core.log import get_logger
from regiment.store.base import CAUGHT_UP

from ..serve import PROTOCOL, event_json, query
from .durable import Flusher
from .guard import BODY_TIMEOUT, CreateLimit
from .hub import Held, Hub, Watcher
from .outbox import Outbox
from .routes import Http
from .seating import SPECTATE, dumps
from .seats import IDLE, RATE, Seats
from .signing import ServerKey

log = get_logger("regiment.server")

MAX_MESSAGE = 16 * 1024        # a command is a few hundred bytes
SHARED_KEYS = {"commit", "reveal", "signed"}   # a seat's part of shared dice (dicing)
OUTBOX = 1000                  # messages waiting for a client that does not read
SWEEP = 30.0                   # seconds between sweeps of games nobody watches


def make_app(store: Any, key: ServerKey, games_per_minute: float = 20.0,
             body_timeout: float = BODY_TIMEOUT, idle: float = IDLE) -> ASGIApp:
    # a store that groups its commits makes them durable in a thread of its own
    flusher = Flusher(store.sync) if getattr(store, "grouped", False) else None
    hub = Hub(store, key, flusher)
    limit = CreateLimit(games_per_minute)
    seats = Seats()

    async def play(ws: WebSocket) -> None:
        game_id = ws.path_params["game_id"]
        await ws.accept()
        try:
            held, seat = hub.seat_of(game_id, ws.query_params.get("token"))
            after = ws.query_params.get("after", "0")
            if not after.isdigit():
                raise BadRequest(f"after={after!r}: give how many records you have (0: none)")
        except RegimentError as exc:
            await ws.send_json({"error": exc.to_dict()})
            await ws.close(code=1008)
            return
        use = seats.join(game_id, seat, seat == SPECTATE)
        if use is None:   # SERVER.LIMITS: a seat's connections are few
            await ws.send_json({"error": BadRequest(
                f"the seat {seat} has all the connections it may have open; close one "
                "first").to_dict()})
            await ws.close(code=1008, reason="too many connections for this seat")
            return
        # Everything for this connection goes through one outbox and one writer: sends come
        # from its own commands, from the other seats' and from other processes' steps, and
        # two sends at once on one WebSocket break it.
        outbox = Outbox(OUTBOX)
        why = ["gone, or too slow to read"]   # the reason the writer closes with
        writer = asyncio.create_task(write(ws, outbox, why))
        # watching from now (so the game is kept), told nothing before its first message
        watcher = Watcher(seat, outbox.post, greeted=False)
        held.watchers.append(watcher)
        try:
            await hub.settled(held)   # its first message shows only durable steps
            game = held.game
            start = min(int(after), game.version)
            watcher.seen, watcher.greeted = game.version, True
            watcher.send(dumps({"protocol": PROTOCOL, "game_id": game_id, "seat": seat,
                                "events": [
                event_json(r) for r in game.records[start:]], **hub.snapshot(game)}))
            tell(game_id)   # the game's other connections: what joining caught up with
            while not writer.done():
                try:   # SERVER.LIMITS: a connection that sends nothing for IDLE is closed
                    async with asyncio.timeout(idle):
                        frame = await ws.receive()
                except TimeoutError:
                    await ws.close(code=1001, reason=f"idle for {idle:g} s")
                    return
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                # every frame counts, text or binary, against its seat's one rate
                if not use.take(time.monotonic()):
                    if use.flooding():   # kept above the rate: closed, once told so
                        why[0] = "too many messages"
                        outbox.post(None)
                        return
                    watcher.send(error_message(RateLimited(
                        f"too many messages: at most {RATE:.0f} a second from a seat (this "
                        "one was dropped; nothing changed)", retry_after=use.retry_after()),
                        game_id))
                    continue
                text = frame.get("text")
                if text is None:   # a binary frame: the protocol is JSON text
                    watcher.send(error_message(BadRequest(
                        "a message is JSON text, not binary data (nothing changed)"), game_id))
                    continue
                await handle(watcher, held, seat, text)
        except WebSocketDisconnect:
            pass
        except StoreError as exc:   # a step could not be made durable: told to no one
            watcher.send(dumps({"error": exc.to_dict()}))
        finally:
            hub.leave(game_id, watcher)
            seats.leave(game_id, seat)
            outbox.post(None)
            await asyncio.gather(writer, return_exceptions=True)

    async def write(ws: WebSocket, outbox: Outbox, why: list[str]) -> None:
        while (text := await outbox.get()) is not None:
            try:
                await ws.send_text(text)
            except Exception:   # gone: the reader's loop ends on its own
                return
            # not kept while the next is awaited: a connection's greeting is its whole log
            # (14 KiB of a connection's 44 traced, measured with make bench, issue 29)
            text = None
        with contextlib.suppress(Exception):
            await ws.close(code=1008, reason=why[0])

    async def handle(watcher: Watcher, held: Held, seat: str, text: str) -> None:
        """A seat's message: the command applied, and once its step is durable, every
        watcher told (SERVER.DURABLE); meanwhile the loop serves the other games."""
        game_id = held.game.game_id
        refusal, made = None, (0, "")
        try:
            if len(text) > MAX_MESSAGE:
                raise BadRequest(f"a message of {len(text)} characters is longer than "
                                 f"{MAX_MESSAGE}")
            try:
                request = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise BadRequest(f"malformed JSON: {exc}") from None
            if isinstance(request, dict) and "query" in request:   # as serve answers it
                await hub.settled(held)   # what it tells is durable
                watcher.send(dumps({**query(held.game, request["query"], request.get("cmd"),
                                            request),
                                    "game_id": game_id}))
                return
            before = held.game.version
            if isinstance(request, dict) and SHARED_KEYS & request.keys():
                request = shared(watcher, held, seat, request)
            if request:
                hub.command(game_id, seat, request)
            if held.game.version != before:
                made = held.game.version, held.game.head
        except RegimentError as exc:
            refusal = exc   # a race lost: the steps that won it are told too
        try:
            await settled_again(held)
        except StoreUnavailable as exc:   # whether the step is durable is not known: no
            watcher.send(dumps({"error": exc.to_dict()}))   # position is told till it is
            return
        if refusal is None and made[0] and not kept(held.game, *made):
            refusal = StoreUnavailable("the database lost this step before it was durable "
                                       "(it restarted, or its commit failed); nothing of it "
                                       "was told: look at the position and send it again")
        tell(game_id)
        if refusal is not None:
            watcher.send(error_message(refusal, game_id))

    def shared(watcher: Watcher, held: Held, seat: str, request: dict[str, Any]
               ) -> dict[str, Any]:
        """Shared dice (tools.server.dicing): a seat's commitment or reveal, and a signature
        of a head it saw (beside any message, or alone), each told to the game's other
        watchers; what is left of the message (a command, or nothing)."""
        request = dict(request)
        signed = request.pop("signed", None)
        if signed is not None:
            cosigned = hub.cosign(held, seat, signed)
            if held.game.state.over:   # else it rides in the next step's message (shared)
                told = dumps({"cosigned": cosigned, "game_id": held.game.game_id})
                for w in held.watchers:
                    if w is not watcher and w.greeted:
                        w.send(told)
        if "commit" in request:
            hub.commit(held, seat, request.pop("commit"))
        elif "reveal" in request:
            body = request.pop("reveal")
            left = hub.reveal(held, seat, body)
            if left is not None:   # DICE.WITHHELD: looked at again once the time is up
                wait(held.game.game_id, body["round"], left)
        return request

    def wait(game_id: str, k: int, left: float) -> None:
        asyncio.get_running_loop().call_later(
            left + 0.05, lambda: asyncio.ensure_future(expire(game_id, k)))

    async def expire(game_id: str, k: int) -> None:
        held = hub.held.get(game_id)
        if held is None:   # nobody watches it here: whoever comes back finds it waiting
            return
        try:
            left = hub.expire(held, k)
            if left is not None:
                wait(game_id, k, left)
                return
            await settled_again(held)
        except RegimentError as exc:
            log.warning("expire_failed", game=game_id, round=k, why=str(exc))
            return
        tell(game_id)

    async def settled_again(held: Held) -> None:
        """``hub.settled``; if meanwhile the database could not be asked or restarted, the
        game read again from it (a step it lost is then not in it) and settled once more."""
        for attempt in (1, 2, 3):
            try:
                await hub.settled(held)
                return
            except StoreUnavailable:
                if attempt == 3:
                    raise
                if hub.doubtful(held):
                    hub.reload(held)   # StoreUnavailable while the database is away

    def kept(game: Any, version: int, head: str) -> bool:
        """Whether the step that made the game ``version`` records long, ending in ``head``,
        is in it still."""
        return game.version >= version and game.records.hash_at(version - 1).hex() == head

    def error_message(exc: RegimentError, game_id: str) -> str:
        held = hub.held.get(game_id)   # as this process holds it: no query to answer a refusal
        if held is None or hub.ahead(held):
            return dumps({"error": exc.to_dict()})
        return dumps({"error": exc.to_dict(), **hub.snapshot(held.game)})

    def tell(game_id: str) -> None:
        try:
            told = hub.update(game_id)
        except RegimentError as exc:   # told once the store answers again (``moved``)
            log.warning("tell_failed", game=game_id, why=str(exc))
            return
        for watcher, text in told:
            watcher.send(text)

    async def moved(game_id: str, version: int) -> None:
        """Another process appended to a game this one shows: catch up, and once what it
        read is durable, tell. ``*``: the listener (re)connected, and any game may have moved
        while nobody listened. A game already at the version notified (this process's own
        step, or one caught up with) costs no query."""
        for gid in list(hub.held) if game_id == CAUGHT_UP else [game_id]:
            held = hub.held.get(gid)
            if held is None or not held.watchers:
                continue
            if gid == game_id and version <= held.game.version and not hub.uncertain(held):
                continue
            try:
                hub.get(gid)
                await settled_again(held)   # a step the database lost: the game read again
            except RegimentError as exc:
                log.warning("catch_up_failed", game=gid, why=str(exc))
                continue
            tell(gid)

    def listen(loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                for game_id, version in store.listen():
                    # Most notes are this process's own steps: a game it holds at the version
                    # noted already is not handed to the loop (a hint read across threads;
                    # ``moved`` decides on the loop).
                    held = hub.held.get(game_id)
                    if held is not None and version <= held.game.version and \
                            not hub.doubtful(held):
                        continue
                    asyncio.run_coroutine_threadsafe(moved(game_id, version), loop)
            except Exception as exc:   # the database went away: try again shortly
                log.warning("listen_failed", why=str(exc))
                time.sleep(0.5)

    async def sweeper() -> None:
        while True:
            await asyncio.sleep(SWEEP)
            if dropped := hub.sweep():
                log.info("idle_games_dropped", games=dropped)
            seats.sweep()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if hasattr(store, "listen"):   # PostgreSQL: steps made by the other processes
            loop = asyncio.get_running_loop()
            threading.Thread(target=listen, args=(loop,), daemon=True,
                             name="regiment-listen").start()
        sweeping = asyncio.create_task(sweeper())
        if flusher is not None:
            flusher.start(asyncio.get_running_loop())
        yield
        sweeping.cancel()
        if flusher is not None:
            flusher.stop()

    http = Http(store, hub, key, limit, flusher, body_timeout, tell)
    game_socket = WebSocketRoute("/games/{game_id}/ws", play)
    app = Starlette(routes=[*http.routes(), game_socket], lifespan=lifespan)

    async def front(scope: Scope, receive: Receive, send: Send) -> None:
        # A game's WebSocket goes to ``play`` at once, not down Starlette's middleware and
        # router: their frames wait as long as the connection lives (4 KiB of its 26, traced
        # with make bench, issue 29 item 2), and for a WebSocket they do nothing ``play``
        # does not (it answers every error itself). Everything else is Starlette's.
        if scope["type"] == "websocket":
            found, child = game_socket.matches(scope)   # the router's own match
            if found is Match.FULL:
                scope.update(child)
                await play(WebSocket(scope, receive, send))
                return
        await app(scope, receive, send)

    return front
