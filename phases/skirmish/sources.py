"""Where each skirmish rule comes from: seed 004's page on multiple assaults (S4), or the
general rules of the game (``[G]``)."""

from __future__ import annotations

import re

SEED = frozenset({"SK.DECLARE", "SK.OVERWATCH", "SK.CHARGE_MOVE", "SK.TERRAIN", "SK.ALLOCATE",
                  "SK.RESULT", "SK.SWEEP", "SK.CONSOLIDATE", "SK.ENGAGED"})
RULE = re.compile(r"\bSK\.[A-Z][A-Z_]+\b")


def cite(text: str) -> str:
    """Each rule ID in ``text`` with its source: ``SK.SWEEP, S4`` or ``SK.SAVE [G]``."""
    return RULE.sub(lambda m: f"{m.group(0)}, S4" if m.group(0) in SEED
                    else f"{m.group(0)} [G]", text)
