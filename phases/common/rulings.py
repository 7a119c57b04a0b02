"""The engine version a game was begun under, as rulebooks read it to apply the rulings of
that engine (``phases.fantasy.rulings``, ``phases.skirmish.rulings``): a log written before a
fix re-derives the outcome it recorded, and every game begun since gets the fix."""

from __future__ import annotations

from regiment.core.version import ENGINE_VERSION

Version = tuple[int, int, int]


def _parse(text: str) -> Version | None:
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


CURRENT: Version = _parse(ENGINE_VERSION) or (0, 0, 0)


def version(text: str) -> Version:
    """``"0.4.0"`` -> (0, 4, 0); an empty or unreadable version is this engine's (a playout)."""
    return _parse(text) or CURRENT
