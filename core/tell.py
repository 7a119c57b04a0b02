"""How the kernel's own events read (undo and redo, the game's end): every rulebook's
narration falls back on these, so no rulebook writes them again."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Data = Mapping[str, Any]

KERNEL_SENTENCES: dict[str, Callable[[Data], str]] = {
    "StepUndone": lambda d: f"{d['by']} undoes step {d['step']}"
                            + (f" (with {d['consent']}'s consent)." if d.get("consent")
                               else "."),
    "StepRedone": lambda d: f"{d['by']} redoes step {d['step']} (the same dice).",
    "UndoRequested": lambda d: f"{d['by']} asks to undo step {d['step']}, which rolled dice.",
    "UndoRefused": lambda d: f"{d['by']} refuses to undo step {d['step']}.",
    "GameEnded": lambda d: f"The game ends: {d['reason']}.",
}


def kernel_sentence(event_type: str, data: Data) -> str | None:
    """A kernel event as a sentence, or None for any other event."""
    tell = KERNEL_SENTENCES.get(event_type)
    return None if tell is None else tell(data)
