"""``regiment demo`` (``make demo``): the bundled battle, played end to end on the SQLite store.

Two bots play both sides with seeded dice; the battle is told step by step, every outcome with
the rules that decided it. One charge roll is undone and made again to show that an undo never
re-rolls dice. It ends with the casualties and the commands that replay and verify the game.
"""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regiment.core.game import Game
from regiment.core.i18n import mark, tr
from regiment.core.log import get_logger
from regiment.core.pending import Decision
from regiment.core.protocols import view_of
from regiment.core.record import data_now
from regiment.core.scenario import parse_scenario
from regiment.store import open_store

from .bot import choose
from .receipts import short
from .replay import QUIET, command_text

DEFAULT_SEED = "0004"  # its battle: stand and shoot, a redirect, a challenge, three rounds, routs


def bundled_scenario() -> dict[str, Any]:
    import tomllib

    text = files("regiment.tools").joinpath("data/battle.toml").read_text(encoding="utf-8")
    return parse_scenario(tomllib.loads(text), source="regiment/tools/data/battle.toml")


def play(game: Game, console: Console | None = None, show_undo: bool = True) -> None:
    """Let the bots play ``game`` to its end, telling each step on ``console``."""
    undo_shown = not show_undo
    while game.pending.kind != "over":
        pending = game.pending
        if not isinstance(pending, Decision):
            raise RuntimeError(f"seeded dice never pend, got {pending.kind}")
        command = choose(game)
        start = len(game.records)
        events = game.submit(command)
        if console is not None:
            tell(console, game, start)
        if (not undo_shown and command.name == "move_charger"
                and any(e.type == "DiceRolled" for e in events)):
            undo_shown = True
            faces = [list(e.faces) for e in events if e.type == "DiceRolled"]  # type: ignore[attr-defined]
            game.undo(command.by)
            asked = game.pending
            if isinstance(asked, Decision) and asked.decision == "consent_undo":
                # UNDO.CONSENT: the step rolled dice, so the other seat is asked; its bot agrees
                game.submit({"cmd": "grant_undo", "by": asked.player})
            again = game.submit(command)
            refaces = [list(e.faces) for e in again if e.type == "DiceRolled"]  # type: ignore[attr-defined]
            if console is not None:
                console.print("    [cyan]" + tr(
                    "{player} undoes that charge and makes it again: dice {faces}, then "
                    "{again}: an undo never re-rolls dice (UNDO.DICE, DICE.NO_REROLL)",
                    player=command.by, faces=faces, again=refaces) + "[/]")


def tell(console: Console, game: Game, start: int) -> None:
    """Print what happened from record ``start`` on: the command, then each outcome."""
    state = game.state
    head = game.records[start]
    if head.type == "CommandIssued":
        console.print(f"[bold]{command_text(head)}[/]")
    for r in game.records[start:]:
        if r.type == "TurnBegan":
            console.rule(tr("Game turn {turn}: {player}", turn=r.data["turn"],
                            player=r.data["player"]), style="dim")
            continue
        if r.type in QUIET:
            continue
        text = game.preset.sentence(r.type, data_now(r), state)
        if text:
            console.print(f"    {text}", highlight=False, markup=False)


def losses(game: Game, console: Console) -> None:
    status_words = {"ready": tr("ready"), "destroyed": tr("destroyed"),
                    "off the table": tr("off the table"), "fleeing": tr("fleeing")}
    table = Table(title=tr("How the units ended"), title_justify="left")
    for col in (mark("unit"), mark("player"), mark("models"), mark("left"), mark("status")):
        table.add_column(tr(col))
    view = view_of(game.preset)
    # a unit that fled off the table kept its models but is gone all the same (FP.OFF_TABLE),
    # and is not told as slain: as the rulebook's view says how each unit ended
    by_name = view.names(game.state) if view else {}
    fled = {by_name.get(u, u) for u, end in (view.ends(game.state) if view else {}).items()
            if end == "off the table"}
    for name, player, start, left, status in view.losses(game.state) if view else ():
        if status == "destroyed" and name in fled:
            table.add_row(name, player, str(start), tr("0 ({n} fled)", n=left),
                          tr("fled off the table"))
            continue
        table.add_row(name, player, str(start), str(left), status_words.get(status, status))
    console.print(table)


def run_demo(store_path: Path, seed: str | None, console: Console) -> int:
    scenario = bundled_scenario()
    scenario["seed"] = seed or DEFAULT_SEED
    with open_store(store_path) as store:
        game = Game.new(scenario, store=store)
        get_logger("regiment.demo").info("game_created", game_id=game.game_id,
                                                   store=str(store_path))
        console.rule(f"[bold]{scenario['name']}[/] - " + tr("game {game}", game=game.game_id))
        tell(console, game, 0)
        play(game, console)
        console.print()
        losses(game, console)
        bold_id = "[bold]" + game.game_id + "[/]"
        console.print(tr("game id: {game} ({records} records, {steps} steps, stored in "
                         "{store})", game=bold_id, records=len(game.records),
                         steps=len(game.timeline.steps), store=store_path))
        console.print(tr("dice seed (the game is over, so it may be revealed: anyone can then "
                         "check every roll): {seed}", seed=scenario["seed"]))
        receipt = f"{len(game.timeline.steps) - 1}:{short(game.head)}"
        console.print(tr("head code of the last step (a receipt: a log that lacks it was cut "
                         "or changed): {receipt}", receipt=receipt))
        exe = _executable()
        console.print(tr("replay, verify and export it with:"))
        console.print(f"  {exe} replay {store_path} --game {game.game_id}")
        console.print(f"  {exe} replay {store_path} --game {game.game_id} --html replay.html")
        console.print(f"  {exe} verify {store_path} --game {game.game_id} "
                      f"--seed {scenario['seed']} --head {receipt}")
        console.print(f"  {exe} export {store_path} --game {game.game_id} -o game.jsonl")
    return 0


def _executable() -> str:
    """How this command was called (``.venv/bin/regiment`` under make), so the printed
    commands work when pasted."""
    called = Path(sys.argv[0])
    return str(called) if called.name == "regiment" else "regiment"
