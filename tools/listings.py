"""``regiment games``, ``regiment scenarios`` and ``regiment catalogue``: what a store holds,
which battles come with regiment, and which units a scenario may name."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from regiment.core.endings import ending_of, legacy_reason
from regiment.core.errors import BadRequest, InvalidScenario
from regiment.core.game import Game
from regiment.phases.fantasy.scenario import catalogue
from regiment.phases.skirmish.scenario import catalogue as squads
from regiment.store import open_store

from .names import meant, resolve
from .receipts import short

# where bundled scenarios live, as installed packages: the example battles, and the demo's
BUNDLED = (("regiment.examples", ""), ("regiment.tools", "data"))


def bundled() -> dict[str, Any]:
    """Bundled scenario names (a file's stem) to their installed files."""
    out: dict[str, Any] = {}
    seen: set[str] = set()   # the demo's battle is also an example: listed once
    for package, folder in BUNDLED:
        root = files(package)
        where = root.joinpath(folder) if folder else root
        for item in sorted(where.iterdir(), key=lambda i: i.name):
            if item.name.endswith(".toml"):
                text = item.read_text(encoding="utf-8")
                if text not in seen:
                    seen.add(text)
                    out.setdefault(item.name.removesuffix(".toml"), item)
    return out


def scenario_path(text: str) -> str | Path:
    """A scenario argument: a TOML file's path, or the name of a bundled scenario."""
    if Path(text).exists() or text.endswith(".toml") or "/" in text:
        return text
    known = bundled()
    name, near = resolve(text, known)
    if name is None:
        raise InvalidScenario(f"no file {text!r}, and no bundled scenario of that name"
                              f"{meant(near)} (bundled: {', '.join(known)}; regiment "
                              "scenarios)")
    return Path(str(known[name]))


def list_scenarios(console: Console) -> int:
    table = Table(title="Bundled scenarios (regiment play NAME, regiment serve NAME)",
                  title_justify="left")
    for col in ("name", "battle", "preset", "units", "turns"):
        table.add_column(col)
    for name, item in bundled().items():
        data = tomllib.loads(item.read_text(encoding="utf-8"))
        table.add_row(name, str(data.get("name", "")), str(data.get("preset", "")),
                      str(len(data.get("units", ()))), str(data.get("turns", "")))
    console.print(table)
    return 0


def list_catalogue(console: Console) -> int:
    table = Table(title=escape("The catalogue: catalogue = \"NAME\" in a scenario's [[units]]"),
                  title_justify="left")
    for col in ("name", "unit", "troop", "M WS BS S T W I A Ld", "save", "equipment, rules"):
        table.add_column(col)
    for key, u in catalogue().items():
        p = u.get("profile", {})
        stats = " ".join(str(p.get(k, "-")) for k in ("M", "WS", "BS", "S", "T", "W", "I", "A",
                                                      "Ld"))
        saves = " ".join(f"{u[k]}+{' ward' if k == 'ward' else ''}" for k in ("armour", "ward")
                         if u.get(k))
        table.add_row(key, u.get("name", ""), u.get("troop", ""), stats, saves or "-",
                      ", ".join((*u.get("equipment", ()), *u.get("rules", ()))))
    console.print(table)
    table = Table(title="The skirmish40k squads (SK.UNITS)", title_justify="left")
    for col in ("name", "squad", "base", "M WS BS S T W I A Ld", "save", "weapons"):
        table.add_column(col)
    for key, u in squads().items():
        p = u["profile"]
        # SK.MOVE: the Movement a profile gives, 6" where it gives none
        stats = " ".join(str(p.get(k, 6)) for k in ("M", "WS", "BS", "S", "T", "W", "I", "A",
                                                    "Ld"))
        arms = ", ".join(f"{w['name']} (S{w['S']}" + (f" AP{w['AP']}" if w.get("AP") else "")
                         + (f", {w['range']:g}\"" if w.get("range") else ", close combat")
                         + ")" for w in u.get("weapons", ()))
        table.add_row(key, u["name"], f"{u['base']} mm", stats, f"{p['Sv']}+", arms or "-")
    console.print(table)
    return 0


def list_games(path: str, console: Console) -> int:
    """Each game in the store, oldest first: where it stands and its head code."""
    if not Path(path).exists():
        raise BadRequest(f"no store at {path}")
    store = open_store(path, readonly=True)
    ids = store.games()
    if not ids:
        console.print(f"{path} holds no game.")
        return 0
    table = Table(title=f"Games in {path} (oldest first)", title_justify="left")
    for col in ("game", "preset", "steps", "records", "stands", "head"):
        table.add_column(col, justify="right" if col in ("steps", "records") else "left")
    for game_id in ids:
        game = Game.load(game_id, store)
        s = game.state
        pieces = getattr(game.preset, "pieces", "pieces")   # the rulebook's word: units, squads
        ended = next((legacy_reason(ending_of(r.data), pieces) for r in reversed(game.records)
                      if r.type == "GameEnded"), "")
        stands = (f"over: {s.winner} won ({ended})" if s.over and s.winner else
                  f"over: no winner ({ended})" if s.over else f"turn {s.turn}, {s.player}")
        table.add_row(game_id, game.preset.name, str(len(game.timeline.steps)),
                      str(len(game.records)), stands, short(game.head))
    console.print(table)
    return 0
