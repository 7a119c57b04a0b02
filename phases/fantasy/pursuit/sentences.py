"""The story of flee and pursuit (FP.*): a sentence for each of its events."""

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
    plus,
    swift,
    verb_count,
    with_characters,
)


def _pursuit(d: D, s: State | None) -> str:
    unit, k = name_of(s, d["unit"]), verb_count(s, d["unit"])
    dropped = d.get("dropped") or ()
    distance = f"{d['distance']}\" ({plus(d['dice'], dropped)}{swift(dropped)})" \
        if d.get("dice") else f"{d['distance']}\""
    if not d["target"]:
        text = ntr("{unit} overruns {distance}", "{unit} overrun {distance}", k,
                   unit=unit, distance=distance)
    elif d["caught"]:
        text = ntr("{unit} pursues {distance} after {target}: caught",
                   "{unit} pursue {distance} after {target}: caught", k, unit=unit,
                   distance=distance, target=name_of(s, d["target"]))
    else:
        text = ntr("{unit} pursues {distance} after {target}: {escape}",
                   "{unit} pursue {distance} after {target}: {escape}", k, unit=unit,
                   distance=distance, target=name_of(s, d["target"]),
                   escape=ntr("it escapes", "they escape", verb_count(s, d["target"])))
    return text + "." + because("FP.PURSUE_ROLL", "FP.CAUGHT")


def _declared_pursuit(d: D, s: State | None) -> str:
    who = name_of(s, d["unit"])
    if d["kind"] == "restrain":
        return tr("{unit} try to hold back.", unit=who) + because("FP.CHOOSE_PURSUIT")
    forced = d.get("forced")   # SPECIAL.EFFECTS: the rule that left no other choice
    rules: tuple[str, ...] = ("FP.OVERRUN",) if d["kind"] == "overrun" else ("FP.CHOOSE_PURSUIT",)
    if d["kind"] == "overrun":
        text = tr("{unit} will overrun", unit=who)
    else:
        text = tr("{unit} will pursue {target}", unit=who, target=name_of(s, d["target"]))
    if forced:
        text += tr(", as {rule} makes it", rule=effects.told(forced))
        rules += (forced["rule"],)
    return text + "." + because(*rules)


def _flee_direction(d: D, s: State | None) -> str:
    return ntr("{unit} flees from {enemy}, chosen by a die ({face}) among {among}, equal in "
               "ranks five wide.", "{unit} flee from {enemy}, chosen by a die ({face}) among "
               "{among}, equal in ranks five wide.", verb_count(s, d["unit"]),
               unit=name_of(s, d["unit"]), enemy=name_of(s, d["away_from"]), face=d["faces"][0],
               among=names_of(s, d["among"])) + because("FP.FLEE_DIRECTION")


SENTENCES: dict[str, Callable[[D, State | None], str | None]] = {
    "PursuitDeclared": _declared_pursuit,
    "PursuitRolled": _pursuit,
    "FleeDirectionChosen": _flee_direction,
    "UnitCaught": lambda d, s: ntr(
        "{unit} is caught by {by} and destroyed{with_}.",
        "{unit} are caught by {by} and destroyed{with_}.", verb_count(s, d["unit"]),
        unit=name_of(s, d["unit"]), by=name_of(s, d["by"]), with_=with_characters(s, d["unit"]))
    + because("FP.CAUGHT"),
}
