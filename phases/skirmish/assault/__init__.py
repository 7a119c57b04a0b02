"""The skirmish game's shooting phase and assault sub-phase (SK.SHOOT, SK.DECLARE,
SK.OVERWATCH, SK.CHARGE_MOVE): its steps (``steps``), its rule functions (``rules``, whose
functions the package gives), its events, their appliers and their sentences."""

from .rules import (
    charge_moves,
    charge_reaches,
    contact_spot,
    declare_problem,
    disordered,
    first_charger,
    gap,
    overwatch_hits,
    through,
)

__all__ = ["charge_moves", "charge_reaches", "contact_spot", "declare_problem", "disordered",
           "first_charger", "gap", "overwatch_hits", "through"]
