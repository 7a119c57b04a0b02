"""``regiment replay``: a game told step by step, each outcome with the rules that decided it.

Steps that were undone are shown, marked as such, so a dispute can see what happened and what
was taken back; dice an undone step rolled come out again when the step is made again
(DICE.NO_REROLL), and the narration shows that too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from rich.console import Console

from regiment.core.game import Game, gc_paused
from regiment.core.i18n import mark, tr
from regiment.core.record import Record, data_now
from regiment.core.walk import Step, steps, walk

__all__ = ["QUIET", "Narrator", "Rows", "command_text", "narrate", "print_replay", "steps"]

QUIET = frozenset({"PhaseChanged", "DiceRolled", "RollRequested", "CommandIssued",
                   "InitiativeStepBegan", "PursuitsCompleted", "CombatRoundEnded",
                   "MeasurementRequested", "ContactMeasured"})
MARK = {"live": "", "undone": mark("[undone] "), "abandoned": mark("[taken back] "),
        "meta": ""}


ORDER = ("unit", "kind", "path", "target", "reaction", "combat", "files", "face", "faces")


def _plain(value: Any) -> str:
    """A command argument as a player would write it: ``goblins:3,trolls:0``, ``6,5``, a
    move's path ``wheel:-20,forward:3``."""
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ",".join(":".join(map(str, v)) if isinstance(v, list | tuple) else str(v)
                        for v in value)
    return str(value)


def command_text(r: Record) -> str:
    """``red: declare_charge unit=boyz target=spears``: a step's command as it was sent."""
    d = r.data
    given = d["args"]
    keys = [k for k in ORDER if k in given] + sorted(k for k in given if k not in ORDER)
    args = " ".join(f"{k}={_plain(given[k])}" for k in keys if given[k] not in ("", None)
                    and not (d["command"] == "move" and k in ("files", "path") and not given[k]))
    return f"{d['by']}: {d['command']}" + (f" {args}" if args else "")


class Narrator:
    """The story of a game (a visitor of ``core.walk``): a header a step, its outcomes indented
    below, each told with the game's names."""

    states = False
    events = False

    def __init__(self, game: Game) -> None:
        self.state, self.tell = game.state, game.preset.sentence
        self.marks = {k: tr(v) if v else "" for k, v in MARK.items()}
        self.setup = tr("set-up")
        self.phase = self.setup
        self.lines: list[str] = []

    def visit(self, step: Step) -> None:
        flag = self.marks.get(step.branch, "")
        head = step.records[0]
        title = command_text(head) if head.type == "CommandIssued" else self.setup
        self.lines.append(tr("{mark}step {step} [{phase}] {title}", mark=flag, step=head.step,
                             phase=self.phase, title=title))
        for r in step.records:
            if r.type == "PhaseChanged" and step.branch in ("live", "meta"):
                self.phase = " > ".join(tr(p) for p in r.data["phase"].replace("turn.", "")
                                        .split("."))
        for r in step.records:
            if r.type in QUIET:
                continue
            text = self.tell(r.type, data_now(r), self.state)
            if text:
                self.lines.append(f"    {flag}{text}")

    def end(self, branches: Mapping[int, str]) -> list[str]:
        return self.lines


class Rows:
    """Every record with its branch and its sentence, as JSON lines (``replay --json``)."""

    states = False
    events = False

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rows: list[str] = []

    def visit(self, step: Step) -> None:
        for r in step.records:
            row: dict[str, Any] = {**r.to_json(), "branch": step.branch}
            text = self.game.preset.sentence(r.type, data_now(r), self.game.state)
            if text:
                row["text"] = text
            self.rows.append(json.dumps(row))

    def end(self, branches: Mapping[int, str]) -> list[str]:
        return self.rows


def narrate(game: Game, records: Iterable[Record]) -> Iterator[str]:
    """Lines of the story of a game: a header a step, its outcomes indented below."""
    (lines,) = walk(_listed(records), [Narrator(game)], game.timeline.status())
    return iter(lines)


def _listed(records: Iterable[Record]) -> Sequence[Record]:
    return records if isinstance(records, Sequence) else list(records)


def print_replay(game: Game, records: Iterable[Record], console: Console, as_json: bool
                 ) -> None:
    """The story (or, ``as_json``, every record with its sentence), written in blocks of lines
    straight to the console's file: one ``rich`` print a line took 88 % of a long replay. On a
    terminal that shows colour, undone and taken-back lines are dim. The cyclic garbage
    collector waits meanwhile, as it does during a load (``core.game.gc_paused``): the views
    and lines made are in no cycle, and its passes over them were a quarter of the telling
    (a 50,000-event replay 0.41 -> 0.36 s, 2.22x -> 1.96x its load, measured)."""
    with gc_paused():
        _print_replay(game, records, console, as_json)


def _print_replay(game: Game, records: Iterable[Record], console: Console, as_json: bool
                  ) -> None:
    out = console.file
    if as_json:
        (rows,) = walk(_listed(records), [Rows(game)], game.timeline.status())
        _write(out, rows)
        return
    dim = console.is_terminal and console.color_system is not None and not console.no_color
    lines = (f"\x1b[2m{line}\x1b[0m" if dim and line.lstrip().startswith("[") else line
             for line in narrate(game, records))
    if console.is_terminal:   # the story scrolling by is its own progress
        _write(out, lines)
        return
    from .progress import progress

    with progress("telling", len(game.timeline.steps)) as advance:
        def counted() -> Iterator[str]:
            for line in lines:
                if not line.startswith("    "):   # a step's header: one more step told
                    advance(1)
                yield line

        _write(out, counted())


def _write(out: IO[str], lines: Iterable[str], block: int = 2000) -> None:
    buf: list[str] = []
    for line in lines:
        buf.append(line)
        if len(buf) >= block:
            out.write("\n".join(buf) + "\n")
            buf.clear()
    if buf:
        out.write("\n".join(buf) + "\n")
    out.flush()
