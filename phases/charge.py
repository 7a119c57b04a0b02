"""The charge sub-phase's rule functions (fantasy presets): small, pure, each citing its rule.

This is the skeleton the kernel issue ships: declarations, hold and flee reactions, and the
charge range roll against the distance between the two footprints. Visibility, stand and
shoot, redirects, charge moves and failed-charge moves arrive with the charge rules.
"""

from __future__ import annotations

from regiment.core.geometry import distance, footprint, unit_size
from regiment.core.state import GameState, UnitState

MOVABLE = ("ready",)


def why_cannot_charge(state: GameState, unit: UnitState) -> str | None:
    """CH.DECLARE: a unit declares one charge a turn, if it is neither engaged nor fleeing."""
    if unit.player != state.player:
        return f"{unit.name} is not the active player's unit"
    if unit.status not in MOVABLE:
        return f"{unit.name} is {unit.status}"
    if unit.declared is not None:
        return f"{unit.name} already declared a charge this turn"
    return None


def why_not_target(state: GameState, unit: UnitState, target: UnitState) -> str | None:
    """CH.DECLARE: the target must be an enemy unit still on the table."""
    if target.player == unit.player:
        return f"{target.name} is not an enemy unit"
    if target.status in ("destroyed", "off_table"):
        return f"{target.name} is {target.status}"
    return None


def reactions(unit: UnitState) -> list[str]:
    """CH.REACT: an engaged unit may only hold; a fleeing unit must flee; Immune to Psychology
    may not flee."""
    if unit.status == "fleeing":
        return ["flee"]
    if unit.status == "engaged":
        return ["hold"]
    options = ["hold"]
    if "immune_to_psychology" not in unit.rules:
        options.append("flee")
    return options


def movement_dice(unit: UnitState) -> int:
    """CH.RANGE, FP.FLEE_ROLL: 2D6, or 3D6 dropping the lowest with Swiftstride."""
    return 3 if "swiftstride" in unit.rules else 2


def counted(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The faces that count: the highest two (Swiftstride rolls three and drops the lowest)."""
    return tuple(sorted(faces, reverse=True)[:2])


def charge_range(unit: UnitState, faces: tuple[int, ...]) -> float:
    """CH.RANGE: the charge range is the dice (see ``counted``) plus the charger's Movement."""
    return float(sum(counted(faces)) + unit.profile["M"])


def gap(a: UnitState, b: UnitState) -> float:
    """GEO.DISTANCE between two units' footprints, to 1/10000 inch (what the log records)."""
    pa = footprint(a.position, a.facing, *unit_size(a.models, a.files, a.base))
    pb = footprint(b.position, b.facing, *unit_size(b.models, b.files, b.base))
    return round(distance(pa, pb), 4)
