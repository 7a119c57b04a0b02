"""The ``regiment`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import structlog
from rich.console import Console

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.errors import BadRequest, RegimentError, TamperedLog
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore, open_store

from . import logs
from .source import open_records

DEFAULT_STORE = "regiment.db"
log = structlog.get_logger("regiment.cli")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logs.configure(args.verbose, args.log_json)
    try:
        if args.command in ("odds", "simulate"):
            return int(args.run(args, console()) or 0)
        return int(args.run(args) or 0)
    except RegimentError as exc:
        print(f"regiment {args.command}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="regiment", description="A turn engine for rank-and-file "
                                "fantasy wargames: every roll logged, undo, replay, verify.")
    p.add_argument("-v", "--verbose", action="count", default=0, help="log more (to stderr)")
    p.add_argument("--log-json", action="store_true", help="log as JSON lines")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("demo", help="play the bundled battle with two bots and show the log")
    s.add_argument("--store", default="regiment-demo.db", help="store path (default %(default)s)")
    s.add_argument("--seed", default=None, help="hex seed for the dice (random if absent)")
    s.set_defaults(run=_demo)

    s = sub.add_parser("play", help="run the turn for players at a table: decisions, real "
                       "or seeded dice, undo, explanations")
    s.add_argument("scenario", nargs="?", help="scenario TOML file (not with --resume)")
    s.add_argument("--dice", choices=("seeded", "manual"),
                   help="manual: you roll real dice and type the faces (default: the "
                   "scenario's)")
    s.add_argument("--seed", help="hex seed for seeded dice")
    s.add_argument("--store", default=DEFAULT_STORE, help="store path (default %(default)s)")
    s.add_argument("--resume", metavar="GAME", help="take up a saved game again")
    s.set_defaults(run=_play)

    s = sub.add_parser("serve", help="speak the JSON-lines protocol on stdin/stdout")
    s.add_argument("scenario", help="scenario TOML file")
    s.add_argument("--dice", choices=("seeded", "manual", "scripted"))
    s.add_argument("--seed", help="hex seed for seeded dice")
    s.add_argument("--store", help="store path (.db/.sqlite: SQLite; else a log directory); "
                   "default: in memory")
    s.set_defaults(run=_serve)

    from .chances import add_parsers

    add_parsers(sub)

    s = sub.add_parser("record", help="a game as a record of its moves, to mail and import")
    rec = s.add_subparsers(dest="action", required=True)
    r = rec.add_parser("export", help="write a game's record (JSON lines: header, moves, end)")
    r.add_argument("path", help="a store or an exported .jsonl log")
    r.add_argument("--game", help="game id (default: the store's most recent game)")
    r.add_argument("-o", "--output", help="file to write (default: stdout)")
    r.set_defaults(run=_record_export)
    r = rec.add_parser("import", help="play a record again and store the game it makes")
    r.add_argument("record", help="a record file (from regiment record export)")
    r.add_argument("--store", default=DEFAULT_STORE, help="store path (default %(default)s)")
    r.set_defaults(run=_record_import)

    for name, helptext, run in (
        ("replay", "tell a game step by step, each outcome with its rules", _replay),
        ("inspect", "print a game's log as a table", _inspect),
        ("export", "write a game's records as JSON lines", _export),
        ("verify", "check a log's hash chain, outcomes and (with --seed) dice", _verify),
    ):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("path", help="a store (.db/.sqlite or log directory) or an exported "
                       ".jsonl file")
        s.add_argument("--game", help="game id (default: the store's most recent game)")
        s.set_defaults(run=run)
        if name == "export":
            s.add_argument("-o", "--output", help="file to write (default: stdout)")
        if name == "verify":
            s.add_argument("--seed", help="the revealed dice seed (hex) to check every roll")
        if name in ("inspect", "verify", "replay"):
            s.add_argument("--json", action="store_true", help="machine-readable output")
        if name == "replay":
            s.add_argument("--html", metavar="OUT.html",
                           help="write one self-contained page to step through the game")
    return p


def _serve(args: argparse.Namespace) -> int:
    from .serve import serve

    scenario = load_scenario(args.scenario)
    if args.dice:
        scenario["dice"] = args.dice
    if args.seed:
        scenario["seed"] = args.seed
    store = open_store(args.store) if args.store else MemoryStore()
    game = Game.new(scenario, store=store)
    log.info("game_created", game_id=game.game_id, preset=game.preset.name,
             dice=game.dice.kind if game.dice else "none", store=args.store or "memory")
    return serve(game, sys.stdin, sys.stdout, game.records)


def _play(args: argparse.Namespace) -> int:
    from .play import Session

    if bool(args.scenario) == bool(args.resume):
        print("regiment play: name a scenario to start a game, or --resume GAME to take one "
              "up again (not both)", file=sys.stderr)
        return 2
    if args.resume:
        if not Path(args.store).exists():
            raise BadRequest(f"no store at {args.store}")
        store = open_store(args.store)
        if args.resume not in store.games():
            raise BadRequest(f"{args.store} has no game {args.resume!r}; it holds: "
                             f"{', '.join(store.games()[-5:]) or 'none'}")
        game = Game.load(args.resume, store)
    else:
        scenario = load_scenario(args.scenario)
        if args.dice:
            scenario["dice"] = args.dice
        if args.seed:
            scenario["seed"] = args.seed
        game = Game.new(scenario, store=open_store(args.store))
    con = Console(soft_wrap=False, highlight=False)
    return Session(game, con, con.input, args.store).run()


def _inspect(args: argparse.Namespace) -> int:
    from .inspect import print_table

    game_id, records, store = open_records(args.path, args.game)
    game = Game.from_records(records, store=store)
    status = game.timeline.status()
    if args.json:
        for r in records:
            print(json.dumps({**r.to_json(), "branch": status[r.step]}))
        return 0
    title = (f"game {game_id}: {len(records)} records, {len(status)} steps, "
             f"phase {game.state.phase}")
    print_table(records, status, title, console())
    return 0


def _replay(args: argparse.Namespace) -> int:
    from .replay import print_replay

    _, records, store = open_records(args.path, args.game)
    if args.html:
        from .html import page

        Path(args.html).write_text(page(records), encoding="utf-8")
        print(f"wrote {args.html}: {len(records)} records; open it in a browser (it needs no "
              "network)")
        return 0
    game = Game.from_records(records, store=store)
    print_replay(game, records, console(), args.json)
    return 0


def _export(args: argparse.Namespace) -> int:
    game_id, records, _ = open_records(args.path, args.game)
    lines = [json.dumps(r.to_json(), separators=(",", ":")) for r in records]
    _write(args.output, lines, f"{len(records)} records of game {game_id}")
    return 0


def _record_export(args: argparse.Namespace) -> int:
    from .record import export_record

    game_id, records, store = open_records(args.path, args.game)
    seed = store.get_secret(game_id) if store is not None else None
    lines = list(export_record(records, seed))
    _write(args.output, lines, f"the record of game {game_id} ({len(lines) - 2} moves)")
    return 0


def _write(path: str | None, lines: list[str], what: str) -> None:
    """Lines to a file (saying so on stderr) or to stdout."""
    out = open(path, "w", encoding="utf-8") if path else sys.stdout  # noqa: SIM115
    try:
        out.write("".join(line + "\n" for line in lines))
    finally:
        if path:
            out.close()
    if path:
        print(f"wrote {what} to {path}", file=sys.stderr)


def _record_import(args: argparse.Namespace) -> int:
    from .record import import_record

    try:
        handle = open(args.record, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        print(f"regiment record import: cannot read {args.record}: {exc.strerror}",
              file=sys.stderr)
        return 2
    with handle:
        game = import_record(handle, open_store(args.store))
    print(f"imported game {game.game_id}: {len(game.records)} records, the same log and hashes "
          f"as the record says; phase {game.state.phase}")
    print(f"  regiment replay {args.store} --game {game.game_id}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from .verify import verify

    game_id, records, _ = open_records(args.path, args.game)
    seed = bytes.fromhex(args.seed) if args.seed else None
    try:
        report = verify(records, seed)
    except TamperedLog as exc:
        if args.json:
            print(json.dumps({"game": game_id, "ok": False, "seq": exc.seq, "error": exc.reason}))
        else:
            print(f"game {game_id}: FAILED at record {exc.seq}: {exc.reason}")
        return 1
    if args.json:
        print(json.dumps({"game": game_id, "ok": True, "records": report.records,
                          "steps": report.steps, "dice": report.dice,
                          "seed_checked": report.seed_checked}))
    else:
        seed_note = ("every die matches the revealed seed" if report.seed_checked
                     else "dice not checked against a seed (pass --seed)")
        print(f"game {game_id}: OK: {report.records} records, {report.steps} steps, hash chain "
              f"intact, every outcome re-derived; {report.dice} dice, {seed_note}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(Path(args.store), args.seed, console())


def console() -> Console:
    """A terminal's own width; 120 columns when the output goes to a file or a pipe."""
    return Console(soft_wrap=True, width=None if sys.stdout.isatty() else 120)


if __name__ == "__main__":
    raise SystemExit(main())
