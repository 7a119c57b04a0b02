"""The skirmish rules' table-mode questions and answers, as players read them (TABLE.ASK; told
by ``phases.common.measures``)."""

from __future__ import annotations

from typing import Any

from regiment.core.i18n import mark
from regiment.phases.common.measures import Telling

from .sources import cite
from .state import SkirmishState

# what each question asks (its key's first part) of a squad, about another (or a gun's range)
ASKS = {
    "in_range": mark("How many models of {unit} have a model of {other} within their gun's "
                     "range ({extra}\")"),
    "in_cover": mark("Are at least half the models of {unit} in cover (yes or no)"),
    "in_half_range": mark("How many of those models of {unit} have a model of {other} within "
                          "half their gun's range ({extra}\")"),
    "reaches": mark("Does a model of {unit} have {other} within its gun's range (yes or no)"),
    "distance": mark("Measure the distance from {unit} to {other}, in inches (from the "
                     "nearest model of each, base edge to base edge)"),
    "room": mark("Is there room for the models of {unit} to reach {other}: a free spot in "
                 "base contact for its first model within the roll (yes or no)"),
    "touches": mark("Which other enemy squads does the charge of {unit} touch besides {other} "
                    "(their ids, separated by commas, or none)"),
    "engaged": mark("How many models of {unit} fight {other}: in base contact with it, or "
                    "within 2\" of a friend that is (only those that can attack nothing else)"),
    "difficult": mark("Did the charge of {unit} go through difficult terrain (yes or no)"),
    "fall_back_edge": mark("Does the fall back of {unit}, {extra}\", reach the table edge (yes "
                           "or no)"),
    "moved": mark("How far did the farthest model of {unit} move, in inches (each model in a "
                  "straight line, the squad in coherency, more than 1\" from every enemy)"),
}

TELLS = {
    "in_range": mark("models of {unit} in range of {other}: {value}"),
    "in_half_range": mark("models of {unit} within half range of {other}: {value}"),
    "in_cover": mark("half the models of {unit} in cover: {value}"),
    "reaches": mark("{other} within range of a model of {unit}: {value}"),
    "distance": mark("{unit} is {value}\" from {other}"),
    "room": mark("room for {unit} to reach {other}: {value}"),
    "touches": mark("other squads the charge of {unit} touches: {value}"),
    "engaged": mark("models of {unit} fighting {other}: {value}"),
    "difficult": mark("the charge of {unit} went through difficult terrain: {value}"),
    "fall_back_edge": mark("the fall back of {unit} reaches the table edge: {value}"),
    "moved": mark("the farthest model of {unit} moved {value}\""),
}


def _name(state: SkirmishState | None, uid: str) -> str:
    """A squad's name; squads a pool of attacks may be split among, named together."""
    if "+" in uid:
        return " + ".join(_name(state, u) for u in uid.split("+"))
    if state is not None and uid in state.squads:
        return state.squads[uid].name
    return uid


def _cite(*rules: str) -> str:
    return cite(", ".join(rules))


def _adjust(state: SkirmishState, pending: Any, fields: dict[str, str]) -> None:
    if pending.question.startswith("engaged:") and "+" in pending.other:
        fields["other"] = _name(state, pending.other)


TELLING = Telling(ASKS, TELLS, _name, _cite, adjust=_adjust)
question = TELLING.question
told = TELLING.told
