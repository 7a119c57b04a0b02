"""Names as people type them: a unique prefix stands for the whole name (as git takes a game
id's first digits), ``-`` for ``_``, and a name that matches nothing is answered with the
nearest ones ("did you mean"), found by difflib (the standard library's)."""

from __future__ import annotations

from collections.abc import Iterable


def resolve(text: str, names: Iterable[str]) -> tuple[str | None, list[str]]:
    """(the name ``text`` stands for, or None; the names it may have meant)."""
    known = list(names)
    if text in known:
        return text, []
    folded = text.replace("-", "_").lower()
    exact = [n for n in known if n.lower() == folded]
    if len(exact) == 1:
        return exact[0], []
    prefixed = [n for n in known if n.lower().startswith(folded)]
    if len(prefixed) == 1:
        return prefixed[0], []
    if len(prefixed) > 1:
        return None, prefixed[:6]
    import difflib  # only for a name that matched nothing (start-up stays quick)

    return None, difflib.get_close_matches(folded, known, n=3, cutoff=0.6)


def meant(near: list[str]) -> str:
    """"; did you mean 'a' or 'b'?", or "" when nothing is near."""
    if not near:
        return ""
    quoted = [repr(n) for n in near]
    return "; did you mean " + (" or ".join(quoted) if len(quoted) <= 2 else
                                ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"


def command_name() -> str:
    """How regiment was run, so that a command it prints can be typed again as it is:
    ``.venv/bin/regiment`` after ``make demo``, ``regiment`` where it is on the PATH (or
    when it was not run as a command at all)."""
    import shutil
    import sys
    from pathlib import Path

    typed = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path("regiment")
    if typed.name != "regiment" or str(typed) == "regiment":
        return "regiment"
    on_path = shutil.which("regiment")
    if on_path and Path(on_path).resolve() == typed.resolve():
        return "regiment"
    return str(typed)
