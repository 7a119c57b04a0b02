"""Sentences for events, each citing the rule IDs (and seed pages) that decided it.

``sentence(type, data, state)`` takes an event's stored data and the state *before* it (for
unit names and what the unit had); events that are bookkeeping (a roll being asked for, the
start of a step) give None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regiment.core.tell import kernel_sentence

from .combat import describe_step
from .sources import cite
from .state import State


def _name(state: State | None, uid: Any) -> str:
    if state is not None and uid in state.units:
        return state.units[uid].name
    return str(uid)


def _one(state: State | None, uid: Any) -> bool:
    """A unit that began the game as one model (a character, a monster, a chariot): the
    sentences speak of it in the singular."""
    return state is not None and uid in state.units and state.units[uid].start_models == 1


_IRREGULAR = {"are": "is", "do": "does", "go": "goes", "have": "has"}


def _third(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("y") and verb[-2:-1] not in tuple("aeiou"):
        return verb[:-1] + "ies"
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s")


def _does(state: State | None, uid: Any, verb: str) -> str:
    """The unit's name and its verb agreeing with it: "Orc Boyz flee", "Giant flees"."""
    if not _one(state, uid):
        return f"{_name(state, uid)} {verb}"
    parts = []
    for part in verb.split(" and "):   # "stand and shoot": "stands and shoots"
        first, _, rest = part.partition(" ")
        parts.append(_third(first) + (f" {rest}" if rest else ""))
    return f"{_name(state, uid)} {' and '.join(parts)}"


def _they(state: State | None, uid: Any, verb: str) -> str:
    """"they break" of a unit, "it breaks" of a single model."""
    return f"it {_third(verb)}" if _one(state, uid) else f"they {verb}"


def _why(*rules: str) -> str:
    return f" ({cite(*rules)})"


def _plus(faces: Any) -> str:
    faces = list(faces)
    return f"{'+'.join(map(str, faces))} = {sum(faces)}" if len(faces) > 1 else str(faces[0])


def _phase(d: Mapping[str, Any], s: State | None) -> str:
    return f"{d['player']}: {d['phase'].replace('turn.', '').replace('.', ' > ')}"


def _charge_rolled(d: Mapping[str, Any], s: State | None) -> str:
    head = (f"{_name(s, d['unit'])} charge range {'+'.join(map(str, d['dice']))} + M = "
            f"{d['range']:g}\" against {d['distance']:.1f}\" to {_name(s, d['target'])}")
    if d["success"]:
        return head + ": the charge reaches" + _why("CH.RANGE")
    why = d.get("why") or "short"
    return head + f": the charge fails, {why}" + _why("CH.RANGE", "CH.FAILED")


def _special(d: Mapping[str, Any], s: State | None) -> str:
    """ATK.IMPACT, ATK.STOMP: hits that needed no roll to hit."""
    n = d["needs"]
    kind, value = n["special"].split(":")
    what, rule = ("impact hits", "ATK.IMPACT") if kind == "impact" else ("stomps", "ATK.STOMP")
    saves = [f"{k} {n[k]}+" for k in ("armour", "ward") if n.get(k)]
    wounded = f"{d['wounds']} wound ({n['wound']}+)" if n.get("wound") else "none can wound"
    text = (f"{_name(s, d['unit'])} ({what}, {value} from each of {d['attacks']} "
            f"model{'s' if d['attacks'] != 1 else ''}): {d['hits']} hits on "
            f"{_name(s, d['target'])}, {wounded}, {d['saved']} saved "
            f"({', '.join(saves) or 'no save'}), {d['unsaved']} unsaved")
    if d.get("slain"):
        text += f": {d['slain']} slain"
    rules = [rule, "ATK.SPECIAL", "ATK.TO_WOUND"] + [
        r for r, k in (("ATK.ARMOUR", "armour"), ("ATK.WARD", "ward")) if n.get(k)]
    return text + "." + _why(*rules)


