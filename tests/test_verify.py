"""verify: the chain, re-derivation of every outcome, and the dice against a revealed seed."""

from __future__ import annotations

import copy
import random

import pytest

from regiment.core.errors import CorruptLog, TamperedLog
from regiment.core.game import Game
from regiment.core.record import Record
from regiment.store import MemoryStore
from regiment.store.codec import GENESIS, body_bytes, link
from regiment.tools.verify import verify

from .conftest import random_play, small_scenario

SEED = bytes.fromhex("c0ffee")


@pytest.fixture(scope="module")
def played() -> list[Record]:
    game = Game.new(small_scenario(), store=MemoryStore())
    random_play(game, random.Random(11), 120, 0.25)
    assert any(r.type == "DiceRolled" for r in game.records)
    return game.records


def rechain(records: list[Record]) -> list[Record]:
    """What a forger would do: fix up every hash after an edit."""
    out, prev = [], GENESIS
    for i, r in enumerate(records):
        digest = link(prev, body_bytes(i, r.step, r.type, r.v, r.data, r.at))
        out.append(Record(seq=i, step=r.step, type=r.type, v=r.v, data=r.data, at=r.at,
                          prev=prev, hash=digest))
        prev = digest
    return out


def with_data(r: Record, data: dict) -> Record:
    return Record(seq=r.seq, step=r.step, type=r.type, v=r.v, data=data, at=r.at, prev=r.prev,
                  hash=r.hash)


def test_an_honest_log_verifies_with_its_seed(played):
    report = verify(played, SEED)
    assert report.seed_checked and report.records == len(played) and report.dice > 0


def test_every_dropped_record_is_named(played):
    for i in range(len(played)):
        tampered = played[:i] + played[i + 1:]
        with pytest.raises(TamperedLog) as info:
            verify(tampered)
        assert info.value.seq in (i, i + 1) or (i == len(played) - 1), i


def test_every_changed_die_face_is_named(played):
    for i, r in enumerate(played):
        if r.type != "DiceRolled":
            continue
        for k in range(len(r.data["faces"])):
            data = copy.deepcopy(r.data)
            data["faces"][k] = data["faces"][k] % 6 + 1
            tampered = [*played[:i], with_data(r, data), *played[i + 1:]]
            with pytest.raises(TamperedLog) as info:
                verify(tampered)
            assert info.value.seq == i and "hash" in info.value.reason
            forged = rechain(tampered)  # hashes fixed up: the seed still catches it
            with pytest.raises(TamperedLog) as info:
                verify(forged, SEED)
            assert info.value.seq == i and "seed gives" in info.value.reason


def test_an_edited_outcome_with_a_fixed_chain_fails_rederivation(played):
    i = next(i for i, r in enumerate(played) if r.type == "ChargeRolled")
    data = dict(played[i].data, success=not played[i].data["success"])
    forged = rechain([*played[:i], with_data(played[i], data), *played[i + 1:]])
    with pytest.raises(TamperedLog) as info:
        verify(forged)
    assert info.value.seq == i and "the rules give" in info.value.reason


def test_a_wrong_seed_is_refused(played):
    with pytest.raises(TamperedLog, match="commitment"):
        verify(played, b"\x00\x01")


def test_an_illegal_recorded_command_is_named(played):
    i = next(i for i, r in enumerate(played) if r.type == "CommandIssued" and r.step > 3)
    data = dict(played[i].data, by="green")
    forged = rechain([*played[:i], with_data(played[i], data), *played[i + 1:]])
    with pytest.raises(TamperedLog) as info:
        verify(forged)
    assert info.value.seq == i


