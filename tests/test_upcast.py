"""Old events stay readable through upcasters; unknown types and versions are never guessed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regiment.core.errors import UnknownEventType
from regiment.core.events import Event, event
from regiment.core.upcast import UPCASTERS, decode_event, upcaster


@event("MarchedForTest", v=3)
class MarchedForTest(Event):
    unit: str
    inches: float
    reason: str


@upcaster("MarchedForTest", 1)
def _v1(data):  # v1 measured centimetres
    return {"unit": data["unit"], "inches": data["cm"] / 2.54}


@upcaster("MarchedForTest", 2)
def _v2(data):
    return {**data, "reason": "march"}


def test_old_versions_are_upcast_step_by_step():
    e = decode_event("MarchedForTest", 1, {"unit": "boyz", "cm": 25.4})
    assert e == MarchedForTest(unit="boyz", inches=10.0, reason="march")
    current = {"unit": "a", "inches": 1.0, "reason": "r"}
    assert decode_event("MarchedForTest", 3, current).unit == "a"


def test_unknown_types_and_versions_are_refused():
    with pytest.raises(UnknownEventType, match="unknown event type 'Teleported'"):
        decode_event("Teleported", 1, {})
    with pytest.raises(UnknownEventType, match="newer than this engine"):
        decode_event("MarchedForTest", 4, {})
    del UPCASTERS[("MarchedForTest", 1)]
    try:
        with pytest.raises(UnknownEventType, match="no upcaster"):
            decode_event("MarchedForTest", 1, {"unit": "a", "cm": 1})
    finally:
        UPCASTERS[("MarchedForTest", 1)] = _v1


def test_event_data_of_the_wrong_shape_is_corrupt():
    from regiment.core.errors import CorruptLog

    with pytest.raises(CorruptLog, match=r"MarchedForTest\.inches"):
        decode_event("MarchedForTest", 3, {"unit": "a", "inches": "far", "reason": "r"})
    with pytest.raises(CorruptLog, match="missing field"):
        decode_event("MarchedForTest", 3, {"unit": "a"})


OLD_07 = Path(__file__).parent / "data" / "v0.7.0"   # games written by engine 0.7.0


@pytest.mark.parametrize("name, seed", [("the_brood", "b00d"), ("two_targets", "7a67"),
                                        ("mill_race", "3a11ce")])
def test_log_rulings_games_of_engine_0_7_0_replay_and_verify_as_they_were_played(name, seed):
    """Saved games are sacred: a log written by engine 0.7.0 loads, replays and verifies
    under 0.8.0, whose skirmish strikes go in another order (SK.ALLOCATE, from 0.8.0) and
    whose state and events gained table mode's fields. The brood's log is one where the two
    orders differ: verify re-derives it under the rulings of the engine that began it."""
    from regiment.core.game import Game
    from regiment.store import MemoryStore
    from regiment.tools.source import open_records
    from regiment.tools.verify import verify

    notes: list[str] = []
    _, records, store = open_records(str(OLD_07 / f"v070-{name}.jsonl"), None, notes)
    assert records[0].data["engine_version"] == "0.7.0"
    report = verify(records, seed=bytes.fromhex(seed))
    assert report.records == len(records)
    game = Game.from_records(records, store=store or MemoryStore())
    assert game.state.over


OLD_08 = Path(__file__).parent / "data" / "v0.8.0"   # games written by engine 0.8.0
OLD_10 = Path(__file__).parent / "data" / "v0.10.0"   # skirmish games written by engine 0.10.0
OLD_11 = Path(__file__).parent / "data" / "v0.11.0"   # games of both rulebooks by engine 0.11.0


def verified_as_written(path: Path, engine: str) -> list[Any]:
    """The records of a log an earlier engine wrote (its seeds beside it), after they
    verified, every die against its seed, and loaded into a game that is over."""
    import json

    from regiment.core.dice import seed_bytes
    from regiment.core.game import Game
    from regiment.store import MemoryStore
    from regiment.tools.source import open_records
    from regiment.tools.verify import verify

    seeds = json.loads((path.parent / "seeds.json").read_text())
    _, records, store = open_records(str(path), None, [])
    assert records[0].data["engine_version"] == engine
    report = verify(records, seed=seed_bytes(seeds[path.stem.split("-", 1)[1]]))
    assert report.records == len(records)
    assert Game.from_records(records, store=store or MemoryStore()).state.over
    return list(records)


@pytest.mark.parametrize("path", sorted(OLD_08.glob("v080-*.jsonl")), ids=lambda p: p.stem)
def test_log_rulings_games_of_engine_0_8_0_replay_and_verify_as_they_were_played(path):
    """Saved games are sacred: every golden battle as engine 0.8.0 wrote it (with its undos),
    and a game under undo consent in which a seat undid the other's step alone (allowed
    before 0.9.0, UNDO.CONSENT), load, replay and verify, every die against its seed."""
    verified_as_written(path, "0.8.0")


@pytest.mark.parametrize("path", sorted(OLD_10.glob("v0100-*.jsonl")), ids=lambda p: p.stem)
def test_log_rulings_skirmish_games_of_engine_0_10_0_end_as_they_ended(path):
    """Saved games are sacred: a skirmish game engine 0.10.0 played out (the brood: 3 turns,
    no side wiped out) or won (two targets: red alone left) verifies, every die against its
    seed, and ends as it did, not by the kill points of 0.11.0 (SK.VICTORY)."""
    records = verified_as_written(path, "0.10.0")
    ended = [r for r in records if r.type == "GameEnded"][0].data["ending"]
    assert ended["code"] in ("turns_played", "side_left")


@pytest.mark.parametrize("path", sorted(OLD_11.glob("v0110-*.jsonl")), ids=lambda p: p.stem)
def test_log_rulings_games_of_engine_0_11_0_verify_with_no_moves_shots_or_victory_points(path):
    """Saved games are sacred: games engine 0.11.0 played to their end (the orcs' win; the
    captain's characters joining and leaving in the remaining moves; the brood's kill points)
    verify, every die against its seed, under 0.11.0's rulings: no unit made a remaining
    move (MOVE.*) or a shot (SHOOT.*), no squad moved in a movement phase (SK.MOVE), and no
    fantasy game was decided by victory points (VP.WIN)."""
    records = verified_as_written(path, "0.11.0")
    fantasy = records[0].data["preset"] != "skirmish40k"   # (a skirmish squad shot: SK.SHOOT)
    assert not [r for r in records if r.type == "CommandIssued" and
                r.data["command"] in (("move", "shoot") if fantasy else ("move",))]
    assert not [r for r in records if r.type == "PhaseChanged"
                and r.data["phase"] == "turn.movement"]
    ended = [r for r in records if r.type == "GameEnded"][0].data["ending"]
    assert ended.get("rule") != "VP.WIN"


OLD_12 = Path(__file__).parent / "data" / "v0.12.0"   # every golden battle, by engine 0.12.0


@pytest.mark.parametrize("path", sorted(OLD_12.glob("v0120-*.jsonl")), ids=lambda p: p.stem)
def test_log_rulings_games_of_engine_0_12_0_verify_and_tell_the_same_story(path):
    """Saved games are sacred: every golden battle as engine 0.12.0 played it (with an undo)
    verifies, every die against its seed, under 0.12.0's rulings (panic by the volley, cover
    inside, the failed charge's slide, lone challengers attacked, the general who fled as
    slain...), tells the very story 0.12.0 told of it (``regiment replay``'s words, kept
    beside it), and is played again hash for hash."""
    import subprocess
    import sys

    from regiment.store import MemoryStore
    from regiment.tools.record import export_record, import_record

    records = verified_as_written(path, "0.12.0")
    told = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert told.returncode == 0, told.stderr
    assert told.stdout == path.with_suffix(".txt").read_text(encoding="utf-8")
    again = import_record(export_record(records), MemoryStore())
    assert [r.hash for r in again.records] == [r.hash for r in records]


def test_log_rulings_the_0_12_0_border_patrol_keeps_its_points_and_its_winner():
    """VP.POINTS under 0.12.0's rulings: the orcs' 260 to 170 stands as it was scored."""
    records = verified_as_written(OLD_12 / "v0120-border_patrol.jsonl", "0.12.0")
    ended = [r for r in records if r.type == "GameEnded"][0].data
    assert ended["winner"] == "orcs" and ended["ending"]["points"] == {"orcs": 260,
                                                                       "empire": 170}
    assert "scored" not in ended["ending"]


def test_log_rulings_the_0_8_0_unconsented_undo_is_caught_if_the_new_ruling_applied(
        monkeypatch):
    """The consent log above verifies only because it is re-derived under 0.8.0's ruling."""
    import regiment.core.undoing as kernel
    from regiment.core.errors import TamperedLog
    from regiment.tools.source import open_records
    from regiment.tools.verify import verify

    monkeypatch.setattr(kernel, "CONSENT_FOR_ANY_STEP", (0, 0, 0))
    _, records, _ = open_records(str(OLD_08 / "v080-consent.jsonl"), None, [])
    with pytest.raises(TamperedLog, match="UndoRequested"):
        verify(records)