def _attacks(d: Mapping[str, Any], s: State | None) -> str:
    n = d["needs"]
    if n.get("special"):
        return _special(d, s)
    who, at = _name(s, d["unit"]), _name(s, d["target"])
    if n.get("mount"):
        who = f"{who}' {n['mount']}"   # CC.MOUNT: the mounts strike on their own
    rules: list[str]
    if d["step"] == "stand_and_shoot":
        where, rules = "stand and shoot", ["CH.REACT", "ATK.TO_HIT_SHOOTING", "ATK.TO_WOUND"]
    else:
        where = describe_step(d["step"]) + (", in a challenge" if d.get("challenge") else "")
        rules = ["CC.INITIATIVE", "ATK.TO_HIT", "ATK.TO_WOUND"]
        if n.get("mount"):
            rules.insert(1, "CC.MOUNT")
        if d.get("challenge"):
            rules.append("CC.CHALLENGE")
    rules += [r for r, k in (("ATK.ARMOUR", "armour"), ("ATK.WARD", "ward")) if n.get(k)]
    hit = f"{n['hit']}+" + (f" then {n['hit2']}+" if n.get("hit2") and not n.get("reroll")
                            else "") + (" re-rolling misses" if n.get("reroll") else "")
    saves = []
    if n.get("armour"):
        saves.append(f"armour {n['armour']}+")
    if n.get("ward"):
        saves.append(f"ward {n['ward']}+")
    what = "shots" if d["step"] == "stand_and_shoot" else "attacks"
    wounded = f"{d['wounds']} wound ({n['wound']}+)" if n.get("wound") else "none can wound ()"
    text = (f"{who} ({where}): {d['attacks']} {what} at {at}, {d['hits']} hit ({hit}), "
            f"{wounded}, {d['saved']} saved ({', '.join(saves) or 'no save'}), "
            f"{d['unsaved']} unsaved")
    if d.get("slain"):
        text += f": {d['slain']} slain"
    if d.get("overkill"):
        text += f", {d['overkill']} overkill"
    if d.get("slain") or d.get("lost", d["unsaved"]) < d["unsaved"]:
        rules.append("ATK.CASUALTIES")
    if d.get("overkill"):
        rules.append("CR.OVERKILL")
    return text + "." + _why(*rules)


def _result(d: Mapping[str, Any], s: State | None) -> str:
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
                          for p in side["parts"]) or "nothing"
        sides.append(f"{player} {side['total']} ({parts})")
    if d["winner"] is None:
        verdict = "a draw"
    else:
        verdict = f"{d['winner']} win by {d['margin']}"
        if d.get("musician"):
            verdict += " (the musician decides it, CR.MUSICIAN)"
    extra = ""
    if d.get("unbreakable"):
        extra += (f"; {', '.join(_name(s, u) for u in d['unbreakable'])} unbreakable, no break "
                  "test" + _why("BT.SPECIAL"))
    if d.get("no_more_foes"):
        free = ", ".join(_name(s, u) for u in d["no_more_foes"])
        extra += (f"; {free}: no enemy left in contact, they win and leave the combat"
                  + _why("CR.NO_MORE_FOES"))
    return f"Combat result: {'; '.join(sides)}: {verdict}{extra}." + _why(*rules)


def _break(d: Mapping[str, Any], s: State | None) -> str:
    who = _name(s, d["unit"])
    rules = ["BT.TEST"]
    how = f"Ld {d['leadership']} - {d['penalty']}"
    if d["steadfast"]:
        how = f"Ld {d['leadership']}, steadfast ({d.get('why')}), no penalty"
        rules.append("BT.STEADFAST")
    elif d.get("why"):
        how += f"; {d['why']}"
        rules.append("BT.DISRUPTED" if "disrupted" in d["why"] else "BT.SPECIAL")
    verdict = _they(s, d["unit"], "hold" if d["passed"] else "break")
    if d.get("insane"):
        verdict = f"double 1, insane courage: {_they(s, d['unit'], 'hold')}"
        rules.append("LD.INSANE")
    lost: Any = d.get("result") or ()
    score = f"lost {lost[0]} to {lost[1]}; " if len(lost) == 2 else ""
    return (f"{who} break test: {how} ({score}{cite(*rules)}) needs {d.get('needs', 0)}; "
            f"rolled {_plus(d['faces'])}: {verdict}.")


