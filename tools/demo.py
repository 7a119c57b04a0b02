"""``regiment demo`` (``make demo``): a seeded game of the bundled battle on the SQLite store.

Two bots play the skeleton turn; one charge roll is undone and made again to show that an
undo never re-rolls dice; the log is printed as ``regiment inspect`` prints it; the game id,
the seed and the commands that inspect, export and verify the game end the output.
"""

from __future__ import annotations

import secrets
import sys
from importlib.resources import files
from pathlib import Path

import structlog
from rich.console import Console

from regiment.core.game import Game
from regiment.core.pending import Decision
from regiment.core.scenario import parse_scenario
from regiment.store import SqliteStore

from .bot import choose
from .inspect import print_table
from .narrate import sentence


def bundled_scenario() -> dict:
    import tomllib

    text = files("regiment.tools").joinpath("data/skirmish.toml").read_text(encoding="utf-8")
    return parse_scenario(tomllib.loads(text), source="regiment/tools/data/skirmish.toml")


def run_demo(store_path: Path, seed: str | None, console: Console) -> int:
    scenario = bundled_scenario()
    scenario["seed"] = seed or secrets.token_hex(8)
    with SqliteStore(store_path) as store:
        game = Game.new(scenario, store=store)
        structlog.get_logger("regiment.demo").info("game_created", game_id=game.game_id,
                                                   store=str(store_path))
        console.rule(f"[bold]{scenario['name']}[/] - game {game.game_id}")
        console.print("[dim]The rules are the kernel's skeleton: charges are declared, reacted "
                      "to and rolled against the real distance; charge moves and combat come "
                      "next (docs/rules.md).[/]")
        shown = 0
        undo_shown = False
        while not isinstance(game.pending, type(None)) and game.pending.kind != "over":
            pending = game.pending
            if not isinstance(pending, Decision):
                raise RuntimeError(f"seeded dice never pend, got {pending.kind}")
            command = choose(game)
            events = game.submit(command)
            shown = _narrate(console, game, shown)
            if (not undo_shown and command.name == "move_charger"
                    and any(e.type == "DiceRolled" for e in events)):
                undo_shown = True
                faces = [list(e.faces) for e in events if e.type == "DiceRolled"]  # type: ignore[attr-defined]
                game.undo(command.by)
                again = game.submit(command)
                refaces = [list(e.faces) for e in again if e.type == "DiceRolled"]  # type: ignore[attr-defined]
                console.print(f"  [cyan]{command.by} undoes that charge roll and rolls again: "
                              f"{faces} then {refaces}; an undo never re-rolls dice "
                              "[UNDO.DICE][/]")
                shown = len(game.records)
        console.print()
        print_table(game.records, game.timeline.status(),
                    f"regiment inspect {store_path} --game {game.game_id}", console)
        console.print()
        console.print(f"game id: [bold]{game.game_id}[/] ({len(game.records)} records, "
                      f"stored in {store_path})")
        console.print(f"dice seed (reveal it to let anyone check every roll): {scenario['seed']}")
        exe = _executable()
        console.print("inspect, export and verify it with:")
        console.print(f"  {exe} inspect {store_path} --game {game.game_id}")
        console.print(f"  {exe} export {store_path} --game {game.game_id} -o game.jsonl")
        console.print(f"  {exe} verify {store_path} --game {game.game_id} "
                      f"--seed {scenario['seed']}")
    return 0


def _executable() -> str:
    """How this command was called (``.venv/bin/regiment`` under make), so the printed
    commands work when pasted."""
    called = Path(sys.argv[0])
    return str(called) if called.name == "regiment" else "regiment"


def _narrate(console: Console, game: Game, shown: int) -> int:
    state = game.state
    for r in game.records[shown:]:
        text = sentence(r.type, r.data, state)
        if text and r.type != "PhaseChanged":
            console.print(f"  {text}")
    return len(game.records)
