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
        "special_hits", "hit", "wound", "save", "escape", "sweep"}
    assert purposes - NAMED == set()


def test_protocol_every_query_is_listed():
    from regiment.tools.serve import PROTOCOL, QUERIES

    assert set(QUERIES) <= NAMED and f'"protocol": {PROTOCOL}' in PAGE
