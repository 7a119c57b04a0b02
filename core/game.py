"""A game: the one object an embedding program talks to.

``submit`` is the only door in: it checks a command (turn machine and rule guards), lets the
preset's pure rule functions turn it into events, rolls any dice those events ask for, appends
the step to the store (atomic, hash-chained) and only then folds it into the timeline. If any
of that fails, the game and the store are as they were.
"""

from __future__ import annotations

import functools
import gc
import itertools
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from . import measure
from .commands import (
    META_COMMANDS,
    Command,
    GrantUndo,
    Measure,
    RefuseUndo,
    Roll,
    parse_command,
)
from .deciding import Deciding
from .dice import Dice, SeededDice, dice_for
from .errors import CorruptLog, IllegalCommand, InvalidScenario, TamperedLog
from .events import (
    CommandIssued,
    Event,
    GameStarted,
)
from .fold import appliers_for, fold
from .history import Timeline, step_events
from .i18n import tr
from .pending import Decision, Measurement, Over, Pending
from .pending import Roll as RollPending
from .protocols import PRESETS, EventStore, Preset, view_of
from .record import Draft, Record, RecordLog
from .revealing import Opening
from .shared import SharedDice
from .state import GameState
from .undoing import Undoing
from .upcast import as_written, decode_event, newest_change
from .version import ENGINE_VERSION, version


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def find_preset(name: str) -> Preset[Any]:
    try:
        return PRESETS[name]
    except KeyError:
        raise TamperedLog(f"no preset {name!r} is registered (import regiment.phases)") from None


