"""A simple bot that plays either side from ``game.pending``, as an embedding program would."""

from __future__ import annotations

from regiment.core.commands import Command
from regiment.core.game import Game
from regiment.core.pending import Decision
from regiment.phases.charge import gap


def choose(game: Game) -> Command:
    """Charge the nearest enemy within Movement + 7" (the average of 2D6); hold; move on."""
    pending = game.pending
    if not isinstance(pending, Decision):
        raise ValueError(f"the bot only makes decisions, not {pending.kind}")
    legal = list(pending.legal)
    state = game.state
    if pending.decision == "declare_charge":
        best, best_gap = legal[-1], None
        for c in legal:
            if c.name != "declare_charge":
                continue
            unit, target = state.units[c.unit], state.units[c.target]  # type: ignore[attr-defined]
            g = gap(unit, target)
            if g <= unit.profile["M"] + 7 and (best_gap is None or g < best_gap):
                best, best_gap = c, g
        return best
    if pending.decision == "react":
        target = state.units[legal[0].unit]  # type: ignore[attr-defined]
        charger = state.units[state.context["declaring"][0]]
        flee = [c for c in legal if getattr(c, "reaction", "") == "flee"]
        if flee and charger.models >= 2 * target.models:
            return flee[0]
        return legal[0]
    return legal[0]
