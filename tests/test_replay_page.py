"""The replay page read as a player settling a dispute (issue 26), on every frame of every
golden battle, in headless Chromium at 1280 px and on a 375 px phone: every label readable,
never over another label, another unit or a path; units destroyed or fled kept (greyed) on
the map and in the legend; each player's colour on all of its paths; the header saying what
the log says; a step the address asks for that the log does not have.

The geometry is measured from what the browser laid out (screen boxes, each shape's screen
transform), by code of its own: not by the page's own placing of its labels."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest

from regiment.tools.html import frames, page

from .test_golden import BATTLES, story
from .test_html import browser, data_of

SMALLEST_PX = 11.0   # a label at least this high on the screen is read without a lens


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, tuple[Path, list[dict]]]:
    """Each golden battle's page, written to a file, and its frames."""
    out = {}
    folder = tmp_path_factory.mktemp("pages")
    for name in BATTLES:
        _, game = story(name)
        path = folder / f"{name}.html"
        path.write_text(page(game.records), encoding="utf-8")
        out[name] = (path, frames(game.records))
    return out


@pytest.fixture(scope="module")
def driver():
    d = browser()
    yield d
    d.quit()


def test_units_destroyed_or_gone_off_the_table_stay_where_they_were_last_seen(pages):
    """In the frames themselves: once drawn, a unit is in every later frame, whatever became
    of it (a character that joined a unit is drawn in it), with the same number."""
    gone_seen = 0
    for name, (_, shown) in pages.items():
        numbers: dict[str, int] = {}
        for before, after in pairwise(shown):
            now = {u["id"]: u for u in after["units"]}
            for u in before["units"]:
                numbers.setdefault(u["id"], u["n"])
                if u["id"] not in now:   # only a character gone into a unit may leave
                    assert u["characters"] == [] and not u.get("gone"), (name, after["step"])
                    assert any(u["name"] == c["name"] for v in after["units"]
                               for c in v["characters"]), (name, after["step"], u["id"])
                    continue
                assert now[u["id"]]["n"] == numbers[u["id"]]
            gone = [u for u in after["units"] if u.get("gone")]
            assert all(u["status"] in ("destroyed", "off the table") for u in gone)
            gone_seen += len(gone)
    assert gone_seen > 0, "some golden battle destroys a unit or sees one flee the table"


def test_every_path_has_its_players_colour(pages):
    for name, (_, shown) in pages.items():
        for f in shown:
            players = {u["id"]: u["player"] for u in f["units"]}
            for p in f["paths"]:
                assert p["player"] == players.get(p["unit"], p["player"]), (name, f["step"])


