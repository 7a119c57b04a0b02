"""Scenarios: a bad one fails with the file, the field path and what was expected."""

from __future__ import annotations

import pytest

from regiment.core.errors import InvalidScenario
from regiment.core.scenario import load_scenario, parse_scenario

from .conftest import EXAMPLES, small_scenario


def test_the_example_scenarios_load():
    for path in EXAMPLES.glob("*.toml"):
        assert load_scenario(path)["units"]


def test_parsing_is_idempotent():
    s = small_scenario()
    assert parse_scenario(s) == s


def test_a_player_may_give_the_colour_its_units_are_drawn_in():
    data = small_scenario()
    data["players"][0]["colour"] = "#A0B0C0"
    assert parse_scenario(data)["players"][0]["colour"] == "#a0b0c0"
    assert "colour" not in parse_scenario(small_scenario())["players"][0]   # logs unchanged


@pytest.mark.parametrize("change, path, expected", [
    (lambda d: d.update(preset="chess"), "preset", "registered: fantasy-classic, fantasy8"),
    (lambda d: d["units"][1]["profile"].update(Ld="7"), "units[1].profile.Ld", "an integer"),
    (lambda d: d["units"][0].update(player="green"), "units[0].player", "one of red, blue"),
    (lambda d: d["units"][2].update(position=[1]), "units[2].position", "[x, y]"),
    (lambda d: d["units"][0].update(equipment=["lasgun"]), "units[0].equipment[0]", "one of"),
    (lambda d: d["units"][0].update(armor=5), "units[0].armor", "unknown field"),
    (lambda d: d["units"][1].update(id="boyz"), "units[1].id", "duplicate"),
    (lambda d: d["units"][0].update(files=50), "units[0].files", "1 to 20 files"),
    (lambda d: d.update(seed="xyz"), "seed", "hex"),
    (lambda d: d["players"].pop(), "players", "exactly two"),
    (lambda d: d["units"][0]["profile"].pop("M"), "units[0].profile.M", "missing"),
    (lambda d: d["players"][0].update(colour="red"), "players[0].colour", "#2b5fc0"),
    (lambda d: d["units"][0].update(mount={"name": "boar", "WS": 3, "S": 3, "I": 3}),
     "units[0].mount.A", "missing"),
    (lambda d: d["units"][0].update(impact_hits="D4"), "units[0].impact_hits", "D3, D6"),
])
def test_a_bad_scenario_names_the_field(change, path, expected):
    data = small_scenario()
    change(data)
    with pytest.raises(InvalidScenario) as info:
        parse_scenario(data, source="battle.toml")
    assert str(info.value).startswith(f"battle.toml at {path}: ")
    assert expected in str(info.value)


def test_a_file_that_is_not_toml_names_the_file(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text('preset = "fantasy8"\n[[units]\n')
    with pytest.raises(InvalidScenario, match=r"typo\.toml: not valid TOML"):
        load_scenario(path)
    with pytest.raises(InvalidScenario, match="cannot read"):
        load_scenario(tmp_path / "absent.toml")


def test_a_preset_that_is_not_available_is_an_invalid_scenario():
    from regiment.core.game import Game
    from regiment.store import MemoryStore

    with pytest.raises(InvalidScenario, match=r"at preset: the preset 'chess' is not "
                                              r"available; registered: fantasy-classic, "
                                              r"fantasy8, skirmish40k"):
        Game.new(small_scenario(preset="chess"), store=MemoryStore())


def test_a_fantasy_unit_in_a_skirmish_scenario_is_refused_by_the_skirmish_schema():
    from regiment.core.game import Game
    from regiment.store import MemoryStore

    with pytest.raises(InvalidScenario, match=r"units\[0\]\.files: unknown field"):
        Game.new(small_scenario(preset="skirmish40k"), store=MemoryStore())


def test_a_unit_from_the_catalogue_takes_its_profile_and_may_change_it():
    data = small_scenario()
    raw = {k: v for k, v in data.items()}
    raw["units"] = [{"id": "boyz", "player": "red", "catalogue": "orc_boyz", "models": 30,
                     "profile": {"Ld": 8}, "position": [10, 10], "facing": 0},
                    {"id": "lord", "player": "blue", "catalogue": "vampire_lord",
                     "position": [30, 30], "facing": 180}]
    units = parse_scenario(raw)["units"]
    boyz, lord = units
    assert (boyz["name"], boyz["models"], boyz["armour"]) == ("Orc Boyz", 30, 5)
    assert boyz["profile"] == {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 4, "W": 1, "I": 2,
                               "A": 1, "Ld": 8}
    assert lord["models"] == 1 and "unbreakable" in lord["rules"] and lord["ward"] == 4


def test_an_unknown_catalogue_entry_names_the_field_and_the_choices():
    raw = dict(small_scenario())
    raw["units"] = [{"id": "x", "player": "red", "catalogue": "space_marines",
                     "position": [10, 10], "facing": 0}]
    with pytest.raises(InvalidScenario, match=r"at units\[0\]\.catalogue: expected one of "
                                              r"dwarf_rangers, dwarf_warriors, .*got "
                                              r"'space_marines'"):
        parse_scenario(raw, source="battle.toml")


def test_units_touching_at_the_start_are_in_combat_and_charged_marks_the_charger():
    from regiment.core.game import Game
    from regiment.store import MemoryStore

    from . import battle as b

    a = b.unit("a", "red", charged=True)
    g = Game.new(b.scenario([a, b.against(a, b.unit("x", "blue"), "right")],
                            phase="close_combat", dice="seeded", seed="1"),
                 store=MemoryStore())
    (combat,) = g.state.combats.values()
    assert combat.units == ("a", "x") and combat.chargers == ("a",)
    assert g.state.phase == "turn.close_combat.choose_combat"
    assert g.state.units["a"].charged and g.state.units["x"].status == "engaged"


def test_a_unit_off_the_table_or_on_another_is_refused_with_its_field():
    raw = dict(small_scenario())
    raw["units"] = [dict(u) for u in raw["units"]]
    raw["units"][1]["position"] = [71.0, 10.0]
    with pytest.raises(InvalidScenario, match=r"at units\[1\]\.position: wolves .* does not "
                                              r"fit on the 72\" x 48\" table"):
        parse_scenario(raw, source="battle.toml")
    raw["units"][1]["position"] = [21.0, 9.0]
    with pytest.raises(InvalidScenario, match=r"at units\[1\]\.position: wolves stands on "
                                              r"boyz \(units\[0\]\)"):
        parse_scenario(raw, source="battle.toml")
