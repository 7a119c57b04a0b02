"""Sentences for events, each citing the rule IDs (and seed pages) that decided it.

``sentence(type, data, state)`` takes an event's stored data and the state *before* it (for
unit names and what the unit had); events that are bookkeeping (a roll being asked for, the
start of a step) give None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from regiment.core import i18n
from regiment.core.endings import Ending
from regiment.core.i18n import mark, ntr, tr
from regiment.core.tell import kernel_sentence, setting_word
from regiment.phases.common.scores import scored

from . import effects, measures
from .close_combat.attacks import SpecialHits
from .close_combat.strikes import describe_step
from .moving import sentences as moving_sentences
from .parts import gathered
from .sources import cite
from .state import State
from .telling import (
    D,
    because,
    fmt,
    name_of,
    names_of,
    plus,
    reason_told,
    verb_count,
    with_characters,
)
from .why import (
    COMBAT_ENDED,
    DESTROYED,
    WITHDRAWN,
)

i18n.register(Path(__file__).with_name("locale"))


REFORM = mark("reform")

# The turn's phases as PhaseChanged names them (phases.fantasy.machine)
PHASES = {
    "start": mark("start"), "movement": mark("movement"), "charge": mark("charge"),
    "declaration": mark("declaration"), "reactions": mark("reactions"),
    "redirect": mark("redirect"), "redirect_target": mark("redirect_target"),
    "charge_moves": mark("charge_moves"), "rally": mark("rally"),
    "compulsory": mark("compulsory"), "remaining": mark("remaining"), "magic": mark("magic"),
    "shooting": mark("shooting"), "close_combat": mark("close_combat"),
    "choose_combat": mark("choose_combat"), "combat": mark("combat"),
    "challenge": mark("challenge"), "initiative_steps": mark("initiative_steps"),
    "result": mark("result"), "break_tests": mark("break_tests"), "pursuit": mark("pursuit"),
    "reform": mark("reform"), "end": mark("end"), "over": mark("over")}


def _phase(d: D, s: State | None) -> str:
    path = d["phase"].replace("turn.", "").split(".")
    return f"{d['player']}: " + " > ".join(tr(PHASES[p]) if p in PHASES else p for p in path)


def _saves(n: Mapping[str, Any]) -> str:
    saves = [tr("armour {need}+", need=n["armour"])] if n.get("armour") else []
    if n.get("parry"):
        saves.append(tr("parry {need}+", need=n["ward"]))
    elif n.get("ward"):
        saves.append(tr("ward {need}+", need=n["ward"]))
    return ", ".join(saves) or tr("no save")


def _special(d: D, s: State | None) -> str:
    """ATK.IMPACT, ATK.STOMP: hits that needed no roll to hit."""
    n = d["needs"]
    kind, value = SpecialHits.of(n["special"])
    what, rule = ((tr("impact hits"), "ATK.IMPACT") if kind == "impact"
                  else (tr("stomps"), "ATK.STOMP"))
    wounded = (tr("{wounds} wound ({need}+)", wounds=d["wounds"], need=n["wound"])
               if n.get("wound") else tr("none can wound"))
    text = tr("{unit} ({what}, {value} from each of {models}): {hits} hits on {target}, "
              "{wounded}, {saved} saved ({saves}), {unsaved} unsaved",
              unit=name_of(s, d["unit"]), what=what, value=value,
              models=ntr("{n} model", "{n} models", d["attacks"]), hits=d["hits"],
              target=name_of(s, d["target"]), wounded=wounded, saved=d["saved"],
              saves=_saves(n), unsaved=d["unsaved"])
    if d.get("slain"):
        text += tr(": {slain} slain", slain=d["slain"])
    rules = [rule, "ATK.SPECIAL", "ATK.TO_WOUND"] + [
        r for r, k in (("ATK.ARMOUR", "armour"), ("ATK.WARD", "ward")) if n.get(k)]
    return text + "." + because(*rules)


def _attacks(d: D, s: State | None) -> str:
    n = d["needs"]
    if n.get("special"):
        return _special(d, s)
    who, at = name_of(s, d["unit"]), name_of(s, d["target"])
    if n.get("mount"):
        who = tr("{unit}' {mount}", unit=who, mount=n["mount"])   # CC.MOUNT: on their own
    rules: list[str]
    if d["step"] == "stand_and_shoot":
        where, rules = tr("stand and shoot"), ["CH.REACT", "ATK.TO_HIT_SHOOTING", "ATK.TO_WOUND"]
    elif d["step"] == "shooting":
        where, rules = tr("shooting"), ["SHOOT.HIT", "ATK.TO_HIT_SHOOTING", "ATK.TO_WOUND"]
    else:
        where = describe_step(d["step"]) + (tr(", in a challenge") if d.get("challenge")
                                            else "")
        rules = ["CC.INITIATIVE", "ATK.TO_HIT", "ATK.TO_WOUND"]
        if n.get("mount"):
            rules.insert(1, "CC.MOUNT")
        if d.get("challenge"):
            rules.append("CC.CHALLENGE")
    rules += [r for r, k in (("ATK.ARMOUR", "armour"),
                             ("ATK.PARRY" if n.get("parry") else "ATK.WARD", "ward")) if n.get(k)]
    hit = f"{n['hit']}+"
    if n.get("hit2") and not n.get("reroll"):
        hit += tr(" then {need}+", need=n["hit2"])
    if n.get("reroll_by"):   # the special rule that granted it (its Reroll effect)
        hit += tr(" re-rolling misses ({rule})", rule=effects.reroll_told(n["reroll_by"]))
        rules.append(n["reroll_by"])
    elif n.get("reroll"):
        hit += tr(" re-rolling misses")
    wounded = (tr("{wounds} wound ({need}+)", wounds=d["wounds"], need=n["wound"])
               if n.get("wound") else tr("none can wound ()"))
    fields = {"unit": who, "where": where, "attacks": d["attacks"], "target": at,
              "hits": d["hits"], "hit": hit, "wounded": wounded, "saved": d["saved"],
              "saves": _saves(n), "unsaved": d["unsaved"]}
    if d["step"] in ("stand_and_shoot", "shooting"):
        text = tr("{unit} ({where}): {attacks} shots at {target}, {hits} hit ({hit}), "
                  "{wounded}, {saved} saved ({saves}), {unsaved} unsaved", **fields)
    else:
        text = tr("{unit} ({where}): {attacks} attacks at {target}, {hits} hit ({hit}), "
                  "{wounded}, {saved} saved ({saves}), {unsaved} unsaved", **fields)
    if d.get("slain"):
        text += tr(": {slain} slain", slain=d["slain"])
    if d.get("overkill"):
        text += tr(", {overkill} overkill", overkill=d["overkill"])
    if n.get("parts"):   # SPECIAL.EFFECTS: every special rule that acted on these attacks
        said, acting = effects.acted(n["parts"], n)
        text += said
        rules += [r for r in dict.fromkeys(acting) if r not in rules]
    if d.get("slain") or d.get("lost", d["unsaved"]) < d["unsaved"]:
        rules.append("ATK.CASUALTIES")
    if d.get("overkill"):
        rules.append("CR.OVERKILL")
    return text + "." + because(*rules)


LD_PURPOSES = {"panic": mark("panic"), "rally": mark("rally"), "restrain": mark("restrain"),
               "reform": mark("reform"), "leadership": mark("leadership"),
               "march": mark("march"), "reform_move": mark("reform and move"),
               "fear": mark("fear"), "terror": mark("terror")}


def _ld(d: D, s: State | None) -> str:
    rule = {"panic": "PANIC.TRIGGERS", "rally": "RALLY.TEST", "restrain": "FP.CHOOSE_PURSUIT",
            "reform": "REF.TEST", "march": "MOVE.MARCH",
            "reform_move": "MOVE.REFORM", "fear": "SR.FEAR",
            "terror": "SR.TERROR"}.get(d["purpose"], "LD.TEST")
    fields = {"unit": name_of(s, d["unit"]),
              "purpose": tr(LD_PURPOSES[d["purpose"]]) if d["purpose"] in LD_PURPOSES
              else d["purpose"], "ld": d["leadership"],
              "penalty": f" - {d['penalty']}" if d["penalty"] else "",
              "needs": d.get("needs", 0), "rolled": plus(d["faces"])}
    if d["passed"]:
        text = tr("{unit} {purpose} test: Ld {ld}{penalty} needs {needs}; rolled {rolled}: "
                  "passed.", **fields)
    else:
        text = tr("{unit} {purpose} test: Ld {ld}{penalty} needs {needs}; rolled {rolled}: "
                  "failed.", **fields)
    return text + because(rule, "LD.TEST")


MOVES = {
    "charge": mark("charge"), "failed charge": mark("failed charge"), "flee": mark("flee"),
    "pursuit": mark("pursuit"), "overrun": mark("overrun"), "return": mark("return"),
    "reform": mark("reform"), "alone": mark("alone")}


def _moved(d: D, s: State | None) -> str:
    remaining = moving_sentences.moved(d, s)   # MOVE.*
    if remaining is not None:
        return remaining
    rule = {"charge": "CH.CHARGE_MOVE", "failed_charge": "CH.FAILED", "flee": "FP.FLEE_DIRECTION",
            "pursuit": "FP.PURSUE_MOVE", "overrun": "FP.OVERRUN", "return": "FP.OFF_TABLE",
            "rally": "RALLY.TEST"}.get(d["reason"]["code"], "GEO.MOVE")
    unit, k = name_of(s, d["unit"]), verb_count(s, d["unit"])
    distance = fmt(d.get("distance", 0), ".1f")
    if d["position"] is None:   # table mode: the players move it, the engine records how far
        return _moved_at_table(d, s, unit, k, distance) + because(rule)
    x, y = d["position"]
    if d["reason"]["code"] == "close_up":
        return ntr("{unit} closes up {distance}\" to stay in contact as casualties leave the "
                   "rear ranks.", "{unit} close up {distance}\" to stay in contact as "
                   "casualties leave the rear ranks.", k, unit=unit, distance=distance) \
            + because("CC.WHO_FIGHTS")
    facing = fmt(d["facing"], ".0f")
    if d["reason"]["code"] == "rally":
        return ntr("{unit} turns to face the enemy ({facing}).",
                   "{unit} turn to face the enemy ({facing}).", k, unit=unit, facing=facing) \
            + because(rule)
    what = d["reason"]["code"].replace("_", " ")
    text = ntr("{unit} moves {distance}\" ({what}) to ({x}, {y}) facing {facing}",
               "{unit} move {distance}\" ({what}) to ({x}, {y}) facing {facing}", k,
               unit=unit, distance=distance, what=tr(MOVES[what]) if what in MOVES else what,
               x=fmt(x, ".1f"), y=fmt(y, ".1f"), facing=facing)
    if d.get("stopped"):   # FP.PURSUE_MOVE: held short, 1" from a friend or a fleeing unit
        return text + tr(", stopped 1\" short of {unit}.", unit=name_of(s, d["stopped"])) \
            + because(rule, "GEO.NO_OVERLAP")
    return text + "." + because(rule)


def _moved_at_table(d: D, s: State | None, unit: str, k: int, distance: str) -> str:
    """A move in table mode: how far, and why; where it ends is on the players' table."""
    if d["reason"]["code"] == "rally":
        return ntr("{unit} turns to face the enemy.", "{unit} turn to face the enemy.", k,
                   unit=unit)
    what = d["reason"]["code"].replace("_", " ")
    return ntr("{unit} moves {distance}\" ({what}) on the table.",
               "{unit} move {distance}\" ({what}) on the table.", k, unit=unit,
               distance=distance, what=tr(MOVES[what]) if what in MOVES else what)


