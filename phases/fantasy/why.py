"""Why things happened, as codes (``core.reasons``): each field's closed set of reasons, the
English a game begun before engine 0.10.0 wrote for each, and how narration tells it."""

from __future__ import annotations

from typing import Any

from regiment.core.i18n import mark
from regiment.core.reasons import Code, Reason, Reasons, in_codes, in_fields, plain

from .state import State

# ChargeRolled.why: why a charge that had the range did not reach (CH.CHARGE_MOVE, GEO.SIGHT)
CHARGE_FAILED = Reasons(
    Code("target_gone", "{target} is gone", mark("{target} is gone")),
    Code("no_room_beside", "there is no room left on {target}'s {side}",
         mark("there is no room left on {target}'s {side}")),
    Code("wheel_too_far", "it would have to wheel more than 90 degrees to reach its {side}",
         mark("it would have to wheel more than 90 degrees to reach its {side}")),
    Code("off_table", "there is no room on the table", mark("there is no room on the table")),
    # table mode: the players found no room (phases.fantasy.table.room)
    Code("no_room_measured", "there is no room to reach {target}'s {side}",
         mark("there is no room to reach {target}'s {side}")),
    Code("impassable", "impassable terrain is in the way",
         mark("impassable terrain is in the way")),
    Code("in_the_way", "{unit} is in the way", mark("{unit} is in the way")),
    pieces=("unit", "target"),
    rule="CH.CHARGE_MOVE", rules={"impassable": "GEO.SIGHT"},
)

# BreakTestTaken.why: why the test takes no penalty, or why a unit is not steadfast
BREAK_TEST = Reasons(
    Code("disrupted", "disrupted by {enemy} in its {side}",      # BT.DISRUPTED
         mark("disrupted by {enemy} in its {side}")),
    Code("more_ranks", "{mine} full ranks against {theirs}",     # BT.STEADFAST
         mark("{mine} full ranks against {theirs}")),
    Code("stubborn", "stubborn ({rules})", mark("stubborn ({rules})")),   # BT.SPECIAL
    pieces=("enemy",),
    rules={"disrupted": "BT.DISRUPTED", "more_ranks": "BT.STEADFAST",
           "stubborn": "BT.SPECIAL"},
)

# UnitDestroyed.reason
DESTROYED = Reasons(
    Code("slain", "slain", mark("slain")),                        # ATK.CASUALTIES
    Code("caught", "caught", mark("caught")),                     # FP.CAUGHT
    Code("caught_fleeing", "caught fleeing", mark("caught fleeing")),   # CH.CATCH_FLEEING
    Code("fled_off_table", "fled off the table", mark("fled off the table")),  # FP.OFF_TABLE
    Code("dangerous_terrain", "dangerous terrain", mark("dangerous terrain")),
    pieces=(),
    rules={"slain": "ATK.CASUALTIES", "caught": "FP.CAUGHT",
           "caught_fleeing": "CH.CATCH_FLEEING", "fled_off_table": "FP.OFF_TABLE",
           "dangerous_terrain": "FP.FLEE_THROUGH"},
)

# UnitReformed.how (REF.WHO, REF.PLACEMENT)
REFORMED = Reasons(
    Code("face", "turn to face {unit}", mark("turn to face {unit}")),
    Code("turn", "turn {degrees} degrees", mark("turn {degrees} degrees")),
    Code("files", "reform {files} wide", mark("reform {files} wide")),
    pieces=("unit",),
    rule="REF.WHO",
)

# ReformSkipped.why (REF.WHO, REF.TEST)
REFORM_SKIPPED = Reasons(
    Code("none_open", "no reform is open to it", mark("no reform is open to it")),
    Code("no_longer_open", "that reform is no longer open",
         mark("that reform is no longer open")),
    Code("test_failed", "it failed its reform test", mark("it failed its reform test")),
    Code("declined", "its player chose not to", mark("its player chose not to")),
    Code("no_room", "there is no room for that reform", mark("there is no room for that reform")),
    pieces=(),
    rule="REF.WHO", rules={"test_failed": "REF.TEST", "no_room": "REF.PLACEMENT"},
)

# CombatEnded.reason (CR.NO_MORE_FOES)
COMBAT_ENDED = Reasons(
    Code("no_foes", "one side has no unit left fighting",
         mark("one side has no unit left fighting")),
    pieces=(),
    rule="CR.NO_MORE_FOES",
)

