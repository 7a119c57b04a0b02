"""Which dice count (CH.RANGE): a module of its own, so that the odds need no geometry."""

from __future__ import annotations


def counted(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The faces that count: the highest two (Swiftstride rolls three and drops the lowest)."""
    return tuple(sorted(faces, reverse=True)[:2])


def dropped(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The faces that do not count (Swiftstride's lowest of three), in the order rolled."""
    rest = list(faces)
    for f in counted(faces):
        rest.remove(f)
    return tuple(rest)
