"""The narration in Russian (--lang ru): every English message has its translation, each
keeping its fields and its rule IDs and citations; counts take Russian's three forms; the
reasons a log holds in English are told in Russian too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from regiment.core.game import Game
from regiment.core.i18n import language, ntr, tr
from regiment.core.scenario import load_scenario
from regiment.core.tell import kernel_sentence
from regiment.store import MemoryStore
from regiment.tools.demo import play
from regiment.tools.messages import PACKAGES, extract, problems
from regiment.tools.replay import narrate

from .conftest import EXAMPLES

CITED = re.compile(r"\b[A-Z]{2,6}\.[A-Z][A-Z_]+\b(?:, S\d| \[G\])?")


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_message_has_its_russian_translation(package):
    assert len(extract(PACKAGES[package])) >= 5
    assert problems(PACKAGES[package]) == []


LITERAL = re.compile(r'\b(?:tr|mark)\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]')


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_message_written_in_the_code_is_extracted(package):
    """Babel's extractor misses a message nested two calls deep: such a message would stay
    English in every language, and the completeness test would not see it."""
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in extract(PACKAGES[package])}
    for path in PACKAGES[package].rglob("*.py"):
        for literal in LITERAL.findall(path.read_text(encoding="utf-8")):
            text = literal.encode().decode("unicode_escape")
            assert text in ids, f"{path.name}: {text!r} is not extracted"


def test_a_translation_that_drops_a_rule_id_or_a_field_is_caught(tmp_path):
    from babel.messages.pofile import read_po, write_po

    folder = tmp_path / "pkg"
    (folder / "locale").mkdir(parents=True)
    (folder / "m.py").write_text('tr("{unit} flees (FP.FLEE).", unit=u)\n'
                                 'tr("{unit} holds (CH.HOLD).", unit=u)\n')
    from regiment.tools.messages import update

    path = update(folder)
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale="ru")
    catalog.get("{unit} flees (FP.FLEE).").string = "{unit} бежит."          # no rule ID
    catalog.get("{unit} holds (CH.HOLD).").string = "{who} стоит (CH.HOLD)."  # a wrong field
    with open(path, "wb") as handle:
        write_po(handle, catalog)
    found = problems(folder)
    assert any("FP.FLEE" in p for p in found) and any("'who'" in p for p in found)


def test_counts_take_the_three_russian_forms():
    import regiment.phases.skirmish.narrate  # noqa: F401 - its catalogue has the message

    with language("ru"):
        assert [ntr("{n} model", "{n} models", n) for n in (1, 2, 5, 11, 21, 22)] == [
            "1 модель", "2 модели", "5 моделей", "11 моделей", "21 модель", "22 модели"]
    assert ntr("{n} model", "{n} models", 2) == "2 models"


def test_a_reason_the_log_holds_in_english_is_told_in_russian():
    """Logs written before 0.10.0 hold the game's end in English: told from its code."""
    from regiment.phases.skirmish.narrate import ENDINGS as SQUADS

    with language("ru"):
        assert kernel_sentence("GameEnded", {"reason": "4 game turns played"}).startswith(
            "Игра окончена: сыграно 4 игровых хода. Никто не побеждает")
        assert kernel_sentence("GameEnded", {"reason": "only red has squads left",
                                             "winner": "red"}, SQUADS) == \
            "Игра окончена: отряды остались только у игрока red. Побеждает игрок red (GAME.END)."
    assert kernel_sentence("GameEnded", {"reason": "4 game turns played"}) == \
        "The game ends: 4 game turns played. No side wins: both still have pieces on the " \
        "table, and only a side that leaves the other none wins (GAME.END)."


@pytest.mark.parametrize("name", ["two_targets", "the_brood", "ford_clash", "mill_race",
                                  "the_captain", "chariot_and_giant"])
def test_a_battle_is_told_in_russian_with_the_same_rule_ids(name):
    game = Game.new(load_scenario(EXAMPLES / f"{name}.toml"), store=MemoryStore())
    play(game, show_undo=False)
    english = list(narrate(game, list(game.records)))
    with language("ru"):
        russian = list(narrate(game, list(game.records)))
    assert len(english) == len(russian)
    told = [(e, r) for e, r in zip(english, russian, strict=True) if e.startswith("    ")]
    assert len(told) > 20
    for e, r in told:
        assert CITED.findall(e) == CITED.findall(r), (e, r)
        assert re.search("[а-яё]", r), r   # told in Russian, not left in English
    assert tr("none") == "none"   # English again outside the block


def test_every_command_and_decision_has_a_name_players_read():
    """play shows commands and decisions by name: a command added without one would be
    shown in English in every language."""
    import ast

    from regiment.core.commands import COMMANDS
    from regiment.core.events import load_rulebooks
    from regiment.tools.words import COMMAND_WORDS

    load_rulebooks()
    ours = {n for n, c in COMMANDS.items() if c.__module__.startswith("regiment.")}
    assert "declare_charge" in ours and ours <= set(COMMAND_WORDS)   # (tests add their own)
    root = PACKAGES["core"].parent
    decisions = set()
    for path in [*root.joinpath("phases").rglob("*.py"), *root.joinpath("core").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "decision" and \
                    isinstance(node.value, ast.Constant):
                decisions.add(node.value.value)
    assert decisions and decisions <= set(COMMAND_WORDS)


def test_the_replay_command_tells_in_russian_and_english_again_after(tmp_path, capsys):
    from regiment.store import SqliteStore
    from regiment.tools.cli import main

    store = SqliteStore(tmp_path / "g.db")
    game = Game.new(load_scenario(EXAMPLES / "ford_clash.toml"), store=store)
    play(game, show_undo=False)
    store.close()
    assert main(["--lang", "ru", "replay", str(tmp_path / "g.db")]) == 0
    told = capsys.readouterr().out
    assert told.startswith("шаг 0 [расстановка] расстановка\n")
    assert "тест на Разгром" in told and "(CH.DECLARE [G])" in told
    assert main(["replay", str(tmp_path / "g.db")]) == 0   # the language was this command's
    assert capsys.readouterr().out.startswith("step 0 [set-up] set-up\n")


def test_narration_reads_no_english_back():
    """Reasons are codes: no narration reads a sentence of the log back with a regular
    expression (an older log's English is read as its code, in core.reasons and
    core.endings, when it is read)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    told = [root / p for p in ("core/tell.py", "core/i18n.py", "phases/fantasy/narrate.py",
                               "phases/fantasy/telling.py", "phases/skirmish/narrate.py")]
    told += sorted((root / "phases").rglob("sentences.py"))
    assert len(told) >= 7
    for path in told:
        text = path.read_text(encoding="utf-8")
        assert "import re\n" not in text and "re.compile" not in text, path


def test_every_roll_purpose_has_words_players_read_in_both_languages():
    """A roll's purpose as `play` and the page say it: every purpose docs/protocol.md lists has
    its words, and they are told in Russian too."""
    from regiment.core.i18n import language, tr
    from regiment.tools.words import PURPOSES

    doc = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")
    listed = doc[doc.index("## Roll purposes"):doc.index("## What a record says")]
    names = set(re.findall(r"`([a-z_]+)`", listed))
    assert names and names <= set(PURPOSES), sorted(names - set(PURPOSES))
    with language("ru"):
        untold = [n for n in names if tr(PURPOSES[n]) == str(PURPOSES[n])]
    assert untold == [], untold