def _ld(d: Mapping[str, Any], s: State | None) -> str:
    rule = {"panic": "PANIC.TRIGGERS", "rally": "RALLY.TEST", "restrain": "FP.CHOOSE_PURSUIT",
            "reform": "REF.TEST"}.get(d["purpose"], "LD.TEST")
    pen = f" - {d['penalty']}" if d["penalty"] else ""
    verdict = "passed" if d["passed"] else "failed"
    return (f"{_name(s, d['unit'])} {d['purpose']} test: Ld {d['leadership']}{pen} needs "
            f"{d.get('needs', 0)}; rolled {_plus(d['faces'])}: {verdict}." + _why(rule, "LD.TEST"))


def _moved(d: Mapping[str, Any], s: State | None) -> str:
    rule = {"charge": "CH.CHARGE_MOVE", "failed_charge": "CH.FAILED", "flee": "FP.FLEE_DIRECTION",
            "pursuit": "FP.PURSUE_MOVE", "overrun": "FP.OVERRUN", "return": "FP.OFF_TABLE",
            "rally": "RALLY.TEST"}.get(d["reason"], "GEO.MOVE")
    x, y = d["position"]
    what = d["reason"].replace("_", " ")
    if d["reason"] == "close_up":
        return (f"{_does(s, d['unit'], 'close')} up {d.get('distance', 0):.1f}\" to stay in "
                "contact as casualties leave the rear ranks." + _why("CC.WHO_FIGHTS"))
    if d["reason"] == "rally":
        return (f"{_does(s, d['unit'], 'turn')} to face the enemy ({d['facing']:.0f})."
                + _why(rule))
    return (f"{_does(s, d['unit'], 'move')} {d.get('distance', 0):.1f}\" ({what}) "
            f"to ({x:.1f}, {y:.1f}) facing {d['facing']:.0f}." + _why(rule))


def _redirected(d: Mapping[str, Any], s: State | None) -> str:
    tail = (f"passes and turns on {_name(s, d['to'])}" if d["passed"] else
            f"fails and keeps after {_name(s, d['from'])}")
    return (f"{_does(s, d['unit'], 'try')} to redirect: Ld {d.get('leadership')} rolled "
            f"{_plus(d['faces'])}: {tail}." + _why("CH.REDIRECT"))


def _fled(d: Mapping[str, Any], s: State | None) -> str:
    rule = {"charge_reaction": "CH.REACT", "panic": "PANIC.TRIGGERS", "rally": "RALLY.TEST",
            "broke": "FP.FLEE_ROLL"}.get(d.get("reason", ""), "FP.FLEE_ROLL")
    dice = f" ({_plus(d['dice'])})" if d.get("dice") else ""
    return f"{_does(s, d['unit'], 'flee')} {d['distance']}\"{dice}." + _why(rule)


def _pursuit(d: Mapping[str, Any], s: State | None) -> str:
    what = f"{_does(s, d['unit'], 'pursue' if d['target'] else 'overrun')} {d['distance']}\""
    if d["target"]:
        what += f" after {_name(s, d['target'])}: " + (
            "caught" if d["caught"] else _they(s, d["target"], "escape"))
    return what + "." + _why("FP.PURSUE_ROLL", "FP.CAUGHT")


def _challenge(d: Mapping[str, Any], s: State | None) -> str | None:
    if not d["unit"]:
        return f"{d['player']} issue no challenge." + _why("CC.CHALLENGE")
    return f"{_does(s, d['unit'], 'issue')} a challenge." + _why("CC.CHALLENGE")


def _declared_pursuit(d: Mapping[str, Any], s: State | None) -> str:
    who = _name(s, d["unit"])
    if d["kind"] == "restrain":
        return f"{who} try to hold back." + _why("FP.CHOOSE_PURSUIT")
    if d["kind"] == "overrun":
        return f"{who} will overrun." + _why("FP.OVERRUN")
    return f"{who} will pursue {_name(s, d['target'])}." + _why("FP.CHOOSE_PURSUIT")