# Everything the browser drew, measured on the screen, frame after frame (by clicking next).
# A problem is [frame, what, unit]; none is the answer hoped for.
CHECK = r"""
const width = arguments[0], smallest = arguments[1];
const D = JSON.parse(document.getElementById("data").textContent);
const out = [];
const screen = (el, pts) => {   // points of el's own coordinates on the screen
  const m = el.getScreenCTM();
  return pts.map(([x, y]) => { const p = new DOMPoint(x, y).matrixTransform(m);
                               return [p.x, p.y]; });
};
const box = (r) => [[r.left, r.top], [r.right, r.top], [r.right, r.bottom], [r.left, r.bottom]];
function normals(poly) {
  const n = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i], b = poly[(i + 1) % poly.length];
    if (a[0] !== b[0] || a[1] !== b[1]) n.push([a[1] - b[1], b[0] - a[0]]);
  }
  return n;
}
function overlap(a, b) {   // convex shapes sharing more than a hair (0.5 px)
  for (const [nx, ny] of [...normals(a), ...normals(b)]) {
    const l = Math.hypot(nx, ny);
    const pa = a.map(([x, y]) => (x * nx + y * ny) / l);
    const pb = b.map(([x, y]) => (x * nx + y * ny) / l);
    if (Math.max(...pa) <= Math.min(...pb) + 0.5 || Math.max(...pb) <= Math.min(...pa) + 0.5)
      return false;
  }
  return true;
}
document.getElementById("first").click();
for (let i = 0; i < D.frames.length; i++) {
  if (i) document.getElementById("next").click();
  const f = D.frames[i];
  const svg = document.getElementById("table");
  const area = box(svg.getBoundingClientRect());
  const scale = Math.hypot(svg.getScreenCTM().a, svg.getScreenCTM().b);
  const units = [...svg.querySelectorAll("g.unit")];
  const shapes = units.map((g) => {
    const o = g.querySelector("rect.outline");
    if (o) { const x = +o.getAttribute("x"), y = +o.getAttribute("y"),
                   w = +o.getAttribute("width"), h = +o.getAttribute("height");
             return [g.dataset.unit,
                     [screen(o, [[x, y], [x + w, y], [x + w, y + h], [x, y + h]])]]; }
    return [g.dataset.unit, [...g.querySelectorAll("circle")].map((c) =>
      box(c.getBoundingClientRect()))];
  });
  const lines = [...svg.querySelectorAll("line[marker-end]")].map((l) => {
    const [a, b] = screen(l, [[+l.getAttribute("x1"), +l.getAttribute("y1")],
                              [+l.getAttribute("x2"), +l.getAttribute("y2")]]);
    const w = +l.getAttribute("stroke-width") * scale, head = 4 * w;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const nx = (a[1] - b[1]) / len * w / 2, ny = (b[0] - a[0]) / len * w / 2;
    return [l, [[a[0] + nx, a[1] + ny], [b[0] + nx, b[1] + ny], [b[0] - nx, b[1] - ny],
                [a[0] - nx, a[1] - ny]],
            [[b[0] - head, b[1] - head], [b[0] + head, b[1] - head],
             [b[0] + head, b[1] + head], [b[0] - head, b[1] + head]]];
  });
  const labels = [...svg.querySelectorAll("g.label")].map((g) => {
    const r = g.querySelector("rect").getBoundingClientRect();
    const t = g.querySelector("text");
    return [g.dataset.unit, box(r), t.getBoundingClientRect(),
            +t.getAttribute("font-size") * scale, t.textContent];
  });
  const drawn = f.units.map((u) => u.id);
  if (JSON.stringify(units.map((g) => g.dataset.unit)) !== JSON.stringify(drawn))
    out.push([i, "units drawn", ""]);
  if (JSON.stringify(labels.map((l) => l[0])) !== JSON.stringify(drawn))
    out.push([i, "a label for each unit", ""]);
  const legend = [...document.querySelectorAll("#legend [data-unit]")].map((e) => e.dataset.unit);
  if (JSON.stringify(legend) !== JSON.stringify(drawn)) out.push([i, "legend", ""]);
  for (const u of f.units) {
    const item = document.querySelector(`#legend [data-unit="${u.id}"]`);
    if (item && !!u.gone !== item.classList.contains("gone")) out.push([i, "legend greyed", u.id]);
  }
  for (const [id, rect, text, px, words] of labels) {
    if (px < smallest || text.height < smallest)
      out.push([i, `too small: ${px.toFixed(1)} px`, id]);
    const [l, t] = rect[0], [r, b] = rect[2];
    if (l < area[0][0] - 0.5 || t < area[0][1] - 0.5 || r > area[2][0] + 0.5 ||
        b > area[2][1] + 0.5) out.push([i, "outside the map", id]);
    if (text.width > r - l + 1) out.push([i, "text wider than its box", id]);
    for (const [other, parts] of shapes)
      if (other !== id && parts.some((p) => overlap(rect, p))) out.push([i, "over " + other, id]);
    for (const [line, stroke, head] of lines)
      if (overlap(rect, stroke) || overlap(rect, head))
        out.push([i, "under the path of " + line.dataset.unit, id]);
    for (const [other, orect] of labels)
      if (other !== id && overlap(rect, orect)) out.push([i, "over the label of " + other, id]);
  }
  for (const [line] of lines) {   // each path in the colour of the player who moved
    const p = f.paths.find((q) => q.unit === line.dataset.unit);
    if (!p || line.getAttribute("stroke") !== D.colours[p.player])
      out.push([i, "path colour", line.dataset.unit]);
  }
  const head = document.querySelector(".step.current .head").textContent;
  const where = document.getElementById("where").firstChild.textContent;
  const said = /^step (\d+) \[turn (\d+), ([^,]+), (.+?)\] /.exec(head);
  const shown = /^Step (\d+) of \d+(?: \[\w+\])? - turn (\d+), ([^,]+), (.+)$/.exec(where.trim());
  if (!said || !shown || said.slice(1).join("|") !== shown.slice(1).join("|"))
    out.push([i, `header "${where}" and log "${head}"`, ""]);
}
return out;
"""


