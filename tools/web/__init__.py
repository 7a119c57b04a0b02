"""The pages people play on, served by the game server itself: the lobby (``/``), the play
page (``/play#game=ID&seat=TOKEN``, one ``seat`` a token: a hosted seat has one, a table
every seat's) and their static files. No build step and nothing from the network: plain ES
modules and SVG drawn in table inches, so a page works offline and on a phone on the same
network. The page speaks the engine's own protocol over the game's WebSocket; it decides no
rule itself (docs/play.md)."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

STATIC = files("regiment.tools.web").joinpath("static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
# the page may run only its own files: no inline script, nothing from elsewhere
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data:; connect-src 'self' ws: wss:; base-uri 'none'; "
          "frame-ancestors 'none'")


def static_file(name: str) -> Response:
    """One of the page's own files (a fixed set: a name is never a path)."""
    known = {item.name: item for item in STATIC.iterdir()}
    item = known.get(name)
    suffix = name[name.rfind("."):] if "." in name else ""
    if item is None or suffix not in TYPES:
        return Response("no such file", status_code=404, media_type="text/plain")
    return Response(item.read_bytes(), media_type=TYPES[suffix],
                    headers={"Content-Security-Policy": POLICY, "Cache-Control": "no-cache"})


def battles() -> list[dict[str, Any]]:
    """The bundled battles a lobby offers: each one's name, title and players."""
    from regiment.tools.listings import bundled

    out = []
    for name, item in bundled().items():
        try:
            raw = tomllib.loads(item.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError:
            continue
        out.append({"name": name, "title": str(raw.get("name", name)),
                    "players": [str(p.get("id", "")) for p in raw.get("players", [])],
                    "preset": str(raw.get("preset", ""))})
    return out


def routes() -> list[Route]:
    async def lobby(request: Request) -> Response:
        return static_file("lobby.html")

    async def play(request: Request) -> Response:
        return static_file("play.html")

    async def asset(request: Request) -> Response:
        return static_file(request.path_params["name"])

    async def listed(request: Request) -> Response:
        return JSONResponse({"battles": battles()})

    return [Route("/", lobby), Route("/play", play), Route("/static/{name}", asset),
            Route("/battles", listed)]
