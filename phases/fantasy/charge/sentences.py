"""The story of the charge sub-phase (CH.*): a sentence for each of its events."""

from __future__ import annotations

from collections.abc import Callable

from regiment.core.i18n import mark, ntr, tr

from ..state import State
from ..telling import (
    D,
    because,
    fmt,
    name_of,
    plus,
    reason_told,
    swift,
    verb_count,
)
from ..units import side_word
from ..why import CHARGE_FAILED

SHORT = mark("short")


def _charge_rolled(d: D, s: State | None) -> str:
    dropped = d.get("dropped") or ()
    dice = "+".join([*map(str, d["dice"]), *(f"({f})" for f in dropped)])
    m = fmt(d["range"] - sum(d["dice"]), "g")   # the range is the dice that count and M
    fields = {"unit": name_of(s, d["unit"]), "dice": dice, "m": m,
              "range": fmt(d["range"], "g"), "distance": fmt(d["distance"], ".1f"),
              "target": name_of(s, d["target"]), "swift": swift(dropped, apart=True)}
    if d["success"]:
        return tr("{unit} charge range {dice}{swift} + M {m} = {range}\" against {distance}\" "
                  "to {target}: the charge reaches", **fields) + because("CH.RANGE")
    why = reason_told(CHARGE_FAILED, d["why"], s) if d.get("why") else tr(SHORT)
    return tr("{unit} charge range {dice}{swift} + M {m} = {range}\" against {distance}\" to "
              "{target}: the charge fails, {why}", why=why, **fields) \
        + because("CH.RANGE", "CH.FAILED")


def _redirected(d: D, s: State | None) -> str:
    k = verb_count(s, d["unit"])
    if not d.get("faces"):   # engine 0.9.0 on: the test was told already (RedirectTested)
        return ntr("{unit} redirects its charge to {target}.",
                   "{unit} redirect their charge to {target}.", k, unit=name_of(s, d["unit"]),
                   target=name_of(s, d["to"])) + because("CH.REDIRECT")
    fields = {"unit": name_of(s, d["unit"]), "ld": d.get("leadership"),
              "rolled": plus(d["faces"])}
    if d["passed"]:
        return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: passes and turns on "
                   "{target}.", "{unit} try to redirect: Ld {ld} rolled {rolled}: passes and "
                   "turns on {target}.", k, target=name_of(s, d["to"]), **fields) \
            + because("CH.REDIRECT")
    return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: fails and keeps after "
               "{target}.", "{unit} try to redirect: Ld {ld} rolled {rolled}: fails and keeps "
               "after {target}.", k, target=name_of(s, d["from"]), **fields) \
        + because("CH.REDIRECT")


def _redirect_tested(d: D, s: State | None) -> str:
    """CH.REDIRECT (seed 003): the test first; on a pass the charger may declare again."""
    fields = {"unit": name_of(s, d["unit"]), "ld": d["leadership"], "rolled": plus(d["faces"])}
    k = verb_count(s, d["unit"])
    if d["passed"]:
        return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: passes, and may declare "
                   "a charge at another target.", "{unit} try to redirect: Ld {ld} rolled "
                   "{rolled}: pass, and may declare a charge at another target.", k,
                   **fields) + because("CH.REDIRECT")
    return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: fails and keeps after "
               "{target}.", "{unit} try to redirect: Ld {ld} rolled {rolled}: fails and keeps "
               "after {target}.", k, target=name_of(s, d["target"]), **fields) \
        + because("CH.REDIRECT")


def _reacted(d: D, s: State | None) -> str:
    unit, k, reaction = name_of(s, d["unit"]), verb_count(s, d["unit"]), d["reaction"]
    if reaction == "hold":
        text = ntr("{unit} holds.", "{unit} hold.", k, unit=unit)
    elif reaction == "flee":
        text = ntr("{unit} flees.", "{unit} flee.", k, unit=unit)
    else:
        text = ntr("{unit} stands and shoots.", "{unit} stand and shoot.", k, unit=unit)
    return text + because("CH.REACT")


SENTENCES: dict[str, Callable[[D, State | None], str | None]] = {
    "ChargeDeclared": lambda d, s: ntr(
        "{unit} declares a charge against {target} (into its {side}).",
        "{unit} declare a charge against {target} (into its {side}).", verb_count(s, d["unit"]),
        unit=name_of(s, d["unit"]), target=name_of(s, d["target"]),
        side=side_word(d.get("side") or "front"))
    + because("CH.DECLARE"),
    "ChargeReacted": _reacted,
    "ChargeRedirected": _redirected,
    "RedirectTested": _redirect_tested,
    "SideDrawn": lambda d, s: ntr(
        "Before any charge is declared, a die decides which side of {target} {unit} would "
        "charge, its front split evenly: its {side}.", "Before any charge is declared, a die "
        "decides which side of {target} {unit} would charge, their front split evenly: its "
        "{side}.", verb_count(s, d["unit"]), unit=name_of(s, d["unit"]),
        target=name_of(s, d["target"]),
        side=side_word(d["side"])) + because("CH.CHARGE_MOVE"),
    "ChargeRolled": _charge_rolled,
}
