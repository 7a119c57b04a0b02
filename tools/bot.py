"""The bundled bot, as the tools have always imported it: ``regiment.bot`` is its home."""

from __future__ import annotations

from regiment.bot import choose, play

__all__ = ["choose", "play"]
