"""Re-rolls to hit that special rules grant in close combat.

A special rule that grants a re-roll is declared once (``specials.py``, where it says the rule
ID it acts in) and has one rule function here, marked ``@grants``: when it holds, the unit
re-rolls its misses, and the log names the rule that granted it (``reroll_by`` in the group of
attacks and in ``AttacksResolved.needs``), which the narration cites. A new one is that
declaration, that function, its test and the sentence that names it.
"""

from __future__ import annotations

from collections.abc import Callable

from regiment.core.i18n import tr

from .specials import ALWAYS_STRIKES_FIRST, HATRED, Special, has
from .state import Fight, UnitState

Grant = Callable[[Fight, UnitState, UnitState], bool]
GRANTS: dict[str, tuple[Special, str, Grant]] = {}   # special rule -> (it, rule ID, when)


def grants(special: Special, rule: str) -> Callable[[Grant], Grant]:
    """Mark ``when`` as the rule function of ``special``'s re-roll (rule ID ``rule``)."""
    if rule not in special.rules:
        raise ValueError(f"{special.name} does not act in {rule}: it says {special.rules}")

    def mark(when: Grant) -> Grant:
        GRANTS[special.name] = (special, rule, when)
        return when

    return mark


@grants(ALWAYS_STRIKES_FIRST, "CC.ASF")
def always_strikes_first(fight: Fight, u: UnitState, foe: UnitState) -> bool:
    """CC.ASF: against a foe of no higher Initiative."""
    return u.profile["I"] >= foe.profile["I"]


@grants(HATRED, "CC.HATRED")
def hatred(fight: Fight, u: UnitState, foe: UnitState) -> bool:
    """CC.HATRED: in the first round of a close combat."""
    return fight.round == 1


def reroll(fight: Fight, u: UnitState, foe: UnitState) -> str:
    """The rule ID that lets ``u`` re-roll its misses against ``foe`` now, or ``""``: the
    first granted, in the order the rules are declared."""
    for special, rule, when in GRANTS.values():
        if has(u, special) and when(fight, u, foe):
            return rule
    return ""


def told(rule: str) -> str:
    """The special rule that grants re-rolls under ``rule``, as the story names it."""
    found = next((s for s, r, _ in GRANTS.values() if r == rule), None)
    return tr(found.told) if found is not None else rule
