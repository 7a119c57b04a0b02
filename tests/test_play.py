"""`regiment play`, driven as a person would: through a pseudo-terminal, reading the screen and
typing answers. Manual dice, a wrong key at each prompt, undo (the same dice must come out
again), explain, log, quit, and taking the game up again from the store."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from regiment.core.game import Game
from regiment.store import open_store
from regiment.tools.verify import verify

from .conftest import EXAMPLES

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """A child process on a pseudo-terminal: what it printed, and a keyboard."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "160", "LINES": "50", "TERM": "xterm"}
        self.proc = subprocess.Popen([sys.executable, "-m", "regiment.tools.cli", *args],
                                     stdin=slave, stdout=slave, stderr=slave, env=env,
                                     close_fds=True)
        os.close(slave)
        self.seen = ""      # everything printed, ANSI stripped
        self.mark = 0       # where the next expect starts looking

    def expect(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        """Wait until ``pattern`` appears in what was printed since the last match."""
        regex = re.compile(pattern)
        end = time.monotonic() + timeout
        while True:
            m = regex.search(self.seen, self.mark)
            if m:
                self.mark = m.end()
                return m
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited for {pattern!r}; the screen ends with:\n"
                                     f"{self.seen[-1500:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"the program ended while waiting for {pattern!r}:\n"
                                         f"{self.seen[-1500:]}")
                self.seen += ANSI.sub("", chunk.decode("utf-8", "replace"))

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def option(self, words: str) -> str:
        """The number of the option, shown since the last prompt, that contains ``words``."""
        start = self.seen.rfind(":\n", 0, self.mark)
        for m in re.finditer(r"^\s+(\d+)\. (.*)$", self.seen[start:self.mark], re.M):
            if words in m.group(2):
                return m.group(1)
        raise AssertionError(f"no option with {words!r} in:\n{self.seen[start:self.mark]}")

    def close(self) -> int:
        """The exit status; what it still prints is read meanwhile (a full terminal would
        block it)."""
        end = time.monotonic() + 20
        try:
            while self.proc.poll() is None and time.monotonic() < end:
                ready, _, _ = select.select([self.master], [], [], 0.2)
                if ready:
                    try:
                        self.seen += ANSI.sub("", os.read(self.master, 65536).decode(
                            "utf-8", "replace"))
                    except OSError:
                        break
            return self.proc.wait(timeout=max(0.1, end - time.monotonic()))
        finally:
            os.close(self.master)


def records(db: Path, game: str) -> int:
    return len(list(open_store(db).read(game)))


@pytest.fixture
def term():
    made: list[Terminal] = []

    def start(*args: str) -> Terminal:
        t = Terminal(*args)
        made.append(t)
        return t

    yield start
    for t in made:
        if t.proc.poll() is None:
            t.proc.kill()
        t.proc.wait()


