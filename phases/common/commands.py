"""The commands both rulebooks have: one class for each name, since a command's name is what
the wire and the log carry (``core.commands.COMMANDS`` maps a name to one class), and each
rulebook reads the fields it needs."""

from __future__ import annotations

from typing import Any

from regiment.core.commands import Command, command


@command("shoot")
class Shoot(Command):
    """SHOOT.WHO, SK.SHOOT: ``unit`` shoots at ``target`` in the shooting phase (once a
    turn)."""

    by: str
    unit: str
    target: str


@command("move")
class Move(Command):
    """MOVE.*, SK.MOVE: a unit's move.

    Fantasy (MOVE.*): ``kind`` is forward (with wheels and turns), march, back, sideways or
    reform; ``path`` its legs, as ``[["forward", 3], ["wheel", -20], ["forward", 2]]``
    (inches; wheels and turns in degrees, clockwise positive; sideways to the right when
    positive), or instead ``x``, ``y`` and ``facing``: where its front centre ends, and the
    engine finds the path. A reform is ``files`` wide, facing ``facing``, with a path after it
    for a unit with a musician.

    Skirmish (SK.MOVE): ``path`` gives each model's end point in the squad's order
    (``[[x, y], ...]``), or ``x`` and ``y`` where its first model ends, the others keeping
    their places about it.

    In table mode the players make the move."""

    by: str
    unit: str
    kind: str = "forward"
    path: tuple[tuple[Any, ...], ...] = ()
    x: float | None = None
    y: float | None = None
    facing: float | None = None
    files: int = 0
