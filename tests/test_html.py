"""The replay page (`regiment replay --html`): its frames, its verdict, and the page itself
driven in headless Chromium (Debian's chromium and chromium-driver, which `make test`
installs): load it, click "next" to the end, read it, take a screenshot."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from regiment.core.record import Record
from regiment.tools.cli import main
from regiment.tools.demo import DEFAULT_SEED
from regiment.tools.html import frames, page

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("html") / "demo.db"
    assert main(["demo", "--store", str(db), "--seed", DEFAULT_SEED]) == 0
    return db


def records_of(db: Path) -> list[Record]:
    from regiment.store import open_store

    store = open_store(db)
    return list(store.read(store.games()[-1]))


def data_of(text: str) -> dict:
    blob = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S)
    assert blob is not None
    return json.loads(blob.group(1))


def test_every_step_is_a_frame_with_its_table_and_its_story(demo_db):
    records = records_of(demo_db)
    shown = frames(records)
    assert [f["step"] for f in shown] == sorted({r.step for r in records})
    charge = next(f for f in shown if any(p["reason"] == "charge" for p in f["paths"]))
    assert any("CH.RANGE" in line for line in charge["lines"])
    unit = charge["units"][0]
    assert len(unit["corners"]) == 4 and unit["front"] == unit["corners"][:2]
    # the demo's charge made, taken back (meta) and made again: the first try is abandoned
    assert {f["branch"] for f in shown} == {"live", "meta", "abandoned"}


def test_the_page_is_self_contained_and_says_whether_the_log_verified(demo_db):
    records = records_of(demo_db)
    text = page(records)
    urls = set(re.findall(r"https?://[^\s\"'<>`]+", text))
    assert urls == {"http://www.w3.org/2000/svg"}        # an XML namespace, never fetched
    assert data_of(text)["verdict"]["ok"] is True
    # a changed outcome in the log: the page says so
    i = next(i for i, r in enumerate(records) if r.type == "ChargeRolled")
    bad = records[i]._replace(data={**records[i].data, "success": not records[i].data["success"]})
    verdict = data_of(page([*records[:i], bad, *records[i + 1:]]))["verdict"]
    assert verdict["ok"] is False and "NOT verified" in verdict["text"]


def browser():
    if os.environ.get("REGIMENT_NO_BROWSER"):
        pytest.skip("REGIMENT_NO_BROWSER is set")
    if not (shutil.which("chromium") or os.path.exists(CHROMIUM)) or \
            not os.path.exists(DRIVER):
        pytest.fail("headless Chromium is needed: `make test` installs Debian's chromium and "
                    "chromium-driver (or set REGIMENT_NO_BROWSER=1 to leave this test out)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1400,900"):
        opts.add_argument(flag)
    opts.binary_location = CHROMIUM
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def test_the_page_in_chromium_steps_to_the_end(demo_db, tmp_path):
    from selenium.webdriver.common.by import By

    out = tmp_path / "replay.html"
    assert main(["replay", str(demo_db), "--html", str(out)]) == 0
    data = data_of(out.read_text(encoding="utf-8"))
    shown = data["frames"]
    driver = browser()
    try:
        driver.get(out.as_uri())
        where = driver.find_element(By.ID, "where")   # a finished game opens at its result
        last = shown[-1]["step"]
        assert where.text.startswith(f"Step {last} of {last}"), where.text
        driver.get(out.as_uri() + "#step=0")
        where = driver.find_element(By.ID, "where")
        assert where.text.startswith("Step 0 of ")
        assert "Verified" in driver.find_element(By.ID, "verdict").text
        # every unit of the first frame is drawn, each model in its rank and file, with its
        # name (or, where it has no room, its number in the legend)
        first = shown[0]["units"]
        groups = driver.find_elements(By.CSS_SELECTOR, "svg g.unit")
        assert [g.get_attribute("data-unit") for g in groups] == [u["id"] for u in first]
        for g, u in zip(groups, first, strict=True):
            models = g.find_elements(By.CSS_SELECTOR, "rect.model")
            assert len(models) == u["models"]
            assert {m.get_attribute("fill") for m in models} == {data["colours"][u["player"]]}
            label = driver.find_element(By.CSS_SELECTOR,
                                        f'g.label[data-unit="{u["id"]}"] text').text
            assert label in (f"{u['name']} ({u['models']})", str(u["n"]))
        legend = driver.find_element(By.ID, "legend").text
        assert all(u["name"] in legend for u in first)
        nxt = driver.find_element(By.ID, "next")
        seen_paths = 0
        for _ in range(len(shown) - 1):
            nxt.click()
            seen_paths += len(driver.find_elements(By.CSS_SELECTOR, "svg line[marker-end]"))
        last = shown[-1]
        assert where.text.startswith(f"Step {last['step']} of {last['step']}")
        assert "The game ends" in driver.find_element(By.ID, "now").text
        assert seen_paths > 0                          # charge, flee, pursuit paths drawn
        undone = driver.find_elements(By.CSS_SELECTOR, ".step.undone, .step.abandoned")
        assert undone, "the undone step is shown apart"
        # jump back by turn and phase
        from selenium.webdriver.support.ui import Select
        Select(driver.find_element(By.ID, "jump")).select_by_index(0)
        assert where.text.startswith("Step 0 of ")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
        shot = tmp_path / "replay.png"
        assert driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    finally:
        driver.quit()


@pytest.mark.parametrize("name", sorted(p.stem for p in
                                        (Path(__file__).parent.parent / "examples").glob("*.toml")))
def test_every_example_battle_makes_a_page_a_record_and_a_simulation(name, capsys):
    """Each tool on each bundled battle: the replay page, the record, a few simulated games."""
    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.demo import play
    from regiment.tools.record import export_record, import_record

    path = Path(__file__).parent.parent / "examples" / f"{name}.toml"
    game = Game.new(load_scenario(path), store=MemoryStore())
    play(game, show_undo=False)
    text = page(game.records)
    assert data_of(text)["verdict"]["ok"] and len(data_of(text)["frames"]) == \
        len(game.timeline.steps)
    again = import_record(export_record(game.records), MemoryStore())
    assert again.records[-1].hash == game.records[-1].hash
    assert main(["simulate", str(path), "-n", "3"]) == 0
    assert "3 games by the bots" in capsys.readouterr().out


HOSTILE = ["<!--<script>", "</script><img src=x onerror=\"document.title='pwned'\">",
           "]]><svg onload=alert(1)>", "__DATA__ & __TITLE__", "\u2028'\"`${x}\\"]


def hostile_game():
    """A battle whose scenario, units and players are named to break a page that trusted them."""
    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.demo import play

    scenario = load_scenario(Path(__file__).parent.parent / "examples" / "ford_clash.toml")
    scenario["name"] = HOSTILE[0] + " " + HOSTILE[1]
    for u, name in zip(scenario["units"], HOSTILE[1:], strict=False):
        u["name"] = name
    game = Game.new(scenario, store=MemoryStore())
    play(game, show_undo=False)
    return game


def test_the_page_escapes_every_name_from_the_scenario_and_the_log():
    text = page(hostile_game().records)
    blob = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S)
    assert blob is not None and "<" not in blob.group(1) and "&" not in blob.group(1)
    assert text.count("<script") == 2 and text.count("</script>") == 2
    data = data_of(text)
    assert data["verdict"]["ok"] and data["title"].startswith("<!--<script>")
    units = data["frames"][0]["units"]
    assert {u["name"] for u in units} == set(HOSTILE[1:1 + len(units)])


def test_a_page_with_hostile_names_shows_them_as_text_in_chromium(tmp_path):
    from selenium.webdriver.common.by import By

    out = tmp_path / "hostile.html"
    out.write_text(page(hostile_game().records), encoding="utf-8")
    driver = browser()
    try:
        driver.get(out.as_uri() + "#step=0")
        assert driver.title.startswith("<!--<script>")             # the name, as text
        assert "Verified" in driver.find_element(By.ID, "verdict").text
        assert driver.find_element(By.ID, "where").text.startswith("Step 0 of ")
        driver.find_element(By.ID, "next").click()
        assert driver.find_element(By.ID, "now").text
        legend = driver.find_element(By.ID, "legend").text   # long names: in the legend
        assert HOSTILE[1] in legend and HOSTILE[2] in legend
        # nothing the names hold became a node or ran
        assert driver.find_elements(By.TAG_NAME, "img") == []
        assert len(driver.find_elements(By.TAG_NAME, "script")) == 2
        assert len(driver.find_elements(By.CSS_SELECTOR, "svg svg")) == 0
        assert driver.execute_script("return document.title") != "pwned"
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()


def test_the_page_a_person_would_show_in_an_argument(demo_db, tmp_path):
    """Issue 12: the whole table with its edges; a link to any step (#step=N) that the address
    keeps; keys to move; a print view. (Where labels go: tests/test_replay_page.py.)"""
    from selenium.webdriver.common.by import By

    out = tmp_path / "replay.html"
    assert main(["replay", str(demo_db), "--html", str(out)]) == 0
    data = data_of(out.read_text(encoding="utf-8"))
    shown, table = data["frames"], data["table"]
    x0, y0, x1, y1 = data["view"]
    assert x0 < 0 and y0 < 0 and x1 > table["width"] and y1 > table["depth"]   # edges shown
    middle = shown[len(shown) // 2]["step"]
    driver = browser()
    try:
        driver.get(f"{out.as_uri()}#step={middle}")
        where = driver.find_element(By.ID, "where")
        assert where.text.startswith(f"Step {middle} of ")
        assert float(driver.find_element(By.ID, "edge").get_attribute("width")) == table["width"]
        driver.find_element(By.ID, "last").click()
        assert driver.execute_script("return location.hash") == f"#step={shown[-1]['step']}"
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys("\ue011")              # Home
        assert where.text.startswith("Step 0 of ")
        body.send_keys("\ue00f")              # Page Down: the next turn and phase
        jumped = int(where.text.split()[1])
        assert jumped > 0 and shown[0]["phase"] != next(
            f["phase"] for f in shown if f["step"] == jumped)
        body.send_keys("\ue014")              # right arrow
        assert int(where.text.split()[1]) > jumped
        body.send_keys("\ue010")              # End
        assert where.text.startswith(f"Step {shown[-1]['step']} of ")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        assert not driver.find_element(By.ID, "next").is_displayed()
        assert driver.execute_script(
            "return getComputedStyle(document.getElementById('right')).overflowY") == "visible"
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()


def test_a_player_keeps_the_colour_of_the_scenario_or_of_its_name():
    from regiment.tools.html import PALETTE, colours, own_colour

    ids = ["orcs", "empire", "dwarfs", "goblins", "vampires", "red", "blue", "bretonnia"]
    for a in ids:
        for b in ids:
            if a == b:
                continue
            got = colours([{"id": a}, {"id": b}])
            assert got[a] != got[b] and set(got.values()) <= set(PALETTE)
            first = min(a, b)
            assert got[first] == own_colour(first)      # the same in every battle it plays
            if own_colour(a) != own_colour(b):
                assert got == {a: own_colour(a), b: own_colour(b)}
    assert colours([{"id": "orcs", "colour": "#123456"}, {"id": "empire"}])["orcs"] == "#123456"


def test_a_skirmish_page_draws_each_model_as_a_circle_in_chromium(tmp_path):
    """The skirmish preset's page: every model of every squad a circle where it stands, in its
    player's colour, and the charge drawn as an arrow."""
    from selenium.webdriver.common.by import By

    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.demo import play

    game = Game.new(load_scenario(Path(__file__).parent.parent / "examples" /
                                  "two_targets.toml"), store=MemoryStore())
    play(game, show_undo=False)
    out = tmp_path / "skirmish.html"
    text = page(game.records)
    out.write_text(text, encoding="utf-8")
    data = data_of(text)
    assert data["verdict"]["ok"]
    driver = browser()
    try:
        driver.get(out.as_uri() + "#step=0")
        first = data["frames"][0]["units"]
        groups = driver.find_elements(By.CSS_SELECTOR, "svg g.unit")
        assert [g.get_attribute("data-unit") for g in groups] == [u["id"] for u in first]
        for g, u in zip(groups, first, strict=True):
            circles = g.find_elements(By.CSS_SELECTOR, "circle.model")
            assert len(circles) == u["models"] == len(u["circles"])
            assert {c.get_attribute("fill") for c in circles} == {data["colours"][u["player"]]}
        charged = next(i for i, f in enumerate(data["frames"])
                       if any(p["reason"] == "charge" for p in f["paths"]))
        for _ in range(charged):
            driver.find_element(By.ID, "next").click()
        assert driver.find_elements(By.CSS_SELECTOR, "svg line[marker-end]")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()


def test_the_replay_draws_each_shot_as_a_line_from_shooter_to_target():
    """Issue 57 item 2: a shooting step's frame holds a ``shot`` path from the shooter's middle
    to its target's, in the shooter's player's colour (the page draws paths as lines)."""
    import regiment.phases  # noqa: F401
    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.bot import choose
    from regiment.tools.html import frames

    game = Game.new(load_scenario(Path(__file__).parent.parent / "examples" /
                                  "border_patrol.toml"), store=MemoryStore())
    while not game.state.over:
        game.submit(choose(game))
    fired = [r for r in game.records if r.type == "ShotsFired"]
    shots = [(f, p) for f in frames(list(game.records)) for p in f["paths"]
             if p["reason"] == "shot"]
    assert fired and len(shots) == len(fired)
    for f, p in shots:
        units = {u["id"]: u for u in f["units"]}
        shooter = units[p["unit"]]
        assert p["player"] == shooter["player"] and p["from"] != p["to"]
