"""``regiment verify``: is this log what the rules and the dice say it is?

1. The hash chain: every record's ``prev`` is the hash before it and its ``hash`` matches its
   contents (a changed byte, a dropped or reordered record shows here).
2. Re-derivation: a fresh game replays every step's recorded command through the rules, with
   the log's own dice, and must produce exactly the recorded events (an outcome edited and
   re-hashed shows here).
3. Shared dice (a hosted game): every party's commitment is signed by the key it names, every
   reveal hashes to its party's previous one, and every die is made again from the reveals,
   the round and the head (the re-derivation decides each reveal as the host did), with no secret
   needed. With ``--seed`` (seeded dice): the seed matches the commitment in GameStarted, and every
   recorded die face is the one the seed gives (a re-rolled or edited die shows here). A log written
   before 0.4.0 may hold its own seed in its scenario; its dice are checked against that.
4. With receipts (``--head``): the log holds every head a player noted, each at its step (a
   log cut at a step boundary, or forked and re-hashed, shows here; see ``receipts``).

The first record that disagrees is named; nothing else is trusted after it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from regiment.core.commands import command_from_record
from regiment.core.dice import Dice, commitment, seed_bytes, seeded_face
from regiment.core.errors import (
    BadRequest,
    IllegalCommand,
    RegimentError,
    TamperedLog,
)
from regiment.core.events import CommandIssued, DiceRolled, Event, GameStarted
from regiment.core.game import Game, find_preset, published_seed
from regiment.core.record import Record
from regiment.core.upcast import decode_event
from regiment.core.walk import Step, walk
from regiment.store.codec import GENESIS, encode_canonical
from regiment.store.memory import MemoryStore
from regiment.store.sealing import Bodies, data_and_digest, data_bytes

from .receipts import Receipt, check_receipts


@dataclass
class Report:
    records: int = 0
    steps: int = 0
    dice: int = 0
    seed: str = ""          # "given" (--seed), "published" (in a pre-0.4.0 log), or ""
    receipts: int = 0
    rounds: int = 0         # shared dice: rounds of reveals, each checked and re-derived
    notes: list[str] = field(default_factory=list)

    @property
    def seed_checked(self) -> bool:
        """Every die was checked against a seed."""
        return bool(self.seed)


class TapeDice(Dice):
    """The log's own dice: re-derivation rolls exactly the faces that were recorded."""

    def __init__(self, kind: str, commit: str, tape: dict[int, int]) -> None:
        self.kind = kind
        self.automatic = kind not in ("manual", "shared")   # shared: re-derived from reveals
        self._commit = commit
        self.tape = tape

    def faces(self, index: int, count: int) -> tuple[int, ...]:
        try:
            return tuple(self.tape[index + i] for i in range(count))
        except KeyError:
            raise TamperedLog(f"the rules ask for die {index + count - 1}, which the log "
                              "never rolled") from None

    def commitment(self) -> str:
        return self._commit


def check_chain(records: Sequence[Record], lo: int = 0, hi: int | None = None,
                chained: Sequence[bytes] | None = None) -> Sequence[bytes]:
    """The hash chain, each record hashed once; each record's data as canonical bytes, which
    the re-derivation compares the rules' events with (``Replayed``). Records ``lo`` to
    ``hi`` only, if given (a piece of the log: its first ``prev`` is the hash the record
    before it holds). ``chained``: the data's bytes as the store read them, each record's
    hash checked against them as it was read (``Reading.read_chained``): they are not hashed
    again, and bytes that are not canonical differ from the rules' events (``Replayed``)."""
    hi = len(records) if hi is None else hi
    prev, out = (GENESIS if lo == 0 else records[lo - 1].hash), []
    bodies = Bodies()
    for i in range(lo, hi):
        r = records[i]
        if r.seq != i:
            raise TamperedLog(f"expected record {i} here (a record is missing or moved)",
                              seq=r.seq)
        if r.prev != prev:
            raise TamperedLog("its prev is not the hash of the record before it", seq=r.seq)
        if chained is not None:
            prev = r.hash
            continue
        try:
            data, digest = data_and_digest(bodies, r, prev)
        except ValueError as exc:
            raise TamperedLog(f"its data is not plain: {exc}", seq=r.seq) from None
        if digest != r.hash:
            raise TamperedLog("its hash does not match its contents", seq=r.seq)
        out.append(data)
        prev = r.hash
    return out if chained is None else chained[lo:hi]


def _key(e: Event) -> bytes:
    return encode_canonical([e.type, e.v, e.to_data()])


