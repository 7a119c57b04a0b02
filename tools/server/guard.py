"""What bounds a client of the game server (SERVER.LIMITS): the time its request headers and
its body may take, and how many games one address may make a minute.

uvicorn closes a connection that stays idle between requests (``timeout_keep_alive``), but
waits for ever for the headers of a request once its first byte came, and for the first
request of a new connection: a client sending one header byte a second would hold its
connection for good, and a hundred such hold a hundred. ``Guarded`` is uvicorn's own h11
protocol with one timer more: armed whenever a request's headers are awaited, cancelled when
they are whole (or the connection becomes a WebSocket), closing the connection when it fires.
``LeanWebSocket`` is uvicorn's WebSocket protocol holding less a connection.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0    # seconds for a request's line and headers
BODY_TIMEOUT = 10.0      # seconds for a scenario's body (the only body the server reads)
KEEP_ALIVE = 5           # seconds a connection may idle between requests
BACKLOG = 8              # messages a WebSocket's app has not taken before its reading pauses


class Guarded(H11Protocol):
    """uvicorn's h11 protocol, with a deadline for every request's headers."""

    header_timeout = HEADER_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:   # a request's headers are whole: the app has it now
            self._disarm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._arm()   # the next request's headers are awaited now...
        super().on_response_complete()   # ...unless a pipelined one is whole already

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class CreateLimit:
    """At most ``per_minute`` games made from one client address in any minute (a bucket
    that refills steadily; 0: no limit, for a server behind a front that limits itself)."""

    def __init__(self, per_minute: float) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str) -> bool:
        if self.per_minute <= 0:
            return True
        now = time.monotonic()
        tokens, at = self._buckets.get(client, (self.per_minute, now))
        tokens = min(self.per_minute, tokens + (now - at) * self.per_minute / 60.0)
        if len(self._buckets) > 10_000:   # forget the addresses whose buckets are full
            self._buckets = {c: b for c, b in self._buckets.items()
                             if b[0] + (now - b[1]) * self.per_minute / 60.0 < self.per_minute}
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return False
        self._buckets[client] = (tokens - 1, now)
        return True


def guarded(header_timeout: float) -> type[Guarded]:
    """``Guarded`` with its own deadline for headers (``regiment server --header-timeout``)."""
    return type("Guarded", (Guarded,), {"header_timeout": header_timeout})


try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:   # an uvicorn before 0.35: its own choice of WebSocket protocol
    LeanWebSocket: type[asyncio.Protocol] | None = None
else:
    from .outbox import Mailbox

    class _Lean(WebSocketsSansIOProtocol):
        """uvicorn's WebSocket protocol, holding less as long as a connection lives (issue
        29 item 2, weighed with make bench): what the client sent waits in a ``Mailbox``,
        not an ``asyncio.Queue`` (3 KiB), and the handshake is let go once it is made (uvicorn
        keeps the request and the response, their headers, and never reads them again: 1.3
        KiB). It reaches into uvicorn: the server tests run it through real clients."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.queue = Mailbox()  # type: ignore[assignment]  # its put_nowait, get, empty

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            self.request = None  # type: ignore[assignment]  # read only by the line that set it

        async def send(self, message: Any) -> None:
            await super().send(message)
            if self.handshake_complete:   # the response is sent: read no more
                self.response = None  # type: ignore[assignment]

        def send_receive_event_to_app(self) -> None:
            """A message for the app; the socket's reading paused only once BACKLOG wait.
            uvicorn pauses it at every message and resumes it when the app has taken it:
            two epoll calls a message, each giving up the GIL, for a server whose app takes
            each message at once (and a seat's rate bounds what it may send)."""
            paused = self.read_paused
            self.read_paused = True   # uvicorn's own pause skipped
            super().send_receive_event_to_app()
            self.read_paused = paused
            # once the app has closed, reading goes on (the peer's close reply must come
            # in) whatever is left in the mailbox, as uvicorn's own pause does
            if not paused and not self.close_sent and self.queue.qsize() >= BACKLOG:
                self.read_paused = True
                self.transport.pause_reading()

    LeanWebSocket = _Lean
