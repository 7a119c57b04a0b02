"""LogFileStore's promises: torn tails cut back, damage named, one writer, failed writes undone."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from regiment.core.errors import ConcurrencyConflict, CorruptLog, StoreError
from regiment.core.game import Game
from regiment.store import LogFileStore
from regiment.store.logfile import HEADER, MAGIC, crc32c

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


def frame_offsets(data: bytes) -> list[int]:
    """The byte offset of every frame in a log file."""
    from regiment.store.logfile import END

    out, off = [], len(MAGIC)
    while off < len(data):
        out.append(off)
        word, _ = HEADER.unpack_from(data, off)
        off += HEADER.size + (word & ~END)
    return out


@pytest.fixture
def long_game(tmp_path, scenario):
    """A whole game in a log file (the audit damaged one of 220 records)."""
    import random

    folder = tmp_path / "long"
    with LogFileStore(folder) as store:
        game = Game.new({**scenario, "turns": 8}, store=store)
        while game.version < 220:
            random_play(game, random.Random(game.version), 10, undo_rate=0.0)
            if game.pending.kind == "over":
                break
        return folder, game.game_id, list(game.records)


def test_store_damage_a_flipped_bit_in_a_length_word_mid_file_is_damage_not_a_torn_tail(
        long_game):
    """The audit's case: one bit of one frame's length word, in the middle of the file. Every
    such flip (but the step-end mark, which only a file's last frame depends on) is refused
    with the frame's offset, by a reader and by a writer, and the file is left as it was."""
    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = path.read_bytes()
    offsets = frame_offsets(data)
    assert len(offsets) == len(records) >= 150
    at = offsets[len(offsets) // 3]
    for bit in range(31):
        damaged = bytearray(data)
        damaged[at + bit // 8] ^= 1 << (bit % 8)
        path.write_bytes(bytes(damaged))
        with pytest.raises(CorruptLog, match=r"offset \d+"):
            list(LogFileStore(folder).read(gid))
        with pytest.raises(CorruptLog), LogFileStore(folder) as store:
            store.append(gid, drafts(len(records), 1, 10_000), len(records))
        assert path.read_bytes() == bytes(damaged), f"bit {bit}: the writer changed the file"
        assert not list(folder.glob("*.torn-*"))


def test_store_damage_a_lengthened_last_frame_whose_payload_is_whole_is_damage(long_game):
    folder, gid, _ = long_game
    path = folder / f"{gid}.rlog"
    data = bytearray(path.read_bytes())
    last = frame_offsets(bytes(data))[-1]
    data[last + 2] ^= 0x01   # + 65,536 bytes: the frame now "runs past the end"
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLog, match="length word is damaged"):
        LogFileStore(folder).claim(gid)
    assert path.read_bytes() == bytes(data)


def test_store_damage_a_broken_frame_with_a_whole_frame_after_it_is_not_torn(long_game):
    """Frames that follow a broken one and pass their CRC were written: a crash leaves
    nothing valid after the break."""
    folder, gid, _ = long_game
    path = folder / f"{gid}.rlog"
    data = path.read_bytes()
    offsets = frame_offsets(data)
    at = offsets[-5]
    for damaged in (data[:at] + data[at:at + 12] + data[offsets[-3]:],   # cut, then whole ones
                    data[:at] + (0x7FFF).to_bytes(4, "little") + data[at + 4:]):  # runs long
        path.write_bytes(damaged)
        with pytest.raises(CorruptLog, match=r"offset \d+"):
            LogFileStore(folder).claim(gid)
        assert path.read_bytes() == damaged
    path.write_bytes(data[:at] + (2**20).to_bytes(4, "little") + data[at + 4:])
    with pytest.raises(CorruptLog, match="a whole frame follows"):
        LogFileStore(folder).claim(gid)


def test_store_damage_a_torn_tail_is_cut_only_after_its_bytes_are_kept_beside_it(long_game):
    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = path.read_bytes()
    last_step = [r for r in records if r.step == records[-1].step]
    start = frame_offsets(data)[len(records) - len(last_step)]
    torn = data[:-3]
    path.write_bytes(torn)
    with LogFileStore(folder) as store:
        store.claim(gid)
        assert store.version(gid) == len(records) - len(last_step)
    kept = folder / f"{gid}.rlog.torn-{start}"
    assert kept.read_bytes() == torn[start:]
    assert path.read_bytes() == torn[:start]
    assert LogFileStore(folder).games() == [gid]   # the kept bytes are not a game


def test_store_damage_repair_saves_the_whole_game_when_only_a_length_word_was_hit(long_game):
    """``regiment repair`` as a user runs it, on the audit's damage: every record comes back,
    the new log verifies, and the damaged file is kept."""
    from regiment.tools.cli import main
    from regiment.tools.verify import verify

    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = bytearray(path.read_bytes())
    at = frame_offsets(bytes(data))[len(records) // 2]
    data[at + 1] ^= 0x04
    path.write_bytes(bytes(data))
    assert main(["repair", str(folder), "--game", gid]) == 0
    assert list(LogFileStore(folder).read(gid)) == records
    verify(list(LogFileStore(folder).read(gid)))
    assert (folder / f"{gid}.rlog.damaged").read_bytes() == bytes(data)


def test_store_damage_repair_keeps_the_whole_steps_before_a_damaged_record(long_game, capsys):
    from regiment.tools.cli import main

    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = bytearray(path.read_bytes())
    at = frame_offsets(bytes(data))[len(records) // 2]
    data[at + HEADER.size + 20] ^= 0x10   # inside the record: it cannot be read again
    path.write_bytes(bytes(data))
    assert main(["repair", str(folder), "--game", gid]) == 0
    got = list(LogFileStore(folder).read(gid))
    damaged = records[len(records) // 2]
    assert got == [r for r in records if r.step < damaged.step]
    assert f"offset {at}" in capsys.readouterr().out
    assert main(["repair", str(folder), "--game", gid]) == 2   # not damaged now


def test_store_damage_a_flipped_byte_in_the_last_frame_is_damage_not_a_torn_write(long_game):
    """Issue 55 row 6: the last frame, whole and ending as a record ends, with a byte of it
    changed: refused as damage (every reader dropped the last acknowledged step before), and
    repair then keeps every whole step before it."""
    from regiment.tools.cli import main

    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = bytearray(path.read_bytes())
    data[-20] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLog, match="CRC"):
        list(LogFileStore(folder).read(gid))
    assert path.read_bytes() == bytes(data)                 # nothing cut
    assert main(["repair", str(folder), "--game", gid]) == 0
    got = list(LogFileStore(folder).read(gid))
    assert got == [r for r in records if r.step < records[-1].step]


def test_store_damage_repair_keeps_a_frame_whose_crc_word_alone_was_hit(long_game, capsys):
    """Issue 55 row 6: the CRC word of the first frame flipped: the record's own hash proves
    it whole, and the whole game is kept (0.12.0 kept nothing)."""
    from regiment.tools.cli import main

    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = bytearray(path.read_bytes())
    data[len(MAGIC) + 5] ^= 0x40   # the CRC word of frame 0
    path.write_bytes(bytes(data))
    assert main(["repair", str(folder), "--game", gid]) == 0
    assert list(LogFileStore(folder).read(gid)) == records
    assert "not kept" not in capsys.readouterr().out


@pytest.mark.parametrize("how", ["duplicated", "swapped"])
def test_store_damage_repair_keeps_every_record_after_a_duplicated_or_swapped_frame(
        long_game, how, capsys):
    """Issue 55 row 6: a frame written twice, or two frames swapped, lose nothing: the game is
    rebuilt record by record along its hash chain (0.12.0 lost every record after)."""
    from regiment.tools.cli import main

    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = path.read_bytes()
    offs = [*frame_offsets(data), len(data)]
    k = len(records) // 2
    a, b, c = offs[k], offs[k + 1], offs[k + 2]
    changed = (data[:b] + data[a:b] + data[b:] if how == "duplicated"
               else data[:a] + data[b:c] + data[a:b] + data[c:])
    path.write_bytes(changed)
    assert main(["repair", str(folder), "--game", gid]) == 0
    assert list(LogFileStore(folder).read(gid)) == records
    assert "not kept" not in capsys.readouterr().out


def test_store_damage_a_forged_record_is_damage_and_repair_says_what_it_lost(long_game,
                                                                             capsys):
    """Issue 55 row 6: a record rewritten with a hash of its own (its CRC made good) breaks
    the chain: every reader refuses it (0.12.0 read it, and repair called the log "not
    damaged"), and repair keeps the steps before it and names the records it could not."""
    from regiment.store.codec import body_bytes, encode_record, link
    from regiment.tools.cli import main

    folder, gid, records = long_game
    path = folder / f"{gid}.rlog"
    data = path.read_bytes()
    offs = [*frame_offsets(data), len(data)]
    k = len(records) // 2
    old = records[k]
    at = "2099-01-01T00:00:00.000000Z"   # its time changed, its hash made again to match
    forged = old._replace(at=at, hash=link(old.prev, body_bytes(
        old.seq, old.step, old.type, old.v, old.data, at)))
    payload = encode_record(forged)
    word = int.from_bytes(data[offs[k]:offs[k] + 4], "little") & 0x80000000 | len(payload)
    frame = HEADER.pack(word, crc32c(payload)) + payload
    path.write_bytes(data[:offs[k]] + frame + data[offs[k + 1]:])
    with pytest.raises(CorruptLog, match="prev"):
        list(LogFileStore(folder).read(gid))
    assert main(["repair", str(folder), "--game", gid]) == 0
    said = capsys.readouterr().out
    got = list(LogFileStore(folder).read(gid))
    # what chains is kept (the forged record itself chains onto the one before it: only the
    # record after it, or a receipt, can tell); nothing after the break is
    assert got[:k] == records[:k] and len(got) <= k + 1
    assert "does not chain" in said and "not kept" in said
