"""The engine (core and the rulebooks) is held to mypy's strict mode by `make lint`; where it
still tells mypy to look away, it says why, on the line or just above it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IGNORE = re.compile(r"#\s*type:\s*ignore\[[^\]]*\](?P<after>.*)$")


def test_every_type_ignore_in_the_engine_says_why():
    unexplained = []
    for folder in ("core", "phases"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for n, line in enumerate(lines):
                m = IGNORE.search(line)
                if m is None:
                    continue
                said = m.group("after").strip().startswith("#") or \
                    (n > 0 and lines[n - 1].strip().startswith("#"))
                if not said:
                    unexplained.append(f"{path.relative_to(ROOT)}:{n + 1}: {line.strip()}")
    assert not unexplained, "\n".join(unexplained)


def test_lint_runs_mypy_strict_on_the_engine():
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"mypy [^\n]*--strict -p regiment\.core \\\n\s+-p regiment\.phases", make)
