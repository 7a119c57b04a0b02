"""``regiment serve``: the engine as a child process speaking JSON lines (DESIGN's protocol).

One JSON object a line each way. The engine writes one line at start and one answer per line
it reads: ``{"events": [...], "pending": {...}, "head": HEX}`` after a command, or
``{"error": {...}, "pending": {...}, "head": HEX}`` when the line is rejected, in which case
nothing changed. ``head`` is the hash of the log's last record: a receipt that the program may
keep, and later check a log against with ``regiment verify --head``. Besides
commands, ``{"query": "state"}``, ``{"query": "legal"}`` and ``{"query": "contacts"}`` (who
touches whom in each combat, and on which side) answer without changing anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import IO, Any

from regiment.core.errors import BadRequest, RegimentError
from regiment.core.events import EVENTS
from regiment.core.game import Game
from regiment.core.i18n import LANGUAGES, language
from regiment.core.protocols import view_of
from regiment.core.record import Record, data_now
from regiment.core.upcast import decode_event
from regiment.core.wire import PROTOCOL

from .words import describe

MAX_LINE = 1024 * 1024


def event_json(r: Record) -> dict[str, Any]:
    """A record as a client gets it: its event's data in today's shape (a record an older
    engine wrote is upcast, as every reader reads it; its hash is the log's business)."""
    cls = EVENTS.get(r.type)
    if cls is not None and cls.v != r.v:
        e = decode_event(r.type, r.v, r.data, f"record {r.seq}")
        return {"seq": r.seq, "step": r.step, "type": r.type, "v": e.v, "data": e.to_data()}
    return {"seq": r.seq, "step": r.step, "type": r.type, "v": r.v, "data": r.data}


def pending_json(game: Game) -> dict[str, Any]:
    """The pending decision, roll or measurement as a client presents it: what a roll needs
    (``need``) and a measurement asks (``asks``), in words, and what a decision's screen
    needs (``details``: a move's allowances and reach, a charge's distance, a shot's
    need), where the rulebook gives them."""
    pending = game.pending
    out = pending.to_dict()
    out["can_undo"], out["can_redo"] = game.can_undo, game.can_redo   # (as legal() offers)
    state = game.state
    if pending.kind == "roll":
        out["need"] = game.preset.roll_need(state)
        numbers = getattr(game.preset, "roll_numbers", None)
        told = numbers(state) if numbers is not None else None
        if told:
            out["needs"] = told
    elif pending.kind == "measurement":
        ask = getattr(game.preset, "question", None)
        if ask is not None:
            out["asks"] = ask(state, pending)
    elif pending.kind == "decision":
        view = view_of(game.preset)
        details = getattr(view, "details", None)
        told = details(state, pending) if details is not None else None
        if told:
            out["details"] = told
    return out


def answer(game: Game, line: str | bytes) -> dict[str, Any]:
    """One request line in, one answer out; a failure changes nothing."""
    before = game.version
    try:
        if len(line) > MAX_LINE:
            raise BadRequest(f"a line of {len(line)} characters is longer than {MAX_LINE}")
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise BadRequest(f"the line is not UTF-8 (byte {exc.start + 1})") from None
        try:
            request = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise BadRequest(f"malformed JSON: {exc}") from None
        if isinstance(request, dict) and "query" in request:
            return query(game, request["query"], request.get("cmd"), request)
        game.submit(request)
    except RegimentError as exc:
        return {"error": exc.to_dict(), "pending": pending_json(game), "head": game.head}
    return {"events": [event_json(r) for r in game.records[before:]],
            "pending": pending_json(game), "head": game.head}


def query(game: Game, what: Any, cmd: Any = None, request: dict[str, Any] | None = None
          ) -> dict[str, Any]:
    """The answer to ``{"query": what}``: serve's, and the game server's WebSocket's; its
    words in the request's ``lang`` if it names one."""
    lang = (request or {}).get("lang")
    if lang is None:
        return _query(game, what, cmd, request)
    if lang not in LANGUAGES:
        raise BadRequest(f"lang: one of {', '.join(LANGUAGES)}, not {str(lang)[:20]!r}",
                         field="lang")
    with language(lang):
        return _query(game, what, cmd, request)


def _query(game: Game, what: Any, cmd: Any, request: dict[str, Any] | None) -> dict[str, Any]:
    if what == "state":
        return {"state": game.state.summary(), "pending": pending_json(game), "head": game.head}
    if what == "legal":
        legal = game.legal()
        return {"legal": [c.wire() for c in legal], "said": [describe(c, game) for c in legal],
                "pending": pending_json(game), "head": game.head}
    if what == "story":   # the records after ``after`` in words, as the page's log shows them
        after = (request or {}).get("after", 0)
        if type(after) is not int or after < 0:
            raise BadRequest("story: after is a record's seq, a whole number from 0",
                             field="after")
        return {"story": story(game, after), "pending": pending_json(game), "head": game.head}
    if what == "contacts":
        view = view_of(game.preset)
        return {"contacts": view.contacts(game.state) if view is not None else {},
                "pending": pending_json(game), "head": game.head}
    if what == "board":   # the table and every piece, in the board's frame (docs/board.md)
        return {"board": game.board(), "pending": pending_json(game), "head": game.head}
    if what == "try":   # what a command would do: its events and the board after, no die
        return {"try": game.preview(cmd if cmd is not None else {}),
                "pending": pending_json(game), "head": game.head}
    if what == "reach":   # is a move to a point legal, and if not, the nearest legal end
        view = view_of(game.preset)
        reach = getattr(view, "reach", None)
        if reach is None:
            raise BadRequest("reach: this rulebook's moves are sent as paths (no reach query)",
                             field="query")
        return {"reach": reach(game.state, request or {}), "pending": pending_json(game),
                "head": game.head}
    raise BadRequest(f"unknown query {what!r}; known: {', '.join(QUERIES)}", field="query",
                     code="unknown_query")


def story(game: Game, after: int) -> list[dict[str, Any]]:
    """Each record from seq ``after`` on that the story tells, with its sentence (the state it
    is told against is the game's now: names, which the records refer to, never change) and
    its step's head: the hash of the step's last record, the code players note (LOG.RECEIPT;
    a step's records are appended together, so every step told is whole)."""
    records = game.records[after:]
    ends = {r.step: r.hash.hex() for r in records}   # the last record of each step wins
    out = []
    for r in records:
        text = game.preset.sentence(r.type, data_now(r), game.state) or ""
        if text:
            told = {"seq": r.seq, "step": r.step, "type": r.type, "text": text}
            if r.step in ends:
                told["head"] = ends[r.step]
            out.append(told)
    return out


QUERIES = ("state", "legal", "contacts", "board", "try", "reach", "story")
__all__ = ["PROTOCOL", "QUERIES", "answer", "event_json", "pending_json", "query", "serve"]


def serve(game: Game, stdin: IO[str] | IO[bytes], stdout: IO[str],
          opening: Sequence[Record]) -> int:
    def write(obj: dict[str, Any]) -> None:
        stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        stdout.flush()

    write({"protocol": PROTOCOL, "game_id": game.game_id,
           "events": [event_json(r) for r in opening],
           "pending": pending_json(game), "head": game.head})
    for line in bounded_lines(stdin, MAX_LINE):
        if line.strip():
            write(answer(game, line))
    return 0


def bounded_lines(stream: IO[str] | IO[bytes], limit: int) -> Iterator[str | bytes]:
    """The stream's lines, never holding more than ``limit`` + 1 characters of one: a longer
    line is given as its first part (which ``answer`` refuses) and the rest is skipped."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        first = line
        while len(line) > limit and line[-1:] not in (b"\n", "\n"):
            line = stream.readline(limit + 1)   # the rest of a long line, dropped
        yield first
