"""The board on the wire (issue 56 item 2): ``Game.board()``, ``{"query": "board"}`` in serve
and on the game server's WebSocket (which answers every serve query), and ``GET
/games/{id}/board``: the table, its terrain, and every piece in one frame of reference."""

from __future__ import annotations

import json
import math

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core import geometry as geo
from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore

from .conftest import EXAMPLES
from .servers import Server
from .test_serve import Engine
from .test_server import SCENARIO, recv


def board_of(name: str, **kw) -> dict:
    return Game.new(load_scenario(EXAMPLES / f"{name}.toml", **kw), store=MemoryStore()).board()


def test_board_a_fantasy_unit_stands_at_its_front_middle_facing_growing_y_at_0():
    board = board_of("border_patrol")
    assert board["frame"]["version"] == 1 and board["table"]["width"] == 72.0
    assert board["table"]["hard_cover"] and board["table"]["hills"]
    hand = next(p for p in board["pieces"] if p["id"] == "handgunners")
    # at (30, 12) facing 0, 5 wide of 20 mm bases, 2 ranks: its front edge from x 28.03 to
    # 31.97 at y 12, its ranks behind it toward y = 0
    assert hand["position"] == [30.0, 12.0] and hand["facing"] == 0.0
    fl, fr, br, _ = hand["corners"]
    assert fl[1] == fr[1] == 12.0 and fl[0] < fr[0] and br[1] < 12.0
    assert math.isclose(fr[0] - fl[0], 5 * 20 / geo.MM_PER_INCH, abs_tol=1e-3)
    assert hand["base"] == [20.0, 20.0] and hand["files"] == 5 and hand["ranks"] == 2
    boyz = next(p for p in board["pieces"] if p["id"] == "boyz")
    assert boyz["facing"] == 180.0 and boyz["corners"][2][1] > boyz["position"][1]
    captain = next(p for p in board["pieces"] if p["id"] == "captain")
    assert captain["joined"] == "swordsmen" and captain["position"] is None


def test_board_a_skirmish_squad_is_its_models_circles():
    board = board_of("two_targets")
    squad = next(p for p in board["pieces"] if p["id"] == "assault")
    assert squad["kind"] == "squad" and len(squad["circles"]) == squad["models"] == 8
    r = squad["circles"][0][2]
    assert math.isclose(r, 25 / geo.MM_PER_INCH / 2, abs_tol=1e-3)
    assert board["table"]["difficult"]


def test_board_in_table_mode_has_no_positions():
    board = board_of("ford_clash", measured=True)
    assert board["table"]["mapped"] is False
    assert all(p["position"] is None for p in board["pieces"])


def test_board_query_in_serve():
    e = Engine()
    try:
        answer = e.send({"query": "board"})
        assert answer["board"]["pieces"] and answer["pending"] == e.hello["pending"]
        assert "board" in e.send({"query": "nonsense"})["error"]["message"]
    finally:
        e.close()


def test_board_on_the_servers_websocket_and_by_get(tmp_path):
    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        made = s.create(SCENARIO)
        token = made["seats"]["red"]
        with connect(f"{s.ws}/games/{made['id']}/ws?token={token}") as ws:
            recv(ws)
            for what in ("board", "state", "legal", "contacts"):
                ws.send(json.dumps({"query": what}))
                answer = recv(ws)
                assert what in answer and answer["game_id"] == made["id"], answer
        got = httpx.get(f"{s.http}/games/{made['id']}/board?token={token}").json()
        assert got["board"]["frame"]["units"] == "inches" and got["board"]["pieces"]
        assert httpx.get(f"{s.http}/games/{made['id']}/board?token=x").status_code == 403
        assert s.tracebacks() == 0


def test_the_first_message_of_serve_and_of_a_websocket_says_the_protocol_version(tmp_path):
    """Issue 56 item 5: a client checks the protocol's version before it reads the rest."""
    from regiment.tools.serve import PROTOCOL

    e = Engine()
    try:
        assert e.hello["protocol"] == PROTOCOL == 3
    finally:
        e.close()
    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        made = s.create(SCENARIO)
        with connect(f"{s.ws}/games/{made['id']}/ws?token={made['seats']['blue']}") as ws:
            assert recv(ws)["protocol"] == PROTOCOL


