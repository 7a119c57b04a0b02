"""The replay of the ``eventsourcing`` library (issue 29 item 4: ``Game.load`` 10x it), for
``make bench`` to measure beside ``Game.load`` in the same rounds.

An aggregate of ``n`` events, each a phase change of three fields (a phase, a turn and a
player: what most records of the bench's game are), saved by the library's in-memory
recorder (POPO, with its default JSON transcoder: as ``Game.load`` reads a memory store),
with no cache and no snapshots: ``repository.get`` then reconstructs the aggregate from every
stored event, decoding and applying each, which is what the library calls a replay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def eventsourcing_replay(n: int) -> Callable[[], Any] | None:
    """A function that replays an aggregate of ``n`` events with ``eventsourcing``; None when
    the library is not installed (``make bench`` installs it)."""
    try:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
    except ImportError:
        return None

    class Turn(Aggregate):
        def __init__(self, game: str) -> None:
            self.game, self.phase, self.turn, self.player = game, "", 0, ""

        @event("PhaseChanged")
        def change(self, phase: str, turn: int, player: str) -> None:
            self.phase, self.turn, self.player = phase, turn, player

    app: Application[Any] = Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    turn = Turn("bench")
    for i in range(n - 1):   # with the event that made it, n
        turn.change(phase=f"turn.phase{i % 7}", turn=i // 20,
                    player="orcs" if i % 2 else "empire")
        if i % 1000 == 999:
            app.save(turn)
    app.save(turn)
    repository, aggregate_id = app.repository, turn.id

    def replay() -> Any:
        return repository.get(aggregate_id)

    if replay().version != n:   # the library changed how it counts: say so, not a wrong ratio
        raise RuntimeError("eventsourcing replayed a different number of events")
    return replay
