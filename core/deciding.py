"""How one command becomes its events: the rules' events, every roll they ask for that needs
no player (seeded, scripted, or already in the log: an undo never re-rolls), and in table mode
the measurement the rules need first (TABLE.ASK, TABLE.MEASURE), after which the interrupted
step is decided again with the answer."""

from __future__ import annotations

from typing import Any

from . import measure, revealing
from .commands import (
    Command,
    CommitDice,
    Measure,
    Reveal,
    Roll,
    Withheld,
    parse_command,
)
from .dice import Dice, faces_problem
from .errors import IllegalCommand
from .events import (
    CommandWithdrawn,
    DiceRevealed,
    DiceRolled,
    Event,
    GameEnded,
    Measured,
    MeasurementRequested,
)
from .fold import Folded, folded
from .history import Timeline
from .i18n import current, language, tr
from .protocols import Preset, view_of
from .reasons import REASONS_WITH_RULES
from .record import RecordLog
from .state import Awaiting, GameState


class Deciding:
    """A game's deciding of commands (a part of ``core.game.Game``)."""

    # what the game it is part of holds (core.game.Game)
    game_id: str
    started: revealing.Opening   # what it keeps of its GameStarted
    records: RecordLog
    preset: Preset[Any]
    dice: Dice | None
    engine: tuple[int, int, int]
    table: dict[type[Event], Any]
    timeline: Timeline

    def _illegal(self, command: Command, why: str, rule: str, code: str = "",
                 field: str | None = None) -> IllegalCommand:
        raise NotImplementedError

    def _run(self, state: GameState, command: Command) -> tuple[list[Event], GameState]:
        aw = state.awaiting
        events: list[Event]
        asking = state.asking
        if isinstance(command, CommitDice | Reveal | Withheld):
            return self._shared(state, command)
        if isinstance(command, Measure):
            events = self._measured(state, command)
        elif asking is not None:
            q = asking.question
            raise self._illegal(command, tr("the game waits for a measurement first: {key}",
                                            key=q.key), q.rule, "measurement_pending")
        elif isinstance(command, Roll):
            if aw is None:
                raise self._illegal(command, tr("no roll is pending"), "DICE.PENDING",
                                    "no_roll_pending")
            if command.by != aw.player:
                raise self._illegal(command, tr("this roll is {player}'s to make",
                                                player=aw.player), "DICE.PENDING",
                                    "not_your_roll", "by")
            problem = faces_problem(command.faces, aw.dice)
            if problem:
                raise self._illegal(command, problem, "DICE.FACES", "bad_faces", "faces")
            known = self._partly_known(state.dice_pos, aw.dice) or ()
            if self.started.dice == "shared" and (len(known) < aw.dice or None in known):
                raise self._illegal(command, tr("this game's dice are shared: each roll is "
                                                "made of every party's reveal"), "DICE.SHARED",
                                    "dice_shared")
            if any(k is not None and k != f for k, f in zip(known, command.faces, strict=False)):
                shown = " ".join("?" if k is None else str(k) for k in known)
                why = tr("these dice were already rolled: {shown} (?: not rolled yet); an undo "
                         "never re-rolls dice", shown=shown) if None in known else \
                    tr("these dice were already rolled: {shown}; an undo never re-rolls dice",
                       shown=shown)
                raise self._illegal(command, why, "DICE.NO_REROLL", "dice_already_rolled",
                                    "faces")
            events = self._roll(state, aw, command.faces)
        elif aw is not None:
            raise self._illegal(command, tr("a {purpose} roll must be made first",
                                               purpose=aw.purpose), "DICE.PENDING",
                                "roll_pending")
        else:
            events = self._decide(state, command)
        state = folded(state, events, self.table)
        return self._roll_while_awaiting(state, list(events))

    def _shared(self, state: GameState, command: Command) -> tuple[list[Event], GameState]:
        """The host's commands of shared dice (core.revealing), refused as any command is."""
        timeline = self.timeline
        try:
            if isinstance(command, CommitDice):
                events: list[Event] = revealing.committed(self.started, timeline, state,
                                                          command)
                return events, folded(state, events, self.table)
            if isinstance(command, Withheld):
                end: GameEnded = revealing.withheld(self.started, timeline, state, command)
                return [end], folded(state, [end], self.table)
            assert isinstance(command, Reveal)
            aw = state.awaiting
            known = self._partly_known(state.dice_pos, aw.dice) if aw is not None else None
            head = self.records.hash_at(-1).hex()   # the head of the log that called for it
            told, faces = revealing.revealed(self.game_id, head, timeline, state,
                                             command, known)
        except revealing.Refused as no:
            raise self._illegal(command, no.why, no.rule, no.code, no.field) from None
        assert aw is not None   # (revealed)
        after = self.table[DiceRevealed](state, told)
        rolled = self._roll(after, aw, faces)
        return self._roll_while_awaiting(rolled.state, [told, *rolled])

    def _decide(self, state: GameState, command: Command) -> list[Event]:
        """The command's events; in table mode, the measurement its rules need first."""
        try:
            return self.preset.decide(state, command)
        except measure.Need as need:
            return [_requested(need, measure.Again(command.to_dict()))]

    def _measured(self, state: GameState, command: Measure) -> list[Event]:
        """TABLE.MEASURE: the measurement asked, checked, recorded; then the step it
        interrupted is decided again with it (it may ask for another)."""
        asking = state.asking
        if asking is None:
            raise self._illegal(command, tr("no measurement is asked for"), "TABLE.MEASURE",
                                "no_measurement_pending")
        q = asking.question
        if command.by != q.player:
            raise self._illegal(command, tr("this measurement is {player}'s to take",
                                            player=q.player), q.rule,
                                "not_your_measurement", "by")
        try:
            value = measure.read(q, command.value)
        except ValueError:   # said with the pieces' names, as the players see them
            view = view_of(self.preset)
            named = q.make(**{**q.__dict__, **{k: view.names(state).get(v, v) for k, v in (
                ("unit", q.unit), ("other", q.other))}}) if view is not None else q
            try:
                measure.read(named, command.value)
            except ValueError as told:
                exc = told
            raise self._illegal(command, str(exc), q.rule, "bad_measurement", "value") from None
        given = Measured(key=measure.logged(q.key), kind=q.kind, rule=q.rule, value=value)
        after = self.table[Measured](state, given)
        again = asking.resume
        if isinstance(again, measure.Again):
            events = self._decide_or_withdraw(after, parse_command(again.command, logged=True))
        else:
            events = self._outcome(after, again.roll, again.faces)
        return Folded([given, *events], folded(after, events, self.table))

    def _decide_or_withdraw(self, state: GameState, command: Command) -> list[Event]:
        """TABLE.MEASURE: a command decided again with what was measured; if that rules it
        out, it is withdrawn, and the state is as before it (the log keeps the measurement:
        the refusal's reason code, or its English where it has none)."""
        try:
            return self._decide(state, command)
        except IllegalCommand as refused:
            why = refused
        reason = why.reason
        if reason is not None and self.engine >= REASONS_WITH_RULES:
            return [CommandWithdrawn(command=command.name, by=command.by, rule=why.rule,
                                     why=reason)]
        # the refusal's English words: a reason without a code of its own is told by them,
        # and a game an engine before 0.13.0 began writes them as that engine did
        # (core.upcast: CommandWithdrawn v1)
        if current() != "en":   # decided again in English, as those engines did
            with language("en"):
                try:
                    self._decide(state, command)
                except IllegalCommand as english:
                    why = english
        words = {"text": str(why.why)}   # (plain text, not the told message)
        told = {"code": "told", "rule": why.rule} if reason is None else reason
        return [CommandWithdrawn(command=command.name, by=command.by, rule=why.rule,
                                 why={**told, **words})]

    def _outcome(self, state: GameState, aw: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        """What the rules make of a roll; in table mode, the measurement they need first."""
        try:
            return self.preset.on_roll(state, aw, faces)
        except measure.Need as need:
            return [_requested(need, measure.RollAgain(aw, faces))]

    def _roll_while_awaiting(self, state: GameState, events: list[Event]
                             ) -> tuple[list[Event], GameState]:
        """Make every roll the rules ask for that needs no player: seeded, scripted, or known."""
        while state.awaiting is not None and not state.over:
            aw = state.awaiting
            faces = self._known(state.dice_pos, aw.dice)
            if faces is None and self.dice is not None and self.dice.automatic:
                faces = self.dice.faces(state.dice_pos, aw.dice)
            if faces is None:
                break
            more = self._roll(state, aw, faces)
            state = more.state
            events.extend(more)
        return events, state

    def _roll(self, state: GameState, aw: Awaiting, faces: tuple[int, ...]) -> Folded:
        """A roll's faces and what the rules make of them, with the state they lead to."""
        rolled = DiceRolled(purpose=aw.purpose, unit=aw.unit, faces=tuple(faces),
                            index=state.dice_pos)
        after = self.table[DiceRolled](state, rolled)
        outcome = self._outcome(after, aw, tuple(faces))
        return Folded([rolled, *outcome], folded(after, outcome, self.table))

    def _known(self, index: int, count: int) -> tuple[int, ...] | None:
        """Faces the log already holds for these positions of the dice stream, if all are."""
        known = self._partly_known(index, count)
        if known is None or None in known:
            return None
        return tuple(f for f in known if f is not None)

    def _partly_known(self, index: int, count: int) -> tuple[int | None, ...] | None:
        if index >= self.timeline.tape_end:   # live play, nothing undone: no die is known
            return None
        tape = self.timeline.tape
        known = tuple(tape.get(index + i) for i in range(count))
        return None if all(f is None for f in known) else known


def _requested(need: measure.Need, again: measure.Again | measure.RollAgain
               ) -> MeasurementRequested:
    return MeasurementRequested(**need.question.fields(), resume=measure.resume_written(again))
