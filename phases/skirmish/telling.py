"""What every sentence of the skirmish story is made with: a squad's name, several names, dice."""

from __future__ import annotations

from typing import Any

from regiment.core.i18n import tr

from .state import SkirmishState

S = SkirmishState


def name_of(state: S, uid: str | None) -> str:
    s = state.squads.get(uid or "")
    return s.name if s is not None else str(uid)


def names_of(state: S, uids: Any, empty: str) -> str:
    return ", ".join(name_of(state, u) for u in uids) or empty


def faces_of(faces: Any) -> str:
    return " ".join(str(f) for f in faces) or tr("none")
