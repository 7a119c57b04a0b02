"""Group commit for the game server (SERVER.DURABLE): no client is told of a step, and no
receipt for it is signed, before the step is on disk; and the event loop never waits for the
disk itself.

A store that groups its commits (``SqliteStore(grouped=True)``) writes each step without an
fsync and makes every earlier commit durable in ``sync()``. One thread here runs those syncs
back to back: each serves every step committed before it began, from every game, so a
server making a thousand steps a second makes a few hundred fsyncs, not a thousand, and the
loop goes on deciding other games' steps meanwhile (before, the durable COMMIT blocked the
loop for half of its time, measured in issue 29).

The loop marks each commit (``mark``: a number that only grows) and awaits ``wait(mark)``;
the thread, woken, notes the newest mark, syncs, and answers every waiter up to it. A sync
that fails fails its waiters and every later one: after a failed fsync the kernel may have
dropped the pages it could not write, and no later fsync says they are on disk, so nothing
more is told until the server is started again and has read its games back from the store.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from regiment.core.errors import StoreError
from regiment.core.log import get_logger

log = get_logger("regiment.server")


class Flusher:
    def __init__(self, sync: Callable[[], None]) -> None:
        self._sync = sync
        self.marked = 0     # commits marked (the loop's only)
        self.synced = 0     # every commit up to this one is durable
        self.syncs = 0      # syncs made (GET /status: commits a sync)
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._wake = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = False
        self.failed: Exception | None = None
        self._thread: threading.Thread | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.Thread(target=self._run, name="regiment-sync", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)

    def mark(self) -> int:
        """A commit was just made: its number, to wait for."""
        self.marked += 1
        self._wake.set()
        return self.marked

    async def wait(self, mark: int) -> None:
        """Return once commit ``mark`` is durable; StoreError if its sync failed."""
        if self.failed is not None:
            raise self._refusal()
        if mark <= self.synced:
            return
        assert self._loop is not None, "Flusher.start was not called"
        future = self._loop.create_future()
        self._waiters.append((mark, future))
        await future

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._stop:
                return
            upto = self.marked   # every commit up to it was made before this read
            try:
                self._sync()
                self.syncs += 1
            except Exception as exc:
                failure: Exception | None = exc
                log.error("sync_failed", why=str(exc), upto=upto)
            else:
                failure = None
            assert self._loop is not None
            self._loop.call_soon_threadsafe(self._done, upto, failure)

    def _refusal(self) -> StoreError:
        return StoreError(f"steps could not be made durable ({self.failed}); none is told "
                          "from now on: the server must be started again")

    def _done(self, upto: int, failure: Exception | None) -> None:
        self.failed = self.failed or failure
        if self.failed is None:
            self.synced = max(self.synced, upto)
        waiting = []
        for mark, future in self._waiters:
            if future.done():
                continue
            if self.failed is not None:
                future.set_exception(self._refusal())
            elif mark <= upto:
                future.set_result(None)
            else:
                waiting.append((mark, future))
        self._waiters = waiting
