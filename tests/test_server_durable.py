"""SERVER.DURABLE: the game server's commits are grouped, made durable off the event loop, and
nothing is told before they are. The syncs are held back here by a gate, to see what a client
would be told while the disk has not answered yet."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from regiment.core.errors import StoreError
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store.sqlite import SqliteStore
from regiment.tools.serve import pending_json
from regiment.tools.server.durable import Flusher
from regiment.tools.server.hub import Hub, Watcher
from regiment.tools.server.signing import ServerKey

from .servers import Server, first_legal
from .test_trust import fill, small_disk  # noqa: F401 - the small disk fixture

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ford_clash.toml"
SCENARIO = EXAMPLE.read_bytes()


class Gate:
    """A sync that waits until it is let through, and counts how often it ran."""

    def __init__(self, sync: Any) -> None:
        self.sync, self.open, self.runs = sync, threading.Event(), 0
        self.fail: Exception | None = None

    def __call__(self) -> Any:
        self.open.wait(10)
        self.runs += 1
        if self.fail is not None:
            raise self.fail
        return self.sync()


async def pending(awaitable: Any, seconds: float = 0.2) -> bool:
    """Whether ``awaitable`` is still waiting after ``seconds`` (it is cancelled if so)."""
    try:
        await asyncio.wait_for(awaitable, seconds)
    except TimeoutError:
        return True
    return False


def first_command(game: Game) -> dict[str, Any]:
    command = first_legal({"pending": pending_json(game)})
    assert command is not None
    return command


def test_server_durable_no_step_is_told_before_its_sync_returns(tmp_path):
    store = SqliteStore(tmp_path / "games.db", grouped=True)
    gate = Gate(store.sync)
    hub = Hub(store, ServerKey.load_or_create(tmp_path / "k.pem"), Flusher(gate))
    made = hub.create(SCENARIO)
    held, seat = hub.seat_of(made["id"], made["seats"]["red"])
    told: list[str] = []
    held.watchers.append(Watcher(seat, told.append))

    async def play() -> None:
        assert hub.flusher is not None
        hub.flusher.start(asyncio.get_running_loop())
        try:
            command = first_command(held.game)
            hub.command(made["id"], command["by"], command)
            assert hub.update(made["id"]) == []           # made, not yet durable: not told
            assert await pending(hub.settled(held))
            gate.open.set()
            await asyncio.wait_for(hub.settled(held), 5)
            assert [w.seen for w, _ in hub.update(made["id"])] == [held.game.version]
        finally:
            hub.flusher.stop()

    asyncio.run(play())
    store.close()


def test_server_durable_one_sync_serves_every_commit_made_before_it(tmp_path):
    """Group commit: steps of many games made while a sync runs wait for one more sync, not
    one each."""
    marks = []
    gate = Gate(lambda: None)
    flusher = Flusher(gate)

    async def many() -> None:
        flusher.start(asyncio.get_running_loop())
        try:
            marks.append(flusher.mark())
            await asyncio.sleep(0.05)                     # the first sync is under way
            marks.extend(flusher.mark() for _ in range(50))
            waits = [asyncio.ensure_future(flusher.wait(m)) for m in marks]
            assert await pending(asyncio.shield(asyncio.gather(*waits)))
            gate.open.set()
            await asyncio.wait_for(asyncio.gather(*waits), 5)
        finally:
            flusher.stop()

    asyncio.run(many())
    assert flusher.synced == 51 and gate.runs == 2


def test_server_durable_a_lone_commit_is_synced_at_once_and_busy_ones_gathered():
    """A sync serves the commits of games played at the same moment together: once a sync
    has served more than one, the next waits its window for more to join it; a lone
    commit, after a sync that served one, is synced without waiting."""
    runs = []
    flusher = Flusher(lambda: runs.append(flusher.marked), window=0.5)

    async def play() -> float:
        loop = asyncio.get_running_loop()
        flusher.start(loop)
        try:
            await asyncio.wait_for(flusher.wait(flusher.mark()), 5)      # alone: at once
            start = loop.time()
            await asyncio.wait_for(flusher.wait(flusher.mark()), 5)
            alone = loop.time() - start
            await asyncio.wait_for(asyncio.gather(*[flusher.wait(flusher.mark())
                                                    for _ in range(5)]), 5)
            # the last sync served five: the next waits, and the commits made meanwhile
            # join it
            first = flusher.wait(flusher.mark())
            await asyncio.sleep(0.1)
            rest = [flusher.wait(flusher.mark()) for _ in range(3)]
            await asyncio.wait_for(asyncio.gather(first, *rest), 5)
        finally:
            flusher.stop()
        return alone

    alone = asyncio.run(play())
    assert alone < 0.4                      # not held for the window
    assert runs == [1, 2, 7, 11]            # the last four commits in one sync


def test_server_durable_a_failed_sync_is_told_to_every_later_step_too(tmp_path):
    """After a failed fsync no later one proves the pages reached the disk: every step from
    then on is refused, until the server is started again."""
    gate = Gate(lambda: None)
    gate.fail = OSError(5, "Input/output error")
    gate.open.set()
    flusher = Flusher(gate)

    async def failing() -> list[str]:
        flusher.start(asyncio.get_running_loop())
        refused = []
        try:
            for _ in range(2):
                try:
                    await asyncio.wait_for(flusher.wait(flusher.mark()), 5)
                except StoreError as exc:
                    refused.append(str(exc))
            gate.fail = None   # the disk answers again: the refusal stays
            try:
                await asyncio.wait_for(flusher.wait(flusher.mark()), 5)
            except StoreError as exc:
                refused.append(str(exc))
        finally:
            flusher.stop()
        return refused

    refused = asyncio.run(failing())
    assert len(refused) == 3 and all("started again" in r for r in refused)


def test_server_durable_a_grouped_store_fsyncs_its_wal_and_keeps_every_commit(tmp_path,
                                                                          monkeypatch):
    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    store = SqliteStore(tmp_path / "games.db", grouped=True)
    scenario = load_scenario(EXAMPLE)
    scenario["seed"] = "f00d"
    game = Game.new(scenario, store=store)
    for _ in range(5):
        game.submit(first_command(game))
    store.sync()
    assert synced and synced[-1].endswith("games.db-wal")
    head = game.head
    store.close()
    with SqliteStore(tmp_path / "games.db", readonly=True) as again:
        assert Game.load(game.game_id, again).head == head


@pytest.mark.parametrize("options, offered", [((), None), (("--deflate",), "permessage-deflate")])
def test_server_durable_per_message_deflate_only_when_the_server_is_asked(tmp_path, options,
                                                                        offered):
    """Every browser offers per-message deflate; the server takes it only with --deflate."""
    with Server(str(tmp_path / "games.db"), tmp_path / "server.key",
                options=("--games-per-minute", "0", *options)) as server:
        made = server.create(SCENARIO.decode())
        url = f"{server.ws}/games/{made['id']}/ws?token={made['seats']['red']}"
        with connect(url, compression="deflate") as ws:
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions")
            assert agreed == offered if offered is None else offered in agreed
            assert "pending" in ws.recv(timeout=20)


def test_store_version_an_append_on_a_head_another_process_moved_on_is_a_conflict(postgres):
    """PostgreSQL appends a game's next step in one statement on the head it last wrote; a
    step another process appended meanwhile makes it a conflict, not a fork."""
    from regiment.core.errors import ConcurrencyConflict
    from regiment.store.postgres import PostgresStore

    from .test_store_contract import drafts

    url = postgres.fresh()
    with PostgresStore(url) as one, PostgresStore(url) as two:
        one.append("g", drafts(0, 2, 0, "g"), 0)
        one.append("g", drafts(2, 1, 1, "g"), 2)      # on the head it wrote: one statement
        assert one._heads["g"][0] == 3
        won = two.append("g", drafts(3, 2, 2, "g"), 3)
        with pytest.raises(ConcurrencyConflict):
            one.append("g", drafts(3, 1, 2, "g"), 3)
        assert [r.hash for r in one.read("g")][3:] == [r.hash for r in won]
        assert one.version("g") == two.version("g") == 5
        one.append("g", drafts(5, 1, 3, "g"), 5)      # read the new head, and go on
        assert [r.seq for r in two.read("g")] == list(range(6))


def test_server_durable_postgres_a_restarted_database_is_not_taken_for_durable(tmp_path):
    """A database that started again may have lost commits it had not flushed: the sync after
    it says it cannot prove them (the server reads those games again), and the next one goes
    on."""
    from regiment.core.errors import StoreUnavailable
    from regiment.store.postgres import PostgresStore

    from .postgres import SKIP, TempPostgres
    from .test_store_contract import drafts

    if os.environ.get(SKIP):
        pytest.skip(f"{SKIP} is set")
    with TempPostgres() as pg, PostgresStore(pg.fresh(), grouped=True) as store:
        store.append("g", drafts(0, 2, 0, "g"), 0)
        first = store.incarnation
        assert store.sync() == first
        store.append("g", drafts(2, 1, 1, "g"), 2)
        pg.restart()
        with pytest.raises(StoreUnavailable):   # its connection was cut
            store.sync()
        second = store.sync()                    # a new one, to the database started again
        assert second != first
        # what the first sync made durable survived the crash; the step after it may not
        assert store.version("g") in (2, 3)
        assert store.incarnation == second       # the appends' connection was made again


def test_server_durable_steps_made_to_a_database_that_restarted_are_read_again(tmp_path):
    """Each commit is marked with the incarnation of the database it went to (PostgreSQL's
    start time); a step made to one that crashed before a sync may be lost: its game is not
    told, and is read again from the store before anything more of it is."""
    from regiment.core.errors import StoreUnavailable

    store = SqliteStore(tmp_path / "games.db", grouped=True)
    store.incarnation = "first"   # type: ignore[attr-defined]
    flushed = ["first"]

    def sync() -> str:
        store.sync()
        return flushed[0]

    gate = Gate(sync)
    gate.open.set()
    hub = Hub(store, ServerKey.load_or_create(tmp_path / "k.pem"), Flusher(gate))
    made = hub.create(SCENARIO)
    held, seat = hub.seat_of(made["id"], made["seats"]["red"])
    held.watchers.append(Watcher(seat, print))

    async def play() -> None:
        assert hub.flusher is not None
        hub.flusher.start(asyncio.get_running_loop())
        try:
            await asyncio.wait_for(hub.settled(held), 5)
            gate.fail = StoreUnavailable("the connection to the database was lost")
            command = first_command(held.game)
            hub.command(made["id"], command["by"], command)
            with pytest.raises(StoreUnavailable):         # not known yet
                await asyncio.wait_for(hub.settled(held), 5)
            assert hub.doubtful(held) and not hub.uncertain(held)
            assert hub.update(made["id"]) == []
            # the database started again: the next sync flushes the new one
            store.incarnation = flushed[0] = "second"   # type: ignore[attr-defined]
            gate.fail = None
            with pytest.raises(StoreUnavailable, match="restarted"):
                await asyncio.wait_for(hub.settled(held), 5)
            assert hub.uncertain(held) and hub.update(made["id"]) == []
            before = held.game
            again = hub.get(made["id"])   # read again: a new game object, from the store
            assert again.game is not before and not hub.uncertain(again)
            await asyncio.wait_for(hub.settled(again), 5)
            assert [w.seen for w, _ in hub.update(made["id"])] == [again.game.version]
            hub.command(made["id"], *[(c["by"], c) for c in [first_command(again.game)]][0])
            await asyncio.wait_for(hub.settled(again), 5)   # made to the second: durable
            assert not hub.uncertain(again) and hub.update(made["id"])
        finally:
            hub.flusher.stop()

    asyncio.run(play())
    store.close()


def test_server_durable_a_game_made_before_the_database_restarted_is_not_handed_out(tmp_path):
    """A new game's tokens are handed out once it is durable; made to a database that crashed
    before its sync (PostgreSQL's start time changed), it may be lost: StoreUnavailable (503),
    and the client makes it again. One made after that is handed out."""
    from regiment.core.errors import StoreUnavailable

    store = SqliteStore(tmp_path / "games.db", grouped=True)
    store.incarnation = "first"   # type: ignore[attr-defined]
    flushed = ["second"]   # the database restarted before the first sync

    def sync() -> str:
        store.sync()
        return flushed[0]

    hub = Hub(store, ServerKey.load_or_create(tmp_path / "k.pem"), Flusher(sync))

    async def make() -> None:
        assert hub.flusher is not None
        hub.flusher.start(asyncio.get_running_loop())
        try:
            hub.create(SCENARIO)
            with pytest.raises(StoreUnavailable, match="the new game"):
                await asyncio.wait_for(hub.stored("the new game"), 5)
            store.incarnation = "second"   # type: ignore[attr-defined]
            hub.create(SCENARIO)
            await asyncio.wait_for(hub.stored("the new game"), 5)
        finally:
            hub.flusher.stop()

    asyncio.run(make())
    store.close()


def test_the_servers_messages_are_the_json_the_standard_library_reads(tmp_path):
    """What a seat is told (hub.dumps, msgspec) is the JSON ``json.dumps`` writes, read back
    the same: the pending decision, the events, a receipt, Russian text, and an error."""
    import json

    from regiment.core.errors import IllegalCommand
    from regiment.tools.server.seating import dumps

    store = SqliteStore(tmp_path / "games.db")
    hub = Hub(store, ServerKey.load_or_create(tmp_path / "k.pem"))
    made = hub.create(SCENARIO)
    held, seat = hub.seat_of(made["id"], made["seats"]["red"])
    told: list[str] = []
    held.watchers.append(Watcher(seat, told.append))
    for w in held.watchers:
        w.greeted = True
    command = first_command(held.game)
    hub.command(made["id"], command["by"], command)
    (_, text), = hub.update(made["id"])
    message = json.loads(text)
    assert message["pending"] == pending_json(held.game) and message["events"]
    error = IllegalCommand("юнит «Копейщики» не может атаковать", rule="CH.DECLARE")
    for value in (message, {"error": error.to_dict(), "n": [1.5, -2, None, True]}):
        assert json.loads(dumps(value)) == value == json.loads(json.dumps(value))
    assert "Копейщики" in dumps({"error": error.to_dict()})   # as UTF-8, not escaped
    store.close()


# --- SQLite: every game's steps in one transaction, committed by the sync ----------------------


class FailingCommit:
    """The store's connection, but its next COMMIT fails as a full disk makes it fail: SQLite
    rolls the transaction back and says so."""

    def __init__(self, db: Any) -> None:
        self.db, self.armed = db, True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT" and self.armed:
            import sqlite3

            self.armed = False
            self.db.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)


class FailingInsert(FailingCommit):
    """The store's connection, but its next INSERT of events fails with ``error``; with
    ``rolled``, SQLite has rolled the whole transaction back first (as on a full disk)."""

    def __init__(self, db: Any, error: Exception, rolled: bool) -> None:
        super().__init__(db)
        self.error, self.rolled = error, rolled

    def execute(self, sql: str, *args: Any) -> Any:
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> Any:
        if sql.startswith("INSERT INTO events") and self.armed:
            self.armed = False
            if self.rolled:
                self.db.execute("ROLLBACK")
            raise self.error
        return self.db.executemany(sql, rows)


def test_server_durable_sqlite_steps_are_committed_by_the_sync_not_by_each_step(tmp_path):
    """SERVER.DURABLE: a grouped SQLite store writes every game's steps into one transaction
    (a savepoint a step), which the sync commits: another connection sees none of them
    before the sync, all of them after, and the generation they went to is kept."""
    from .test_store_contract import drafts

    store = SqliteStore(tmp_path / "games.db", grouped=True)
    for game in ("g1", "g2"):
        store.append(game, drafts(0, 2, 0, game), 0)
        store.append(game, drafts(2, 3, 1, game), 2)
    assert store.version("g1") == 5   # the loop reads its own steps
    with SqliteStore(tmp_path / "games.db", readonly=True) as other:
        assert other.version("g1") == other.version("g2") == 0
    assert store.sync() == store.incarnation == 0
    with SqliteStore(tmp_path / "games.db", readonly=True) as other:
        assert [r.seq for r in other.read("g2")] == [0, 1, 2, 3, 4]
    store.close()


def test_server_durable_sqlite_a_step_that_fails_takes_back_only_itself(tmp_path):
    """A step whose write fails half done (here the racing writer's key is found by its
    events' INSERT, after its games row was written) rolls back to its own savepoint: the
    other games' steps in the same transaction are kept, and their generation goes on."""
    import sqlite3

    from regiment.core.errors import ConcurrencyConflict

    from .test_store_contract import drafts

    store = SqliteStore(tmp_path / "games.db", grouped=True)
    store.append("g1", drafts(0, 2, 0, "g1"), 0)
    raced = sqlite3.IntegrityError("UNIQUE constraint failed: events.game_id")
    store.db = FailingInsert(store.db, raced, rolled=False)  # type: ignore[assignment]
    with pytest.raises(ConcurrencyConflict):
        store.append("g2", drafts(0, 1, 0, "g2"), 0)
    assert store.version("g1") == 2 and store.version("g2") == 0
    assert store.games() == ["g1"]            # its games row went back with it
    assert store.sync() == store.incarnation == 0
    store.close()
    with SqliteStore(tmp_path / "games.db", readonly=True) as again:
        assert again.version("g1") == 2 and again.games() == ["g1"]


def test_server_durable_sqlite_a_full_database_loses_the_steps_not_yet_synced(tmp_path):
    """A full database makes SQLite roll back the whole transaction: the step refused is told
    so, the other games' steps not yet synced are lost with it (told to no one: the
    generation ends, and the server reads their games again), and with room again the next
    steps are kept."""
    from regiment.core.errors import StoreError

    from .test_store_contract import drafts

    store = SqliteStore(tmp_path / "games.db", grouped=True)
    store.append("g1", drafts(0, 2, 0, "g1"), 0)
    assert store.sync() == 0
    store.append("g1", drafts(2, 1, 1, "g1"), 2)
    store.append("g2", drafts(0, 1, 0, "g2"), 0)
    full = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {full}")
    big = [d._replace(data={"blob": "x" * 200_000}) for d in drafts(1, 2, 1, "g2")]
    with pytest.raises(StoreError, match="the disk is full"):
        store.append("g2", big, 1)
    assert store.incarnation == 1
    assert store.version("g1") == 2 and store.version("g2") == 0
    store.db.execute("PRAGMA max_page_count = 1073741823")
    store.append("g1", drafts(2, 1, 1, "g1"), 2)
    assert store.sync() == 1
    store.close()
    with SqliteStore(tmp_path / "games.db", readonly=True) as again:
        assert again.version("g1") == 3 and again.version("g2") == 0


def test_server_durable_sqlite_a_failed_commit_loses_its_steps_together(tmp_path):
    """A COMMIT that fails loses every step of its transaction at once: the generation ends,
    the sync says the next one (so tools.server.durable reads those games again), the store holds
    what the syncs before kept, and the next steps are committed as usual."""
    from .test_store_contract import drafts

    store = SqliteStore(tmp_path / "games.db", grouped=True)
    store.append("g1", drafts(0, 2, 0, "g1"), 0)
    assert store.sync() == 0
    store.append("g1", drafts(2, 1, 1, "g1"), 2)
    store.append("g2", drafts(0, 1, 0, "g2"), 0)
    store.db = FailingCommit(store.db)  # type: ignore[assignment]
    assert store.sync() == store.incarnation == 1
    assert store.version("g1") == 2 and store.version("g2") == 0
    store.append("g1", drafts(2, 1, 1, "g1"), 2)
    assert store.sync() == 1
    store.close()
    with SqliteStore(tmp_path / "games.db", readonly=True) as again:
        assert again.version("g1") == 3 and again.version("g2") == 0


def test_server_durable_sqlite_a_full_disk_at_the_commit_loses_nothing_told(small_disk):  # noqa: F811
    """On a real disk that fills up (tmpfs): the transaction's COMMIT fails, its steps are
    lost together and the next generation begins; what earlier syncs made durable is all
    there; with room again, steps are committed and kept."""
    from .test_store_contract import drafts

    store = SqliteStore(small_disk / "games.db", grouped=True)
    store.append("g1", drafts(0, 3, 0, "g1"), 0)
    assert store.sync() == 0
    filler = fill(small_disk)
    store.append("g1", drafts(3, 2, 1, "g1"), 3)   # into the page cache: no room is needed
    store.append("g2", drafts(0, 2, 0, "g2"), 0)
    assert store.sync() == 1                       # its COMMIT found no room
    assert store.version("g1") == 3 and store.version("g2") == 0
    filler.unlink()
    store.append("g1", drafts(3, 2, 1, "g1"), 3)
    assert store.sync() == 1
    store.close()
    with SqliteStore(small_disk / "games.db", readonly=True) as again:
        assert [r.seq for r in again.read("g1")] == [0, 1, 2, 3, 4]
        assert again.version("g2") == 0


def test_server_durable_sqlite_games_whose_steps_were_lost_are_read_again(tmp_path):
    """Two games' steps lost with their transaction: neither is told, each is uncertain and
    read again from the store (where the step is not), and their next steps are told."""
    store = SqliteStore(tmp_path / "games.db", grouped=True)
    hub = Hub(store, ServerKey.load_or_create(tmp_path / "k.pem"), Flusher(store.sync))
    games = []
    for _ in range(2):
        made = hub.create(SCENARIO)
        held, seat = hub.seat_of(made["id"], made["seats"]["red"])
        held.watchers.append(Watcher(seat, print))
        games.append((made["id"], held))

    async def play() -> None:
        assert hub.flusher is not None
        hub.flusher.start(asyncio.get_running_loop())
        try:
            before = {}
            for game_id, held in games:
                await asyncio.wait_for(hub.settled(held), 5)
                hub.update(game_id)
                before[game_id] = held.game.version
                command = first_command(held.game)
                hub.command(game_id, command["by"], command)
            store.db = FailingCommit(store.db)  # type: ignore[assignment]
            for game_id, held in games:
                with pytest.raises(StoreUnavailable, match="failed to commit"):
                    await asyncio.wait_for(hub.settled(held), 5)
                assert hub.uncertain(held) and hub.update(game_id) == []
                again = hub.get(game_id)          # read again: the lost step is not there
                assert again.game.version == before[game_id]
                await asyncio.wait_for(hub.settled(again), 5)
                command = first_command(again.game)
                hub.command(game_id, command["by"], command)
                await asyncio.wait_for(hub.settled(again), 5)
                assert [w.seen for w, _ in hub.update(game_id)] == [again.game.version]
        finally:
            hub.flusher.stop()

    from regiment.core.errors import StoreUnavailable

    asyncio.run(play())
    store.close()


def test_server_durable_sqlite_a_command_after_its_games_step_was_lost_is_decided_again(
        tmp_path):
    """Once a transaction is lost (a full database), a game whose step went to it is read
    again before the next command is decided on it, even before the sync has said so: the
    seat's command, sent again on the position it was last told, is taken."""
    import sqlite3

    from regiment.core.errors import StoreError

    store = SqliteStore(tmp_path / "games.db", grouped=True)
    gate = Gate(store.sync)
    gate.open.set()
    hub = Hub(store, ServerKey.load_or_create(tmp_path / "k.pem"), Flusher(gate))
    made = [hub.create(SCENARIO) for _ in range(2)]
    games = []
    for m in made:
        held, seat = hub.seat_of(m["id"], m["seats"]["red"])
        held.watchers.append(Watcher(seat, print))
        games.append(held)

    async def play() -> None:
        assert hub.flusher is not None
        hub.flusher.start(asyncio.get_running_loop())
        try:
            for held in games:
                await asyncio.wait_for(hub.settled(held), 5)
                hub.update(held.game.game_id)
            gate.open.clear()                  # no sync from here until it is let through
            await asyncio.sleep(0.05)
            a, b = games
            told = a.game.version
            command = first_command(a.game)
            hub.command(a.game.game_id, command["by"], command)   # into the transaction
            full = sqlite3.OperationalError("database or disk is full")
            store.db = FailingInsert(store.db, full, rolled=True)  # type: ignore[assignment]
            other = first_command(b.game)
            with pytest.raises(StoreError, match="the disk is full"):
                hub.command(b.game.game_id, other["by"], other)
            assert hub.doubtful(a)
            hub.command(a.game.game_id, command["by"], command)   # sent again: taken
            gate.open.set()
            await asyncio.wait_for(hub.settled(a), 5)
            assert a.game.version > told
            assert [w.seen for w, _ in hub.update(a.game.game_id)] == [a.game.version]
        finally:
            hub.flusher.stop()

    asyncio.run(play())
    store.close()
