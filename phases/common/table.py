"""What every rulebook's table interface shares (TABLE.*): whether a battle is played at a
real table, the question a rule asks there, and a question answered yes or no. Each rulebook
asks its own questions (``phases/fantasy/table.py``, ``phases/skirmish/table.py``); geometry
answers them on a mapped table and tells its answers (``core.measure.tell``) under the key
table mode asks them by."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

from regiment.core import measure
from regiment.core.measure import Question


class Piece(Protocol):
    """What asks a question: a unit or a squad, by its id, for its player."""

    @property
    def id(self) -> str: ...

    @property
    def player(self) -> str: ...


def measured(state: Any) -> bool:
    """TABLE.POSITIONS: a table-mode battle, whose pieces have no positions."""
    return bool(state.table.get("measured"))


def question(state: Any, kind: str, key: str, rule: str, asker: Piece, other: str = "",
             options: tuple[str, ...] = (), most: float = 0.0, extra: float = 0.0
             ) -> Question:
    """A question ``asker``'s player answers; a distance is at most the table's diagonal."""
    diagonal = round(math.hypot(state.table["width"], state.table["depth"]), 1)
    return Question.make(key=key, kind=kind, rule=rule, player=asker.player, unit=asker.id,
                         other=other, options=options, most=most or diagonal, extra=extra)


def yes_no(state: Any, key: str, rule: str, asker: Piece, other: str,
           geometric: Callable[[], bool], extra: float = 0.0) -> bool:
    """A question answered yes or no: asked at a table, else geometry's answer (told)."""
    if measured(state):
        return measure.yes(state, question(state, "yes_no", key, rule, asker, other,
                                           extra=extra))
    answer = geometric()
    if measure.heard:
        measure.tell(key, "yes" if answer else "no")
    return answer
