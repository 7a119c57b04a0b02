"""Which dice count (CH.RANGE): a module of its own, so that the odds need no geometry."""

from __future__ import annotations


def counted(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The faces that count: the highest two (Swiftstride rolls three and drops the lowest)."""
    return tuple(sorted(faces, reverse=True)[:2])
