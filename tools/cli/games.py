"""The commands that make, play, read, export and check games."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regiment.core.errors import BadRequest, TamperedLog

from ..names import command_name

if TYPE_CHECKING:
    pass
from .common import _no_such_bot, _write, console, warn
from .hosting import _play_web


def _machine(args: argparse.Namespace) -> int:
    from ..machine import diagram

    print(diagram(args.preset), end="")
    return 0


def _schema(args: argparse.Namespace) -> int:
    from ..schema import text

    print(text(), end="")
    return 0


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

    from .. import listings
    from ..serve import serve
    from ..source import game_named

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


def _play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import open_store

    from .. import listings
    from ..play import Session
    from ..source import game_named, published_note

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
        if args.bot and scenario["undo"] == "free":
            # UNDO.POLICY: one person plays against the bot: its undo is its own (solo)
            scenario["undo"] = "solo"
        game = Game.new(scenario, store=open_store(args.store))
    if _no_such_bot(args.bot, list(game.state.players)):
        return 2
    con = Console(soft_wrap=False, highlight=False)
    return Session(game, con, con.input, args.store, args.auto_skip, tuple(args.bot)).run()


def _inspect(args: argparse.Namespace) -> int:
    from regiment.core.game import Game

    from ..inspect import print_table
    from ..source import open_records

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

    from ..replay import print_replay
    from ..source import open_game, open_records

    notes: list[str] = []
    if args.html:
        from ..html import page

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
    from ..source import export_lines, open_records

    notes: list[str] = []
    game_id, records, _ = open_records(args.path, args.game, notes)
    warn("export", notes)
    lines = export_lines(records)
    _write(args.output, lines, f"{len(records)} records of game {game_id}")
    return 0


def _record_export(args: argparse.Namespace) -> int:
    from ..record import export_record
    from ..source import open_records

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


def _record_import(args: argparse.Namespace) -> int:
    from regiment.store import open_store

    from ..record import MAX_LINE, import_record
    from ..serve import bounded_lines

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

    from ..cores import default_jobs
    from ..source import open_chained
    from ..verify import verify

    notes: list[str] = []
    game_id, records, store, chained = open_chained(args.path, args.game, notes)
    warn("verify", notes)
    seed = seed_bytes(args.seed) if args.seed else None
    if seed is None and isinstance(store, MemoryStore):
        seed = store.get_secret(game_id)   # a record whose players revealed the seed
    from ..progress import progress

    steps = records[-1].step + 1
    try:
        heads = list(args.head) + (_signed_receipts(args.receipts, args.key, game_id)
                                   if args.receipts else [])
        jobs = args.jobs or default_jobs()
        with progress("verifying", steps) as advance:
            report = verify(records, seed, heads, advance, jobs, chained)
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
                          "shared_rounds": report.rounds,
                          "receipts": report.receipts, "head": records[-1].hash.hex(),
                          "warnings": notes}))
    else:
        seed_note = {"given": "every die matches the revealed seed",
                     "published": "every die matches the seed published in the log",
                     "": "dice not checked against a seed (pass --seed)"}[report.seed]
        if records[0].data.get("dice") == "manual":   # real dice: no seed to reveal
            seed_note = "dice rolled by hand (there is no seed to check them against)"
        if records[0].data.get("dice") == "shared":   # DICE.SHARED: no secret to reveal
            seed_note = (f"shared dice: {report.rounds} rounds of reveals, each checked "
                         "against its party's signed chain, every die made again from them")
        held = (f"; {report.receipts} receipt{'s' if report.receipts > 1 else ''} held"
                if report.receipts else "; no receipt given (--head), so a cut tail or a "
                "fork would not show")
        print(f"game {game_id}: OK: {report.records} records, {report.steps} steps, hash chain "
              f"intact, every outcome re-derived; {report.dice} dice, {seed_note}{held}; "
              f"head {records[-1].hash.hex()[:10]}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from ..demo import run_demo

    return run_demo(Path(args.store), args.seed, console())


def _listing(what: str, *args: Any) -> int:
    from .. import listings

    return int(getattr(listings, what)(*args, console()))


def _signed_receipts(path: str, key: str | None, game_id: str) -> list[Any]:
    from ..record import MAX_LINE
    from ..serve import bounded_lines
    from ..server.signing import read_receipts

    if key is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", key):
        raise BadRequest(f"--key {key!r}: a public key is 64 hex digits (GET /key)")
    try:
        with open(path, encoding="utf-8") as handle:
            return read_receipts(bounded_lines(handle, MAX_LINE), path, game_id, key)
    except OSError as exc:
        raise BadRequest(f"cannot read the receipts {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise BadRequest(f"{path}: not a text file of receipts") from None