def verify(records: Sequence[Record], seed: bytes | None = None,
           receipts: Sequence[Receipt] = (),
           advance: Callable[[int], None] | None = None, jobs: int = 1,
           chained: Sequence[bytes] | None = None) -> Report:
    """Raise TamperedLog naming the first record that disagrees; else a report of what held.
    ``advance(k)`` is called as steps are re-derived (for a progress bar). With ``jobs`` > 1
    a long log is checked in as many pieces at once, each in a process of its own
    (``in_pieces``): the same report, the same first record named. ``chained``: each
    record's data as a store read it, its hash checked then (``check_chain``)."""
    if not records:
        raise TamperedLog("the log is empty")
    from .pieces import Undecodable, can_fork, in_pieces, pieces_of

    advance = advance or (lambda k: None)
    pieces = pieces_of(records, jobs)
    if len(pieces) > 1 and can_fork():
        try:
            started, report, tape = _opening(records, seed, receipts)
        except TamperedLog:
            pass   # one walk names what is wrong first: the chain's, or the opening's
        else:
            try:
                in_pieces(records, started, tape, report, advance, pieces, chained)
                return report
            except Undecodable:
                pass   # one walk says which comes first: a broken chain, or this record
    data = check_chain(records, chained=chained)
    started, report, tape = _opening(records, seed, receipts)
    # one walk: each step's dice go on the tape, then the step is re-derived with them
    walk(records, [tape, Rederived(started, TapeDice(started.dice, started.dice_commitment,
                                                      tape.faces), report, advance,
                                   Replayed(records, data, chained is not None))], {})
    return report


def _opening(records: Sequence[Record], seed: bytes | None, receipts: Sequence[Receipt]
             ) -> tuple[GameStarted, Report, Tape]:
    """The receipts held, the log's GameStarted, and the seed it is checked against."""
    check_receipts(records, receipts)
    started = decode_event(records[0].type, records[0].v, records[0].data, "record 0")
    if not isinstance(started, GameStarted):
        raise TamperedLog("the log does not open with GameStarted", seq=0)
    report = Report(records=len(records), receipts=len(receipts))
    published = published_seed(started) if started.dice == "seeded" else None
    if started.dice == "shared":   # no seed: every die is re-derived from the reveals
        seed = None
    if seed is None and published is not None:
        try:
            seed = seed_bytes(published)
        except ValueError:
            raise TamperedLog("the seed published in the scenario is not hex", seq=0) from None
        report.seed = "published"
    elif seed is not None:
        report.seed = "given"
    if seed is not None and commitment(seed) != started.dice_commitment:
        raise TamperedLog("the seed does not match the dice commitment in GameStarted",
                          seq=0)
    return started, report, Tape(seed, report)


class Replayed(MemoryStore):
    """The re-derivation's store: each record the rules make is checked against the log's as
    it is appended (its type, version, step, and its data's canonical bytes, those the chain
    check encoded), and the log's own record is what the game keeps. So each record of the
    log is hashed once (by ``check_chain``) and the rules' events encoded once. A record an
    upcaster reads as another version (an older engine's log) is compared as it decodes."""

    def __init__(self, records: Sequence[Record], data: Sequence[bytes] | Window,
                 stored: bool = False) -> None:
        super().__init__()
        self.log, self.data, self.stored = records, data, stored

    def append(self, game_id: str, drafts: Sequence[Any], expected_version: int
               ) -> list[Record]:
        out = []
        for d in drafts:
            if d.seq >= len(self.log) or self.log[d.seq].step != d.step:
                raise TamperedLog(f"the rules also produce {d.type}, missing here",
                                  seq=self.log[d.seq - 1].seq)
            r = self.log[d.seq]
            if r.type != d.type or r.v != d.v or data_bytes(d.data) != self.data[d.seq]:
                # bytes as stored (``check_chain``'s ``chained``) that differ from the rules'
                # may be an older version's (compared as events), never bytes that are not
                # canonical: the chain is of canonical bodies (the JSON export hashes so)
                if self.stored and encode_canonical(r.data) != self.data[d.seq]:
                    raise TamperedLog("its hash does not match its contents (its data is "
                                      "not canonical)", seq=r.seq)
                _compare(d, r)
            out.append(r)
        return out


def _no_clock() -> str:
    return ""


def _compare(d: Any, r: Record) -> None:
    """The rules' record ``d`` against the log's ``r``, as events (an upcast reading of ``r``
    may be the same event); TamperedLog when they differ."""
    made = d.data if isinstance(d.data, Event) else decode_event(d.type, d.v, d.data)
    logged = decode_event(r.type, r.v, r.data, f"record {r.seq}")
    if _key(made) != _key(logged):
        raise TamperedLog(f"the rules give {made.type} {made.to_data()}, the log has "
                          f"{logged.type} {logged.to_data()}", seq=r.seq)


