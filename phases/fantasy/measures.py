"""The fantasy rules' table-mode questions and answers, as players read them (TABLE.ASK; told
by ``phases.common.measures``)."""

from __future__ import annotations

from typing import Any

from regiment.core.i18n import mark, tr
from regiment.phases.common.measures import Telling

from .sources import cite
from .state import State
from .units import side_word

# what each question asks (its key's first part), with the unit it is about, the other unit,
# and how far (a flee or pursuit move, a panic range)
ASKS = {
    "distance": mark("Measure the distance between {unit} and {other}, in inches (between "
                     "their nearest points)"),
    "side": mark("Which side of {other} does {unit} meet: the side whose arc holds most of "
                 "{unit}'s front (front, right, rear, left; two, as front/left, when it is "
                 "split evenly)"),
    "room": mark("Is there room for {unit} to reach {other}: one wheel of at most 90 "
                 "degrees, staying on the table, no unit in the way (yes or no)"),
    "touches": mark("Which units already fighting does {unit} touch besides {other} (their "
                    "ids, separated by commas, or none)"),
    "models": mark("How many models of {unit} touch {other} along its {side} (corner to "
                   "corner counts)"),
    "flee_edge": mark("Does {unit}'s flee move of {extra}\" reach the table edge (yes or no)"),
    "flee_through": mark("Which enemy unit does {unit}'s flee move of {extra}\" pass "
                         "through (a unit, or none)"),
    "nearest": mark("Which enemy unit is nearest to {unit}"),
    "within": mark("Which of these units are within {extra}\" of {unit} (their ids, "
                   "separated by commas, or none)"),
    "pursue_edge": mark("Does {unit}'s move of {extra}\" reach the table edge (yes or no)"),
    "pursue_into": mark("Does {unit}'s move of {extra}\" run into a fresh enemy unit: which "
                        "(a unit, or none)"),
    "reform": mark("Is there room for {unit} to reform so ({other}): on the table, no model "
                   "moving more than twice its Movement, touching no new unit, the same "
                   "models in contact (yes or no)"),
    "down_hill": mark("Did {unit} charge down off a hill: at least half on it before, less "
                      "after (yes or no)"),
    "on_hill": mark("Which of these units stand at least half on a hill (their ids, "
                    "separated by commas, or none)"),
    "character": mark("Is {unit}, in its unit's front rank, in base contact with {other} (yes "
                      "or no)"),
    "leave": mark("Is there a place for {unit} to stand clear of {other}: within its "
                  "Movement ({extra}\"), on the table, on no unit, more than 1\" from every "
                  "enemy (yes or no)"),
    "front_arc": mark("Is {other} at least partly inside {unit}'s front arc (yes or no)"),
    "line_of_sight": mark("Can {unit} see {other}: a line from its front to it that no unit "
                          "or sight-blocking terrain crosses (yes or no)"),
    "range": mark("Measure the range from {unit}'s front rank to the nearest point of {other}, "
                  "in inches"),
    "cover": mark("What cover hides at least half of {other} from {unit}, standing in it or "
                  "behind it (none, soft, hard)"),
    "hill": mark("Does {unit} stand at least half on a hill (yes or no)"),
    "moved": mark("How much of its move did {unit} use, in inches (a wheel by its outer "
                  "front corner's path, a turn a quarter of its Movement, backwards or "
                  "sideways double)"),
}

# what each answer tells, in replays and records
TELLS = {
    "distance": mark("{unit} and {other} are {value}\" apart"),
    "side": mark("{unit} meets {other} in its {value}"),
    "room": mark("room for {unit} to reach {other}: {value}"),
    "touches": mark("units already fighting that {unit} touches too: {value}"),
    "models": mark("models of {unit} touching {other}: {value}"),
    "flee_edge": mark("{unit}'s flee reaches the table edge: {value}"),
    "flee_through": mark("the enemy {unit} flees through: {value}"),
    "nearest": mark("the enemy nearest to {unit}: {value}"),
    "within": mark("units within {extra}\" of {unit}: {value}"),
    "pursue_edge": mark("{unit}'s move reaches the table edge: {value}"),
    "pursue_into": mark("the fresh enemy {unit} runs into: {value}"),
    "reform": mark("room for {unit} to reform: {value}"),
    "down_hill": mark("{unit} charged down off a hill: {value}"),
    "on_hill": mark("units standing on a hill: {value}"),
    "character": mark("{unit} in base contact with {other}: {value}"),
    "leave": mark("a place for {unit} to stand clear of its unit: {value}"),
    "moved": mark("{unit} used {value}\" of its move"),
    "front_arc": mark("{other} in {unit}'s front arc: {value}"),
    "line_of_sight": mark("{unit} sees {other}: {value}"),
    "range": mark("{other} is {value}\" from {unit}'s front rank"),
    "cover": mark("the cover {other} stands in: {value}"),
    "hill": mark("{unit} stands on a hill: {value}"),
}

def _name(state: State | None, uid: str) -> str:
    if state is not None and uid in state.units:
        return state.units[uid].name
    return uid


def _how(state: State, reform: str) -> str:
    """A reform asked about ("files:face:turn") as players say it."""
    files, face, turn = [*reform.split(":"), "", "", ""][:3]
    if face:
        return tr("turn to face {unit}", unit=_name(state, face))
    if turn and turn != "0":
        return tr("turn {turn} degrees", turn=turn)
    return tr("reform {files} wide", files=files)


def _adjust(state: State, pending: Any, fields: dict[str, str]) -> None:
    """The side a count is along; the reform asked about."""
    if pending.measure == "count" and pending.options:
        fields["side"] = side_word(pending.options[0])
    if pending.question.startswith("reform:"):
        fields["other"] = _how(state, pending.other)


TELLING = Telling(ASKS, TELLS, _name, cite, side_word, _adjust)
question = TELLING.question
told = TELLING.told
