"""``regiment replay --html OUT.html``: one self-contained page to settle a dispute.

The page holds every step of the log as a frame: the table after the step, drawn as SVG (each
unit its real rectangle, facing shown by its front edge; units destroyed or gone off the table
greyed where they were last seen; the step's charge, flee and pursuit paths in the colour of
the player who moved), the step's command and its narrated outcomes with their rule IDs and
seed pages, the turn and phase it was asked in (the same in the header and the log), and
whether the step is live, undone or abandoned. Labels are placed in the browser, at a size
read on the screen (tools/data/replay.html: its script). Buttons, a slider and a
turn-and-phase list move between frames. The page says whether the hash chain and every
outcome verified. It loads nothing from the network.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

import regiment.phases  # noqa: F401 - registers the presets the pages are drawn with
from regiment.core.errors import RegimentError
from regiment.core.game import find_preset
from regiment.core.protocols import view_of
from regiment.core.record import Record, data_now
from regiment.core.upcast import decode_event
from regiment.core.walk import Step, walk

from .replay import QUIET, command_text
from .source import published_note
from .verify import verify


def frames(records: Sequence[Record]) -> list[dict[str, Any]]:
    """One frame a step: the table after it, what it did, and what the rules said.

    Each frame says where the step was asked (``turn``, ``player``, ``phase``: what the log's
    line for it says) and where the game stood after it (``next_phase``). A unit keeps its
    number (``n``) for the whole game, and a unit destroyed or gone off the table stays in
    every later frame where it was last seen, marked ``gone``, so that the map and the legend
    still show what became of it.
    """
    (shown,) = walk(records, [Frames(records)])
    return shown  # type: ignore[no-any-return]  # what Frames.end makes


class Frames:
    """The replay page's frames (a visitor of ``core.walk``, which folds the log for it)."""

    states = True
    events = False

    def __init__(self, records: Sequence[Record]) -> None:
        first = decode_event(records[0].type, records[0].v, records[0].data)
        self.preset = find_preset(first.preset)  # type: ignore[attr-defined]
        self.view = view_of(self.preset)
        self.out: list[dict[str, Any]] = []
        self.numbers: dict[str, int] = {}          # a unit's number: the order it was first drawn
        self.last_seen: dict[str, dict[str, Any]] = {}

    def visit(self, step: Step) -> None:
        batch, before, after = step.records, step.before, step.after
        assert after is not None
        preset, view = self.preset, self.view
        head = batch[0]
        lines: list[str] = []
        ended = ""
        for r in batch:
            text = ("" if r.type in QUIET else
                    preset.sentence(r.type, data_now(r), after) or "")
            if text:
                lines.append(text)
            if r.type == "GameEnded":   # GAME.END, VP.WIN, SK.VICTORY: who won and why
                ended = text
        paths = view.paths(before, after, batch) if view is not None and before is not None \
            else []
        asked = before if before is not None else after
        self.out.append({
            "step": head.step,
            "title": command_text(head) if head.type == "CommandIssued" else "set-up",
            "turn": asked.turn, "player": asked.player,
            "phase": _phase(asked.phase if before is not None else ""),
            "next_phase": _phase(after.phase), "next_player": after.player,
            "lines": lines, "paths": paths, "ended": ended,
            "units": _units(view.drawing(after) if view is not None else [],
                            view.ends(after) if view is not None else {},
                            self.numbers, self.last_seen),
        })
        if getattr(after, "table", {}).get("measured") and view is not None:
            # table mode: no positions to draw; the units as they stand, and the
            # measurements the players took, which the step's lines tell (TABLE.MEASURE)
            self.out[-1]["roster"] = [list(row) for row in view.roster(after)]

    def end(self, branches: Mapping[int, str]) -> list[dict[str, Any]]:
        for f in self.out:
            f["branch"] = branches.get(f["step"], "live")
        return self.out


GONE = ("destroyed", "off the table")   # how a unit ended that leaves its place on the map


def _phase(phase: str) -> str:
    return phase.replace("turn.", "").replace(".", " > ").replace("_", " ") or "set-up"


def _units(drawn: list[dict[str, Any]], ends: dict[str, str], numbers: dict[str, int],
           last_seen: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The units to draw, in the order of their numbers: those on the table, and those gone
    from it where they were last seen (a character that joined a unit is drawn in it)."""
    here = {u["id"] for u in drawn}
    for u in drawn:
        numbers.setdefault(u["id"], len(numbers) + 1)
        last_seen[u["id"]] = u
    gone = [{**last_seen[uid], "gone": True, "status": ends[uid]}
            for uid in last_seen if uid not in here and ends.get(uid) in GONE]
    return sorted(({**u, "n": numbers[u["id"]]} for u in [*drawn, *gone]),
                  key=lambda u: u["n"])


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
    # the game's result: the ending of the line that was played on, not of an undone branch
    result = next(({"step": f["step"], "text": f["ended"]} for f in reversed(shown)
                   if f["ended"] and f["branch"] == "live"), None)
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
    data = {"frames": shown, "verdict": verdict, "result": result,
            "view": [round(v, 3) for v in view],
            "close": [round(v, 3) for v in close],
            "table": {"width": width, "depth": depth,
                      "hills": scenario["table"].get("hills", []),
                      "difficult": scenario["table"].get("difficult", []),
                      "blocking": scenario["table"].get("blocking", []),
                      # SHOOT.HIT, SK.SHOOT: cover (the fantasy game's soft and hard)
                      "cover": [*scenario["table"].get("soft_cover", []),
                                *scenario["table"].get("cover", [])],
                      "hard_cover": scenario["table"].get("hard_cover", [])},
            "players": [p["id"] for p in scenario["players"]],
            "columns": list(getattr(view_of(find_preset(started["preset"])), "columns", ())),
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


# The page itself (its style and script), filled with the title and the data above.
TEMPLATE = files("regiment.tools").joinpath("data/replay.html").read_text(encoding="utf-8")
