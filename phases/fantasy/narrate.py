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
from regiment.core.reasons import Reasons
from regiment.core.tell import kernel_sentence, setting_word

from . import measures, rerolls
from .combat import describe_step
from .sources import cite
from .state import State
from .units import side_word
from .why import (
    BREAK_TEST,
    CHARGE_FAILED,
    COMBAT_ENDED,
    DESTROYED,
    PANIC,
    REFORM_SKIPPED,
    REFORMED,
    WITHDRAWN,
)

i18n.register(Path(__file__).with_name("locale"))
D = Mapping[str, Any]




def _name(state: State | None, uid: Any) -> str:
    if state is not None and uid in state.units:
        return state.units[uid].name
    return str(uid)


def _names(state: State | None, uids: Any, sep: str = ", ") -> str:
    return sep.join(_name(state, u) for u in uids)


def _reason(reasons: Reasons, value: Any, state: State | None) -> str:
    """A reason the log holds (a code, or an older log's English) in the players' words."""
    def name(uid: Any) -> str:
        return _name(state, uid)
    return reasons.tell(value, tr, {"unit": name, "target": name, "enemy": name,
                                    "host": name, "side": side_word})


def _one(state: State | None, uid: Any) -> bool:
    """A unit that began the game as one model (a character, a monster, a chariot): the
    sentences speak of it in the singular."""
    return state is not None and uid in state.units and state.units[uid].start_models == 1


def _k(state: State | None, uid: Any) -> int:
    """The number a unit's verb agrees with, for ``ntr``: 1 for a single model, else 2 (the
    English "Giant flees" and "Orc Boyz flee"; the Russian singular and plural alike)."""
    return 1 if _one(state, uid) else 2


def _why(*rules: str) -> str:
    return f" ({cite(*rules)})"


def _plus(faces: Any, dropped: Any = ()) -> str:
    """Dice as a sum: ``4+5 = 9``; a die that does not count is shown in brackets and left
    out of the total (``4+5+(3) = 9``)."""
    faces, dropped = list(faces), list(dropped)
    shown = "+".join([*map(str, faces), *(f"({f})" for f in dropped)])
    return f"{shown} = {sum(faces)}" if len(faces) + len(dropped) > 1 else shown


def _rolled_sum(faces: tuple[int, ...]) -> str:
    """Dice in the order rolled, the lowest of three (Swiftstride) in brackets and left out
    of the total: ``(3)+4+5 = 9``."""
    if len(faces) <= 2:
        return _plus(faces)
    low = faces.index(min(faces))
    shown = "+".join(f"({f})" if i == low else str(f) for i, f in enumerate(faces))
    return f"{shown} = {sum(faces) - faces[low]}"


def _swift(dropped: Any, apart: bool = False) -> str:
    """CH.RANGE, FP.FLEE_ROLL, FP.PURSUE_ROLL: the rule that dropped a die (``apart``: in
    brackets of its own)."""
    if not dropped:
        return ""
    return tr(" (Swiftstride: the lowest of three dropped)") if apart else \
        tr(", Swiftstride: the lowest of three dropped")


def _f(value: Any, spec: str) -> str:
    return format(value, spec)


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


def _charge_rolled(d: D, s: State | None) -> str:
    dropped = d.get("dropped") or ()
    dice = "+".join([*map(str, d["dice"]), *(f"({f})" for f in dropped)])
    m = _f(d["range"] - sum(d["dice"]), "g")   # the range is the dice that count and M
    fields = {"unit": _name(s, d["unit"]), "dice": dice, "m": m,
              "range": _f(d["range"], "g"), "distance": _f(d["distance"], ".1f"),
              "target": _name(s, d["target"]), "swift": _swift(dropped, apart=True)}
    if d["success"]:
        return tr("{unit} charge range {dice}{swift} + M {m} = {range}\" against {distance}\" "
                  "to {target}: the charge reaches", **fields) + _why("CH.RANGE")
    why = _reason(CHARGE_FAILED, d["why"], s) if d.get("why") else tr(SHORT)
    return tr("{unit} charge range {dice}{swift} + M {m} = {range}\" against {distance}\" to "
              "{target}: the charge fails, {why}", why=why, **fields) \
        + _why("CH.RANGE", "CH.FAILED")


