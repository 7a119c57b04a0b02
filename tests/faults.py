"""The fault suite: what a crash, a bad disk or a cheating opponent can do to a game, tried.

Each trial ends in one of these, and only the first four are allowed:

- caught: ``verify`` fails, naming the record or step;
- refused: the reader refuses the bytes with a clear error (``CorruptLog``, a bad record);
- flagged: the game is read up to its last whole step with a warning that names the damage;
- intact: nothing the game depends on changed (the same records are read; for a killed
  writer: every acknowledged step is there, no half step, and it verifies);
- lost: an acknowledged step is missing, a half step was loaded, or a changed game was
  accepted as it stands;
- crashed: anything but a clear error (an exception the engine does not raise on purpose,
  a traceback).

``tests/test_faults.py`` runs a short round of every kind in ``make test``; ``make faults``
runs ``python -m tests.faults`` with many more trials and prints the figures.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.errors import RegimentError, TamperedLog
from regiment.core.game import Game
from regiment.core.record import Record, step_heads
from regiment.core.scenario import load_scenario
from regiment.store import LogFileStore, MemoryStore, SqliteStore, open_store
from regiment.tools.bot import choose
from regiment.tools.receipts import Receipt
from regiment.tools.record import export_record, import_record
from regiment.tools.serve import answer
from regiment.tools.source import closing_line, open_records, read_export
from regiment.tools.verify import verify

from . import faults_hostile as hostile

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "examples" / "ford_clash.toml"
KINDS = ("caught", "refused", "flagged", "intact", "lost", "crashed")


@dataclass
class Tally:
    name: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    examples: list[str] = field(default_factory=list)   # what went wrong, for the assertion
    measured: str = ""   # a figure the row gives (the worst CPU a refused command cost...)

    def add(self, kind: str, why: str = "") -> None:
        self.counts[kind] += 1
        if kind in ("lost", "crashed") and len(self.examples) < 5:
            self.examples.append(f"{self.name}: {kind}: {why}")

    @property
    def tried(self) -> int:
        return sum(self.counts.values())

    @property
    def bad(self) -> int:
        return self.counts["lost"] + self.counts["crashed"]

    def row(self) -> str:
        return f"| {self.name} | {self.tried} | " + " | ".join(
            str(self.counts[k]) for k in KINDS) + f" | {self.measured} |"


def play(store: Any, turns: int | None = None, seed: str = "f00d", game_id: str = "g",
         undo_every: int = 7, clock: Callable[[], str] | None = None) -> Game:
    """A bot game on ``store``, with an undo and a redo now and then (seeded dice)."""
    scenario = load_scenario(SCENARIO)
    scenario["seed"] = seed
    scenario["undo"] = "solo"   # the bots play both seats, and undo their own dice
    if turns is not None:
        scenario["turns"] = turns
    extra = {"clock": clock} if clock is not None else {}
    game = Game.new(scenario, store=store, game_id=game_id, **extra)
    n = 0
    while game.pending.kind != "over":
        command = choose(game)
        game.submit(command)
        n += 1
        if n % undo_every == 0:
            game.undo(command.by)
            game.redo(command.by)
    return game


def _judge(tally: Tally, read: Callable[[], tuple[list[Record], list[str]]],
           original: list[Record]) -> None:
    """Read the damaged artefact, verify what was read, and say which kind of end it was."""
    try:
        records, notes = read()
    except RegimentError:
        tally.add("refused")
        return
    except Exception as exc:  # anything else is a crash
        tally.add("crashed", f"{type(exc).__name__}: {exc}")
        return
    if records == original:
        tally.add("flagged" if notes else "intact")
        return
    try:
        verify(records)
    except TamperedLog:
        tally.add("caught")
        return
    except RegimentError:
        tally.add("refused")
        return
    except Exception as exc:
        tally.add("crashed", f"{type(exc).__name__} in verify: {exc}")
        return
    shorter = len(records) < len(original) and records == original[:len(records)]
    if shorter and notes:
        tally.add("flagged")   # read up to its last whole step, and said so
    else:
        tally.add("lost", f"a changed game of {len(records)} records verified without a word")


# --- single-byte flips over every artefact ------------------------------------------------


def _flip(data: bytes, at: int, rng: random.Random) -> bytes:
    out = bytearray(data)
    out[at] ^= rng.randrange(1, 256)
    return bytes(out)


def artefacts(work: Path) -> dict[str, tuple[Path, list[Record]]]:
    """A game on each store, its export and its record: each file and the log it holds."""
    db = work / "made" / "g.db"
    with SqliteStore(db) as store:
        original = list(play(store, turns=1).records)
    con = sqlite3.connect(db)   # every page in the one file, as it would be copied
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    logs = work / "made" / "logs"
    with LogFileStore(logs) as store:
        logged = list(play(store, turns=1).records)
    export = work / "made" / "g.jsonl"
    export.write_text("".join(json.dumps(r.to_json(), separators=(",", ":")) + "\n"
                              for r in original)
                      + json.dumps(closing_line(original)) + "\n", encoding="utf-8")
    record = work / "made" / "g.record"
    record.write_text("".join(line + "\n" for line in export_record(original)),
                      encoding="utf-8")
    return {"sqlite": (db, original), "logfile": (logs / "g.rlog", logged),
            "export": (export, original), "record": (record, original)}


def flips(work: Path, per_artefact: int, rng: random.Random) -> list[Tally]:
    out = []
    for kind, (path, original) in artefacts(work).items():
        tally = Tally(f"byte flips: {kind}")
        data = path.read_bytes()
        where = (range(len(data)) if per_artefact >= len(data)
                 else rng.sample(range(len(data)), per_artefact))
        for at in where:
            trial = work / f"flip-{kind}-{at}"
            trial.mkdir()
            target = trial / path.name
            target.write_bytes(_flip(data, at, rng))
            _judge(tally, _reader(kind, target), original)
            shutil.rmtree(trial)
        out.append(tally)
    return out


def _reader(kind: str, path: Path) -> Callable[[], tuple[list[Record], list[str]]]:
    def read() -> tuple[list[Record], list[str]]:
        notes: list[str] = []
        if kind == "record":
            game = import_record(path.read_bytes().splitlines(keepends=True), MemoryStore())
            return list(game.records), notes
        if kind == "export":
            return read_export(path, notes), notes
        store_path = path.parent if kind == "logfile" else path
        _, records, store = open_records(store_path, "g", notes)
        store.close()
        return records, notes
    return read


# --- damage inside a log file -----------------------------------------------------------------


def damage_inside(work: Path, per_kind: int, rng: random.Random) -> Tally:
    """STORE.DAMAGE: a byte changed anywhere before the last step of a log file (every bit of
    frame length words first, the audit's case, then bytes anywhere) must be refused or
    caught, never read as a shorter game; and a writer opening the file must leave it byte for
    byte as it was."""
    from regiment.store.logfile import END, HEADER, MAGIC

    tally = Tally("damage inside a log file (not a torn tail)")
    folder = work / "inside" / "logs"
    with LogFileStore(folder) as store:
        original = list(play(store, turns=2).records)
    data = (folder / "g.rlog").read_bytes()
    offsets, off = [], len(MAGIC)
    while off < len(data):
        offsets.append(off)
        off += HEADER.size + (HEADER.unpack_from(data, off)[0] & ~END)
    before_last = _start_of_last_step(data)
    words = [(o + bit // 8, 1 << (bit % 8)) for o in rng.sample(
        [o for o in offsets if o < before_last], min(per_kind, len(offsets) - 1))
        for bit in range(31)]
    anywhere = [(rng.randrange(len(MAGIC), before_last), rng.randrange(1, 256))
                for _ in range(per_kind * 8)]
    for n, (at, mask) in enumerate(words + anywhere):
        trial = work / "inside" / f"t{n}"
        trial.mkdir()
        damaged = bytearray(data)
        damaged[at] ^= mask
        (trial / "g.rlog").write_bytes(bytes(damaged))
        _judge_inside(tally, trial, original, bytes(damaged))
        shutil.rmtree(trial)
    return tally


def _judge_inside(tally: Tally, folder: Path, original: list[Record], damaged: bytes) -> None:
    try:
        notes: list[str] = []
        _, records, store = open_records(folder, "g", notes)
        store.close()
        if records == original:
            kind = "intact"   # a step-end mark in the middle: nothing read depends on it
        else:
            try:
                verify(records)
                kind = "lost"
                why = f"read as {len(records)} records of {len(original)}, and it verified"
            except TamperedLog:
                kind = "caught"
    except RegimentError:
        kind = "refused"
    except Exception as exc:
        tally.add("crashed", f"{type(exc).__name__}: {exc}")
        return
    try:
        with LogFileStore(folder) as store:
            store.claim("g")
    except RegimentError:
        pass
    except Exception as exc:
        tally.add("crashed", f"a writer opening it: {type(exc).__name__}: {exc}")
        return
    if (folder / "g.rlog").read_bytes() != damaged:
        tally.add("lost", "a writer opening the damaged log changed it")
    elif kind == "lost":
        tally.add("lost", why)
    else:
        tally.add(kind)


# --- torn tails -------------------------------------------------------------------------------


def torn_tails(work: Path, step_bytes: int = 1) -> list[Tally]:
    """Cut each artefact at every byte (or every ``step_bytes``-th) of its last step."""
    out = []
    # the log-file store: a crash in the middle of the last step's write
    logs = work / "torn" / "logs"
    with LogFileStore(logs) as store:
        game = play(store, turns=1)
    records = list(game.records)
    last_step = records[-1].step
    before = [r for r in records if r.step < last_step]
    data = (logs / "g.rlog").read_bytes()
    start = _start_of_last_step(data)
    tally = Tally("torn tail: log file")
    for cut in range(start + 1, len(data), step_bytes):
        trial = work / "torn" / f"cut{cut}"
        trial.mkdir()
        (trial / "g.rlog").write_bytes(data[:cut])
        _expect_prefix(tally, trial, before)
        shutil.rmtree(trial)
    out.append(tally)
    # exports and records: a file cut short in copying or mailing
    for kind in ("export", "record"):
        path, original = artefacts(work / f"torn-{kind}")[kind]
        text = path.read_bytes()
        tally = Tally(f"torn tail: {kind}")
        lines = text.splitlines(keepends=True)
        start = len(text) - len(lines[-1]) - len(lines[-2])   # the last move and the close
        # (up to the closing line's newline: a file that lost only that lost nothing, and
        # reads whole, which a step of the sampling may or may not land on)
        for cut in range(start + 1, len(text) - 1, step_bytes):
            trial = work / f"torn-{kind}" / f"cut{cut}"
            trial.mkdir()
            (trial / path.name).write_bytes(text[:cut])
            _judge(tally, _reader(kind, trial / path.name), original)
            shutil.rmtree(trial)
        out.append(tally)
    # SQLite: its WAL cut in the middle of the last transaction
    out.append(_torn_wal(work / "torn-wal", step_bytes * 61))
    return out


def _start_of_last_step(data: bytes) -> int:
    from regiment.store.logfile import END, HEADER, MAGIC

    off, start, last = len(MAGIC), len(MAGIC), len(MAGIC)
    while off < len(data):
        word, _ = HEADER.unpack_from(data, off)
        off += HEADER.size + (word & ~END)
        if word & END:
            start, last = last, off
    return start


def _expect_prefix(tally: Tally, folder: Path, expected: list[Record]) -> None:
    """A torn log reads as the steps before the torn one; open for writing, it is cut back
    to them and takes the next step."""
    try:
        notes: list[str] = []
        _, records, store = open_records(folder, "g", notes)
        store.close()
        if records != expected:
            tally.add("lost", f"{len(records)} records read, {len(expected)} expected")
            return
        verify(records)
        with LogFileStore(folder) as store:
            game = Game.load("g", store)
            if game.pending.kind == "decision":
                game.submit(choose(game))
        tally.add("flagged" if notes else "intact")
    except RegimentError as exc:
        tally.add("lost", f"a torn tail was refused: {exc}")
    except Exception as exc:
        tally.add("crashed", f"{type(exc).__name__}: {exc}")


def _torn_wal(work: Path, step_bytes: int) -> Tally:
    """SQLite's own torn tail: the WAL cut anywhere in the last transaction reads as the
    game before that step or after it, never between."""
    tally = Tally("torn tail: SQLite WAL")
    work.mkdir(parents=True)
    db = work / "g.db"
    store = SqliteStore(db)
    store.db.execute("PRAGMA wal_autocheckpoint = 0")   # keep every step in the WAL
    game = play(store, turns=1)
    records = list(game.records)
    wal = (work / "g.db-wal").read_bytes()
    original = db.read_bytes()
    before_last = [r for r in records if r.step < records[-1].step]
    frame = 4096 + 24
    # the last transaction's frames: those after the commit frame before the last (a frame
    # header's second word is the database's size after a commit, 0 in other frames)
    commits = [at for at in range(32, len(wal) - frame + 1, frame)
               if int.from_bytes(wal[at + 4:at + 8], "big")]
    start = commits[-2] + frame if len(commits) > 1 else 32
    for cut in range(start, len(wal), step_bytes):
        trial = work / f"cut{cut}"
        trial.mkdir()
        (trial / "g.db").write_bytes(original)
        (trial / "g.db-wal").write_bytes(wal[:cut])
        try:
            with SqliteStore(trial / "g.db") as copy:
                got = list(copy.read("g"))
            whole = len(got) == len(records) or (
                bool(got) and records[len(got)].step != got[-1].step)
            if got != records[:len(got)]:
                tally.add("lost", "a WAL cut read as other records")
            elif not whole or len(got) < len(before_last):
                tally.add("lost", f"a WAL cut read as {len(got)} records: not the last "
                          "step, nor the one before")
            else:
                verify(got)
                tally.add("intact")
        except RegimentError:
            tally.add("refused")
        except Exception as exc:
            tally.add("crashed", f"{type(exc).__name__}: {exc}")
        shutil.rmtree(trial)
    store.close()
    return tally


# --- kill -9 of a writer ------------------------------------------------------------------


def writer(kind: str, path: str) -> None:
    """The child of ``kills``: plays and says "ack VERSION HEAD" after each stored step."""
    store = open_store(path)
    scenario = load_scenario(SCENARIO)
    scenario["seed"] = "beef"
    game = Game.new(scenario, store=store, game_id="g")
    print(f"ack {game.version} {game.head}", flush=True)
    while game.pending.kind != "over":
        game.submit(choose(game))
        print(f"ack {game.version} {game.head}", flush=True)


def kills(work: Path, kind: str, times: int, rng: random.Random) -> Tally:
    tally = Tally(f"kill -9 of a writer: {kind}")
    for n in range(times):
        path = work / f"kill-{kind}-{n}" / ("g.db" if kind == "sqlite" else "logs")
        path.parent.mkdir(parents=True)
        proc = subprocess.Popen([sys.executable, "-m", "tests.faults", "writer", kind,
                                 str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        acked: tuple[int, str] | None = None
        wanted = rng.randrange(1, 40)
        for _ in range(wanted):
            line = proc.stdout.readline()
            if not line.startswith("ack "):
                break
            _, version, head = line.split()
            acked = (int(version), head)
        time.sleep(rng.random() * 0.004)   # somewhere inside the next step, or between
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        if acked is None:
            tally.add("crashed", "the writer acknowledged nothing: " + (proc.stderr.read()
                                                                        if proc.stderr else ""))
            continue
        _after_kill(tally, kind, path, acked)
    return tally


def _after_kill(tally: Tally, kind: str, path: Path, acked: tuple[int, str]) -> None:
    version, head = acked
    try:
        with open_store(path) as store:
            records = list(store.read("g"))
            if len(records) < version or records[version - 1].hash.hex() != head:
                tally.add("lost", f"acknowledged record {version - 1} is not there")
                return
            verify(records, receipts=[Receipt(head)])   # no half step: each step re-derived
            game = Game.load("g", store)   # the dead writer's lock is gone: write on
            if game.pending.kind == "decision":
                game.submit(choose(game))
        tally.add("intact")
    except RegimentError as exc:
        tally.add("lost", f"after the kill: {exc}")
    except Exception as exc:
        tally.add("crashed", f"{type(exc).__name__}: {exc}")


# --- a cut at every step boundary, against receipts ------------------------------------------


def cuts(work: Path) -> list[Tally]:
    """Whole steps cut off the end: only a receipt can tell, and every receipt does."""
    store = MemoryStore()
    records = list(play(store, turns=1).records)
    heads = step_heads(records)
    final = Receipt(heads[max(heads)].hex()[:10], max(heads))
    alone = Tally("cut at a step boundary, no receipt (only a receipt can tell)")
    held = Tally("cut at a step boundary: with the last receipt")
    export = Tally("cut at a step boundary: export without its closing line")
    for step in sorted(heads)[:-1]:
        cut = [r for r in records if r.step <= step]
        try:
            verify(cut)
            alone.add("intact")   # what verify alone cannot know (the README says so)
        except TamperedLog:
            alone.add("caught")
        try:
            verify(cut, receipts=[final])
            held.add("lost", f"a log cut after step {step} held the receipt of step "
                     f"{final.step}")
        except TamperedLog as exc:
            held.add("caught" if f"step {final.step}" in str(exc) else "lost")
        except Exception as exc:
            held.add("crashed", f"{type(exc).__name__}: {exc}")
        path = work / f"cut{step}.jsonl"
        path.write_text("".join(json.dumps(r.to_json()) + "\n" for r in cut), encoding="utf-8")
        _judge(export, _reader("export", path), records)
    return [alone, held, export]


# --- fuzzed serve lines -----------------------------------------------------------------------


WORDS = ("cmd", "by", "unit", "target", "reaction", "combat", "faces", "query", "attacks",
         "files", "face", "turn", "red", "blue", "boyz", "spears", "undo", "redo", "roll",
         "declare_charge", "end_charges", "react", "flee", "hold", "end_phase", "state",
         "legal", "contacts", "fight", "reform", "pursue", "restrain")


def _value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 4 else 6)
    if pick == 0:
        return rng.choice(WORDS)
    if pick == 1:
        return rng.choice([0, -1, 1, 6, 7, 2**63, -2**70, 1e308, float("nan"), float("inf"),
                           -float("inf"), 10**400, 1e6 + 1, -2**31])
    if pick == 2:
        return rng.choice([None, True, False, "", "\u0000", "\ud800", "x" * 300])
    if pick == 3:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(8)))
    if pick in (4, 5):
        return rng.choice(WORDS)
    if pick == 6:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(WORDS): _value(rng, depth + 1) for _ in range(rng.randrange(5))}


def fuzz_lines(rng: random.Random, game: Game, n: int) -> Iterable[str | bytes]:
    for _ in range(n):
        pick = rng.randrange(7)
        if pick == 0:
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        elif pick == 1:
            yield "[" * rng.randrange(1, 100_000)
        elif pick == 2 and game.legal():
            legal = rng.choice(game.legal()).to_dict()
            key = rng.choice(list(legal))
            legal[key] = _value(rng)
            yield json.dumps(legal)
        elif pick == 3 and game.legal():
            yield json.dumps(rng.choice(game.legal()).to_dict())   # a good move now and then
        elif pick == 4:
            good = json.dumps(rng.choice(game.legal()).to_dict()) if game.legal() else "{}"
            yield good[:rng.randrange(len(good) + 1)]
        else:
            yield json.dumps(_value(rng), allow_nan=True)


def serve_fuzz(lines: int, rng: random.Random) -> Tally:
    tally = Tally("fuzzed serve lines")
    scenario = load_scenario(SCENARIO)
    game = Game.new(scenario, store=MemoryStore())
    for line in fuzz_lines(rng, game, lines):
        before = (game.version, game.head)
        try:
            out = answer(game, line)
        except Exception as exc:
            tally.add("crashed", f"{type(exc).__name__}: {exc} for {line[:80]!r}")
            continue
        if "error" in out:
            if (game.version, game.head) != before:
                tally.add("lost", f"a refused line changed the game: {line[:80]!r}")
            else:
                tally.add("refused")
        elif out.get("head") != game.head:
            tally.add("lost", "an answer without the game's head")
        else:
            tally.add("intact")
    try:
        verify(list(game.records))
    except Exception as exc:
        tally.add("lost", f"the fuzzed game does not verify: {exc}")
    return tally


def serve_process(lines: int, rng: random.Random) -> Tally:
    """The same through a real ``regiment serve``: every line answered, no traceback."""
    tally = Tally("fuzzed serve lines: a real process")
    scenario = load_scenario(SCENARIO)
    shadow = Game.new(scenario, store=MemoryStore())
    payload = b"".join((line if isinstance(line, bytes) else line.encode("utf-8", "replace"))
                       .replace(b"\n", b" ") + b"\n"
                       for line in fuzz_lines(rng, shadow, lines))
    proc = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "serve", str(SCENARIO),
                           "--store", ":memory:"],
                          input=payload, capture_output=True, timeout=300)
    answers = [json.loads(line) for line in proc.stdout.split(b"\n") if line]
    sent = sum(1 for line in payload.split(b"\n") if line.strip())
    if proc.returncode != 0 or b"Traceback" in proc.stderr or len(answers) != sent + 1:
        tally.add("crashed", f"exit {proc.returncode}, {len(answers)} answers to {sent} lines,"
                  f" {proc.stderr[-300:]!r}")
        return tally
    for a in answers[1:]:
        tally.add("refused" if "error" in a else "intact")
    return tally


# --- hostile clients of the game server ------------------------------------------------------


def server_clients(trials: int, rng: random.Random, work: Path) -> Tally:
    """SERVER.LIMITS through a real ``regiment server`` and raw sockets: scenarios nested deep,
    bodies cut off or never finished, headers never finished, binary and text floods, wrong
    tokens. Each must be refused (an error answer, or the connection closed) with the server
    still answering, and must leave no traceback in its log."""
    import socket

    from websockets.sync.client import connect

    from .servers import Server

    tally = Tally("hostile clients of the game server")
    game_scenario = SCENARIO.read_text(encoding="utf-8")
    with Server(str(work / "hostile.db"), work / "server.key",
                options=("--games-per-minute", "0", "--header-timeout", "0.5",
                         "--body-timeout", "0.5")) as server:
        made = server.create(game_scenario)
        url = f"{server.ws}/games/{made['id']}/ws?token={made['seats']['red']}"

        def raw(data: bytes, wait: float = 2.0) -> bytes:
            with socket.create_connection(("127.0.0.1", server.port)) as s:
                s.sendall(data)
                s.settimeout(wait)
                got = b""
                try:
                    while chunk := s.recv(65536):
                        got += chunk
                except (TimeoutError, ConnectionResetError):
                    pass
                return got

        def nested() -> bool:
            depth = rng.choice([100, 1000, 10_000])
            body = f"x = {'[' * depth}{']' * depth}\n".encode()
            got = raw(b"POST /games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                      b"Content-Length: %d\r\n\r\n" % len(body) + body)
            return b" 400 " in got.split(b"\r\n")[0]

        def cut_body() -> bool:
            raw(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 9000\r\n\r\n" +
                b"#" * rng.randrange(0, 500), wait=0.01)
            return True

        def slow_body() -> bool:
            got = raw(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 9000\r\n\r\nx")
            return b" 408 " in got.split(b"\r\n")[0]

        def slow_headers() -> bool:
            return raw(b"GET /key HTTP/1.1\r\nHost: x\r\nX-A: b") == b""

        def flood() -> bool:
            """Refused: told "too many messages", or closed for a flood (1008)."""
            from websockets.exceptions import ConnectionClosed

            said = 0
            with connect(url) as ws:
                ws.recv(timeout=10)
                binary = rng.random() < 0.5
                try:
                    for _ in range(rng.choice([60, 250])):
                        ws.send(b"\x00" if binary else "{}")
                    while True:
                        said += "too many messages" in ws.recv(timeout=2)
                except TimeoutError:
                    pass
                except ConnectionClosed as exc:
                    said += exc.rcvd is not None and exc.rcvd.code == 1008
            return said > 0

        def wrong_token() -> bool:
            gid = made["id"] if rng.random() < 0.5 else f"{rng.getrandbits(64):016x}"
            r = httpx.get(f"{server.http}/games/{gid}?token=x{rng.getrandbits(32)}")
            return r.status_code == 403

        kinds = [nested, cut_body, slow_body, slow_headers, flood, wrong_token]
        for n in range(trials):
            trial = kinds[n % len(kinds)]
            before = server.tracebacks()
            try:
                refused = trial()
                alive = httpx.get(f"{server.http}/key", timeout=5).status_code == 200
            except Exception as exc:
                tally.add("crashed", f"{trial.__name__}: {type(exc).__name__}: {exc}")
                continue
            if server.tracebacks() > before or not alive:
                tally.add("crashed", f"{trial.__name__}: a traceback in the server's log, or "
                          f"no answer after it:\n{server.errors[-1500:]}")
            elif not refused:
                tally.add("lost", f"{trial.__name__}: not refused as it should be")
            else:
                tally.add("refused")
    return tally


# --- all of it ----------------------------------------------------------------------------------


def run(scale: int, seed: int = 2026) -> list[Tally]:
    """Every kind of fault; ``scale`` 1 is the short round of ``make test``."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tallies = [kills(work, "sqlite", 3 * scale, rng), kills(work, "logfile", 3 * scale, rng)]
        tallies += torn_tails(work, step_bytes=1 if scale > 1 else 7)
        tallies.append(damage_inside(work, 4 * scale, rng))
        tallies += flips(work, 40 * scale, rng)
        tallies += cuts(work)
        tallies += [serve_fuzz(300 * scale, rng), serve_process(100 * scale, rng)]
        tallies.append(server_clients(12 * scale, rng, work))
        tallies += hostile.run(scale, rng, work)
    return tallies


def table(tallies: list[Tally]) -> str:
    head = "| fault | tried | " + " | ".join(KINDS) + " | measured |"
    rule = "|---|---:|" + "---:|" * len(KINDS) + "---|"
    return "\n".join([head, rule, *(t.row() for t in tallies)])


def main(argv: list[str]) -> int:
    import logging

    import structlog

    # the stores warn of every torn tail they cut back; here that is the point
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    if argv[:1] == ["writer"]:
        writer(argv[1], argv[2])
        return 0
    scale = int(argv[0]) if argv else 10
    tallies = run(scale)
    print(table(tallies))
    bad = [e for t in tallies for e in t.examples]
    for line in bad:
        print(line, file=sys.stderr)
    return 1 if any(t.bad for t in tallies) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
