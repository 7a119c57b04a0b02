"""Table mode told (TABLE.ASK, TABLE.MEASURE): each measurement a rulebook asks of the players,
as the prompt that asks it and as the sentence that tells its answer. A rulebook gives what
its questions say (by the first part of their keys) and how it names its pieces and cites its
rules; the asking and the telling are the same for every rulebook."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regiment.core import i18n
from regiment.core.i18n import mark, tr
from regiment.core.measure import Key

i18n.register(Path(__file__).with_name("locale"))

WORDS = {"yes": mark("yes"), "no": mark("no"), "none": mark("none")}


def parts(key: str | Mapping[str, Any]) -> tuple[str, str, str]:
    """A question's key (a pending's text, or the log's map): what it asks, of which unit,
    about which other (or a range)."""
    k = Key.parse(key) if isinstance(key, str) else Key.of_tagged(key)
    return k.kind, k.part(0), ":".join(k.parts[1:])


def _plain(state: Any, pending: Any, fields: dict[str, str]) -> None:
    return None


@dataclass(frozen=True)
class Telling:
    """A rulebook's questions (``asks``) and answers (``tells``), by the first part of their
    keys, with its own way to name a piece, to say a side, and to cite rules; ``adjust``
    fills in what a question of its own needs beyond the unit, the other and the range."""

    asks: Mapping[str, str]
    tells: Mapping[str, str]
    name: Callable[[Any, str], str]
    cite: Callable[..., str]
    side: Callable[[str], str] = str
    adjust: Callable[[Any, Any, dict[str, str]], None] = field(default=_plain)

    def question(self, state: Any, pending: Any) -> str:
        """The prompt of a pending measurement, with the rule that needs it and what it can
        be."""
        kind, unit, other = parts(pending.question)
        fields = {"unit": self.name(state, pending.unit or unit),
                  "other": self.name(state, pending.other or other),
                  "extra": format(pending.extra, "g")}
        self.adjust(state, pending, fields)
        text = tr(self.asks[kind], **fields) if kind in self.asks else pending.question
        if pending.measure == "count":
            text += tr(": 1 to {most}", most=int(pending.most))
        elif pending.measure == "number":
            text += tr(": 0 to {most}", most=int(pending.most))
        elif pending.measure == "distance":
            text += tr(": 0 to {most}", most=format(pending.most, "g"))
        elif pending.options and pending.measure != "count":
            text += " [" + ", ".join(self.side(o) if pending.measure == "side" else o
                                     for o in pending.options) + "]"
        return f"{text} ({self.cite(pending.rule, 'TABLE.ASK')})"

    def told(self, d: Mapping[str, Any], state: Any) -> str:
        """A ``Measured`` event: what the players measured, and the rule that needed it."""
        kind, unit, other = parts(d["key"])
        value = d["value"]
        if d["kind"] == "side":
            shown = "/".join(self.side(v) for v in value.split("/"))
        elif d["kind"] in ("unit", "units"):
            shown = ", ".join(tr(WORDS[v]) if v in WORDS else self.name(state, v)
                              for v in value.split(",") if v) or tr(WORDS["none"])
        elif value in WORDS:
            shown = tr(WORDS[value])
        else:
            shown = value
        fields = {"unit": self.name(state, unit), "other": self.name(state, other),
                  "extra": other, "value": shown}
        what = tr(self.tells[kind], **fields) if kind in self.tells else \
            f"{Key.of_tagged(d['key']).text()}: {shown}"
        return tr("Measured at the table: {what}.", what=what) + \
            f" ({self.cite(d['rule'], 'TABLE.MEASURE')})"
