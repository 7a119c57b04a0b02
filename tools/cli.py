"""The ``regiment`` command line."""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from regiment.core.errors import BadRequest, RegimentError, StoreError, TamperedLog
from regiment.core.scenario import HEX
from regiment.core.version import ENGINE_VERSION

from . import logs
from .names import command_name
from .receipts import Receipt, parse_receipt

if TYPE_CHECKING:
    from rich.console import Console

# Each command imports what it uses (the rulebooks, the stores, rich) when it runs: `--help`
# and `odds` start in a fraction of the time the whole library takes to import.
DEFAULT_STORE = "regiment.db"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parse(parser, list(sys.argv[1:] if argv is None else argv))
    if hasattr(args, "store_path"):   # a positional path or --store: one way, said once
        if args.path is not None and args.store_path is not None and \
                args.path != args.store_path:
            parser.error(f"{args.command}: name the store once ({args.path} or --store "
                         f"{args.store_path})")
        given = args.path if args.path is not None else args.store_path
        args.path = given if given is not None else DEFAULT_STORE
    logs.configure(args.verbose, args.log_json)
    try:
        if args.lang != "en":
            from regiment.core.i18n import language

            with language(args.lang):   # for this command only (main may be called again)
                return _run(args)
        return _run(args)
    except RegimentError as exc:   # what went wrong, in words: no class names
        print(f"regiment {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"regiment {args.command}: interrupted; every step made is in the store",
              file=sys.stderr)
        return 130
    except OSError as exc:  # a path that cannot be read or written, a full disk
        what = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror or str(exc)
        where = f" {exc.filename}" if exc.filename else ""
        print(f"regiment {args.command}: cannot use{where}: {what}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, and the traceback only when asked (-v)
        if args.verbose:
            raise
        print(f"regiment {args.command}: internal error ({type(exc).__name__}: {exc}); this "
              "is a bug in regiment: run again with -v for the details, and report it",
              file=sys.stderr)
        return 70


def hex_seed(text: str) -> str:
    """A dice seed as typed on the command line: hex digits, as in a scenario."""
    if not HEX.match(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a hex seed (digits 0-9 and a-f, "
                                         "at most 128)")
    return text


def receipt(text: str) -> Receipt:
    try:
        return parse_receipt(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def warn(command: str, notes: list[str]) -> None:
    for note in notes:
        print(f"regiment {command}: warning: {note}", file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    if args.command in ("odds", "simulate"):
        return int(args.run(args, console()) or 0)
    return int(args.run(args) or 0)


# the options of every command that take a value (to find the command's name after them)
VALUED = ("--lang",)


def parse(parser: Parser, argv: list[str]) -> argparse.Namespace:
    """The command line read as people type it: a command by a unique beginning of its name
    (``scen``), and an option the command does not have answered with its usage and the
    nearest options ("did you mean"), not with the usage of ``regiment`` itself."""
    from .names import meant, resolve

    at = 0
    while at < len(argv) and argv[at].startswith("-"):
        at += 2 if argv[at] in VALUED else 1
    if at < len(argv) and argv[at] not in parser.commands:
        name, _ = resolve(argv[at], parser.commands)
        if name is not None:
            argv = [*argv[:at], name, *argv[at + 1:]]
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = parser.commands.get(getattr(args, "command", ""), parser)
        options = {o.lstrip("-"): o for a in sub._actions    # (argparse has no public
                   for o in a.option_strings if o.startswith("--")}   # list of them)
        near = [options[n] for e in extra if e.startswith("--")
                for n in resolve(e.split("=")[0].lstrip("-"), options)[1][:2]]
        sub.error(f"unrecognized arguments: {' '.join(extra)}{meant(near)}")
    return args


class Parser(argparse.ArgumentParser):
    """argparse, with "did you mean" for a mistyped command or choice (argparse has it from
    Python 3.14 only), and the options every command takes (``-v``, ``--lang``...) accepted
    after the command's name as well as before it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands: dict[str, argparse.ArgumentParser] = {}

    def error(self, message: str) -> NoReturn:
        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:
            from .names import meant, resolve

            names = re.findall(r"'?([\w-]+)'?", m.group(2))
            _, near = resolve(m.group(1), names)
            # the beginning of several names: all of them; a typo: the nearest one
            several = sum(n.startswith(m.group(1)) for n in names) > 1
            message += meant(near if several else near[:1])
        super().error(message)

    def add_subparsers(self, **kwargs: Any) -> Any:
        action = super().add_subparsers(**kwargs)
        add = action.add_parser

        def add_parser(name: str, **kw: Any) -> argparse.ArgumentParser:
            sub = add(name, **kw)
            common(sub, argparse.SUPPRESS)   # (SUPPRESS: not to undo what came before)
            self.commands[name] = sub
            return sub
        # every subcommand gets the common options (argparse has no hook for it)
        action.add_parser = add_parser  # type: ignore[method-assign]
        return action


def common(p: argparse.ArgumentParser, default: Any = None) -> None:
    """The options of every command."""
    top = default is None
    p.add_argument("-v", "--verbose", action="count", default=0 if top else default,
                   help="log more (to stderr)")
    p.add_argument("--log-json", action="store_true", default=False if top else default,
                   help="log as JSON lines")
    p.add_argument("--lang", choices=("en", "ru"), default="en" if top else default,
                   help="the language the engine tells the game in (en, or ru: Russian, the "
                   "language of the rule pages); rule IDs and citations are the same in both")


def store_or_path(s: argparse.ArgumentParser, what: str) -> None:
    """A store named by a positional path or by ``--store``, as every command takes one."""
    s.add_argument("path", nargs="?", default=None, help=f"{what} (default {DEFAULT_STORE})")
    s.add_argument("--store", dest="store_path", metavar="PATH",
                   help="the same, as an option (as play and serve take it)")


def _machine(args: argparse.Namespace) -> int:
    from .machine import diagram

    print(diagram(args.preset), end="")
    return 0


def _schema(args: argparse.Namespace) -> int:
    from .schema import text

    print(text(), end="")
    return 0


def build_parser() -> Parser:
    p = Parser(prog="regiment", description="A turn engine for rank-and-file "
               "fantasy wargames: every roll logged, undo, replay, verify.")
    p.add_argument("--version", action="version", version=f"regiment {ENGINE_VERSION}")
    common(p)
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("demo", help="play the bundled battle with two bots and show the log")
    s.add_argument("--store", default=DEFAULT_STORE, help="store path (default %(default)s)")
    s.add_argument("--seed", type=hex_seed, default=None,
                   help="hex seed for the dice (default: the demo's own, so that every demo "
                   "tells the same battle)")
    s.set_defaults(run=_demo)

    s = sub.add_parser("play", help="run the turn for players at a table: decisions, real "
                       "or seeded dice, undo, explanations")
    s.add_argument("scenario", nargs="?", help="scenario TOML file, or a bundled scenario's "
                   "name (regiment scenarios); not with --resume")
    s.add_argument("--dice", choices=("seeded", "manual"),
                   help="manual: you roll real dice and type the faces (default: the "
                   "scenario's)")
    s.add_argument("--seed", type=hex_seed, help="hex seed for seeded dice (kept secret: "
                   "it goes beside the store, never into the log)")
    s.add_argument("--store", default=DEFAULT_STORE, help="store path (default %(default)s)")
    s.add_argument("--resume", metavar="GAME", help="take up a saved game again")
    s.add_argument("--table", action="store_true", help="table mode: the units stand on "
                   "your table, not at the scenario's positions; the game asks you to measure "
                   "(distances, sides, models in contact) where the rules need it")
    s.add_argument("--auto-skip", action=argparse.BooleanOptionalAction, default=True,
                   help="pass by itself every phase where nothing can be done but pass "
                   "(magic, which is not played; shooting or moving with no one to do it): "
                   "the default; --no-auto-skip stops there too")
    s.add_argument("--bot", action="append", default=[], metavar="PLAYER",
                   help="the bundled bot plays PLAYER's decisions (repeatable); you roll "
                   "and measure for it when the dice are manual or the table is yours")
    s.add_argument("--web", action="store_true", help="play on a page in the browser (the "
                   "board, dragging units, every seat on one device); prints its address")
    s.add_argument("--host", default="127.0.0.1", help="with --web: 0.0.0.0 lets phones on "
                   "the same network open the page (default %(default)s)")
    s.add_argument("--port", type=int, default=8765, help="with --web (default %(default)s)")
    s.set_defaults(run=_play)

    s = sub.add_parser("serve", help="speak the JSON-lines protocol on stdin/stdout")
    s.add_argument("scenario", nargs="?",
                   help="scenario TOML file, or a bundled scenario's name; not with --resume")
    s.add_argument("--resume", metavar="GAME",
                   help="take up a stored game again (a unique beginning of its id will do): "
                   "its first message holds every record it has")
    s.add_argument("--dice", choices=("seeded", "manual", "scripted"))
    s.add_argument("--seed", type=hex_seed, help="hex seed for seeded dice (kept secret)")
    s.add_argument("--store", default=DEFAULT_STORE,
                   help="store path (.db/.sqlite: SQLite; else a log directory; default "
                   "%(default)s); :memory: keeps nothing")
    s.add_argument("--table", action="store_true", help="table mode: the game pends a "
                   "measurement where the rules need one (answer: {\"cmd\": \"measure\", ...})")
    s.set_defaults(run=_serve)

    s = sub.add_parser("server", help="host many games for players apart: seats, signed "
                       "receipts, WebSockets (SQLite on one machine, PostgreSQL on several)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    s.add_argument("--port", type=int, default=8000, help="port (%(default)s)")
    s.add_argument("--store", default=DEFAULT_STORE,
                   help="an SQLite file, or postgresql://... for several server processes "
                   "(default %(default)s)")
    s.add_argument("--key", metavar="FILE",
                   help="the server's Ed25519 signing key, made on first start (mode 600); "
                   "every process of one deployment uses the same (default: server.key in "
                   "$XDG_CONFIG_HOME/regiment, or ~/.config/regiment: outside any checkout)")
    s.add_argument("--games-per-minute", type=float, default=20.0, metavar="N",
                   help="games one client address may make a minute (default %(default)g; 0: "
                   "no limit, for a server behind a front that limits clients itself)")
    s.add_argument("--header-timeout", type=float, default=10.0, metavar="S",
                   help="seconds a request's headers may take to arrive (default %(default)g)")
    s.add_argument("--body-timeout", type=float, default=10.0, metavar="S",
                   help="seconds a scenario's body may take to arrive (default %(default)g)")
    s.add_argument("--idle-timeout", type=float, default=600.0, metavar="S",
                   help="seconds a WebSocket may send nothing before it is closed (default "
                   "%(default)g; a client reconnects, and is sent what it missed)")
    s.add_argument("--forwarded-allow-ips", metavar="ADDRESSES", default="",
                   help="the proxies (comma-separated addresses, or *) whose X-Forwarded-For "
                   "is believed for the client's address; by default none, so a client cannot "
                   "name its own address to escape --games-per-minute")
    s.add_argument("--deflate", action="store_true",
                   help="compress WebSocket messages for clients that ask (per-message "
                   "deflate): a third of the bytes on a slow link, for some 50 KiB of memory "
                   "and CPU a connection; off by default, as a server near its players "
                   "gains nothing from it")
    s.set_defaults(run=_server)

    from .chances import add_parsers, bounded

    add_parsers(sub)

    s = sub.add_parser("games", help="list the games a store holds, and where each stands")
    store_or_path(s, "a store")
    s.set_defaults(run=lambda a: _listing("list_games", a.path))
    s = sub.add_parser("scenarios", help="list the bundled scenarios (play or serve one by "
                       "its name)")
    s.set_defaults(run=lambda a: _listing("list_scenarios"))
    s = sub.add_parser("catalogue", help="list the units a scenario may name by catalogue")
    s.set_defaults(run=lambda a: _listing("list_catalogue"))
    s = sub.add_parser("machine", help="print a preset's turn as a Mermaid state diagram")
    s.add_argument("preset", help="fantasy8, fantasy-classic or skirmish40k")
    s.set_defaults(run=_machine)
    s = sub.add_parser("schema", help="print the protocol's JSON Schema (docs/schema/"
                       "regiment.json): every command, pending decision, query answer, event "
                       "and server message")
    s.set_defaults(run=_schema)

    s = sub.add_parser("record", help="a game as a record of its moves, to mail and import")
    rec = s.add_subparsers(dest="action", required=True)
    r = rec.add_parser("export", help="write a game's record (JSON lines: header, moves, end)")
    store_or_path(r, "a store or an exported .jsonl log")
    r.add_argument("--game", help="game id (default: the store's most recent game)")
    r.add_argument("-o", "--output", help="file to write (default: stdout)")
    r.add_argument("--reveal-seed", action="store_true",
                   help="write the game's dice seed into the record (only once the players "
                   "agree to reveal it: whoever holds it can foresee every die still to come)")
    r.set_defaults(run=_record_export)
    r = rec.add_parser("import", help="play a record again and store the game it makes")
    r.add_argument("record", help="a record file (from regiment record export)")
    r.add_argument("--store", default=DEFAULT_STORE, help="store path (default %(default)s)")
    r.add_argument("--head", type=receipt, action="append", default=[], metavar="[STEP:]CODE",
                   help="a receipt the record must hold (as for verify; repeatable)")
    r.set_defaults(run=_record_import)

    for name, helptext, run in (
        ("replay", "tell a game step by step, each outcome with its rules", _replay),
        ("inspect", "print a game's log as a table", _inspect),
        ("export", "write a game's records as JSON lines", _export),
        ("verify", "check a log's hash chain, outcomes and (with --seed) dice", _verify),
    ):
        s = sub.add_parser(name, help=helptext)
        store_or_path(s, "a store (.db/.sqlite or log directory) or an exported .jsonl file")
        s.add_argument("--game", help="game id (default: the store's most recent game)")
        s.set_defaults(run=run)
        if name == "export":
            s.add_argument("-o", "--output", help="file to write (default: stdout)")
        if name == "verify":
            s.add_argument("--seed", type=hex_seed,
                           help="the revealed dice seed (hex) to check every roll")
            s.add_argument("--head", type=receipt, action="append", default=[],
                           metavar="[STEP:]CODE",
                           help="a receipt: a step's head as serve or play gave it (the "
                           "whole hash or its first 10+ hex digits, optionally after the step "
                           "number); the log must hold it, at that step (repeatable)")
            s.add_argument("--receipts", metavar="FILE",
                           help="signed receipts a game server sent (JSON lines): each "
                           "signature is checked, and the log must hold each head at its step")
            s.add_argument("--key", metavar="HEX",
                           help="the server's public key (GET /key): refuse receipts signed "
                           "by any other")
            s.add_argument("--jobs", "-j", type=bounded(int, 1, 1024, "the number of "
                                                          "processes"), default=None,
                           metavar="N", help="check a long log in N pieces at once, each in "
                           "a process of its own (default: every core; 1: one walk); the "
                           "same answer whatever the number")
        if name in ("inspect", "verify", "replay"):
            s.add_argument("--json", action="store_true", help="machine-readable output")
        if name == "replay":
            s.add_argument("--html", metavar="OUT.html",
                           help="write one self-contained page to step through the game")
    s = sub.add_parser("repair", help="save what can be saved of a damaged log file: a new log "
                       "of every whole step that reads and chains; the damaged file is kept")
    s.add_argument("path", help="a log directory (the log-file store)")
    s.add_argument("--game", required=True, help="the damaged game's id")
    s.set_defaults(run=_repair)
    return p


def _repair(args: argparse.Namespace) -> int:
    from regiment.store import LogFileStore
    from regiment.store.salvage import repair

    if not Path(args.path).is_dir():
        raise BadRequest(f"{args.path}: repair mends a log directory's game files (SQLite has "
                         "its own tools: sqlite3's .recover)")
    with LogFileStore(args.path) as store:
        done = repair(store, args.game)
    print(f"game {args.game}: the damage begins at {done.why}; the new log keeps {done.kept} "
          f"records ({done.steps} whole steps) of the {done.found} that could be read; the "
          f"damaged file is kept as {done.damaged}")
    for why in done.breaks:   # every place the chain broke
        print(f"  {why}")
    if done.lost:
        shown = ", ".join(map(str, done.lost[:20])) + (" ..." if len(done.lost) > 20 else "")
        print(f"  not kept: {len(done.lost)} records (seq {shown}): they could not be proved "
              "this game's")
    print(f"check it against your receipts: {command_name()} verify {args.path} --game "
          f"{args.game} --head STEP:CODE")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from regiment.core.game import Game
    from regiment.core.log import get_logger
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore, open_store

    from . import listings
    from .serve import serve
    from .source import game_named

    if bool(args.scenario) == bool(args.resume):
        raise BadRequest("serve: name a scenario to start a game, or --resume GAME to take one "
                         "up again (not both)")
    memory = args.store == ":memory:"
    if args.resume:
        if memory or not Path(args.store).exists():
            raise BadRequest(f"serve --resume: no store at {args.store} (give --store)")
        if args.table or args.dice or args.seed:
            raise BadRequest("serve --resume: a resumed game keeps its mode and its dice")
        store = open_store(args.store)
        game_id = game_named(store, args.store, args.resume)   # a unique prefix will do
        store.claim(game_id)   # STORE.ONE_WRITER: refused now, not at the first command
        game = Game.load(game_id, store)
        return serve(game, sys.stdin.buffer, sys.stdout, game.records)
    scenario = load_scenario(listings.scenario_path(args.scenario), measured=args.table)
    if args.dice:
        scenario["dice"] = args.dice
    if args.seed:
        scenario["seed"] = args.seed
    store = MemoryStore() if memory else open_store(args.store)
    game = Game.new(scenario, store=store)
    get_logger("regiment.cli").info("game_created", game_id=game.game_id, preset=game.preset.name,
             dice=game.dice.kind if game.dice else "none", store="memory" if memory else args.store)
    claim = getattr(store, "claim", None)
    if claim is not None:
        claim(game.game_id)
    return serve(game, sys.stdin.buffer, sys.stdout, game.records)


def _no_such_bot(bots: list[str], players: list[str]) -> bool:
    """``--bot PLAYER`` names a player of the game; said on stderr when it does not."""
    wrong = [b for b in bots if b not in players]
    if wrong:
        print(f"regiment play: --bot {wrong[0]}: no such player; the players are "
              f"{', '.join(players)}", file=sys.stderr)
    return bool(wrong)


def _play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import open_store

    from . import listings
    from .play import Session
    from .source import game_named, published_note

    if bool(args.scenario) == bool(args.resume):
        print("regiment play: name a scenario to start a game, or --resume GAME to take one "
              "up again (not both)", file=sys.stderr)
        return 2
    if args.web:
        return _play_web(args)
    if args.resume and args.table:
        print("regiment play: --table starts a game in table mode; a resumed game keeps the "
              "mode it began in", file=sys.stderr)
        return 2
    if args.resume:
        if not Path(args.store).exists():
            raise BadRequest(f"no store at {args.store}")
        store = open_store(args.store)
        resume = game_named(store, args.store, args.resume)   # a unique prefix will do
        store.claim(resume)   # STORE.ONE_WRITER: refused now, not at the first move
        game = Game.load(resume, store)
        warn("play", [n for n in (published_note(game.records[:1]),) if n])
    else:
        scenario = load_scenario(listings.scenario_path(args.scenario), measured=args.table)
        if args.dice:
            scenario["dice"] = args.dice
        if args.seed:
            scenario["seed"] = args.seed
        if _no_such_bot(args.bot, [p["id"] for p in scenario["players"]]):
            return 2
        game = Game.new(scenario, store=open_store(args.store))
    if _no_such_bot(args.bot, list(game.state.players)):
        return 2
    con = Console(soft_wrap=False, highlight=False)
    return Session(game, con, con.input, args.store, args.auto_skip, tuple(args.bot)).run()


def _inspect(args: argparse.Namespace) -> int:
    from regiment.core.game import Game

    from .inspect import print_table
    from .source import open_records

    notes: list[str] = []
    game_id, records, store = open_records(args.path, args.game, notes)
    warn("inspect", notes)
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
    from regiment.store.codec import decode_view

    from .replay import print_replay
    from .source import open_game, open_records

    notes: list[str] = []
    if args.html:
        from .html import page

        _, records, _ = open_records(args.path, args.game, notes)
        warn("replay", notes)
        Path(args.html).write_text(page(records), encoding="utf-8")
        print(f"wrote {args.html}: {len(records)} records; open it in a browser (it needs no "
              "network)")
        return 0
    game = open_game(args.path, args.game, notes)
    warn("replay", notes)
    # the story needs each record's step, type and data: its bytes, checked by the load,
    # are read for those alone (--json gives whole records)
    rows = game.records if args.json else game.records.views(decode_view)
    print_replay(game, rows, console(), args.json)
    return 0


def _export(args: argparse.Namespace) -> int:
    from .source import export_lines, open_records

    notes: list[str] = []
    game_id, records, _ = open_records(args.path, args.game, notes)
    warn("export", notes)
    lines = export_lines(records)
    _write(args.output, lines, f"{len(records)} records of game {game_id}")
    return 0


def _record_export(args: argparse.Namespace) -> int:
    from .record import export_record
    from .source import open_records

    notes: list[str] = []
    game_id, records, store = open_records(args.path, args.game, notes)
    warn("record export", notes)
    seed = None
    if args.reveal_seed:
        seed = store.get_secret(game_id) if store is not None else None
        if seed is None:
            raise BadRequest(f"{args.path} does not hold the dice seed of game {game_id} "
                             "(only the store the game was played on does)")
    lines = list(export_record(records, seed))
    revealed = ("; it REVEALS the dice seed: whoever holds it can foresee every die still "
                "to come" if seed is not None else "; the dice seed stays secret")
    _write(args.output, lines, f"the record of game {game_id} ({len(lines) - 2} moves"
           f"{revealed})")
    return 0


def _write(path: str | None, lines: list[str], what: str) -> None:
    """Lines to a file (saying so on stderr) or to stdout. A file is written whole or not
    at all: a full disk leaves no half export behind to be mistaken for a cut one."""
    text = "".join(line + "\n" for line in lines)
    if not path:
        sys.stdout.write(text)
        return
    target = Path(path)
    if target.is_dir() or not target.name:
        raise BadRequest(f"{path} is a directory: name the file to write")
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        why = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror or str(exc)
        raise StoreError(f"cannot write {path}: {why}; nothing was written") from None
    print(f"wrote {what} to {path}", file=sys.stderr)


def _record_import(args: argparse.Namespace) -> int:
    from regiment.store import open_store

    from .record import MAX_LINE, import_record
    from .serve import bounded_lines

    try:
        handle = open(args.record, "rb")  # noqa: SIM115 - closed below; lines checked as UTF-8
    except OSError as exc:
        print(f"regiment record import: cannot read {args.record}: {exc.strerror}",
              file=sys.stderr)
        return 2
    with handle:
        game = import_record(bounded_lines(handle, MAX_LINE), lambda: open_store(args.store),
                             args.head)
    print(f"imported game {game.game_id}: {len(game.records)} records, the same log and hashes "
          f"as the record says; phase {game.state.phase}")
    print(f"  {command_name()} replay {args.store} --game {game.game_id}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from regiment.core.dice import seed_bytes
    from regiment.store import MemoryStore

    from .simulate import default_jobs
    from .source import open_records
    from .verify import verify

    notes: list[str] = []
    game_id, records, store = open_records(args.path, args.game, notes)
    warn("verify", notes)
    seed = seed_bytes(args.seed) if args.seed else None
    if seed is None and isinstance(store, MemoryStore):
        seed = store.get_secret(game_id)   # a record whose players revealed the seed
    from .progress import progress

    steps = records[-1].step + 1
    try:
        heads = list(args.head) + (_signed_receipts(args.receipts, args.key, game_id)
                                   if args.receipts else [])
        jobs = args.jobs or default_jobs()
        with progress("verifying", steps) as advance:
            report = verify(records, seed, heads, advance, jobs)
    except TamperedLog as exc:
        if args.json:
            print(json.dumps({"game": game_id, "ok": False, "seq": exc.seq, "error": exc.reason}))
        else:
            at = f" at record {exc.seq}" if exc.seq is not None else ""
            print(f"game {game_id}: FAILED{at}: {exc.reason}")
        return 1
    if args.json:
        print(json.dumps({"game": game_id, "ok": True, "records": report.records,
                          "steps": report.steps, "dice": report.dice,
                          "seed_checked": report.seed_checked, "seed": report.seed,
                          "receipts": report.receipts, "head": records[-1].hash.hex(),
                          "warnings": notes}))
    else:
        seed_note = {"given": "every die matches the revealed seed",
                     "published": "every die matches the seed published in the log",
                     "": "dice not checked against a seed (pass --seed)"}[report.seed]
        if records[0].data.get("dice") == "manual":   # real dice: no seed to reveal
            seed_note = "dice rolled by hand (there is no seed to check them against)"
        held = (f"; {report.receipts} receipt{'s' if report.receipts > 1 else ''} held"
                if report.receipts else "; no receipt given (--head), so a cut tail or a "
                "fork would not show")
        print(f"game {game_id}: OK: {report.records} records, {report.steps} steps, hash chain "
              f"intact, every outcome re-derived; {report.dice} dice, {seed_note}{held}; "
              f"head {records[-1].hash.hex()[:10]}")
    return 0


def _server(args: argparse.Namespace) -> int:
    try:
        from .server import run_server
    except ImportError as exc:
        raise BadRequest(f"the server needs its libraries ({exc.name} is missing): pip install "
                         "'regiment[server]'") from None
    from regiment.store import open_store

    for name, least in (("games_per_minute", 0.0), ("header_timeout", 0.1),
                        ("body_timeout", 0.1), ("idle_timeout", 0.1)):
        value = getattr(args, name)
        if not least <= value < 1e6:   # NaN too
            raise BadRequest(f"--{name.replace('_', '-')} {value}: give a number from {least:g}")
    store = open_store(args.store, grouped=True)
    if not hasattr(store, "put_seats"):
        raise BadRequest(f"{args.store}: the server keeps its games in SQLite (.db) or "
                         "PostgreSQL (postgresql://...), not in a log directory")
    return run_server(store, _key_path(args.key), args.host, args.port, args.games_per_minute,
                      args.header_timeout, args.body_timeout, args.deflate,
                      idle=args.idle_timeout, proxies=args.forwarded_allow_ips)


def _play_web(args: argparse.Namespace) -> int:
    from . import listings
    from .web.table import play_on_the_web

    if args.resume:
        raise BadRequest("--web starts a game; a game on the page is taken up again by "
                         "reloading its address")
    if not 0 < args.port < 65536:
        raise BadRequest(f"--port {args.port}: give a port from 1 to 65535")
    options = {"dice": args.dice, "seed": args.seed, "measured": args.table}
    return play_on_the_web(listings.scenario_path(args.scenario), args.store, _key_path(None),
                           args.host, args.port, options, tuple(args.bot),
                           getattr(args, "lang", None) or "en")


def _key_path(given: str | None) -> Path:
    """The signing key's file: given, or in the user's configuration folder, where no
    ``git add`` of a checkout can reach it (made there with mode 700)."""
    if given:
        return Path(given)
    old = Path("regiment-server.key")   # where servers before 0.9.0 made it
    if old.exists():
        print(f"regiment server: warning: using {old.resolve()}, made in this folder by an "
              "older server; move it out of any checkout and pass --key", file=sys.stderr)
        return old
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    folder = Path(base) / "regiment"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder / "server.key"


def _signed_receipts(path: str, key: str | None, game_id: str) -> list[Any]:
    from .record import MAX_LINE
    from .serve import bounded_lines
    from .signing import read_receipts

    if key is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", key):
        raise BadRequest(f"--key {key!r}: a public key is 64 hex digits (GET /key)")
    try:
        with open(path, encoding="utf-8") as handle:
            return read_receipts(bounded_lines(handle, MAX_LINE), path, game_id, key)
    except OSError as exc:
        raise BadRequest(f"cannot read the receipts {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise BadRequest(f"{path}: not a text file of receipts") from None


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(Path(args.store), args.seed, console())


def _listing(what: str, *args: Any) -> int:
    from . import listings

    return int(getattr(listings, what)(*args, console()))


def console() -> Console:
    """A terminal's own width; 120 columns when the output goes to a file or a pipe."""
    from rich.console import Console

    return Console(soft_wrap=True, width=None if sys.stdout.isatty() else 120)


if __name__ == "__main__":
    raise SystemExit(main())
