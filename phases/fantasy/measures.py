"""Table mode told: each measurement the rules ask of the players (TABLE.ASK), as the prompt
that asks it, and as the sentence that tells its answer in replays and records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regiment.core.i18n import mark, tr

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
}

WORDS = {"yes": mark("yes"), "no": mark("no"), "none": mark("none")}


def _name(state: State | None, uid: str) -> str:
    if state is not None and uid in state.units:
        return state.units[uid].name
    return uid


def _parts(key: str) -> tuple[str, str, str, str]:
    """A question's key: what it asks, of which unit, about which other (or a range)."""
    kind, _, rest = key.partition(":")
    unit, _, other = rest.partition(":")
    return kind, unit, other, other


def _how(state: State, reform: str) -> str:
    """A reform asked about ("files:face:turn") as players say it."""
    files, face, turn = [*reform.split(":"), "", "", ""][:3]
    if face:
        return tr("turn to face {unit}", unit=_name(state, face))
    if turn and turn != "0":
        return tr("turn {turn} degrees", turn=turn)
    return tr("reform {files} wide", files=files)


def question(state: State, pending: Any) -> str:
    """The prompt of a pending measurement, with the rule that needs it and what it can be."""
    kind, unit, other, _ = _parts(pending.question)
    side = pending.options[0] if kind == "models" and pending.options else ""
    fields = {"unit": _name(state, unit), "other": _name(state, pending.other or other),
              "extra": format(pending.extra, "g"), "side": side_word(side)}
    if kind == "reform":
        fields["other"] = _how(state, pending.other)
    if kind == "distance" and pending.other:   # the key sorts the two; ask from the asker's
        fields["unit"], fields["other"] = _name(state, pending.unit), _name(state, pending.other)
    text = tr(ASKS[kind], **fields) if kind in ASKS else pending.question
    if pending.measure == "count":
        text += tr(": 1 to {most}", most=int(pending.most))
    elif pending.measure == "distance":
        text += tr(": 0 to {most}", most=format(pending.most, "g"))
    elif pending.options and kind not in ("models",):
        text += " [" + ", ".join(side_word(o) if pending.measure == "side" else o
                                 for o in pending.options) + "]"
    return f"{text} ({cite(pending.rule, 'TABLE.ASK')})"


def told(d: Mapping[str, Any], state: State | None) -> str:
    """A ``Measured`` event: what the players measured, and the rule that needed it."""
    kind, unit, other, extra = _parts(d["key"])
    value = d["value"]
    if d["kind"] == "side":
        shown = "/".join(side_word(v) for v in value.split("/"))
    elif d["kind"] in ("unit", "units"):
        shown = ", ".join(tr(WORDS[v]) if v in WORDS else _name(state, v)
                          for v in value.split(",") if v) or tr(WORDS["none"])
    elif value in WORDS:
        shown = tr(WORDS[value])
    else:
        shown = value
    fields = {"unit": _name(state, unit), "other": _name(state, other), "extra": extra,
              "value": shown}
    what = tr(TELLS[kind], **fields) if kind in TELLS else f"{d['key']}: {shown}"
    return tr("Measured at the table: {what}.", what=what) + \
        f" ({cite(d['rule'], 'TABLE.MEASURE')})"
