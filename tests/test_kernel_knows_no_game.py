"""The kernel knows no game: core/ names no rulebook's words and imports no rulebook, so that a
second game system is a package of its own (and the duel preset of tests/duel.py plays on the
kernel alone)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

CORE = Path(__file__).resolve().parent.parent / "core"
# words of the fantasy rulebook (and of the skirmish one to come) that a kernel has no use for
WORDS = re.compile(r"charg|\bflee|\bfled\b|pursu|\branks?\b|steadfast|combat|reform|rally|"
                   r"panic|wound|armour|champion|musician|swiftstride|stubborn|break test|"
                   r"fantasy|skirmish|initiative|overwatch", re.I)


def test_core_names_no_rulebook_word():
    found = []
    for path in sorted(CORE.rglob("*")):
        if path.suffix not in (".py", ".toml") or not path.is_file():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in WORDS.finditer(line):
                found.append(f"core/{path.relative_to(CORE)}:{n}: {m.group(0)!r} in {line.strip()}")
    assert not found, "\n".join(found)


def test_core_imports_no_rulebook():
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            level = node.level if isinstance(node, ast.ImportFrom) else 0
            for name in names:
                parts = name.split(".")
                assert level <= 1 and not {"phases", "tools", "store"} & set(parts), \
                    f"{path.name} imports {'.' * level}{name}"
