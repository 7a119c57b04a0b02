"""Hostile input bounded (issue 55): every number a client sends is finite and in its range,
every list and string no longer than a real command needs, a move's path a handful of legs,
all refused as a ``BadRequest`` (or with the rule) naming the field, before any rule or
geometry runs, and nothing changes."""

from __future__ import annotations

import math

import pytest

from regiment.core.errors import BadRequest, IllegalCommand
from regiment.phases.fantasy.moving import paths

from . import battle as b


def unchanged(g, command, error=(BadRequest, IllegalCommand)):
    before = (g.version, g.state.summary())
    with pytest.raises(error) as err:
        g.submit(command)
    assert (g.version, g.state.summary()) == before
    return err.value


HOSTILE = [
    ({"x": math.nan, "y": 10.0}, "move.x"),
    ({"x": 10.0, "y": math.inf}, "move.y"),
    ({"x": 36.0, "y": 12.0, "facing": -math.inf}, "move.facing"),
    ({"x": 10 ** 400, "y": 1.0}, "move.x"),
    ({"files": 10 ** 400, "kind": "reform"}, "move.files"),
    ({"x": 1e300, "y": 1.0}, "move.x"),
    ({"unit": "m" * 5000}, "move.unit"),
    ({"path": [["forward", 1]] * 1001}, "move.path"),
]


@pytest.mark.parametrize("fields, field", HOSTILE, ids=[f for _, f in HOSTILE])
def test_hostile_numbers_strings_and_lists_are_refused_naming_the_field(fields, field):
    g = b.game([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 40, 180)],
               phase="remaining")
    err = unchanged(g, {"cmd": "move", "by": "red", "unit": "men", **fields}, BadRequest)
    assert str(err).startswith(field + ":"), str(err)


def test_hostile_a_measurement_beyond_any_table_is_refused():
    g = b.game([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 40, 180)],
               phase="remaining")
    for value in (math.nan, math.inf, 1e308, 10 ** 400):
        err = unchanged(g, {"cmd": "measure", "by": "red", "value": value}, BadRequest)
        assert str(err).startswith("measure.value:")
    err = unchanged(g, {"cmd": "roll", "by": "red", "faces": [10 ** 30]}, BadRequest)
    assert str(err).startswith("roll.faces[0]:")


def test_hostile_a_path_of_many_legs_is_refused_before_any_geometry(monkeypatch):
    """MOVE.* (games from 0.13.0; issue 55 row 1): 17 legs, or a leg of no length, are
    refused by count alone: the geometry that checks a path is never asked."""
    wall = [[[30, 14], [42, 14], [42, 15], [30, 15]]]
    g = b.game([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 40, 180)],
               phase="remaining", table={"width": 72.0, "depth": 48.0, "blocking": wall})

    def no_geometry(*args, **kwargs):
        raise AssertionError("geometry ran for a path refused by its count")

    g.legal()   # the moves this state offers, worked out once (a refusal lists them)

    monkeypatch.setattr(paths, "trouble", no_geometry)
    monkeypatch.setattr("regiment.phases.fantasy.moving.rules.trouble", no_geometry)
    err = unchanged(g, {"cmd": "move", "by": "red", "unit": "men",
                        "path": [["forward", 0.01]] * 17})
    assert err.rule == "MOVE.FORWARD" and "at most 16 legs" in str(err)
    err = unchanged(g, {"cmd": "move", "by": "red", "unit": "men",
                        "path": [["forward", 0], ["forward", 1]]})
    assert "no length" in str(err)


def test_hostile_a_move_says_where_it_goes_one_way():
    """MOVE.* (issue 55 row 10): an x without its y, a path beside an end, a facing alone are
    refused with the rule, where 0.12.0 made a move of 0" or ignored them."""
    g = b.game([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 40, 180)],
               phase="remaining")
    move = {"cmd": "move", "by": "red", "unit": "men"}
    assert "x and y go together" in str(unchanged(g, {**move, "x": 36.0}))
    assert "not both" in str(unchanged(g, {**move, "path": [["forward", 2]], "x": 36.0,
                                            "y": 12.0}))
    assert "facing goes with x and y" in str(unchanged(g, {**move, "path": [["forward", 2]],
                                                            "facing": 90.0}))
    old = b.old_game([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 40, 180)],
                     engine="0.12.0", phase="remaining")
    moved = b.one(old.submit({**move, "x": 36.0}), "UnitMoved")   # as 0.12.0 took it
    assert moved.distance == 0.0


