"""``regiment verify``: is this log what the rules and the dice say it is?

1. The hash chain: every record's ``prev`` is the hash before it and its ``hash`` matches its
   contents (a changed byte, a dropped or reordered record shows here).
2. Re-derivation: a fresh game replays every step's recorded command through the rules, with
   the log's own dice, and must produce exactly the recorded events (an outcome edited and
   re-hashed shows here).
3. With ``--seed``: the seed matches the commitment in GameStarted, and every recorded die
   face is the one the seed gives (a re-rolled or edited die shows here). A log written
   before 0.4.0 may hold its own seed in its scenario; its dice are checked against that.
4. With receipts (``--head``): the log holds every head a player noted, each at its step (a
   log cut at a step boundary, or forked and re-hashed, shows here; see ``receipts``).

The first record that disagrees is named; nothing else is trusted after it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from regiment.core.commands import command_from_record
from regiment.core.dice import Dice, commitment, seed_bytes, seeded_face
from regiment.core.errors import BadRequest, IllegalCommand, RegimentError, TamperedLog
from regiment.core.events import CommandIssued, DiceRolled, Event, GameStarted
from regiment.core.game import Game, find_preset, published_seed
from regiment.core.record import Record
from regiment.core.upcast import decode_event
from regiment.core.walk import Step, walk
from regiment.store.codec import GENESIS, check_link, encode_canonical
from regiment.store.memory import MemoryStore

from .receipts import Receipt, check_receipts


@dataclass
class Report:
    records: int = 0
    steps: int = 0
    dice: int = 0
    seed: str = ""          # "given" (--seed), "published" (in a pre-0.4.0 log), or ""
    receipts: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def seed_checked(self) -> bool:
        """Every die was checked against a seed."""
        return bool(self.seed)


class TapeDice(Dice):
    """The log's own dice: re-derivation rolls exactly the faces that were recorded."""

    def __init__(self, kind: str, commit: str, tape: dict[int, int]) -> None:
        self.kind = kind
        self.automatic = kind != "manual"
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


def check_chain(records: Sequence[Record]) -> None:
    prev = GENESIS
    for i, r in enumerate(records):
        if r.seq != i:
            raise TamperedLog(f"expected record {i} here (a record is missing or moved)",
                              seq=r.seq)
        why = check_link(r, prev)
        if why:
            raise TamperedLog(why, seq=r.seq)
        prev = r.hash


def _key(e: Event) -> bytes:
    return encode_canonical([e.type, e.v, e.to_data()])


def verify(records: Sequence[Record], seed: bytes | None = None,
           receipts: Sequence[Receipt] = (),
           advance: Callable[[int], None] | None = None) -> Report:
    """Raise TamperedLog naming the first record that disagrees; else a report of what held.
    ``advance(1)`` is called as each step is re-derived (for a progress bar)."""
    if not records:
        raise TamperedLog("the log is empty")
    check_chain(records)
    check_receipts(records, receipts)
    started = decode_event(records[0].type, records[0].v, records[0].data, "record 0")
    if not isinstance(started, GameStarted):
        raise TamperedLog("the log does not open with GameStarted", seq=0)
    report = Report(records=len(records), receipts=len(receipts))
    published = published_seed(started) if started.dice == "seeded" else None
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
    tape = Tape(seed, report)
    # one walk: each step's dice go on the tape, then the step is re-derived with them
    walk(records, [tape, Rederived(started, TapeDice(started.dice, started.dice_commitment,
                                                      tape.faces), report,
                                   advance or (lambda k: None))], {})
    return report


class Tape:
    """DICE.NO_REROLL, DICE.SECRET: every die the log rolled, each position with one face
    (and, with a seed, the face the seed gives): a visitor of ``core.walk``."""

    states = False
    events = True

    def __init__(self, seed: bytes | None, report: Report) -> None:
        self.seed, self.report = seed, report
        self.faces: dict[int, int] = {}

    def visit(self, step: Step) -> None:
        seed, tape = self.seed, self.faces
        for r, e in zip(step.records, step.events or (), strict=True):
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


class Rederived:
    """A fresh game plays every step's recorded command through the rules with the log's own
    dice, and must make exactly the recorded events (a visitor of ``core.walk``)."""

    states = False
    events = True

    def __init__(self, started: GameStarted, dice: Dice, report: Report,
                 advance: Callable[[int], None]) -> None:
        self.started, self.dice, self.report, self.advance = started, dice, report, advance
        self.game: Game | None = None

    def visit(self, step: Step) -> None:
        records, events = step.records, step.events or []
        if self.game is None:   # step 0: the game starts as the log says it did
            try:
                preset = find_preset(self.started.preset)
                self.game = Game.new(self.started.scenario, store=MemoryStore(), preset=preset,
                                     dice=self.dice, started=self.started)
            except RegimentError as exc:
                raise TamperedLog(f"the scenario does not start a game: {exc}",
                                  seq=0) from None
            made = [decode_event(r.type, r.v, r.data) for r in self.game.records]
            _compare_events(made, records, events)
        else:
            head = events[0]
            if not isinstance(head, CommandIssued):
                raise TamperedLog("a step must open with CommandIssued", seq=records[0].seq)
            try:
                command = command_from_record(head.by, head.command, head.args)
                produced = self.game.submit(command)
            except (IllegalCommand, BadRequest) as exc:
                raise TamperedLog(f"the recorded command is not legal here: {exc}",
                                  seq=records[0].seq) from None
            _compare_events(produced, records, events)
        self.report.steps += 1
        self.advance(1)

    def end(self, branches: Mapping[int, str]) -> None:
        return None


def _compare_events(produced: Sequence[Event], records: Sequence[Record],
                    events: Sequence[Event]) -> None:
    for n, (r, e) in enumerate(zip(records, events, strict=True)):
        if n >= len(produced):
            raise TamperedLog(f"the rules produce no {e.type} here", seq=r.seq)
        if _key(produced[n]) != _key(e):
            raise TamperedLog(f"the rules give {produced[n].type} {produced[n].to_data()}, "
                              f"the log has {e.type} {e.to_data()}", seq=r.seq)
    if len(produced) > len(events):
        raise TamperedLog(f"the rules also produce {produced[len(events)].type}, missing here",
                          seq=records[-1].seq)