class Game(Deciding, Undoing):
    """One game on one store. Make it with ``Game.new`` or ``Game.load``. How a command becomes
    its events is ``Deciding``'s (its rolls and its measurements), an undo ``Undoing``'s."""

    def __init__(self, *, game_id: str, preset: Preset[Any], store: EventStore, dice: Dice | None,
                 undo_policy: str, clock: Callable[[], str] = utc_now,
                 engine: str = ENGINE_VERSION) -> None:
        self.game_id = game_id
        self.engine = version(engine)   # the engine that began the game (LOG.RULINGS)
        self.preset = preset
        self.store = store
        self.dice = dice
        self.undo_policy = undo_policy
        self.clock = clock
        self.table = appliers_for(preset.appliers)
        self.timeline = Timeline(preset, self.table)
        self.records = RecordLog(getattr(store, "record_decoder", None))
        # through the store and the records, not the game: see ``step_events``
        self.timeline.loader = functools.partial(step_events, store, self.records)

    # --- making and loading ----------------------------------------------------------------

    @classmethod
    def new(cls, scenario: dict[str, Any], *, store: EventStore, preset: Preset[Any] | None = None,
            dice: Dice | None = None, game_id: str | None = None,
            clock: Callable[[], str] = utc_now, started: GameStarted | None = None) -> Game:
        """Start a game from a validated scenario (see core.scenario) and write step 0.

        The scenario's ``seed`` is a secret: it goes to the store's secrets, never into
        ``GameStarted``, which holds only the commitment to it (DICE.SECRET). ``started``
        replays a recorded opening as it was written (``verify``, record import), so that a
        log written by an earlier engine is re-derived from its own first record.
        """
        if preset is None:
            preset = PRESETS.get(scenario["preset"])
            if preset is None:
                raise InvalidScenario(
                    f"the preset {scenario['preset']!r} is not available; registered: "
                    f"{', '.join(sorted(PRESETS)) or 'none (import regiment.phases)'}",
                    path="preset")
        if dice is None:
            dice = dice_for(scenario["dice"], scenario.get("seed"), scenario.get("script", ()))
        if started is None:
            public = {k: v for k, v in scenario.items() if k != "seed"}
            started = GameStarted(game_id=game_id or uuid.uuid4().hex[:16], scenario=public,
                                  preset=preset.name, engine_version=ENGINE_VERSION,
                                  dice_commitment=dice.commitment(), dice=dice.kind,
                                  undo=scenario.get("undo", "free"))
        game = cls(game_id=started.game_id, preset=preset, store=store, dice=dice,
                   undo_policy=started.undo, clock=clock, engine=started.engine_version)
        game.started = Opening.of(started)
        state = preset.initial_state(started)
        opening = preset.opening(state)
        events: list[Event] = [started, *opening]
        state = fold(state, opening, game.table)
        events, state = game._roll_while_awaiting(state, events)
        if isinstance(dice, SeededDice | SharedDice) and dice.seed is not None:
            store.put_secret(game.game_id, dice.seed)
        game._commit(events, "", state)
        return game

    @classmethod
    def load(cls, game_id: str, store: EventStore, *, preset: Preset[Any] | None = None,
             dice: Dice | None = None, clock: Callable[[], str] = utc_now) -> Game:
        """Rebuild a game from its log: a fold of its records, no rules and no dice re-run."""
        fast = getattr(store, "read_events", None)
        if fast is None:
            return cls.from_records(store.read(game_id), store=store, preset=preset, dice=dice,
                                    clock=clock)
        return cls._from_items(fast(game_id), store, preset, dice, clock)

    @classmethod
    def from_records(cls, records: Iterable[Record], *, store: EventStore,
                     preset: Preset[Any] | None = None, dice: Dice | None = None,
                     clock: Callable[[], str] = utc_now) -> Game:
        """Rebuild a game from records (an export, or a store without ``read_events``)."""
        return cls._from_items(((r.seq, r.step, None, r) for r in records), store, preset,
                               dice, clock)

    @classmethod
    def _from_items(cls, items: Iterable[tuple[int, int, Event | None, Record | bytes]],
                    store: EventStore, preset: Preset[Any] | None, dice: Dice | None,
                    clock: Callable[[], str]) -> Game:
        """Rebuild a game from (seq, step, event or None, record or its stored bytes)."""
        it = iter(items)
        head = next(it, None)
        if head is None:
            raise TamperedLog("the log is empty: no GameStarted")
        seq, _, started, item = head
        if started is None:
            r: Any = item
            started = decode_event(r.type, r.v, r.data, f"record {seq}")
        if not isinstance(started, GameStarted):
            raise TamperedLog(f"the log opens with {started.type}, not GameStarted", seq=seq)
        preset = preset or find_preset(started.preset)
        if dice is None:
            scenario = started.scenario
            seed: str | None = None
            if started.dice in ("seeded", "shared"):
                secret = store.get_secret(started.game_id)
                seed = secret.hex() if secret else published_seed(started)
            dice = dice_for(started.dice, seed, scenario.get("script", ()), require_seed=False)
        game = cls(game_id=started.game_id, preset=preset, store=store, dice=dice,
                   undo_policy=started.undo, clock=clock, engine=started.engine_version)
        game.started = Opening.of(started)
        with gc_paused():
            game.replay(itertools.chain([(seq, head[1], started, item)], it))
        return game

    def replay(self, items: Iterable[tuple[int, int, Event | None, Record | bytes]]) -> None:
        """Fold records into the timeline, a whole step at a time (the hot path of a load)."""
        with self.timeline.bulk():
            self._replay(items)

    def _replay(self, items: Iterable[tuple[int, int, Event | None, Record | bytes]]) -> None:
        timeline = self.timeline
        batch: list[Event] = []
        rows = self.records
        step = len(timeline.steps)
        start = len(rows)
        # a load keeps no event objects (see core.history.Steps); they come back from records
        append, keep = batch.append, rows.raw_append
        seq = start
        for r_seq, r_step, event, item in items:
            if r_seq != seq:
                raise TamperedLog(f"expected record {seq}, found {r_seq}", seq=r_seq)
            if r_step != step:
                if r_step != step + 1 or not batch:
                    raise TamperedLog(f"step {r_step} follows step {step}", seq=r_seq)
                timeline.feed(step, batch, _by(batch), start, keep=False)
                batch = []
                append = batch.append
                step = r_step
                start = seq
            if event is None:
                r: Any = item
                try:
                    event = decode_event(r.type, r.v, r.data)
                except CorruptLog as exc:
                    raise exc.at(f"record {seq}") from None
            append(event)
            keep(item)
            seq += 1
        if batch:
            timeline.feed(step, batch, _by(batch), start, keep=False)

    # --- what the game says ----------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.timeline.state

    @property
    def history(self) -> list[Record]:
        """Every record of the log, undone branches included (see ``timeline.status()``)."""
        return list(self.records)

    @property
    def version(self) -> int:
        return len(self.records)

    @property
    def head(self) -> str:
        """The hash of the last record, in hex: the head of the last step (a receipt)."""
        return self.records.hash_at(-1).hex() if len(self.records) else ""

    @property
    def pending(self) -> Pending:
        state = self.state
        request = self.timeline.request
        if request is not None:
            player = state.opponent(request[1])
            return Decision(player=player, decision="consent_undo",
                            legal=(GrantUndo(by=player), RefuseUndo(by=player)))
        if state.over:
            return Over.of(state)
        asking = state.asking
        if asking is not None:
            q = asking.question
            return Measurement(player=q.player, question=q.key, measure=q.kind, rule=q.rule,
                               unit=q.unit, other=q.other, options=q.options, most=q.most,
                               extra=q.extra)
        aw = state.awaiting
        if aw is not None:
            known = self._partly_known(state.dice_pos, aw.dice)
            if self.started.dice != "shared" or (known is not None and None not in known):
                return RollPending(player=aw.player, purpose=aw.purpose, unit=aw.unit,
                                   dice=aw.dice, known=known)
            # DICE.REVEAL: new faces wait for the round after the last one revealed
            return RollPending(player=aw.player, purpose=aw.purpose, unit=aw.unit, dice=aw.dice,
                               known=known, round=self.timeline.rounds + 1,
                               parties=tuple(sorted(self.timeline.chains)))
        return self.preset.pending(state)

    def fork(self, store: EventStore) -> Game:
        """A copy into ``store``, nothing writable shared, no die rolled (``core.preview``)."""
        from .preview import fork

        return fork(self, store)

    def preview(self, command: Command | dict[str, Any]) -> dict[str, Any]:
        """What ``command`` would do now, nothing changed, no die rolled (``core.preview``)."""
        from .preview import preview

        return preview(self, command)

    def board(self) -> dict[str, Any]:
        """The table and every piece, in the frame ``core.board`` states."""
        from .board import board
        return board(self)

    def legal(self) -> list[Command]:
        """Commands that would be accepted now, undo and redo included when possible."""
        pending = self.pending
        out: list[Command] = list(pending.legal) if isinstance(pending, Decision) else []
        if isinstance(pending, RollPending) and pending.known and None not in pending.known:
            out.append(Roll(by=pending.player,
                            faces=tuple(f for f in pending.known if f is not None)))
        if isinstance(pending, Measurement):
            out += [Measure(by=pending.player, value=v) for v in measure.choices(pending)]
        undo = self._undo_open() and self.timeline.last_live() is not None
        redo = self._undo_open() and bool(self.timeline.redo)
        for player in self.state.players:
            if undo and self.may_undo(player):
                out.append(parse_command({"cmd": "undo", "by": player}))
            if redo and self.may_redo(player):
                out.append(parse_command({"cmd": "redo", "by": player}))
        return out

    # --- commands --------------------------------------------------------------------------

    def submit(self, command: Command | dict[str, Any]) -> list[Event]:
        """Apply one command as one step; returns its events. IllegalCommand changes nothing."""
        if not isinstance(command, Command):
            command = parse_command(command)
        state = self.state
        if command.by not in state.players:
            raise IllegalCommand(tr("{player} is not a player of this game",
                                    player=repr(command.by)),
                                 rule="GAME.PLAYER", command=command, phase=state.phase,
                                 code="not_a_player", field="by")
        after: GameState | None = None
        issued = CommandIssued(by=command.by, command=command.name, args=command.args())
        if command.name in META_COMMANDS:
            events = self._decide_meta(command)
        else:
            if self.timeline.request is not None:
                raise self._illegal(command, tr("an undo request waits for an answer"),
                                   "UNDO.CONSENT", "undo_request_pending")
            if state.over:
                raise self._illegal(command, tr("the game is over"), "GAME.OVER", "game_over")
            if state.answers:   # decided on the state a replay folds: after CommandIssued
                state = self.table[CommandIssued](state, issued)
            events, after = self._run(state, command)
        events.insert(0, issued)
        self._commit(events, command.by, after)
        return events

    def undo(self, by: str) -> list[Event]:
        return self.submit(parse_command({"cmd": "undo", "by": by}))

    def redo(self, by: str) -> list[Event]:
        return self.submit(parse_command({"cmd": "redo", "by": by}))

    def _illegal(self, command: Command, why: str, rule: str, code: str = "",
                 field: str | None = None) -> IllegalCommand:
        return IllegalCommand(why, rule=rule, command=command, phase=self.state.phase,
                              legal=[c.wire() for c in self.legal()], code=code, field=field)

    def _name(self, piece: str) -> str:
        """A piece's name (the English of an engine before 0.10.0 named pieces so)."""
        view = view_of(self.preset)
        return view.names(self.state).get(piece, piece) if view is not None else piece

    def _commit(self, events: Sequence[Event], by: str, after: GameState | None) -> None:
        seq = len(self.records)
        step = len(self.timeline.steps)
        at = self.clock()
        # each draft's data is its event, which the store encodes straight (store.sealing);
        # a game an older engine began writes its shapes (core.upcast.as_written)
        drafts = [Draft(seq + i, step, e.type, e.v, e, at) for i, e in enumerate(events)]
        if self.engine < newest_change():
            # (each draft's data is its event: ``Draft`` types it as either)
            drafts = [d if (old := as_written(d.data, self.engine,  # type: ignore[arg-type]  # (an event)
                                              self._name)) is None
                      else d._replace(v=old[0], data=old[1]) for d in drafts]
        sealed = self.store.append(self.game_id, drafts, seq)
        self.records.add(sealed)
        # the events are in the records: keep none, as a loaded game keeps none, and read a
        # step's again from its records when a redo or an inspection asks (0.15 KiB an event)
        self.timeline.feed(step, events, by, seq, after, keep=False)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector during a bulk load.

    A replay builds objects it keeps (records, events, states), none of them in cycles, so the
    collector finds nothing; but it runs again and again over the growing heap, which doubled
    the cost of loading 100,000 events (measured: 13.1 against 5.9 us an event). Reference
    counting still frees everything as usual.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _by(batch: Sequence[Event]) -> str:
    head = batch[0]
    return head.by if isinstance(head, CommandIssued) else ""


def published_seed(started: GameStarted) -> str | None:
    """The dice seed an engine before 0.4.0 wrote into the log with its scenario, if any.

    Such a seed was public from the first record on: anyone holding the log could foresee
    every die. The log still loads and verifies; the tools say that its seed was published.
    """
    seed = started.scenario.get("seed")
    return seed if isinstance(seed, str) and seed else None
