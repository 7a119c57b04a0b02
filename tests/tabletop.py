"""Playing a battle twice: once on the table the engine knows (geometry), once in table mode
with the measurements that geometry gives (TABLE.ASK): the same commands and the same dice
must give the same outcomes."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from typing import Any, NamedTuple

from regiment.core import measure
from regiment.core.commands import Command, Measure
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.phases.fantasy.why import CHARGE_FAILED
from regiment.store import MemoryStore
from regiment.tools.bot import choose

from .conftest import EXAMPLES

ONLY_AT_THE_TABLE = {"MeasurementRequested", "Measured", "ContactMeasured"}
WHERE = ("position", "facing", "distance", "point", "stopped")   # what only geometry says


def at_the_table(raw: dict[str, Any]) -> dict[str, Any]:
    """The same battle in table mode (as ``play --table`` makes it): no positions, no map."""
    out = copy.deepcopy(raw)
    out["table"] = {**out.get("table", {}), "measured": True}
    return parse_scenario(out)


def outcomes(game: Game, extra: set[int] = frozenset()  # type: ignore[assignment]
             ) -> list[tuple[str, dict[str, Any]]]:
    """The game's events as the rules decided them, without what only geometry says (where
    units stand, how far they went) or only table mode records: the measurements, and the
    steps of ``extra``, choices that table mode offers where geometry finds none (a redirect
    to another target, a reform with room): the driver declines them."""
    out = []
    for r in game.history:
        data = dict(r.data)
        if r.type in ONLY_AT_THE_TABLE or r.type in ("GameStarted", "ModelsMoved"):
            continue
        if r.type == "CommandIssued" and (data["command"] == "measure" or r.step in extra):
            continue
        if r.type == "ReformOrderChosen" and r.step in extra:
            continue
        if r.type == "PhaseChanged" and r.step in extra and (
                ".charge." in data["phase"] or data["phase"].endswith(".reform")):
            continue   # the sub-phase a declined choice re-enters; not where the game goes on
        if r.type == "ReformSkipped":
            data.pop("why")   # "no reform is open to it" is, at the table, the player's skip
        if r.type == "PhaseChanged" and ".charge." in data["phase"]:
            continue   # a redirect offered and declined puts the charge sub-phases later
        if r.type == "ChargeRolled" and CHARGE_FAILED.read(data.get("why") or "")[
                "code"] == "target_gone":
            data.pop("distance")   # geometry measures to where a destroyed unit stood
        if r.type == "ChargeRolled" and data.get("why"):
            data["why"] = "no room"   # geometry says what is in the way; the players know
        if r.type == "UnitMoved" and data["reason"]["code"] in ("close_up", "rally"):
            continue   # geometry keeps units in contact and turns rallied units to the
            # nearest enemy; at the table the players do
        if r.type == "SquadMoved":   # SK.MOVE: where the models end is on the players' table
            data.pop("models")
        if r.type == "WoundsTaken":   # which models fall: the nearest, as the players see
            data["removed"], data["left"] = len(data["removed"]), sorted(data["left"])
        if r.type in ("UnitMoved", "UnitReturned", "UnitReformed", "UnitLeftTable",
                      "CharacterLeft"):
            data = {k: v for k, v in data.items() if k not in WHERE}
        out.append((r.type, data))
    return out


def declined(pending: Any, state: Any) -> Command | None:
    """What the driver answers to a choice table mode offers and geometry did not: no
    redirect, the usual reform order, no reform."""
    by_name = {c.name: c for c in pending.legal}
    if pending.decision == "redirect":
        return by_name.get("decline_redirect")
    if pending.decision == "reform_order":
        return next(c for c in pending.legal if c.first == state.player)
    if pending.decision == "reform":
        return by_name.get("skip_reform")
    return None


def lockstep(raw: dict[str, Any], limit: int = 2000) -> Played:
    """Play ``raw`` with the bots on geometry, and every command again in table mode,
    answering each measurement as geometry did."""
    clock = lambda: "2026-01-01T00:00:00.000000Z"  # noqa: E731
    known = Game.new(parse_scenario(raw), store=MemoryStore(), game_id="geometry", clock=clock)
    measured = Game.new(at_the_table(raw), store=MemoryStore(), game_id="table", clock=clock)
    answers: dict[str, str] = {}

    def hear(key: str, value: str) -> None:
        answers[key] = value

    played = Played(known, measured, [], set())
    measure.heard.append(hear)
    try:
        for _ in range(limit):
            if known.pending.kind == "over":
                break
            command = choose(known)
            known.submit(command)
            measured.submit(command)
            _answer(played, answers)
    finally:
        measure.heard.remove(hear)
    return played


def until_asked(raw: dict[str, Any], wanted: Callable[[Any], bool], limit: int = 2000
                ) -> Played | None:
    """``lockstep``, stopped as soon as the table-mode game asks a question ``wanted`` picks
    (its pending measurement waits there, unanswered); None if it never asks one."""
    clock = lambda: "2026-01-01T00:00:00.000000Z"  # noqa: E731
    known = Game.new(parse_scenario(raw), store=MemoryStore(), game_id="geometry", clock=clock)
    measured = Game.new(at_the_table(raw), store=MemoryStore(), game_id="table", clock=clock)
    answers: dict[str, str] = {}
    played = Played(known, measured, [], set())
    measure.heard.append(lambda key, value: answers.__setitem__(key, value))
    hear = measure.heard[-1]
    try:
        for _ in range(limit):
            if known.pending.kind == "over":
                return None
            command = choose(known)
            known.submit(command)
            measured.submit(command)
            if _answer(played, answers, wanted):
                return played
    finally:
        measure.heard.remove(hear)
    return None


def _answer(played: Played, answers: dict[str, str],
            stop: Callable[[Any], bool] | None = None) -> bool:
    """Take the measurements the table-mode game asks, as geometry gave them, and decline the
    choices geometry did not offer, until it waits where the geometry game does."""
    known, measured = played.known, played.measured
    while True:
        p: Any = measured.pending
        if p.kind == "measurement" and stop is not None and stop(p):
            return True
        if p.kind == "measurement":
            assert p.question in answers, f"geometry never answered {p.question}"
            played.asked.append((p.question, p.rule, answers[p.question]))
            measured.submit(Measure(by=p.player, value=answers[p.question]))
            continue
        if p.kind != "decision" or _subject(known.pending) == _subject(p):
            return False
        command = declined(p, measured.state)
        if command is None:
            return False
        played.extra.add(len(measured.timeline.steps))
        measured.submit(command)


def _subject(pending: Any) -> tuple[str, str]:
    """What a decision is about: its name, and the unit its first choice names."""
    legal = getattr(pending, "legal", ())
    return getattr(pending, "decision", ""), getattr(legal[0], "unit", "") if legal else ""


class Played(NamedTuple):
    known: Game                            # on geometry
    measured: Game                         # in table mode
    asked: list[tuple[str, str, str]]      # question, rule, answer
    extra: set[int]                        # steps the driver declined a table-only choice in


def example(name: str, preset: str | None = None) -> dict[str, Any]:
    """An example battle as its file has it (not yet validated)."""
    raw = tomllib.loads((EXAMPLES / f"{name}.toml").read_text(encoding="utf-8"))
    raw["seed"] = raw.get("seed") or "60de"
    if preset:
        raw["preset"] = preset
    return raw


def first_difference(a: list[Any], b: list[Any]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"event {i}: geometry {x}\n        table mode {y}"
    return f"lengths {len(a)} and {len(b)}"

