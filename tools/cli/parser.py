"""Every command of ``regiment`` and its options."""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING, Any, NoReturn

from regiment.core.version import ENGINE_VERSION

if TYPE_CHECKING:
    pass
from .common import DEFAULT_STORE, common, hex_seed, receipt, store_or_path
from .games import (
    _demo,
    _export,
    _inspect,
    _listing,
    _machine,
    _play,
    _record_export,
    _record_import,
    _repair,
    _replay,
    _schema,
    _serve,
    _verify,
)
from .hosting import _server

# the options of every command that take a value (to find the command's name after them)
VALUED = ("--lang",)


def parse(parser: Parser, argv: list[str]) -> argparse.Namespace:
    """The command line read as people type it: a command by a unique beginning of its name
    (``scen``), and an option the command does not have answered with its usage and the
    nearest options ("did you mean"), not with the usage of ``regiment`` itself."""
    from ..names import meant, resolve

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
            from ..names import meant, resolve

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

    from ..chances import add_parsers, bounded

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