@pytest.mark.parametrize("path", sorted(OLD_08.glob("v080-*.jsonl")), ids=lambda p: p.stem)
def test_log_rulings_games_of_engine_0_8_0_played_again_hash_for_hash(path):
    """A 0.8.0 game's moves, played again by this engine under the rulings of 0.8.0 (as
    ``record import`` does), make the very records it wrote: every hash the same. (An event
    field added since is left out of the data while at its default: ``Event.sparse``.)"""
    from regiment.store import MemoryStore
    from regiment.tools.record import export_record, import_record
    from regiment.tools.source import open_records

    _, records, _ = open_records(str(path), None, [])
    again = import_record(export_record(records), MemoryStore())
    assert [r.hash for r in again.records] == [r.hash for r in records]


@given(st.sampled_from(["turns_played", "side_left", "none_left"]),
       st.integers(min_value=1, max_value=99),
       st.from_regex(r"[a-z][a-z0-9_-]{0,11}", fullmatch=True),   # a scenario's player id
       st.sampled_from(["units", "squads"]))
def test_a_game_end_written_in_english_before_0_10_0_reads_as_its_code(code, turns, player,
                                                                       pieces):
    """GAME.END: an ending, written as an engine before 0.10.0 wrote it, is read back as the
    very code it stands for (old logs upcast on read)."""
    from regiment.core.endings import Ending, ending, ending_of, legacy_reason

    params = {"turns_played": {"turns": turns}, "side_left": {"player": player},
              "none_left": {}}[code]
    end = ending(Ending(code), **params)
    assert ending_of({"reason": legacy_reason(end, pieces), "winner": None}) == end
    assert ending_of({"ending": end, "winner": None}) == end


