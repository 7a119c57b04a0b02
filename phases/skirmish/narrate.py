"""The skirmish game's events told as sentences, each citing the rule IDs that decided it (the
tools narrate every game through ``Preset.sentence``), and what an awaited roll needs."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from regiment.core.tell import kernel_sentence

from .attacks import save, to_wound
from .state import SkirmishState

S = SkirmishState
Data = Mapping[str, Any]

STAGES = {"hit": ("to hit", "hit", "SK.TO_HIT"), "wound": ("to wound", "wound", "SK.TO_WOUND"),
          "save": ("to save", "save", "SK.SAVE")}


def _name(state: S, uid: str | None) -> str:
    s = state.squads.get(uid or "")
    return s.name if s is not None else str(uid)


def _whose(state: S, uid: str | None) -> str:
    name = _name(state, uid)
    return name + ("'" if name.endswith("s") else "'s")


def _faces(faces: Any) -> str:
    return " ".join(str(f) for f in faces) or "none"


def _n(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _shot(d: Data, s: S) -> str:
    return (f"{_name(s, d['unit'])} shoots at {_name(s, d['target'])}: "
            f"{_n(d['shots'], 'shot')}, hitting on {d['need']}+ (SK.SHOOT).")


def _declared(d: Data, s: S) -> str:
    second = f" and {_name(s, d['secondary'])}: a disordered charge, no +1 attack" \
        if d["secondary"] else ""
    fire = ", ".join(_name(s, u) for u in d["overwatch"]) or "none of them"
    return (f"{_name(s, d['unit'])} declares an assault on {_name(s, d['primary'])}{second} "
            f"(SK.DECLARE); may fire overwatch: {fire} (SK.OVERWATCH).")


def _overwatch(d: Data, s: S) -> str:
    if not d["fire"]:
        return f"{_name(s, d['unit'])} holds its overwatch (SK.OVERWATCH)."
    return (f"{_name(s, d['unit'])} fires overwatch at {_name(s, d['against'])}: "
            f"{_n(d['shots'], 'snap shot')}, hitting on 6s only (SK.OVERWATCH).")


def _volley(d: Data, s: S) -> str | None:
    return None if d["dice"] else (f"{_whose(s, d['unit'])} attacks on "
                                   f"{_name(s, d['target'])} are lost: no model of it is left "
                                   "(SK.ALLOCATE).")


def _rolled(d: Data, s: S) -> str:
    what, done, rule = STAGES[d["stage"]]
    who = _name(s, d["target"] if d["stage"] == "save" else d["unit"])
    text = (f"{who} rolls {_n(len(d['faces']), 'die', 'dice')} {what} "
            f"({d['need']}+): {_faces(d['faces'])}, {_n(d['successes'], done)} ({rule}).")
    if d["stage"] == "hit" and d["successes"] and not d["then"]:
        text += f" {_name(s, d['target'])} cannot be wounded by them (SK.TO_WOUND)."
    if d["stage"] == "wound" and d["successes"] and not d["then"]:
        text += " No save is allowed against them (SK.SAVE)."
    return text


def _wounds(d: Data, s: S) -> str:
    gone = len(d["removed"])
    text = (f"{_name(s, d['unit'])} takes {_n(d['wounds'], 'unsaved wound')} from "
            f"{_name(s, d['by'])}: {_n(gone, 'model')} removed, the nearest the enemy first "
            "(SK.CASUALTIES)")
    if d["lost"]:
        text += (f"; {_n(d['lost'], 'wound')} lost with no model left to take "
                 f"{'it' if d['lost'] == 1 else 'them'}, never carried to another squad "
                 "(SK.ALLOCATE)")
    return text + "."


def _charge(d: Data, s: S) -> str:
    who = _name(s, d["unit"])
    if not d["faces"]:
        return f"{_whose(s, d['unit'])} assault ends: {d['reason']} (SK.CHARGE_MOVE)."
    rolled = f"{who} rolls {_faces(d['faces'])} for its charge range ({sum(d['faces'])}\")"
    if not d["reached"]:
        return f"{rolled}: the charge fails, {d['reason']}; no model moves (SK.CHARGE_MOVE)."
    text = (f"{rolled}: its first model reaches the target ({d['gap']:.1f}\" away) and the "
            "squad charges in (SK.CHARGE_MOVE)")
    if d["difficult"]:
        text += (", through difficult terrain: it strikes at Initiative 1 this turn"
                 if d["slowed"] else ", through difficult terrain, at no cost to its "
                 "Initiative: its enemy has been locked since an earlier turn") + " (SK.TERRAIN)"
    return text + "."


MOVES = {"charge": None, "pile_in": "piles in toward the enemy (SK.CONSOLIDATE)",
         "consolidate": None, "fall_back": None}


def _moved(d: Data, s: S) -> str | None:
    text = MOVES.get(d["reason"])
    return f"{_name(s, d['unit'])} {text}." if text else None


def _joined(d: Data, s: S) -> str:
    return (f"{', '.join(_name(s, u) for u in d['units'])} are locked in combat "
            f"{d['combat']} (SK.ENGAGED).")


def _struck(d: Data, s: S) -> str | None:
    parts = [f"{_name(s, x['unit'])} {_n(x['attacks'], 'attack')} on {_name(s, x['target'])}"
             for x in d["strikes"]]
    parts += [f"{_name(s, p['unit'])} {_n(p['attacks'], 'attack')} to split among "
              f"{' and '.join(_name(s, t) for t in p['among'])}" for p in d["pools"]]
    if not parts:
        return None
    return (f"Initiative step {d['step']}: {'; '.join(parts)} (SK.ENGAGED: the models in base "
            "contact and those within 2\" of them; SK.ALLOCATE).")


def _split(d: Data, s: S) -> str:
    shares = ", ".join(f"{n} on {_name(s, t)}" for t, n in d["split"].items())
    return f"{_name(s, d['unit'])} splits its attacks before rolling: {shares} (SK.ALLOCATE)."


def _result(d: Data, s: S) -> str:
    totals = ", ".join(f"{p} {n}" for p, n in d["totals"].items())
    if d["winner"] is None:
        return f"Combat {d['combat']}: unsaved wounds {totals}; a draw (SK.RESULT)."
    losers = ", ".join(_name(s, u) for u in d["losers"]) or "no squad"
    return (f"Combat {d['combat']}: unsaved wounds summed per side, {totals}: {d['winner']} "
            f"wins by {d['penalty']}; {losers} test morale at -{d['penalty']} (SK.RESULT).")


def _morale(d: Data, s: S) -> str:
    need = d["leadership"] - d["penalty"]
    return (f"{_name(s, d['unit'])} tests morale: {_faces(d['faces'])} = {sum(d['faces'])} "
            f"against Ld {d['leadership']} - {d['penalty']} = {need}: "
            f"{'passed' if d['passed'] else 'failed, it falls back'} (SK.RESULT).")


def _sweep_roll(d: Data, s: S) -> str:
    what = "sweeping advance" if d["role"] == "sweep" else "roll to get away"
    return (f"{_whose(s, d['unit'])} {what}: {d['face']} + Initiative {d['initiative']} = "
            f"{d['total']} (SK.SWEEP).")


def _swept(d: Data, s: S) -> str:
    who = _name(s, d["unit"])
    if not d["against"]:
        return f"No winner may sweep {who}: it falls back (SK.SWEEP)."
    vs = ", ".join(f"{_name(s, w)} {t}" for w, t in d["against"].items())
    if d["caught"]:
        return (f"{who} ({d['total']}) is caught by {_name(s, d['by'])} ({vs}: equal or "
                "higher) and destroyed (SK.SWEEP).")
    return f"{who} ({d['total']}) gets away from {vs} (SK.SWEEP)."


def _fell_back(d: Data, s: S) -> str:
    where = "off the table" if d["off_table"] else "straight away from the enemy"
    return (f"{_name(s, d['unit'])} falls back {_faces(d['faces'])} = {d['distance']:g}\" "
            f"{where} (SK.FALL_BACK).")


def _consolidated(d: Data, s: S) -> str:
    who = _name(s, d["unit"])
    if not d["toward"]:
        return f"{who} rolls {d['face']} to consolidate and stays where it is (SK.CONSOLIDATE)."
    return (f"{who} consolidates up to {d['face']}\" toward {_name(s, d['toward'])}, into "
            "contact with no new enemy (SK.CONSOLIDATE).")


def _ended(d: Data, s: S) -> str:
    if d["locked"]:
        return (f"Combat {d['combat']} goes on: {', '.join(_name(s, u) for u in d['locked'])} "
                "stay locked into the next turn (SK.CONSOLIDATE).")
    return f"Combat {d['combat']} is over (SK.CONSOLIDATE)."


SENTENCES: dict[str, Callable[[Data, S], str | None]] = {
    "SquadShot": _shot, "AssaultDeclared": _declared, "OverwatchChosen": _overwatch,
    "VolleyBegan": _volley, "VolleyRolled": _rolled, "WoundsTaken": _wounds,
    "AssaultRolled": _charge, "ModelsMoved": _moved, "MeleeJoined": _joined,
    "StepStruck": _struck, "AttacksSplit": _split, "MeleeResult": _result,
    "MoraleTested": _morale, "SweepRolled": _sweep_roll, "SweepResolved": _swept,
    "FellBack": _fell_back, "Consolidated": _consolidated, "FightEnded": _ended,
}


# Where each rule comes from: seed 004's page on multiple assaults (S4), or the general rules
SEED = frozenset({"SK.DECLARE", "SK.OVERWATCH", "SK.CHARGE_MOVE", "SK.TERRAIN", "SK.ALLOCATE",
                  "SK.RESULT", "SK.SWEEP", "SK.CONSOLIDATE", "SK.ENGAGED"})
RULE = re.compile(r"\bSK\.[A-Z][A-Z_]+\b")


def cite(text: str) -> str:
    """Each rule ID in ``text`` with its source: ``SK.SWEEP, S4`` or ``SK.SAVE [G]``."""
    return RULE.sub(lambda m: f"{m.group(0)}, S4" if m.group(0) in SEED
                    else f"{m.group(0)} [G]", text)


def sentence(event_type: str, data: Data, state: S) -> str | None:
    tell = SENTENCES.get(event_type)
    if tell is not None:
        text = tell(data, state)
        return None if text is None else cite(text)
    if event_type in ("FightBegan", "ConsolidationRolled", "TurnBegan"):
        return None
    return kernel_sentence(event_type, data)


def roll_need(state: S) -> str | None:
    """What the awaited roll needs, as the player at the table reads it."""
    aw, v = state.awaiting, state.volley
    if aw is None:
        return None
    if v is not None and aw.purpose in STAGES:
        t = state.squads[v.target]
        rule = STAGES[aw.purpose][2]
        if aw.purpose == "hit":
            follow = to_wound(v.S, t.profile["T"])
            then = f"then {follow}+ wounds" if follow else "but they cannot wound"
            return f"each die {v.need}+ hits, {then} ({rule})"
        if aw.purpose == "wound":
            return f"each die {v.need}+ wounds; save {save(t.profile['Sv'], v.AP)}+ ({rule})"
        return f"each die {v.need}+ saves a wound ({rule})"
    if aw.purpose == "charge":
        return "the sum is the charge range: the first model must reach (SK.CHARGE_MOVE)"
    if aw.purpose == "morale" and state.fight is not None:
        s = state.squads[aw.unit or ""]
        return (f"{s.profile['Ld'] - state.fight.penalty} or less passes "
                f"(Ld {s.profile['Ld']} - {state.fight.penalty}, SK.RESULT)")
    if aw.purpose in ("sweep", "escape"):
        return "the die plus Initiative; the sweeper's equal or higher catches (SK.SWEEP)"
    return None
