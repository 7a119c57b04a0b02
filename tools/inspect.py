"""``regiment inspect``: a log as a table people can read, undone branches marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from regiment.core.record import Record

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


def table(records: Sequence[Record], status: dict[int, str], title: str) -> Table:
    t = Table(title=title, show_lines=False, header_style="bold")
    for name in ("seq", "step", "branch", "event", "data", "at"):
        t.add_column(name, no_wrap=name != "data")
    for r in records:
        kind = status.get(r.step, "live")
        t.add_row(str(r.seq), str(r.step), MARK[kind], r.type, brief(r.data), r.at[11:23],
                  style=STYLE[kind])
    return t


def print_table(records: Sequence[Record], status: dict[int, str], title: str = "",
                console: Console | None = None) -> None:
    (console or Console()).print(table(records, status, title))
