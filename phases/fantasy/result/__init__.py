"""The combat result (CR.*) and the break tests it calls for (BT.*): the steps, the rule
functions (``rules``: also the Leadership test every rule uses, LD.TEST), the events, their
appliers and their sentences."""

from .rules import (
    Part,
    break_penalty,
    decide,
    flank_rear,
    high_ground,
    ld_test,
    rank_bonus,
    side_parts,
    steadfast,
)

__all__ = ["Part", "break_penalty", "decide", "flank_rear", "high_ground", "ld_test",
           "rank_bonus", "side_parts", "steadfast"]
