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
from regiment.phases.common.scores import scored

from . import measures
from .assault.sentences import SENTENCES as ASSAULT_SENTENCES
from .attacks import save, to_wound
from .fight.sentences import SENTENCES as FIGHT_SENTENCES
from .movement.sentences import SENTENCES as MOVEMENT_SENTENCES
from .sources import cite
from .state import SkirmishState
from .telling import faces_of, name_of, names_of

S = SkirmishState
Data = Mapping[str, Any]

i18n.register(Path(__file__).with_name("locale"))

# The turn's phases as the skirmish machine names them (how play shows where the game is)
PHASES = (mark("start"), mark("shooting"), mark("assault"), mark("declaration"),
          mark("overwatch"), mark("charge_move"), mark("fight"), mark("choose_combat"),
          mark("combat"), mark("steps"), mark("result"), mark("morale"), mark("sweep"),
          mark("consolidate"), mark("end"), mark("over"))

STAGES = ("hit", "wound", "save")   # the volley rolls roll_need tells (SK.TO_HIT ...)


def _volley(d: Data, s: S) -> str | None:
    if d["dice"]:
        return None
    return tr("{unit} loses its attacks on {target}: no model of it is left (SK.ALLOCATE).",
              unit=name_of(s, d["unit"]), target=name_of(s, d["target"]))


def _rolled(d: Data, s: S) -> str:
    stage, n = d["stage"], len(d["faces"])
    fields = {"unit": name_of(s, d["target"] if stage == "save" else d["unit"]),
              "need": d["need"], "faces": faces_of(d["faces"])}
    if stage == "hit":
        text = ntr("{unit} rolls {n} die to hit ({need}+): {faces}, {hits} (SK.TO_HIT).",
                   "{unit} rolls {n} dice to hit ({need}+): {faces}, {hits} (SK.TO_HIT).", n,
                   hits=ntr("{n} hit", "{n} hits", d["successes"]), **fields)
    elif stage == "wound":
        text = ntr("{unit} rolls {n} die to wound ({need}+): {faces}, {wounds} "
                   "(SK.TO_WOUND).", "{unit} rolls {n} dice to wound ({need}+): {faces}, "
                   "{wounds} (SK.TO_WOUND).", n,
                   wounds=ntr("{n} wound", "{n} wounds", d["successes"]), **fields)
    elif d.get("cover"):   # SK.SHOOT: the target's cover save, better than its armour
        text = ntr("{unit} rolls {n} die to save in cover ({need}+): {faces}, {saves} "
                   "(SK.SAVE; SK.SHOOT).", "{unit} rolls {n} dice to save in cover ({need}+): "
                   "{faces}, {saves} (SK.SAVE; SK.SHOOT).", n,
                   saves=ntr("{n} save", "{n} saves", d["successes"]), **fields)
    else:
        text = ntr("{unit} rolls {n} die to save ({need}+): {faces}, {saves} (SK.SAVE).",
                   "{unit} rolls {n} dice to save ({need}+): {faces}, {saves} (SK.SAVE).", n,
                   saves=ntr("{n} save", "{n} saves", d["successes"]), **fields)
    if stage == "hit" and d["successes"] and not d["then"]:
        text += " " + tr("{target} cannot be wounded by them (SK.TO_WOUND).",
                         target=name_of(s, d["target"]))
    if stage == "wound" and d["successes"] and not d["then"]:
        text += " " + tr("No save is allowed against them (SK.SAVE).")
    return text


def _wounds(d: Data, s: S) -> str:
    text = tr("{unit} takes {wounds} from {by}: {models} removed, the nearest the enemy first "
              "(SK.CASUALTIES)", unit=name_of(s, d["unit"]), by=name_of(s, d["by"]),
              wounds=ntr("{n} unsaved wound", "{n} unsaved wounds", d["wounds"]),
              models=ntr("{n} model", "{n} models", len(d["removed"])))
    if d["lost"]:
        text += ntr("; {n} wound lost with no model left to take it, never carried to another "
                    "squad (SK.ALLOCATE)", "; {n} wounds lost with no model left to take them,"
                    " never carried to another squad (SK.ALLOCATE)", d["lost"])
    return text + "."


def _moved(d: Data, s: S) -> str | None:
    if d["reason"]["code"] != "pile_in":
        return None
    return tr("{unit} piles in toward the enemy (SK.CONSOLIDATE).", unit=name_of(s, d["unit"]))


def _joined(d: Data, s: S) -> str:
    return tr("{units} are locked in combat {combat} (SK.ENGAGED).",
              units=names_of(s, d["units"], ""), combat=d["combat"])


SENTENCES: dict[str, Callable[[Data, S], str | None]] = {
    **ASSAULT_SENTENCES,
    **FIGHT_SENTENCES,
    **MOVEMENT_SENTENCES,
    "VolleyBegan": _volley, "VolleyRolled": _rolled, "WoundsTaken": _wounds,
    "ModelsMoved": _moved, "MeleeJoined": _joined,
}


# GAME.END in this rulebook's words (the kernel tells the rest of a game's end)
ENDINGS = {Ending.SIDE_LEFT: mark("only {player} has squads left"),
           Ending.NONE_LEFT: mark("no squads are left on either side"),
           Ending.POINTS: mark("{played}; kill points: {scores}")}


def sentence(event_type: str, data: Data, state: S) -> str | None:
    if event_type == "Measured":   # TABLE.MEASURE: cited by measures, with its sources
        return measures.told(data, state)
    tell = SENTENCES.get(event_type)
    if tell is not None:
        text = tell(data, state)
        return None if text is None else cite(text)
    if event_type in ("FightBegan", "ConsolidationRolled", "TurnBegan"):
        return None
    told = kernel_sentence(event_type, data, ENDINGS)
    if event_type == "GameEnded" and told is not None:   # SK.VICTORY: squad by squad
        told += cite(scored(data, lambda uid: state.squads[uid].name
                            if state is not None and uid in state.squads else uid))
    return told


def roll_numbers(state: S) -> dict[str, int | bool] | None:
    """SK.TO_HIT, SK.TO_WOUND, SK.SAVE, SK.RESULT: what the awaited roll needs, as numbers:
    each die at least, or the total at most (a morale test)."""
    aw, v = state.awaiting, state.volley
    if aw is None:
        return None
    if v is not None and aw.purpose in STAGES:
        return {"each_at_least": v.need}
    if aw.purpose == "morale" and state.fight is not None:
        ld = state.squads[aw.unit or ""].profile["Ld"]
        return {"total_at_most": ld - state.fight.penalty}
    return None


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