def _allocated(d: Mapping[str, Any], s: State | None) -> str:
    split = ", ".join(f"{n} at {_name(s, u)}" for u, n in d["attacks"].items())
    return (f"{_does(s, d['unit'], 'split')} the attacks of models touching several units: "
            f"{split}." + _why("CC.ALLOCATE"))


def _order(d: Mapping[str, Any], s: State | None) -> str:
    what = {"break_test": "break test", "flee": "flee move", "pursuit": "pursuit move"}
    rule = "BT.WHO" if d["what"] == "break_test" else "FP.MULTI_ORDER"
    whose = "its" if _one(s, d["unit"]) else "their"
    return (f"{_does(s, d['unit'], 'go')} next ({what[d['what']]}, {whose} player's choice)."
            + _why(rule))


def _with(s: State | None, uid: Any) -> str:
    """CHAR.IN_UNIT: the characters a destroyed unit takes with it."""
    if s is None or uid not in s.units or not s.units[uid].characters:
        return ""
    return ", and " + ", ".join(_name(s, c) for c in s.units[uid].characters) + " with it"


def _left(d: Mapping[str, Any], s: State | None) -> str:
    where = f"({d['position'][0]:.1f}, {d['position'][1]:.1f}) facing {d['facing']:.0f}"
    if d.get("reason", "left") == "left":
        return (f"{_does(s, d['character'], 'leave')} {_name(s, d['unit'])} and "
                f"{_third('stand') if _one(s, d['character']) else 'stand'} at {where}."
                + _why("CHAR.LEAVE"))
    return (f"{_name(s, d['unit'])} destroyed around {_name(s, d['character'])}, who fights on "
            f"alone at {where}." + _why("CHAR.ALONE"))


