"""How the events of the charge sub-phase (CH.*) change the state."""

from __future__ import annotations

from typing import Any

from ..evolve import with_context, with_unit
from ..state import State
from ..values import Reaction
from . import events as ev


def charge_declared(s: State, e: ev.ChargeDeclared) -> State:
    targets = {**s.context.targets, e.unit: (e.target,)}
    s = with_context(s, declaring=(e.unit, e.target), to_move=(*s.context.to_move, e.unit),
                     targets=targets, sides={**s.context.sides, e.unit: e.side})
    return with_unit(s, e.unit, declared=e.target)


def charge_reacted(s: State, e: ev.ChargeReacted) -> State:
    volleys = s.context.volleys
    if e.reaction == "stand_and_shoot":
        volleys = (*volleys, e.unit)
    ctx = s.context.evolve(declaring=None, last=(e.charger, e.unit, e.reaction),
                           volleys=volleys, redirecting=None)
    return with_unit(s.evolve(context=ctx), e.unit, reaction=Reaction(e.reaction))


def side_drawn(s: State, e: ev.SideDrawn) -> State:
    return with_context(s, drawn={**s.context.drawn, (e.unit, e.target): e.side})


def redirect_tested(s: State, e: ev.RedirectTested) -> State:
    """A failed test spends the unit's one redirect of the turn; a pass leaves it to name its
    new target."""
    if e.passed:
        return with_context(s, redirecting=e.unit)
    return with_unit(s, e.unit, redirected=True)


def charge_redirected(s: State, e: ev.ChargeRedirected) -> State:
    s = with_unit(s, e.unit, redirected=True)
    if s.context.redirecting is not None:
        s = with_context(s, redirecting=None)
    if not e.passed:
        return s
    targets = {**s.context.targets, e.unit: (e.from_, e.to)}
    return with_unit(with_context(s, declaring=(e.unit, e.to), targets=targets), e.unit,
                     declared=e.to)


def charge_rolled(s: State, e: ev.ChargeRolled) -> State:
    s = with_context(s, to_move=tuple(u for u in s.context.to_move if u != e.unit))
    return with_unit(s, e.unit, charged=True) if e.success else s


APPLIERS: dict[type[Any], Any] = {
    ev.ChargeDeclared: charge_declared,
    ev.ChargeReacted: charge_reacted,
    ev.SideDrawn: side_drawn,
    ev.RedirectTested: redirect_tested,
    ev.ChargeRedirected: charge_redirected,
    ev.ChargeRolled: charge_rolled,
}
