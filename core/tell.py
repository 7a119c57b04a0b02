"""How the kernel's own events read (undo and redo, the game's end): every rulebook's
narration falls back on these, so no rulebook writes them again."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import i18n
from .endings import Ending, ending_of
from .i18n import mark, ntr, tr

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
            "free": mark("free"), "consent": mark("consent"), "off": mark("off"),
            "solo": mark("solo")}


def setting_word(word: str) -> str:
    return tr(SETTINGS[word]) if word in SETTINGS else word


# A game's end in the words of a rulebook that says none of its own (each rulebook names its
# pieces in whole phrases, as Russian declines the word: kernel_sentence's ``endings``).
ENDINGS: dict[Ending, str] = {Ending.SIDE_LEFT: mark("only {player} has pieces left"),
                             Ending.NONE_LEFT: mark("no pieces are left on either side"),
                             Ending.POINTS: mark("{played}; points: {scores}"),
                             Ending.WITHHELD: mark(
                                 "{player} did not reveal its dice for round {round} in time, "
                                 "and concedes (DICE.WITHHELD)"),
                             Ending.CONTESTED: mark(
                                 "{player} did not reveal its dice for round {round} in time: "
                                 "the game is contested, its signed log the evidence "
                                 "(DICE.WITHHELD)")}


def _ended(d: Data, endings: Mapping[Ending, str] | None = None) -> str:
    """GAME.END: how the game ended (its code: ``core.endings``), and what that made of its
    result."""
    end = ending_of(d)
    code = end["code"]
    if code == Ending.TURNS_PLAYED:
        how = ntr("{n} game turn played", "{n} game turns played", int(end["turns"]))
    elif code in ENDINGS:   # in the rulebook's words (its name for its pieces, its points)
        how = tr((endings or ENDINGS).get(Ending(code), ENDINGS[Ending(code)]), **_fields(end))
    else:   # a reason no engine of ours wrote: as it is
        how = str(end.get("text", code))
    said = tr("The game ends: {reason}.", reason=how)
    if code == Ending.POINTS:
        if d.get("winner"):
            return said + " " + tr("{player} wins, with more points ({rule}).",
                                   player=d["winner"], rule=end["rule"])
        return said + " " + tr("No side wins: the points are equal ({rule}).", rule=end["rule"])
    if d.get("winner"):
        return said + " " + tr("{player} wins (GAME.END).", player=d["winner"])
    if code == Ending.TURNS_PLAYED:
        return said + " " + tr("No side wins: both still have pieces on the table, and only "
                               "a side that leaves the other none wins (GAME.END).")
    return said + " " + tr("No side wins (GAME.END).")


def _fields(end: Mapping[str, Any]) -> dict[str, Any]:
    """An ending's parameters as its sentence takes them: a points ending (SK.VICTORY) with
    the turns played and the scores, most points first (the log keeps the points as a map,
    its keys sorted)."""
    if end["code"] != Ending.POINTS:
        return dict(end)
    scores = sorted(end["points"].items(), key=lambda pn: (-pn[1], pn[0]))
    return {"played": ntr("{n} game turn played", "{n} game turns played", int(end["turns"])),
            "scores": ", ".join(f"{p} {n}" for p, n in scores)}


def plain(reason: Any) -> str:
    """A reason a rulebook does not tell in words of its own: its English, or its code and
    parameters as they are."""
    if isinstance(reason, str):
        return reason
    params = ", ".join(f"{k} {v}" for k, v in reason.items() if k != "code")
    return f"{reason['code']}" + (f": {params}" if params else "")


KERNEL_SENTENCES: dict[str, Callable[[Data], str]] = {
    "StepUndone": _undone,
    "StepRedone": lambda d: tr("{player} redoes step {step} (the same dice).", player=d["by"],
                               step=d["step"]),
    "UndoRequested": lambda d: tr("{player} asks the other seat's consent to undo step "
                                  "{step} (UNDO.CONSENT).", player=d["by"], step=d["step"]),
    "UndoRefused": lambda d: tr("{player} refuses to undo step {step}.", player=d["by"],
                                step=d["step"]),
    "CommandWithdrawn": lambda d: tr("{player}'s {command} is withdrawn: what was measured "
                                     "rules it out ({why}; {rule}).", player=d["by"],
                                     command=d["command"], why=plain(d["why"]),
                                     rule=d["rule"]),
}


def kernel_sentence(event_type: str, data: Data,
                    endings: Mapping[Ending, str] | None = None) -> str | None:
    """A kernel event as a sentence, or None for any other event; ``endings``: the
    rulebook's own phrases for how a game ends (by ``Ending`` code, marked in its catalogue)."""
    if event_type == "GameEnded":
        return _ended(data, endings)
    tell = KERNEL_SENTENCES.get(event_type)
    return None if tell is None else tell(data)
