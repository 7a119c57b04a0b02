"""The ``regiment`` command line: ``main`` parses the command and runs it; every failure is
one line and an exit status (2: bad input, 70: a bug), never a traceback unless ``-v``.

- ``parser``: every command and its options; ``common``: what several commands share;
- ``games``: the commands that make, play, read and check games;
- ``hosting``: ``regiment server`` and ``regiment play --web``."""

from __future__ import annotations

import argparse
import errno
import gc
import sys
from collections.abc import Sequence

from regiment.core.errors import RegimentError

from .. import logs
from .common import DEFAULT_STORE, console
from .parser import build_parser, parse


def main(argv: Sequence[str] | None = None) -> int:
    code = _main(argv)
    if argv is None:   # the command line's own process, which ends now
        # Collected once, then frozen: the interpreter's collections as it shuts down walk
        # nothing more (every module's objects: 0.09 s after a verify of 50,000 records,
        # 0.02 s so; the garbage's finalizers have run). A caller in process (argv given)
        # keeps its collector as it was.
        gc.collect()
        gc.freeze()
    return code


def _main(argv: Sequence[str] | None) -> int:
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


def _run(args: argparse.Namespace) -> int:
    if args.command in ("odds", "simulate"):
        return int(args.run(args, console()) or 0)
    return int(args.run(args) or 0)


__all__ = ["build_parser", "main"]
