"""Opening what a command line names: a store (SQLite file or log directory) or an export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from regiment.core.errors import BadRequest, CorruptLog
from regiment.core.record import Record
from regiment.store import open_store
from regiment.store.codec import MAX_FRAME, record_from_map
from regiment.store.memory import MemoryStore

MAX_LINES = 5_000_000


def is_export(path: str | Path) -> bool:
    return str(path).endswith((".jsonl", ".ndjson", ".json"))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a log may hold")


def read_export(path: str | Path) -> list[Record]:
    """Records from an exported JSON-lines file, each checked like a record from disk."""
    records = []
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise CorruptLog(f"cannot read: {exc.strerror}", where=str(path)) from None
    with handle:
        for n, line in enumerate(handle, 1):
            where = f"{path} line {n}"
            if n > MAX_LINES:
                raise CorruptLog(f"more than {MAX_LINES} lines", where=where)
            if len(line) > MAX_FRAME:
                raise CorruptLog(f"a line of {len(line)} characters is too long", where=where)
            if not line.strip():
                continue
            try:
                m = json.loads(line, parse_constant=_no_constant)
            except (ValueError, RecursionError) as exc:
                raise CorruptLog(f"not JSON: {exc}", where=where) from None
            if isinstance(m, dict):
                for key in ("prev", "hash"):
                    value = m.get(key)
                    try:
                        m[key] = bytes.fromhex(value) if isinstance(value, str) else value
                    except ValueError:
                        raise CorruptLog(f"{key} is not hex", where=where) from None
            records.append(record_from_map(m, where))
    return records


def open_records(path: str | Path, game: str | None) -> tuple[str, list[Record], Any]:
    """(game id, records, store) for a store path or an export file."""
    if is_export(path):
        records = read_export(path)
        if not records:
            raise CorruptLog("the export holds no records", where=str(path))
        game_id = records[0].data.get("game_id", "")
        if game and game != game_id:
            raise BadRequest(f"{path} holds game {game_id!r}, not {game!r}")
        return str(game_id), records, MemoryStore()
    if not Path(path).exists():
        raise BadRequest(f"no store at {path}")
    store = open_store(path)
    game_id = game or latest_game(store, path)
    records = list(store.read(game_id))
    if not records:
        raise BadRequest(f"{path} has no game {game_id!r}")
    return game_id, records, store


def latest_game(store: Any, path: str | Path) -> str:
    games = store.games()
    if not games:
        raise BadRequest(f"{path} holds no games")
    return str(games[-1])
