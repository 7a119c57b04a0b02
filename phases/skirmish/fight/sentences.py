"""The story of the fight of each combat (SK.ENGAGED, SK.ALLOCATE, SK.RESULT, SK.SWEEP,
SK.FALL_BACK, SK.CONSOLIDATE): a sentence for each of its events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regiment.core.i18n import ntr, tr

from ..state import SkirmishState
from ..telling import faces_of, name_of, names_of

S = SkirmishState
Data = Mapping[str, Any]


def _struck(d: Data, s: S) -> str | None:
    parts = [tr("{unit} {attacks} on {target}", unit=name_of(s, x["unit"]),
                attacks=ntr("{n} attack", "{n} attacks", x["attacks"]),
                target=name_of(s, x["target"])) for x in d["strikes"]]
    parts += [tr("{unit} {attacks} to split among {targets}", unit=name_of(s, p["unit"]),
                 attacks=ntr("{n} attack", "{n} attacks", p["attacks"]),
                 targets=tr(" and ").join(name_of(s, t) for t in p["among"]))
              for p in d["pools"]]
    if not parts:
        return None
    return tr("Initiative step {step}: {parts} (SK.ENGAGED: the models in base contact and "
              "those within 2\" of them; SK.ALLOCATE).", step=d["step"], parts="; ".join(parts))


def _split(d: Data, s: S) -> str:
    shares = ", ".join(tr("{n} on {target}", n=n, target=name_of(s, t))
                       for t, n in d["split"].items())
    return tr("{unit} splits its attacks before rolling: {shares} (SK.ALLOCATE).",
              unit=name_of(s, d["unit"]), shares=shares)


def _result(d: Data, s: S) -> str:
    totals = ", ".join(f"{p} {n}" for p, n in d["totals"].items())
    if d["winner"] is None:
        return tr("Combat {combat}: unsaved wounds {totals}; a draw (SK.RESULT).",
                  combat=d["combat"], totals=totals)
    nobody = tr("no squad")
    return tr("Combat {combat}: unsaved wounds summed per side, {totals}: {winner} wins by "
              "{penalty}; {losers} test morale at -{penalty} (SK.RESULT).",
              combat=d["combat"], totals=totals, winner=d["winner"], penalty=d["penalty"],
              losers=names_of(s, d["losers"], nobody))


def _morale(d: Data, s: S) -> str:
    fields = {"unit": name_of(s, d["unit"]), "faces": faces_of(d["faces"]),
              "total": sum(d["faces"]), "ld": d["leadership"], "penalty": d["penalty"],
              "need": d["leadership"] - d["penalty"]}
    if d.get("cause") == "shooting":   # SK.MORALE: a quarter lost to shooting
        return (tr("{unit} lost a quarter of its models to shooting and tests morale: {faces} "
                   "= {total} against Ld {ld}: passed (SK.MORALE).", **fields) if d["passed"]
                else tr("{unit} lost a quarter of its models to shooting and tests morale: "
                        "{faces} = {total} against Ld {ld}: failed, it falls back (SK.MORALE; "
                        "SK.FALL_BACK).", **fields))
    if d["passed"]:
        return tr("{unit} tests morale: {faces} = {total} against Ld {ld} - {penalty} = "
                  "{need}: passed (SK.RESULT).", **fields)
    return tr("{unit} tests morale: {faces} = {total} against Ld {ld} - {penalty} = {need}: "
              "failed, it falls back (SK.RESULT).", **fields)


def _sweep_roll(d: Data, s: S) -> str:
    fields = {"unit": name_of(s, d["unit"]), "face": d["face"], "initiative": d["initiative"],
              "total": d["total"]}
    if d["role"] == "sweep":
        return tr("{unit} makes its sweeping advance: {face} + Initiative {initiative} = "
                  "{total} (SK.SWEEP).", **fields)
    return tr("{unit} rolls to get away: {face} + Initiative {initiative} = {total} "
              "(SK.SWEEP).", **fields)


def _swept(d: Data, s: S) -> str:
    who = name_of(s, d["unit"])
    if not d["against"]:
        return tr("No winner may sweep {unit}: it falls back (SK.SWEEP).", unit=who)
    vs = ", ".join(f"{name_of(s, w)} {t}" for w, t in d["against"].items())
    if d["caught"]:
        return tr("{unit} ({total}) is caught by {by} ({against}: equal or higher) and "
                  "destroyed (SK.SWEEP).", unit=who, total=d["total"], by=name_of(s, d["by"]),
                  against=vs)
    return tr("{unit} ({total}) gets away from {against} (SK.SWEEP).", unit=who,
              total=d["total"], against=vs)


def _fell_back(d: Data, s: S) -> str:
    distance = format(d["distance"], "g")
    fields = {"unit": name_of(s, d["unit"]), "faces": faces_of(d["faces"]), "distance": distance}
    if d["off_table"]:
        return tr("{unit} falls back {faces} = {distance}\" off the table (SK.FALL_BACK).",
                  **fields)
    return tr("{unit} falls back {faces} = {distance}\" straight away from the enemy "
              "(SK.FALL_BACK).", **fields)


def _consolidated(d: Data, s: S) -> str:
    who = name_of(s, d["unit"])
    if not d["toward"]:
        return tr("{unit} rolls {face} to consolidate and stays where it is "
                  "(SK.CONSOLIDATE).", unit=who, face=d["face"])
    return tr("{unit} consolidates up to {face}\" toward {target}, into contact with no new "
              "enemy (SK.CONSOLIDATE).", unit=who, face=d["face"],
              target=name_of(s, d["toward"]))


def _ended(d: Data, s: S) -> str:
    if d["locked"]:
        return tr("Combat {combat} goes on: {units} stay locked into the next turn "
                  "(SK.CONSOLIDATE).", combat=d["combat"], units=names_of(s, d["locked"], ""))
    return tr("Combat {combat} is over (SK.CONSOLIDATE).", combat=d["combat"])


SENTENCES: dict[str, Callable[[Data, S], str | None]] = {
    "StepStruck": _struck,
    "AttacksSplit": _split,
    "MeleeResult": _result,
    "MoraleTested": _morale,
    "SweepRolled": _sweep_roll,
    "SweepResolved": _swept,
    "FellBack": _fell_back,
    "Consolidated": _consolidated,
    "FightEnded": _ended,
}