SHORT = mark("short")


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
    kind, value = n["special"].split(":")
    what, rule = ((tr("impact hits"), "ATK.IMPACT") if kind == "impact"
                  else (tr("stomps"), "ATK.STOMP"))
    wounded = (tr("{wounds} wound ({need}+)", wounds=d["wounds"], need=n["wound"])
               if n.get("wound") else tr("none can wound"))
    text = tr("{unit} ({what}, {value} from each of {models}): {hits} hits on {target}, "
              "{wounded}, {saved} saved ({saves}), {unsaved} unsaved",
              unit=_name(s, d["unit"]), what=what, value=value,
              models=ntr("{n} model", "{n} models", d["attacks"]), hits=d["hits"],
              target=_name(s, d["target"]), wounded=wounded, saved=d["saved"],
              saves=_saves(n), unsaved=d["unsaved"])
    if d.get("slain"):
        text += tr(": {slain} slain", slain=d["slain"])
    rules = [rule, "ATK.SPECIAL", "ATK.TO_WOUND"] + [
        r for r, k in (("ATK.ARMOUR", "armour"), ("ATK.WARD", "ward")) if n.get(k)]
    return text + "." + _why(*rules)


def _attacks(d: D, s: State | None) -> str:
    n = d["needs"]
    if n.get("special"):
        return _special(d, s)
    who, at = _name(s, d["unit"]), _name(s, d["target"])
    if n.get("mount"):
        who = tr("{unit}' {mount}", unit=who, mount=n["mount"])   # CC.MOUNT: on their own
    rules: list[str]
    if d["step"] == "stand_and_shoot":
        where, rules = tr("stand and shoot"), ["CH.REACT", "ATK.TO_HIT_SHOOTING", "ATK.TO_WOUND"]
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
    if n.get("reroll_by"):   # the special rule that granted it (rerolls.py)
        hit += tr(" re-rolling misses ({rule})", rule=rerolls.told(n["reroll_by"]))
        rules.append(n["reroll_by"])
    elif n.get("reroll"):
        hit += tr(" re-rolling misses")
    wounded = (tr("{wounds} wound ({need}+)", wounds=d["wounds"], need=n["wound"])
               if n.get("wound") else tr("none can wound ()"))
    fields = {"unit": who, "where": where, "attacks": d["attacks"], "target": at,
              "hits": d["hits"], "hit": hit, "wounded": wounded, "saved": d["saved"],
              "saves": _saves(n), "unsaved": d["unsaved"]}
    if d["step"] == "stand_and_shoot":
        text = tr("{unit} ({where}): {attacks} shots at {target}, {hits} hit ({hit}), "
                  "{wounded}, {saved} saved ({saves}), {unsaved} unsaved", **fields)
    else:
        text = tr("{unit} ({where}): {attacks} attacks at {target}, {hits} hit ({hit}), "
                  "{wounded}, {saved} saved ({saves}), {unsaved} unsaved", **fields)
    if d.get("slain"):
        text += tr(": {slain} slain", slain=d["slain"])
    if d.get("overkill"):
        text += tr(", {overkill} overkill", overkill=d["overkill"])
    if d.get("slain") or d.get("lost", d["unsaved"]) < d["unsaved"]:
        rules.append("ATK.CASUALTIES")
    if d.get("overkill"):
        rules.append("CR.OVERKILL")
    return text + "." + _why(*rules)


