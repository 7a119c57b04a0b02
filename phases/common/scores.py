"""The points a game was won on, item by item (``GameEnded.ending["scored"]``), told after the
sentence of its end: which enemy units each player scored, for what, and by which rule, so
that a finished game says how it was won (VP.POINTS, SK.VICTORY)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regiment.core.i18n import mark, tr

# what each item was scored for (``why``), in the players' words
WHY = {"destroyed": mark("destroyed"), "fled": mark("fled off the table"),
       "fleeing": mark("fleeing at the end"), "quarter": mark("a quarter or fewer left"),
       "general": mark("the general slain"), "standard": mark("standards captured"),
       "falling_back": mark("falling back at the end"), "off_table": mark("fled off the table")}


def scored(data: Mapping[str, Any], name: Callable[[str], str],
           cite: Callable[[str], str] = str) -> str:
    """`` Scored: orcs: Empire Swordsmen 160 (destroyed), ...; empire: none.`` for a game
    whose ending itemises its points; "" for any other."""
    end = data.get("ending") or {}
    items = end.get("scored")
    if not items:
        return ""
    parts = []
    points = end.get("points", {})
    for player in sorted(points, key=lambda p: -int(points[p])):   # most points first
        mine = [f"{name(i['unit'])} {i['points']} ({_why(i['why'])})" for i in items
                if i["player"] == player]
        parts.append(tr("{player}: {items}", player=player,
                        items=", ".join(mine) if mine else tr("nothing")))
    rule = "VP.POINTS" if end.get("rule") == "VP.WIN" else str(end.get("rule", ""))
    return " " + tr("Scored: {parts} ({rule}).", parts="; ".join(parts), rule=cite(rule))


def _why(code: str) -> str:
    return tr(WHY[code]) if code in WHY else code.replace("_", " ")