def test_a_pending_decision_carries_what_a_screen_needs_to_present_it():
    """Issue 56 item 3: a move's allowances and reach, a charge's distance, a shot's range,
    modifiers and need; a roll says what it needs in words."""
    from regiment.tools.bot import choose
    from regiment.tools.serve import pending_json

    game = Game.new(load_scenario(EXAMPLES / "border_patrol.toml"), store=MemoryStore())
    seen = {}
    for _ in range(80):
        p = pending_json(game)
        if "details" in p:
            seen.setdefault(p["decision"], p["details"])
        game.submit(choose(game))
    charge = seen["declare_charge"]["charges"][0]
    assert charge["distance"] > 0 and charge["side"] in ("front", "left", "right", "rear")
    centre, left, right = seen["declare_charge"]["front_arcs"][charge["unit"]]   # GEO.ARCS
    unit = next(p for p in Game.new(load_scenario(EXAMPLES / "border_patrol.toml"),
                                    store=MemoryStore()).board()["pieces"]
                if p["id"] == charge["unit"])
    fl, fr = unit["corners"][:2]

    def off_line(a: list[float], b: list[float], c: list[float]) -> float:   # sin of the angle
        cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return abs(cross) / (math.dist(a, b) * math.dist(a, c))

    assert off_line(centre, left, fl) < 1e-3 and off_line(centre, right, fr) < 1e-3
    moves = seen["remaining_moves"]
    boyz = moves["moves"]["boyz"]
    assert boyz["allowance"] == {"forward": 4.0, "march": 8.0} and boyz["turn"] == 1.0
    assert boyz["reach"]["forward"] <= 4.0 and moves["tolerance"] == 0.01
    shot = seen["shoot"]["shots"][0]
    assert shot["distance"] > 0 and shot["hit"] and "long_range" in shot["modifiers"]


def test_move_budget_a_path_a_hair_over_its_allowance_is_taken():
    """MOVE.* (0.13.0; issue 56 item 3): a client that rounds a wheel to 0.1 degree uses
    4.0056" of a 4" move: within the stated tolerance of 0.01", taken."""
    from . import battle as b

    g = b.game([b.unit("men", "red", 36, 10, 0), b.unit("foe", "blue", 36, 44, 180)],
               phase="remaining")
    width = 5 * 20 / geo.MM_PER_INCH
    degrees = round(math.degrees(0.0056 / width) + 0.0, 4)
    moved = g.submit({"cmd": "move", "by": "red", "unit": "men",
                      "path": [["wheel", degrees], ["forward", 4.0]]})
    assert [e for e in moved if e.type == "UnitMoved"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.floats(-12, 12), st.floats(-12, 12), st.sampled_from(["forward", "march"]))
def test_move_reach_a_point_is_legal_or_its_nearest_legal_end_is_taken(dx, dy, kind):
    """Issue 56 item 3 (MOVE.FORWARD, MOVE.WHEEL): ``{"query": "reach"}`` says whether the
    move to a point is legal; if not, the nearest legal end's path is one the engine takes
    (tried, then sent), and it ends where the answer says."""
    import json

    from regiment.tools.serve import answer, query

    game = _moving_game()
    before = game.head
    u = next(p for p in game.board()["pieces"] if p["player"] == game.pending.player
             and p["kind"] == "unit" and p["status"] == "ready")
    x, y = u["position"][0] + dx, u["position"][1] + dy
    said = answer(game, json.dumps({"query": "reach", "unit": u["id"], "x": x, "y": y,
                                    "kind": kind}))
    reach = said["reach"]
    assert game.head == before   # a query changes nothing
    got = reach if reach["legal"] else reach.get("nearest")
    if got is None or not got["path"]:   # it cannot move, or it stands there already
        return
    if reach["legal"]:
        assert abs(got["end"]["x"] - x) < 1e-3 and abs(got["end"]["y"] - y) < 1e-3
    cmd = {"cmd": "move", "by": game.pending.player, "unit": u["id"], "kind": kind,
           "path": got["path"]}
    assert "refused" not in query(game, "try", cmd)["try"]
    game.submit(cmd)
    moved = next(p for p in game.board()["pieces"] if p["id"] == u["id"])
    assert abs(moved["position"][0] - got["end"]["x"]) < 1e-3
    assert abs(moved["position"][1] - got["end"]["y"]) < 1e-3


_MOVING: list[Game] = []


def _moving_game() -> Game:
    """border_patrol at its first remaining moves (made once, then forked for each try)."""
    from regiment.tools.bot import choose

    if not _MOVING:
        game = Game.new(load_scenario(EXAMPLES / "border_patrol.toml"), store=MemoryStore())
        while not (game.pending.kind == "decision" and
                   game.pending.decision == "remaining_moves"):
            game.submit(choose(game))
        _MOVING.append(game)
    return _MOVING[0].fork(MemoryStore())


def test_reach_refuses_what_is_not_a_question():
    import json

    from regiment.tools.serve import answer

    game = _moving_game()
    for bad, field in (({"unit": "nobody", "x": 1, "y": 1}, "unit"),
                       ({"unit": "boyz", "x": "far", "y": 1}, "x"),
                       ({"unit": "boyz", "x": 1, "y": 1, "kind": "fly"}, "kind")):
        said = answer(game, json.dumps({"query": "reach", **bad}))
        assert said["error"]["field"] == field and said["error"]["code"] == "bad_request", said
