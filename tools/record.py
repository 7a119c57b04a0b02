"""Game records: a game as the moves two players could mail each other, like a chess PGN.

A record is JSON lines. The first line is the header: the engine that played the game, the
scenario, the game id and when it began, and the dice (their kind and commitment, and the
seed when the game's store holds it). Then one line a step: the command as sent, who sent
it, when, and, where the dice cannot be rolled again without the seed, the faces the step
rolled. The last line closes the record with the number of log records and the hash of the
last one. Importing a record plays its commands again with the same engine and dice, and
must arrive at the very same log, hash for hash; anything else (an edited line, a record
cut short, a different engine) is refused before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from regiment.core.dice import Dice, SeededDice, commitment
from regiment.core.errors import IllegalCommand, RegimentError, TamperedLog
from regiment.core.events import GameStarted
from regiment.core.game import ENGINE_VERSION, Game
from regiment.core.protocols import EventStore
from regiment.core.record import Draft, Record
from regiment.core.scenario import parse_scenario
from regiment.core.walk import Step, walk
from regiment.store.base import check_game_id
from regiment.store.memory import MemoryStore

from .receipts import Receipt, check_receipts

FORMAT = "regiment-record"
VERSION = 1
MAX_LINE = 1 << 20
MAX_LINES = 1_000_000


class RecordError(RegimentError):
    """A game record that cannot be imported: says which line and why."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


# --- export ------------------------------------------------------------------------------------


def export_record(records: Sequence[Record], seed: bytes | None = None) -> Iterator[str]:
    """The lines of the record of a game's log.

    ``seed``: the dice seed, only when the players have agreed to reveal it (``record export
    --reveal-seed``); without it, each step carries the faces it rolled (DICE.SECRET).
    """
    if not records or records[0].type != "GameStarted":
        raise RecordError("the log does not begin with GameStarted")
    started = records[0].data
    dice: dict[str, Any] = {"kind": started["dice"], "commitment": started["dice_commitment"]}
    if seed is not None and started["dice"] == "seeded":
        dice["seed"] = seed.hex()
    rolled_by_hand = started["dice"] == "manual" or "seed" in dice
    yield _line({"format": FORMAT, "version": VERSION, "engine": started["engine_version"],
                 "game_id": started["game_id"], "at": records[0].at, "undo": started["undo"],
                 "dice": dice, "scenario": started["scenario"]})
    (steps,) = walk(records, [Commands(rolled_by_hand)], {})
    for step in sorted(steps):
        yield _line(steps[step])
    yield _line({"end": True, "records": len(records), "hash": records[-1].hash.hex()})


class Commands:
    """Each step's command, with the faces it rolled that no earlier step rolled (after an
    undo the same dice come again: recorded once), unless the dice are rolled by hand or
    the seed goes with the record (a visitor of ``core.walk``)."""

    states = False
    events = False

    def __init__(self, rolled_by_hand: bool) -> None:
        self.rolled_by_hand = rolled_by_hand
        self.steps: dict[int, dict[str, Any]] = {}
        self.seen: set[int] = set()

    def visit(self, step: Step) -> None:
        for r in step.records if step.number > 0 else ():
            self._record(r)

    def _record(self, r: Record) -> None:
        steps, seen = self.steps, self.seen
        if r.type == "CommandIssued":
            cmd = {"cmd": r.data["command"], "by": r.data["by"], **r.data["args"]}
            steps[r.step] = {"step": r.step, "at": r.at, "cmd": cmd}
        elif r.type == "DiceRolled" and not self.rolled_by_hand and r.step in steps:
            runs = steps[r.step].setdefault("faces", [])
            for k, face in enumerate(r.data["faces"]):
                die = r.data["index"] + k
                if die in seen:
                    continue
                seen.add(die)
                if runs and runs[-1][0] + len(runs[-1][1]) == die:
                    runs[-1][1].append(face)
                else:
                    runs.append([die, [face]])
            if not runs:
                del steps[r.step]["faces"]

    def end(self, branches: Mapping[int, str]) -> dict[int, dict[str, Any]]:
        return self.steps


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


# --- import ------------------------------------------------------------------------------------


class RecordedDice(Dice):
    """Dice that give back the faces a record holds, under the kind and commitment the game
    was played with (for a seeded game whose seed stayed secret)."""

    def __init__(self, kind: str, promised: str, faces: dict[int, int]) -> None:
        self.kind = kind
        self.automatic = kind != "manual"
        self._promised = promised
        self._faces = faces

    def faces(self, index: int, count: int) -> tuple[int, ...] | None:
        try:
            return tuple(self._faces[index + i] for i in range(count))
        except KeyError:
            raise IllegalCommand(f"the record holds no face for die {index}",
                                 rule="DICE.SCRIPT") from None

    def commitment(self) -> str:
        return self._promised