def _off_table(d: D, s: State | None) -> str:
    """FP.OFF_TABLE: a pursuer leaves the table (in table mode, where the players saw it)."""
    k, unit = verb_count(s, d["unit"]), name_of(s, d["unit"])
    if d["point"] is None:   # table mode
        return ntr("{unit} pursues off the table.", "{unit} pursue off the table.", k,
                   unit=unit) + because("FP.OFF_TABLE")
    return ntr("{unit} pursues off the table at ({x}, {y}).", "{unit} pursue off the table "
               "at ({x}, {y}).", k, unit=unit, x=fmt(d["point"][0], ".1f"),
               y=fmt(d["point"][1], ".1f")) + because("FP.OFF_TABLE")


def _withdrawn(d: D, s: State | None) -> str:
    """TABLE.MEASURE: a command the measurement it asked for ruled out."""
    return tr("{player}'s {command} is withdrawn: what was measured rules it out ({why}; "
              "{rule}).", player=d["by"], command=d["command"].replace("_", " "),
              why=reason_told(WITHDRAWN, d["why"], s), rule=cite(d["rule"], "TABLE.MEASURE"))


def _allocated(d: D, s: State | None) -> str:
    split = ", ".join(tr("{n} at {target}", n=n, target=name_of(s, u))
                      for u, n in d["attacks"].items())
    return ntr("{unit} splits the attacks of models touching several units: {split}.",
               "{unit} split the attacks of models touching several units: {split}.",
               verb_count(s, d["unit"]), unit=name_of(s, d["unit"]), split=split) \
        + because("CC.ALLOCATE")