def test_play_a_charge_with_real_dice_undo_explain_and_resume(term, tmp_path):
    db = tmp_path / "table.db"
    t = term("play", str(EXAMPLES / "ford_clash.toml"), "--dice", "manual", "--store", str(db))
    game_id = t.expect(r"game ([0-9a-f]{16}), fantasy8, manual dice").group(1)
    t.expect(r"Orc Boyz\s+.\s+red\s+.\s+25 .\s+5 x 5 .\s+ready")       # the table of units
    t.expect(r"red> ")
    t.type("9")                                                      # a wrong key
    t.expect(r"'9' is not an answer here: type a number from 1 to \d+.*Nothing was changed")
    t.expect(r"red> ")
    t.type(t.option("Orc Boyz, target Empire Spearmen"))
    t.expect(r"declare a charge against Empire Spearmen .*CH\.DECLARE")
    t.expect(r"blue> ")
    t.type(t.option("reaction hold"))
    t.expect(r"Empire Spearmen hold")
    t.expect(r"red> ")
    t.type(t.option("end charges"))
    t.expect(r"move charger \(movement > charge > charge moves\)")   # the phase, named
    t.expect(r"red \(Enter: 1\)> ")
    t.type("")                                                       # Enter: the only option
    t.expect(r"Roll 2D6 for Orc Boyz's charge \(red; 6 or more on 2D6 reaches Empire "
             r"Spearmen, 10\.0\" away with M 4\): ")
    before = records(db, game_id)
    t.type("7 7")                                                    # not a die
    t.expect(r"(?s)'7 7' is not an answer here: type the 2 faces you rolled.*?Nothing was changed")
    assert records(db, game_id) == before                            # the store untouched
    t.expect(r"Roll 2D6 for Orc Boyz's charge")
    t.type("6 5")
    t.expect(r"charge range 6\+5 \+ M 4 = 15\" .*the charge reaches")
    t.expect(r"move: unit Goblin Wolf Riders, kind forward, path forward 9\"")   # MOVE.*
    t.expect(r"red> ")
    t.type("explain")
    t.expect(r"Step \d+: red: roll faces=6,5")
    t.expect(r"CH\.RANGE: .*")
    t.type("undo")
    t.expect(r"red asks the other seat's consent to undo step \d+ \(UNDO\.CONSENT\)")
    t.expect(r"blue> ")                              # the step rolled dice: blue is asked
    t.type(t.option("grant undo"))
    t.expect(r"red undoes step \d+ \(with blue's consent\)")
    t.expect(r"must come out\s+again: 6 5\): ")
    t.type("1 1")                                                    # a re-roll is refused
    t.expect(r"Not done: these dice were already rolled")
    t.type("65")
    t.expect(r"the charge reaches")
    t.expect(r"red> ")
    t.type("log")
    t.expect(r"step 1 \[movement > charge > declaration\] red: declare_charge")
    t.type("quit")
    t.expect(rf"regiment play --resume {game_id} --store {re.escape(str(db))}")
    assert t.close() == 0
    # the game is in the store, whole and checkable
    game = Game.load(game_id, open_store(db))
    assert verify(game.records).steps == len(game.timeline.steps)
    steps = len(game.timeline.steps)

    t = term("play", "--resume", game_id, "--store", str(db))
    t.expect(rf"taken up again at step {steps - 1}")
    t.expect(r"red> ")
    t.type("quit")
    assert t.close() == 0
    assert records(db, game_id) == len(game.records)


def test_play_with_seeded_dice_to_a_decision_and_bad_starts(term, tmp_path):
    db = tmp_path / "g.db"
    t = term("play", str(EXAMPLES / "mill_race.toml"), "--store", str(db))
    t.expect(r"seeded dice")
    t.expect(r"join|Turn 1")
    t.expect(r"empire> ")
    t.type("help")
    t.expect(r"explain\s+why the last outcome")
    t.type("quit")
    assert t.close() == 0
    t = term("play", "--resume", "nosuchgame", "--store", str(db))
    t.expect(r"has no game 'nosuchgame'")
    assert t.close() == 2
    t = term("play", str(EXAMPLES / "nothere.toml"), "--store", str(db))
    t.expect(r"nothere\.toml")
    assert t.close() == 2
    typo = tmp_path / "typo.toml"
    typo.write_text((EXAMPLES / "ford_clash.toml").read_text().replace("models =", "modles =", 1))
    t = term("play", str(typo), "--store", str(db))
    t.expect(r"regiment play: .*typo\.toml at units\[0\].*modles")
    assert t.close() == 2
    assert len(open_store(db).games()) == 1          # only the first game was ever stored


