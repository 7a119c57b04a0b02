"""The charge sub-phase (CH.*): its steps (declarations, reactions, redirects; the charge
moves), its rule functions (``rules``, whose functions the package gives), its events, their
appliers and their sentences."""

from .rules import (
    MOVABLE,
    box_gap,
    cannot_charge,
    charge_range,
    eligible_target,
    failed_move,
    flee_move,
    gap,
    in_sight,
    movement_dice,
    nearest_enemy,
    plan_charge,
    reaction_options,
    reactions,
    stand_and_shoot,
    why_cannot_charge,
    why_hidden,
    why_not_target,
)
from .targeting import chargeable, redirect_targets, targets

__all__ = ["MOVABLE", "box_gap", "cannot_charge", "charge_range", "chargeable", "eligible_target",
           "failed_move", "flee_move", "gap", "in_sight", "movement_dice", "nearest_enemy",
           "plan_charge", "reaction_options", "reactions", "redirect_targets",
           "stand_and_shoot", "targets", "why_cannot_charge", "why_hidden", "why_not_target"]
