"""Builders for rule tests: units placed in contact on a chosen side, games on manual dice,
and a way to answer each roll by its purpose."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from regiment.core.commands import Roll
from regiment.core.dice import ManualDice
from regiment.core.errors import IllegalCommand
from regiment.core.events import Event
from regiment.core.game import Game
from regiment.core.geometry import MM_PER_INCH
from regiment.core.scenario import parse_scenario
from regiment.store import MemoryStore

PROFILE = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}
# The preset the rule tests play under; conftest runs each rule test under every fantasy
# preset where the presets agree (tests marked ``only`` name the one they are about).
PRESET = "fantasy8"


def unit(uid: str, player: str, x: float = 36.0, y: float = 20.0, facing: float = 0.0,
         **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": uid, "player": player, "position": [x, y], "facing": facing}
    if "catalogue" not in extra:
        base.update({"name": uid.title(), "models": 20, "files": 5, "base": [20, 20],
                     "profile": dict(PROFILE)})
    base.update(extra)
    if "profile" in extra and "catalogue" not in extra:
        base["profile"] = {**PROFILE, **extra["profile"]}
    return base


def size(u: dict[str, Any]) -> tuple[float, float]:
    files = u.get("files", 5)
    ranks = -(-u.get("models", 20) // files)
    b = u.get("base", [20, 20])
    return files * b[0] / MM_PER_INCH, ranks * b[1] / MM_PER_INCH


def against(target: dict[str, Any], attacker: dict[str, Any], side: str = "front"
            ) -> dict[str, Any]:
    """``attacker`` placed with its front flush against ``side`` of ``target`` (which faces 0
    with its front edge centred where its position says)."""
    tx, ty = target["position"]
    w, d = size(target)
    place = {"front": ((tx, ty), 180.0), "rear": ((tx, ty - d), 0.0),
             "right": ((tx + w / 2, ty - d / 2), 270.0), "left": ((tx - w / 2, ty - d / 2), 90.0)}
    (x, y), facing = place[side]
    return {**attacker, "position": [x, y], "facing": facing}


def scenario(units: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"preset": PRESET, "first": "red", "dice": "manual", "undo": "solo",
                            "turns": 3, "players": [{"id": "red"}, {"id": "blue"}],
                            "units": units}
    data.update(top)
    return parse_scenario(copy.deepcopy(data))


def game(units: list[dict[str, Any]], **top: Any) -> Game:
    sc = scenario(units, **top)
    dice = ManualDice() if sc["dice"] == "manual" else None
    return Game.new(sc, store=MemoryStore(), dice=dice)


def old_game(units: list[dict[str, Any]], engine: str = "0.8.0", **top: Any) -> Game:
    """A game as an earlier engine began it: played under that engine's rulings
    (LOG.RULINGS), as verify re-derives its log."""
    from regiment.core.events import GameStarted

    sc = scenario(units, **top)
    dice = ManualDice()
    started = GameStarted(game_id="old", scenario=sc, preset=sc["preset"],
                          engine_version=engine, dice_commitment=dice.commitment(),
                          dice=dice.kind, undo=sc.get("undo", "free"))
    return Game.new(sc, store=MemoryStore(), dice=dice, started=started)


def refused(g: Game, send: Callable[..., Any], **fields: Any) -> Any:
    """The refusal ``send(g, **fields)`` meets (an ``IllegalCommand``), which must change
    nothing: the log is as long as before."""
    before = len(g.records)
    with pytest.raises(IllegalCommand) as err:
        send(g, **fields)
    assert len(g.records) == before
    return err.value


def answer(g: Game, script: dict[str, Iterable[tuple[int, ...]]] | None = None,
           default: int | None = None, stop: str | None = None) -> list[Event]:
    """Make every pending roll, taking faces for each purpose from ``script`` in order (or
    ``default`` for every die), until the game waits for a decision (or a ``stop`` purpose)."""
    queues = {k: list(v) for k, v in (script or {}).items()}
    out: list[Event] = split_first(g)
    while g.pending.kind == "roll":
        p = g.pending
        if p.purpose == stop:
            break
        if queues.get(p.purpose):
            faces = tuple(queues[p.purpose].pop(0))[:p.dice]
            if len(faces) < p.dice and default is not None:   # the rest: the default
                faces += (default,) * (p.dice - len(faces))
        elif default is not None:
            faces = (default,) * p.dice
        else:
            raise AssertionError(f"no faces scripted for a {p.purpose} roll of {p.dice} dice "
                                 f"for {p.unit}")
        assert len(faces) == p.dice, (p.purpose, p.dice, faces)
        out += g.submit(Roll(by=p.player, faces=tuple(faces)))
        out += split_first(g)
    return out


def split_first(g: Game) -> list[Event]:
    """CC.ALLOCATE: while a model touching several enemies waits to split its attacks, take
    the first split offered (all to the first enemy): the helpers roll through a round."""
    out: list[Event] = []
    while g.pending.kind == "decision" and g.pending.decision == "allocate":
        out += g.submit(g.pending.legal[0])
    return out


def fight(g: Game, combat: str | None = None) -> list[Event]:
    """The active player fights a combat (the first waiting), declining any challenge."""
    p = g.pending
    cmd = next(c for c in p.legal if c.name == "fight" and (combat is None or
                                                             c.combat == combat))
    out = g.submit(cmd)
    while g.pending.kind == "decision" and g.pending.decision == "challenge":
        out += g.submit({"cmd": "decline_challenge", "by": g.pending.player})
    return out


def of(events: Iterable[Event], type_: str) -> list[Any]:
    return [e for e in events if e.type == type_]


def one(events: Iterable[Event], type_: str) -> Any:
    found = of(events, type_)
    assert len(found) == 1, f"{len(found)} {type_} events"
    return found[0]


def finish(g: Game, default: int = 1) -> list[Event]:
    """Roll ``default`` for everything and skip reforms, until the game wants anything else."""
    out: list[Event] = []
    while True:
        p = g.pending
        if p.kind == "roll":
            out += answer(g, default=default)
        elif p.kind == "decision" and p.decision == "reform":
            out += g.submit(next(c for c in p.legal if c.name == "skip_reform"))
        elif p.kind == "decision" and p.decision == "reform_order":
            out += g.submit(p.legal[0])
        else:
            return out


def declare(g: Game, unit: str, target: str, reaction: str = "hold",
            flee: tuple[int, ...] | None = None, by: str = "red", foe: str = "blue"
            ) -> list[Event]:
    """``unit`` declares a charge at ``target``, which reacts (and flees ``flee`` if so)."""
    out = g.submit({"cmd": "declare_charge", "by": by, "unit": unit, "target": target})
    out += g.submit({"cmd": "react", "by": foe, "unit": target, "reaction": reaction})
    if flee is not None:
        out += answer(g, {"flee": [flee]})
    return out


def charge(g: Game, unit: str, faces: tuple[int, ...], by: str = "red") -> list[Event]:
    """End the declarations and move ``unit``, rolling ``faces`` for its range."""
    out = g.submit({"cmd": "end_charges", "by": by})
    out += g.submit({"cmd": "move_charger", "by": by, "unit": unit})
    return out + answer(g, {"charge_range": [faces]})


def next_turn(g: Game) -> None:
    """End the phases that are left of the active player's turn."""
    player = g.state.player
    while g.state.player == player:
        g.submit({"cmd": "end_phase", "by": player})