def _result(d: D, s: State | None) -> str:
    sides = []
    rules = ["CR.WINNER"]
    for player, side in d["sides"].items():
        by_unit: dict[str, list[dict[str, Any]]] = {}
        for p in side["parts"]:
            by_unit.setdefault(p["unit"], []).append(p)
        if len(by_unit) > 1:  # CR.BOOKKEEPING: each unit's share beside the side's total
            shares = " + ".join(
                f"{_name(s, u)} {sum(p['value'] for p in ps)} ("
                + ", ".join(f"{p['rule']} +{p['value']}" for p in ps) + ")"
                for u, ps in by_unit.items())
            sides.append(f"{player} {side['total']} = {shares}")
            if "CR.BOOKKEEPING" not in rules:
                rules.append("CR.BOOKKEEPING")
            continue
        parts = ", ".join(f"{p['rule']} {_name(s, p['unit'])} +{p['value']}"
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
                    units=_names(s, d["unbreakable"])) + _why("BT.SPECIAL")
    if d.get("no_more_foes"):
        extra += tr("; {units}: no enemy left in contact, they win and leave the combat",
                    units=_names(s, d["no_more_foes"])) + _why("CR.NO_MORE_FOES")
    return tr("Combat result: {sides}: {verdict}{extra}.", sides="; ".join(sides),
              verdict=verdict, extra=extra) + _why(*rules)


def _break(d: D, s: State | None) -> str:
    who, k = _name(s, d["unit"]), _k(s, d["unit"])
    rules = ["BT.TEST"]
    how = tr("Ld {ld} - {penalty}", ld=d["leadership"], penalty=d["penalty"])
    if d["steadfast"]:
        how = tr("Ld {ld}, steadfast ({why}), no penalty", ld=d["leadership"],
                 why=_reason(BREAK_TEST, d.get("why") or "", s))
        rules.append("BT.STEADFAST")
    elif d.get("why"):
        how += f"; {_reason(BREAK_TEST, d['why'], s)}"
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
              needs=d.get("needs", 0), rolled=_plus(d["faces"]), verdict=verdict)




LD_PURPOSES = {"panic": mark("panic"), "rally": mark("rally"), "restrain": mark("restrain"),
               "reform": mark("reform"), "leadership": mark("leadership")}


def _ld(d: D, s: State | None) -> str:
    rule = {"panic": "PANIC.TRIGGERS", "rally": "RALLY.TEST", "restrain": "FP.CHOOSE_PURSUIT",
            "reform": "REF.TEST"}.get(d["purpose"], "LD.TEST")
    fields = {"unit": _name(s, d["unit"]),
              "purpose": tr(LD_PURPOSES[d["purpose"]]) if d["purpose"] in LD_PURPOSES
              else d["purpose"], "ld": d["leadership"],
              "penalty": f" - {d['penalty']}" if d["penalty"] else "",
              "needs": d.get("needs", 0), "rolled": _plus(d["faces"])}
    if d["passed"]:
        text = tr("{unit} {purpose} test: Ld {ld}{penalty} needs {needs}; rolled {rolled}: "
                  "passed.", **fields)
    else:
        text = tr("{unit} {purpose} test: Ld {ld}{penalty} needs {needs}; rolled {rolled}: "
                  "failed.", **fields)
    return text + _why(rule, "LD.TEST")


MOVES = {
    "charge": mark("charge"), "failed charge": mark("failed charge"), "flee": mark("flee"),
    "pursuit": mark("pursuit"), "overrun": mark("overrun"), "return": mark("return"),
    "reform": mark("reform"), "alone": mark("alone")}


