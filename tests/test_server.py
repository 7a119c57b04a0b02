"""``regiment server`` through real clients: HTTP (httpx) and WebSockets (websockets), against
the server as a child process, on SQLite (and, in test_server_scale.py, on PostgreSQL)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .servers import EXE, Dealer, Server, dumps, first_legal

SCENARIO = (Path(__file__).resolve().parent.parent / "examples" / "ford_clash.toml").read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    where = tmp_path_factory.mktemp("server")
    with Server(str(where / "games.db"), where / "server.key") as s:
        yield s


def seat(server: Server, made: dict[str, Any], who: str, after: int = 0) -> Any:
    token = made["seats"].get(who, who)
    return connect(f"{server.ws}/games/{made['id']}/ws?token={token}&after={after}")


def recv(ws: Any) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=20)))


def play(server: Server, made: dict[str, Any], steps: int = 10_000) -> tuple[dict, list]:
    """Both seats play the first legal command until the game ends (or ``steps``); returns
    the last message and the receipts each seat was sent."""
    receipts: dict[str, list] = {p: [] for p in made["seats"]}
    with seat(server, made, "red") as red, seat(server, made, "blue") as blue:
        ws = {"red": red, "blue": blue}
        message = recv(red)
        recv(blue)
        for _ in range(steps):
            command = first_legal(message)
            if command is None:
                break
            ws[command["by"]].send(dumps(command))
            for who, conn in ws.items():   # every seat hears of every step
                heard = recv(conn)
                assert "error" not in heard, heard
                receipts[who].append(heard["receipt"])
                if who == command["by"]:
                    message = heard
    return message, receipts


def test_a_game_is_made_with_a_secret_token_a_seat_and_a_spectators_link(server, tmp_path):
    made = server.create(SCENARIO)
    assert set(made["seats"]) == {"red", "blue"} and len(set(made["seats"].values())) == 2
    assert made["spectate"].startswith(f"/games/{made['id']}/replay?token=")
    assert any("seed" in note for note in made["notes"])   # its seed was not used
    key = httpx.get(f"{server.http}/key").json()
    assert key["algorithm"] == "Ed25519" and len(key["key"]) == 64
    db = sqlite3.connect(Path(server.store))
    hashes = dict(db.execute("SELECT role, token_hash FROM seats WHERE game_id = ?",
                             (made["id"],)).fetchall())
    db.close()
    assert set(hashes) == {"red", "blue", "spectate"}
    assert not set(hashes.values()) & set(made["seats"].values())   # kept hashed


def test_a_whole_game_verifies_with_its_revealed_seed_and_every_receipt(server, tmp_path):
    made = server.create(SCENARIO)
    token = made["seats"]["red"]
    state = httpx.get(f"{server.http}/games/{made['id']}?token={token}").json()
    assert "seed" not in state and state["seat"] == "red"   # not before the game is over
    last, receipts = play(server, made)
    assert last["pending"]["kind"] == "over" and len(last["seed"]) == 64
    log = tmp_path / "game.jsonl"
    log.write_text(httpx.get(f"{server.http}/games/{made['id']}/log?token={token}").text)
    key = httpx.get(f"{server.http}/key").json()["key"]
    for who, kept in receipts.items():
        (tmp_path / f"{who}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))
        done = subprocess.run([str(EXE), "verify", str(log), "--seed", last["seed"],
                               "--receipts", str(tmp_path / f"{who}.jsonl"), "--key", key],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "every die matches the revealed seed" in done.stdout
        assert f"{len(kept)} receipts held" in done.stdout


def test_receipts_catch_a_host_that_cut_or_rewrote_a_game(server, tmp_path):
    made = server.create(SCENARIO)
    _, receipts = play(server, made, steps=12)
    token = made["seats"]["blue"]
    lines = httpx.get(f"{server.http}/games/{made['id']}/log?token={token}").text.splitlines()
    records = [json.loads(line) for line in lines[:-1]]
    cut = [r for r in records if r["step"] <= 6]   # whole steps off the end, re-closed
    closing = {"end": True, "records": len(cut), "head": cut[-1]["hash"]}
    log = tmp_path / "cut.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in [*cut, closing]))
    kept = tmp_path / "blue.jsonl"
    kept.write_text("".join(json.dumps(r) + "\n" for r in receipts["blue"]))
    done = subprocess.run([str(EXE), "verify", str(log), "--receipts", str(kept)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "cut short or changed" in done.stdout, done.stdout
    forged = dict(receipts["blue"][-1], head="0" * 64)   # a receipt the server never signed
    kept.write_text(json.dumps(forged) + "\n")
    done = subprocess.run([str(EXE), "verify", str(log), "--receipts", str(kept)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "signature does not match" in done.stdout, done.stdout
    kept.write_text(json.dumps(receipts["blue"][-1]) + "\n")
    done = subprocess.run([str(EXE), "verify", str(log), "--receipts", str(kept), "--key",
                           "ab" * 32], capture_output=True, text=True)
    assert done.returncode == 1 and "not by the server's key" in done.stdout, done.stdout


def test_server_seat_a_seat_commands_only_its_own_side_and_a_spectator_only_watches(server):
    made = server.create(SCENARIO)
    spectate = made["spectate"].split("token=")[1]
    with seat(server, made, "red") as red, seat(server, made, "blue") as blue, \
            seat(server, made, spectate) as watcher:
        opening = recv(red)
        assert recv(blue)["head"] == recv(watcher)["head"] == opening["head"]
        command = first_legal(opening)
        assert command is not None and command["by"] == "red"
        blue.send(dumps(command))   # blue sends red's command
        refused = recv(blue)
        assert refused["error"]["rule"] == "SERVER.SEAT" and refused["head"] == opening["head"]
        watcher.send(dumps(command))
        refused = recv(watcher)
        assert refused["error"]["rule"] == "SERVER.SEAT" and refused["head"] == opening["head"]
        red.send(dumps(command))
        heard = recv(watcher)   # the spectator sees the step
        assert heard["head"] == recv(red)["head"] != opening["head"]
        assert heard["receipt"]["head"] == heard["head"]


@pytest.mark.parametrize("token", ["", "not-a-token"])
def test_a_wrong_or_missing_token_is_refused_everywhere(server, token):
    made = server.create(SCENARIO)
    for path in ("", "/log", "/replay"):
        r = httpx.get(f"{server.http}/games/{made['id']}{path}?token={token}")
        assert r.status_code == 403 and "wrong or missing token" in r.json()["error"]["message"]
    with connect(f"{server.ws}/games/{made['id']}/ws?token={token}") as ws:
        assert "wrong or missing token" in recv(ws)["error"]["message"]
    r = httpx.get(f"{server.http}/games/nosuchgame?token={made['seats']['red']}")
    assert r.status_code == 403   # said the same way: ids cannot be probed


def test_a_websocket_anywhere_but_a_games_is_refused(server):
    """A game's WebSocket goes straight to its handler (tools/server/app.py, ``front``); any other
    path is still the router's, which refuses it before the handshake."""
    from websockets.exceptions import InvalidStatus

    made = server.create(SCENARIO)
    token = made["seats"]["red"]
    for path in ("/ws", f"/games/{made['id']}/ws/more", f"/games/{made['id']}", "/games//ws"):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{server.ws}{path}?token={token}").close()
        assert refused.value.response.status_code == 403, path
    with connect(f"{server.ws}/games/{made['id']}/ws?token={token}") as ws:
        assert recv(ws)["seat"] == "red"


