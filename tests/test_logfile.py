"""LogFileStore's promises: torn tails cut back, damage named, one writer, failed writes undone."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from regiment.core.errors import ConcurrencyConflict, CorruptLog, StoreError
from regiment.core.game import Game
from regiment.store import LogFileStore
from regiment.store.logfile import HEADER, MAGIC

from .conftest import random_play
from .test_store_contract import drafts


def write_game(directory: Path, steps: int = 3) -> tuple[Path, list[int]]:
    """A log of ``steps`` steps; returns its path and the byte offset where each step ends."""
    ends = []
    with LogFileStore(directory) as store:
        seq = 0
        for step in range(steps):
            store.append("g1", drafts(seq, 2, step), seq)
            seq += 2
            ends.append(store.path("g1").stat().st_size)
        return store.path("g1"), ends


def test_a_torn_tail_is_cut_back_to_the_last_whole_step_at_every_offset(tmp_path):
    path, ends = write_game(tmp_path / "src")
    data = path.read_bytes()
    for cut in range(ends[-2], ends[-1]):
        d = tmp_path / f"cut{cut}"
        d.mkdir()
        (d / "g1.rlog").write_bytes(data[:cut])
        with LogFileStore(d) as store:
            assert store.version("g1") == 4, cut  # read-only look: two whole steps
            store.append("g1", drafts(4, 1, 2), 4)  # the writer cuts and continues
            assert [r.seq for r in store.read("g1")] == [0, 1, 2, 3, 4]
        assert (d / "g1.rlog").stat().st_size == ends[-2] + (ends[1] - ends[0]) // 2


def test_a_torn_header_or_zero_fill_is_a_torn_tail(tmp_path):
    path, _ = write_game(tmp_path / "src", steps=1)
    d = tmp_path / "z"
    d.mkdir()
    (d / "g1.rlog").write_bytes(path.read_bytes() + bytes(100))
    with LogFileStore(d) as store:
        store.append("g1", drafts(2, 1, 1), 2)
        assert store.version("g1") == 3
    (d / "g1.rlog").write_bytes(MAGIC[:5])
    with LogFileStore(d) as store:
        assert store.append("g1", drafts(0, 1, 0), 0)[0].seq == 0


def test_damage_in_the_middle_is_corrupt_log_naming_the_offset(tmp_path):
    path, ends = write_game(tmp_path)
    data = bytearray(path.read_bytes())
    offset = ends[0] + HEADER.size + 3  # inside the first frame of step 1
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLog, match=f"offset {ends[0]}"), LogFileStore(tmp_path) as store:
        store.append("g1", drafts(6, 1, 3), 6)
    assert path.read_bytes() == bytes(data)  # nothing was cut


def test_an_impossible_length_in_the_middle_is_corrupt(tmp_path):
    path, ends = write_game(tmp_path)
    data = bytearray(path.read_bytes())
    data[ends[0]:ends[0] + 4] = (0x7FFFFFF0).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLog, match="impossible frame length"):
        list(LogFileStore(tmp_path).read("g1"))


def test_a_file_that_is_not_a_log_is_refused(tmp_path):
    (tmp_path / "g1.rlog").write_bytes(b"PK\x03\x04 a zip file")
    with pytest.raises(CorruptLog, match="bad magic"):
        list(LogFileStore(tmp_path).read("g1"))


def test_a_second_writer_is_refused(tmp_path):
    with LogFileStore(tmp_path) as one:
        one.append("g1", drafts(0, 1, 0), 0)
        two = LogFileStore(tmp_path)
        with pytest.raises(ConcurrencyConflict, match="another writer"):
            two.append("g1", drafts(1, 1, 1), 1)
        assert [r.seq for r in two.read("g1")] == [0]  # reading is fine
    with LogFileStore(tmp_path) as three:  # the lock goes with the first writer
        three.append("g1", drafts(1, 1, 1), 1)


def test_a_full_disk_leaves_the_log_as_it_was(tmp_path, monkeypatch):
    store = LogFileStore(tmp_path)
    store.append("g1", drafts(0, 2, 0), 0)
    before = store.path("g1").read_bytes()
    real = os.pwrite

    def half_then_full(fd: int, data: bytes, offset: int) -> int:
        if len(data) > 8:
            real(fd, data[: len(data) // 2], offset)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data, offset)

    monkeypatch.setattr(os, "pwrite", half_then_full)
    with pytest.raises(StoreError, match=r"the disk is full.*record 2"):
        store.append("g1", drafts(2, 2, 1), 2)
    monkeypatch.setattr(os, "pwrite", real)
    assert store.path("g1").read_bytes() == before
    store.append("g1", drafts(2, 2, 1), 2)  # and it goes on once there is room
    store.close()
    assert LogFileStore(tmp_path).version("g1") == 4


def test_a_game_survives_a_crash_mid_step(tmp_path, scenario):
    import random

    with LogFileStore(tmp_path) as store:
        game = Game.new(scenario, store=store)
        random_play(game, random.Random(3), 40)
        gid, state = game.game_id, game.state
        steps = len(game.timeline.steps)
    path = tmp_path / f"{gid}.rlog"
    data = path.read_bytes()
    last_step = data[data.rfind(MAGIC) + len(MAGIC):][-200:]
    frame = data[len(MAGIC):]  # the first frames: a valid frame starts here
    path.write_bytes(data + frame[: len(last_step) // 3])  # a step cut short by a crash
    with LogFileStore(tmp_path) as store:
        again = Game.load(gid, store)
        assert again.state == state and len(again.timeline.steps) == steps
