"""``regiment inspect``: a log as a table people can read, undone branches marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from regiment.core.record import Record
from regiment.core.walk import Step, walk

STYLE = {"live": "", "undone": "yellow", "abandoned": "dim strike", "meta": "cyan"}
MARK = {"live": "", "undone": "undone", "abandoned": "abandoned", "meta": "undo/redo"}


def brief(data: dict[str, Any], width: int = 70) -> str:
    """``key=value`` pairs, long values shortened."""
    parts = []
    for key, value in data.items():
        if key in ("scenario",):
            value = f"<{len(value.get('units', ()))} units>"
        elif isinstance(value, dict):
            value = "{" + ", ".join(f"{k}={v}" for k, v in value.items()) + "}"
        elif isinstance(value, (list, tuple)):
            value = "[" + ", ".join(map(str, value)) + "]"
        parts.append(f"{key}={value}")
    text = " ".join(parts)
    return text if len(text) <= width else text[: width - 1] + "…"


class Rows:
    """Every record as a row, its branch marked (a visitor of ``core.walk``)."""

    states = False
    events = False

    def __init__(self, title: str) -> None:
        self.t = Table(title=title, show_lines=False, header_style="bold")
        for name in ("seq", "step", "branch", "event", "data", "at"):
            self.t.add_column(name, no_wrap=name != "data")

    def visit(self, step: Step) -> None:
        for r in step.records:
            self.t.add_row(str(r.seq), str(r.step), MARK[step.branch], r.type, brief(r.data),
                           r.at[11:23], style=STYLE[step.branch])

    def end(self, branches: Mapping[int, str]) -> Table:
        return self.t


def table(records: Sequence[Record], status: dict[int, str], title: str) -> Table:
    (t,) = walk(records, [Rows(title)], {s: status.get(s, "live") for s in
                                         {r.step for r in records}})
    return t  # type: ignore[no-any-return]  # what Rows.end makes


def print_table(records: Sequence[Record], status: dict[int, str], title: str = "",
                console: Console | None = None) -> None:
    (console or Console()).print(table(records, status, title))
