"""Where each rule comes from: the seed page it restates, or the general rules ([G])."""

from __future__ import annotations

SOURCES: dict[str, str] = {
    "CH.REDIRECT": "S3 p.26", "CH.MOVE_ORDER": "S3 p.27", "CH.RANGE": "S3 p.27",
    "CH.CHARGE_MOVE": "S3 p.27",
    "ATK.CATEGORIES": "S2 p.60", "ATK.SEQUENCE": "S2 p.60",
    "CR.WINNER": "S1 p.54", "CR.WOUNDS": "S1 p.54", "CR.OVERKILL": "S1 p.54",
    "CR.CHARGE": "S1 p.54", "CR.RANKS": "S1 p.54", "CR.STANDARD": "S1 p.54",
    "CR.BSB": "S1 p.54", "CR.FLANK": "S1 p.54", "CR.REAR": "S1 p.54",
    "CR.HIGH_GROUND": "S0 p.57", "CR.MUSICIAN": "S1 p.54", "CR.NO_MORE_FOES": "S1 p.55",
    "CR.BOOKKEEPING": "S0 p.57",
    "BT.WHO": "S1 p.55", "BT.TEST": "S1 p.55", "BT.STEADFAST": "S1 p.55",
    "BT.DISRUPTED": "S1 p.55",
    "FP.CHOOSE_PURSUIT": "S0 p.60", "FP.CAUGHT": "S0 p.60", "FP.FLEE_DIRECTION": "S0 p.60",
    "FP.FLEE_THROUGH": "S0 p.60", "FP.PURSUE_MOVE": "S0 p.60", "FP.PIVOT_CONTACT": "S2 p.58",
    "FP.OFF_TABLE": "S2 p.57", "FP.MULTI_ORDER": "S0 p.60",
    "REF.WHO": "S2 p.59", "REF.TEST": "S2 p.59", "REF.ORDER": "S2 p.59",
    "REF.PLACEMENT": "S2 p.59", "REF.CONTACT": "S2 p.59",
}


def cite(*rules: str) -> str:
    """``BT.TEST, S1 p.55``: each rule with its source page, or ``[G]`` for general rules."""
    return "; ".join(f"{r}, {SOURCES[r]}" if r in SOURCES else r if r.startswith("TABLE.")
                     else f"{r} [G]" for r in rules)   # TABLE.*: the engine's, no page