def test_every_roll_prompt_says_what_the_dice_need(ford_clash):
    """Issue 12: with manual dice, each roll is asked for with what each die needs (the hit,
    wound and save needs of the attacks being rolled, a test's total, a charge's reach), as the
    same rule functions decide it."""
    import random

    from regiment.core.commands import Roll
    from regiment.store import MemoryStore
    from regiment.tools.bot import choose

    rng = random.Random(12)
    game = Game.new({**ford_clash, "dice": "manual"}, store=MemoryStore())
    asked: dict[str, str] = {}
    while game.pending.kind != "over" and len(asked) < 7 and len(game.records) < 3000:
        pending = game.pending
        if pending.kind == "roll":
            need = game.preset.roll_need(game.state)
            assert need, f"no need told for {pending.purpose}"
            asked.setdefault(pending.purpose, need)
            if pending.purpose == "to_hit":
                g = game.state.batch.groups[game.state.awaiting.about.group]
                assert need.startswith(f"each die {g.hit}+ hits")
            if pending.purpose == "break_test":
                assert "or less passes" in need and "Ld" in need
            game.submit(Roll(by=pending.player,
                             faces=tuple(rng.randint(1, 6) for _ in range(pending.dice))))
        else:
            game.submit(choose(game))
    assert {"charge_range", "to_hit", "to_wound"} <= set(asked), asked
    assert asked["charge_range"].split()[0].isdigit() and "reaches" in asked["charge_range"]


def test_the_ranks_column_counts_a_short_rear_rank():
    from regiment.phases.fantasy.view import formation

    assert formation(23, 5) == "4 x 5 + 3"
    assert formation(25, 5) == "5 x 5"
    assert formation(3, 5) == "3"
    assert formation(0, 5) == "-"


def test_play_a_skirmish_assault_with_real_dice_undo_and_explain(term, tmp_path):
    """The skirmish game at the table: the squads' roster, a disordered charge, overwatch,
    the charge roll with what it needs, an undo that keeps the dice, and an explanation."""
    db = tmp_path / "g.db"
    t = term("play", str(EXAMPLES / "two_targets.toml"), "--dice", "manual", "--store", str(db),
             "--no-auto-skip")
    t.expect(r"skirmish40k, manual dice")
    t.expect(r"Assault Marines\s+.*red\s+.*8\s+.*8\s+.*ready")          # the roster
    t.expect(r"red> ")
    t.type(t.option("primary First Squad, secondary Second Squad"))
    t.expect(r"disordered charge, no \+1 attack \(SK\.DECLARE, S4\)")
    t.expect(r"blue> ")
    t.type(t.option("hold overwatch: unit First Squad"))
    t.expect(r"blue> ")
    t.type(t.option("hold overwatch: unit Second Squad"))
    t.expect(r"Roll 2D6 for Assault Marines' charge.*the first model must reach "
             r"\(SK\.CHARGE_MOVE\)")
    t.type("6 6")
    t.expect(r"locked in combat 1-assault \(SK\.ENGAGED, S4\)")
    t.expect(r"red \(Enter: 1\)> ")
    t.type("undo")
    t.expect(r"blue> ")                              # the step rolled dice: blue is asked
    t.type(t.option("grant undo"))
    t.expect(r"must come out again: 6 6")
    t.type("6 6")
    t.expect(r"red \(Enter: 1\)> ")
    t.type("explain")
    t.expect(r"SK\.CHARGE_MOVE: ")
    t.type("quit")
    assert t.close() == 0
    game = Game.load(open_store(db).games()[0], open_store(db))
    assert verify(game.records).steps == len(game.timeline.steps)


