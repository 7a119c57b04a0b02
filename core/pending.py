"""What a game waits for next: a player's decision, a roll, or nothing (it is over)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .commands import Command


@dataclass(frozen=True, kw_only=True)
class Decision:
    """A player's decision: the commands open (``legal``), and the pieces that could act in
    this step but have nothing open, each with why (``idle``: a squad with no room to move)."""

    player: str
    decision: str
    legal: tuple[Command, ...] = field(default=())
    idle: tuple[tuple[str, str], ...] = field(default=())
    kind = "decision"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "decision", "player": self.player,
                               "decision": self.decision,
                               "legal": [c.wire() for c in self.legal]}
        if self.idle:
            out["idle"] = dict(self.idle)
        return out


@dataclass(frozen=True, kw_only=True)
class Roll:
    player: str
    purpose: str
    unit: str | None
    dice: int
    known: tuple[int | None, ...] | None = None  # faces an undone branch already rolled here
    # shared dice (DICE.REVEAL): the round whose reveals make the new faces, and the parties
    # that reveal (none yet: their commitments are not all in)
    round: int | None = None
    parties: tuple[str, ...] = ()
    kind = "roll"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "roll", "player": self.player, "purpose": self.purpose,
                               "unit": self.unit, "dice": self.dice}
        if self.known is not None:
            out["known"] = list(self.known)
        if self.round is not None:
            out["round"] = self.round
            out["parties"] = list(self.parties)
        return out


@dataclass(frozen=True, kw_only=True)
class Measurement:
    """Table mode (TABLE.ASK): a measurement the players take and enter with ``measure``."""

    player: str
    question: str          # its key: what is measured, between which units
    measure: str           # distance, count, side, yes_no, unit, units
    rule: str
    unit: str
    other: str = ""
    options: tuple[str, ...] = ()
    most: float = 0.0
    extra: float = 0.0
    kind = "measurement"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "measurement", "player": self.player,
                               "question": self.question, "measure": self.measure,
                               "rule": self.rule, "unit": self.unit, "other": self.other,
                               "most": self.most}
        if self.options:
            out["options"] = list(self.options)
        if self.extra:
            out["extra"] = self.extra
        return out


@dataclass(frozen=True, kw_only=True)
class Over:
    """GAME.END: the game is over; ``outcome`` says who won, how (the ending's code and its
    parameters: turns played, the side left, the points each side scored) and by which rule."""

    winner: str | None = None
    reason: str = ""
    ending: dict[str, Any] | None = None
    kind = "over"

    @classmethod
    def of(cls, state: Any) -> Over:
        return cls(winner=state.winner, reason="the game is over", ending=state.ending)

    def outcome(self) -> dict[str, Any]:
        ending = dict(self.ending or {"code": "other"})
        out = {"winner": self.winner, "ending": ending,
               "rule": str(ending.get("rule") or "GAME.END")}
        if "points" in ending:
            out["points"] = ending["points"]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "over", "winner": self.winner, "reason": self.reason,
                "outcome": self.outcome()}


Pending = Decision | Roll | Measurement | Over