# PanicCaused.reason (PANIC.TRIGGERS)
PANIC = Reasons(
    Code("destroyed_near", "{unit} was destroyed within 6\"",
         mark("{unit} was destroyed within 6\"")),
    Code("broke_near", "{unit} broke within 6\"", mark("{unit} broke within 6\"")),
    Code("shot", "{unit} lost a quarter of its models to shooting",
         mark("{unit} lost a quarter of its models to shooting")),
    pieces=("unit",),
    rule="PANIC.TRIGGERS",
)

# CommandWithdrawn.why: what a measurement at the table ruled out (CHAR.JOIN, CHAR.LEAVE)
WITHDRAWN = Reasons(
    Code("beyond_movement", "{unit} is {distance}\" away, beyond its Movement ({m}\")",
         mark("{unit} is {distance}\" away, beyond its Movement ({m}\")")),
    Code("no_room_to_leave", "there is no room for {unit} to stand clear of {host}",
         mark("there is no room for {unit} to stand clear of {host}")),
    # SHOOT.WHO: what the tape or the eye says against a shot
    Code("out_of_arc", "{target} is not in {unit}'s front arc",
         mark("{target} is not in {unit}'s front arc")),
    Code("out_of_sight", "{unit} cannot see {target}", mark("{unit} cannot see {target}")),
    Code("out_of_range", "{target} is {distance}\" away, beyond the {reach}\" of {unit}'s "
         "{weapon}", mark("{target} is {distance}\" away, beyond the {reach}\" of {unit}'s "
                          "{weapon}")),
    pieces=("unit", "host", "target"),
    rules={"beyond_movement": "CHAR.JOIN", "no_room_to_leave": "CHAR.LEAVE",
           "out_of_arc": "SHOOT.WHO", "out_of_sight": "GEO.SIGHT",
           "out_of_range": "SHOOT.WHO"},
)


# UnitMoved.reason: the kind of move, with the rule that moved it
MOVED = plain("GEO.MOVE", "forward", "march", "back", "sideways", "reform", "charge",
              "failed_charge", "close_up", "flee", "rally", "pursuit", "overrun",
              rules={"forward": "MOVE.FORWARD", "march": "MOVE.MARCH", "back": "MOVE.BACK",
                     "sideways": "MOVE.BACK", "reform": "MOVE.REFORM",
                     "charge": "CH.CHARGE_MOVE", "failed_charge": "CH.FAILED",
                     "close_up": "CC.CLOSE_UP", "flee": "FP.FLEE_DIRECTION",
                     "rally": "RALLY.TEST", "pursuit": "FP.PURSUE_MOVE",
                     "overrun": "FP.OVERRUN"})

# CombatBegan.reason, CombatJoined.reason: how the units came into contact
ENGAGED = plain("CH.CHARGE_MOVE", "charge", "pursue", "overrun", "scenario",
                rules={"pursue": "FP.FRESH_ENEMY", "overrun": "FP.OVERRUN",
                       "scenario": "CR.BOOKKEEPING"})

# CharacterLeft.reason: it left its unit, or its unit was destroyed around it
LEFT = plain("CHAR.LEAVE", "left", "alone", rules={"alone": "CHAR.ALONE"})


def written(reasons: Reasons, state: State, code: str, **params: Any) -> Reason:
    """A reason: its code, its rule, its parameters (a game begun by an older engine writes
    it as that engine did: ``core.reasons.in_fields``)."""
    return reasons.make(code, **params)


# the events whose fields hold these reasons (version 1 held an English sentence, a code
# without its rule, or "")
in_fields("ChargeRolled", 2, why=CHARGE_FAILED)
in_fields("BreakTestTaken", 2, why=BREAK_TEST)
in_fields("UnitDestroyed", 2, reason=DESTROYED)
in_fields("UnitReformed", 2, how=REFORMED)
in_fields("ReformSkipped", 2, why=REFORM_SKIPPED)
in_fields("CombatEnded", 2, reason=COMBAT_ENDED)
in_fields("PanicCaused", 2, reason=PANIC)
in_codes("UnitMoved", 2, reason=MOVED)
in_codes("CombatBegan", 2, missing={"reason": "charge"}, reason=ENGAGED)
in_codes("CombatJoined", 2, missing={"reason": "charge"}, reason=ENGAGED)
in_codes("CharacterLeft", 2, missing={"reason": "left"}, reason=LEFT)
