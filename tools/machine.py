"""``regiment machine PRESET``: the preset's turn as a Mermaid state diagram, drawn from the
compiled machine its games run on; ``docs/machine.md`` holds every preset's (``make
diagrams`` writes it, and a test checks it against the live machines)."""

from __future__ import annotations

from regiment.core.errors import BadRequest

PRESETS = ("fantasy8", "fantasy-classic", "skirmish40k")


def diagram(preset: str) -> str:
    import regiment.phases  # noqa: F401 - registers the presets
    from regiment.core.protocols import PRESETS as REGISTERED
    from regiment.phases.common.machine import mermaid

    from .names import meant, resolve

    name, near = resolve(preset, PRESETS)
    if name is None:
        raise BadRequest(f"no preset {preset!r}{meant(near)} (presets: {', '.join(PRESETS)})")
    return mermaid(REGISTERED[name].machine)  # type: ignore[attr-defined]  # (every preset has one)


def document() -> str:
    """docs/machine.md: each preset's diagram (presets that share a turn, once)."""
    out = ["# The turn, as each preset's state machine", "",
           "Made by `make diagrams` from the machines the games run on (`regiment machine "
           "PRESET` prints one); `tests/test_machine.py` checks this file against them. Each "
           "arrow is a command a player sends, an edge the engine takes by itself "
           "(`auto`), or the way from one step of a phase to the next (`step`), with its "
           "guards in brackets. A phase drawn with steps inside is what the log records "
           "(`PhaseChanged`); the step a game is at follows from its state: the phase's first "
           "step, then each next one whose guard (the step before is done) holds.", ""]
    shown: dict[str, str] = {}
    for preset in PRESETS:
        text = diagram(preset)
        same = next((p for p, t in shown.items() if t == text), None)
        out += [f"## {preset}", ""]
        if same:
            out += [f"The same turn as `{same}`.", ""]
            continue
        shown[preset] = text
        out += ["```mermaid", text.rstrip("\n"), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":   # make diagrams
    from pathlib import Path

    target = Path(__file__).resolve().parent.parent / "docs" / "machine.md"
    target.write_text(document(), encoding="utf-8")
    print(f"wrote {target}")
