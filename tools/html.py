"""``regiment replay --html OUT.html``: one self-contained page to settle a dispute.

The page holds every step of the log as a frame: the table after the step, drawn as SVG (each
unit its real rectangle, facing shown by its front edge, with its name; the step's charge,
flee and pursuit paths drawn), the step's command and its narrated outcomes with their rule
IDs and seed pages, the turn and phase, and whether the step is live, undone or abandoned.
Buttons, a slider and a turn-and-phase list move between frames. The page says whether the
hash chain and every outcome verified. It loads nothing from the network.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any

import regiment.phases  # noqa: F401 - registers the presets the pages are drawn with
from regiment.core import geometry as geo
from regiment.core.errors import RegimentError
from regiment.core.fold import appliers_for
from regiment.core.game import find_preset
from regiment.core.history import Timeline
from regiment.core.record import Record
from regiment.core.upcast import decode_event
from regiment.phases.fantasy.state import State, fantasy
from regiment.phases.fantasy.units import box

from .replay import QUIET, command_text, steps
from .source import published_note
from .verify import verify

MOVES = ("charge", "failed_charge", "flee", "pursuit", "overrun", "return", "reform",
         "close_up", "rally")


def frames(records: Sequence[Record]) -> list[dict[str, Any]]:
    """One frame a step: the table after it, what it did, and what the rules said."""
    first = decode_event(records[0].type, records[0].v, records[0].data)
    preset = find_preset(first.preset)  # type: ignore[attr-defined]
    timeline = Timeline(preset, appliers_for(preset.appliers))
    out: list[dict[str, Any]] = []
    before: State | None = None
    for batch in steps(records):
        events = [decode_event(r.type, r.v, r.data, f"record {r.seq}") for r in batch]
        head = batch[0]
        by = head.data.get("by", "") if head.type == "CommandIssued" else ""
        phase = (before.phase if before is not None else "") or "set-up"
        timeline.feed(head.step, events, by, head.seq)
        after = fantasy(timeline.state)
        lines = [text for r in batch if r.type not in QUIET
                 for text in (preset.sentence(r.type, r.data, after),) if text]
        paths = []
        if before is not None:
            for r in batch:
                if r.type == "UnitMoved" and r.data["reason"] in MOVES:
                    uid = r.data["unit"]
                    if uid in before.units and uid in after.units:
                        paths.append({"reason": r.data["reason"],
                                      "from": _point(geo.centre(box(before.units[uid]))),
                                      "to": _point(geo.centre(box(after.units[uid])))})
        out.append({
            "step": head.step,
            "title": command_text(head) if head.type == "CommandIssued" else "set-up",
            "turn": after.turn, "player": after.player,
            "asked_in": phase.replace("turn.", "").replace(".", " > "),
            "phase": after.phase.replace("turn.", "").replace(".", " > ") or "set-up",
            "lines": lines, "paths": paths, "units": _units(after),
        })
        before = after
    status = timeline.status()
    for f in out:
        f["branch"] = status.get(f["step"], "live")
    return out


def _point(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def _units(state: State) -> list[dict[str, Any]]:
    """The units on the table as drawn: corners, front edge, centre, name, models."""
    out = []
    for u in state.units.values():
        if u.status in ("destroyed", "off_table") or u.models <= 0:
            continue
        b = box(u)
        fl, fr, br, bl = geo.corners(b)
        out.append({"id": u.id, "name": u.name, "player": u.player, "status": u.status,
                    "models": u.models, "corners": [_point(c) for c in (fl, fr, br, bl)],
                    "front": [_point(fl), _point(fr)], "centre": _point(geo.centre(b))})
    return out


def page(records: Sequence[Record], title: str = "") -> str:
    """The whole HTML page for a game's records."""
    shown = frames(records)
    try:
        report = verify(records)
        ok, text = True, (f"Verified: the hash chain of {report.records} records is intact "
                          f"and every outcome was re-derived from its command "
                          f"({report.steps} steps, {report.dice} dice).")
    except RegimentError as exc:
        ok, text = False, f"NOT verified: {exc}"
    published = published_note(list(records[:1]))
    if published:
        text += f" Beware: {published}."
    verdict = {"ok": ok, "text": text}
    started = records[0].data
    scenario = started["scenario"]
    width, depth = scenario["table"]["width"], scenario["table"]["depth"]
    xs = [c[0] for f in shown for u in f["units"] for c in u["corners"]] or [0.0, width]
    ys = [c[1] for f in shown for u in f["units"] for c in u["corners"]] or [0.0, depth]
    margin = 4.0   # the view: where the units went, with some table around them
    view = [max(0.0, min(xs) - margin), max(0.0, min(ys) - margin),
            min(width, max(xs) + margin), min(depth, max(ys) + margin)]
    data = {"frames": shown, "verdict": verdict, "view": [round(v, 3) for v in view],
            "table": {"width": width, "depth": depth,
                      "hills": scenario["table"].get("hills", [])},
            "players": [p["id"] for p in scenario["players"]],
            "title": title or scenario.get("name") or f"game {started['game_id']}",
            "game": started["game_id"], "preset": started["preset"],
            "engine": started["engine_version"]}
    fill = {"TITLE": html.escape(str(data["title"])), "DATA": script_json(data)}
    # one pass, so that a name holding "__DATA__" is not filled in itself
    return re.sub(r"__(TITLE|DATA)__", lambda m: fill[m.group(1)], TEMPLATE)