def test_bad_messages_get_clear_errors_and_change_nothing(server):
    made = server.create(SCENARIO)
    with seat(server, made, "red") as red:
        head = recv(red)["head"]
        for message, says in (("{not json", "malformed JSON"), ("[1, 2]", "JSON object"),
                              ("x" * 20_000, "longer than"),
                              (dumps({"cmd": "fly", "by": "red"}), "unknown command"),
                              (dumps({"cmd": "end_charges", "by": "red", "bogus": 1}), "bogus")):
            red.send(message)
            answer = recv(red)
            assert says in answer["error"]["message"] and answer["head"] == head, answer
        red.send(b"\x00\x01 binary")
        answer = recv(red)
        assert "not binary data" in answer["error"]["message"] and answer["head"] == head
        for _ in range(60):   # a flood: more than the seat may send at once
            red.send(dumps({"cmd": "fly", "by": "red"}))
        answers = [recv(red)["error"] for _ in range(60)]
        limited = [a for a in answers if a["type"] == "RateLimited"]
        assert limited and "too many messages" in limited[0]["message"]
        assert 0 <= limited[0]["retry_after"] <= 0.05   # 1/20 s: when the next is taken
        state = httpx.get(f"{server.http}/games/{made['id']}?token={made['seats']['red']}")
        assert state.json()["head"] == head


