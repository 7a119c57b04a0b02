"""The skirmish game's events told as sentences, each citing the rule IDs that decided it (the
tools narrate every game through ``Preset.sentence``), and what an awaited roll needs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from regiment.core import i18n
from regiment.core.endings import Ending
from regiment.core.i18n import mark, ntr, tr
from regiment.core.tell import kernel_sentence

from . import measures
from .attacks import save, to_wound
from .sources import cite
from .state import SkirmishState
from .why import ASSAULT_ENDED

S = SkirmishState
Data = Mapping[str, Any]

i18n.register(Path(__file__).with_name("locale"))

# The turn's phases as the skirmish machine names them (how play shows where the game is)
PHASES = (mark("start"), mark("shooting"), mark("assault"), mark("declaration"),
          mark("overwatch"), mark("charge_move"), mark("fight"), mark("choose_combat"),
          mark("combat"), mark("steps"), mark("result"), mark("morale"), mark("sweep"),
          mark("consolidate"), mark("end"), mark("over"))

STAGES = ("hit", "wound", "save")   # the volley rolls roll_need tells (SK.TO_HIT ...)


def _name(state: S, uid: str | None) -> str:
    s = state.squads.get(uid or "")
    return s.name if s is not None else str(uid)


def _names(state: S, uids: Any, empty: str) -> str:
    return ", ".join(_name(state, u) for u in uids) or empty


def _faces(faces: Any) -> str:
    return " ".join(str(f) for f in faces) or tr("none")


def _shot(d: Data, s: S) -> str:
    return tr("{unit} shoots at {target}: {shots}, hitting on {need}+ (SK.SHOOT).",
              unit=_name(s, d["unit"]), target=_name(s, d["target"]),
              shots=ntr("{n} shot", "{n} shots", d["shots"]), need=d["need"])


def _declared(d: Data, s: S) -> str:
    fire = _names(s, d["overwatch"], tr("none of them"))
    if d["secondary"]:
        return tr("{unit} declares an assault on {primary} and {secondary}: a disordered "
                  "charge, no +1 attack (SK.DECLARE); may fire overwatch: {fire} "
                  "(SK.OVERWATCH).", unit=_name(s, d["unit"]), primary=_name(s, d["primary"]),
                  secondary=_name(s, d["secondary"]), fire=fire)
    return tr("{unit} declares an assault on {primary} (SK.DECLARE); may fire overwatch: "
              "{fire} (SK.OVERWATCH).", unit=_name(s, d["unit"]),
              primary=_name(s, d["primary"]), fire=fire)


def _overwatch(d: Data, s: S) -> str:
    if not d["fire"]:
        return tr("{unit} holds its overwatch (SK.OVERWATCH).", unit=_name(s, d["unit"]))
    return tr("{unit} fires overwatch at {target}: {shots}, hitting on 6s only "
              "(SK.OVERWATCH).", unit=_name(s, d["unit"]), target=_name(s, d["against"]),
              shots=ntr("{n} snap shot", "{n} snap shots", d["shots"]))


def _volley(d: Data, s: S) -> str | None:
    if d["dice"]:
        return None
    return tr("{unit} loses its attacks on {target}: no model of it is left (SK.ALLOCATE).",
              unit=_name(s, d["unit"]), target=_name(s, d["target"]))


def _rolled(d: Data, s: S) -> str:
    stage, n = d["stage"], len(d["faces"])
    fields = {"unit": _name(s, d["target"] if stage == "save" else d["unit"]),
              "need": d["need"], "faces": _faces(d["faces"])}
    if stage == "hit":
        text = ntr("{unit} rolls {n} die to hit ({need}+): {faces}, {hits} (SK.TO_HIT).",
                   "{unit} rolls {n} dice to hit ({need}+): {faces}, {hits} (SK.TO_HIT).", n,
                   hits=ntr("{n} hit", "{n} hits", d["successes"]), **fields)
    elif stage == "wound":
        text = ntr("{unit} rolls {n} die to wound ({need}+): {faces}, {wounds} "
                   "(SK.TO_WOUND).", "{unit} rolls {n} dice to wound ({need}+): {faces}, "
                   "{wounds} (SK.TO_WOUND).", n,
                   wounds=ntr("{n} wound", "{n} wounds", d["successes"]), **fields)
    else:
        text = ntr("{unit} rolls {n} die to save ({need}+): {faces}, {saves} (SK.SAVE).",
                   "{unit} rolls {n} dice to save ({need}+): {faces}, {saves} (SK.SAVE).", n,
                   saves=ntr("{n} save", "{n} saves", d["successes"]), **fields)
    if stage == "hit" and d["successes"] and not d["then"]:
        text += " " + tr("{target} cannot be wounded by them (SK.TO_WOUND).",
                         target=_name(s, d["target"]))
    if stage == "wound" and d["successes"] and not d["then"]:
        text += " " + tr("No save is allowed against them (SK.SAVE).")
    return text


def _wounds(d: Data, s: S) -> str:
    text = tr("{unit} takes {wounds} from {by}: {models} removed, the nearest the enemy first "
              "(SK.CASUALTIES)", unit=_name(s, d["unit"]), by=_name(s, d["by"]),
              wounds=ntr("{n} unsaved wound", "{n} unsaved wounds", d["wounds"]),
              models=ntr("{n} model", "{n} models", len(d["removed"])))
    if d["lost"]:
        text += ntr("; {n} wound lost with no model left to take it, never carried to another "
                    "squad (SK.ALLOCATE)", "; {n} wounds lost with no model left to take them,"
                    " never carried to another squad (SK.ALLOCATE)", d["lost"])
    return text + "."




def _charge(d: Data, s: S) -> str:
    who = _name(s, d["unit"])
    reason = ASSAULT_ENDED.tell(d["reason"], tr, {"target": lambda t: _name(s, t)}) \
        if d.get("reason") else ""
    if not d["faces"]:
        return tr("The assault of {unit} ends: {reason} (SK.CHARGE_MOVE).", unit=who,
                  reason=reason)
    rolled = {"unit": who, "faces": _faces(d["faces"]), "range": sum(d["faces"])}
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


def _moved(d: Data, s: S) -> str | None:
    if d["reason"] != "pile_in":
        return None
    return tr("{unit} piles in toward the enemy (SK.CONSOLIDATE).", unit=_name(s, d["unit"]))


def _joined(d: Data, s: S) -> str:
    return tr("{units} are locked in combat {combat} (SK.ENGAGED).",
              units=_names(s, d["units"], ""), combat=d["combat"])


def _struck(d: Data, s: S) -> str | None:
    parts = [tr("{unit} {attacks} on {target}", unit=_name(s, x["unit"]),
                attacks=ntr("{n} attack", "{n} attacks", x["attacks"]),
                target=_name(s, x["target"])) for x in d["strikes"]]
    parts += [tr("{unit} {attacks} to split among {targets}", unit=_name(s, p["unit"]),
                 attacks=ntr("{n} attack", "{n} attacks", p["attacks"]),
                 targets=tr(" and ").join(_name(s, t) for t in p["among"]))
              for p in d["pools"]]
    if not parts:
        return None
    return tr("Initiative step {step}: {parts} (SK.ENGAGED: the models in base contact and "
              "those within 2\" of them; SK.ALLOCATE).", step=d["step"], parts="; ".join(parts))


def _split(d: Data, s: S) -> str:
    shares = ", ".join(tr("{n} on {target}", n=n, target=_name(s, t))
                       for t, n in d["split"].items())
    return tr("{unit} splits its attacks before rolling: {shares} (SK.ALLOCATE).",
              unit=_name(s, d["unit"]), shares=shares)


def _result(d: Data, s: S) -> str:
    totals = ", ".join(f"{p} {n}" for p, n in d["totals"].items())
    if d["winner"] is None:
        return tr("Combat {combat}: unsaved wounds {totals}; a draw (SK.RESULT).",
                  combat=d["combat"], totals=totals)
    nobody = tr("no squad")
    return tr("Combat {combat}: unsaved wounds summed per side, {totals}: {winner} wins by "
              "{penalty}; {losers} test morale at -{penalty} (SK.RESULT).",
              combat=d["combat"], totals=totals, winner=d["winner"], penalty=d["penalty"],
              losers=_names(s, d["losers"], nobody))


def _morale(d: Data, s: S) -> str:
    fields = {"unit": _name(s, d["unit"]), "faces": _faces(d["faces"]),
              "total": sum(d["faces"]), "ld": d["leadership"], "penalty": d["penalty"],
              "need": d["leadership"] - d["penalty"]}
    if d["passed"]:
        return tr("{unit} tests morale: {faces} = {total} against Ld {ld} - {penalty} = "
                  "{need}: passed (SK.RESULT).", **fields)
    return tr("{unit} tests morale: {faces} = {total} against Ld {ld} - {penalty} = {need}: "
              "failed, it falls back (SK.RESULT).", **fields)


def _sweep_roll(d: Data, s: S) -> str:
    fields = {"unit": _name(s, d["unit"]), "face": d["face"], "initiative": d["initiative"],
              "total": d["total"]}
    if d["role"] == "sweep":
        return tr("{unit} makes its sweeping advance: {face} + Initiative {initiative} = "
                  "{total} (SK.SWEEP).", **fields)
    return tr("{unit} rolls to get away: {face} + Initiative {initiative} = {total} "
              "(SK.SWEEP).", **fields)


def _swept(d: Data, s: S) -> str:
    who = _name(s, d["unit"])
    if not d["against"]:
        return tr("No winner may sweep {unit}: it falls back (SK.SWEEP).", unit=who)
    vs = ", ".join(f"{_name(s, w)} {t}" for w, t in d["against"].items())
    if d["caught"]:
        return tr("{unit} ({total}) is caught by {by} ({against}: equal or higher) and "
                  "destroyed (SK.SWEEP).", unit=who, total=d["total"], by=_name(s, d["by"]),
                  against=vs)
    return tr("{unit} ({total}) gets away from {against} (SK.SWEEP).", unit=who,
              total=d["total"], against=vs)


def _fell_back(d: Data, s: S) -> str:
    distance = format(d["distance"], "g")
    fields = {"unit": _name(s, d["unit"]), "faces": _faces(d["faces"]), "distance": distance}
    if d["off_table"]:
        return tr("{unit} falls back {faces} = {distance}\" off the table (SK.FALL_BACK).",
                  **fields)
    return tr("{unit} falls back {faces} = {distance}\" straight away from the enemy "
              "(SK.FALL_BACK).", **fields)


def _consolidated(d: Data, s: S) -> str:
    who = _name(s, d["unit"])
    if not d["toward"]:
        return tr("{unit} rolls {face} to consolidate and stays where it is "
                  "(SK.CONSOLIDATE).", unit=who, face=d["face"])
    return tr("{unit} consolidates up to {face}\" toward {target}, into contact with no new "
              "enemy (SK.CONSOLIDATE).", unit=who, face=d["face"],
              target=_name(s, d["toward"]))


def _ended(d: Data, s: S) -> str:
    if d["locked"]:
        return tr("Combat {combat} goes on: {units} stay locked into the next turn "
                  "(SK.CONSOLIDATE).", combat=d["combat"], units=_names(s, d["locked"], ""))
    return tr("Combat {combat} is over (SK.CONSOLIDATE).", combat=d["combat"])


SENTENCES: dict[str, Callable[[Data, S], str | None]] = {
    "SquadShot": _shot, "AssaultDeclared": _declared, "OverwatchChosen": _overwatch,
    "VolleyBegan": _volley, "VolleyRolled": _rolled, "WoundsTaken": _wounds,
    "AssaultRolled": _charge, "ModelsMoved": _moved, "MeleeJoined": _joined,
    "StepStruck": _struck, "AttacksSplit": _split, "MeleeResult": _result,
    "MoraleTested": _morale, "SweepRolled": _sweep_roll, "SweepResolved": _swept,
    "FellBack": _fell_back, "Consolidated": _consolidated, "FightEnded": _ended,
}


# GAME.END in this rulebook's words (the kernel tells the rest of a game's end)
ENDINGS = {Ending.SIDE_LEFT: mark("only {player} has squads left"),
           Ending.NONE_LEFT: mark("no squads are left on either side")}


def sentence(event_type: str, data: Data, state: S) -> str | None:
    if event_type == "Measured":   # TABLE.MEASURE: cited by measures, with its sources
        return measures.told(data, state)
    tell = SENTENCES.get(event_type)
    if tell is not None:
        text = tell(data, state)
        return None if text is None else cite(text)
    if event_type in ("FightBegan", "ConsolidationRolled", "TurnBegan"):
        return None
    return kernel_sentence(event_type, data, ENDINGS)


def roll_need(state: S) -> str | None:
    """What the awaited roll needs, as the player at the table reads it."""
    aw, v = state.awaiting, state.volley
    if aw is None:
        return None
    if v is not None and aw.purpose in STAGES:
        t = state.squads[v.target]
        if aw.purpose == "hit":
            follow = to_wound(v.S, t.profile["T"])
            if follow:
                return tr("each die {need}+ hits, then {follow}+ wounds (SK.TO_HIT)",
                          need=v.need, follow=follow)
            return tr("each die {need}+ hits, but they cannot wound (SK.TO_HIT)", need=v.need)
        if aw.purpose == "wound":
            return tr("each die {need}+ wounds; save {save}+ (SK.TO_WOUND)", need=v.need,
                      save=save(t.profile["Sv"], v.AP))
        return tr("each die {need}+ saves a wound (SK.SAVE)", need=v.need)
    if aw.purpose == "charge":
        return tr("the sum is the charge range: the first model must reach (SK.CHARGE_MOVE)")
    if aw.purpose == "morale" and state.fight is not None:
        ld = state.squads[aw.unit or ""].profile["Ld"]
        return tr("{need} or less passes (Ld {ld} - {penalty}, SK.RESULT)",
                  need=ld - state.fight.penalty, ld=ld, penalty=state.fight.penalty)
    if aw.purpose in ("sweep", "escape"):
        return tr("the die plus Initiative; the sweeper's equal or higher catches (SK.SWEEP)")
    return None
