"""What every sentence of the rulebook's story is made with: a unit's name and the number its
verb agrees with, a reason the log holds in the players' words, dice as sums, the rule IDs
cited."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regiment.core.i18n import tr
from regiment.core.reasons import Reasons

from .sources import cite
from .state import State
from .units import side_word

D = Mapping[str, Any]   # an event's data, as the log holds it


def name_of(state: State | None, uid: Any) -> str:
    if state is not None and uid in state.units:
        return state.units[uid].name
    return str(uid)


def names_of(state: State | None, uids: Any, sep: str = ", ") -> str:
    return sep.join(name_of(state, u) for u in uids)


def reason_told(reasons: Reasons, value: Any, state: State | None) -> str:
    """A reason the log holds (a code, or an older log's English) in the players' words."""
    def name(uid: Any) -> str:
        return name_of(state, uid)
    return reasons.tell(value, tr, {"unit": name, "target": name, "enemy": name,
                                    "host": name, "side": side_word})


def single(state: State | None, uid: Any) -> bool:
    """A unit that began the game as one model (a character, a monster, a chariot): the
    sentences speak of it in the singular."""
    return state is not None and uid in state.units and state.units[uid].start_models == 1


def verb_count(state: State | None, uid: Any) -> int:
    """The number a unit's verb agrees with, for ``ntr``: 1 for a single model, else 2 (the
    English "Giant flees" and "Orc Boyz flee"; the Russian singular and plural alike)."""
    return 1 if single(state, uid) else 2


def because(*rules: str) -> str:
    return f" ({cite(*rules)})"


def plus(faces: Any, dropped: Any = ()) -> str:
    """Dice as a sum: ``4+5 = 9``; a die that does not count is shown in brackets and left
    out of the total (``4+5+(3) = 9``)."""
    faces, dropped = list(faces), list(dropped)
    shown = "+".join([*map(str, faces), *(f"({f})" for f in dropped)])
    return f"{shown} = {sum(faces)}" if len(faces) + len(dropped) > 1 else shown


def rolled_sum(faces: tuple[int, ...]) -> str:
    """Dice in the order rolled, the lowest of three (Swiftstride) in brackets and left out
    of the total: ``(3)+4+5 = 9``."""
    if len(faces) <= 2:
        return plus(faces)
    low = faces.index(min(faces))
    shown = "+".join(f"({f})" if i == low else str(f) for i, f in enumerate(faces))
    return f"{shown} = {sum(faces) - faces[low]}"


def swift(dropped: Any, apart: bool = False) -> str:
    """CH.RANGE, FP.FLEE_ROLL, FP.PURSUE_ROLL: the rule that dropped a die (``apart``: in
    brackets of its own)."""
    if not dropped:
        return ""
    return tr(" (Swiftstride: the lowest of three dropped)") if apart else \
        tr(", Swiftstride: the lowest of three dropped")


def fmt(value: Any, spec: str) -> str:
    return format(value, spec)


def with_characters(s: State | None, uid: Any) -> str:
    """CHAR.IN_UNIT: the characters a destroyed unit takes with it."""
    if s is None or uid not in s.units or not s.units[uid].characters:
        return ""
    return tr(", and {characters} with it", characters=names_of(s, s.units[uid].characters))
