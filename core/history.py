"""The timeline of a game: which steps are live, which are undone, and the state after each.

A step is one command and everything it caused. Undo, redo and undo requests are *meta* steps:
they are logged like any other, but instead of adding to the timeline they move its end.
``feed`` is the fold of a whole step; a live game and a replay of its log both go through it,
so they cannot disagree. The state after every ``EVERY``-th of the last ``RECENT`` live steps
is kept, every ``FAR``-th before them, and the newest (states share structure): an undo folds
at most ``EVERY - 1`` steps again from the nearest kept state (``FAR - 1`` once, taken
further back), so undo and redo cost the same at step 10 and at step 100,000.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, overload

from .errors import TamperedLog
from .events import META_EVENTS, SHARED_EVENTS, DiceCommitted, DiceRevealed, Event, GameStarted
from .fold import fold
from .protocols import Applier, EventStore, Preset
from .record import RecordLog
from .state import GameState, forget
from .upcast import decode_event

# Keep the state after one live step in EVERY among the last RECENT, one in FAR before them,
# and the newest. Keeping all of them was half of a game's memory (0.28 KiB an event,
# measured on the ford_clash bench game); one in eight was 0.05. An undo re-folds the steps
# since the nearest kept state from their records: at most seven for the steps undone most
# (the last ones), at most FAR - 1 for one taken further back (once: the states between are
# kept again). A game of 290 records held on SQLite: 188 KiB with one in eight throughout,
# 168 so (issue 29 item 2).
EVERY = 8
RECENT = 16
FAR = 32
# A load folds a live step once this many newer ones are in (see Timeline.bulk): a step
# undone before then is never folded. The bench's long log undoes one to six steps at a time.
DEFER = 32


# the events the timeline itself keeps something of, besides the dice it rolled
TIMELINE_EVENTS = META_EVENTS | SHARED_EVENTS


class Chained:
    """A party's chain of shared dice as the log has it: its anchor, length and key, and the
    value it revealed last (its anchor before the first round)."""

    __slots__ = ("anchor", "key", "last", "length")

    def __init__(self, anchor: str, length: int, key: str, last: str) -> None:
        self.anchor, self.length, self.key, self.last = anchor, length, key, last


class StepInfo(NamedTuple):
    step: int
    by: str           # who issued it ("" for step 0)
    command: str      # the command's name ("start" for step 0)
    first_seq: int
    size: int         # how many records
    meta: bool


class Steps(Sequence[list[Event]]):
    """Each step's events. A live game keeps the events it made; a loaded game keeps none
    and decodes a step's events from its records when they are asked for (redo, inspection):
    a load then leaves one object a step for the garbage collector to walk, not eight."""

    def __init__(self, timeline: Timeline) -> None:
        self._t = timeline

    def __len__(self) -> int:
        return len(self._t._size)

    @overload
    def __getitem__(self, i: int) -> list[Event]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[Event]]: ...

    def __getitem__(self, i: int | slice) -> list[Event] | list[list[Event]]:
        if isinstance(i, slice):
            return [self._t.events(k) for k in range(*i.indices(len(self)))]
        return self._t.events(range(len(self))[i])


class Timeline:
    def __init__(self, preset: Preset[Any], table: Mapping[type[Event], Applier]) -> None:
        self.preset = preset
        self.table = table
        self.loader: Callable[[int, int], list[Event]] | None = None  # (first seq, size)
        # the event objects of the steps a walk keeps (a game keeps none: it reads them again
        # from its records), by step
        self._events: dict[int, list[Event]] = {}
        # Step facts in flat arrays and lists of strings, which the GC never walks: machine
        # ints and bytes, not a list of int objects (3 KiB less for a held game of 80 steps,
        # issue 29 item 2)
        self._by: list[str] = []
        self._command: list[str] = []
        self._first = array("q")
        self._size = array("q")
        self._meta = bytearray()     # 1: an undo, a redo or an undo request or its answer
        self._rolled = bytearray()   # 1: it rolled dice
        self.live: list[int] = []
        self.states: list[GameState | None] = []   # None: dropped, folded again if needed
        self.keep_all = False   # a load keeps every state while it folds, then thins them
        # a load's live steps not folded yet (the newest of them), and the events of those
        # and of the steps undone meanwhile; None: each step folded as it comes
        self._deferred: deque[int] | None = None
        self._unfolded: dict[int, list[Event]] = {}
        self.redo: list[int] = []
        self.request: tuple[int, str] | None = None
        self.refused: set[tuple[int, str]] = set()   # (step, the seat that asked) refused
        self.tape: dict[int, int] = {}
        self.tape_end = 0   # past the last position of the dice stream the tape holds
        # shared dice (core.shared): each party's chain, as [anchor, length, key, its last
        # value, ...]; rounds revealed; the step of the commitments. All over every step
        # made, undone ones too: a round is revealed once for ever (DICE.REVEAL)
        self.chains: dict[str, Chained] = {}
        self.rounds = 0
        self.commit_step = -1

    @property
    def steps(self) -> Steps:
        """Each step's events (a view made when asked: kept, it held the timeline in a loop
        of references, left to the collector's full pass when the game was let go)."""
        return Steps(self)

    @property
    def state(self) -> GameState:
        return self.states[-1]  # type: ignore[return-value]  # the newest is always kept

    @property
    def info(self) -> list[StepInfo]:
        return [StepInfo(i, by, command, first, size, bool(meta)) for i, (
            by, command, first, size, meta) in enumerate(zip(
                self._by, self._command, self._first, self._size, self._meta, strict=True))]

    def events(self, step: int) -> list[Event]:
        """The events of ``step``, decoded from its records if a load did not keep them."""
        kept = self._events.get(step)
        if kept is not None:
            return kept
        if self.loader is None:
            raise ValueError(f"the events of step {step} were not kept and cannot be read")
        return self.loader(self._first[step], self._size[step])

    def last_live(self) -> int | None:
        """The newest live step that can be undone (step 0 never can)."""
        return self.live[-1] if len(self.live) > 1 else None

    def last_seq(self, step: int) -> int:
        """The seq of ``step``'s last record: its head is that record's hash."""
        return int(self._first[step] + self._size[step] - 1)

    def rolled_dice(self, step: int) -> bool:
        return bool(self._rolled[step])

    def by(self, step: int) -> str:
        """Who issued ``step`` ("" for the opening)."""
        return self._by[step]

    def is_meta(self, step: int) -> bool:
        """Whether ``step`` is an undo, a redo or an undo request or its answer."""
        return bool(self._meta[step])

    def feed(self, step: int, events: Sequence[Event], by: str, first_seq: int,
             state_after: GameState | None = None, keep: bool = True) -> None:
        """Fold one whole step. ``state_after`` is given by a live game that already folded it;
        ``keep=False`` (a load) drops the event objects once folded."""
        if step != len(self._size):
            raise TamperedLog(f"step {step} follows step {len(self._size) - 1}", seq=first_seq)
        head = events[0]
        meta = rolled = False
        if step == 0:
            if not isinstance(head, GameStarted):
                raise TamperedLog("a log must open with GameStarted", seq=first_seq)
            command = "start"
            if state_after is None:
                state_after = fold(self.preset.initial_state(head), events[1:], self.table)
        else:
            if head.type != "CommandIssued":
                raise TamperedLog(f"step {step} does not open with CommandIssued", seq=first_seq)
            command = head.command  # type: ignore[attr-defined]  # a CommandIssued, by its name
        for e in events:  # one pass: is it a meta step, and which dice did it roll
            kind = e.type
            if kind == "DiceRolled":
                rolled = True
                start = e.index  # type: ignore[attr-defined]  # a DiceRolled, by its name
                faces = e.faces  # type: ignore[attr-defined]  # (the same)
                for i, face in enumerate(faces):
                    self.tape[start + i] = face
                if start + len(faces) > self.tape_end:
                    self.tape_end = start + len(faces)
            elif kind in TIMELINE_EVENTS:   # one lookup for the common event, as before
                if kind in SHARED_EVENTS:
                    self._shared(e, step)   # type: ignore[arg-type]  # (one, by its name)
                else:
                    meta = True
        if keep:
            self._events[step] = events if isinstance(events, list) else list(events)
        self._by.append(by)
        self._command.append(command)
        self._first.append(first_seq)
        self._size.append(len(events))
        self._meta.append(meta)
        self._rolled.append(rolled)
        if meta:
            for e in events[1:]:
                self._meta_event(e, first_seq)
            return
        deferred = self._deferred
        if state_after is None and deferred is not None and not keep:
            self._unfolded[step] = events if isinstance(events, list) else list(events)
            if self.redo:   # their branch ended: they are never folded
                for gone in self.redo:
                    self._unfolded.pop(gone, None)
                self.redo.clear()
            self._defer(step, deferred)
            return
        if state_after is None:
            state_after = self.state
            table = self.table
            for e in events:  # fold, inlined: this is the replay's inner loop
                state_after = table[type(e)](state_after, e)
        self.live.append(step)
        self._push(state_after)
        if self.redo:
            self.redo.clear()

    def _shared(self, e: DiceCommitted | DiceRevealed, step: int) -> None:
        if isinstance(e, DiceCommitted):
            self.chains[e.party] = Chained(e.anchor, e.length, e.key, e.anchor)
            self.commit_step = step
            return
        for party, value in e.values.items():
            self.chains[party].last = value
        self.rounds = e.round

    def _meta_event(self, e: Event, seq: int) -> None:
        kind = e.type
        if kind == "StepUndone":
            step = e.step  # type: ignore[attr-defined]  # a StepUndone, by its name
            if self.last_live() != step:
                raise TamperedLog(f"undoes step {step}, which is not the last live step", seq=seq)
            self.live.pop()
            if self._deferred:   # (a suffix of the live steps: the last is the newest)
                self._deferred.pop()
            else:
                self.states.pop()
                self._restore()
            self.redo.append(step)
            self.request = None
        elif kind == "StepRedone":
            wanted = e.step  # type: ignore[attr-defined]  # a StepRedone, by its name
            if not self.redo or self.redo[-1] != wanted:
                raise TamperedLog(f"redoes step {wanted}, which is not the next to redo", seq=seq)
            step = self.redo.pop()
            if self._deferred is not None:
                self._defer(step, self._deferred)
                return
            self._push(fold(self.state, self.events(step), self.table))
            self.live.append(step)
        elif kind == "UndoRequested":
            self.request = (e.step, e.by)  # type: ignore[attr-defined]  # an UndoRequested
        elif kind == "UndoRefused":
            if self.request is not None:
                self.refused.add(self.request)
            self.request = None

    def _push(self, state: GameState) -> None:
        """The newest live step's state; those below it are kept only one step in EVERY."""
        states = self.states
        below = -1 if self.keep_all else len(states) - 1
        while below >= 0 and states[below] is not None:   # (more than one after a _restore)
            if below % EVERY:
                states[below] = None
            else:
                forget(states[below], state)  # type: ignore[arg-type]  # kept; its answers are the newest state's business
                break
            below -= 1
        states.append(state)
        old = len(states) - 1 - RECENT   # it leaves the last RECENT now
        if not self.keep_all and old > 0 and old % FAR:
            states[old] = None

    def _defer(self, step: int, deferred: deque[int]) -> None:
        """A load's newest live step, folded once DEFER newer ones are in (see bulk)."""
        self.live.append(step)
        deferred.append(step)
        if len(deferred) > DEFER:
            self._fold_oldest(deferred)

    def _fold_oldest(self, deferred: deque[int]) -> None:
        """Fold the oldest of a load's live steps not folded yet."""
        step = deferred.popleft()
        events = self._unfolded.pop(step, None)
        if events is None:   # undone once folded, then redone: read again
            events = self.events(step)
        state = self.states[-1]
        assert state is not None   # (a load keeps every state while it folds)
        self._push(fold(state, events, self.table))

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """Keep every state while a load folds (undos in a log pop states: had the load
        dropped them, each undo would fold steps again), then drop those it added but the
        newest and one in EVERY. A live step is folded only once DEFER newer ones are in, or
        at the end: a step undone before then (and abandoned) costs no fold, nor does a
        step undone and redone meanwhile cost a second (in the bench's long log, 19,781 of
        its 20,046 steps played were abandoned, and half its meta steps were redos)."""
        self.keep_all = True
        first = max(1, len(self.states) - 1)
        deferred = self._deferred = deque()
        try:
            yield
            while deferred:
                self._fold_oldest(deferred)
        finally:
            self._deferred = None
            self._unfolded.clear()
            self.keep_all = False
            states = self.states
            for i in range(first, len(states) - 1):
                if i % (EVERY if i >= len(states) - 1 - RECENT else FAR):
                    states[i] = None

    def _restore(self) -> None:
        """Make the newest live step's state again if it was dropped: a fold of the steps
        since the nearest kept state, the same fold that made it. The states between are
        kept too, as undos tend to come in a row (they go again as play moves on)."""
        states = self.states
        if states[-1] is not None:
            return
        kept = len(states) - 1
        while states[kept] is None:
            kept -= 1
        state = states[kept]
        assert state is not None   # (the loop above stopped on it)
        for i in range(kept + 1, len(states)):
            state = fold(state, self.events(self.live[i]), self.table)
            states[i] = state

    def status(self) -> dict[int, str]:
        """Each step: live, undone (redoable), abandoned (its branch ended) or meta."""
        live = set(self.live)
        redo = set(self.redo)
        out = {}
        for step, meta in enumerate(self._meta):
            if meta:
                out[step] = "meta"
            elif step in live:
                out[step] = "live"
            elif step in redo:
                out[step] = "undone"
            else:
                out[step] = "abandoned"
        return out


def step_events(store: EventStore, records: RecordLog, first: int, size: int) -> list[Event]:
    """A step's events, decoded again from its records (redo, an undo's fold, inspection):
    straight from the stored bytes when the store gives a decoder for them. A game's
    timeline reads them so, not through the game: a game that held itself in a loop of
    references outlived its last user until the collector's next full pass (a verify of
    50,000 records left them all to it, 0.1-0.2 s at the command's exit; a server's games
    let go waited for one)."""
    fast = getattr(store, "event_decoder", None)
    out = []
    for i, r in enumerate(records.stored(first, first + size), first):
        if type(r) is bytes:
            if fast is not None:
                out.append(fast(r))
                continue
            r = records[i]
        # (a Record here: bytes were decoded above)
        out.append(decode_event(r.type, r.v, r.data, f"record {r.seq}"))  # type: ignore[union-attr]
    return out