def emulate(driver, width: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900 if width > 500 else 780,
        "deviceScaleFactor": 1 if width > 500 else 2, "mobile": width <= 500})


@pytest.mark.parametrize("width", [1280, 375])
def test_every_frame_of_every_golden_battle_reads_clearly(pages, driver, width):
    emulate(driver, width)
    problems = {}
    for name, (path, _) in pages.items():
        driver.get(path.as_uri())
        found = driver.execute_script(CHECK, width, SMALLEST_PX)
        if width == 1280:   # and zoomed in, where the fight is
            driver.find_element("id", "zoom").click()
            found += driver.execute_script(CHECK, width, SMALLEST_PX)
        if found:
            problems[name] = found[:8]
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, (name, errors)
    assert not problems, json.dumps(problems)


def test_a_step_the_log_does_not_have_opens_the_nearest_and_says_so(pages, driver):
    emulate(driver, 1280)
    path, shown = pages["mill_race"]
    last = shown[-1]["step"]
    for ask, opens in [(str(last + 40), last), ("abc", 0), (str(last), last)]:
        driver.get(f"{path.as_uri()}#step={ask}")
        where = driver.find_element("id", "where").text
        assert where.startswith(f"Step {opens} of {last}"), (ask, where)
        notice = driver.find_element("id", "notice").text
        if ask == str(last):
            assert notice == ""
        else:
            assert re.search(rf"#step={ask}.*steps run from 0 to {last}: showing step {opens}",
                             notice), notice


def test_the_page_draws_the_tables_cover_and_the_remaining_moves(pages, driver):
    """SHOOT.HIT, MOVE.*: the border patrol's wall (hard cover) and copse (soft cover) are on
    the table, and a march is drawn as a path like a charge."""
    emulate(driver, 1280)
    path, shown = pages["border_patrol"]
    driver.get(path.as_uri())
    assert len(driver.find_elements("css selector", "polygon.hard_cover")) == 1
    assert len(driver.find_elements("css selector", "polygon.cover")) == 1
    marching = next(f["step"] for f in shown if any(p["reason"] == "march" for p in f["paths"]))
    driver.get(f"{path.as_uri()}#step={marching}")
    assert driver.find_elements("css selector", "line.path.march")


@pytest.mark.parametrize(("name", "rule"), [("border_patrol", "VP.WIN"),
                                            ("the_brood", "SK.VICTORY")])
def test_the_header_says_who_won_and_why_and_opens_the_step_that_ended_it(pages, driver,
                                                                           name, rule):
    """VP.WIN, SK.VICTORY: the page's header tells the game's result as the log's last step
    does, and a click on it shows that step."""
    emulate(driver, 1280)
    path, shown = pages[name]
    driver.get(f"{path.as_uri()}#step=0")
    result = driver.find_element("id", "result").text
    assert result.startswith("Result: The game ends:") and f"({rule})" in result, result
    assert "wins" in result, result
    assert result.removeprefix("Result: ") == shown[-1]["ended"]
    driver.find_element("css selector", "#result a").click()
    assert driver.find_element("id", "where").text.startswith(f"Step {shown[-1]['step']} of")


def test_a_log_cut_before_the_end_says_the_game_is_not_over():
    _, game = story("border_patrol")
    records = game.records
    cut = next(i for i, r in enumerate(records) if r.type == "GameEnded")
    assert data_of(page(records[:cut]))["result"] is None
    result = data_of(page(records))["result"]["text"]
    assert "orcs wins, with more points (VP.WIN)" in result
    assert "Scored: orcs: Empire Handgunners 80 (destroyed)" in result   # VP.POINTS, by unit