ORDERS = {"break_test": mark("break test"), "flee": mark("flee move"),
          "pursuit": mark("pursuit move")}


def _order(d: D, s: State | None) -> str:
    rule = "BT.WHO" if d["what"] == "break_test" else "FP.MULTI_ORDER"
    return ntr("{unit} goes next ({what}, its player's choice).",
               "{unit} go next ({what}, their player's choice).", verb_count(s, d["unit"]),
               unit=name_of(s, d["unit"]), what=tr(ORDERS[d["what"]])) + because(rule)


def _left(d: D, s: State | None) -> str:
    if d["position"] is None:   # table mode: where the players put it
        where = tr("a place the players chose")
    else:
        where = tr("({x}, {y}) facing {facing}", x=fmt(d["position"][0], ".1f"),
                   y=fmt(d["position"][1], ".1f"), facing=fmt(d["facing"], ".0f"))
    if d["reason"]["code"] == "left":
        return ntr("{character} leaves {unit} and stands at {where}.",
                   "{character} leave {unit} and stand at {where}.", verb_count(s, d["character"]),
                   character=name_of(s, d["character"]), unit=name_of(s, d["unit"]),
                   where=where) + because("CHAR.LEAVE")
    return tr("{unit} destroyed around {character}, who fights on alone at {where}.",
              unit=name_of(s, d["unit"]), character=name_of(s, d["character"]), where=where) \
        + because("CHAR.ALONE")