def games_in(server: Server) -> int:
    db = sqlite3.connect(Path(server.store))
    try:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        db.close()


def test_a_bad_scenario_is_refused_and_makes_no_game(server):
    before = games_in(server)
    r = httpx.post(f"{server.http}/games", content=b"#" * 300_000)   # too big to read whole
    assert r.status_code == 413 and "at most" in r.json()["error"]["message"]
    for body, says in (("not = [toml", "not a TOML scenario"),
                       (SCENARIO.replace('dice = "seeded"', 'dice = "manual"')
                        if 'dice = "seeded"' in SCENARIO else SCENARIO + '\ndice = "manual"\n',
                        "seeded dice only"),
                       ("preset = 'fantasy8'\n", "")):
        r = httpx.post(f"{server.http}/games", content=body.encode())
        assert r.status_code == 400 and says in r.json()["error"]["message"], r.text
    assert games_in(server) == before


def test_a_client_that_vanishes_mid_step_loses_nothing_and_reconnects_where_it_was(server):
    made = server.create(SCENARIO)
    with seat(server, made, "red") as red:
        opening = recv(red)
        seen = len(opening["events"])
        command = first_legal(opening)
        red.send(dumps(command))
    # gone before its answer: the step is whole or absent, never half
    with seat(server, made, "red", after=seen) as red:
        again = recv(red)
        assert all(e["seq"] >= seen for e in again["events"])
        state = httpx.get(f"{server.http}/games/{made['id']}?token={made['seats']['red']}")
        assert state.json()["records"] == seen + len(again["events"])
        assert again["head"] == state.json()["head"]


def test_undo_under_consent_asks_the_other_seat(server):
    made = server.create(SCENARIO.replace('undo = "free"', 'undo = "consent"'))
    with seat(server, made, "red") as red, seat(server, made, "blue") as blue:
        message = recv(red)
        recv(blue)
        conns = {"red": red, "blue": blue}
        rolled = False
        for _ in range(200):   # play on until a step rolls dice
            command = first_legal(message)
            assert command is not None
            conns[command["by"]].send(dumps(command))
            message = recv(conns[command["by"]])
            recv(conns["blue" if command["by"] == "red" else "red"])
            if any(e["type"] == "DiceRolled" for e in message["events"]):
                rolled, mover = True, command["by"]
                break
        assert rolled
        conns[mover].send(dumps({"cmd": "undo", "by": mover}))
        asked = recv(conns[mover])
        other = "blue" if mover == "red" else "red"
        recv(conns[other])
        assert asked["pending"]["decision"] == "consent_undo"
        assert asked["pending"]["player"] == other
        conns[mover].send(dumps({"cmd": "grant_undo", "by": mover}))
        assert recv(conns[mover])["error"]["rule"] == "UNDO.CONSENT"   # not the asker
        conns[other].send(dumps({"cmd": "grant_undo", "by": other}))
        granted = recv(conns[other])
        assert any(e["type"] == "StepUndone" for e in granted["events"])


def test_undo_consent_over_the_server_the_other_seats_step_needs_consent_without_dice(server):
    """The audit's case: under consent (the server's default, and said in the notes), a
    seat undoing the other seat's step that rolled no dice is asked for consent too."""
    made = server.create(SCENARIO.replace('undo = "free"', ''))
    assert made["undo"] == "consent" and any("undo: consent" in n for n in made["notes"])
    free = server.create(SCENARIO)
    assert free["undo"] == "free" and any("undo: free" in n for n in free["notes"])
    with seat(server, made, "red") as red, seat(server, made, "blue") as blue:
        conns = {"red": red, "blue": blue}
        message = recv(red)
        recv(blue)
        for _ in range(200):   # play on until a step rolls no dice
            command = first_legal(message)
            assert command is not None
            conns[command["by"]].send(dumps(command))
            message = recv(conns[command["by"]])
            recv(conns["blue" if command["by"] == "red" else "red"])
            if not any(e["type"] == "DiceRolled" for e in message["events"]):
                mover = command["by"]
                break
        other = "blue" if mover == "red" else "red"
        conns[other].send(dumps({"cmd": "undo", "by": other}))
        asked = recv(conns[other])
        recv(conns[mover])
        assert [e["type"] for e in asked["events"]][-1] == "UndoRequested"
        assert asked["pending"]["decision"] == "consent_undo"
        assert asked["pending"]["player"] == mover


