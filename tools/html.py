"""``regiment replay --html OUT.html``: one self-contained page to settle a dispute.

The page holds every step of the log as a frame: the table after the step, drawn as SVG (each
unit its real rectangle, facing shown by its front edge, with its name; the step's charge,
flee and pursuit paths drawn), the step's command and its narrated outcomes with their rule
IDs and seed pages, the turn and phase, and whether the step is live, undone or abandoned.
Buttons, a slider and a turn-and-phase list move between frames. The page says whether the
hash chain and every outcome verified. It loads nothing from the network.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Sequence
from typing import Any

import regiment.phases  # noqa: F401 - registers the presets the pages are drawn with
from regiment.core.errors import RegimentError
from regiment.core.fold import appliers_for
from regiment.core.game import find_preset
from regiment.core.history import Timeline
from regiment.core.protocols import view_of
from regiment.core.record import Record
from regiment.core.upcast import decode_event

from .replay import QUIET, command_text, steps
from .source import published_note
from .verify import verify


def frames(records: Sequence[Record]) -> list[dict[str, Any]]:
    """One frame a step: the table after it, what it did, and what the rules said."""
    first = decode_event(records[0].type, records[0].v, records[0].data)
    preset = find_preset(first.preset)  # type: ignore[attr-defined]
    timeline = Timeline(preset, appliers_for(preset.appliers))
    view = view_of(preset)
    out: list[dict[str, Any]] = []
    before: Any = None
    for batch in steps(records):
        events = [decode_event(r.type, r.v, r.data, f"record {r.seq}") for r in batch]
        head = batch[0]
        by = head.data.get("by", "") if head.type == "CommandIssued" else ""
        phase = (before.phase if before is not None else "") or "set-up"
        timeline.feed(head.step, events, by, head.seq)
        after = timeline.state
        lines = [text for r in batch if r.type not in QUIET
                 for text in (preset.sentence(r.type, r.data, after),) if text]
        paths = view.paths(before, after, batch) if view is not None and before is not None \
            else []
        out.append({
            "step": head.step,
            "title": command_text(head) if head.type == "CommandIssued" else "set-up",
            "turn": after.turn, "player": after.player,
            "asked_in": phase.replace("turn.", "").replace(".", " > "),
            "phase": after.phase.replace("turn.", "").replace(".", " > ") or "set-up",
            "lines": lines, "paths": paths,
            "units": view.drawing(after) if view is not None else [],
        })
        if getattr(after, "table", {}).get("measured") and view is not None:
            # table mode: no positions to draw; the units as they stand, and the
            # measurements the players took, which the step's lines tell (TABLE.MEASURE)
            out[-1]["roster"] = [list(row) for row in view.roster(after)]
        before = after
    status = timeline.status()
    for f in out:
        f["branch"] = status.get(f["step"], "live")
    return out


# Colours a player's units are drawn in when the scenario gives none: picked by the player's
# id, so that the same army has the same colour in every battle (issue 12). When two ids pick
# the same colour, the id that sorts first keeps it and the other takes the next free one.
# (no green: the table is green; no two hues close enough to be taken for each other)
PALETTE = ("#c0392b", "#2471a3", "#7d3c98", "#b7950b", "#1c2833", "#0e6655")


def own_colour(player_id: str) -> str:
    """The colour an id picks: the same for that id in every battle."""
    digest = hashlib.blake2b(player_id.encode(), digest_size=2).digest()
    return PALETTE[int.from_bytes(digest, "big") % len(PALETTE)]


def colours(players: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Each player's colour: the scenario's, or the one its id picks."""
    out = {p["id"]: p["colour"] for p in players if p.get("colour")}
    for pid in sorted(p["id"] for p in players if not p.get("colour")):
        start = PALETTE.index(own_colour(pid))
        out[pid] = next((c for k in range(len(PALETTE))
                         for c in (PALETTE[(start + k) % len(PALETTE)],)
                         if c not in out.values()), own_colour(pid))
    return {p["id"]: out[p["id"]] for p in players}


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
    xs = [c[0] for f in shown for u in f["units"] for c in u["corners"]]
    ys = [c[1] for f in shown for u in f["units"] for c in u["corners"]]
    margin = 1.5   # the view: the whole table and its edges, and any unit that left it
    view = [min([0.0, *xs]) - margin, min([0.0, *ys]) - margin,
            max([width, *xs]) + margin, max([depth, *ys]) + margin]
    near = 4.0     # the closer view: where the units went, with some table around them
    close = [min(xs, default=0.0) - near, min(ys, default=0.0) - near,
             max(xs, default=width) + near, max(ys, default=depth) + near]
    data = {"frames": shown, "verdict": verdict, "view": [round(v, 3) for v in view],
            "close": [round(v, 3) for v in close],
            "table": {"width": width, "depth": depth,
                      "hills": scenario["table"].get("hills", []),
                      "difficult": scenario["table"].get("difficult", []),
                      "blocking": scenario["table"].get("blocking", [])},
            "players": [p["id"] for p in scenario["players"]],
            "colours": colours(scenario["players"]),
            "measured": bool(scenario.get("table", {}).get("measured")),
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


TEMPLATE = r"""<!doctype html>
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
svg { width: 100%; max-height: 62vh; background: #3f4a35; }
.controls { display: flex; align-items: center; gap: 6px; margin: 8px 0; flex-wrap: wrap; }
.controls input[type=range] { flex: 1; min-width: 160px; }
#where { font-weight: bold; }
#where a { font-weight: normal; margin-left: 8px; }
#now { background: #fff; border: 1px solid #ccc; padding: 6px 10px; min-height: 4em; }
#legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 6px 0; font-size: 13px; }
#legend .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
#legend .fleeing { font-style: italic; }
.step { padding: 3px 4px; border-bottom: 1px solid #eee; cursor: pointer; }
.step.current { background: #fff3c4; }
.step .head { font-weight: 600; }
.step .line { margin-left: 14px; }
.step.undone, .step.abandoned { color: #888; background: #f0f0f0; }
.step.undone .head::before { content: "[undone] "; color: #a33; }
.step.abandoned .head::before { content: "[taken back] "; color: #a33; }
.unitname { font-family: sans-serif; text-anchor: middle; dominant-baseline: middle;
            pointer-events: none; paint-order: stroke; stroke: #000a; }
.keys { color: #666; font-size: 12px; }
@media print {
  body { background: #fff; }
  header { background: #fff; color: #000; border-bottom: 1px solid #000; }
  #verdict.ok, #verdict.bad { color: #000; }
  .controls, .keys { display: none; }
  main { display: block; padding: 0; }
  #right { max-height: none; overflow: visible; border: none; padding: 0; }
  svg { max-height: none; break-inside: avoid; }
  .step { break-inside: avoid; }
}
</style>
</head>
<body>
<header><h1 id="title"></h1><div id="meta"></div><div id="verdict"></div></header>
<main>
<div id="left">
  <div class="controls">
    <button id="first" title="first step (Home)">|&lt;</button>
    <button id="prev" title="previous step (left arrow)">&lt; prev</button>
    <button id="next" title="next step (right arrow)">next &gt;</button>
    <button id="last" title="last step (End)">&gt;|</button>
    <input id="slider" type="range" min="0" value="0" aria-label="step">
    <select id="jump" title="jump to a turn and phase (Page Up, Page Down)"></select>
    <button id="zoom" title="the whole table, or where the units are (z)">zoom in</button>
  </div>
  <div class="keys">Keys: left and right arrows step, Page Up and Page Down jump a phase,
    Home and End go to the first and last step, z zooms. The address links to the step
    shown.</div>
  <div id="where"></div>
  <svg id="table" xmlns="http://www.w3.org/2000/svg" role="img"
       aria-label="the table at this step"></svg>
  <div id="legend"></div>
  <div id="now"></div>
</div>
<div id="right"><div id="log"></div></div>
</main>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const F = D.frames, W = D.table.width, H = D.table.depth;
const PATHS = {charge: "#e74c3c", fall_back: "#f1c40f", consolidate: "#ecf0f1",
               failed_charge: "#e67e22", flee: "#f1c40f",
               pursuit: "#9b59b6", overrun: "#9b59b6", reform: "#ecf0f1",
               close_up: "#ecf0f1", rally: "#ecf0f1", "return": "#1abc9c"};
let at = 0;
const $ = (id) => document.getElementById(id);
const svg = $("table");
let FONT = 1;
let zoomed = false;
function frame() {   // the whole table, or (zoomed) where the units are
  const [X0, Y0, X1, Y1] = zoomed ? D.close : D.view;
  FONT = Math.max(0.6, (X1 - X0) / 70);
  svg.setAttribute("viewBox", `${X0} ${H - Y1} ${X1 - X0} ${Y1 - Y0}`);
  $("zoom").textContent = zoomed ? "whole table" : "zoom in";
}
frame();
const NS = "http://www.w3.org/2000/svg";
const colour = (p) => D.colours[p] || "#777";
const pt = (p) => `${p[0].toFixed(3)},${(H - p[1]).toFixed(3)}`;
function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
// A unit in its own frame: the front edge's centre at the origin, forward up the page; each
// model a base in its rank and file (a short rear rank from the left, as the rules count
// it). Its label is sized to fit inside it and clipped to it, so that a name never covers
// another unit: a unit too small for its name shows its number, and the legend names it.
function drawUnit(u, n) {
  const [bw, bd] = u.base, files = u.files, ranks = Math.ceil(u.models / files);
  const w = files * bw, d = ranks * bd, gap = Math.min(bw, bd) * 0.06;
  const g = el("g", {"data-unit": u.id, class: "unit " + u.status,
                     transform: `translate(${u.at[0]} ${H - u.at[1]}) rotate(${u.facing})`,
                     opacity: u.status === "fleeing" ? 0.65 : 1});
  const clip = el("clipPath", {id: "clip-" + n});
  clip.appendChild(el("rect", {x: -w / 2, y: 0, width: w, height: d}));
  g.appendChild(clip);
  g.appendChild(el("rect", {x: -w / 2, y: 0, width: w, height: d, fill: "#0003",
                            stroke: "#111", "stroke-width": 0.08,
                            "stroke-dasharray": u.status === "fleeing" ? "0.4 0.3" : ""}));
  const heroes = new Set(u.characters.map((c) => c.file));   // characters: front rank
  for (let r = 0; r < ranks; r++) {
    const inRank = Math.min(files, u.models - r * files);
    const left = -w / 2;   // a short rear rank stands from the left, as the rules count it
    for (let f = 0; f < inRank; f++) {
      const hero = r === 0 && heroes.has(f);
      g.appendChild(el("rect", {class: hero ? "model character" : "model",
                                x: left + f * bw + gap, y: r * bd + gap,
                                width: bw - 2 * gap, height: bd - 2 * gap,
                                fill: colour(u.player), stroke: hero ? "#f1c40f" : "#0006",
                                "stroke-width": hero ? 0.15 : 0.04}));
    }
  }
  g.appendChild(el("line", {x1: -w / 2, y1: 0, x2: w / 2, y2: 0, stroke: "#fff",
                            "stroke-width": 0.3}));
  let label = `${u.name} (${u.models})`;
  let size = Math.min(FONT, 0.94 * w / (0.58 * label.length), 0.8 * d);
  if (size < FONT * 0.55) {
    label = String(n);
    size = Math.min(FONT, 0.9 * w / (0.62 * label.length), 0.8 * d);
  }
  const upright = u.facing > 90 && u.facing < 270 ? ` rotate(180 0 ${d / 2})` : "";
  g.appendChild(el("text", {x: 0, y: d / 2, class: "unitname", fill: "#fff",
                            "font-size": size.toFixed(3), "stroke-width": size / 8,
                            "clip-path": `url(#clip-${n})`, transform: upright.trim()},
                   label));
  return g;
}
// A squad of the skirmish game: each model its round base where it stands, a model that has
// lost wounds ringed in white; the squad's number beside its first model (the legend names it).
function drawSquad(u, n) {
  const g = el("g", {"data-unit": u.id, class: "unit " + u.status,
                     opacity: u.status === "falling_back" ? 0.65 : 1});
  u.circles.forEach((c, k) => {
    const hurt = u.wounds && u.wounds[k] < Math.max(...u.wounds);
    g.appendChild(el("circle", {class: "model", cx: c[0], cy: H - c[1], r: c[2] * 0.96,
                                fill: colour(u.player), stroke: hurt ? "#fff" : "#0008",
                                "stroke-width": hurt ? 0.12 : 0.05}));
  });
  const [x, y, r] = u.circles[0];
  const size = Math.max(FONT * 0.8, r);
  g.appendChild(el("text", {x: x, y: H - y - r - size * 0.6, class: "unitname", fill: "#fff",
                            "font-size": size.toFixed(3), "stroke-width": size / 8},
                   String(n)));
  return g;
}
function roster(f) {   // table mode: the units are on the players' table, not drawn here
  svg.style.display = "none";
  $("zoom").style.display = "none";
  const note = document.createElement("div");
  note.className = "tablemode";
  note.textContent = "Played in table mode: the units stood on the players' own table, " +
    "so there are no positions to draw. The measurements the players took are told in " +
    "the log, each with the rule that asked for it.";
  const rows = document.createElement("table");
  rows.id = "roster";
  for (const row of f.roster) {
    const tr = document.createElement("tr");
    for (const cell of row) {
      const td = document.createElement("td"); td.textContent = cell; tr.appendChild(td);
    }
    rows.appendChild(tr);
  }
  $("legend").replaceChildren(note, rows);
}
function draw(f) {
  if (D.measured) return roster(f);
  svg.replaceChildren();
  const defs = el("defs", {});
  for (const k in PATHS) {
    const m = el("marker", {id: "arrow-" + k, viewBox: "0 0 10 10", refX: 8, refY: 5,
                             markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse"});
    m.appendChild(el("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: PATHS[k]}));
    defs.appendChild(m);
  }
  svg.appendChild(defs);
  svg.appendChild(el("rect", {id: "edge", x: 0, y: 0, width: W, height: H, fill: "#7d9a63",
                              stroke: "#2a2117", "stroke-width": 0.3}));
  for (const area of D.table.difficult)   // difficult terrain (the skirmish game)
    svg.appendChild(el("polygon", {points: area.map(pt).join(" "), fill: "#7a5c3a",
                                   "fill-opacity": 0.55, stroke: "#4a3520",
                                   "stroke-width": 0.12, "stroke-dasharray": "0.4 0.2"}));
  for (const hill of D.table.hills)
    svg.appendChild(el("polygon", {points: hill.map(pt).join(" "), fill: "#a8b97a",
                                   stroke: "#6b7a45", "stroke-width": 0.15}));
  for (const wall of D.table.blocking || [])   // terrain that blocks sight and movement
    svg.appendChild(el("polygon", {points: wall.map(pt).join(" "), fill: "#5b5650",
                                   stroke: "#2a2117", "stroke-width": 0.2,
                                   "class": "blocking"}));
  $("legend").replaceChildren();
  f.units.forEach((u, i) => {
    svg.appendChild(u.circles ? drawSquad(u, i + 1) : drawUnit(u, i + 1));
    const item = document.createElement("span");
    item.className = u.status;
    const sw = document.createElement("span");
    sw.className = "swatch"; sw.style.background = colour(u.player);
    const withThem = u.characters.length ?
      `, with ${u.characters.map((c) => c.name).join(", ")}` : "";
    item.append(sw, `${i + 1}. ${u.name}: ${u.models} (${u.status}${withThem})`);
    $("legend").appendChild(item);
  });
  for (const p of f.paths)
    svg.appendChild(el("line", {x1: p.from[0], y1: H - p.from[1], x2: p.to[0],
                                y2: H - p.to[1], stroke: PATHS[p.reason] || "#fff",
                                "stroke-width": 0.25, "stroke-dasharray": "0.8 0.4",
                                "marker-end": `url(#arrow-${p.reason})`}));
}
function show(i, keepAddress) {
  at = Math.max(0, Math.min(F.length - 1, i));
  const f = F[at];
  draw(f);
  $("slider").value = at;
  const branch = f.branch === "live" || f.branch === "meta" ? "" : ` [${f.branch}]`;
  $("where").textContent = `Step ${f.step} of ${F[F.length - 1].step}${branch} - turn ` +
    `${f.turn}, ${f.player || "-"}, ${f.phase}`;
  const link = document.createElement("a");
  link.href = `#step=${f.step}`; link.textContent = "link to this step";
  $("where").appendChild(link);
  if (!keepAddress) {
    try { history.replaceState(null, "", `#step=${f.step}`); } catch (e) { /* file: */ }
  }
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
  $("jump").value = String(phaseOf(at));
}
const JUMPS = [];
function phaseOf(i) {
  let j = 0;
  for (let k = 0; k < JUMPS.length; k++) if (JUMPS[k] <= i) j = k;
  return j;
}
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
D.players.forEach((p) => {
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
const zoom = () => { zoomed = !zoomed; frame(); show(at, true); };
$("zoom").addEventListener("click", zoom);
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || ["INPUT", "SELECT"].includes(e.target.tagName))
    return;   // the slider and the list take their own keys
  const go = {ArrowRight: () => at + 1, ArrowLeft: () => at - 1, Home: () => 0,
              End: () => F.length - 1,
              PageDown: () => JUMPS[Math.min(JUMPS.length - 1, phaseOf(at) + 1)],
              PageUp: () => JUMPS[Math.max(0, phaseOf(at) - (JUMPS[phaseOf(at)] === at ? 1
                                                                                      : 0))]};
  if (e.key in go) { e.preventDefault(); show(go[e.key]()); }
  if (e.key === "z") zoom();
});
// #step=36 opens step 36 (the link "link to this step" gives)
function fromAddress() {
  const m = /^#step=(\d+)$/.exec(location.hash);
  const i = m ? F.findIndex((f) => f.step === Number(m[1])) : -1;
  return i;
}
window.addEventListener("hashchange", () => {
  const i = fromAddress();
  if (i >= 0) show(i, true);
});
const opened = fromAddress();
show(opened >= 0 ? opened : 0, opened < 0);
</script>
</body>
</html>
"""