class Tape:
    """DICE.NO_REROLL, DICE.SECRET: every die the log rolled, each position with one face
    (and, with a seed, the face the seed gives): a visitor of ``core.walk``."""

    states = False
    events = False   # it decodes the records it reads: the dice

    def __init__(self, seed: bytes | None, report: Report) -> None:
        self.seed, self.report = seed, report
        self.faces: dict[int, int] = {}

    def visit(self, step: Step) -> None:
        seed, tape = self.seed, self.faces
        for r in step.records:
            if r.type != "DiceRolled":
                # DICE.REVEAL: each round's reveals are checked against the chains and make
                # the dice again as the re-derivation decides the step (core.revealing)
                self.report.rounds += r.type == "DiceRevealed"
                continue
            e = decode_event(r.type, r.v, r.data, f"record {r.seq}")
            if isinstance(e, DiceRolled):
                for i, face in enumerate(e.faces):
                    if seed is not None and seeded_face(seed, e.index + i) != face:
                        raise TamperedLog(f"die {e.index + i} shows {face}; the seed gives "
                                          f"{seeded_face(seed, e.index + i)}", seq=r.seq)
                    if tape.setdefault(e.index + i, face) != face:
                        raise TamperedLog(f"die {e.index + i} was rolled again with another "
                                          "face", seq=r.seq)
                self.report.dice += len(e.faces)

    def end(self, branches: Mapping[int, str]) -> None:
        return None


def keep_states(game: Game) -> Game:
    """Keep the state after every step from now on, as a load keeps them while it folds: a
    re-derivation undoes where the log undid, and a game that keeps one state in eight
    (core.history) would fold the steps since the last kept one again, from their records.
    Measured: 8 % fewer instructions verifying a log of 20,000 events; the peak memory of
    verifying 100,000 events 34 MiB against 18 (a load's own peak is 21)."""
    game.timeline.keep_all = True
    return game


class Rederived:
    """A fresh game plays every step's recorded command through the rules with the log's own
    dice, and must make exactly the recorded events (a visitor of ``core.walk``)."""

    states = False
    events = False   # it decodes what it reads: each step's command

    def __init__(self, started: GameStarted, dice: Dice, report: Report,
                 advance: Callable[[int], None], store: Replayed) -> None:
        self.started, self.dice, self.report, self.advance = started, dice, report, advance
        self.store = store
        self.game: Game | None = None

    def visit(self, step: Step) -> None:
        records = step.records
        if self.game is None:   # step 0: the game starts as the log says it did
            try:
                preset = find_preset(self.started.preset)
                # the clock is not read: the log's own records are kept (Replayed), with
                # their times
                self.game = Game.new(self.started.scenario, store=self.store, preset=preset,
                                     dice=self.dice, started=self.started, clock=_no_clock)
                keep_states(self.game)
            except RegimentError as exc:
                if isinstance(exc, TamperedLog):
                    raise
                raise TamperedLog(f"the scenario does not start a game: {exc}",
                                  seq=0) from None
        else:
            first = records[0]
            head = decode_event(first.type, first.v, first.data, f"record {first.seq}")
            if not isinstance(head, CommandIssued):
                raise TamperedLog("a step must open with CommandIssued", seq=first.seq)
            try:
                command = command_from_record(head.by, head.command, head.args)
                self.game.submit(command)   # (its store checks each record it makes)
            except (IllegalCommand, BadRequest) as exc:
                raise TamperedLog(f"the recorded command is not legal here: {exc}",
                                  seq=first.seq) from None
        made = len(self.game.records)
        if made <= records[-1].seq:
            missing = records[made - records[0].seq]
            raise TamperedLog(f"the rules produce no {missing.type} here", seq=missing.seq)
        self.report.steps += 1
        self.advance(1)

    def end(self, branches: Mapping[int, str]) -> None:
        return None


# --- verify in pieces (verify --jobs) ---------------------------------------------------------


class Window:
    """The canonical data bytes of records ``lo`` on, read by their seq (``Replayed``)."""

    def __init__(self, lo: int, data: Sequence[bytes]) -> None:
        self.lo, self.data = lo, data

    def __getitem__(self, seq: int) -> bytes:
        if seq < self.lo:
            raise IndexError(seq)   # (a piece makes no record before its first)
        return self.data[seq - self.lo]
