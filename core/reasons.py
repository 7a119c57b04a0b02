"""Reasons as data: a closed set of codes for one field of a rulebook's events (why a move
failed, why a piece was removed...), each with its parameters, so that narration in every
language is made from the code and nothing reads an English sentence back.

A reason is stored as plain data, ``{"code": "in_the_way", "piece": "p1"}`` (pieces by
their ids). Games begun before engine 0.10.0 wrote an English sentence in the same field, with
the pieces' names; such a game still writes it so (a record then imports hash for hash), and
``Reasons.read`` takes either: a sentence is matched against the English each code was written
in, once, when an old log is read (old logs upcast on read, never rewritten).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .version import Version

REASONS_AS_CODES: Version = (0, 10, 0)   # the first engine that writes reasons as codes

Reason = dict[str, Any]   # {"code": ..., **params}


@dataclass(frozen=True)
class Code:
    """One reason: its code, the English an engine before 0.10.0 wrote for it (its pieces by
    name), and the message narration tells it with (marked in the rulebook's catalogue)."""

    code: str
    legacy: str
    told: str

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(re.findall(PARAM, self.legacy))


class Reasons:
    """The closed set of codes one field may hold. ``pieces`` names the parameters that hold
    a piece's id (written by its name in the English of older games; a rulebook names its
    own)."""

    def __init__(self, *codes: Code, pieces: tuple[str, ...]) -> None:
        self.codes = {c.code: c for c in codes}
        self.pieces = pieces
        self._params = {c.code: frozenset(c.params) for c in codes}   # (made on rule paths)
        self._read = [(c, pattern(c.legacy)) for c in codes]

    def make(self, code: str, **params: Any) -> Reason:
        """A reason of this set; a code it does not declare, or other parameters than its
        own, is a programming error, caught where it is made."""
        if params.keys() != self._params[code]:
            raise ValueError(f"reason {code!r} takes {sorted(self._params[code])}, "
                             f"not {tuple(params)}")
        return {"code": code, **params}

    def written(self, codes: bool, name: Callable[[str], str], code: str, **params: Any
                ) -> Reason | str:
        """What an event's field holds: the reason (a game begun under 0.10.0 or later), or
        the English an earlier engine wrote for it, pieces by their names (``name``)."""
        reason = self.make(code, **params)
        if codes:
            return reason
        shown = {k: name(v) if k in self.pieces else v for k, v in params.items()}
        return self.codes[code].legacy.format(**shown)

    def said(self, text: str, code: str, **params: Any) -> Said:
        """A sentence told to a player (a refusal, in the players' language) that carries its
        reason as a code: a client may tell it in its own words, and a log keep the code."""
        out = Said(text)
        out.reason = self.make(code, **params)
        return out

    def read(self, value: Reason | str) -> Reason:
        """The reason a field holds: its code, or (an older log) the code its English stands
        for, pieces by name; an English no engine of ours wrote is ``{"code": "other",
        "text": ...}``."""
        if isinstance(value, dict):
            return value
        for code, pattern in self._read:
            m = pattern.match(value)
            if m:
                return {"code": code.code, **m.groupdict()}
        return {"code": "other", "text": value}

    def tell(self, value: Reason | str, tr: Callable[..., str],
             shown: Mapping[str, Callable[[Any], Any]]) -> str:
        """The reason in the players' language: its code's message, each parameter shown by
        ``shown`` (a piece by its name, a side by its word)."""
        reason = self.read(value)
        code = self.codes.get(reason["code"])
        if code is None:
            return str(reason.get("text", reason["code"]))
        params = {k: shown[k](v) if k in shown else v for k, v in reason.items() if k != "code"}
        return tr(code.told, **params)


class Said(str):
    """A sentence and the reason it tells (``Reasons.said``)."""

    reason: Reason


PARAM = r"\{(\w+)(?::[^}]*)?\}"   # a parameter of an English template, with its format


def pattern(template: str) -> re.Pattern[str]:
    """The regular expression an English template's sentences match, each parameter a
    group (only to read the logs of engines before 0.10.0)."""
    parts = re.split(PARAM, template)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+)"
                              for i, p in enumerate(parts)) + "$")