def _moved(d: D, s: State | None) -> str:
    rule = {"charge": "CH.CHARGE_MOVE", "failed_charge": "CH.FAILED", "flee": "FP.FLEE_DIRECTION",
            "pursuit": "FP.PURSUE_MOVE", "overrun": "FP.OVERRUN", "return": "FP.OFF_TABLE",
            "rally": "RALLY.TEST"}.get(d["reason"], "GEO.MOVE")
    unit, k = _name(s, d["unit"]), _k(s, d["unit"])
    distance = _f(d.get("distance", 0), ".1f")
    if d["position"] is None:   # table mode: the players move it, the engine records how far
        return _moved_at_table(d, s, unit, k, distance) + _why(rule)
    x, y = d["position"]
    if d["reason"] == "close_up":
        return ntr("{unit} closes up {distance}\" to stay in contact as casualties leave the "
                   "rear ranks.", "{unit} close up {distance}\" to stay in contact as "
                   "casualties leave the rear ranks.", k, unit=unit, distance=distance) \
            + _why("CC.WHO_FIGHTS")
    facing = _f(d["facing"], ".0f")
    if d["reason"] == "rally":
        return ntr("{unit} turns to face the enemy ({facing}).",
                   "{unit} turn to face the enemy ({facing}).", k, unit=unit, facing=facing) \
            + _why(rule)
    what = d["reason"].replace("_", " ")
    text = ntr("{unit} moves {distance}\" ({what}) to ({x}, {y}) facing {facing}",
               "{unit} move {distance}\" ({what}) to ({x}, {y}) facing {facing}", k,
               unit=unit, distance=distance, what=tr(MOVES[what]) if what in MOVES else what,
               x=_f(x, ".1f"), y=_f(y, ".1f"), facing=facing)
    if d.get("stopped"):   # FP.PURSUE_MOVE: held short, 1" from a friend or a fleeing unit
        return text + tr(", stopped 1\" short of {unit}.", unit=_name(s, d["stopped"])) \
            + _why(rule, "GEO.NO_OVERLAP")
    return text + "." + _why(rule)


def _moved_at_table(d: D, s: State | None, unit: str, k: int, distance: str) -> str:
    """A move in table mode: how far, and why; where it ends is on the players' table."""
    if d["reason"] == "rally":
        return ntr("{unit} turns to face the enemy.", "{unit} turn to face the enemy.", k,
                   unit=unit)
    what = d["reason"].replace("_", " ")
    return ntr("{unit} moves {distance}\" ({what}) on the table.",
               "{unit} move {distance}\" ({what}) on the table.", k, unit=unit,
               distance=distance, what=tr(MOVES[what]) if what in MOVES else what)


def _off_table(d: D, s: State | None) -> str:
    """FP.OFF_TABLE: a pursuer leaves the table (in table mode, where the players saw it)."""
    k, unit = _k(s, d["unit"]), _name(s, d["unit"])
    if d["point"] is None:   # table mode
        return ntr("{unit} pursues off the table.", "{unit} pursue off the table.", k,
                   unit=unit) + _why("FP.OFF_TABLE")
    return ntr("{unit} pursues off the table at ({x}, {y}).", "{unit} pursue off the table "
               "at ({x}, {y}).", k, unit=unit, x=_f(d["point"][0], ".1f"),
               y=_f(d["point"][1], ".1f")) + _why("FP.OFF_TABLE")


def _withdrawn(d: D, s: State | None) -> str:
    """TABLE.MEASURE: a command the measurement it asked for ruled out."""
    return tr("{player}'s {command} is withdrawn: what was measured rules it out ({why}; "
              "{rule}).", player=d["by"], command=d["command"].replace("_", " "),
              why=_reason(WITHDRAWN, d["why"], s), rule=cite(d["rule"], "TABLE.MEASURE"))


def _redirected(d: D, s: State | None) -> str:
    k = _k(s, d["unit"])
    if not d.get("faces"):   # engine 0.9.0 on: the test was told already (RedirectTested)
        return ntr("{unit} redirects its charge to {target}.",
                   "{unit} redirect their charge to {target}.", k, unit=_name(s, d["unit"]),
                   target=_name(s, d["to"])) + _why("CH.REDIRECT")
    fields = {"unit": _name(s, d["unit"]), "ld": d.get("leadership"),
              "rolled": _plus(d["faces"])}
    if d["passed"]:
        return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: passes and turns on "
                   "{target}.", "{unit} try to redirect: Ld {ld} rolled {rolled}: passes and "
                   "turns on {target}.", k, target=_name(s, d["to"]), **fields) \
            + _why("CH.REDIRECT")
    return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: fails and keeps after "
               "{target}.", "{unit} try to redirect: Ld {ld} rolled {rolled}: fails and keeps "
               "after {target}.", k, target=_name(s, d["from"]), **fields) + _why("CH.REDIRECT")


