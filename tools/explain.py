"""``explain`` at the table: the last step told again with the rules behind it, each rule's
statement read from docs/rules.md where the checkout has it."""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Console

from regiment.core.game import Game
from regiment.core.i18n import tr
from regiment.core.record import data_now

from .replay import QUIET, command_text, steps


def explain(g: Game, console: Console) -> None:
    """The last outcome: the live step's sentences, the rules they cite (each stated as
    docs/rules.md states it), and the special rules of the units in it that act in those
    rules (Swiftstride in a flee roll)."""
    from rich.markup import escape

    status = g.timeline.status()
    live = [b for b in steps(list(g.records)) if status.get(b[0].step) == "live"
            and b[0].type == "CommandIssued"]
    if not live:
        console.print(tr("Nothing has happened yet."))
        return
    batch = live[-1]
    console.print("[bold]" + tr("Step {step}: {command}", step=batch[0].step,
                                command=command_text(batch[0])) + "[/]", highlight=False)
    cited: list[str] = []
    for r in batch:
        if r.type in QUIET:
            continue
        text = g.preset.sentence(r.type, data_now(r), g.state)
        if text:
            console.print(f"  {text}", markup=False, highlight=False)
            cited += [x for x in re.findall(r"\b[A-Z]{2,6}\.[A-Z][A-Z_]+\b", text)
                      if x not in cited]
    reference = rules_text()
    stated: dict[str, list[str]] = {}   # one statement once, with every rule it states
    for rule in cited:
        if rule in reference:
            stated.setdefault(reference[rule], []).append(rule)
    for statement, rules in stated.items():
        console.print(f"  [dim]{', '.join(rules)}: {escape(statement)}[/]", highlight=False)
    specials = getattr(g.preset, "specials_cited", None)   # what changed the outcome
    if specials is not None:
        units = [v for r in batch for k, v in r.data.items()
                 if k in ("unit", "target", "charger", "by") and isinstance(v, str)]
        for line in specials(g.state, units, cited):
            console.print(f"  [dim]{escape(line)}[/]", highlight=False)


def rules_text() -> dict[str, str]:
    """Each rule's statement from docs/rules.md, where the checkout has it (first sentence)."""
    path = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
    if not path.exists():
        return {}
    out: dict[str, str] = {}
    for bullet in re.split(r"\n(?=- )", path.read_text(encoding="utf-8")):
        m = re.match(r"- ((?:\*\*[A-Z]{2,6}\.[A-Z][A-Z_]+\*\*(?:, )?)+) \([a-z]+\)"
                     r"(?: `[^`]*`)?\. (.*)", bullet, re.S)
        if m:   # a bullet may state several rules at once: each gets its first sentence
            body = " ".join(m.group(2).split()).replace("`", "")   # Markdown: not for a terminal
            for rule in re.findall(r"[A-Z]{2,6}\.[A-Z][A-Z_]+", m.group(1)):
                out[rule] = body.split(". ")[0].rstrip(".") + "."
    return out
