"""The timeline of a game: which steps are live, which are undone, and the state after each.

A step is one command and everything it caused. Undo, redo and undo requests are *meta* steps:
they are logged like any other, but instead of adding to the timeline they move its end.
``feed`` is the fold of a whole step; a live game and a replay of its log both go through it,
so they cannot disagree. The state after every live step is kept (states share structure), so
undo and redo cost the same at step 10 and at step 100,000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .errors import TamperedLog
from .events import META_EVENTS, Event, GameStarted
from .fold import fold
from .protocols import Applier, Preset
from .state import GameState


class StepInfo(NamedTuple):
    step: int
    by: str           # who issued it ("" for step 0)
    command: str      # the command's name ("start" for step 0)
    first_seq: int
    size: int         # how many records
    meta: bool


class Timeline:
    def __init__(self, preset: Preset, table: Mapping[str, Applier]) -> None:
        self.preset = preset
        self.table = table
        self.steps: list[list[Event]] = []
        self.info: list[StepInfo] = []
        self.live: list[int] = []
        self.states: list[GameState] = []
        self.redo: list[int] = []
        self.request: tuple[int, str] | None = None
        self.tape: dict[int, int] = {}
        self.events_total = 0

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def last_live(self) -> int | None:
        """The newest live step that can be undone (step 0 never can)."""
        return self.live[-1] if len(self.live) > 1 else None

    def rolled_dice(self, step: int) -> bool:
        return any(e.type == "DiceRolled" for e in self.steps[step])

    def feed(self, step: int, events: Sequence[Event], by: str, first_seq: int,
             state_after: GameState | None = None) -> None:
        """Fold one whole step. ``state_after`` is given by a live game that already folded it."""
        if step != len(self.steps):
            raise TamperedLog(f"step {step} follows step {len(self.steps) - 1}", seq=first_seq)
        head = events[0]
        meta = False
        if step == 0:
            if not isinstance(head, GameStarted):
                raise TamperedLog("a log must open with GameStarted", seq=first_seq)
            command = "start"
            if state_after is None:
                state_after = fold(self.preset.initial_state(head), events[1:], self.table)
        else:
            if head.type != "CommandIssued":
                raise TamperedLog(f"step {step} does not open with CommandIssued", seq=first_seq)
            command = head.command  # type: ignore[attr-defined]
        for e in events:  # one pass: is it a meta step, and which dice did it roll
            kind = e.type
            if kind == "DiceRolled":
                start = e.index  # type: ignore[attr-defined]
                for i, face in enumerate(e.faces):  # type: ignore[attr-defined]
                    self.tape[start + i] = face
            elif kind in META_EVENTS:
                meta = True
        self.steps.append(events if isinstance(events, list) else list(events))
        self.info.append(StepInfo(step, by, command, first_seq, len(events), meta))
        self.events_total += len(events)
        if meta:
            for e in events[1:]:
                self._meta(e, first_seq)
            return
        if state_after is None:
            state_after = self.states[-1]
            table = self.table
            for e in events:  # fold, inlined: this is the replay's inner loop
                state_after = table[e.type](state_after, e)
        self.live.append(step)
        self.states.append(state_after)
        if self.redo:
            self.redo.clear()

    def _meta(self, e: Event, seq: int) -> None:
        kind = e.type
        if kind == "StepUndone":
            step = e.step  # type: ignore[attr-defined]
            if self.last_live() != step:
                raise TamperedLog(f"undoes step {step}, which is not the last live step", seq=seq)
            self.live.pop()
            self.states.pop()
            self.redo.append(e.step)  # type: ignore[attr-defined]
            self.request = None
        elif kind == "StepRedone":
            wanted = e.step  # type: ignore[attr-defined]
            if not self.redo or self.redo[-1] != wanted:
                raise TamperedLog(f"redoes step {wanted}, which is not the next to redo", seq=seq)
            step = self.redo.pop()
            self.states.append(fold(self.state, self.steps[step], self.table))
            self.live.append(step)
        elif kind == "UndoRequested":
            self.request = (e.step, e.by)  # type: ignore[attr-defined]
        elif kind == "UndoRefused":
            self.request = None

    def status(self) -> dict[int, str]:
        """Each step: live, undone (redoable), abandoned (its branch ended) or meta."""
        live = set(self.live)
        redo = set(self.redo)
        out = {}
        for info in self.info:
            if info.meta:
                out[info.step] = "meta"
            elif info.step in live:
                out[info.step] = "live"
            elif info.step in redo:
                out[info.step] = "undone"
            else:
                out[info.step] = "abandoned"
        return out