TEMPLATES: dict[str, Callable[[Mapping[str, Any], State | None], str | None]] = {
    "CombatJoined": lambda d, s: f"{', '.join(_name(s, u) for u in d['units'])} join combat "
                                 f"{d['combat']}" + (" (charging down a hill)" if d.get("hill")
                                                     else "")
                                 + (f", which takes in combat {', '.join(d['merged'])}"
                                    if d.get("merged") else "") + ": a multiple combat."
                                 + _why("CH.CHARGE_MOVE" if d.get("reason") == "charge"
                                        else "FP.FRESH_ENEMY", "CR.BOOKKEEPING"),
    "AttacksAllocated": _allocated,
    "OrderChosen": _order,
    "FleeDirectionChosen": lambda d, s: (
        f"{_does(s, d['unit'], 'flee')} from {_name(s, d['away_from'])}, chosen by a die "
        f"({d['faces'][0]}) among {', '.join(_name(s, u) for u in d['among'])}, equal in "
        "ranks five wide.") + _why("FP.FLEE_DIRECTION"),
    "GameStarted": lambda d, s: f"Game {d['game_id']} begins ({d['preset']}, "
                                f"{d['dice']} dice, undo {d['undo']}).",
    "TurnBegan": lambda d, s: f"Game turn {d['turn']}: {d['player']} play." + _why("TURN.ORDER"),
    "PhaseChanged": _phase,
    "ChargeDeclared": lambda d, s: f"{_does(s, d['unit'], 'declare')} a charge against "
                                   f"{_name(s, d['target'])} (into its {d.get('side') or 'front'})."
                                   + _why("CH.DECLARE"),
    "ChargeReacted": lambda d, s: f"{_does(s, d['unit'], d['reaction'].replace('_', ' '))}."
                                  + _why("CH.REACT"),
    "ChargeRedirected": _redirected,
    "DiceRolled": lambda d, s: f"Rolled {d['purpose'].replace('_', ' ')} for "
                               f"{_name(s, d['unit'])}: {' '.join(map(str, d['faces']))}.",
    "ChargeRolled": _charge_rolled,
    "UnitFled": _fled,
    "UnitMoved": _moved,
    "UnitCaught": lambda d, s: f"{_does(s, d['unit'], 'are')} caught by {_name(s, d['by'])} and "
                               f"destroyed{_with(s, d['unit'])}." + _why("FP.CAUGHT"),
    "UnitDestroyed": lambda d, s: None if d["reason"].startswith("caught") else
                                  f"{_does(s, d['unit'], 'are')} destroyed ({d['reason']})"
                                  f"{_with(s, d['unit'])}."
                                  + _why("ATK.CASUALTIES" if d["reason"] == "slain" else
                                         "FP.OFF_TABLE" if "table" in d["reason"] else
                                         "FP.CAUGHT"),
    "UnitLeftTable": lambda d, s: f"{_does(s, d['unit'], 'pursue')} off the table at "
                                  f"({d['point'][0]:.1f}, {d['point'][1]:.1f})."
                                  + _why("FP.OFF_TABLE"),
    "UnitReturned": lambda d, s: f"{_does(s, d['unit'], 'return')} to the table."
                                 + _why("FP.OFF_TABLE"),
    "UnitReformed": lambda d, s: f"{_name(s, d['unit'])} {d.get('how') or 'reform'}."
                                 + _why("REF.PLACEMENT", "REF.CONTACT"),
    "ReformOrderChosen": lambda d, s: f"{d['first']} reform first." + _why("REF.ORDER"),
    "ReformSkipped": lambda d, s: f"{_does(s, d['unit'], 'do')} not reform: {d.get('why')}."
                                  + _why("REF.WHO"),
    "DangerousTerrainTested": lambda d, s: (
        f"{_does(s, d['unit'], 'flee')} through {_name(s, d['through'])}: dangerous terrain, "
        f"rolled {' '.join(map(str, d['faces']))}: {d['slain']} lost.") + _why("FP.FLEE_THROUGH"),
    "CharacterJoined": lambda d, s: f"{_does(s, d['character'], 'join')} {_name(s, d['unit'])},"
                                    " standing in its front rank." + _why("CHAR.JOIN"),
    "CharacterLeft": _left,
    "UnitRallied": lambda d, s: f"{_does(s, d['unit'], 'rally')}." + _why("RALLY.TEST"),
    "CombatBegan": lambda d, s: f"Combat {d['combat']}: "
                                f"{' against '.join(_name(s, u) for u in d['units'])}"
                                + (" (charging down a hill)" if d.get("hill") else "") + "."
                                + (" (set up in contact)" if d.get("reason") == "scenario"
                                   else _why("CH.CHARGE_MOVE" if d.get("reason") == "charge"
                                             else "FP.FRESH_ENEMY")),
    "CombatEnded": lambda d, s: f"Combat {d['combat']} is over: {d['reason']}."
                                + _why("CR.NO_MORE_FOES"),
    "CombatRoundBegan": lambda d, s: f"Combat {d['combat']}, round {d['round']}."
                                     + _why("CC.ORDER"),
    "ChallengeIssued": _challenge,
    "ChallengeAnswered": lambda d, s: _does(s, d["unit"], "accept" if d["accepted"]
                                            else "refuse") + " the challenge."
                                      + _why("CC.CHALLENGE"),
    "AttacksResolved": _attacks,
    "CombatResultDecided": _result,
    "BreakTestTaken": _break,
    "LeadershipTested": _ld,
    "PanicCaused": lambda d, s: f"Panic: {d['reason']}; "
                                f"{', '.join(_name(s, u) for u in d['units'])} must test."
                                + _why("PANIC.TRIGGERS"),
    "PursuitDeclared": _declared_pursuit,
    "PursuitRolled": _pursuit,
}


def sentence(type_: str, data: Mapping[str, Any], state: State | None = None) -> str | None:
    """The event as a sentence citing its rules, or None for bookkeeping events."""
    template = TEMPLATES.get(type_)
    return kernel_sentence(type_, data) if template is None else template(data, state)