def test_geo_move_every_move_is_recorded_and_verify_recomputes_it():
    """GEO.MOVE: replay takes positions from UnitMoved; verify re-derives them and names a
    move that was edited, even with the hash chain fixed up."""
    from regiment.tools.demo import bundled_scenario, play

    scenario = bundled_scenario()
    scenario["seed"] = "007c"
    game = Game.new(scenario, store=MemoryStore())
    play(game, show_undo=False)
    moves = [r for r in game.records if r.type == "UnitMoved"]
    kinds = {r.data["reason"]["code"] for r in moves}
    assert kinds >= {"charge", "flee", "pursuit", "failed_charge"}
    placed = ("UnitMoved", "UnitReturned", "UnitReformed")
    live = {i for i, s in game.timeline.status().items() if s == "live"}
    last = {r.data["unit"]: r.data for r in game.records if r.type in placed and r.step in live}
    for uid, data in last.items():
        unit = game.state.units[uid]
        assert unit.position == tuple(data["position"]) and unit.facing == data["facing"]
    assert Game.load(game.game_id, game.store).state.summary() == game.state.summary()
    records = list(game.records)
    i = records.index(moves[0])
    moved = copy.deepcopy(moves[0].data)
    moved["position"] = [moved["position"][0] + 1.0, moved["position"][1]]
    records[i] = with_data(records[i], moved)
    with pytest.raises(TamperedLog) as info:
        verify(rechain(records))
    assert info.value.seq == i


def outcome(records, seed=None, jobs=1, chained=None):
    try:
        report = verify(records, seed, jobs=jobs, chained=chained)
    except TamperedLog as exc:
        return "tampered", exc.seq, exc.reason
    return "ok", report.records, report.steps, report.dice, report.seed


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of a few records, so that a short log is checked in several."""
    from regiment.tools import pieces as module

    monkeypatch.setattr(module, "PIECE_RECORDS", 8)
    return module


def test_verify_in_pieces_names_what_one_walk_names(played, small_pieces):
    """verify --jobs: the log cut into pieces, each chained and re-derived in a process of
    its own, gives the same report for an honest log and names the same record, with the
    same reason, for every kind of damage (a broken hash, a record dropped, a die changed
    and re-hashed, an outcome or a command edited and re-hashed, two faults at once)."""
    assert len(small_pieces.pieces_of(played, 3)) == 3
    at = {kind: next(i for i, r in enumerate(played) if r.type == kind and r.step > 3)
          for kind in ("DiceRolled", "ChargeRolled", "CommandIssued")}
    die = copy.deepcopy(played[at["DiceRolled"]].data)
    die["faces"][0] = die["faces"][0] % 6 + 1
    charge = dict(played[at["ChargeRolled"]].data,
                  success=not played[at["ChargeRolled"]].data["success"])
    command = dict(played[at["CommandIssued"]].data, by="green")

    def edited(i, data):
        return [*played[:i], with_data(played[i], data), *played[i + 1:]]

    late = len(played) - 3
    variants = [played, edited(at["DiceRolled"], die), rechain(edited(at["DiceRolled"], die)),
                rechain(edited(at["ChargeRolled"], charge)),
                rechain(edited(at["CommandIssued"], command)),
                # an outcome forged early, a hash broken late: the chain is named first
                [*rechain(edited(at["ChargeRolled"], charge))[:late],
                 with_data(played[late], dict(played[late].data, extra=1)),
                 *played[late + 1:]],
                *(played[:i] + played[i + 1:] for i in range(1, len(played), 9))]
    for records in variants:
        for seed in (None, SEED):
            assert outcome(records, seed, jobs=3) == outcome(records, seed, jobs=1)
    assert outcome(played, SEED, jobs=3)[0] == "ok"


def test_verify_in_pieces_leaves_nothing_frozen_out_of_the_collector(played, small_pieces):
    """The records are frozen out of the garbage collector while the pieces fork, and let
    back in afterwards, whether the log held or not (else whatever this process held then
    would never be collected again)."""
    import gc

    assert gc.get_freeze_count() == 0
    assert outcome(played, SEED, jobs=3)[0] == "ok"
    assert gc.get_freeze_count() == 0
    broken = [*played[:5], played[5]._replace(hash=bytes(32)), *played[6:]]
    assert outcome(broken, SEED, jobs=3)[:2] == ("tampered", 5)
    assert gc.get_freeze_count() == 0


def test_verify_in_pieces_names_a_record_that_does_not_decode_as_one_walk_does(played,
                                                                              small_pieces):
    """A record edited into one its event class does not know (a field added): with its
    hash left broken, one walk names the broken chain first; re-hashed, the record that does
    not decode. In pieces (the fold before a piece, a piece's walk, the dice's walk all read
    it) the same error, of the same kind, for the same record."""
    def answer(records, jobs):
        try:
            verify(records, SEED, jobs=jobs)
        except (TamperedLog, CorruptLog) as exc:
            return type(exc).__name__, str(exc)
        return "ok"

    dice = next(i for i, r in enumerate(played) if r.type == "DiceRolled" and i > 100)
    for i in (5, 40, dice):
        edited = [*played[:i], with_data(played[i], dict(played[i].data, extra=1)),
                  *played[i + 1:]]
        assert answer(edited, 3) == answer(edited, 1) == ("TamperedLog", f"record {i}: its "
                                                          "hash does not match its contents")
        kind, said = answer(rechain(edited), 3)
        assert (kind, said) == answer(rechain(edited), 1)
        assert kind == "CorruptLog" and said.startswith(f"record {i}:") and "extra" in said


def stored(records: list[Record], frame=None) -> tuple[list[Record], list[bytes]]:
    """``records`` as a store holds them (their frames as written, ``frame`` to write one
    another way), read back as ``regiment verify`` reads a store: each hash checked as it is
    read, and each record's data as the bytes it covers (``chained``)."""
    from regiment.store.codec import encode_record

    store = MemoryStore()
    store._frames["g"] = [(frame or encode_record)(r) for r in records]
    return store.read_chained("g")


