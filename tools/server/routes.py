"""The game server's HTTP routes: making a game, reading where it stands, its log, its board
and its replay page, the server's key, schema and status (the game's WebSocket is the app's,
``app.play``). Every answer to a refusal is ``error``: a JSON error, 503 with Retry-After
when the store cannot be reached (STORE.OUTAGE)."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from regiment.core.errors import BadRequest, RegimentError, StoreError, StoreUnavailable
from regiment.core.log import get_logger

from .. import web
from ..schema import text as schema_text
from ..serve import pending_json
from . import collector
from .durable import Flusher
from .guard import CreateLimit
from .hub import MAX_SCENARIO, Held, Hub
from .pages import LIVE, Pages
from .seating import SPECTATE, token_hash
from .signing import ServerKey

log = get_logger("regiment.server")


def error(exc: RegimentError, status: int = 400) -> JSONResponse:
    if isinstance(exc, StoreUnavailable):   # the client may try again: nothing was done
        return JSONResponse({"error": exc.to_dict()}, status_code=503,
                            headers={"Retry-After": "2"})
    return JSONResponse({"error": exc.to_dict()}, status_code=status)


class Http:
    """The routes of one server process, over its store and the games it holds."""

    def __init__(self, store: Any, hub: Hub, key: ServerKey, limit: CreateLimit,
                 flusher: Flusher | None, body_timeout: float,
                 tell: Callable[[str], None]) -> None:
        self.store, self.hub, self.key, self.limit = store, hub, key, limit
        self.flusher, self.body_timeout, self.tell = flusher, body_timeout, tell
        self.published: list[bytes] = []   # the schema, made when first asked for (it loads
        # every rulebook); the replay pages, made by a child process reading the store
        self.pages = Pages(getattr(store, "url", None) or (
            None if getattr(store, "memory", True) else str(getattr(store, "path", ""))) or None)

    def routes(self) -> list[Route]:
        return [
            Route("/key", self.public_key),
            Route("/schema", self.schema),
            Route("/status", self.status),
            Route("/games", self.create, methods=["POST"]),
            Route("/games", self.mine, methods=["GET"]),
            Route("/games/{game_id}", self.seated(self.state)),
            Route("/games/{game_id}/log", self.seated(self.export)),
            Route("/games/{game_id}/board", self.seated(self.board)),
            Route("/games/{game_id}/replay", self.replay),
            *web.routes(),   # the lobby and the play page (tools/web)
        ]

    async def mine(self, request: Request) -> Response:
        """The games a seat token holds (a player keeps one token a game; a client may
        present the same token it was given to find its games again): each with its seat
        and where it stands. A token that holds nothing lists nothing."""
        token = request.query_params.get("token") or ""
        try:
            seats = self.store.seated(token_hash(token)) if token else []
            out = []
            for game_id, role in seats[:100]:
                state = await self.store_state(game_id)
                out.append({"id": game_id, "seat": role, **state})
        except StoreError as exc:
            return error(exc, 503)
        except RegimentError as exc:
            return error(exc)
        return JSONResponse({"games": out})

    async def store_state(self, game_id: str) -> dict[str, Any]:
        held = self.hub.held.get(game_id)
        if held is not None:   # a step made but not yet durable is not shown
            await self.hub.settled(held)
            game = held.game
        else:
            from regiment.core.game import Game

            game = Game.load(game_id, self.store)
            await self.hub.stored("the game it read")
        return {"records": game.version, "over": game.state.over,
                "pending": pending_json(game)}

    async def create(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        if not self.limit.take(client):
            return error(BadRequest(f"at most {self.limit.per_minute:g} games a minute from one "
                                    "address (SERVER.LIMITS): nothing was made; try again in "
                                    "a minute"), 429)
        body = b""
        try:
            async with asyncio.timeout(self.body_timeout):
                async for chunk in request.stream():   # no more than a scenario may be
                    body += chunk
                    if len(body) > MAX_SCENARIO:
                        return error(BadRequest(f"a scenario is at most {MAX_SCENARIO} bytes; "
                                                "this one is longer (nothing was made)"), 413)
        except TimeoutError:
            return error(BadRequest(f"the scenario did not arrive within {self.body_timeout:g} s "
                                    "(SERVER.LIMITS): nothing was made"), 408)
        except ClientDisconnect:   # gone before its body was sent: nobody to answer
            log.info("create_abandoned", client=client, received=len(body))
            return Response(status_code=400)
        battle = request.query_params.get("battle")
        if battle is not None and not body.strip():   # a bundled battle by its name
            from ..listings import scenario_path

            try:
                body = Path(scenario_path(battle)).read_bytes()
            except RegimentError as exc:
                return error(exc)
        try:
            bots = tuple(b for v in request.query_params.getlist("bot") for b in v.split(",")
                         if b)
            made = self.hub.create(body, request.query_params.get("undo"), bots,
                                   dice=request.query_params.get("dice"))
            await self.hub.stored("the new game")   # its tokens are handed out once it is stored
        except StoreError as exc:
            return error(exc, 503)
        except RegimentError as exc:
            return error(exc)
        log.info("game_created", game=made["id"], undo=made["undo"])
        return JSONResponse(made, status_code=201)

    def seated(self, handler: Callable[[Held, str], Response]) -> Callable[[Request], Any]:
        """A route for a seat's token (any seat, or the spectators'): 403 without one."""
        async def route(request: Request) -> Response:
            try:
                held, seat = self.hub.seat_of(request.path_params["game_id"],
                                         request.query_params.get("token"))
            except RegimentError as exc:
                return error(exc, 403)
            try:
                await self.hub.settled(held)   # no step before it is durable (SERVER.DURABLE)
                # Reading it may have caught the game up with another process's steps: the
                # game's connections are told them now (its notes are not handed to the
                # loop again once the game is at their version).
                self.tell(held.game.game_id)
                return handler(held, seat)
            except StoreError as exc:
                return error(exc, 503)
            finally:
                if not held.watchers:   # read, not watched: not kept (Hub.leave)
                    self.hub.held.pop(held.game.game_id, None)
        return route

    def state(self, held: Held, seat: str) -> Response:
        return JSONResponse({**self.hub.state(held), "seat": seat})

    def board(self, held: Held, seat: str) -> Response:
        """The table and every piece, in the board's frame (docs/board.md)."""
        return JSONResponse({"board": held.game.board(), "head": held.game.head,
                             "seat": seat})

    def export(self, held: Held, seat: str) -> Response:
        from ..source import export_lines

        lines = export_lines(list(held.game.records))
        return PlainTextResponse("\n".join(lines) + "\n", media_type="application/jsonl")

    async def replay(self, request: Request) -> Response:
        """The replay page, which verifies the whole log: made by a child process (a thread
        for an in-memory store) once a game's head, one at a time (a spectator's reload, or a
        hundred at once, waits for the one being made); the game is not loaded here, so that
        no game's steps wait on it (SERVER.LIMITS)."""
        game_id = request.path_params["game_id"]
        token = request.query_params.get("token") or ""
        try:
            if self.hub.role_of(game_id, token) != SPECTATE:   # a seat's token: its play page
                return RedirectResponse(f"/play#{urlencode({'game': game_id, 'seat': token})}")
            held = self.hub.held.get(game_id)
            if held is not None:   # played now: what the store has of it is durable first
                await self.hub.settled(held)
            version = self.store.version(game_id) if held is None else held.game.version
            text, count = await self.pages.get(
                game_id, version, lambda: list(self.hub.get(game_id).game.records))
        except StoreError as exc:
            return error(exc, 503)
        except RegimentError as exc:
            return error(exc, 403)
        live = LIVE.replace("__AFTER__", str(count))
        return HTMLResponse(text.replace("</body>", live + "</body>"))

    async def status(self, request: Request) -> Response:
        """How much this process holds: games in memory and connections watching them; what
        its garbage collector did (tools/server/collector.py)."""
        held: dict[str, Any] = {
            "games_held": len(self.hub.held),
            "connections": sum(len(h.watchers) for h in self.hub.held.values())}
        if self.flusher is not None:   # group commit: how many commits each sync served
            held |= {"commits": self.flusher.marked, "syncs": self.flusher.syncs}
        if collector.WATCH.watching:   # the server as ``run_server`` starts it
            held["gc"] = collector.WATCH.figures()
        if tracemalloc.is_tracing():   # PYTHONTRACEMALLOC=1: what make bench weighs
            gc.collect()   # what is still reachable, not what the collector has yet to free
            held |= {"traced": tracemalloc.get_traced_memory()[0],
                     "events_bytes": sum(h.game.records.held_bytes()
                                         for h in self.hub.held.values())}
        return JSONResponse(held)

    async def public_key(self, request: Request) -> Response:
        return JSONResponse({"key": self.key.public, "algorithm": "Ed25519",
                             "signs": "regiment-receipt/1 GAME STEP HEAD"})

    async def schema(self, request: Request) -> Response:
        """The protocol's JSON Schema (docs/schema/regiment.json)."""
        if not self.published:
            self.published.append(schema_text().encode())
        return Response(self.published[0], media_type="application/schema+json")
