"""Opening what a command line names: a store (SQLite file or log directory) or an export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from regiment.core.errors import BadRequest, CorruptLog
from regiment.core.events import GameStarted
from regiment.core.game import Game, published_seed
from regiment.core.record import Record
from regiment.core.upcast import decode_event
from regiment.store import open_store
from regiment.store.base import check_game_id
from regiment.store.codec import MAX_FRAME, record_from_map
from regiment.store.memory import MemoryStore

from .names import meant, resolve

MAX_LINES = 5_000_000


def is_export(path: str | Path) -> bool:
    return str(path).endswith((".jsonl", ".ndjson", ".json"))


def is_record(path: str | Path) -> bool:
    """A game record (``record export``): its header says so near its start (keys are
    sorted: ``at``, ``dice``, ``engine``, ``format``), whatever the file's name."""
    try:
        with open(path, "rb") as handle:
            start = handle.read(4096)
    except OSError:
        return False
    return b'"format":"regiment-record"' in start


def read_record(path: str | Path) -> tuple[list[Record], MemoryStore]:
    """The log a record arrives at, played again in memory (a record that does not arrive at
    the log it closes with is refused); the store holds the seed if the record reveals it."""
    from .record import MAX_LINE, import_record
    from .serve import bounded_lines

    store = MemoryStore()
    with open(path, "rb") as handle:
        game = import_record(bounded_lines(handle, MAX_LINE), store)
    return list(game.records), store


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a log may hold")


def closing_line(records: list[Record]) -> dict[str, Any]:
    """The last line of an export: how many records it holds and the last head, so that a
    file cut at a step boundary is refused instead of read as a shorter game."""
    return {"end": True, "records": len(records),
            "head": records[-1].hash.hex() if records else ""}


def export_lines(records: list[Record]) -> list[str]:
    """An export: each record as a JSON line, hashes in hex, then the closing line."""
    lines = [json.dumps(r.to_json(), separators=(",", ":")) for r in records]
    lines.append(json.dumps(closing_line(records), separators=(",", ":")))
    return lines


def predates_closing_lines(engine: Any) -> bool:
    """Engines before 0.4.0 wrote exports without a closing line."""
    try:
        major, minor = (int(part) for part in str(engine).split(".")[:2])
    except ValueError:
        return False
    return (major, minor) < (0, 4)


def read_export(path: str | Path, notes: list[str] | None = None) -> list[Record]:
    """Records from an exported JSON-lines file, each checked like a record from disk, and
    the file checked against its closing line. ``notes`` gathers warnings for the reader."""
    records: list[Record] = []
    end: tuple[int, dict[str, Any]] | None = None
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise CorruptLog(f"cannot read: {exc.strerror}", where=str(path)) from None
    with handle:
        n = 0
        while True:
            raw = handle.readline(MAX_FRAME + 1)
            if not raw:
                break
            n += 1
            where = f"{path} line {n}"
            if n > MAX_LINES:
                raise CorruptLog(f"more than {MAX_LINES} lines", where=where)
            if len(raw) > MAX_FRAME:
                raise CorruptLog(f"a line longer than {MAX_FRAME} bytes", where=where)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise CorruptLog(f"not UTF-8 text (byte {exc.start + 1} of the line)",
                                 where=where) from None
            if not line.strip():
                continue
            if end is not None:
                raise CorruptLog(f"a line after the closing line (line {end[0]})", where=where)
            try:
                m = json.loads(line, parse_constant=_no_constant)
            except (ValueError, RecursionError) as exc:
                raise CorruptLog(f"not JSON: {exc}", where=where) from None
            if isinstance(m, dict) and m.get("end") is True:
                end = (n, m)
                continue
            if isinstance(m, dict):
                for key in ("prev", "hash"):
                    value = m.get(key)
                    try:
                        m[key] = bytes.fromhex(value) if isinstance(value, str) else value
                    except ValueError:
                        raise CorruptLog(f"{key} is not hex", where=where) from None
            records.append(record_from_map(m, where))
    _check_end(path, records, end, notes)
    return records


def _check_end(path: str | Path, records: list[Record], end: tuple[int, dict[str, Any]] | None,
               notes: list[str] | None) -> None:
    if end is None:
        engine = records[0].data.get("engine_version") if records else None
        if records and records[0].type == "GameStarted" and predates_closing_lines(engine):
            if notes is not None:
                notes.append(f"{path} was written by engine {engine}, before exports had a "
                             "closing line: that it is whole cannot be proved without a "
                             "receipt (verify --head)")
            return
        raise CorruptLog("the export is cut: it has no closing line (a whole export ends "
                         "with {\"end\": true, \"records\": N, \"head\": ...})", where=str(path))
    n, m = end
    expected = closing_line(records)
    if m.get("records") != expected["records"] or m.get("head") != expected["head"]:
        raise CorruptLog(f"the closing line says {m.get('records')!r} records ending "
                         f"{str(m.get('head'))[:16]}..., the file holds {expected['records']} "
                         f"ending {expected['head'][:16]}...: records were cut or added",
                         where=f"{path} line {n}")


