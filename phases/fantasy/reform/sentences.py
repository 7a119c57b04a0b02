"""The story of combat reform (REF.*): a sentence for each of its events."""

from __future__ import annotations

from collections.abc import Callable

from regiment.core.i18n import mark, ntr, tr

from ..state import State
from ..telling import (
    D,
    because,
    name_of,
    reason_told,
    verb_count,
)
from ..why import REFORM_SKIPPED, REFORMED

REFORM = mark("reform")


def _reformed(d: D, s: State | None) -> str:
    how = reason_told(REFORMED, d["how"], s) if d.get("how") else tr(REFORM)
    return f"{name_of(s, d['unit'])} {how}." + because("REF.PLACEMENT", "REF.CONTACT")


SENTENCES: dict[str, Callable[[D, State | None], str | None]] = {
    "UnitReformed": _reformed,
    "ReformOrderChosen": lambda d, s: tr("{player} reform first.", player=d["first"])
    + because("REF.ORDER"),
    "ReformSkipped": lambda d, s: ntr("{unit} does not reform: {why}.",
                                      "{unit} do not reform: {why}.", verb_count(s, d["unit"]),
                                      unit=name_of(s, d["unit"]),
                                      why=reason_told(REFORM_SKIPPED, d.get("why") or "", s))
    + because("REF.WHO"),
}
