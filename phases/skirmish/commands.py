"""The skirmish game's commands: what its players decide. The host ends the shooting, the
assault declarations and the fight with the kernel's ``end_phase``."""

from __future__ import annotations

from regiment.core.commands import Command, command
from regiment.phases.common.commands import Move as Move  # both rulebooks' (one name)
from regiment.phases.common.commands import Shoot as Shoot


@command("declare_assault")
class DeclareAssault(Command):
    """SK.DECLARE: ``unit`` charges ``primary`` and, if named, ``secondary`` (both at once)."""

    by: str
    unit: str
    primary: str
    secondary: str = ""


@command("fire_overwatch")
class FireOverwatch(Command):
    """SK.OVERWATCH: the charged ``unit`` fires snap shots at its charger."""

    by: str
    unit: str


@command("hold_overwatch")
class HoldOverwatch(Command):
    by: str
    unit: str


@command("resolve_combat")
class ResolveCombat(Command):
    """The active player picks the next combat to fight."""

    by: str
    combat: str


@command("split_attacks")
class SplitAttacks(Command):
    """SK.ALLOCATE: attacks of models touching several enemy squads, split before rolling."""

    by: str
    unit: str
    split: dict[str, int]


@command("consolidate")
class Consolidate(Command):
    """SK.CONSOLIDATE: ``unit`` moves its D6 toward the enemy squad ``toward`` (never into
    contact), or stays ("")."""

    by: str
    unit: str
    toward: str = ""
