"""What several commands share: the default store, argument types, warnings, the console."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regiment.core.errors import BadRequest, StoreError
from regiment.core.scenario import HEX

from ..receipts import Receipt, parse_receipt

if TYPE_CHECKING:
    from rich.console import Console


# Each command imports what it uses (the rulebooks, the stores, rich) when it runs: `--help`
# and `odds` start in a fraction of the time the whole library takes to import.
DEFAULT_STORE = "regiment.db"


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


def console() -> Console:
    """A terminal's own width; 120 columns when the output goes to a file or a pipe."""
    from rich.console import Console

    return Console(soft_wrap=True, width=None if sys.stdout.isatty() else 120)


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


def _no_such_bot(bots: list[str], players: list[str]) -> bool:
    """``--bot PLAYER`` names a player of the game; said on stderr when it does not."""
    wrong = [b for b in bots if b not in players]
    if wrong:
        print(f"regiment play: --bot {wrong[0]}: no such player; the players are "
              f"{', '.join(players)}", file=sys.stderr)
    return bool(wrong)


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
