"""The story of the remaining moves (MOVE.*): a sentence for each move a unit makes."""

from __future__ import annotations

from regiment.core.i18n import ntr

from ..state import State
from ..telling import D, because, fmt, name_of, verb_count
from . import KINDS
from .rules import RULE_OF


def moved(d: D, s: State | None) -> str | None:
    """A remaining move (``UnitMoved`` with one of ``KINDS`` as its reason); None for any
    other move."""
    reason = d["reason"]["code"]
    if reason not in KINDS:
        return None
    unit, k = name_of(s, d["unit"]), verb_count(s, d["unit"])
    rule = RULE_OF[reason]
    if reason == "reform":
        if d["position"] is None:
            return ntr("{unit} reforms {files} wide.", "{unit} reform {files} wide.", k,
                       unit=unit, files=d.get("files", 0)) + because(rule)
        return ntr("{unit} reforms {files} wide, facing {facing}.",
                   "{unit} reform {files} wide, facing {facing}.", k, unit=unit,
                   files=d.get("files", 0), facing=fmt(d["facing"], ".0f")) + because(rule)
    used = fmt(d.get("distance", 0), ".1f")
    if d["position"] is None:   # table mode: the players moved it
        text = {
            "forward": ntr("{unit} moves on the table, using {used}\" of its move.",
                           "{unit} move on the table, using {used}\" of their move.", k,
                           unit=unit, used=used),
            "march": ntr("{unit} marches on the table, using {used}\" of its march.",
                         "{unit} march on the table, using {used}\" of their march.", k,
                         unit=unit, used=used),
            "back": ntr("{unit} moves backwards on the table, using {used}\" of its move.",
                        "{unit} move backwards on the table, using {used}\" of their move.",
                        k, unit=unit, used=used),
            "sideways": ntr("{unit} moves sideways on the table, using {used}\" of its move.",
                            "{unit} move sideways on the table, using {used}\" of their move.",
                            k, unit=unit, used=used),
        }[reason]
        return text + because(rule)
    x, y = fmt(d["position"][0], ".1f"), fmt(d["position"][1], ".1f")
    facing = fmt(d["facing"], ".0f")
    text = {
        "forward": ntr("{unit} moves to ({x}, {y}) facing {facing}, using {used}\" of its "
                       "move.", "{unit} move to ({x}, {y}) facing {facing}, using {used}\" of "
                       "their move.", k, unit=unit, x=x, y=y, facing=facing, used=used),
        "march": ntr("{unit} marches to ({x}, {y}) facing {facing}, using {used}\" of its "
                     "march.", "{unit} march to ({x}, {y}) facing {facing}, using {used}\" of "
                     "their march.", k, unit=unit, x=x, y=y, facing=facing, used=used),
        "back": ntr("{unit} moves backwards to ({x}, {y}), using {used}\" of its move (half "
                    "rate).", "{unit} move backwards to ({x}, {y}), using {used}\" of their "
                    "move (half rate).", k, unit=unit, x=x, y=y, used=used),
        "sideways": ntr("{unit} moves sideways to ({x}, {y}), using {used}\" of its move "
                        "(half rate).", "{unit} move sideways to ({x}, {y}), using {used}\" "
                        "of their move (half rate).", k, unit=unit, x=x, y=y, used=used),
    }[reason]
    return text + because(rule, "MOVE.SPACING")
