"""How the kernel's own events read (undo and redo, the game's end): every rulebook's
narration falls back on these, so no rulebook writes them again."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import i18n
from .i18n import mark, ntr, retell, tr

Data = Mapping[str, Any]
i18n.register(Path(__file__).with_name("locale"))


def _undone(d: Data) -> str:
    if d.get("consent"):
        return tr("{player} undoes step {step} (with {other}'s consent).", player=d["by"],
                  step=d["step"], other=d["consent"])
    return tr("{player} undoes step {step}.", player=d["by"], step=d["step"])


# The words of a game's dice and undo settings (GameStarted.dice, .undo), told in the
# players' language wherever the settings are shown.
SETTINGS = {"manual": mark("manual"), "seeded": mark("seeded"), "scripted": mark("scripted"),
            "free": mark("free"), "consent": mark("consent"), "off": mark("off")}


def setting_word(word: str) -> str:
    return tr(SETTINGS[word]) if word in SETTINGS else word


# GameEnded's reason, as phases.common.engine writes it into the log (in English)
# (a preset's pieces go by one word; each phrase is whole, as Russian declines the word)
ONLY = {"units": mark("only {player} has units left"),
        "squads": mark("only {player} has squads left")}
NONE_LEFT = {"units": mark("no units are left on either side"),
             "squads": mark("no squads are left on either side")}
ENDINGS = [
    (re.compile(r"only (?P<player>.+) has (?P<pieces>units|squads) left"),
     lambda g: tr(ONLY[g["pieces"]], player=g["player"])),
    (re.compile(r"no (?P<pieces>units|squads) are left on either side"),
     lambda g: tr(NONE_LEFT[g["pieces"]])),
    (re.compile(r"(?P<n>\d+) game turns played"),
     lambda g: ntr("{n} game turn played", "{n} game turns played", int(g["n"]))),
]


def _ended(d: Data) -> str:
    """GAME.END: how the game ended, and what that made of its result."""
    said = tr("The game ends: {reason}.", reason=retell(d["reason"], ENDINGS))
    if d.get("winner"):
        return said + " " + tr("{player} wins (GAME.END).", player=d["winner"])
    if re.fullmatch(r"\d+ game turns played", d["reason"]):
        return said + " " + tr("No side wins: both still have pieces on the table, and only "
                               "a side that leaves the other none wins (GAME.END).")
    return said + " " + tr("No side wins (GAME.END).")


KERNEL_SENTENCES: dict[str, Callable[[Data], str]] = {
    "StepUndone": _undone,
    "StepRedone": lambda d: tr("{player} redoes step {step} (the same dice).", player=d["by"],
                               step=d["step"]),
    "UndoRequested": lambda d: tr("{player} asks the other seat's consent to undo step "
                                  "{step} (UNDO.CONSENT).", player=d["by"], step=d["step"]),
    "UndoRefused": lambda d: tr("{player} refuses to undo step {step}.", player=d["by"],
                                step=d["step"]),
    "GameEnded": _ended,
    "CommandWithdrawn": lambda d: tr("{player}'s {command} is withdrawn: what was measured "
                                     "rules it out ({why}; {rule}).", player=d["by"],
                                     command=d["command"], why=d["why"], rule=d["rule"]),
}


def kernel_sentence(event_type: str, data: Data) -> str | None:
    """A kernel event as a sentence, or None for any other event."""
    tell = KERNEL_SENTENCES.get(event_type)
    return None if tell is None else tell(data)
