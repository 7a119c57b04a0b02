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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from regiment.core.commands import command_from_record
from regiment.core.dice import Dice, commitment, seed_bytes, seeded_face
from regiment.core.errors import BadRequest, IllegalCommand, RegimentError, TamperedLog
from regiment.core.events import CommandIssued, DiceRolled, Event, GameStarted
from regiment.core.game import Game, find_preset, published_seed
from regiment.core.record import Record
from regiment.core.upcast import decode_event
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
    events = [decode_event(r.type, r.v, r.data, f"record {r.seq}") for r in records]
    started = events[0]
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
    tape: dict[int, int] = {}
    for r, e in zip(records, events, strict=True):
        if isinstance(e, DiceRolled):
            for i, face in enumerate(e.faces):
                if seed is not None and seeded_face(seed, e.index + i) != face:
                    raise TamperedLog(f"die {e.index + i} shows {face}; the seed gives "
                                      f"{seeded_face(seed, e.index + i)}", seq=r.seq)
                if tape.setdefault(e.index + i, face) != face:
                    raise TamperedLog(f"die {e.index + i} was rolled again with another face",
                                      seq=r.seq)
            report.dice += len(e.faces)
    _rederive(records, events, started, TapeDice(started.dice, started.dice_commitment, tape),
              report, advance or (lambda k: None))
    return report


def _rederive(records: Sequence[Record], events: Sequence[Event], started: GameStarted,
              dice: Dice, report: Report, advance: Callable[[int], None]) -> None:
    steps: list[list[int]] = []
    for i, r in enumerate(records):
        if not steps or records[steps[-1][0]].step != r.step:
            steps.append([])
        steps[-1].append(i)
    try:
        preset = find_preset(started.preset)
        game = Game.new(started.scenario, store=MemoryStore(), preset=preset, dice=dice,
                        started=started)
    except RegimentError as exc:
        raise TamperedLog(f"the scenario does not start a game: {exc}", seq=0) from None
    _compare(game.records, records, events, steps[0])
    advance(1)
    for idx in steps[1:]:
        head = events[idx[0]]
        if not isinstance(head, CommandIssued):
            raise TamperedLog("a step must open with CommandIssued", seq=records[idx[0]].seq)
        try:
            command = command_from_record(head.by, head.command, head.args)
            produced = game.submit(command)
        except (IllegalCommand, BadRequest) as exc:
            raise TamperedLog(f"the recorded command is not legal here: {exc}",
                              seq=records[idx[0]].seq) from None
        _compare_events(produced, records, events, idx)
        advance(1)
    report.steps = len(steps)


def _compare(made: Sequence[Record], records: Sequence[Record], events: Sequence[Event],
             idx: list[int]) -> None:
    produced = [decode_event(r.type, r.v, r.data) for r in made]
    _compare_events(produced, records, events, idx)


def _compare_events(produced: Sequence[Event], records: Sequence[Record],
                    events: Sequence[Event], idx: list[int]) -> None:
    for n, i in enumerate(idx):
        if n >= len(produced):
            raise TamperedLog(f"the rules produce no {events[i].type} here", seq=records[i].seq)
        if _key(produced[n]) != _key(events[i]):
            raise TamperedLog(f"the rules give {produced[n].type} {produced[n].to_data()}, "
                              f"the log has {events[i].type} {events[i].to_data()}",
                              seq=records[i].seq)
    if len(produced) > len(idx):
        raise TamperedLog(f"the rules also produce {produced[len(idx)].type}, missing here",
                          seq=records[idx[-1]].seq)
