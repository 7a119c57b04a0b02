"""The commands that serve games to browsers and clients: ``regiment server``, and ``regiment
play --web`` (the play page for a table)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from regiment.core.errors import BadRequest

if TYPE_CHECKING:
    pass
from .common import _key_path


def _server(args: argparse.Namespace) -> int:
    try:
        from ..server import run_server
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
    from .. import listings
    from ..web.table import play_on_the_web

    if args.resume:
        raise BadRequest("--web starts a game; a game on the page is taken up again by "
                         "reloading its address")
    if not 0 < args.port < 65536:
        raise BadRequest(f"--port {args.port}: give a port from 1 to 65535")
    options = {"dice": args.dice, "seed": args.seed, "measured": args.table}
    return play_on_the_web(listings.scenario_path(args.scenario), args.store, _key_path(None),
                           args.host, args.port, options, tuple(args.bot),
                           getattr(args, "lang", None) or "en")
