"""The story of panic, flight, rally and returns (PANIC.*, FP.FLEE_ROLL, RALLY.TEST,
FP.OFF_TABLE): a sentence for each of their events."""

from __future__ import annotations

from collections.abc import Callable

from regiment.core.i18n import ntr, tr

from .. import effects
from ..state import State
from ..telling import (
    D,
    because,
    name_of,
    names_of,
    reason_told,
    rolled_sum,
    swift,
    verb_count,
)
from ..why import PANIC


def _fled(d: D, s: State | None) -> str:
    rule = {"charge_reaction": "CH.REACT", "panic": "PANIC.TRIGGERS", "rally": "RALLY.TEST",
            "broke": "FP.FLEE_ROLL"}.get(d.get("reason", ""), "FP.FLEE_ROLL")
    faces = tuple(d.get("dice") or ())   # all it rolled: with Swiftstride the lowest drops
    dice = f" ({rolled_sum(faces)}{swift(len(faces) > 2)})" if faces else ""
    return ntr("{unit} flees {distance}\"{dice}.", "{unit} flee {distance}\"{dice}.",
               verb_count(s, d["unit"]), unit=name_of(s, d["unit"]), distance=d["distance"],
               dice=dice) + because(rule)


def _panic(d: D, s: State | None) -> str:
    """PANIC.TRIGGERS, SPECIAL.EFFECTS: who must test, and who a special rule spares."""
    reason = reason_told(PANIC, d["reason"], s)
    rules = ["PANIC.TRIGGERS"]
    if d["units"]:
        text = tr("Panic: {reason}; {units} must test.", reason=reason,
                  units=names_of(s, d["units"]))
    else:
        text = tr("Panic: {reason}.", reason=reason)
    for spared in d.get("spared", ()):
        text += " " + ntr("{unit} takes no panic test ({rule}).",
                          "{unit} take no panic test ({rule}).", verb_count(s, spared["unit"]),
                          unit=name_of(s, spared["unit"]), rule=effects.told(spared))
        rules.append(spared["rule"])
    return text + because(*dict.fromkeys(rules))


SENTENCES: dict[str, Callable[[D, State | None], str | None]] = {
    "UnitFled": _fled,
    "UnitReturned": lambda d, s: ntr("{unit} returns to the table.",
                                     "{unit} return to the table.", verb_count(s, d["unit"]),
                                     unit=name_of(s, d["unit"])) + because("FP.OFF_TABLE"),
    "DangerousTerrainTested": lambda d, s: ntr(
        "{unit} flees through {through}: dangerous terrain, rolled {faces}: {slain} lost.",
        "{unit} flee through {through}: dangerous terrain, rolled {faces}: {slain} lost.",
        verb_count(s, d["unit"]), unit=name_of(s, d["unit"]), through=name_of(s, d["through"]),
        faces=" ".join(map(str, d["faces"])), slain=d["slain"]) + because("FP.FLEE_THROUGH"),
    "UnitRallied": lambda d, s: ntr("{unit} rallies.", "{unit} rally.", verb_count(s, d["unit"]),
                                    unit=name_of(s, d["unit"])) + because("RALLY.TEST"),
    "PanicCaused": _panic,
}