def _redirect_tested(d: D, s: State | None) -> str:
    """CH.REDIRECT (seed 003): the test first; on a pass the charger may declare again."""
    fields = {"unit": _name(s, d["unit"]), "ld": d["leadership"], "rolled": _plus(d["faces"])}
    k = _k(s, d["unit"])
    if d["passed"]:
        return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: passes, and may declare "
                   "a charge at another target.", "{unit} try to redirect: Ld {ld} rolled "
                   "{rolled}: pass, and may declare a charge at another target.", k,
                   **fields) + _why("CH.REDIRECT")
    return ntr("{unit} tries to redirect: Ld {ld} rolled {rolled}: fails and keeps after "
               "{target}.", "{unit} try to redirect: Ld {ld} rolled {rolled}: fails and keeps "
               "after {target}.", k, target=_name(s, d["target"]), **fields) \
        + _why("CH.REDIRECT")


def _fled(d: D, s: State | None) -> str:
    rule = {"charge_reaction": "CH.REACT", "panic": "PANIC.TRIGGERS", "rally": "RALLY.TEST",
            "broke": "FP.FLEE_ROLL"}.get(d.get("reason", ""), "FP.FLEE_ROLL")
    faces = tuple(d.get("dice") or ())   # all it rolled: with Swiftstride the lowest drops
    dice = f" ({_rolled_sum(faces)}{_swift(len(faces) > 2)})" if faces else ""
    return ntr("{unit} flees {distance}\"{dice}.", "{unit} flee {distance}\"{dice}.",
               _k(s, d["unit"]), unit=_name(s, d["unit"]), distance=d["distance"],
               dice=dice) + _why(rule)


def _pursuit(d: D, s: State | None) -> str:
    unit, k = _name(s, d["unit"]), _k(s, d["unit"])
    dropped = d.get("dropped") or ()
    distance = f"{d['distance']}\" ({_plus(d['dice'], dropped)}{_swift(dropped)})" \
        if d.get("dice") else f"{d['distance']}\""
    if not d["target"]:
        text = ntr("{unit} overruns {distance}", "{unit} overrun {distance}", k,
                   unit=unit, distance=distance)
    elif d["caught"]:
        text = ntr("{unit} pursues {distance} after {target}: caught",
                   "{unit} pursue {distance} after {target}: caught", k, unit=unit,
                   distance=distance, target=_name(s, d["target"]))
    else:
        text = ntr("{unit} pursues {distance} after {target}: {escape}",
                   "{unit} pursue {distance} after {target}: {escape}", k, unit=unit,
                   distance=distance, target=_name(s, d["target"]),
                   escape=ntr("it escapes", "they escape", _k(s, d["target"])))
    return text + "." + _why("FP.PURSUE_ROLL", "FP.CAUGHT")


def _challenge(d: D, s: State | None) -> str | None:
    if not d["unit"]:
        return tr("{player} issue no challenge.", player=d["player"]) + _why("CC.CHALLENGE")
    return ntr("{unit} issues a challenge.", "{unit} issue a challenge.", _k(s, d["unit"]),
               unit=_name(s, d["unit"])) + _why("CC.CHALLENGE")


def _declared_pursuit(d: D, s: State | None) -> str:
    who = _name(s, d["unit"])
    if d["kind"] == "restrain":
        return tr("{unit} try to hold back.", unit=who) + _why("FP.CHOOSE_PURSUIT")
    if d["kind"] == "overrun":
        return tr("{unit} will overrun.", unit=who) + _why("FP.OVERRUN")
    return tr("{unit} will pursue {target}.", unit=who, target=_name(s, d["target"])) \
        + _why("FP.CHOOSE_PURSUIT")


def _allocated(d: D, s: State | None) -> str:
    split = ", ".join(tr("{n} at {target}", n=n, target=_name(s, u))
                      for u, n in d["attacks"].items())
    return ntr("{unit} splits the attacks of models touching several units: {split}.",
               "{unit} split the attacks of models touching several units: {split}.",
               _k(s, d["unit"]), unit=_name(s, d["unit"]), split=split) + _why("CC.ALLOCATE")


