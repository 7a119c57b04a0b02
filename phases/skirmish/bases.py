"""A squad's models as round bases: at their positions on a mapped table, or, in table mode
(TABLE.POSITIONS), standing on the players' own table with no position the engine knows."""

from __future__ import annotations

from typing import Any

from regiment.core import geometry as geo


class Unplaced(tuple):  # type: ignore[type-arg]  # stands for any (x, y, r), and refuses
    """A model standing on the players' table: its base's radius, and no position."""

    __slots__ = ()

    def __new__(cls, radius: float) -> Unplaced:
        return super().__new__(cls, (radius,))

    def __getitem__(self, i: Any) -> Any:
        if i == 2:
            return tuple.__getitem__(self, 0)
        raise TypeError("a model in table mode has no position: ask the players "
                        "(TABLE.ASK)")

    def __iter__(self) -> Any:
        raise TypeError("a model in table mode has no position: ask the players (TABLE.ASK)")


def place(u: dict[str, Any]) -> tuple[Any, ...]:
    """A squad's models as the scenario gives them: bases at their positions, or in table
    mode bases with none."""
    radius = float(u["base"]) / geo.MM_PER_INCH / 2
    if u.get("count"):
        return (Unplaced(radius),) * int(u["count"])
    placed: tuple[tuple[float, float, float], ...] = tuple(
        (float(x), float(y), radius) for x, y in u["models"])
    return placed
