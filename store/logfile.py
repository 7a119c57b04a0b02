"""LogFileStore: one append-only file per game in a directory.

File: the 8-byte magic ``RGMLOG01``, then frames ``[u32 length][u32 CRC32C][msgpack record]``
(little-endian). The top bit of the length word marks the last frame of a step, so a reader
knows where whole steps end. Each step is written with one ``pwrite`` and, by default, one
fsync. On opening a game for writing:

- a torn tail is what a crash in the middle of the last step's write can leave: after the
  last whole step, whole frames of an unfinished step, then a header cut short, a frame that
  runs past the end of the file, a last frame that fails its CRC, or zero fill, *with no valid
  frame anywhere after the break*. It is cut back to the last whole step; the bytes cut are
  first kept beside the log (``GAME.rlog.torn-OFFSET``) and a warning names that file, so that
  a writer never destroys bytes that could hold an acknowledged record;
- anything else is damage: a bad CRC, an impossible length or a length word that runs past the
  end while a valid frame follows (or while its payload is whole): ``CorruptLog`` naming the
  file and the byte offset, and nothing is cut or written (STORE.DAMAGE);
- an exclusive ``flock`` is taken; a second writer gets ``ConcurrencyConflict``.

A failed write (disk full, I/O error) truncates the file back to where the step began.
"""

from __future__ import annotations

import errno
import fcntl
import os
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import google_crc32c

from regiment.core.errors import ConcurrencyConflict, CorruptLog, StoreError
from regiment.core.log import get_logger
from regiment.core.record import Draft, Record

from .base import Reading, check_append, check_game_id
from .codec import GENESIS, MAX_FRAME, decode_blob, decode_record, encode_blob
from .sealing import seal

MAGIC = b"RGMLOG01"
HEADER = struct.Struct("<II")
END = 0x80000000
SUFFIX = ".rlog"
log = get_logger("regiment.store")


def crc32c(data: bytes) -> int:
    return google_crc32c.value(data)


@dataclass
class Scan:
    payloads: list[bytes]   # whole steps only
    whole_end: int          # byte offset just past the last whole step
    size: int               # bytes in the file
    why_torn: str = ""      # why bytes after whole_end are not whole steps


def scan(data: bytes, where: str) -> Scan:
    """Split a log file into frames, checking CRCs; raise on damage that is not a torn tail."""
    if len(data) < len(MAGIC):
        if MAGIC.startswith(data):
            return Scan([], len(MAGIC), len(data), "the header itself is torn")
        raise CorruptLog("not a regiment log file (bad magic)", where=f"{where} offset 0")
    if data[: len(MAGIC)] != MAGIC:
        raise CorruptLog("not a regiment log file (bad magic)", where=f"{where} offset 0")
    size = len(data)
    off = whole_end = len(MAGIC)
    payloads: list[bytes] = []
    whole = 0
    why = ""
    while off < size:
        if size - off < HEADER.size:
            why = "a frame header is cut short"
            break
        word, crc = HEADER.unpack_from(data, off)
        length = word & ~END
        if length == 0 or length > MAX_FRAME:
            if not any(data[off:]):
                why = "zero fill after the last frame"
                break
            raise CorruptLog(f"impossible frame length {length}", where=f"{where} offset {off}")
        end = off + HEADER.size + length
        if end > size:
            why = "the last frame is cut short"
            break
        payload = data[off + HEADER.size:end]
        if crc32c(payload) != crc:
            if end == size and not written_whole(payload):
                why = "the last frame fails its CRC"
                break
            # a frame that reaches the end of the file and ends as a record ends was written
            # whole: a byte of it changed since (STORE.DAMAGE), not a write cut short
            raise CorruptLog("frame fails its CRC32C check", where=f"{where} offset {off}")
        payloads.append(payload)
        off = end
        if word & END:
            whole_end, whole = off, len(payloads)
    if why:
        _check_torn(data, off, where)
    elif whole < len(payloads):
        why = "the last step has no end mark"
    return Scan(payloads[:whole], whole_end, size, why)


def written_whole(payload: bytes) -> bool:
    """Whether a frame that fails its CRC was written whole and changed since: a torn write
    leaves the end of a frame as the disk had it (zeros, where a crash extended the file),
    and every record ends with its ``v``, a positive integer: a last byte of 0 is torn."""
    return bool(payload) and payload[-1] != 0 and payload.startswith(OPENING)


