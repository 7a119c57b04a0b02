"""The engine version a game was begun under, as rulebooks read it to apply the rulings of
that engine (``phases.fantasy.rulings``, ``phases.skirmish.rulings``): a log written before a
fix re-derives the outcome it recorded, and every game begun since gets the fix."""

from __future__ import annotations

from regiment.core.version import Version, version

CURRENT: Version = version("")

__all__ = ["CURRENT", "Version", "version"]
