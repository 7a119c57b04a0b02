"""The registry of special rules and equipment (SPECIAL.REGISTRY): each declared once, every
name a scenario may use comes from it, and the rule functions ask for declarations only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from regiment.core.errors import InvalidScenario
from regiment.core.scenario import parse_scenario
from regiment.phases.fantasy import specials
from regiment.phases.fantasy.units import MISSILES

from .conftest import small_scenario
from .test_rules_reference import reference

ROOT = Path(__file__).resolve().parent.parent


def test_special_registry_a_misspelt_rule_is_refused_with_the_known_names():
    data = small_scenario()
    data["units"][0]["rules"] = ["stuborn"]
    with pytest.raises(InvalidScenario) as info:
        parse_scenario(data, source="battle.toml")
    text = str(info.value)
    assert text.startswith("battle.toml at units[0].rules[0]: expected a special rule")
    assert "'stuborn'" in text and "stubborn" in text and "swiftstride" in text
    data = small_scenario()
    data["units"][0]["equipment"] = ["great_wepon"]
    with pytest.raises(InvalidScenario, match=r"units\[0\]\.equipment\[0\]: expected one of .*"
                                              r"great_weapon"):
        parse_scenario(data)
    data = small_scenario()
    data["units"][0]["rules"] = ["stubborn", "swiftstride"]
    assert parse_scenario(data)["units"][0]["rules"] == ["stubborn", "swiftstride"]


def test_special_registry_every_declaration_names_rules_of_the_reference():
    known = reference()
    for s in specials.SPECIALS.values():
        assert s.rules and all(rule in known for rule in s.rules), s
        assert s.changes and s.told and s.source
    with pytest.raises(ValueError, match="declared twice"):
        specials.special("stubborn", ("BT.SPECIAL",), "[G]", "again", "again")


def test_special_registry_the_rules_ask_for_declarations_never_for_strings():
    """A bare string would be a misspelling nobody sees: has(u, "stuborn") never matches."""
    for folder in ("phases", "tools", "core"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            bare = re.findall(r"\b(?:has|carries)\(\w+, [\"']", text)
            bare += re.findall(r"[\"'](\w+)[\"'] (?:not )?in \w+\.(?:rules|equipment)\b", text)
            assert not bare, f"{path.relative_to(ROOT)}: {bare}"


def test_special_registry_every_missile_a_scenario_may_name_is_declared():
    for name in specials.known("equipment"):
        assert specials.SPECIALS[name].kind == "equipment"
    shooting = [s.name for s in specials.SPECIALS.values() if "CH.REACT" in s.rules
                and s.kind == "equipment"]
    assert shooting and all(name in MISSILES for name in shooting)
