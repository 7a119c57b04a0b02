"""``regiment repair``: what can be saved of a damaged log file (STORE.DAMAGE).

The log-file store refuses damage and never writes to a damaged file. This reads one anyway:
it walks the frames, and where one is broken it looks for the next frame that passes its CRC
(the search ``logfile`` does to tell damage from a torn tail). A frame whose length word alone
was hit is recovered whole: its payload, between its header and the next good frame, still
passes the CRC its header holds; one whose CRC word alone was hit is recovered too, its
record's own hash proving it whole. The game is then rebuilt from the records found, from the
first, each the record of the next seq that chains onto the one before it (``prev``,
``hash``), wherever it stands in the file (a frame written twice or two swapped lose
nothing), up to the end of the last whole step among them; every record read but not kept,
and every place the chain broke, is reported. The new log is written beside the old one and
put in its place; the damaged file is kept as ``GAME.rlog.damaged`` (or ``.damaged.N``).
Nothing is thrown away.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from regiment.core.errors import BadRequest, ConcurrencyConflict, CorruptLog, RegimentError
from regiment.core.record import Record

from .codec import GENESIS, MAX_FRAME, decode_record
from .frames import frame_chain
from .logfile import END, HEADER, MAGIC, OPENING, LogFileStore, crc32c


@dataclass
class Repaired:
    kept: int            # records in the new log
    steps: int           # whole steps in it
    found: int           # records the damaged file held, as far as could be read
    damaged: Path        # where the damaged file now is
    why: str             # where the first damage was, and what it was
    lost: tuple[int, ...] = ()     # the records read but not kept (by seq), or missing
    breaks: tuple[str, ...] = ()   # each place the chain broke, said


def frames(data: bytes) -> tuple[list[tuple[bytes, bool]], str]:
    """Every frame of ``data`` that passes its CRC, or whose record's hash proves it whole
    (only its CRC word was hit), with its step-end mark, in order; and where the first broken
    one was ("" if none was)."""
    out: list[tuple[bytes, bool]] = []
    first = ""
    off, size = len(MAGIC), len(data)
    while off + HEADER.size <= size:
        word, crc = HEADER.unpack_from(data, off)
        length, end = word & ~END, off + HEADER.size + (word & ~END)
        if 0 < length <= MAX_FRAME and end <= size and crc32c(data[off + HEADER.size:end]) == crc:
            out.append((data[off + HEADER.size:end], bool(word & END)))
            off = end
            continue
        first = first or f"offset {off}"
        if 0 < length <= MAX_FRAME and end <= size and _proven(data[off + HEADER.size:end]):
            out.append((data[off + HEADER.size:end], bool(word & END)))   # its CRC word hit
            off = end
            continue
        nxt = _next_frame(data, off)
        if nxt < 0:
            break
        if crc32c(data[off + HEADER.size:nxt]) == crc or _proven(data[off + HEADER.size:nxt]):
            out.append((data[off + HEADER.size:nxt], bool(word & END)))   # its length word hit
        off = nxt
    return out, first


def _proven(payload: bytes) -> bool:
    """A payload whose record's hash covers its contents: written whole, whatever its CRC
    word says (the chain then checks where it stands)."""
    try:
        frame_chain(payload)
        return True
    except CorruptLog:
        return False


def _next_frame(data: bytes, broken: int) -> int:
    at = data.find(OPENING, broken + HEADER.size + 1)
    while at >= 0:
        start = at - HEADER.size
        word, crc = HEADER.unpack_from(data, start)
        end = at + (word & ~END)
        if 0 < word & ~END <= MAX_FRAME and end <= len(data) and crc32c(data[at:end]) == crc:
            return start
        at = data.find(OPENING, at + 1)
    return -1


Chain = tuple[list[tuple[Record, bytes]], tuple[int, ...], tuple[str, ...]]


def chained(found: list[tuple[bytes, bool]]) -> Chain:
    """The game's records rebuilt from the frames found: from the first, each record the one
    of the next seq whose prev is the hash of the one before, wherever it stands in the file
    (a frame written twice, or two swapped, lose nothing), cut back to its last whole step;
    with the records read that could not be kept and where the chain broke."""
    candidates: dict[int, list[tuple[Record, bytes, bool]]] = {}
    breaks: list[str] = []
    for i, (payload, end) in enumerate(found):
        try:
            record = decode_record(payload)
            frame_chain(payload)
        except CorruptLog as exc:
            breaks.append(f"frame {i} does not hold a whole record ({exc})")
            continue
        candidates.setdefault(record.seq, []).append((record, payload, end))
    kept: list[tuple[Record, bytes]] = []
    ends: list[bool] = []
    prev = GENESIS
    while True:
        choice = next((c for c in candidates.get(len(kept), ()) if c[0].prev == prev), None)
        if choice is None:
            break
        record, payload, end = choice
        if kept and record.step != kept[-1][0].step:
            ends[-1] = True   # a new step began: the one before ended, whatever its mark says
        kept.append((record, payload))
        ends.append(end)
        prev = record.hash
    seen = max(candidates, default=-1)
    if len(kept) <= seen:
        there = candidates.get(len(kept))
        breaks.append(f"record {len(kept)} " + (
            "does not chain onto the record before it (changed, or not this game's)" if there
            else "is missing"))
    while ends and not ends[-1]:
        ends.pop()
        kept.pop()
    lost = tuple(seq for seq in range(len(kept), seen + 1))
    return kept, lost, tuple(breaks)


def repair(store: LogFileStore, game_id: str) -> Repaired:
    path = store.path(game_id)
    if not path.exists():
        raise BadRequest(f"{path}: no such log")
    lock = os.open(path, os.O_RDONLY)
    try:
        try:   # no writer may hold it meanwhile (a writer refuses it, but one may be trying)
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConcurrencyConflict(f"{path}: another process has this log open") from None
        return _repair(store, game_id, path)
    finally:
        os.close(lock)


def _repair(store: LogFileStore, game_id: str, path: Path) -> Repaired:
    data = path.read_bytes()
    if data[:len(MAGIC)] != MAGIC:
        raise CorruptLog("not a regiment log file (bad magic): nothing to repair",
                         where=f"{path} offset 0")
    try:
        list(store.read(game_id))
        raise BadRequest(f"{path} is not damaged: nothing to repair")
    except RegimentError as exc:
        if isinstance(exc, BadRequest):
            raise
    found, first = frames(data)
    kept, lost, breaks = chained(found)
    if not kept:
        raise CorruptLog("not even the game's first step can be read: nothing was changed",
                         where=str(path))
    out = bytearray(MAGIC)
    for i, (record, payload) in enumerate(kept):
        last = i == len(kept) - 1 or kept[i + 1][0].step != record.step
        out += HEADER.pack(len(payload) | (END if last else 0), crc32c(payload)) + payload
    damaged = path.with_name(path.name + ".damaged")
    n = 1
    while damaged.exists():
        damaged, n = path.with_name(f"{path.name}.damaged.{n}"), n + 1
    new = path.with_name(path.name + ".repaired")
    fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(bytes(out))
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.link(path, damaged)   # the damaged bytes stay, under their new name
    os.replace(new, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    why = first or "the frames are whole, but the records do not all chain"
    return Repaired(len(kept), len({r.step for r, _ in kept}), len(found), damaged, why, lost,
                    breaks)
