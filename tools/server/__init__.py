"""The game server (``regiment server``): many games at once for players apart.

- ``app``: the ASGI app (Starlette): the game's WebSocket; ``routes``: its HTTP routes;
  ``run``: ``run_server``, the app served by uvicorn;
- ``hub``: the games this process holds, their seats and who watches them;
- ``seats``, ``guard``, ``outbox``: what bounds a client (rates, timeouts, slow readers);
- ``durable``, ``collector``: steps on disk before anyone is told, and the garbage collector
  tuned for a long-running process;
- ``signing``: the server's key and the receipts it signs; ``pages``: the replay pages.

It builds on the engine (``regiment.core``), the stores and the protocol ``tools.serve``
speaks; the pages people play on are ``tools.web``. Nothing under ``tools`` but the command
line imports it."""

from .app import make_app
from .run import run_server

__all__ = ["make_app", "run_server"]