def reform_first(g: Game, player: str | None = None) -> None:
    """Answer the active player's choice of who reforms first, if it is asked."""
    p = g.pending
    if p.kind == "decision" and p.decision == "reform_order":
        g.submit(next(c for c in p.legal if c.first == (player or p.player)))


def blows(g: Game, hits: dict[str, int], wounds: dict[str, int] | None = None,
          stop: str | None = "break_test") -> list[Event]:
    """Roll a round's attack dice unit by unit: ``hits[u]`` of ``u``'s to-hit dice show 6,
    the rest 1 (units not named roll all 1s); likewise ``wounds`` for the to-wound dice (all
    6s when not named). Other rolls stop it (or ``stop``)."""
    out: list[Event] = split_first(g)
    left_hits, left_wounds = dict(hits), dict(wounds or {})
    while g.pending.kind == "roll" and g.pending.purpose in ("to_hit", "to_wound"):
        p = g.pending
        left = left_hits if p.purpose == "to_hit" else left_wounds
        uid = p.unit or ""
        n = left.get(uid, 0 if p.purpose == "to_hit" else p.dice)
        six = min(n, p.dice)
        if uid in left:
            left[uid] = n - six
        out += g.submit(Roll(by=p.player, faces=(6,) * six + (1,) * (p.dice - six)))
        out += split_first(g)
    if stop is not None and g.pending.kind == "roll" and g.pending.purpose != stop:
        out += answer(g, default=1, stop=stop)
    return out