def _joined(d: D, s: State | None) -> str:
    hill = tr(" (charging down a hill)") if d.get("hill") else ""
    merged = (tr(", which takes in combat {combats}", combats=", ".join(d["merged"]))
              if d.get("merged") else "")
    return tr("{units} join combat {combat}{hill}{merged}: a multiple combat.",
              units=names_of(s, d["units"]), combat=d["combat"], hill=hill, merged=merged) \
        + because("CH.CHARGE_MOVE" if d["reason"]["code"] == "charge" else "FP.FRESH_ENEMY",
               "CR.BOOKKEEPING")


ROLLS = {
    "charge_range": mark("charge range"), "failed_charge": mark("failed charge"),
    "flee": mark("flee"), "pursuit": mark("pursuit"), "overrun": mark("overrun"),
    "redirect": mark("redirect"), "stand_and_shoot_hit": mark("stand and shoot hit"),
    "shooting_hit": mark("shooting hit"),
    "to_hit": mark("to hit"), "to_wound": mark("to wound"), "armour": mark("armour"),
    "ward": mark("ward"), "break_test": mark("break test"), "restrain": mark("restrain"),
    "reform": mark("reform"), "panic": mark("panic"), "rally": mark("rally"),
    "dangerous_terrain": mark("dangerous terrain"), "random_side": mark("random side"),
    "random_choice": mark("random choice")}


