"""A registry by name whose entries may be made when first asked for.

The presets and their scenario schemas are registered by name when ``regiment.phases`` is
imported, but a rulebook (its machine, geometry, numpy and shapely) is imported only when a
game of it is made or read: ``regiment odds`` and ``--help`` need none of it, and start in a
fraction of the time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Generic, TypeVar

V = TypeVar("V")


class Registry(MutableMapping[str, V], Generic[V]):
    """A dict of names to values; ``later(name, make)`` registers ``make()``, called once, on
    the first lookup of ``name``."""

    def __init__(self) -> None:
        self._made: dict[str, V] = {}
        self._later: dict[str, Callable[[], V]] = {}

    def later(self, name: str, make: Callable[[], V]) -> None:
        self._made.pop(name, None)
        self._later[name] = make

    def __getitem__(self, name: str) -> V:
        if name not in self._made:
            make = self._later.pop(name)   # KeyError for a name never registered
            self._made[name] = make()
        return self._made[name]

    def __setitem__(self, name: str, value: V) -> None:
        self._later.pop(name, None)
        self._made[name] = value

    def __delitem__(self, name: str) -> None:
        if name in self._later:
            del self._later[name]
        else:
            del self._made[name]

    def __contains__(self, name: object) -> bool:
        return name in self._made or name in self._later

    def __iter__(self) -> Iterator[str]:   # a name is in one of the two dicts, never both
        yield from self._made
        yield from self._later

    def __len__(self) -> int:
        return len(self._made) + len(self._later)

    def load_all(self) -> bool:
        """Make every entry registered for later; whether there was any."""
        waiting = list(self._later)
        for name in waiting:
            self[name]
        return bool(waiting)