# Every frame's payload opens with these bytes: a record is a map of eight entries whose first
# key, in canonical (sorted) order, is "at". A search for them finds every place a frame could
# start, at C speed, instead of trying each byte of a damaged file.
OPENING = b"\x88\xa2at"


def _check_torn(data: bytes, broken: int, where: str) -> None:
    """STORE.DAMAGE: the frame at ``broken`` is not whole. That is a torn tail only if nothing
    valid comes after it: a whole payload behind a wrong length word, or any frame further on
    that passes its CRC, means the bytes were damaged, not cut short by a crash."""
    size = len(data)
    if size - broken > HEADER.size:
        word, crc = HEADER.unpack_from(data, broken)
        if 0 < word & ~END <= MAX_FRAME and crc32c(data[broken + HEADER.size:]) == crc:
            raise CorruptLog("a frame's length word is damaged (its payload is whole)",
                             where=f"{where} offset {broken}")
    at = data.find(OPENING, broken + 1)
    while at >= 0:
        start = at - HEADER.size
        if start > broken:
            word, crc = HEADER.unpack_from(data, start)
            end = at + (word & ~END)
            if 0 < word & ~END <= MAX_FRAME and end <= size and crc32c(data[at:end]) == crc:
                raise CorruptLog(f"the frame here is broken, but a whole frame follows at "
                                 f"offset {start}: damage, not a write cut short",
                                 where=f"{where} offset {broken}")
        at = data.find(OPENING, at + 1)


@dataclass
class _Writer:
    fd: int
    path: Path
    size: int
    version: int
    head: bytes


