"""Make docs/replay.png, the README's picture of the replay page: the bundled mill-race battle
played by the bots, its page opened in headless Chromium at the first multiple-combat result,
zoomed in.

    .venv/bin/python docs/picture.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore
from regiment.tools.demo import play
from regiment.tools.html import frames, page

HERE = Path(__file__).resolve().parent


def main() -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    game = Game.new(load_scenario(HERE.parent / "examples" / "mill_race.toml"),
                    store=MemoryStore())
    play(game, show_undo=False)
    shown = frames(game.records)
    at = next(i for i, f in enumerate(shown) if any(x.startswith("Combat result") and
                                                      "CR.BOOKKEEPING" in x for x in f["lines"]))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "replay.html"
        out.write_text(page(game.records), encoding="utf-8")
        opts = webdriver.ChromeOptions()
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-background-networking", "--window-size=1280,820"):
            opts.add_argument(flag)
        opts.binary_location = "/usr/bin/chromium"
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        try:
            driver.get(out.as_uri())
            for _ in range(at):
                driver.find_element(By.ID, "next").click()
            driver.find_element(By.ID, "zoom").click()   # where the fight is
            driver.save_screenshot(str(HERE / "replay.png"))
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