def test_a_battle_plays_to_its_end_in_russian_with_real_dice(tmp_path):
    """`regiment --lang ru play` from start to end, as a Russian table plays it: every prompt,
    option and sentence in Russian, the faces of real dice typed at each roll."""
    db = tmp_path / "ru.db"
    term = Terminal("--lang", "ru", "play", "ford_clash", "--dice", "manual", "--store",
                    str(db))
    prompt = re.compile(r"Бросьте (\d+)D6[^\n]*: $|(\w+)(?: \(Enter: 1\))?> $"
                        r"|Игра окончена: ([^\n]*)\.")
    over = None
    for _ in range(2000):
        m = term.expect(prompt.pattern, timeout=30)
        if m.group(3) is not None:
            over = m.group(3)
            term.expect(r"> $")
            break
        term.type(" ".join(["4"] * int(m.group(1))) if m.group(1) else "1")
    term.type("quit")
    assert term.close() == 0
    assert over is not None, "the battle did not end"
    screen = term.seen
    assert "Ход 1: red - движение > атака > объявление" in screen
    assert "объявить атаку: подразделение Orc Boyz, цель Empire" in screen
    assert "тест на Разгром" in screen and "(CH.DECLARE [G])" in screen
    assert "Сохранено. Продолжить: regiment play --resume" in screen
    assert "Traceback" not in screen
    game = open_store(db).games()[-1]
    assert verify(list(open_store(db).read(game))).records == records(db, game)


@pytest.mark.parametrize("battle, human, bot", [("border_patrol", "orcs", "empire"),
                                                ("two_targets", "red", "blue")])
def test_play_bot_plays_one_side_of_a_whole_game_to_a_winner(term, tmp_path, battle, human,
                                                            bot):
    """`play SCENARIO --bot PLAYER`: the bot makes that player's decisions and shows each; the
    person at the keyboard plays the other side (here always the first option offered) to
    the game's end, which names the winner."""
    db = tmp_path / "bot.db"
    t = term("play", battle, "--bot", bot, "--store", str(db))
    for _ in range(400):
        m = t.expect(rf"(The game is over: \w+ won)|{human}(?: \(Enter: 1\))?> ", timeout=60)
        if m.group(1):
            break
        t.type("1")
    else:
        raise AssertionError("the game did not end")
    assert f"{bot} (bot): " in t.seen
    t.type("quit")
    assert t.close() == 0
    store = open_store(db)
    game = Game.load(store.games()[0], store)
    assert game.pending.kind == "over" and game.state.winner in (human, bot)
    assert any(r.type == "CommandIssued" and r.data["by"] == bot for r in game.records)
    assert verify(game.records).steps == len(game.timeline.steps)


def test_play_bot_refuses_a_player_the_game_does_not_have(tmp_path):
    done = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "play", "ford_clash",
                           "--bot", "green", "--store", str(tmp_path / "g.db")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--bot green: no such player; the players are red, " \
        "blue" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "g.db").exists()


def test_play_a_move_typed_in_words_wheels_and_a_wrong_one_is_refused(term, tmp_path):
    """MOVE.* at the prompt (issue 54 row 13): a move no option lists, typed in words as a
    player says it, is made; one the rules refuse says why with its rule; a unit the player
    does not have is not an answer. Nothing refused changes the game."""
    db = tmp_path / "typed.db"
    t = term("play", "border_patrol", "--bot", "orcs", "--store", str(db))
    t.expect(r"empire(?: \(Enter: 1\))?> ", timeout=60)   # the empire's charges
    t.type(t.option("end charges"))
    t.expect(r"empire(?: \(Enter: 1\))?> ")             # the remaining moves
    t.option("path turn 180")                             # its turns are offered too
    t.type("move swordsmen turn 45")
    t.expect(r"Not done: .*\(MOVE\.[A-Z]+\)")
    t.type("move nobody forward 2")
    t.expect(r"is not an answer here: nobody names 0 of your units")
    t.type("move swordsmen wheel 20 forward 2")
    t.expect(r"Empire Swordsmen move to \([\d.]+, [\d.]+\) facing 20, using [\d.]+\" of "
             r"their move")
    t.expect(r"empire(?: \(Enter: 1\))?> ")
    t.type("quit")
    assert t.close() == 0 and "Traceback" not in t.seen
    store = open_store(db)
    game = Game.load(store.games()[0], store)
    moved = [r.data for r in game.records if r.type == "UnitMoved"
             and r.data["unit"] == "swordsmen"]
    assert moved and moved[-1]["facing"] == 20.0
    assert verify(game.records).steps == len(game.timeline.steps)