def hostile_scenario(**table):
    from regiment.core.scenario import parse_scenario

    raw = b.scenario([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 40, 180)])
    raw["table"] = {"width": 72.0, "depth": 48.0, **table}
    return lambda: parse_scenario(raw)


BOW_TIE = [[30, 20], [40, 30], [40, 20], [30, 30]]   # its edges cross
SCENARIOS = [
    ({"width": math.nan}, "table.width"),
    ({"hard_cover": [BOW_TIE]}, "table.hard_cover[0]"),
    ({"soft_cover": [[[1, 1], [2, 2], [3, 3]]]}, "table.soft_cover[0]"),      # no area
    ({"blocking": [[[1, 1], [math.nan, 2], [3, 1]]]}, "table.blocking[0][1]"),
    ({"hills": [[[1, 1], [2, 1], [1, 2]]] * 33}, "table.hills"),
    ({"hard_cover": [[[0, 0], [1, 0], [1, 1]] + [[0, 1]] * 70]}, "table.hard_cover[0]"),
]


@pytest.mark.parametrize("table, where", SCENARIOS, ids=[w for _, w in SCENARIOS])
def test_hostile_scenario_geometry_is_refused_naming_the_field(table, where):
    """Issue 55 row 5: NaN passes no range check, and cover, walls and hills are simple
    polygons with an area, at most 32 of a kind of at most 64 corners each."""
    from regiment.core.errors import InvalidScenario

    with pytest.raises(InvalidScenario) as err:
        hostile_scenario(**table)()
    assert f"at {where}:" in str(err.value), str(err.value)


def test_hostile_scenario_positions_and_facings_are_finite():
    from regiment.core.errors import InvalidScenario
    from regiment.core.scenario import parse_scenario

    for field, value in (("position", [math.nan, 10]), ("position", [1e308, 10]),
                         ("facing", math.inf)):
        raw = b.scenario([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 40, 180)])
        raw["units"][0][field] = value
        with pytest.raises(InvalidScenario) as err:
            parse_scenario(raw)
        assert f"units[0].{field}" in str(err.value)


HOSTILE_LINES = [
    '{"cmd": "move", "by": "red", "unit": "wolves", "x": NaN, "y": 1}',
    '{"cmd": "move", "by": "red", "unit": "wolves", "x": 1, "y": Infinity}',
    '{"cmd": "move", "by": "red", "unit": "wolves", "x": 1e400, "y": 2}',
    '{"cmd": "move", "by": "red", "unit": "wolves", "files": ' + "9" * 400 + '}',
    '{"cmd": "move", "by": "red", "unit": "wolves", "path": [["forward", 1e300]]}',
    '{"cmd": "move", "by": "red", "unit": "wolves", "path": [["wheel", NaN]]}',
    '{"cmd": "measure", "by": "red", "value": 1e308}',
    '{"cmd": "roll", "by": "red", "faces": [' + "1" * 300 + ']}',
    '{"cmd": "declare_charge", "by": "red", "unit": "' + "w" * 10_000 + '", "target": "x"}',
]


def test_hostile_lines_to_serve_are_refused_and_serve_goes_on():
    """Issue 55 row 4: serve answers each hostile line with BadRequest or the rule that
    refuses it, never exits, never prints a traceback, and the game is as it was."""
    from .test_serve import Engine

    e = Engine()
    try:
        for line in HOSTILE_LINES:
            answer = e.send(line)
            assert answer["error"]["type"] in ("BadRequest", "IllegalCommand"), answer
            assert answer["pending"] == e.hello["pending"]
        assert e.send({"cmd": "end_charges", "by": "red"})["events"]
    finally:
        assert e.close() == 0
    assert "Traceback" not in e.proc.stderr.read()


def test_hostile_lines_to_the_server_are_refused_and_the_connection_stays(tmp_path):
    """Issue 55 row 4: the same lines over the game server's WebSocket: each refused in
    words, the connection kept, no traceback in the server's log."""
    from websockets.sync.client import connect

    from .servers import Server
    from .test_server import SCENARIO, recv

    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        made = s.create(SCENARIO)
        with connect(f"{s.ws}/games/{made['id']}/ws?token={made['seats']['red']}") as ws:
            head = recv(ws)["head"]
            for line in HOSTILE_LINES:
                ws.send(line)
                answer = recv(ws)
                assert answer["error"]["type"] in ("BadRequest", "IllegalCommand"), answer
                assert answer["head"] == head
                import time

                time.sleep(0.06)   # (under the seat's rate)
        assert s.tracebacks() == 0, s.errors[-2000:]