def test_the_replay_page_is_served_with_its_live_script(server):
    made = server.create(SCENARIO)
    page = httpx.get(f"{server.http}{made['spectate']}")
    assert page.status_code == 200 and "new WebSocket" in page.text and "#step=" in page.text


def test_the_replay_page_follows_the_game_live_in_chromium(server):
    """A spectator's page at the newest step moves to each new step as it is played, and
    says whose turn it is and what the game waits for."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from .test_html import browser

    reloading = (NoSuchElementException, StaleElementReferenceException)   # mid-reload

    made = server.create(SCENARIO)
    driver = browser()
    try:
        with seat(server, made, "red") as red, seat(server, made, "blue") as blue:
            conns = {"red": red, "blue": blue}
            message = recv(red)
            recv(blue)
            driver.get(f"{server.http}{made['spectate']}")
            assert driver.find_element(By.ID, "where").text.startswith("Step 0 of 0")
            WebDriverWait(driver, 20, ignored_exceptions=reloading).until(   # whose turn
                lambda d: d.find_element(By.ID, "waiting").text.startswith(
                    f"Waiting for {message['pending']['player']}: "))
            for step in (1, 2, 3):
                command = first_legal(message)
                assert command is not None
                conns[command["by"]].send(dumps(command))
                for who, conn in conns.items():
                    heard = recv(conn)
                    message = heard if who == command["by"] else message
                WebDriverWait(driver, 20, ignored_exceptions=reloading).until(
                    lambda d, s=step: d.find_element(By.ID, "where").text.startswith(
                        f"Step {s} of {s}"))
                p = message["pending"]   # and says what the game waits for now
                said = (f"Waiting for {p['player']}" if p["kind"] != "over"
                        else "The game is over")
                WebDriverWait(driver, 20, ignored_exceptions=reloading).until(
                    lambda d, w=said: d.find_element(By.ID, "waiting").text.startswith(w))
    finally:
        driver.quit()


def test_a_process_lets_go_of_a_game_nobody_watches(tmp_path):
    """Memory of a server of many games: a game stays loaded while a connection watches it."""
    from regiment.store import MemoryStore
    from regiment.tools.server.hub import Hub, Watcher
    from regiment.tools.server.signing import ServerKey

    hub = Hub(MemoryStore(), ServerKey.load_or_create(tmp_path / "k.pem"))
    made = hub.create(SCENARIO.encode())
    held, seat = hub.seat_of(made["id"], made["seats"]["red"])
    one, two = Watcher(seat, print), Watcher(seat, print)
    held.watchers += [one, two]
    hub.leave(made["id"], one)
    assert made["id"] in hub.held
    hub.leave(made["id"], two)
    assert made["id"] not in hub.held
    again, _ = hub.seat_of(made["id"], made["seats"]["blue"])   # loaded again from the store
    assert again.game.head == held.game.head


def test_a_game_at_the_table_is_played_over_the_server_with_measurements(server):
    """TABLE.ASK over the game server: a table-mode scenario makes a game whose seats are asked
    for measurements; a bad one is refused with its rule, a good one goes on."""
    made = server.create(SCENARIO.replace("[table]\n", "[table]\nmeasured = true\n"))
    with seat(server, made, "red") as red, seat(server, made, "blue") as blue:
        recv(red)
        recv(blue)
        red.send(dumps({"cmd": "declare_charge", "by": "red", "unit": "boyz",
                        "target": "spears"}))
        asked = recv(red)
        recv(blue)
        assert asked["pending"]["kind"] == "measurement"
        assert asked["pending"]["rule"] == "CH.CHARGE_MOVE"
        red.send(dumps({"cmd": "measure", "by": "red", "value": "sideways"}))
        refused = recv(red)
        assert refused["error"]["rule"] == "CH.CHARGE_MOVE" and refused["head"] == asked["head"]
        red.send(dumps({"cmd": "measure", "by": "red", "value": "front"}))
        done = recv(red)
        assert done["pending"]["decision"] == "react" and done["receipt"]["head"] == done["head"]


def test_server_a_bundled_battle_by_name_and_the_games_a_token_holds(server):
    """`POST /games?battle=NAME` starts a bundled battle (a unique beginning of its name will
    do); `GET /games?token=T` lists the games that token holds a seat in, with its seat and
    what the game waits for; a token holding none lists none."""
    r = httpx.post(f"{server.http}/games?battle=ford", content=b"")
    assert r.status_code == 201, r.text
    made = r.json()
    listed = httpx.get(f"{server.http}/games", params={"token": made["seats"]["red"]}).json()
    assert [(g["id"], g["seat"]) for g in listed["games"]] == [(made["id"], "red")]
    assert listed["games"][0]["pending"]["kind"] == "decision"
    assert httpx.get(f"{server.http}/games", params={"token": "x" * 32}).json() == \
        {"games": []}
    r = httpx.post(f"{server.http}/games?battle=no_such_battle", content=b"")
    assert r.status_code == 400 and "no bundled scenario" in r.json()["error"]["message"]


def test_the_server_seats_the_bundled_bot(tmp_path):
    """Issue 56 item 4: ``POST /games?bot=blue`` makes a game whose blue seat the bundled bot
    (``regiment.bot``) plays: red alone, with the first legal command each time, plays the
    whole game; the bot's seat has no token, and a seat for a person is required."""
    import httpx

    with Server(str(tmp_path / "g.db"), tmp_path / "k.key") as s:
        r = httpx.post(f"{s.http}/games?bot=blue", content=SCENARIO.encode(), timeout=30)
        assert r.status_code == 201, r.text
        made = r.json()
        assert set(made["seats"]) == {"red"} and any("bot plays blue" in n for n in
                                                     made["notes"])
        for bad in ("bot=green", "bot=red,blue"):
            r = httpx.post(f"{s.http}/games?{bad}", content=SCENARIO.encode(), timeout=30)
            assert r.status_code == 400 and r.json()["error"]["field"] == "bot", r.text
        bots_moved = 0
        dealer = Dealer(made["id"], "red")   # the dice are shared: red's and the server's
        with seat(s, made, "red") as red:
            message = recv(red)
            for _ in range(5000):
                if message["pending"]["kind"] == "over":
                    break
                if not dealer.answer(red, message):
                    assert message["pending"]["player"] == "red", message["pending"]
                    command = first_legal(message)
                    assert command is not None
                    red.send(dumps(command))
                time.sleep(0.07)   # a person's pace: a command or a reveal, under the rate
                message = recv(red)
                assert "error" not in message, message
                bots_moved += sum(1 for e in message["events"] if e["type"] ==
                                  "CommandIssued" and e["data"]["by"] == "blue")
        assert message["pending"]["kind"] == "over" and bots_moved > 5
        assert len(dealer.revealed) > 5   # the bot's rolls too are made of red's reveals
        assert s.tracebacks() == 0


def test_undo_policy_hosted_free_against_the_bot_is_solo_and_solo_needs_one_person(server):
    """UNDO.POLICY on the server: one person against the bot undoes alone (solo, said in the
    notes); solo for two people is refused, saying why."""
    made = httpx.post(f"{server.http}/games?bot=blue&undo=free", content=SCENARIO.encode(),
                      timeout=30).json()
    assert made["undo"] == "solo" and any(n.startswith("undo: solo") for n in made["notes"])
    refused = httpx.post(f"{server.http}/games?undo=solo", content=SCENARIO.encode(),
                         timeout=30)
    assert refused.status_code == 400 and "one person" in refused.text
    two = server.create(SCENARIO)   # free, two people: a rolled step needs consent
    assert two["undo"] == "free" and any("consent" in n for n in two["notes"])
