"""One walk over a log for every tool that reads one, as python-chess's PGN visitors.

``walk`` groups the records into steps, decodes each record once and folds the state once
(when a visitor asks for states), and shows every visitor each step in turn with the branch
it is on (live, undone, abandoned or meta), when the caller knows the branches; each visitor
says what it makes of them (the story, the replay page's frames, inspect's rows, a record's
commands). A tool is its visitor, not a loop of its own over the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from .events import Event
from .fold import appliers_for
from .game import find_preset
from .history import Timeline
from .record import Record
from .state import GameState
from .upcast import decode_event

T_co = TypeVar("T_co", covariant=True)


class Step(NamedTuple):
    """One step of a log, as a visitor sees it."""

    number: int
    records: list[Record]
    branch: str                    # live, undone, abandoned, meta; "" when not yet known
    events: list[Event] | None     # decoded (when a visitor asked for states)
    before: GameState | None       # the state before the step (None at step 0, or not asked)
    after: GameState | None        # the state after it (when a visitor asked for states)


class Visitor(Protocol[T_co]):
    """What a tool makes of a log, step by step."""

    @property
    def states(self) -> bool:
        """Whether it needs the state before and after each step (a fold of the log)."""
        ...

    @property
    def events(self) -> bool:
        """Whether it needs each step's events, decoded (a fold gives them too)."""
        ...

    def visit(self, step: Step) -> None: ...

    def end(self, branches: Mapping[int, str]) -> T_co:
        """Its result, once every step is seen; ``branches`` are each step's."""
        ...


def steps(records: Iterable[Record]) -> Iterator[list[Record]]:
    """The records grouped by step, in order."""
    batch: list[Record] = []
    for r in records:
        if batch and r.step != batch[0].step:
            yield batch
            batch = []
        batch.append(r)
    if batch:
        yield batch


def walk(records: Sequence[Record], visitors: Sequence[Visitor[Any]],
         branches: Mapping[int, str] | None = None) -> list[Any]:
    """Show each visitor every step of ``records``; their results, in order. ``branches``:
    each step's branch, when the caller knows them (a loaded game's timeline); without them,
    they are worked out by the walk's own fold and given to the visitors at the end."""
    folding = any(v.states for v in visitors) or branches is None
    decoding = folding or any(v.events for v in visitors)
    timeline: Timeline | None = None
    started: Event | None = None
    if folding and records:
        started = decode_event(records[0].type, records[0].v, records[0].data, "record 0")
        preset = find_preset(started.preset)  # type: ignore[attr-defined]  # a GameStarted's
        timeline = Timeline(preset, appliers_for(preset.appliers))
    for batch in steps(records):
        head = batch[0]
        events: list[Event] | None = None
        before = after = None
        if decoding:
            events = [started if r.seq == 0 and started is not None else
                      decode_event(r.type, r.v, r.data, f"record {r.seq}") for r in batch]
        if timeline is not None and events is not None:
            before = timeline.state if head.step > 0 else None
            by = head.data.get("by", "") if head.type == "CommandIssued" else ""
            # (the decoded events are kept: an undo folds earlier steps again from them)
            timeline.feed(head.step, events, by, head.seq)
            after = timeline.state
        seen = Step(head.step, batch, branches.get(head.step, "live") if branches else "",
                    events, before, after)
        for v in visitors:
            v.visit(seen)
    final = branches if branches is not None else (timeline.status() if timeline else {})
    return [v.end(final) for v in visitors]
