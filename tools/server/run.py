"""``regiment server``: the app, served by uvicorn with the server's bounds on its protocols."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from regiment.core.log import get_logger

from . import collector
from .app import IDLE, make_app
from .guard import BODY_TIMEOUT, HEADER_TIMEOUT
from .signing import ServerKey

log = get_logger("regiment.server")


def run_server(store: Any, key_path: Path, host: str, port: int,
               games_per_minute: float = 20.0, header_timeout: float = HEADER_TIMEOUT,
               body_timeout: float = BODY_TIMEOUT, deflate: bool = False, idle: float = IDLE,
               proxies: str = "") -> int:
    import uvicorn

    from .guard import KEEP_ALIVE, LeanWebSocket, guarded

    key = ServerKey.load_or_create(key_path)
    app = make_app(store, key, games_per_minute, body_timeout, idle)
    print(f"regiment server: http://{host}:{port} (key {key.public[:16]}..., "
          f"{key_path})", flush=True)
    log.info("server_started", host=host, port=port, header_timeout=header_timeout,
             body_timeout=body_timeout, games_per_minute=games_per_minute, deflate=deflate)
    # shapely is imported when a shape is first asked (a command is the sooner done for
    # it); a server asks one in its first charge: imported now, before the collector's
    # heap is frozen, not in a player's step (the hosted bench's CPU a step read 1.075x
    # with the import left to the first charge: 51471d9 against 7b57b48)
    from regiment.core.geometry import lazy_shapely

    lazy_shapely.load()
    collector.tune()   # once the app is built: see tools/server/collector.py
    collector.WATCH.start()
    # Per-message deflate only when asked for: every browser offers it, and with it each
    # connection kept two zlib contexts (some 50 KiB) and spent 7-12 % of the server's CPU
    # compressing messages of a few KiB that cross a fast link (measured, issue 29).
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1024 * 1024,
                ws_per_message_deflate=deflate, lifespan="on", http=guarded(header_timeout),
                ws=LeanWebSocket or "auto",
                timeout_keep_alive=KEEP_ALIVE,
                # a client's X-Forwarded-For is believed only from the proxies the operator
                # names (uvicorn believes 127.0.0.1's by default: any local client could name
                # its address and make games without limit)
                proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    return 0