ORDERS = {"break_test": mark("break test"), "flee": mark("flee move"),
          "pursuit": mark("pursuit move")}


def _order(d: D, s: State | None) -> str:
    rule = "BT.WHO" if d["what"] == "break_test" else "FP.MULTI_ORDER"
    return ntr("{unit} goes next ({what}, its player's choice).",
               "{unit} go next ({what}, their player's choice).", _k(s, d["unit"]),
               unit=_name(s, d["unit"]), what=tr(ORDERS[d["what"]])) + _why(rule)


def _with(s: State | None, uid: Any) -> str:
    """CHAR.IN_UNIT: the characters a destroyed unit takes with it."""
    if s is None or uid not in s.units or not s.units[uid].characters:
        return ""
    return tr(", and {characters} with it", characters=_names(s, s.units[uid].characters))


def _left(d: D, s: State | None) -> str:
    if d["position"] is None:   # table mode: where the players put it
        where = tr("a place the players chose")
    else:
        where = tr("({x}, {y}) facing {facing}", x=_f(d["position"][0], ".1f"),
                   y=_f(d["position"][1], ".1f"), facing=_f(d["facing"], ".0f"))
    if d.get("reason", "left") == "left":
        return ntr("{character} leaves {unit} and stands at {where}.",
                   "{character} leave {unit} and stand at {where}.", _k(s, d["character"]),
                   character=_name(s, d["character"]), unit=_name(s, d["unit"]),
                   where=where) + _why("CHAR.LEAVE")
    return tr("{unit} destroyed around {character}, who fights on alone at {where}.",
              unit=_name(s, d["unit"]), character=_name(s, d["character"]), where=where) \
        + _why("CHAR.ALONE")


def _joined(d: D, s: State | None) -> str:
    hill = tr(" (charging down a hill)") if d.get("hill") else ""
    merged = (tr(", which takes in combat {combats}", combats=", ".join(d["merged"]))
              if d.get("merged") else "")
    return tr("{units} join combat {combat}{hill}{merged}: a multiple combat.",
              units=_names(s, d["units"]), combat=d["combat"], hill=hill, merged=merged) \
        + _why("CH.CHARGE_MOVE" if d.get("reason") == "charge" else "FP.FRESH_ENEMY",
               "CR.BOOKKEEPING")


def _flee_direction(d: D, s: State | None) -> str:
    return ntr("{unit} flees from {enemy}, chosen by a die ({face}) among {among}, equal in "
               "ranks five wide.", "{unit} flee from {enemy}, chosen by a die ({face}) among "
               "{among}, equal in ranks five wide.", _k(s, d["unit"]),
               unit=_name(s, d["unit"]), enemy=_name(s, d["away_from"]), face=d["faces"][0],
               among=_names(s, d["among"])) + _why("FP.FLEE_DIRECTION")


def _reacted(d: D, s: State | None) -> str:
    unit, k, reaction = _name(s, d["unit"]), _k(s, d["unit"]), d["reaction"]
    if reaction == "hold":
        text = ntr("{unit} holds.", "{unit} hold.", k, unit=unit)
    elif reaction == "flee":
        text = ntr("{unit} flees.", "{unit} flee.", k, unit=unit)
    else:
        text = ntr("{unit} stands and shoots.", "{unit} stand and shoot.", k, unit=unit)
    return text + _why("CH.REACT")


ROLLS = {
    "charge_range": mark("charge range"), "failed_charge": mark("failed charge"),
    "flee": mark("flee"), "pursuit": mark("pursuit"), "overrun": mark("overrun"),
    "redirect": mark("redirect"), "stand_and_shoot_hit": mark("stand and shoot hit"),
    "to_hit": mark("to hit"), "to_wound": mark("to wound"), "armour": mark("armour"),
    "ward": mark("ward"), "break_test": mark("break test"), "restrain": mark("restrain"),
    "reform": mark("reform"), "panic": mark("panic"), "rally": mark("rally"),
    "dangerous_terrain": mark("dangerous terrain"), "random_side": mark("random side"),
    "random_choice": mark("random choice")}