def published_note(records: list[Record]) -> str | None:
    """A warning for a log whose dice seed was written into it (engines before 0.4.0)."""
    if not records or records[0].type != "GameStarted":
        return None
    started = decode_event(records[0].type, records[0].v, records[0].data, "record 0")
    if not isinstance(started, GameStarted):
        return None
    seed = published_seed(started)
    if seed is None:
        return None
    return (f"this game's dice seed ({seed}) was published in its own log by engine "
            f"{started.engine_version}: anyone who held the log could foresee every die "
            "(verify checks the dice against it)")


def open_records(path: str | Path, game: str | None, notes: list[str] | None = None
                 ) -> tuple[str, list[Record], Any]:
    """(game id, records, store) for a store path or an export file; ``notes`` gathers
    what the reader should be warned of."""
    game_id, records, store, _ = open_chained(path, game, notes)
    return game_id, records, store


def open_chained(path: str | Path, game: str | None, notes: list[str] | None = None
                 ) -> tuple[str, list[Record], Any, list[bytes] | None]:
    """``open_records``, and from a store each record's data as the bytes its hash was
    checked against as it was read (``Reading.read_chained``; None from a file)."""
    chained = None
    if not str(path):
        raise BadRequest("no path given: name a store, an export or a record")
    store: Any
    if is_export(path) or (Path(path).is_file() and is_record(path)):
        if is_export(path):
            records, store = read_export(path, notes), MemoryStore()
        else:
            records, store = read_record(path)
        if not records:
            raise CorruptLog("the export holds no records", where=str(path))
        game_id = records[0].data.get("game_id", "")
        if game is not None and game != game_id:
            raise BadRequest(f"{path} holds game {game_id!r}, not {game!r}")
    else:
        if not Path(path).exists():
            raise BadRequest(f"no store at {path}")
        store = open_store(path, readonly=True)
        game_id = game_named(store, path, game) if game is not None else \
            latest_game(store, path)
        read = getattr(store, "read_chained", None)
        if read is not None:
            records, chained = read(game_id)
        else:
            records = list(store.read(game_id))
        if not records:
            raise BadRequest(f"{path} has no game {game_id!r}")
        torn = getattr(store, "torn", None)
        damage = torn(game_id) if torn is not None else None
        if damage and notes is not None:
            notes.append(damage)
    note = published_note(records)
    if note and notes is not None:
        notes.append(note)
    return str(game_id), records, store, chained


def open_game(path: str | Path, game: str | None, notes: list[str] | None = None) -> Game:
    """The game at ``path`` (a store, an export or a record), rebuilt from its log. From a
    store it is ``Game.load``'s fast path: the records are decoded only when read."""
    if not str(path) or is_export(path) or (Path(path).is_file() and is_record(path)) or \
            not Path(path).exists():
        _, records, store = open_records(path, game, notes)
        return Game.from_records(records, store=store)
    store = open_store(path, readonly=True)
    game_id = game_named(store, path, game) if game is not None else latest_game(store, path)
    if not store.version(game_id):
        raise BadRequest(f"{path} has no game {game_id!r}")
    loaded = Game.load(game_id, store)
    torn = getattr(store, "torn", None)
    damage = torn(game_id) if torn is not None else None
    if damage and notes is not None:
        notes.append(damage)
    note = published_note(loaded.records[:1])
    if note and notes is not None:
        notes.append(note)
    return loaded


def game_named(store: Any, path: str | Path, text: str) -> str:
    """The game ``--game`` names: its whole id, or a prefix only one game's id has."""
    check_game_id(text)
    games = [str(g) for g in store.games()]
    name, near = resolve(text, games)
    if name is not None:
        return name
    if near and all(g.startswith(text) for g in near):
        raise BadRequest(f"{path}: {len(near)} or more games begin with {text!r} "
                         f"({', '.join(near)}): give more of the id")
    raise BadRequest(f"{path} has no game {text!r}{meant(near)} ({len(games)} games: "
                     f"regiment games {path})")


def latest_game(store: Any, path: str | Path) -> str:
    games = store.games()
    if not games:
        raise BadRequest(f"{path} holds no games")
    return str(games[-1])
