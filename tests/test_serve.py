"""regiment serve: the JSON-lines protocol, spoken with a real child process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES


class Engine:
    def __init__(self, *args: str, battle: str = "ford_clash") -> None:
        if "--store" not in args:   # serve stores in regiment.db unless told otherwise
            args = (*args, "--store", ":memory:")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "regiment.tools.cli", "serve", str(EXAMPLES / f"{battle}.toml"),
             *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        self.hello = self.read()

    def read(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return json.loads(line)

    def send(self, obj: dict | str) -> dict:
        self.proc.stdin.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> int:
        self.proc.stdin.close()
        return self.proc.wait(timeout=10)


@pytest.fixture
def engine():
    e = Engine()
    yield e
    e.close()


def test_the_first_line_holds_game_started_and_the_pending_decision(engine):
    hello = engine.hello
    assert hello["events"][0]["type"] == "GameStarted"
    assert hello["events"][0]["seq"] == 0 and hello["events"][0]["step"] == 0
    pending = hello["pending"]
    assert pending["kind"] == "decision" and pending["player"] == "red"
    assert pending["decision"] == "declare_charge"
    assert {"cmd": "end_charges", "by": "red"} in pending["legal"]


def test_every_legal_command_is_ready_to_send(engine):
    answer = engine.send(engine.hello["pending"]["legal"][0])
    assert [e["type"] for e in answer["events"]] == ["CommandIssued", "ChargeDeclared",
                                                     "PhaseChanged"]
    assert answer["pending"]["decision"] == "react"
    assert answer["pending"]["player"] == "blue"
    assert answer["pending"]["can_undo"] is True


def test_rejected_lines_say_why_and_change_nothing(engine):
    bad = engine.send({"cmd": "end_phase", "by": "red"})
    assert bad["error"]["type"] == "IllegalCommand" and bad["error"]["rule"] == "TURN.ORDER"
    assert bad["pending"] == engine.hello["pending"]
    assert engine.send("{not json")["error"]["type"] == "BadRequest"
    assert engine.send({"cmd": "warp", "by": "red"})["error"]["type"] == "BadRequest"
    state = engine.send({"query": "state"})
    assert state["state"]["phase"] == "turn.movement.charge.declaration"
    ok = engine.send({"cmd": "end_charges", "by": "red"})
    assert ok["events"][0]["seq"] == len(engine.hello["events"])


def test_manual_dice_pend_a_roll_with_whose_dice_they_are(tmp_path):
    e = Engine("--dice", "manual", "--store", str(tmp_path / "g.db"))
    try:
        for cmd in ({"cmd": "declare_charge", "by": "red", "unit": "wolves", "target": "swords"},
                    {"cmd": "react", "by": "blue", "unit": "swords", "reaction": "hold"},
                    {"cmd": "end_charges", "by": "red"}):
            e.send(cmd)
        answer = e.send({"cmd": "move_charger", "by": "red", "unit": "wolves"})
        assert answer["pending"] == {"kind": "roll", "player": "red", "purpose": "charge_range",
                                     "unit": "wolves", "dice": 3, "can_undo": True,
                                     "can_redo": False,   # what it needs, in words (0.13.0)
                                     "need": "7 or more on the highest two of 3D6 reaches "
                                             "Empire Swordsmen, 16.0\" away with M 9",
                                     # and as numbers (protocol 2)
                                     "needs": {"total_at_least": 7, "highest_two": True}}
        wrong = e.send({"cmd": "roll", "by": "red", "faces": [9, 1, 1]})
        assert wrong["error"]["rule"] == "DICE.FACES"
        rolled = e.send({"cmd": "roll", "by": "red", "faces": [6, 1, 5]})
        charge = next(ev for ev in rolled["events"] if ev["type"] == "ChargeRolled")
        assert charge["data"]["dice"] == [6, 5] and charge["data"]["range"] == 20.0
    finally:
        assert e.close() == 0
    assert Path(tmp_path / "g.db").exists()


def test_a_skirmish_game_is_served_to_its_end_with_every_decision_legal_as_sent():
    """The skirmish preset over the protocol: each pending decision lists its legal commands,
    ready to send; a program that always sends one of them plays the game to its end."""
    e = Engine("--dice", "seeded", battle="two_targets")
    try:
        answer = e.hello
        seen: set[str] = set()
        for _ in range(400):
            pending = answer["pending"]
            if pending["kind"] == "over":
                break
            assert pending["kind"] == "decision" and pending["legal"], pending
            seen.add(pending["decision"])
            # a disordered charge when there is one, else the last choice (often the end)
            pick = next((c for c in pending["legal"] if c.get("secondary")), None) or \
                next((c for c in pending["legal"] if c["cmd"] == "fire_overwatch"), None) or \
                pending["legal"][-1]
            answer = e.send(pick)
            assert "error" not in answer, answer
        assert answer["pending"]["kind"] == "over"
        assert {"declare_assault", "overwatch", "resolve_combat"} <= seen
        contacts = e.send({"query": "contacts"})["contacts"]
        assert set(contacts) <= {"assault", "first_squad", "second_squad"}
    finally:
        assert e.close() == 0


@pytest.mark.parametrize("undo", ["free", "consent", "off"])
def test_can_undo_and_can_redo_say_whether_legal_offers_them(undo):
    """The flags a client is sent with each pending decision are what ``legal()`` offers,
    through undos, redos, undo requests and their answers."""
    import random

    from regiment.core.game import Game
    from regiment.store import MemoryStore
    from regiment.tools.serve import pending_json

    from .conftest import small_scenario

    rng = random.Random(undo)
    game = Game.new(small_scenario(undo=undo), store=MemoryStore())
    seen = set()
    for _ in range(150):
        names = {c.name for c in game.legal()}
        told = pending_json(game)
        assert (told["can_undo"], told["can_redo"]) == ("undo" in names, "redo" in names)
        seen.add((told["can_undo"], told["can_redo"]))
        options = game.legal()
        if not options:
            break
        meta = [c for c in options if c.name in ("undo", "redo", "grant_undo", "refuse_undo")]
        game.submit(rng.choice(meta if meta and rng.random() < 0.4 else options))
    assert undo == "off" or {(True, True), (True, False)} <= seen


def test_serve_resume_takes_a_stored_game_up_again(tmp_path):
    """Issue 56 item 1: a session of serve that ended (or crashed) is taken up again with
    ``serve --resume GAME --store PATH``: the first message holds every record, the pending
    decision is where the game stands, and play goes on; seeded dice go on from their seed."""
    db = str(tmp_path / "g.db")
    first = Engine("--store", db)
    game_id = first.hello["events"][0]["data"]["game_id"]
    made = first.send({"cmd": "end_charges", "by": "red"})
    assert first.close() == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "regiment.tools.cli", "serve", "--resume", game_id[:8],
         "--store", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    hello = json.loads(proc.stdout.readline())
    assert [e["seq"] for e in hello["events"]] == list(range(len(hello["events"])))
    assert hello["events"][-1]["seq"] == made["events"][-1]["seq"]
    assert hello["pending"] == made["pending"]
    step = hello["pending"]["legal"][-1]
    proc.stdin.write(json.dumps(step) + "\n")
    proc.stdin.flush()
    assert "events" in json.loads(proc.stdout.readline())
    proc.stdin.close()
    assert proc.wait(timeout=10) == 0
    bad = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "serve", "--resume",
                          "nope", "--store", db], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
