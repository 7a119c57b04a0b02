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
from dataclasses import dataclass, replace
from typing import Any

from .version import Version

REASONS_AS_CODES: Version = (0, 10, 0)   # the first engine that writes reasons as codes

Reason = dict[str, Any]   # {"code": ..., "rule": ..., **params}


@dataclass(frozen=True)
class Code:
    """One reason: its code, the English an engine before 0.10.0 wrote for it (its pieces by
    name), and the message narration tells it with (marked in the rulebook's catalogue)."""

    code: str
    legacy: str
    told: str
    rule: str = ""   # the rule that decides it: every reason in a log names it

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(re.findall(PARAM, self.legacy))


class Reasons:
    """The closed set of codes one field may hold. ``pieces`` names the parameters that hold
    a piece's id (written by its name in the English of older games; a rulebook names its
    own)."""

    def __init__(self, *codes: Code, pieces: tuple[str, ...], rule: str = "",
                 rules: Mapping[str, str] | None = None) -> None:
        # each code's rule: its own, or the set's for that code (``rules``), or the set's
        codes = tuple(c if c.rule else replace(c, rule=(rules or {}).get(c.code, rule))
                      for c in codes)
        missing = [c.code for c in codes if not c.rule]
        if missing:
            raise ValueError(f"reasons {missing} name no rule")
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
        return {"code": code, "rule": self.codes[code].rule, **params}

    def upcast(self, value: Reason | str | None) -> Reason | None:
        """Today's shape of what an older engine wrote in a field of this set: an English
        sentence (before 0.10.0; its pieces by name) or a code without its rule (0.10.0 to
        0.12.0) as ``{"code", "rule", ...}``; nothing (``""``) as None."""
        if value is None or value == "":
            return None
        reason = self.read(value)
        code = self.codes.get(reason["code"])
        if "rule" not in reason:
            reason = {"code": reason["code"], "rule": code.rule if code else "",
                      **{k: v for k, v in reason.items() if k != "code"}}
        return reason

    def as_written(self, reason: Reason | None, engine: Version, name: Callable[[str], str]
                   ) -> Reason | str:
        """What the engine ``engine`` wrote for ``reason``: its code without the rule (0.10.0
        to 0.12.0), or its English, pieces by name (``name``: before 0.10.0)."""
        if reason is None:
            return ""
        params = {k: v for k, v in reason.items() if k not in ("code", "rule")}
        if engine >= REASONS_AS_CODES:
            return {"code": reason["code"], **params}
        code = self.codes.get(reason["code"])
        if code is None:
            return str(reason.get("text", reason["code"]))
        shown = {k: name(v) if k in self.pieces else v for k, v in params.items()}
        return code.legacy.format(**shown)

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
        params = {k: shown[k](v) if k in shown else v for k, v in reason.items()
                  if k not in ("code", "rule")}
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


REASONS_WITH_RULES: Version = (0, 13, 0)   # the first engine whose reasons name their rule
# event type -> its fields that hold reasons, and their sets (for readers and tests)
REASON_FIELDS: dict[str, dict[str, Reasons]] = {}


def in_fields(event_type: str, v: int, **fields: Reasons) -> None:
    """Declare the reason fields of ``event_type``, whose version ``v`` holds today's shape:
    version ``v - 1`` (an English sentence, a code without its rule, ``""``) is upcast where
    it is decoded, and written so by the games engines before 0.13.0 began."""
    from .upcast import downcaster, upcaster

    REASON_FIELDS[event_type] = dict(fields)
    def up(data: dict[str, Any]) -> dict[str, Any]:
        out = dict(data)
        for name, reasons in fields.items():
            if name in out:
                reason = reasons.upcast(out[name])
                if reason is None:
                    del out[name]
                else:
                    out[name] = reason
        return out

    def down(data: dict[str, Any], engine: Version, name: Callable[[str], str]
             ) -> dict[str, Any]:
        return {**data, **{f: reasons.as_written(data.get(f), engine, name)
                           for f, reasons in fields.items()}}

    upcaster(event_type, v - 1)(up)
    downcaster(event_type, v, REASONS_WITH_RULES)(down)


def in_codes(event_type: str, v: int, missing: Mapping[str, str] | None = None,
             **fields: Reasons) -> None:
    """Declare the fields of ``event_type`` that held a bare code before version ``v`` (a
    move's kind: ``"march"``), and hold ``{"code", "rule"}`` since: version ``v - 1`` is
    upcast where it is decoded, and written so (the code alone) by the games engines before
    0.13.0 began. ``missing``: the code a field held when it was left out (its default)."""
    from .upcast import downcaster, upcaster

    REASON_FIELDS[event_type] = dict(fields)
    defaults = dict(missing or {})

    def up(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, **{name: reasons.upcast(data.get(name, defaults.get(name)))
                           for name, reasons in fields.items()
                           if name in data or name in defaults}}

    def down(data: dict[str, Any], *_: Any) -> dict[str, Any]:
        return {**data, **{name: data[name]["code"] for name in fields if name in data}}

    upcaster(event_type, v - 1)(up)
    downcaster(event_type, v, REASONS_WITH_RULES)(down)


def plain(rule: str, *codes: str, rules: Mapping[str, str] | None = None) -> Reasons:
    """A set of codes that were always written as themselves (never English): a move's kind,
    each with the rule that moves it (``rules``, else ``rule``)."""
    return Reasons(*(Code(c, c, c.replace("_", " ")) for c in codes), pieces=(),
                   rule=rule, rules=rules)
