"""How a game ended, as a typed code with its parameters (``GameEnded.ending``), as
python-chess's ``Termination`` says how a chess game did: narration in every language is made
from the code, and nothing reads an English sentence back (GAME.END).

``GameEnded.ending`` is plain data, ``{"code": "turns_played", "turns": 4}``; games begun
before engine 0.10.0 wrote an English ``reason`` instead, which ``ending_of`` reads as the
code it stands for (old logs are upcast on read, never rewritten).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from .reasons import REASONS_AS_CODES, pattern

__all__ = ["REASONS_AS_CODES", "Ending", "ending", "ending_of", "legacy_reason"]


class Ending(StrEnum):
    TURNS_PLAYED = "turns_played"   # {"turns": n}: the scenario's turns were played
    SIDE_LEFT = "side_left"         # {"player": p}: only p has pieces on the table
    NONE_LEFT = "none_left"         # no side has a piece left on the table
    # {"turns": n, "rule": r, "points": {p: n}}: the turns were played and rule r scored
    # each side's points; more points win, equal points are a draw (SK.VICTORY)
    POINTS = "points"
    # {"player": p, "round": k}: p did not reveal its shared dice for round k in time and
    # concedes; or, where the scenario says so, the game is frozen as contested (DICE.WITHHELD)
    WITHHELD = "withheld"
    CONTESTED = "contested"


def ending(code: Ending, **params: Any) -> dict[str, Any]:
    return {"code": code.value, **params}


# The English an engine before 0.10.0 wrote for each ending (with the rulebook's word for its
# pieces), kept to write a game begun then as it was written, and to read its logs.
LEGACY = {Ending.TURNS_PLAYED: "{turns} game turns played",
          Ending.SIDE_LEFT: "only {player} has {pieces} left",
          Ending.NONE_LEFT: "no {pieces} are left on either side"}


def legacy_reason(end: Mapping[str, Any], pieces: str) -> str:
    """The ending in English, as an engine before 0.10.0 wrote it (a listing's short words)."""
    if end["code"] not in LEGACY:
        return str(end.get("text", end["code"]))
    return LEGACY[Ending(end["code"])].format(pieces=pieces, **end)


_READ = [(code, pattern(text)) for code, text in LEGACY.items()]


def ending_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ending of a ``GameEnded`` record's data: its code, or (a log written before 0.10.0)
    the code its English reason stands for; a reason no engine wrote is ``{"code": "other",
    "text": ...}``, told as it is."""
    if data.get("ending"):
        return dict(data["ending"])
    text = str(data.get("reason", ""))
    for code, english in _READ:
        m = english.match(text)
        if m:
            params: dict[str, Any] = {k: v for k, v in m.groupdict().items() if k != "pieces"}
            if "turns" in params:
                params["turns"] = int(params["turns"])
            return ending(code, **params)
    return {"code": "other", "text": text}
