"""A connection's outbox (tools/server/outbox.py): its one writer gets every message in order, waits
while there is none, stops at the end; a client that reads nothing is let go without the
outbox growing past its bound."""

from __future__ import annotations

import asyncio

from regiment.tools.server.outbox import Outbox


async def drain(outbox: Outbox) -> list[str]:
    got = []
    while (text := await outbox.get()) is not None:
        got.append(text)
    return got


def test_the_writer_gets_every_message_in_order_and_stops_at_the_end() -> None:
    async def main() -> list[str]:
        outbox = Outbox(10)
        writer = asyncio.create_task(drain(outbox))
        await asyncio.sleep(0)   # the writer waits on an empty outbox
        for text in ("a", "b"):
            outbox.post(text)
            await asyncio.sleep(0)
        outbox.post("c")
        outbox.post(None)
        return await asyncio.wait_for(writer, 1)

    assert asyncio.run(main()) == ["a", "b", "c"]


def test_a_client_that_reads_nothing_is_let_go_and_the_outbox_stays_bounded() -> None:
    async def main() -> tuple[int, list[str]]:
        outbox = Outbox(3)
        for i in range(10):   # nobody writes: the messages pile up to the bound
            outbox.post(str(i))
        most = len(outbox)
        return most, await asyncio.wait_for(drain(outbox), 1)

    most, got = asyncio.run(main())
    assert most == 3
    # once full, the oldest is dropped and the outbox ended: the writer stops (and the
    # server closes the connection) before the newest messages
    assert got == ["1", "2"]


def test_a_waiting_writer_that_is_cancelled_leaves_the_outbox_usable() -> None:
    async def main() -> str | None:
        outbox = Outbox(3)
        waiting = asyncio.create_task(outbox.get())
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        outbox.post("after")
        return await asyncio.wait_for(outbox.get(), 1)

    assert asyncio.run(main()) == "after"
