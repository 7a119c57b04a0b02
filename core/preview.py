"""A safe "what if" (``Game.preview``, ``{"query": "try", "cmd": {...}}``): what a command
would do now, and nothing changes.

The command is checked and decided as ``Game.submit`` decides it, on the state as it stands,
and its events are folded into a state of their own: the game, its log and its store are not
touched, and nothing is written. No die is rolled: a command that calls for a roll is shown up
to that roll (``then`` says which roll it waits for), since a die shown before it is rolled is
a die someone could choose to spend or not (DICE.NO_REROLL). A measurement a table-mode step
needs is shown the same way. A refusal is answered with its rule, as ``submit`` gives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .commands import META_COMMANDS, Command, Measure, Roll, parse_command
from .dice import ManualDice
from .errors import IllegalCommand, RegimentError
from .events import CommandIssued
from .fold import folded
from .i18n import tr
from .protocols import EventStore, view_of
from .record import Draft
from .state import GameState

if TYPE_CHECKING:
    from .game import Game


def preview(game: Game, command: Command | dict[str, Any]) -> dict[str, Any]:
    """``{"events": [...], "board": {...}, "then": {...}}`` for a command the rules take
    (``then``: the roll or measurement it stops at, or the decision after it), or
    ``{"refused": {...}}``; the game is as it was."""
    try:
        if not isinstance(command, Command):
            command = parse_command(command)
        state = game.state
        why = _not_tried(game, command)
        if why:
            raise IllegalCommand(why, rule="GAME.TRY", command=command, phase=state.phase)
        if command.by not in state.players:
            raise IllegalCommand(tr("{player} is not a player of this game",
                                    player=repr(command.by)),
                                 rule="GAME.PLAYER", command=command, phase=state.phase)
        issued = CommandIssued(by=command.by, command=command.name, args=command.args())
        if state.answers:   # decided on the state a replay folds: after CommandIssued
            state = game.table[CommandIssued](state, issued)
        events = game._decide(state, command)   # (pure: the preset decides on a state)
        after = folded(state, events, game.table)
    except RegimentError as exc:
        return {"refused": exc.to_dict()}
    view = view_of(game.preset)
    told = [{"type": e.type, "v": e.v, "data": e.to_data(),
             "text": game.preset.sentence(e.type, e.to_data(), after)}
            for e in (issued, *events)]
    return {"events": told, "board": view.board(after) if view is not None else {},
            "then": _then(game, after)}


def _not_tried(game: Game, command: Command) -> str:
    """Why ``command`` is not one to try: only a decision's commands are (an undo, a roll or
    a measurement is what it is; a try of it would show nothing a client cannot know)."""
    state = game.state
    if command.name in META_COMMANDS or isinstance(command, (Roll, Measure)):
        return tr("only a decision's command is tried, not {command}", command=command.name)
    if game.timeline.request is not None:
        return tr("an undo request waits for an answer")
    if state.over:
        return tr("the game is over")
    if state.awaiting is not None or state.asking is not None:
        return tr("the game waits for a roll or a measurement first")
    return ""


def _then(game: Game, after: GameState) -> dict[str, Any]:
    """What the game would wait for after the command: a roll (not made), a measurement, a
    decision, or the game's end."""
    if after.over:
        return {"kind": "over", "winner": after.winner}
    if after.asking is not None:
        q = after.asking.question
        return {"kind": "measurement", "player": q.player, "question": q.key, "rule": q.rule}
    aw = after.awaiting
    if aw is not None:
        return {"kind": "roll", "player": aw.player, "purpose": aw.purpose, "unit": aw.unit,
                "dice": aw.dice}
    pending = game.preset.pending(after)
    return {"kind": pending.kind, "player": getattr(pending, "player", None),
            "decision": getattr(pending, "decision", None)}


def fork(game: Game, store: EventStore) -> Game:
    """A copy of ``game`` as it stands, its log copied into ``store`` (a ``MemoryStore`` for a
    "what if" played further): it shares nothing writable with the game, and has no dice of
    its own, so that playing it on never shows a die the game is still to roll: its rolls wait
    for faces, as with manual dice (DICE.NO_REROLL)."""
    drafts = [Draft(r.seq, r.step, r.type, r.v, r.data, r.at) for r in game.records]
    store.append(game.game_id, drafts, 0)
    return type(game).load(game.game_id, store, preset=game.preset, dice=ManualDice(),
                           clock=game.clock)
