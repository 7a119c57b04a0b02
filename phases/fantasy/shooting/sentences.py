"""The story of the shooting phase (SHOOT.*): a sentence for each volley aimed."""

from __future__ import annotations

from collections.abc import Callable

from regiment.core.i18n import mark, ntr, tr

from ..rulings import ruled
from ..state import State
from ..telling import D, because, fmt, name_of, verb_count
from .rules import MODIFIERS

MODIFIER_WORDS = {"long_range": mark("long range"), "moved": mark("moved"),
                  "soft_cover": mark("soft cover"), "hard_cover": mark("hard cover"),
                  "multiple_shots": mark("multiple shots")}


def _fired(d: D, s: State | None) -> str:
    mods = ", ".join(f"{tr(MODIFIER_WORDS[m])} -{MODIFIERS[m]}" for m in d["modifiers"])
    if not d["hit"]:
        need = tr("no hit is possible")
    elif d["hit2"]:
        need = tr("{need}+ then {then}+ to hit", need=d["hit"], then=d["hit2"])
    else:
        need = tr("{need}+ to hit", need=d["hit"])
    fields = {"unit": name_of(s, d["unit"]), "target": name_of(s, d["target"]),
              "weapon": d["weapon"], "distance": fmt(d["distance"], ".1f"),
              "shots": d["shots"], "need": need}
    k = verb_count(s, d["unit"])
    text = (ntr("{unit} shoots {shots} {weapon} shots at {target}, {distance}\" away: {need} "
                "({mods}).", "{unit} shoot {shots} {weapon} shots at {target}, {distance}\" "
                "away: {need} ({mods}).", k, mods=mods, **fields) if mods else
            ntr("{unit} shoots {shots} {weapon} shots at {target}, {distance}\" away: {need}.",
                "{unit} shoot {shots} {weapon} shots at {target}, {distance}\" away: {need}.",
                k, **fields))
    covered = any(m.endswith("_cover") for m in d["modifiers"]) and s is not None and \
        ruled(s, "cover_hidden")
    return text + because("SHOOT.WHO", "SHOOT.HIT", *(("SHOOT.COVER",) if covered else ()),
                          "SHOOT.WEAPONS")


SENTENCES: dict[str, Callable[[D, State | None], str | None]] = {"ShotsFired": _fired}
