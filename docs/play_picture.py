"""Make docs/play.png, the README's picture of the play page: the border patrol at a table
(``regiment play border_patrol --web``), the orcs' charges declared and answered by the
bundled bot's choices clicked on the page, up to the first remaining moves, one of them
dragged and waiting for its confirmation.

    .venv/bin/python docs/play_picture.py
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import regiment.phases  # noqa: F401 - registers the presets
from regiment.bot import choose
from regiment.core.game import Game
from regiment.store import open_store

HERE = Path(__file__).resolve().parent


def main() -> None:
    sys.path.insert(0, str(HERE.parent))
    from tests.test_html import browser
    from tests.test_play_page import click, drag, wait_ready

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "table.db"
        proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("regiment")), "play", "border_patrol", "--web",
             "--port", "8766", "--store", str(db)], stdout=subprocess.PIPE, text=True,
            env={"XDG_CONFIG_HOME": tmp, "PATH": "/usr/bin:/bin"}, cwd=tmp)
        assert proc.stdout is not None
        link = re.search(r"open (\S+)", proc.stdout.readline()).group(1)  # type: ignore[union-attr]
        time.sleep(1.5)
        d = browser()
        try:
            d.set_window_size(1280, 860)
            d.get(link)
            game_id = re.search(r"game=(\w+)", link).group(1)  # type: ignore[union-attr]
            while True:
                s = wait_ready(d)
                if s["pending"].get("decision") == "remaining_moves":
                    break
                wire = choose(Game.load(game_id, open_store(str(db)))).wire()
                click(d, f'#decision button[data-option="{s["legal"].index(wire)}"]')
                click(d, "#confirm")
            game = Game.load(game_id, open_store(str(db)))
            archers = next(p for p in game.board()["pieces"] if p["id"] == "archers")
            x, y = archers["position"]
            drag(d, archers, (x + 6.0, y - 4.0))
            time.sleep(0.8)
            d.execute_script("window.scrollTo(0, 0)")
            d.save_screenshot(str(HERE / "play.png"))
        finally:
            d.quit()
            proc.terminate()
            proc.wait(5)


if __name__ == "__main__":
    main()