# Characters that could end or change an inline script's data, written as JSON escapes: the
# HTML parser sees no "<", so "</script>", "<!--" and "<script" in a name stay text.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                              "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(value: Any) -> str:
    """JSON to put inside ``<script type="application/json">``, whatever strings it holds."""
    return json.dumps(value, separators=(",", ":")).translate(_SCRIPT_SAFE)


TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__ - regiment replay</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #f4f1ea; }
header { padding: 8px 16px; background: #2d3a2e; color: #f4f1ea; }
header h1 { font-size: 18px; margin: 0 0 2px 0; }
#verdict.ok { color: #b9f0b0; } #verdict.bad { color: #ffb0a0; font-weight: bold; }
main { display: flex; gap: 12px; padding: 12px; }
#left { flex: 3; min-width: 0; }
#right { flex: 2; min-width: 320px; max-height: 86vh; overflow-y: auto; background: #fff;
         border: 1px solid #ccc; padding: 4px 8px; }
svg { width: 100%; max-height: 62vh; background: #5b6e47; border: 2px solid #4a3b2a; }
.controls { display: flex; align-items: center; gap: 6px; margin: 8px 0; flex-wrap: wrap; }
.controls input[type=range] { flex: 1; min-width: 160px; }
#where { font-weight: bold; }
#now { background: #fff; border: 1px solid #ccc; padding: 6px 10px; min-height: 4em; }
.step { padding: 3px 4px; border-bottom: 1px solid #eee; cursor: pointer; }
.step.current { background: #fff3c4; }
.step .head { font-weight: 600; }
.step .line { margin-left: 14px; }
.step.undone, .step.abandoned { color: #888; background: #f0f0f0; }
.step.undone .head::before { content: "[undone] "; color: #a33; }
.step.abandoned .head::before { content: "[taken back] "; color: #a33; }
.unitname { font-family: sans-serif; text-anchor: middle; dominant-baseline: middle;
            pointer-events: none; paint-order: stroke; stroke: #0008; }
</style>
</head>
<body>
<header><h1 id="title"></h1><div id="meta"></div><div id="verdict"></div></header>
<main>
<div id="left">
  <div class="controls">
    <button id="first" title="first step">|&lt;</button>
    <button id="prev" title="previous step">&lt; prev</button>
    <button id="next" title="next step">next &gt;</button>
    <button id="last" title="last step">&gt;|</button>
    <input id="slider" type="range" min="0" value="0">
    <select id="jump" title="jump to a turn and phase"></select>
  </div>
  <div id="where"></div>
  <svg id="table" xmlns="http://www.w3.org/2000/svg"></svg>
  <div id="now"></div>
</div>
<div id="right"><div id="log"></div></div>
</main>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const F = D.frames, W = D.table.width, H = D.table.depth;
const COLOURS = ["#c0392b", "#2b5fc0", "#8e44ad", "#16a085"];
const PATHS = {charge: "#e74c3c", failed_charge: "#e67e22", flee: "#f1c40f",
               pursuit: "#9b59b6", overrun: "#9b59b6", reform: "#ecf0f1",
               close_up: "#ecf0f1", rally: "#ecf0f1", "return": "#1abc9c"};
let at = 0;
const $ = (id) => document.getElementById(id);
const svg = $("table");
const [X0, Y0, X1, Y1] = D.view;
const FONT = Math.max(0.6, (X1 - X0) / 70);
svg.setAttribute("viewBox", `${X0} ${H - Y1} ${X1 - X0} ${Y1 - Y0}`);
const NS = "http://www.w3.org/2000/svg";
const colour = (p) => COLOURS[Math.max(0, D.players.indexOf(p)) % COLOURS.length];
const pt = (p) => `${p[0].toFixed(3)},${(H - p[1]).toFixed(3)}`;
function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function draw(f) {
  svg.replaceChildren();
  const defs = el("defs", {});
  for (const k in PATHS) {
    const m = el("marker", {id: "arrow-" + k, viewBox: "0 0 10 10", refX: 8, refY: 5,
                             markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse"});
    m.appendChild(el("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: PATHS[k]}));
    defs.appendChild(m);
  }
  svg.appendChild(defs);
  svg.appendChild(el("rect", {x: 0, y: 0, width: W, height: H, fill: "#7d9a63"}));
  for (const hill of D.table.hills)
    svg.appendChild(el("polygon", {points: hill.map(pt).join(" "), fill: "#a8b97a",
                                   stroke: "#6b7a45", "stroke-width": 0.15}));
  for (const u of f.units) {
    const g = el("g", {"data-unit": u.id, opacity: u.status === "fleeing" ? 0.6 : 1});
    g.appendChild(el("polygon", {points: u.corners.map(pt).join(" "), fill: colour(u.player),
                                 stroke: "#111", "stroke-width": 0.08,
                                 "stroke-dasharray": u.status === "fleeing" ? "0.4 0.3" : ""}));
    g.appendChild(el("line", {x1: u.front[0][0], y1: H - u.front[0][1], x2: u.front[1][0],
                              y2: H - u.front[1][1], stroke: "#fff", "stroke-width": 0.35}));
    g.appendChild(el("text", {x: u.centre[0], y: H - u.centre[1], class: "unitname",
                              fill: "#fff", "font-size": FONT, "stroke-width": FONT / 8},
                     `${u.name} (${u.models})`));
    svg.appendChild(g);
  }
  for (const p of f.paths)
    svg.appendChild(el("line", {x1: p.from[0], y1: H - p.from[1], x2: p.to[0],
                                y2: H - p.to[1], stroke: PATHS[p.reason] || "#fff",
                                "stroke-width": 0.25, "stroke-dasharray": "0.8 0.4",
                                "marker-end": `url(#arrow-${p.reason})`}));
}
function show(i) {
  at = Math.max(0, Math.min(F.length - 1, i));
  const f = F[at];
  draw(f);
  $("slider").value = at;
  const branch = f.branch === "live" || f.branch === "meta" ? "" : ` [${f.branch}]`;
  $("where").textContent = `Step ${f.step} of ${F[F.length - 1].step}${branch} - turn ` +
    `${f.turn}, ${f.player || "-"}, ${f.phase}`;
  $("now").replaceChildren();
  const h = document.createElement("div");
  h.className = "head"; h.textContent = f.title;
  $("now").appendChild(h);
  for (const line of f.lines) {
    const d = document.createElement("div"); d.textContent = line; $("now").appendChild(d);
  }
  for (const e of document.querySelectorAll(".step.current")) e.classList.remove("current");
  const cur = $("s" + at);
  cur.classList.add("current");
  cur.scrollIntoView({block: "nearest"});
  let j = 0;
  for (let k = 0; k < JUMPS.length; k++) if (JUMPS[k] <= at) j = k;
  $("jump").value = String(j);
}
const JUMPS = [];
let seen = "";
F.forEach((f, i) => {
  const key = `Turn ${f.turn}, ${f.player || "-"}: ${f.phase.split(" > ")[0]}`;
  if (key !== seen) {
    seen = key; JUMPS.push(i);
    const o = document.createElement("option");
    o.value = String(JUMPS.length - 1); o.textContent = key; $("jump").appendChild(o);
  }
  const s = document.createElement("div");
  s.className = "step " + f.branch; s.id = "s" + i;
  const h = document.createElement("div");
  h.className = "head"; h.textContent = `step ${f.step} [${f.asked_in}] ${f.title}`;
  s.appendChild(h);
  for (const line of f.lines) {
    const d = document.createElement("div"); d.className = "line"; d.textContent = line;
    s.appendChild(d);
  }
  s.addEventListener("click", () => show(i));
  $("log").appendChild(s);
});
$("title").textContent = D.title;
$("meta").replaceChildren(`game ${D.game} - ${D.preset} - engine ${D.engine} - ` +
  `${F.length} steps - `);
D.players.forEach((p, i) => {
  const k = document.createElement("span");
  k.textContent = ` ${p} `;
  k.style.background = colour(p); k.style.color = "#fff"; k.style.marginRight = "4px";
  $("meta").appendChild(k);
});
$("verdict").textContent = D.verdict.text;
$("verdict").className = D.verdict.ok ? "ok" : "bad";
$("slider").max = F.length - 1;
$("slider").addEventListener("input", (e) => show(Number(e.target.value)));
$("jump").addEventListener("change", (e) => show(JUMPS[Number(e.target.value)]));
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(F.length - 1));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(at + 1);
  if (e.key === "ArrowLeft") show(at - 1);
});
show(0);
</script>
</body>
</html>
"""
