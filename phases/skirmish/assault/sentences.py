"""The story of the shooting phase and the assault sub-phase (SK.SHOOT, SK.DECLARE, SK.OVERWATCH,
SK.CHARGE_MOVE): a sentence for each of its events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regiment.core.i18n import ntr, tr

from ..state import SkirmishState
from ..telling import faces_of, name_of, names_of
from ..why import ASSAULT_ENDED

S = SkirmishState
Data = Mapping[str, Any]


def _shot(d: Data, s: S) -> str:
    return tr("{unit} shoots at {target}: {shots}, hitting on {need}+ (SK.SHOOT).",
              unit=name_of(s, d["unit"]), target=name_of(s, d["target"]),
              shots=ntr("{n} shot", "{n} shots", d["shots"]), need=d["need"])


def _declared(d: Data, s: S) -> str:
    fire = names_of(s, d["overwatch"], tr("none of them"))
    if d["secondary"]:
        return tr("{unit} declares an assault on {primary} and {secondary}: a disordered "
                  "charge, no +1 attack (SK.DECLARE); may fire overwatch: {fire} "
                  "(SK.OVERWATCH).", unit=name_of(s, d["unit"]), primary=name_of(s, d["primary"]),
                  secondary=name_of(s, d["secondary"]), fire=fire)
    return tr("{unit} declares an assault on {primary} (SK.DECLARE); may fire overwatch: "
              "{fire} (SK.OVERWATCH).", unit=name_of(s, d["unit"]),
              primary=name_of(s, d["primary"]), fire=fire)


def _overwatch(d: Data, s: S) -> str:
    if not d["fire"]:
        return tr("{unit} holds its overwatch (SK.OVERWATCH).", unit=name_of(s, d["unit"]))
    return tr("{unit} fires overwatch at {target}: {shots}, hitting on 6s only "
              "(SK.OVERWATCH).", unit=name_of(s, d["unit"]), target=name_of(s, d["against"]),
              shots=ntr("{n} snap shot", "{n} snap shots", d["shots"]))


def _charge(d: Data, s: S) -> str:
    who = name_of(s, d["unit"])
    reason = ASSAULT_ENDED.tell(d["reason"], tr, {"target": lambda t: name_of(s, t)}) \
        if d.get("reason") else ""
    if not d["faces"]:
        return tr("The assault of {unit} ends: {reason} (SK.CHARGE_MOVE).", unit=who,
                  reason=reason)
    rolled = {"unit": who, "faces": faces_of(d["faces"]), "range": sum(d["faces"])}
    if not d["reached"]:
        return tr("{unit} rolls {faces} for its charge range ({range}\"): the charge fails, "
                  "{reason}; no model moves (SK.CHARGE_MOVE).", reason=reason, **rolled)
    gap = format(d["gap"], ".1f")
    text = tr("{unit} rolls {faces} for its charge range ({range}\"): its first model "
              "reaches the target ({gap}\" away) and the squad charges in (SK.CHARGE_MOVE)",
              gap=gap, **rolled)
    if d["difficult"] and d["slowed"]:
        text += tr(", through difficult terrain: it strikes at Initiative 1 this turn "
                   "(SK.TERRAIN)")
    elif d["difficult"]:
        text += tr(", through difficult terrain, at no cost to its Initiative: its enemy has "
                   "been locked since an earlier turn (SK.TERRAIN)")
    return text + "."


SENTENCES: dict[str, Callable[[Data, S], str | None]] = {
    "SquadShot": _shot,
    "AssaultDeclared": _declared,
    "OverwatchChosen": _overwatch,
    "AssaultRolled": _charge,
}
