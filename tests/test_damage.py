"""STORE.DAMAGE (issue 55 row 7): a flipped byte anywhere in a game's SQLite file is never read
as another game. Every reader (replay, export, play --resume, the server's load) checks each
record's hash against its contents and its prev against the record before it as it decodes
it, so what only ``verify`` used to notice is refused at once."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from regiment.core.game import Game
from regiment.store.sqlite import SqliteStore

from . import faults


def test_store_damage_a_flipped_byte_in_sqlite_is_refused_or_harmless_never_another_game(
        tmp_path: Path):
    rng = random.Random(55)
    path, original = faults.artefacts(tmp_path)["sqlite"]
    data = path.read_bytes()
    # the bytes that hold records (where a flip changes a record, not the file's structure)
    first = min(data.find(b"\x88\xa2at"), len(data))
    where = rng.sample(range(first, len(data)), 300)
    tally = faults.Tally("byte flips: sqlite records")
    for at in where:
        trial = tmp_path / f"flip-{at}"
        trial.mkdir()
        target = trial / path.name
        target.write_bytes(faults._flip(data, at, rng))
        faults._judge(tally, faults._reader("sqlite", target), original)
        shutil.rmtree(trial)
    counts = tally.counts
    assert counts["caught"] == 0, tally.examples   # read as another log, caught only by verify
    assert counts["lost"] == counts["crashed"] == 0, tally.examples
    assert counts["refused"] > 50, counts          # the flips that hit a record


def test_store_damage_a_changed_record_is_refused_by_the_games_load(tmp_path: Path):
    """The load a server makes: a record whose data was changed in place (its hash left as
    it was) is refused naming where, not played as the game it now describes."""
    import sqlite3

    from regiment.core.errors import CorruptLog

    db = tmp_path / "g.db"
    with SqliteStore(db) as store:
        game = faults.play(store, turns=1)
    con = sqlite3.connect(db)
    seq, blob = con.execute("SELECT seq, record FROM events WHERE game_id = ? AND seq = 5",
                            (game.game_id,)).fetchone()
    # one byte of the record's data changed, the hash it carries left as it was
    at = blob.index(b"\xa4data") + 8
    changed = blob[:at] + bytes([blob[at] ^ 0x01]) + blob[at + 1:]
    con.execute("UPDATE events SET record = ? WHERE game_id = ? AND seq = ?",
                (changed, game.game_id, seq))
    con.commit()
    con.close()
    with SqliteStore(db) as store:
        try:
            Game.load(game.game_id, store)
        except CorruptLog as exc:
            assert "hash" in str(exc) or "prev" in str(exc)
        else:
            raise AssertionError("a changed record was loaded as a game")
