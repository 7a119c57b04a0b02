"""The events of the combat result (CR.*) and the break tests (BT.*)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event


@event("CombatResultDecided", rules=("CR.WINNER",))
class CombatResultDecided(Event):
    combat: str
    sides: dict[str, Any]
    winner: str | None
    margin: int
    musician: str | None = None
    tests: tuple[str, ...] = ()    # the units that must take break tests (BT.WHO)
    no_more_foes: tuple[str, ...] = ()
    unbreakable: tuple[str, ...] = ()   # losers that take no break test (BT.SPECIAL)


@event("BreakTestTaken", v=2, rules=("BT.TEST",), sparse=("why",))
class BreakTestTaken(Event):
    unit: str
    leadership: int
    penalty: int
    steadfast: bool
    faces: tuple[int, ...]
    passed: bool
    needs: int = 0
    insane: bool = False
    why: dict[str, Any] | None = None
    result: tuple[int, ...] = ()    # its side's total and the enemy's