def test_verify_of_a_store_checks_each_hash_once_and_names_what_the_records_name(
        played, small_pieces):
    """verify of a store takes each record's hash as the store's read checked it, and its
    data's bytes as read, and re-derives every step against them (each record hashed once,
    not twice): every forgery whose hashes were fixed up (a die, an outcome, a command) is
    named at the same record, for the same reason, in one walk and in pieces."""
    at = {kind: next(i for i, r in enumerate(played) if r.type == kind and r.step > 3)
          for kind in ("DiceRolled", "ChargeRolled", "CommandIssued")}
    die = copy.deepcopy(played[at["DiceRolled"]].data)
    die["faces"][0] = die["faces"][0] % 6 + 1
    forged = {"DiceRolled": die,
              "ChargeRolled": dict(played[at["ChargeRolled"]].data,
                                   success=not played[at["ChargeRolled"]].data["success"]),
              "CommandIssued": dict(played[at["CommandIssued"]].data, by="green")}
    variants = [played, *(rechain([*played[:at[k]], with_data(played[at[k]], data),
                                   *played[at[k] + 1:]]) for k, data in forged.items())]
    for records in variants:
        read, chained = stored(records)
        assert read == records
        for seed in (None, SEED):
            for jobs in (1, 3):
                assert outcome(read, seed, jobs, chained) == outcome(records, seed, jobs)
    assert outcome(*stored(played)[:1], SEED, 1, stored(played)[1])[0] == "ok"


def test_verify_of_a_store_refuses_data_that_is_not_canonical(played):
    """A frame whose data's keys are not in canonical order, its hash made over those bytes
    (a store reads it: its hash covers what it holds), is refused as the records alone are:
    the chain is of canonical bodies, which an export to JSON hashes the same."""
    import msgspec

    i = next(i for i, r in enumerate(played) if r.type == "ChargeRolled" and r.step > 3)
    messy = msgspec.msgpack.Encoder()   # keys in the order the dict holds them

    def frame(r):
        if r.seq != i:
            from regiment.store.codec import encode_record
            return encode_record(r)
        data = dict(reversed(list(r.data.items())))
        body = messy.encode({"at": r.at, "data": data, "seq": r.seq, "step": r.step,
                             "type": r.type, "v": r.v})
        digest = link(r.prev, body)
        return messy.encode({"at": r.at, "data": data, "hash": digest, "prev": r.prev,
                             "seq": r.seq, "step": r.step, "type": r.type, "v": r.v})

    read, chained = stored(played[:i + 1], frame)
    assert chained[i] != msgspec.msgpack.Encoder(order="sorted").encode(played[i].data)
    kind, seq, reason = outcome(read, SEED, 1, chained)
    assert (kind, seq) == ("tampered", i) and "hash does not match" in reason
    assert outcome(read, SEED)[:2] == ("tampered", i)