def _rolled(d: D, s: State | None) -> str:
    purpose = d["purpose"]
    what = tr(ROLLS[purpose]) if purpose in ROLLS else purpose.replace("_", " ")
    return tr("Rolled {purpose} for {unit}: {faces}.", purpose=what,
              unit=_name(s, d["unit"]), faces=" ".join(map(str, d["faces"])))


def _destroyed(d: D, s: State | None) -> str | None:
    code = DESTROYED.read(d["reason"])["code"]
    if code in ("caught", "caught_fleeing"):   # told with the catch
        return None
    return ntr("{unit} is destroyed ({reason}){with_}.", "{unit} are destroyed ({reason}){with_}.",
               _k(s, d["unit"]), unit=_name(s, d["unit"]),
               reason=_reason(DESTROYED, d["reason"], s), with_=_with(s, d["unit"])) \
        + _why({"slain": "ATK.CASUALTIES", "fled_off_table": "FP.OFF_TABLE"}.get(code,
                                                                                "FP.CAUGHT"))




def _reformed(d: D, s: State | None) -> str:
    how = _reason(REFORMED, d["how"], s) if d.get("how") else tr(REFORM)
    return f"{_name(s, d['unit'])} {how}." + _why("REF.PLACEMENT", "REF.CONTACT")


def _combat_began(d: D, s: State | None) -> str:
    hill = tr(" (charging down a hill)") if d.get("hill") else ""
    against = tr(" against ")
    text = tr("Combat {combat}: {units}{hill}.", combat=d["combat"],
              units=_names(s, d["units"], against), hill=hill)
    if d.get("reason") == "scenario":
        return text + tr(" (set up in contact)")
    return text + _why("CH.CHARGE_MOVE" if d.get("reason") == "charge" else "FP.FRESH_ENEMY")


