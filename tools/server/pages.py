"""The server's replay pages (SERVER.LIMITS). A page verifies its whole log (``tools.html``),
which for a long game takes seconds of CPU: on the server's event loop that stopped every
other game for as long (one spectator's GET of a bloated game held every game 18 s, issue 55
row 2), and in a thread of the server it still took the interpreter from the loop (another
game's step went from 3 to 50 ms, measured). A page is built by a child process that reads
the game from the store itself (``regiment replay --html``), once for a game's head, one
build at a time: whoever asks while it is built waits for that build. A store that no other
process can read (in memory) has its pages built in a thread."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

from regiment.core.errors import StoreError
from regiment.core.record import Record

KEPT = 16   # pages kept, the most recently asked for (a page of a long game is a few MiB)
Page = tuple[str, int]   # the page, and how many records it shows


class Pages:
    def __init__(self, address: str | None) -> None:
        self.address = address   # the store as another process opens it, or None
        # game -> its version (records) when asked, and the page
        self._built: OrderedDict[str, tuple[int, Page]] = OrderedDict()
        self._building: dict[str, asyncio.Future[Page]] = {}
        self._lock = asyncio.Lock()   # one page built at a time, whichever game's

    async def get(self, game_id: str, version: int,
                  records: Callable[[], Sequence[Record]]) -> Page:
        """The page of ``game_id`` as it stands at ``version`` (a log only grows: a page
        made at it stands for it); ``records`` gives its log where no child process can read
        the store."""
        kept = self._built.get(game_id)
        if kept is not None and kept[0] == version:
            self._built.move_to_end(game_id)
            return kept[1]
        pending = self._building.get(game_id)
        if pending is not None:   # being built: the same answer for everyone who asks
            return await asyncio.shield(pending)
        future: asyncio.Future[Page] = asyncio.get_running_loop().create_future()
        self._building[game_id] = future
        try:
            async with self._lock:
                if self.address is None:
                    made = await asyncio.to_thread(_in_thread, list(records()))
                else:
                    made = await self._in_child(game_id)
            self._built[game_id] = (version, made)
            while len(self._built) > KEPT:
                self._built.popitem(last=False)
            future.set_result(made)
            return made
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()   # (retrieved: no "never retrieved" warning)
            raise
        finally:
            del self._building[game_id]

    async def _in_child(self, game_id: str) -> Page:
        with tempfile.TemporaryDirectory(prefix="regiment-page-") as folder:
            out = Path(folder) / "page.html"
            child = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "regiment.tools.cli", "replay", str(self.address),
                "--game", game_id, "--html", str(out),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            said, err = await child.communicate()
            if child.returncode != 0:
                raise StoreError(f"the replay page could not be made: "
                                 f"{err.decode(errors='replace').strip()[-300:]}")
            count = int(said.split(b": ", 1)[1].split(b" ", 1)[0])   # "wrote X: N records"
            return out.read_text(encoding="utf-8"), count


def _in_thread(records: list[Record]) -> Page:
    from ..html import page

    return page(records), len(records)


# The replay page follows the game: a step made since the page was built reloads it, at the
# newest step if it showed the newest, else where it was.
LIVE = """<script>
(() => {
  const q = new URLSearchParams(location.search);
  const path = location.pathname.replace(/\\/replay$/, "/ws");
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}` +
    `${path}?token=${encodeURIComponent(q.get("token") || "")}&after=__AFTER__`;
  // whose turn it is and what the game waits for, from every message's pending decision
  const waiting = document.createElement("div");
  waiting.id = "waiting";
  waiting.setAttribute("style", "position:sticky;top:0;z-index:9;padding:6px 10px;" +
    "background:#2a2117;color:#f4ecd8;font:600 15px system-ui,sans-serif");
  waiting.textContent = "Connecting to the game...";
  document.body.prepend(waiting);
  const words = (s) => String(s || "").replace(/_/g, " ");
  const tellPending = (p) => {
    if (!p) return;
    if (p.kind === "decision")
      waiting.textContent = `Waiting for ${p.player}: ${words(p.decision)}`;
    else if (p.kind === "roll") waiting.textContent =
      `Waiting for ${p.player} to roll ${p.dice}D6 (${words(p.purpose)})`;
    else if (p.kind === "measurement") waiting.textContent =
      `Waiting for ${p.player} to measure at the table (${p.rule})`;
    else if (p.kind === "over") waiting.textContent =
      `The game is over${p.winner ? `: ${p.winner} won` : ""}`;
  };
  const onmessage = (m) => {
    const d = JSON.parse(m.data);
    tellPending(d.pending);
    if (!d.events || !d.events.length) return;
    const newest = at === F.length - 1;
    const step = newest ? d.events[d.events.length - 1].step : F[at].step;
    history.replaceState(null, "", `${location.pathname}${location.search}#step=${step}`);
    location.reload();
  };
  // a connection that sent nothing for the server's idle time is closed (1001): open another
  const open = () => {
    const ws = new WebSocket(url);
    ws.onmessage = onmessage;
    ws.onclose = (e) => { if (e.code === 1001) setTimeout(open, 1000); };
  };
  open();
})();
</script>
"""
