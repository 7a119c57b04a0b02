"""The story of the movement phase (SK.MOVE)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regiment.core.i18n import tr

from ..state import SkirmishState
from ..telling import name_of

D = Mapping[str, Any]


def _moved(d: D, s: SkirmishState) -> str:
    unit, gone = name_of(s, d["unit"]), format(d["distance"], ".1f")
    if d["models"] is None:
        return tr("{unit} moves on the table, its farthest model {gone}\" (SK.MOVE).",
                  unit=unit, gone=gone)
    return tr("{unit} moves, its farthest model {gone}\", in coherency and more than 1\" from "
              "every enemy (SK.MOVE; SK.COHERENCY).", unit=unit, gone=gone)


def _rolled(d: D, s: SkirmishState) -> str:
    return tr("{unit} rolls {faces} for difficult terrain: its models may go {most}\" this "
              "turn (SK.MOVE).", unit=name_of(s, d["unit"]),
              faces=" ".join(map(str, d["faces"])), most=d["most"])


SENTENCES: dict[str, Callable[[D, SkirmishState], str | None]] = {
    "SquadMoved": _moved, "DifficultTerrainRolled": _rolled}
