"""UNDO.*: undo, redo and undo requests move the end of the timeline; the log only grows."""

from __future__ import annotations

from .commands import (
    Command,
)
from .errors import IllegalCommand
from .events import (
    Event,
    StepRedone,
    StepUndone,
    UndoRefused,
    UndoRequested,
)
from .history import Timeline
from .i18n import tr
from .state import GameState

# LOG.RULINGS: from this engine on, undoing the other seat's step needs its consent too
CONSENT_FOR_ANY_STEP = (0, 9, 0)
# LOG.RULINGS: from this engine on, a finished game takes no undo or redo (GAME.OVER), under
# consent only the seat whose step it was redoes it, and a refused undo is not asked again
OVER_STAYS_OVER = (0, 13, 0)
# LOG.RULINGS: from this engine on, under ``free`` too, undoing a step that rolled dice needs the
# other seat's consent (a seat that saw the dice cannot take them back alone and spend them on
# another step); ``solo``, a game one person plays, undoes any step alone
DICE_NEED_CONSENT = (0, 15, 0)


class Undoing:
    """A game's undo and redo (a part of ``core.game.Game``)."""

    engine: tuple[int, int, int]
    timeline: Timeline
    undo_policy: str

    @property
    def state(self) -> GameState:
        raise NotImplementedError


    def _illegal(self, command: Command, why: str, rule: str) -> IllegalCommand:
        raise NotImplementedError

    def _decide_meta(self, command: Command) -> list[Event]:
        """UNDO.*: undo and redo move the end of the timeline; the log only grows."""
        timeline = self.timeline
        name, by = command.name, command.by
        if self.state.over and self.engine >= OVER_STAYS_OVER:   # its seed may be public now
            raise self._illegal(command, tr("the game is over: no step of it is taken back or "
                                            "made again"), "GAME.OVER")
        request = timeline.request
        if name in ("grant_undo", "refuse_undo"):
            if request is None:
                raise self._illegal(command, tr("no undo request is waiting"), "UNDO.CONSENT")
            if by == request[1]:
                raise self._illegal(command, tr("the other player must answer an undo request"),
                                    "UNDO.CONSENT")
            if name == "grant_undo":
                return [StepUndone(step=request[0], by=request[1], consent=by)]
            return [UndoRefused(step=request[0], by=by)]
        if request is not None:
            raise self._illegal(command, tr("an undo request waits for an answer"),
                                "UNDO.CONSENT")
        if self.undo_policy == "off":
            raise self._illegal(command, tr("undo is off in this game"), "UNDO.POLICY")
        if name == "redo":
            if not timeline.redo:
                raise self._illegal(command, tr("nothing to redo"), "UNDO.REDO")
            again = timeline.redo[-1]
            if not self.may_redo(by):
                raise self._illegal(command, tr("only {player}, whose step it was, may redo it",
                                                player=timeline.by(again)), "UNDO.CONSENT")
            return [StepRedone(step=again, by=by)]
        step = timeline.last_live()
        if step is None:
            raise self._illegal(command, tr("nothing to undo"), "UNDO.NOTHING")
        if step == timeline.commit_step:
            raise self._illegal(command, tr("the dice commitments are not taken back"),
                                "DICE.COMMIT")
        if self._asks_consent(step, by):
            if not self.may_undo(by):
                raise self._illegal(command, tr("that undo was asked for and refused: it is not "
                                                "asked again"), "UNDO.CONSENT")
            return [UndoRequested(step=step, by=by)]
        return [StepUndone(step=step, by=by)]

    @property
    def can_undo(self) -> bool:
        """UNDO.NOTHING, UNDO.POLICY, UNDO.CONSENT: whether a player may send an undo now (a
        live step to take back, a policy that allows it, no request waiting for its
        answer); ``legal()`` offers one to each player then."""
        return self._undo_open() and self.timeline.last_live() is not None and \
            any(self.may_undo(p) for p in self.state.players)

    @property
    def can_redo(self) -> bool:
        """UNDO.REDO, UNDO.POLICY, UNDO.CONSENT: whether a player may send a redo now (an
        undone step to put back, on the same terms as an undo)."""
        return self._undo_open() and bool(self.timeline.redo) and \
            any(self.may_redo(p) for p in self.state.players)

    def _undo_open(self) -> bool:
        return self.timeline.request is None and self.undo_policy != "off" and not (
            self.state.over and self.engine >= OVER_STAYS_OVER)   # GAME.OVER

    def may_undo(self, by: str) -> bool:
        """UNDO.CONSENT (games from 0.13.0): ``by`` has not asked for this undo and been
        refused already (an undo its own alone, or one the other never refused, it may)."""
        step = self.timeline.last_live()
        if step is not None and step == self.timeline.commit_step:   # DICE.COMMIT
            return False
        return not (self.engine >= OVER_STAYS_OVER and step is not None and
                    (step, by) in self.timeline.refused and self._asks_consent(step, by))

    def may_redo(self, by: str) -> bool:
        """UNDO.CONSENT (games from 0.13.0): under consent only the seat whose step it was
        puts it back."""
        redo = self.timeline.redo
        if not redo or self.engine < OVER_STAYS_OVER or self.undo_policy != "consent":
            return True
        owner = self.timeline.by(redo[-1])
        return not owner or owner == by

    def _asks_consent(self, step: int, by: str) -> bool:
        """UNDO.POLICY, UNDO.CONSENT: whether undoing ``step`` asks the other seat first: under
        ``consent`` as ``_undo_needs_consent`` says; under ``free``, in games begun from engine
        0.15.0, a step that rolled dice (LOG.RULINGS); under ``solo`` (one person plays both
        seats, or against the bot), and under ``free`` in older games, never."""
        if self.undo_policy == "consent":
            return self._undo_needs_consent(step, by)
        return self.undo_policy == "free" and self.engine >= DICE_NEED_CONSENT and \
            self.timeline.rolled_dice(step)

    def _undo_needs_consent(self, step: int, by: str) -> bool:
        """UNDO.CONSENT: undoing a step that rolled dice, or one the other seat made, needs the
        other seat's consent; a seat takes back its own last step alone only while it rolled
        no dice and the other seat has not acted since. Games begun before engine 0.9.0 asked
        consent for dice only, and re-derive so (LOG.RULINGS)."""
        timeline = self.timeline
        if timeline.rolled_dice(step):
            return True
        if self.engine < CONSENT_FOR_ANY_STEP:
            return False
        # acting is making a step of the game (an undo, a redo or an answer to an undo request
        # is not); a step of the other seat's that was undone since still counts
        return any(timeline.by(s) != by and not timeline.is_meta(s)
                   for s in range(step, len(timeline.steps)))
