"""Issue 56 item 5: the published JSON Schema of the protocol, generated from the engine's
types: every message of every bundled battle (serve's, and a game server session's)
validates against it, and it never changes without the published file and the CHANGELOG."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from regiment.core.game import Game
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore
from regiment.tools import schema
from regiment.tools.bot import choose
from regiment.tools.serve import answer, event_json, pending_json, query

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
PUBLISHED = ROOT / "docs" / "schema" / "regiment.json"


@cache
def validator(part: str) -> jsonschema.protocols.Validator:
    doc = {k: v for k, v in schema.document().items() if k != "anyOf"}   # (the whole's)
    return jsonschema.Draft202012Validator({**doc, "$ref": f"#/$defs/{part}"})


def valid(part: str, message: Any) -> None:
    error = jsonschema.exceptions.best_match(validator(part).iter_errors(message))
    assert error is None, (f"{part}: {error.message[:300]} at {list(error.absolute_path)} "
                           f"(schema {list(error.absolute_schema_path)[-6:]})")


KINDS = (("protocol", "Opening"), ("error", "Refused"), ("try", "TryAnswer"),
         ("events", "Stepped"), ("state", "StateAnswer"), ("legal", "LegalAnswer"),
         ("contacts", "ContactsAnswer"), ("board", "BoardAnswer"),
         ("reach", "ReachAnswer"), ("story", "StoryAnswer"))


def valid_message(message: dict[str, Any]) -> None:
    """Valid as the message it is (its own part names what is wrong), and as a Message."""
    message = json.loads(json.dumps(message))   # as the wire carries it
    part = next(name for key, name in KINDS if key in message)
    valid(part, message)
    valid("Message", message)


def test_the_published_schema_is_the_engines_and_the_changelog_names_it():
    """A type that changes without docs/schema/regiment.json (``regiment schema``) and a
    CHANGELOG line naming the new schema's digest fails here."""
    made = schema.text()
    assert PUBLISHED.read_text(encoding="utf-8") == made, \
        "the schema changed: run `regiment schema > docs/schema/regiment.json`"
    jsonschema.Draft202012Validator.check_schema(json.loads(made))
    digest = hashlib.sha256(made.encode()).hexdigest()[:12]
    assert f"schema {digest}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), \
        f"the CHANGELOG does not name schema {digest}"


def test_the_schema_knows_every_command_and_event_and_tells_a_bad_one():
    doc = schema.document()
    names = {b["allOf"][1]["properties"]["cmd"]["const"] for b in doc["$defs"]["Command"][
        "oneOf"]}
    assert {"move", "declare_charge", "roll", "measure", "undo", "shoot"} <= names
    with pytest.raises(AssertionError):
        valid("Command", {"cmd": "roll", "by": "red", "faces": "six"})
    with pytest.raises(AssertionError):
        valid("Record", {"seq": 0, "step": 0, "type": "DiceRolled", "v": 1, "data": {}})


def _battles() -> list[str]:
    return sorted(p.stem for p in EXAMPLES.glob("*.toml"))


@pytest.mark.parametrize("name", _battles())
def test_every_message_of_a_bundled_battle_over_serve_validates(name):
    """Each battle played to its end through serve's own answer function: the opening, every
    answer, every query's and a refusal at every 10th step, all valid."""
    game = Game.new(load_scenario(EXAMPLES / f"{name}.toml"), store=MemoryStore())
    valid_message({"protocol": 3, "game_id": game.game_id, "head": game.head,
                      "events": [event_json(r) for r in game.records],
                      "pending": pending_json(game)})
    steps = 0
    while not game.state.over and steps < 3000:
        pending = pending_json(game)
        if steps % 10 == 0:
            for what in ("state", "legal", "contacts", "board"):
                valid_message(query(game, what))
            valid_message(answer(game, json.dumps({"cmd": "nonsense", "by": "x"})))
        cmd = choose(game) if pending["kind"] == "decision" else None
        if cmd is not None:
            valid("Command", cmd.to_dict())
            if steps % 10 == 0:
                valid("Request", {"query": "try", "cmd": cmd.to_dict()})
                valid_message(query(game, "try", cmd.to_dict()))
        sent = json.dumps(cmd.to_dict()) if cmd is not None else None
        if sent is None:
            break
        said = answer(game, sent)
        assert "error" not in said, said
        valid_message(said)
        steps += 1
    assert game.state.over
    valid("Pending", pending_json(game))
    assert pending_json(game)["outcome"]["rule"]


def test_every_message_of_a_server_session_validates_and_get_schema_serves_it(tmp_path):
    """A whole game on the game server, both seats on WebSockets: every message either seat
    hears (the opening, each step, each query's answer, a refusal, the rate limit's) is
    valid; ``GET /schema`` is the published document."""
    import httpx

    from .servers import Server, dumps, first_legal
    from .test_server import SCENARIO, recv, seat

    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as server:
        got = httpx.get(f"{server.http}/schema")
        assert got.status_code == 200 and got.text == PUBLISHED.read_text(encoding="utf-8")
        made = server.create(SCENARIO)
        heard = 0
        with seat(server, made, "red") as red, seat(server, made, "blue") as blue:
            ws = {"red": red, "blue": blue}
            message = recv(red)
            valid_message(message)
            valid_message(recv(blue))
            for step in range(2000):
                command = first_legal(message)
                if command is None:
                    break
                if step % 25 == 0:
                    for what in ("state", "legal", "board", "contacts"):
                        red.send(dumps({"query": what}))
                        valid_message(recv(red))
                    red.send(dumps({"query": "try", "cmd": command}))
                    valid_message(recv(red))
                    red.send(dumps({"cmd": "nonsense", "by": "red"}))
                    valid_message(recv(red))
                ws[command["by"]].send(dumps(command))
                for who, conn in ws.items():
                    said = recv(conn)
                    valid_message(said)
                    heard += 1
                    if who == command["by"]:
                        message = said
            assert message["pending"]["kind"] == "over" and heard > 50
            red.send(dumps({"query": "story", "after": 0, "lang": "ru"}))
            valid_message(recv(red))
        # the HTTP answers a page or a program reads: the game made, where it stands, a
        # token's games, the lobby's battles
        token = made["seats"]["red"]
        valid("Created", made)
        valid("Created", httpx.post(f"{server.http}/games?battle=border_patrol&bot=empire",
                                    timeout=30).json())
        valid("Standing", httpx.get(f"{server.http}/games/{made['id']}?token={token}").json())
        mine = httpx.get(f"{server.http}/games?token={token}").json()
        valid("Mine", mine)
        assert mine["games"][0]["id"] == made["id"]
        valid("Battles", httpx.get(f"{server.http}/battles").json())
        assert server.tracebacks() == 0
