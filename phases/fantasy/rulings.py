"""Rulings that changed between engine versions, and the version each took effect in.

A game is played, and later verified, under the rulings of the engine that began it (its
``GameStarted.engine_version``): a log written before a fix re-derives the outcome it
recorded, and every game begun since gets the fix. Saved games are sacred; so is the word of
the engine that settled them at the table. Each ruling names the rule ID it corrects.
"""

from __future__ import annotations

from regiment.phases.common.rulings import CURRENT, Version, version

from .state import State

__all__ = ["CURRENT", "RULINGS", "Version", "ruled", "version"]


# ruling -> the first engine version that plays it
RULINGS: dict[str, Version] = {
    # FP.OFF_TABLE: a unit whose whole side meets the table edge at once left at the middle of
    # that side (before: at the first corner found, 2.5" sideways for a 5-wide unit)
    "exit_at_the_middle": (0, 5, 0),
    # GEO.NO_OVERLAP: a pivot in place (a pursuer turning to its quarry, a rallied unit
    # turning to the nearest foe) that would stand on another unit is not made, and a charger
    # catching a fleeing unit stops at any unit in its way (before: both went on, and the
    # unit stood on its neighbour)
    "no_overlap": (0, 5, 0),
    # CC.ONE_ATTACKER: a model touching enemies on two sides attacks once, split as its player
    # says, and a model in contact does not also support (before: it attacked on each side)
    "one_attack_a_model": (0, 5, 0),
    # FP.FLEE_DIRECTION: between enemies equal in ranks, a broken unit flees from the most
    # numerous before a die decides (before: the die alone)
    "flee_from_the_most_numerous": (0, 5, 0),
    # CC.CLOSE_UP: a unit closing up stops at any unit in its way, and the enemies behind it
    # that lose contact close up after it, level after level (before: one level, unchecked)
    "close_up_checked": (0, 5, 0),
    # REF.PLACEMENT: no model moves more than twice its Movement in a reform (before: not
    # measured)
    "reform_within_twice_m": (0, 5, 0),
    # ATK.PARRY: hand weapon and shield give a 6+ parry ward save against close combat attacks
    # from the front (before: +1 armour in close combat, from any side: the 7th edition's)
    "parry_ward": (0, 9, 0),
    # CH.RANGE, FP.PURSUE_ROLL, FP.PURSUE_MOVE: the log keeps the die Swiftstride dropped and
    # the unit a pursuer stopped 1" short of, so that the story can tell them (before: not
    # kept)
    "story_told_whole": (0, 9, 0),
    # CH.REDIRECT (seed 003): the charger takes its Leadership test first, and only on a pass
    # declares the new target (before: the target was named with the attempt)
    "redirect_test_first": (0, 9, 0),
    # CH.CHARGE_MOVE (seed 003): the die for a front split evenly between two of a target's
    # sides is rolled before any charge is declared (before: when that charge was declared)
    "sides_drawn_first": (0, 9, 0),
    # FP.FLEE_THROUGH, FP.FRESH_ENEMY at a table: the unit a flee or pursuit is said to meet is
    # measured, and must be within the move (before: taken as said, however far)
    "meet_measured": (0, 9, 0),
    # CC.ASF, CC.HATRED: a group of attacks that re-rolls its misses names the rule that
    # grants it, and the story cites it (before: only that it re-rolled)
    "reroll_named": (0, 10, 0),
    # MOVE.*: units make their remaining moves (forward, wheel, turn, reform, back, sideways,
    # march); before, the remaining moves were a character's joining or leaving a unit
    "remaining_moves": (0, 12, 0),
    # SHOOT.*: units shoot in the shooting phase (before, the host ended it)
    "shooting": (0, 12, 0),
    # VP.POINTS, VP.WIN: a game played out is won by victory points (before: a draw)
    "victory_points": (0, 12, 0),
    # CH.DECLARE, CHAR.IN_UNIT: a character inside a unit is no target of its own (before: it
    # was offered and could be declared against)
    "no_charge_at_joined": (0, 12, 0),
    # PANIC.TRIGGERS: a quarter of the models lost to shooting in the phase, over all its
    # volleys (before: to one volley)
    "panic_by_phase": (0, 13, 0),
    # VP.POINTS: 100 for the general only when slain, not when it fled off the table
    "general_slain_only": (0, 13, 0),
    # VP.POINTS: a pursuer off the table, coming back (FP.OFF_TABLE), is not lost (before: it
    # scored for the enemy as if it had fled off)
    "pursuer_not_lost": (0, 13, 0),
    # SHOOT.COVER: a target is in cover when half or more of it is hidden by cover from the
    # shooters, behind a wall too (before: half of it had to stand inside the cover)
    "cover_hidden": (0, 13, 0),
    # CH.FAILED: a failed charger wheels to face its target and moves ahead, as a charge
    # would (before: it slid along the bearing to the target, its facing unchanged)
    "failed_charge_wheels": (0, 13, 0),
    # CC.CHALLENGE: no model but its rival attacks a fighter in a challenge (before: rank and
    # file in contact with a lone character fighting one attacked it too)
    "duel_apart": (0, 13, 0),
    # SHOOT.WHO: a unit on a hill shoots with two ranks, and bows that did not move fire in
    # volleys (before: the front rank alone, always)
    "ranks_that_shoot": (0, 13, 0),
    # TABLE.MEASURE, CC.WHO_FIGHTS: the models a charger's players count in contact are
    # bounded by the side they meet as well as by their own frontage (before: their own only)
    "counts_both_sides": (0, 13, 0),
    # VP.POINTS: a game won on points keeps them item by item in its ending (before: the
    # totals alone)
    "points_itemised": (0, 13, 0),
    # CC.WHO_FIGHTS, CC.CLOSE_UP at a table: a unit whose short rear rank was wiped out has
    # the models of its new rear rank touching the enemy behind counted again (before: the
    # old rear rank's count stood, fewer than geometry finds)
    "rear_recounted": (0, 13, 0),
    # MOVE.*: a move's path holds at most 16 legs, none of no length, refused before any
    # geometry runs (before: any number, zero-length ones too; issue 55 row 1)
    "bounded_paths": (0, 13, 0),
    # MOVE.*: a path may use up to 0.01" beyond its allowance (a client's rounding; before:
    # 0.0001")
    "budget_tolerance": (0, 13, 0),
    # SPECIAL.EFFECTS: a test a special rule spares (a panic test) and a weapon's Strength are
    # named in the log with the rule (before: the test was left out unsaid, the Strength was
    # only in the need to wound)
    "effects_named": (0, 14, 0),
}


def ruled(state: State, ruling: str) -> bool:
    """Whether the game in ``state`` is played under ``ruling``."""
    return state.engine >= RULINGS[ruling]
