"""Group commit for the game server (SERVER.DURABLE): no client is told of a step, and no
receipt for it is signed, before the step is on disk; and the event loop never waits for the
disk itself.

A store that groups its commits (``SqliteStore`` or ``PostgresStore`` with ``grouped=True``)
writes each step without waiting for the disk and makes every earlier one durable in
``sync()`` (PostgreSQL commits each step unflushed; SQLite writes every game's steps into one
transaction, a savepoint a step, which the sync commits). One thread here runs those syncs
back to back: each serves every step written before it began, from every game, and the loop
goes on deciding other games' steps meanwhile (before, the durable COMMIT blocked the loop
for half of its time, measured in issue 29).

The loop marks each commit (``mark``: a number that only grows) and awaits ``wait(mark)``;
the thread, woken, notes the newest mark, syncs, and answers every waiter up to it. While
games are played at the same moment (the last sync served more than one commit), it first
waits ``WINDOW`` for more commits to join the sync: an fsync costs the kernel about as much
CPU for ten commits as for one. Measured on 200 games (bench/hosted.py, SQLite): 1.2 commits
a sync became 9-10, and the server's CPU a step fell from 1.65 to 1.37 ms, its latency no
worse (the steps are waiting on the CPU, not on the disk). A lone game's step is synced at
once.

Two kinds of failure:

- A sync that fails on the disk (an ``OSError`` from fsync) fails its waiters and every later
  one: after a failed fsync the kernel may have dropped the pages it could not write, and no
  later fsync says they are on disk, so nothing more is told until the server is started
  again and has read its games back from the store.
- A database that cannot be asked now (``StoreUnavailable``: the sync's connection broke) is
  not a failed disk: the waiters are told it is not known yet, their games stay untold, and
  the sync is tried again until it answers. Each mark carries the *incarnation* of the
  database its commit went to (PostgreSQL's start time; for SQLite, the generation of its
  shared transaction, which ends when SQLite rolls the transaction back or its COMMIT
  fails); a sync says which incarnation it flushed. A commit made to an earlier one may
  have been lost in the crash (or the failed transaction) that ended it: its mark is
  *uncertain*, and the server reads its game again from the store before it tells anything
  of it (``Hub.uncertain``).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from regiment.core.errors import StoreError, StoreUnavailable
from regiment.core.log import get_logger

log = get_logger("regiment.server")

RETRY = (0.05, 1.0)   # seconds before a sync the database did not answer is tried again
WINDOW = 0.01         # seconds a sync waits for more commits while games are played at once


class Flusher:
    def __init__(self, sync: Callable[[], Any], window: float = WINDOW) -> None:
        self._sync = sync   # returns the incarnation it made durable
        self.window = window
        self.marked = 0     # commits marked (the loop's only)
        self.synced = 0     # every commit up to this one is settled: durable or uncertain
        self.syncs = 0      # syncs made (GET /status: commits a sync)
        self.failing = False   # the last sync could not be made (the database away)
        self.failed: Exception | None = None   # a disk that failed: for good
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        # (first mark, incarnation): where the incarnation of the marks changes
        self._incarnations: list[tuple[int, Any]] = [(1, None)]
        # marks (low, high] made to an incarnation that ended before a sync: read again
        self._uncertain: list[tuple[int, int]] = []
        self._wake = threading.Event()
        self._halt = threading.Event()   # stop: ends a window's wait too
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = False
        self._thread: threading.Thread | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.Thread(target=self._run, name="regiment-sync", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop = True
        self._halt.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)

    def mark(self, incarnation: Any = None) -> int:
        """A commit was just made (to ``incarnation`` of the database): its number."""
        self.marked += 1
        if incarnation != self._incarnations[-1][1]:
            self._incarnations.append((self.marked, incarnation))
        self._wake.set()
        return self.marked

    def uncertain(self, mark: int) -> bool:
        """Whether commit ``mark`` may have been lost (made to a database that crashed)."""
        return any(low < mark <= high for low, high in self._uncertain)

    def outdated(self, mark: int, incarnation: Any) -> bool:
        """Whether commit ``mark``, not yet settled, went to an incarnation other than
        ``incarnation`` (the store's now): lost already, or about to be found uncertain."""
        if mark <= self.synced:
            return False
        for first, made_to in reversed(self._incarnations):
            if first <= mark:
                return bool(made_to != incarnation)
        return False

    async def wait(self, mark: int) -> None:
        """Return once commit ``mark`` is settled (then ``uncertain`` says whether it is
        durable); StoreError if the disk failed, StoreUnavailable if the database cannot say
        now."""
        if self.failed is not None:
            raise self._refusal()
        if mark <= self.synced:
            return
        assert self._loop is not None, "Flusher.start was not called"
        future = self._loop.create_future()
        self._waiters.append((mark, future))
        await future

    def _run(self) -> None:
        retries, last = 0, 0
        busy = False   # the last sync served more than one commit
        while True:
            self._wake.wait()
            if busy and self.window:
                self._halt.wait(self.window)   # more commits join this sync meanwhile
            self._wake.clear()
            if self._stop:
                return
            upto = self.marked   # every commit up to it was made before this read
            busy, last = upto - last > 1, upto
            incarnation: Any = None
            failure: Exception | None = None
            try:
                incarnation = self._sync()
                self.syncs += 1
                retries = 0
            except Exception as exc:
                failure = exc
                log.error("sync_failed", why=str(exc), upto=upto)
            assert self._loop is not None
            self._loop.call_soon_threadsafe(self._done, upto, incarnation, failure)
            if isinstance(failure, StoreUnavailable):   # try again, waited on or not
                retries += 1
                self._wake.wait(min(RETRY[1], RETRY[0] * 2 ** (retries - 1)))
                self._wake.set()

    def _refusal(self) -> StoreError:
        return StoreError(f"steps could not be made durable ({self.failed}); none is told "
                          "from now on: the server must be started again")

    def _done(self, upto: int, incarnation: Any, failure: Exception | None) -> None:
        if isinstance(failure, StoreUnavailable):   # not known yet: the waiters are told so
            self.failing = True
            waiters, self._waiters = self._waiters, []
            for _, future in waiters:
                if not future.done():
                    future.set_exception(failure)
            return
        self.failed = self.failed or failure
        if self.failed is None:
            self._settle(upto, incarnation)
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

    def _settle(self, upto: int, incarnation: Any) -> None:
        """Marks up to ``upto`` are settled by a sync of ``incarnation``: those made to an
        earlier one are uncertain."""
        self.failing = False
        if upto <= self.synced:
            return
        bounds = self._incarnations
        for i, (first, made_to) in enumerate(bounds):
            end = bounds[i + 1][0] - 1 if i + 1 < len(bounds) else self.marked
            low, high = max(first - 1, self.synced), min(end, upto)
            if made_to != incarnation and low < high:
                self._uncertain.append((low, high))
        self.synced = upto
        # the boundaries wholly behind us are not needed again
        while len(bounds) > 1 and bounds[1][0] <= upto + 1:
            bounds.pop(0)
