"""``regiment play``: the turn sequence run for players at a real table.

It shows the units, what happened with the rules behind it, and what the game waits for:
a decision (numbered options) or, with ``--dice manual``, the faces of real dice ("Roll 2D6
for Empire Spearmen's break test"). Between them a player may type ``undo``, ``redo``,
``explain``, ``log``, ``help`` or ``quit``. Every step is in the store the moment it is made,
so a game can be left and taken up again with ``--resume``. A wrong key never changes the
game: it says what is expected, and asks again.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from regiment.core.commands import Command, Measure, Roll
from regiment.core.errors import RegimentError
from regiment.core.game import Game
from regiment.core.i18n import ntr, tr
from regiment.core.pending import Decision, Measurement
from regiment.core.pending import Roll as RollPending
from regiment.core.protocols import view_of
from regiment.core.record import data_now
from regiment.core.tell import setting_word

from . import typed
from .bot import choose
from .explain import explain
from .names import command_name, resolve
from .receipts import short
from .replay import QUIET, narrate
from .words import (
    COLUMNS,
    COMMAND_WORDS,
    HELP,
    PURPOSES,
    SIDES,
    SPOKEN,
    WORDS,
    describe,
    faces_typed,
    names,
    phase_name,
)


class Session:
    """One player's terminal (or two players sharing it) on one game."""

    def __init__(self, game: Game, console: Console, ask: Callable[[str], str],
                 store_path: str, auto_skip: bool = False, bots: tuple[str, ...] = ()
                 ) -> None:
        self.game = game
        self.bots = bots   # the players the bundled bot plays (tools/bot.py)
        self.console = console
        self.ask = ask
        self.store_path = store_path
        self.auto_skip = auto_skip   # pass the phases where nothing can be done
        self.shown = len(game.records)   # records already told
        self.table_key: Any = None

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> int:
        self.header()
        self.tell_units()
        while True:
            pending = self.game.pending
            if pending.kind == "over":
                self.console.print("[bold]" + tr("The game is over: {winner}.",
                                                 winner=self.winner())
                                   + "[/] " + tr("Type log, explain or quit."))
            if isinstance(pending, Decision) and pending.player in self.bots:
                self.bot_decides(pending)
                continue
            if self.auto_skip and isinstance(pending, Decision) and \
                    self.nothing_to_do(pending):
                self.console.print("[dim]" + tr("Nothing can be done in {phase}: passed.",
                                                phase=phase_name(self.game.state.phase)) + "[/]",
                                   highlight=False)
                self.submit(pending.legal[0])
                continue
            prompt = self.prompt(pending)
            try:
                text = self.ask(prompt)
            except (EOFError, KeyboardInterrupt):   # Ctrl-D, Ctrl-C: saved, and how to go on
                self.console.print()   # off the prompt's line
                text = "quit"
            if not self.answer(text.strip(), pending):
                return 0

    def answer(self, text: str, pending: Any) -> bool:
        """Handle one line; False when the player quits."""
        word = self.word(text)
        if word in ("quit", "q", "exit"):
            self.console.print(tr("Saved. Take it up again with: {regiment} play --resume "
                                  "{game} --store {store}", game=self.game.game_id,
                                  store=self.store_path, regiment=command_name()))
            return False
        if word in ("help", "h", "?"):
            self.console.print(tr(HELP), markup=False, highlight=False)
            return True
        if word == "log":
            for line in narrate(self.game, list(self.game.records)):
                self.console.print(line, markup=False, highlight=False)
            return True
        if word == "explain":
            self.explain()
            return True
        if word == "head":
            self.tell_head(tr("The game stands"))
            return True
        if word == "undo" and self.bots:
            return self.undo_to_own()
        if word in ("undo", "redo"):
            return self.submit({"cmd": word, "by": self.who_undoes(word)})
        if pending.kind == "decision":
            return self.choose(text, pending)
        if pending.kind == "roll":
            return self.roll(text, pending)
        if pending.kind == "measurement":
            return self.measure(text, pending)
        self.refuse(text, tr("the game is over: type log, explain or quit"))
        return True

    @staticmethod
    def nothing_to_do(pending: Any) -> bool:
        """A decision whose only choice is to end the phase (magic, shooting, remaining
        moves with nothing to move)."""
        return pending.kind == "decision" and len(pending.legal) == 1 and \
            pending.legal[0].name == "end_phase"

    def word(self, text: str) -> str:
        """One of the prompt's words (``WORDS``) as typed: whole, a unique beginning, or in the
        players' language (``помощь``); anything else as it came, lowered."""
        typed = text.strip().lower()
        if not typed or typed in ("q", "h", "?") or typed.isdigit():
            return typed
        spoken = {tr(SPOKEN[w]).lower(): w for w in WORDS} | {w: w for w in WORDS}
        name, _ = resolve(typed, spoken)
        return spoken[name] if name is not None and len(typed) >= 2 else typed

    def choose(self, text: str, pending: Decision) -> bool:
        n = len(pending.legal)
        if not text and n == 1:   # Enter takes the only option
            return self.submit(pending.legal[0])
        if text.isdigit() and 1 <= int(text) <= n:
            return self.submit(pending.legal[int(text) - 1])
        if typed.is_move(text) and any(c.name == "move" for c in pending.legal):
            return self.typed_move(text, pending)
        picked = self.by_words(text, pending)
        if picked is not None:
            return self.submit(picked)
        labels = [describe(c, self.game).lower() for c in pending.legal]
        near = difflib.get_close_matches(text.lower(), labels, n=1, cutoff=0.5)
        hint = tr("; did you mean {what}?", what=repr(near[0])) if near else \
            self.meant_word(text)
        self.refuse(text, tr("type a number from 1 to {n}, an option by its words, or one of: "
                             "{words}", n=n, words=", ".join(WORDS)) + hint)
        return True

    def typed_move(self, text: str, pending: Decision) -> bool:
        """MOVE.*: a move typed in words (``move swordsmen wheel 30 forward 2``), any the
        rules allow; the engine checks it."""
        pieces = getattr(self.game.state, "units", None) or {}
        mine = {uid: name for uid, name in names(self.game).items()
                if getattr(pieces.get(uid), "player", None) == pending.player}
        try:
            command = typed.parse(text, pending.player, mine)
        except typed.NotAMove as exc:
            self.refuse(text, str(exc))
            return True
        return self.submit(command)

    def meant_word(self, text: str) -> str:
        """"; did you mean 'undo'?" for a mistyped prompt word ("udno"), else ""."""
        near = difflib.get_close_matches(text.strip().lower(), WORDS, n=1, cutoff=0.6)
        return tr("; did you mean {what}?", what=repr(near[0])) if near else ""

    def by_words(self, text: str, pending: Decision) -> Command | None:
        """The one option whose words, as shown, hold every word typed ("end phase", "pursue
        goblins", "second squad"), or None."""
        def words(line: str) -> list[str]:
            return [w for w in re.split(r"[\s,:]+", line.lower()) if w]

        typed = words(text)
        if not typed:
            return None
        shown = [(c, words(describe(c, self.game))) for c in pending.legal]
        found = [c for c, parts in shown   # each word typed begins one of the option's words
                 if all(any(p.startswith(w) for p in parts) for w in typed)]
        return found[0] if len(found) == 1 else None

    def roll(self, text: str, pending: RollPending) -> bool:
        digits = faces_typed(text)
        if not digits or len(digits) != pending.dice:
            self.refuse(text, ntr("type the {n} face you rolled, each 1 to 6 (such as "
                                  "{example}), or one of: undo, explain, log, help, quit",
                                  "type the {n} faces you rolled, each 1 to 6 (such as "
                                  "{example}, or by how many of each face: 3x6 2x1), or one "
                                  "of: undo, explain, log, help, quit",
                                  pending.dice,
                                  example=" ".join(["3", "5", "2", "6"][:min(pending.dice, 4)]))
                        + self.meant_word(text))
            return True
        return self.submit(Roll(by=pending.player, faces=tuple(int(d) for d in digits)))

    def measure(self, text: str, pending: Measurement) -> bool:
        """TABLE.MEASURE: what the players measured, as they type it (inches, a count, yes or
        no, or an option by its number or its id); the engine checks it."""
        if not text:
            self.refuse(text, tr("type what you measured, or one of: undo, explain, log, help, "
                                 "quit"))
            return True
        options = pending.options if pending.measure in ("side", "unit", "units") else ()
        picked = [options[int(w) - 1] if w.isdigit() and 1 <= int(w) <= len(options) else w
                  for w in re.split(r"[\s,]+", text) if w]
        value = ",".join(picked) if options else text
        return self.submit(Measure(by=pending.player, value=value))

    def submit(self, command: Command | dict[str, Any]) -> bool:
        try:
            self.game.submit(command)
        except RegimentError as exc:
            rule = getattr(exc, "rule", "")
            why = getattr(exc, "why", None) or _first_line(str(exc))
            self.console.print("[red]" + tr("Not done: {why}", why=why) + "[/]"
                               + (f" ({rule})" if rule else ""), highlight=False)
            return True
        self.tell_new()
        return True

    def refuse(self, text: str, what: str) -> None:
        said = tr("{text} is not an answer here: {what}.", text=repr(text), what=what)
        if said.endswith("?."):   # "did you mean 'undo'?" ends the sentence itself
            said = said[:-1]
        self.console.print("[yellow]" + said + "[/] " + tr("Nothing was changed."),
                           highlight=False)

    # --- what the players see ----------------------------------------------------------------

    def header(self) -> None:
        g = self.game
        started = g.records[0].data
        name = started["scenario"].get("name") or tr("a game")
        self.console.print(f"[bold]{name}[/] - " + tr(
            "game {game}, {preset}, {dice} dice, undo {undo}. Type help for help.",
            game=g.game_id, preset=started["preset"],
            dice=setting_word(started["dice"]), undo=setting_word(started["undo"])))
        if len(g.records) > self.shown or len(g.timeline.steps) > 1:
            self.console.print(tr("(taken up again at step {step})",
                                  step=len(g.timeline.steps) - 1))

    def tell_new(self) -> None:
        """What the last command did, told with its rules; then the units, if they changed."""
        records = self.game.records
        new = [records[i] for i in range(self.shown, len(records))]
        self.shown = len(records)
        state = self.game.state
        for r in new:
            if r.type in QUIET:
                continue
            text = self.game.preset.sentence(r.type, data_now(r), state)
            if text:
                self.console.print(f"  {text}", markup=False, highlight=False)
        if any(r.type in ("TurnBegan", "GameEnded") for r in new):
            self.tell_head(tr("A turn ends"))
        self.tell_units()

    def tell_head(self, what: str) -> None:
        """LOG.RECEIPT: the head code for the scoresheet; with it, either player can later
        prove that a log of this game was cut or changed (regiment verify --head)."""
        g = self.game
        step = len(g.timeline.steps) - 1
        code = short(g.head)
        self.console.print("[bold]" + tr("{what}: head code {step}:{code}", what=what,
                                         step=step, code=code) + "[/] " + tr(
            "(note it on your scoresheet; `{regiment} verify {store} --game {game} --head "
            "{step}:{code}` checks a log against it)", store=self.store_path, game=g.game_id,
            step=step, code=code, regiment=command_name()), highlight=False)

    def tell_units(self) -> None:
        """The pieces on the table, as the rulebook's view lists them, when they changed."""
        state, view = self.game.state, view_of(self.game.preset)
        if view is None:
            return
        rows = view.roster(state)
        key = (state.turn, state.player, tuple(rows))
        if key == self.table_key:
            return
        self.table_key = key
        t = Table(title=tr("Turn {turn}: {player} - {phase}", turn=state.turn,
                           player=state.player, phase=phase_name(state.phase)),
                  title_justify="left")
        for col in view.columns:
            t.add_column(tr(COLUMNS[col]) if col in COLUMNS else col,
                         justify="right" if col in ("models", "ranks", "wounds") else "left")
        for row in rows:
            t.add_row(*row)
        self.console.print(t)

    def prompt(self, pending: Any) -> str:
        if pending.kind == "decision":
            decision = (tr(COMMAND_WORDS[pending.decision]) if pending.decision in COMMAND_WORDS
                        else pending.decision.replace("_", " "))
            self.console.print(f"[bold]{pending.player}[/], {decision} "
                               f"({phase_name(self.game.state.phase)}):", highlight=False)
            for i, c in enumerate(pending.legal, 1):
                self.console.print(f"  {i}. {describe(c, self.game)}", highlight=False)
            for _, why in pending.idle:   # what could act and cannot, and why
                self.console.print(f"  [dim]({why})[/]", highlight=False)
            only = " (Enter: 1)" if len(pending.legal) == 1 else ""
            return f"{pending.player}{only}> "
        if pending.kind == "roll":
            name = names(self.game).get(pending.unit or "")
            whose = "" if name is None else tr("{unit}' ", unit=name) if name.endswith("s") \
                else tr("{unit}'s ", unit=name)
            what = (tr(PURPOSES[pending.purpose]) if pending.purpose in PURPOSES
                    else pending.purpose.replace("_", " "))
            known = ""
            if pending.known and any(k is not None for k in pending.known):
                known = tr(" (these dice were rolled before the undo and must come out again: "
                           "{faces})", faces=" ".join(str(k) if k else "?"
                                                      for k in pending.known))
            need = self.game.preset.roll_need(self.game.state)
            needs = f"; {need}" if need else ""
            return tr("Roll {dice}D6 for {whose}{what} ({player}{needs}){known}: ",
                      dice=pending.dice, whose=whose, what=what, player=pending.player,
                      needs=needs, known=known)
        if pending.kind == "measurement":
            ask = getattr(self.game.preset, "question", None)
            question = ask(self.game.state, pending) if ask else pending.question
            self.console.print(f"[bold]{pending.player}[/], " + tr("measure at the table:")
                               + f" {question}", highlight=False)
            if pending.measure in ("side", "unit", "units"):
                for i, o in enumerate(pending.options, 1):
                    self.console.print(f"  {i}. {self.option(pending, o)}", highlight=False)
            return f"{pending.player}> "
        return "> "

    def option(self, pending: Measurement, option: str) -> str:
        if pending.measure == "side":
            return "/".join(tr(SIDES[s]) for s in option.split("/"))
        if option == "none":
            return tr("none")
        return f"{names(self.game).get(option, option)} ({option})"

    def explain(self) -> None:
        """The last outcome, told with its rules (``tools.explain``)."""
        explain(self.game, self.console)

    def winner(self) -> str:
        w = self.game.state.winner
        return tr("{player} won", player=w) if w else tr("no winner")

    def bot_decides(self, pending: Decision) -> None:
        """The bot's decision for its player, shown as the option it took."""
        command = choose(self.game)
        self.console.print("[cyan]" + tr("{player} (bot): {choice}", player=pending.player,
                                          choice=describe(command, self.game)) + "[/]",
                           highlight=False)
        self.submit(command)

    def undo_to_own(self) -> bool:
        """``undo`` against a bot: the bot's steps since the player's last one are taken back
        with it, so that the player is back at a decision of their own (the dice they rolled
        come out again, as with any undo)."""
        g = self.game
        while True:
            step = g.timeline.last_live()
            if step is None:
                return self.submit({"cmd": "undo", "by": self.who_undoes("undo")})
            by = g.timeline.info[step].by
            self.submit({"cmd": "undo", "by": self.who_undoes("undo")})
            if by not in self.bots or g.timeline.last_live() == step:
                return True

    def who_undoes(self, word: str) -> str:
        """The player who made the last step undoes it; a redo is the active player's."""
        g = self.game
        if word == "undo":
            step = g.timeline.last_live()
            if step is not None and g.timeline.info[step].by:
                return g.timeline.info[step].by
        return g.state.player or g.state.players[0]


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0].split(" Legal now:")[0]