TEMPLATES: dict[str, Callable[[D, State | None], str | None]] = {
    "CombatJoined": _joined,
    "AttacksAllocated": _allocated,
    "OrderChosen": _order,
    "FleeDirectionChosen": _flee_direction,
    "GameStarted": lambda d, s: tr("Game {game} begins ({preset}, {dice} dice, undo {undo}).",
                                   game=d["game_id"], preset=d["preset"],
                                   dice=setting_word(d["dice"]),
                                   undo=setting_word(d.get("undo", "free"))),
    "TurnBegan": lambda d, s: tr("Game turn {turn}: {player} play.", turn=d["turn"],
                                 player=d["player"]) + _why("TURN.ORDER"),
    "PhaseChanged": _phase,
    "ChargeDeclared": lambda d, s: ntr(
        "{unit} declares a charge against {target} (into its {side}).",
        "{unit} declare a charge against {target} (into its {side}).", _k(s, d["unit"]),
        unit=_name(s, d["unit"]), target=_name(s, d["target"]),
        side=side_word(d.get("side") or "front"))
    + _why("CH.DECLARE"),
    "ChargeReacted": _reacted,
    "ChargeRedirected": _redirected,
    "RedirectTested": _redirect_tested,
    "SideDrawn": lambda d, s: ntr(
        "Before any charge is declared, a die decides which side of {target} {unit} would "
        "charge, its front split evenly: its {side}.", "Before any charge is declared, a die "
        "decides which side of {target} {unit} would charge, their front split evenly: its "
        "{side}.", _k(s, d["unit"]), unit=_name(s, d["unit"]), target=_name(s, d["target"]),
        side=side_word(d["side"])) + _why("CH.CHARGE_MOVE"),
    "DiceRolled": _rolled,
    "ChargeRolled": _charge_rolled,
    "UnitFled": _fled,
    "UnitMoved": _moved,
    "UnitCaught": lambda d, s: ntr(
        "{unit} is caught by {by} and destroyed{with_}.",
        "{unit} are caught by {by} and destroyed{with_}.", _k(s, d["unit"]),
        unit=_name(s, d["unit"]), by=_name(s, d["by"]), with_=_with(s, d["unit"]))
    + _why("FP.CAUGHT"),
    "UnitDestroyed": _destroyed,
    "UnitLeftTable": _off_table,
    "Measured": measures.told,
    "CommandWithdrawn": _withdrawn,
    "UnitReturned": lambda d, s: ntr("{unit} returns to the table.",
                                     "{unit} return to the table.", _k(s, d["unit"]),
                                     unit=_name(s, d["unit"])) + _why("FP.OFF_TABLE"),
    "UnitReformed": _reformed,
    "ReformOrderChosen": lambda d, s: tr("{player} reform first.", player=d["first"])
    + _why("REF.ORDER"),
    "ReformSkipped": lambda d, s: ntr("{unit} does not reform: {why}.",
                                      "{unit} do not reform: {why}.", _k(s, d["unit"]),
                                      unit=_name(s, d["unit"]),
                                      why=_reason(REFORM_SKIPPED, d.get("why") or "", s))
    + _why("REF.WHO"),
    "DangerousTerrainTested": lambda d, s: ntr(
        "{unit} flees through {through}: dangerous terrain, rolled {faces}: {slain} lost.",
        "{unit} flee through {through}: dangerous terrain, rolled {faces}: {slain} lost.",
        _k(s, d["unit"]), unit=_name(s, d["unit"]), through=_name(s, d["through"]),
        faces=" ".join(map(str, d["faces"])), slain=d["slain"]) + _why("FP.FLEE_THROUGH"),
    "CharacterJoined": lambda d, s: ntr(
        "{character} joins {unit}, standing in its front rank.",
        "{character} join {unit}, standing in its front rank.", _k(s, d["character"]),
        character=_name(s, d["character"]), unit=_name(s, d["unit"])) + _why("CHAR.JOIN"),
    "CharacterLeft": _left,
    "UnitRallied": lambda d, s: ntr("{unit} rallies.", "{unit} rally.", _k(s, d["unit"]),
                                    unit=_name(s, d["unit"])) + _why("RALLY.TEST"),
    "CombatBegan": _combat_began,
    "CombatEnded": lambda d, s: tr("Combat {combat} is over: {reason}.", combat=d["combat"],
                                   reason=_reason(COMBAT_ENDED, d["reason"], s))
    + _why("CR.NO_MORE_FOES"),
    "CombatRoundBegan": lambda d, s: tr("Combat {combat}, round {round}.", combat=d["combat"],
                                        round=d["round"]) + _why("CC.ORDER"),
    "ChallengeIssued": _challenge,
    "ChallengeAnswered": lambda d, s: (
        ntr("{unit} accepts the challenge.", "{unit} accept the challenge.", _k(s, d["unit"]),
            unit=_name(s, d["unit"])) if d["accepted"] else
        ntr("{unit} refuses the challenge.", "{unit} refuse the challenge.", _k(s, d["unit"]),
            unit=_name(s, d["unit"]))) + _why("CC.CHALLENGE"),
    "AttacksResolved": _attacks,
    "CombatResultDecided": _result,
    "BreakTestTaken": _break,
    "LeadershipTested": _ld,
    "PanicCaused": lambda d, s: tr("Panic: {reason}; {units} must test.",
                                   reason=_reason(PANIC, d["reason"], s),
                                   units=_names(s, d["units"])) + _why("PANIC.TRIGGERS"),
    "PursuitDeclared": _declared_pursuit,
    "PursuitRolled": _pursuit,
}


# GAME.END in this rulebook's words (the kernel tells the rest of a game's end)
ENDINGS = {Ending.SIDE_LEFT: mark("only {player} has units left"),
           Ending.NONE_LEFT: mark("no units are left on either side")}


def sentence(type_: str, data: Mapping[str, Any], state: State | None = None) -> str | None:
    """The event as a sentence citing its rules, or None for bookkeeping events."""
    template = TEMPLATES.get(type_)
    return kernel_sentence(type_, data, ENDINGS) if template is None else \
        template(data, state)
