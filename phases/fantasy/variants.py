"""Where the fantasy presets differ (RULES.md section 12, docs/rules.md section 12), as data.

Every rule function that depends on the preset takes a ``Variant``; nothing else in the rules
asks which preset it plays.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    name: str
    flank: tuple[int, int]     # CR.FLANK: without, and with, an attacker with a full rank
    rear: tuple[int, int]      # CR.REAR: the same
    hill_charge: int           # CR.CHARGE: the bonus for charging down a hill
    high_ground: bool          # CR.HIGH_GROUND: +1 for a side on higher ground
    returns_in: str            # FP.OFF_TABLE: the leaf in which off-table pursuers come back


VARIANTS: dict[str, Variant] = {
    "fantasy8": Variant("fantasy8", flank=(1, 2), rear=(2, 3), hill_charge=2,
                        high_ground=False, returns_in="remaining"),
    "fantasy-classic": Variant("fantasy-classic", flank=(1, 1), rear=(2, 2), hill_charge=1,
                               high_ground=True, returns_in="declaration"),
}