def _rolled(d: D, s: State | None) -> str:
    purpose = d["purpose"]
    what = tr(ROLLS[purpose]) if purpose in ROLLS else purpose.replace("_", " ")
    return tr("Rolled {purpose} for {unit}: {faces}.", purpose=what,
              unit=name_of(s, d["unit"]), faces=" ".join(map(str, d["faces"])))


def _destroyed(d: D, s: State | None) -> str | None:
    code = DESTROYED.read(d["reason"])["code"]
    if code in ("caught", "caught_fleeing"):   # told with the catch
        return None
    return ntr("{unit} is destroyed ({reason}){with_}.", "{unit} are destroyed ({reason}){with_}.",
               verb_count(s, d["unit"]), unit=name_of(s, d["unit"]),
               reason=reason_told(DESTROYED, d["reason"], s), with_=with_characters(s, d["unit"])) \
        + because({"slain": "ATK.CASUALTIES", "fled_off_table": "FP.OFF_TABLE"}.get(code,
                                                                                "FP.CAUGHT"))


def _combat_began(d: D, s: State | None) -> str:
    hill = tr(" (charging down a hill)") if d.get("hill") else ""
    against = tr(" against ")
    text = tr("Combat {combat}: {units}{hill}.", combat=d["combat"],
              units=names_of(s, d["units"], against), hill=hill)
    if d["reason"]["code"] == "scenario":
        return text + tr(" (set up in contact)")
    return text + because("CH.CHARGE_MOVE" if d["reason"]["code"] == "charge" else "FP.FRESH_ENEMY")


# every concept folder's own (parts.py), and those of the events kept here
TEMPLATES: dict[str, Callable[[D, State | None], str | None]] = {
    **gathered("sentences", "SENTENCES"),
    "CombatJoined": _joined,
    "AttacksAllocated": _allocated,
    "OrderChosen": _order,
    "GameStarted": lambda d, s: tr("Game {game} begins ({preset}, {dice} dice, undo {undo}).",
                                   game=d["game_id"], preset=d["preset"],
                                   dice=setting_word(d["dice"]),
                                   undo=setting_word(d.get("undo", "free"))),
    "TurnBegan": lambda d, s: tr("Game turn {turn}: {player} play.", turn=d["turn"],
                                 player=d["player"]) + because("TURN.ORDER"),
    "PhaseChanged": _phase,
    "DiceRolled": _rolled,
    "UnitMoved": _moved,
    "UnitDestroyed": _destroyed,
    "UnitLeftTable": _off_table,
    "Measured": measures.told,
    "CommandWithdrawn": _withdrawn,
    "CharacterJoined": lambda d, s: ntr(
        "{character} joins {unit}, standing in its front rank.",
        "{character} join {unit}, standing in its front rank.", verb_count(s, d["character"]),
        character=name_of(s, d["character"]), unit=name_of(s, d["unit"])) + because("CHAR.JOIN"),
    "CharacterLeft": _left,
    "CombatBegan": _combat_began,
    "CombatEnded": lambda d, s: tr("Combat {combat} is over: {reason}.", combat=d["combat"],
                                   reason=reason_told(COMBAT_ENDED, d["reason"], s))
    + because("CR.NO_MORE_FOES"),
    "CombatRoundBegan": lambda d, s: tr("Combat {combat}, round {round}.", combat=d["combat"],
                                        round=d["round"]) + because("CC.ORDER"),
    "AttacksResolved": _attacks,
    "LeadershipTested": _ld,
}


# GAME.END in this rulebook's words (the kernel tells the rest of a game's end)
ENDINGS = {Ending.SIDE_LEFT: mark("only {player} has units left"),
           Ending.NONE_LEFT: mark("no units are left on either side"),
           Ending.POINTS: mark("{played}; victory points: {scores}")}


def sentence(type_: str, data: Mapping[str, Any], state: State | None = None) -> str | None:
    """The event as a sentence citing its rules, or None for bookkeeping events."""
    template = TEMPLATES.get(type_)
    if template is not None:
        return template(data, state)
    told = kernel_sentence(type_, data, ENDINGS)
    if type_ == "GameEnded" and told is not None:   # VP.POINTS: unit by unit
        told += scored(data, lambda uid: name_of(state, uid), cite)
    return told