def parse_lines(lines: Iterable[str | bytes]) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                        dict[str, Any]]:
    """The header, the steps and the end line, each checked for its shape. Lines may be
    bytes as read from a file: each must be UTF-8."""
    rows: list[tuple[int, dict[str, Any]]] = []
    for n, line in enumerate(lines, 1):
        if n > MAX_LINES:
            raise RecordError(f"more than {MAX_LINES} lines", n)
        if len(line) > MAX_LINE:
            raise RecordError(f"a line of {len(line)} characters is too long", n)
        try:
            text = line.decode("utf-8") if isinstance(line, bytes) else line
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text (byte {exc.start + 1} of the line)", n) from None
        if not text.strip():
            continue
        try:
            obj = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}", n) from None
        if not isinstance(obj, dict):
            raise RecordError("each line must be a JSON object", n)
        rows.append((n, obj))
    if not rows:
        raise RecordError("the record is empty")
    n, header = rows[0]
    if header.get("format") != FORMAT:
        raise RecordError(f"not a game record (its first line should say \"format\": "
                          f"\"{FORMAT}\")", n)
    if header.get("version") != VERSION:
        raise RecordError(f"record format version {header.get('version')!r}; this engine "
                          f"reads version {VERSION}", n)
    for key, kind in (("engine", str), ("game_id", str), ("at", str), ("undo", str),
                      ("dice", dict), ("scenario", dict)):
        if not isinstance(header.get(key), kind):
            raise RecordError(f"the header's {key!r} is missing or not a {kind.__name__}", n)
    end_n, end = rows[-1]
    if end.get("end") is not True or len(rows) < 2:
        raise RecordError("the record is cut short: its last line does not close it", end_n)
    if not isinstance(end.get("hash"), str) or not isinstance(end.get("records"), int):
        raise RecordError("the closing line needs \"records\" and \"hash\"", end_n)
    steps = []
    for n, row in rows[1:-1]:
        if not isinstance(row.get("cmd"), dict) or not isinstance(row.get("at"), str):
            raise RecordError("a step line needs \"cmd\" (an object) and \"at\"", n)
        steps.append({**row, "line": n})
    return header, steps, end


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a record may hold")


def import_record(lines: Iterable[str | bytes],
                  store: EventStore | Callable[[], EventStore],
                  receipts: Sequence[Receipt] = ()) -> Game:
    """Play a record again and, if it arrives at the recorded log hash for hash, write that
    log to ``store``. Nothing is written otherwise: ``store`` may be a function that opens
    the store, called only then (so that a refused record does not even create one)."""
    header, steps, end = parse_lines(lines)
    try:
        scenario = parse_scenario(dict(header["scenario"]))
        check_game_id(header["game_id"])
    except RegimentError as exc:
        raise RecordError(f"the header: {exc}", 1) from None
    dice = _dice(header, steps)
    # the opening exactly as recorded (an earlier engine's version and scenario included)
    started = GameStarted(game_id=header["game_id"], scenario=header["scenario"],
                          preset=scenario["preset"], engine_version=header["engine"],
                          dice_commitment=dice.commitment(), dice=dice.kind,
                          undo=header["undo"])
    times = iter([header["at"], *(s["at"] for s in steps)])
    clock: Callable[[], str] = lambda: next(times)  # noqa: E731 - the recorded times, in turn
    other = "" if header["engine"] == ENGINE_VERSION else (
        f" (the game was played by engine {header['engine']}, this is {ENGINE_VERSION}: if its "
        "rules decide this differently, import the game's exported log instead, which every "
        "later engine reads)")
    scratch = MemoryStore()
    try:
        game = Game.new(scenario, store=scratch, dice=dice, clock=clock, started=started)
    except RegimentError as exc:
        raise RecordError(f"the game does not start: {exc}{other}", 1) from None
    for s in steps:
        try:
            game.submit(s["cmd"])
        except RegimentError as exc:
            raise RecordError(f"step {s.get('step', '?')} was refused: {exc}{other}",
                              s["line"]) from None
    records = game.records
    if len(records) != end["records"] or records[-1].hash.hex() != end["hash"]:
        raise RecordError("played again, the record does not arrive at the log it closes with "
                          f"({len(records)} records ending {records[-1].hash.hex()[:16]}..., "
                          f"not {end['records']} ending {end['hash'][:16]}...): it was "
                          f"changed, or is not whole{other}")
    try:
        check_receipts(records, receipts)   # LOG.RECEIPT: a record cut or forked and closed anew
    except TamperedLog as exc:
        raise RecordError(f"the record does not hold a receipt: {exc}") from None
    if callable(store):
        store = store()
    if game.game_id in store.games():
        raise RecordError(f"the store already holds a game {game.game_id}")
    drafts = [Draft(seq=r.seq, step=r.step, type=r.type, v=r.v, data=r.data, at=r.at)
              for r in records]
    store.append(game.game_id, drafts, 0)
    if isinstance(dice, SeededDice):
        store.put_secret(game.game_id, dice.seed)
    return Game.load(game.game_id, store)


def _dice(header: dict[str, Any], steps: list[dict[str, Any]]) -> Dice:
    d = header["dice"]
    kind, promised = d.get("kind"), d.get("commitment", "")
    if kind not in ("seeded", "manual", "scripted") or not isinstance(promised, str):
        raise RecordError("the header's dice need a kind (seeded, manual or scripted) and a "
                          "commitment", 1)
    if kind == "seeded" and isinstance(d.get("seed"), str):
        try:
            seed = bytes.fromhex(d["seed"])
        except ValueError:
            raise RecordError("the dice seed is not hex", 1) from None
        if commitment(seed) != promised:
            raise RecordError("the dice seed does not match the game's commitment to it", 1)
        return SeededDice(seed)
    if kind == "manual":
        return RecordedDice("manual", promised, {})
    faces: dict[int, int] = {}
    for s in steps:
        for item in s.get("faces", ()):
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and isinstance(item[1], list)
                    and all(type(f) is int and 1 <= f <= 6 for f in item[1])):
                raise RecordError("\"faces\" must be [[index, [faces...]], ...]", s["line"])
            for i, f in enumerate(item[1]):
                if faces.setdefault(item[0] + i, f) != f:
                    raise RecordError(f"die {item[0] + i} is given twice, as "
                                      f"{faces[item[0] + i]} and {f}", s["line"])
    return RecordedDice(str(kind), str(promised), faces)