class LogFileStore(Reading):
    def __init__(self, directory: str | Path, *, fsync: bool = True) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self._writers: dict[str, _Writer] = {}
        self._torn: dict[str, Scan] = {}   # the last read's scan of a torn file, for torn()

    def __repr__(self) -> str:
        return f"LogFileStore({str(self.directory)!r}, fsync={self.fsync})"

    def path(self, game_id: str) -> Path:
        return self.directory / f"{check_game_id(game_id)}{SUFFIX}"

    # --- writing ---------------------------------------------------------------------------

    def _writer(self, game_id: str) -> _Writer:
        w = self._writers.get(game_id)
        if w is not None:
            return w
        path = self.path(game_id)
        created = not path.exists()
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise ConcurrencyConflict(f"{path}: another writer has this log open") from None
            data = _read_all(fd)
            if not data:
                os.pwrite(fd, MAGIC, 0)
                self._sync(fd)
                if created:
                    self._sync_dir()
                data = MAGIC
            s = scan(data, str(path))
            if s.why_torn:
                kept = self._keep_cut(path, s.whole_end, data[s.whole_end:])
                os.ftruncate(fd, s.whole_end)
                self._sync(fd)
                log.warning("torn_tail_cut", path=str(path), why=s.why_torn,
                            cut_bytes=s.size - s.whole_end, kept_records=len(s.payloads),
                            bytes_kept_in=str(kept))
            head, version = GENESIS, len(s.payloads)
            if s.payloads:
                last = decode_record(s.payloads[-1], f"{path} record {version - 1}")
                if last.seq != version - 1:
                    raise CorruptLog(f"the last record says seq {last.seq}, "
                                     f"the file holds {version}", where=str(path))
                head = last.hash
        except BaseException:
            os.close(fd)
            raise
        w = self._writers[game_id] = _Writer(fd, path, s.whole_end, version, head)
        return w

    def _keep_cut(self, path: Path, offset: int, tail: bytes) -> Path:
        """The bytes a torn tail's cut removes, kept beside the log first (fsynced): should
        they have held more than a crash left half written, nothing is gone."""
        kept = path.with_name(f"{path.name}.torn-{offset}")
        n = 1
        while kept.exists():
            if kept.read_bytes() == tail:
                return kept
            kept, n = path.with_name(f"{path.name}.torn-{offset}.{n}"), n + 1
        try:
            _atomic_write(kept, tail, 0o644, fsync=self.fsync)
        except OSError as exc:
            raise StoreError(f"{path}: its torn tail could not be kept aside before the cut "
                             f"({exc.strerror}); nothing was cut") from None
        self._sync_dir()
        return kept

    def claim(self, game_id: str) -> None:
        """Become the one writer of ``game_id`` now (appends claim by themselves)."""
        self._writer(game_id)

    def append(self, game_id: str, drafts: Sequence[Draft], expected_version: int
               ) -> Sequence[Record]:
        w = self._writer(game_id)
        check_append(game_id, drafts, expected_version, w.version)
        records, frames = seal(drafts, w.head)
        parts = []
        for i, payload in enumerate(frames):
            flag = END if i == len(frames) - 1 else 0
            parts.append(HEADER.pack(len(payload) | flag, crc32c(payload)))
            parts.append(payload)
        buf = b"".join(parts)
        try:
            written = 0
            while written < len(buf):
                written += os.pwrite(w.fd, buf[written:], w.size + written)
            if self.fsync:
                os.fsync(w.fd)
        except OSError as exc:
            self._rollback(w, exc)
        w.size += len(buf)
        w.version += len(records)
        if records:
            w.head = records.hashes[-1]
        return records

    def _rollback(self, w: _Writer, exc: OSError) -> None:
        try:
            os.ftruncate(w.fd, w.size)
            os.fsync(w.fd)
        except OSError:
            pass
        what = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror
        raise StoreError(f"{w.path}: could not append the step ({what}); "
                         f"the log is as it was at record {w.version}") from None

    def _sync(self, fd: int) -> None:
        if self.fsync:
            os.fsync(fd)

    def _sync_dir(self) -> None:
        if self.fsync:
            fd = os.open(self.directory, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    # --- reading ---------------------------------------------------------------------------

    def _where(self, game_id: str, seq: int) -> str:
        return f"{self.path(game_id)} record {seq}"

    def _payloads(self, game_id: str, start: int) -> Iterator[tuple[int, bytes]]:
        path = self.path(game_id)
        w = self._writers.get(game_id)
        try:
            data = _read_all(w.fd)[: w.size] if w is not None else path.read_bytes()
        except FileNotFoundError:
            return
        s = scan(data, str(path))
        if s.why_torn and w is None:
            self._torn[game_id] = s
        else:
            self._torn.pop(game_id, None)
        yield from zip(range(start, len(s.payloads)), s.payloads[start:], strict=True)

    def torn(self, game_id: str) -> str | None:
        """Why the game's file ends with bytes that are not a whole step, if it does: a write
        cut short by a crash (cut back when the game is next opened for writing), or damage
        to the last frame. Readers leave those bytes out and should say so. Told from the last
        read, so that a reader does not read the file twice."""
        s = self._torn.get(game_id)
        if game_id in self._writers or s is None:
            return None
        path = self.path(game_id)
        return (f"{path} ends with {s.size - s.whole_end} bytes that are not a whole step "
                f"({s.why_torn}): a write cut short by a crash, or damage; they are left out, "
                f"and the game read ends at record {len(s.payloads) - 1}")

    def version(self, game_id: str) -> int:
        w = self._writers.get(game_id)
        if w is not None:
            return w.version
        path = self.path(game_id)
        return len(scan(path.read_bytes(), str(path)).payloads) if path.exists() else 0

    def games(self) -> list[str]:
        """Game ids, oldest first (by the time of each game's first record)."""
        found = []
        for path in self.directory.glob(f"*{SUFFIX}"):
            game_id = path.name[: -len(SUFFIX)]
            first = next(iter(self.read(game_id)), None)
            if first is not None:
                found.append((first.at, game_id))
        return [g for _, g in sorted(found)]

    # --- side files ------------------------------------------------------------------------

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None:
        _atomic_write(self.path(game_id).with_suffix(".snap"), encode_blob([seq, data]), 0o644)

    def load_snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        path = self.path(game_id).with_suffix(".snap")
        if not path.exists():
            return None
        value = decode_blob(path.read_bytes(), str(path))
        if (not isinstance(value, list) or len(value) != 2 or type(value[0]) is not int
                or not isinstance(value[1], dict)):
            raise CorruptLog("not a snapshot", where=str(path))
        return value[0], value[1]

    def put_secret(self, game_id: str, seed: bytes) -> None:
        _atomic_write(self.path(game_id).with_suffix(".seed"), bytes(seed), 0o600)

    def get_secret(self, game_id: str) -> bytes | None:
        path = self.path(game_id).with_suffix(".seed")
        return path.read_bytes() if path.exists() else None

    def close(self) -> None:
        for w in self._writers.values():
            os.close(w.fd)  # closing the descriptor releases the flock
        self._writers.clear()

    def __enter__(self) -> LogFileStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    chunks, off = [], 0
    while off < size:
        chunk = os.pread(fd, size - off, off)
        if not chunk:
            break
        chunks.append(chunk)
        off += len(chunk)
    return b"".join(chunks)


def _atomic_write(path: Path, data: bytes, mode: int, fsync: bool = True) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
