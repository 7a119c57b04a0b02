"""A move typed in words at the ``play`` prompt (MOVE.*): any move the rules allow, not only
the ones the decision lists.

    move swordsmen wheel 30 forward 2      a wheel (clockwise positive, or ``wheel left 30``)
    move boyz turn 180 forward 1           a turn in place, then the rest of the move
    move boyz march wheel -20 forward 6    a march with its wheels
    move archers back 2                    backwards, at half rate
    move archers sideways -1.5             sideways (to the right when positive, or ``left``)
    move spears reform 10 facing 90        a reform 10 wide (and facing, in degrees)

The unit is named by its id or by the words of its name ("empire swords"); each word may be
in the players' language ("двигать мечники колесо 30"). The engine checks the move and says
why it refuses one, with its rule.
"""

from __future__ import annotations

import re
from typing import Any

from regiment.core.i18n import tr

from .words import COMMAND_WORDS, MOVE_WORDS

KINDS = ("march", "back", "sideways", "reform")   # what a move's first word may make it
LEGS = ("forward", "wheel", "turn", "back", "sideways")
SHORT = {"f": "forward", "fwd": "forward", "w": "wheel", "t": "turn", "side": "sideways"}
EXTRA = ("facing", "left", "right")


class NotAMove(ValueError):
    """What a typed move is missing, said to the player."""


def _vocabulary() -> dict[str, str]:
    """Each word a player may type for a move's parts, in English and in their language."""
    words = {w: w for w in (*LEGS, *KINDS, *EXTRA)} | SHORT
    for key, said in MOVE_WORDS.items():
        words[tr(said).lower()] = key
    for key in EXTRA:
        words[tr(key).lower()] = key
    return words


def is_move(text: str) -> bool:
    first = text.strip().lower().split(" ", 1)[0]
    return first in ("move", tr(COMMAND_WORDS["move"]).lower())


def _number(token: str) -> float | None:
    try:
        return float(token.replace(",", "."))
    except ValueError:
        return None


def parse(text: str, by: str, units: dict[str, str]) -> dict[str, Any]:
    """The ``move`` command ``text`` says, for player ``by``; ``units`` maps the ids the
    player may name to their names. Raises ``NotAMove`` saying what is wrong."""
    tokens = [t for t in re.split(r"\s+", text.strip().lower()) if t][1:]
    words = _vocabulary()
    # the unit: the words up to the first word of a move, matched against ids and names
    i = 0
    while i < len(tokens) and tokens[i] not in words and _number(tokens[i]) is None:
        i += 1
    named = tokens[:i]
    if not named:
        raise NotAMove(tr("say which unit moves: move UNIT then its legs, such as "
                          "\"move swordsmen wheel 30 forward 2\""))
    found = [uid for uid, name in units.items() if " ".join(named) == uid.lower()
             or all(any(part.startswith(w) for part in re.split(r"[\s_-]+", name.lower()))
                    for w in named)]
    if len(found) != 1:
        raise NotAMove(tr("{words} names {n} of your units: {units}", words=" ".join(named),
                          n=len(found), units=", ".join(units.values())))
    cmd: dict[str, Any] = {"cmd": "move", "by": by, "unit": found[0], "kind": "forward"}
    path: list[list[Any]] = []
    rest = tokens[i:]
    j = 0
    while j < len(rest):
        word = words.get(rest[j])
        if word is None:
            raise NotAMove(tr("{word} is not a part of a move (forward, wheel, turn, back, "
                              "sideways, march, reform, facing)", word=repr(rest[j])))
        j += 1
        if word == "march" or (word == "reform" and not path):
            cmd["kind"] = word
            if word == "reform":
                files = _number(rest[j]) if j < len(rest) else None
                if files is None or files != int(files):
                    raise NotAMove(tr("reform takes the new frontage: reform 10"))
                cmd["files"] = int(files)
                j += 1
            continue
        sign = 1.0
        if j < len(rest) and words.get(rest[j]) in ("left", "right"):
            sign = -1.0 if words[rest[j]] == "left" else 1.0
            j += 1
        amount = _number(rest[j]) if j < len(rest) else None
        if amount is None:
            raise NotAMove(tr("{word} takes a number: {word} 2", word=rest[j - 1]))
        j += 1
        if word == "facing":
            cmd["facing"] = amount
        elif word in ("left", "right"):   # "left 2": sideways
            path.append(["sideways", (-1.0 if word == "left" else 1.0) * amount])
        else:
            path.append([word, sign * amount])
    if path and all(leg[0] in ("back", "sideways") for leg in path) and \
            cmd["kind"] == "forward":
        cmd["kind"] = path[0][0]   # MOVE.BACK: backwards or sideways, alone
    if not path and cmd["kind"] != "reform":
        raise NotAMove(tr("say how the unit moves: forward 3, wheel 30, turn 90..."))
    if path:
        cmd["path"] = path
    return cmd
