"""docs/protocol.md lists every command, decision and roll purpose there is (issue 56 item 9):
a command, a decision or a roll the engine has and the page does not name fails this test."""

from __future__ import annotations

import re
from pathlib import Path

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.commands import COMMANDS
from regiment.core.events import load_rulebooks

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
NAMED = set(re.findall(r"`([a-z_]+)`", PAGE))


def source_names(pattern: str) -> set[str]:
    found: set[str] = set()
    for path in list((ROOT / "phases").rglob("*.py")) + list((ROOT / "core").rglob("*.py")):
        found |= set(re.findall(pattern, path.read_text(encoding="utf-8")))
    return found


def test_protocol_every_command_is_listed():
    load_rulebooks()   # (the tests' own toy rulebook, the duel, registers commands too)
    ours = {name for name, cls in COMMANDS.items() if cls.__module__.startswith("regiment.")}
    assert len(ours) > 30 and ours - NAMED == set()


def test_protocol_every_decision_is_listed():
    decisions = source_names(r'decision="([a-z_]+)"')
    assert decisions and decisions - NAMED == set()


def test_protocol_every_roll_purpose_is_listed():
    purposes = source_names(r'(?:ask\(|purpose=)"([a-z_]+)"') | {
        "to_hit", "to_wound", "armour", "ward", "shooting_hit", "stand_and_shoot_hit",
        "special_hits", "multiple_wounds", "hit", "wound", "save", "escape", "sweep"}
    assert purposes - NAMED == set()


def test_protocol_every_query_is_listed():
    from regiment.tools.serve import PROTOCOL, QUERIES

    assert set(QUERIES) <= NAMED and f'"protocol": {PROTOCOL}' in PAGE


def test_a_client_in_another_language_plays_whole_games_from_the_docs():
    """Issue 56 item 9: examples/client.mjs (Node.js, written from docs/protocol.md,
    docs/board.md and the published schema alone) checks the protocol's version against the
    schema's, every message it gets and every command it sends against the schema, reads
    the board, tries each command before it sends it, and plays bundled battles of all the
    bundled battles, both rulebooks, to their end over serve. Given a schema that asks for
    a field no message has, it stops (its checks can fail)."""
    import os
    import shutil
    import subprocess
    import sys

    import pytest

    from .conftest import EXAMPLES

    if os.environ.get("REGIMENT_NO_NODE"):
        pytest.skip("REGIMENT_NO_NODE is set")
    node = shutil.which("node")
    assert node, "Node.js is missing: make test installs it (REGIMENT_NO_NODE=1 skips)"
    regiment = str(Path(sys.executable).with_name("regiment"))
    for path in sorted(EXAMPLES.glob("*.toml")):
        done = subprocess.run([node, str(ROOT / "examples" / "client.mjs"), str(path),
                               regiment], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (path.name, done.stderr[-800:])
        assert "pieces on a" in done.stdout and "messages valid" in done.stdout, done.stdout
    import json
    import tempfile

    schema = json.loads((ROOT / "docs" / "schema" / "regiment.json").read_text())
    schema["$defs"]["Stepped"]["required"].append("no_such_field")
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(schema, f)
        f.flush()
        done = subprocess.run([node, str(ROOT / "examples" / "client.mjs"),
                               str(EXAMPLES / "border_patrol.toml"), regiment, f.name],
                              capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "no no_such_field" in done.stderr, done.stderr[-800:]
