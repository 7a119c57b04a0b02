"""The story of the combat result (CR.*) and the break tests (BT.*)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.i18n import ntr, tr

from ..sources import cite
from ..state import State
from ..telling import D, because, name_of, names_of, plus, reason_told, verb_count
from ..why import BREAK_TEST


def _result(d: D, s: State | None) -> str:
    sides = []
    rules = ["CR.WINNER"]
    for player, side in d["sides"].items():
        by_unit: dict[str, list[dict[str, Any]]] = {}
        for p in side["parts"]:
            by_unit.setdefault(p["unit"], []).append(p)
        if len(by_unit) > 1:  # CR.BOOKKEEPING: each unit's share beside the side's total
            shares = " + ".join(
                f"{name_of(s, u)} {sum(p['value'] for p in ps)} ("
                + ", ".join(f"{p['rule']} +{p['value']}" for p in ps) + ")"
                for u, ps in by_unit.items())
            sides.append(f"{player} {side['total']} = {shares}")
            if "CR.BOOKKEEPING" not in rules:
                rules.append("CR.BOOKKEEPING")
            continue
        parts = ", ".join(f"{p['rule']} {name_of(s, p['unit'])} +{p['value']}"
                          for p in side["parts"]) or tr("nothing")
        sides.append(f"{player} {side['total']} ({parts})")
    if d["winner"] is None:
        verdict = tr("a draw")
    else:
        verdict = tr("{winner} win by {margin}", winner=d["winner"], margin=d["margin"])
        if d.get("musician"):
            verdict += tr(" (the musician decides it, CR.MUSICIAN)")
    extra = ""
    if d.get("unbreakable"):
        extra += tr("; {units} unbreakable, no break test",
                    units=names_of(s, d["unbreakable"])) + because("BT.SPECIAL")
    if d.get("no_more_foes"):
        extra += tr("; {units}: no enemy left in contact, they win and leave the combat",
                    units=names_of(s, d["no_more_foes"])) + because("CR.NO_MORE_FOES")
    return tr("Combat result: {sides}: {verdict}{extra}.", sides="; ".join(sides),
              verdict=verdict, extra=extra) + because(*rules)


def _break(d: D, s: State | None) -> str:
    who, k = name_of(s, d["unit"]), verb_count(s, d["unit"])
    rules = ["BT.TEST"]
    how = tr("Ld {ld} - {penalty}", ld=d["leadership"], penalty=d["penalty"])
    if d["steadfast"]:
        how = tr("Ld {ld}, steadfast ({why}), no penalty", ld=d["leadership"],
                 why=reason_told(BREAK_TEST, d.get("why") or "", s))
        rules.append("BT.STEADFAST")
    elif d.get("why"):
        how += f"; {reason_told(BREAK_TEST, d['why'], s)}"
        rules.append("BT.DISRUPTED" if BREAK_TEST.read(d["why"])["code"] == "disrupted"
                     else "BT.SPECIAL")
    verdict = (ntr("it holds", "they hold", k) if d["passed"]
               else ntr("it breaks", "they break", k))
    if d.get("insane"):
        verdict = tr("double 1, insane courage: {verdict}",
                     verdict=ntr("it holds", "they hold", k))
        rules.append("LD.INSANE")
    lost: Any = d.get("result") or ()
    score = tr("lost {mine} to {theirs}; ", mine=lost[0], theirs=lost[1]) \
        if len(lost) == 2 else ""
    return tr("{unit} break test: {how} ({score}{rules}) needs {needs}; rolled {rolled}: "
              "{verdict}.", unit=who, how=how, score=score, rules=cite(*rules),
              needs=d.get("needs", 0), rolled=plus(d["faces"]), verdict=verdict)


SENTENCES: dict[str, Callable[[D, State | None], str | None]] = {
    "CombatResultDecided": _result,
    "BreakTestTaken": _break,
}
