"""The game server's HTTP answers, as types (docs/server.md, docs/play.md): part of the
protocol's one definition (``core.wire``), published in its schema."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from .wire import Head, Pending, Receipt, SharedView


class Created(TypedDict):
    """``POST /games`` (a scenario, or ``?battle=NAME``): the game, a token a seat (the
    bot's seats have none), its undo policy, the spectators' link, and notes."""

    id: str
    seats: dict[str, str]
    undo: Literal["consent", "free", "off", "solo"]
    dice: NotRequired[Literal["shared", "seeded", "manual", "scripted"]]
    spectate: str
    notes: list[str]


class Standing(TypedDict):
    """``GET /games/{id}?token=T``: where the game stands, as the token's seat sees it."""

    id: str
    preset: str
    records: int
    state: dict[str, Any]
    over: bool
    pending: Pending
    head: Head
    receipt: Receipt
    seed: NotRequired[str | None]
    shared: NotRequired[SharedView]
    seat: str


class Held(TypedDict):
    """One game of ``GET /games?token=T``: the seat the token holds in it."""

    id: str
    seat: str
    records: int
    over: bool
    pending: Pending


class Mine(TypedDict):
    games: list[Held]


class Battle(TypedDict):
    """A bundled battle the lobby offers (``GET /battles``)."""

    name: str
    title: str
    players: list[str]
    preset: str


class Battles(TypedDict):
    battles: list[Battle]


HTTP = (Created, Standing, Mine, Battles)