@given(st.data())
def test_a_reason_written_in_english_before_0_10_0_reads_as_its_code(data):
    """Reasons as codes (core.reasons): each code of a field, written as an engine before
    0.10.0 wrote it (pieces by name), is read back as that code with those names and its
    rule; as 0.10.0 to 0.12.0 wrote it (no rule), back with its rule; a game begun since
    writes the code with its rule, and a code or parameter not declared is refused."""
    from regiment.phases.fantasy.why import CHARGE_FAILED

    code = data.draw(st.sampled_from(sorted(CHARGE_FAILED.codes)))
    names = {"a": "Orc Boyz", "b": "Empire Spearmen (rear)"}
    params = {p: data.draw(st.sampled_from(["front", "left", "right", "rear"])) if p == "side"
              else data.draw(st.sampled_from(sorted(names)))
              for p in CHARGE_FAILED.codes[code].params}
    reason = CHARGE_FAILED.make(code, **params)
    rule = CHARGE_FAILED.codes[code].rule
    assert reason == {"code": code, "rule": rule, **params} and rule
    english = CHARGE_FAILED.as_written(reason, (0, 9, 0), names.__getitem__)
    assert isinstance(english, str)
    shown = {k: names[v] if k in CHARGE_FAILED.pieces else v for k, v in params.items()}
    assert CHARGE_FAILED.read(english) == {"code": code, **shown}
    assert CHARGE_FAILED.upcast(english) == {"code": code, "rule": rule, **shown}
    coded = CHARGE_FAILED.as_written(reason, (0, 12, 0), names.__getitem__)
    assert coded == {"code": code, **params}
    assert CHARGE_FAILED.upcast(coded) == reason
    assert CHARGE_FAILED.upcast("") is None and CHARGE_FAILED.as_written(None, (0, 9, 0), str) == ""
    with pytest.raises(ValueError):
        CHARGE_FAILED.make(code, **params, extra=1)
    with pytest.raises(KeyError):
        CHARGE_FAILED.make("no_such_code")
