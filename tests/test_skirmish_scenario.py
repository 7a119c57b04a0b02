"""SK.UNITS (seed 004, issue 14): a skirmish scenario's units of models on round bases, read
and checked (the preset that plays them is still to come)."""

from __future__ import annotations

import copy

import pytest

from regiment.core import geometry as geo
from regiment.core.errors import InvalidScenario
from regiment.core.scenario import Reader, common
from regiment.phases.skirmish.scenario import parse_skirmish

PROFILE = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3}
BOLTGUN = {"name": "boltgun", "S": 4, "AP": 5, "range": 24, "shots": 1}


def scenario(**units) -> dict:
    return {"preset": "skirmish40k", "first": "red", "players": [{"id": "red"}, {"id": "blue"}],
            "units": [
                {"id": "tactical", "player": "red", "base": 32, "profile": PROFILE,
                 "weapons": [BOLTGUN],
                 "formation": {"centre": [20, 10], "facing": 0, "count": 10, "per_row": 5,
                               "spacing": 1}},
                {"id": "boyz", "player": "blue", "profile": {**PROFILE, "Sv": 6},
                 "models": [[20, 30], [21.5, 30], [23, 30]]},
                *units.values()]}


def read(data: dict) -> dict:
    r = Reader("battle.toml")
    return parse_skirmish(r, data, common(r, data, "skirmish40k"))


def test_sk_units_a_formation_expands_to_models_in_rows_behind_its_centre():
    out = read(scenario())
    marines = out["units"][0]
    spots = marines["models"]
    assert len(spots) == 10 and marines["base"] == 32.0
    step = 32 / 25.4 + 1.0
    assert spots[2] == [20.0, 10.0]                      # the front row centred on its centre
    assert spots[0] == pytest.approx([20 - 2 * step, 10.0], abs=1e-3)
    assert spots[7] == pytest.approx([20.0, 10 - step], abs=1e-3)   # the second row behind
    radius = 32 / 25.4 / 2
    assert geo.chained([(x, y, radius) for x, y in spots], 2.0)
    assert out["units"][1]["models"] == [[20.0, 30.0], [21.5, 30.0], [23.0, 30.0]]


@pytest.mark.parametrize("change, path, said", [
    (lambda d: d["units"][1].update(models=[[20, 30], [30, 30]]), "units[1].models",
     "not in coherency"),
    (lambda d: d["units"][1].update(models=[[20, 30], [20.5, 30]]), "units[1].models",
     "model 2 of boyz stands on model 1 of boyz"),
    (lambda d: d["units"][1].update(models=[[0.1, 30]]), "units[1].models[0]",
     "off the table"),
    (lambda d: d["units"][1].update(formation={"centre": [20, 30], "count": 3}),
     "units[1].models", "one of them"),
    (lambda d: d["units"][0]["profile"].update(Sv=1), "units[0].profile.Sv", "2 to 10"),
    (lambda d: d["units"][0]["weapons"][0].update(AP=9), "units[0].weapons[0]", "AP 0-6"),
    (lambda d: d["units"][1].update(models=[[20, 10.8]]), "units[1].models",
     "model 1 of boyz stands on model 3 of tactical"),
])
def test_sk_units_a_bad_unit_is_refused_naming_the_field(change, path, said):
    data = copy.deepcopy(scenario())
    change(data)
    with pytest.raises(InvalidScenario) as refused:
        read(data)
    assert str(refused.value).startswith(f"battle.toml at {path}: ")
    assert said in str(refused.value)


def test_geo_circles_touching_is_not_overlapping():
    a, b = (0.0, 0.0, 0.5), (1.0, 0.0, 0.5)
    assert geo.circle_gap(a, b) == 0.0 and not geo.circles_overlap(a, b)
    assert geo.circles_overlap(a, (0.9, 0.0, 0.5))
    assert geo.circle_gap(a, (3.0, 0.0, 0.5)) == pytest.approx(2.0)
