"""Mailboxes: the messages waiting for one reader, in order.

Everything the server tells one connection goes through its outbox, since two sends at once
on one WebSocket break it; uvicorn's WebSocket protocol keeps what a client sent in one too
(``guard.LeanWebSocket``). A mailbox is a list and, only while its reader waits on an empty
one, one future: an ``asyncio.Queue`` (three deques and an Event, each with its own deque)
was 3 KiB of a connection's 28 traced, and a connection had two (measured with make bench,
issue 29 item 2).
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """What ``asyncio.Queue`` does for one reader, unbounded: ``put_nowait``, ``get``,
    ``empty`` and ``qsize``."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest message, once there is one."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class Outbox(Mailbox["str | None"]):
    """A connection's messages for its one writer. ``None`` ends it: the writer stops there.
    A client that reads nothing is let go: once ``most`` messages wait, the oldest is
    dropped and the outbox ended, so it never holds more than ``most``; what is posted after
    the end is dropped."""

    __slots__ = ("_most",)

    def __init__(self, most: int) -> None:
        super().__init__()
        self._most = most

    def post(self, text: str | None) -> None:
        items = self._items
        if items and items[-1] is None:   # ended: nothing after the end is written
            return
        if len(items) >= self._most:
            del items[0]
            text = None
        self.put_nowait(text)
