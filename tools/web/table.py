"""``regiment play SCENARIO --web``: a game for players at one table, on the play page.

The game server runs on this machine with the game made for the table: real dice if the
players want them (the page asks for each roll's faces), the scenario's own undo policy, and
one address that holds every seat, so one phone or laptop plays both sides. ``--host
0.0.0.0`` lets phones on the same network open it: the address is printed, with a QR code
for a phone's camera."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from regiment.core.errors import BadRequest


def table_link(base: str, game_id: str, seats: dict[str, str], lang: str = "en") -> str:
    """The play page's address holding every seat (the tokens after ``#``: never sent to a
    server, never in its logs)."""
    pairs: list[tuple[str, str]] = [("game", game_id)]
    pairs += [("seat", token) for token in seats.values()]
    if lang != "en":
        pairs.append(("lang", lang))
    return f"{base}/play#{urlencode(pairs)}"


def reachable(host: str) -> str:
    """The address other devices reach this one at: the host given, or for ``0.0.0.0`` the
    address of the interface that routes outward (no packet is sent)."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))   # TEST-NET-1: routing is asked, nothing sent
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def free(host: str, port: int) -> None:
    """BadRequest unless the page can be served at ``host:port`` (another program, or another
    table's page, may hold the port: its address would open that one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise BadRequest(f"cannot serve the page at {host}:{port} ({exc.strerror}): give "
                             "another --port; no game was made") from None


def show_qr(link: str) -> None:
    try:
        import segno
    except ImportError:   # the address alone does
        return
    segno.make(link, error="l").terminal(out=sys.stdout, compact=True)
    sys.stdout.flush()   # before the server runs: a pipe would keep it back


def make_table_game(store: Any, key: Any, scenario: Path | str, options: dict[str, Any],
                    bots: tuple[str, ...] = ()) -> dict[str, Any]:
    """The game, made in ``store`` as the server makes one, for a table."""
    from regiment.tools.server.hub import Hub

    body = Path(scenario).read_bytes()
    return Hub(store, key, None).create(body, None, bots, table=options)


def play_on_the_web(scenario: Path | str, store_path: str, key_path: Path, host: str, port: int,
                    options: dict[str, Any], bots: tuple[str, ...], lang: str,
                    open_browser: bool = True) -> int:
    try:
        import uvicorn

        from regiment.tools.server import make_app
        from regiment.tools.server.signing import ServerKey
    except ImportError as exc:
        raise BadRequest(f"the page needs the server's libraries ({exc.name} is missing): pip "
                         "install 'regiment[server]'") from None
    from regiment.store import open_store

    free(host, port)   # before anything is made: an address that is another's is no use
    store = open_store(store_path)
    if not hasattr(store, "put_seats"):
        raise BadRequest(f"{store_path}: a game on the page is kept in SQLite (.db), not in "
                         "a log directory")
    key = ServerKey.load_or_create(key_path)
    made = make_table_game(store, key, scenario, options, bots)
    link = table_link(f"http://{reachable(host)}:{port}", made["id"], made["seats"], lang)
    print(f"regiment play: open {link}", flush=True)
    if host in ("0.0.0.0", "::"):
        print("(on a phone on the same network: scan this)", flush=True)
        show_qr(link)
    if open_browser and sys.stdout.isatty():
        import webbrowser

        webbrowser.open(link)
    uvicorn.run(make_app(store, key), host=host, port=port, log_level="warning",
                lifespan="on")
    return 0
