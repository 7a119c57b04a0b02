"""A story that adds up: every sum the narration tells, in every golden battle and in both
languages, re-adds to the total it tells, and the total to the outcome (a dropped die is
shown in brackets and left out; a flee or pursuit is the distance its dice say; a charge
range is its dice and M; a combat result is the sum of its bonuses and wins by the
difference; attacks, hits, wounds, saves and unsaved wounds agree)."""

from __future__ import annotations

import re

import pytest

from regiment.core.i18n import language

from .test_golden import BATTLES, story

# "5+3 = 8", "4+5+(3) = 9" (a bracketed die does not count), "1 4 = 5" (skirmish faces)
TERM = r"(?:\(\d+\)|\d+)"   # a die, or a die shown dropped: (3)
SUM = re.compile(rf"(?<![\d.])({TERM}(?:[+ ]{TERM})+) = (\d+)(?![\d.])")
# 'flee 9" (4+5+(3) = 9' and 'pursue 7" (5+2 = 7)': the distance is the dice
DISTANCE = re.compile(rf"(\d+)\" \(({TERM}(?:\+{TERM})*) = (\d+)")
# 'charge range 5+2+(2) (...) + M 9 = 16"': the range is the dice that count and M
CHARGE = re.compile(rf"(?<![\d])({TERM}(?:\+{TERM})*)(?: \([^)]*\))? \+ M (\d+) = ([\d.]+)\"")
# "Combat result: a 4 (CR.WOUNDS X +1, ...); b 7 (...): b win by 3"
SIDE = re.compile(r"(\S+) (\d+) \(((?:[A-Z]+\.[A-Z_]+ [^;()]*?[+-]\d+(?:, )?)+)\)")
BONUS = re.compile(r"[+-]\d+")
BY = re.compile(r"(?:wins? by|с перевесом) (\d+)")
# "2 wound (5+), 1 saved (armour 5+), 1 unsaved" / "ранят 2 (5+), спасено 1 (...), не спасено 1"
ATTACKS = [re.compile(r"(\d+) wounds? \([^)]*\), (\d+) saved \((?:[^()]|\([^)]*\))*\), (\d+) "
                      r"unsaved"),
           re.compile(r"ранят (\d+) \([^)]*\), спасено (\d+) \((?:[^()]|\([^)]*\))*\), не "
                      r"спасено (\d+)")]


def told(term: str) -> int:
    """A term of a told sum: a die that counts, or 0 for one shown dropped."""
    return 0 if term.startswith("(") else int(term)


def check(line: str) -> list[str]:
    """What does not add up in one line of a story."""
    wrong = []
    for terms, total in SUM.findall(line):
        if sum(told(t) for t in re.split(r"[+ ]", terms) if t) != int(total):
            wrong.append(f"{terms} = {total}")
    for dist, _, total in DISTANCE.findall(line):
        if int(dist) != int(total):
            wrong.append(f'{dist}" told for dice of {total}')
    for terms, m, reach in CHARGE.findall(line):
        if sum(told(t) for t in terms.split("+")) + int(m) != float(reach):
            wrong.append(f"{terms} + M {m} = {reach}")
    for pattern in ATTACKS:
        for wounds, saved, unsaved in pattern.findall(line):
            if int(wounds) - int(saved) != int(unsaved):
                wrong.append(f"{wounds} wounds, {saved} saved, {unsaved} unsaved")
    sides = SIDE.findall(line)
    if len(sides) == 2:
        totals = []
        for _, total, bonuses in sides:
            if sum(int(b) for b in BONUS.findall(bonuses)) != int(total):
                wrong.append(f"{total} told for bonuses {bonuses}")
            totals.append(int(total))
        by = BY.search(line)
        if by and int(by.group(1)) != abs(totals[0] - totals[1]):
            wrong.append(f"wins by {by.group(1)}, the totals are {totals}")
    return wrong


def stories() -> list[tuple[str, str]]:
    return [(name, lang) for name in BATTLES for lang in ("en", "ru")]


@pytest.mark.parametrize("name, lang", stories())
def test_every_narrated_sum_in_the_golden_battles_re_adds_to_its_outcome(name, lang):
    with language(lang):
        text, _ = story(name)
    lines = text.splitlines()
    wrong = [f"{line.strip()}: {w}" for line in lines for w in check(line)]
    assert not wrong, "\n".join(wrong[:10])
    CHECKED[(name, lang)] = sum(len(SUM.findall(line)) for line in lines)


CHECKED: dict[tuple[str, str], int] = {}


def test_the_sums_checked_are_many():
    """(Run after the battles above.) Most battles tell sums, in both languages alike."""
    if len(CHECKED) < len(stories()):
        pytest.skip("run with the battles above")
    assert sum(1 for n in CHECKED.values() if n) >= 16
    assert all(CHECKED[(b, "en")] == CHECKED[(b, "ru")] for b in BATTLES)


def test_the_checker_catches_the_audits_contradiction():
    """The sentence the audit found (a Swiftstride flee told with all three dice) fails it,
    the one told now passes."""
    assert check('Goblin Wolf Riders flee 9" (3+4+5 = 12). (FP.FLEE_ROLL [G])')
    assert not check('Goblin Wolf Riders flee 9" (5+4+(3) = 9, Swiftstride: the lowest of '
                     'three dropped). (FP.FLEE_ROLL [G])')
    assert check("Combat result: a 4 (CR.WOUNDS X +1, CR.RANKS X +2); b 7 (CR.WOUNDS Y +7): b "
                 "win by 2. (CR.WINNER)")
    assert check('X charge range 5+2+(2) + M 9 = 18" against 16.0" to Y: the charge reaches')
    assert check("X (Initiative 3): 14 attacks at Y, 9 hit (4+), 2 wound (5+), 1 saved (armour "
                 "5+, parry 6+), 0 unsaved.")
    line = ("Результат боя: a 4 (CR.WOUNDS X +1, CR.RANKS X +3); b 7 (CR.WOUNDS Y +7): "
            "побеждает b с перевесом 3.")
    assert not check(line) and check(line.replace("перевесом 3", "перевесом 2"))


def test_explain_names_the_special_rules_that_acted_in_a_step():
    """`explain` after a Swiftstride flee, or an Always Strikes First blow, names the special
    rule with what it changes (SPECIAL.REGISTRY: each declaration says where it acts)."""
    from regiment.core.game import Game, find_preset
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore

    from .conftest import EXAMPLES

    game = Game.new(load_scenario(EXAMPLES / "ford_clash.toml"), store=MemoryStore())
    preset = find_preset("fantasy8")
    lines = preset.specials_cited(game.state, ["wolves"], ["FP.FLEE_ROLL"])
    assert lines and lines[0].startswith("Swiftstride (Goblin Wolf Riders; FP.FLEE_ROLL)")
    assert not preset.specials_cited(game.state, ["wolves"], ["ATK.TO_HIT"])
    assert preset.specials_cited(game.state, ["boyz", "spears"], ["CH.RANGE"]) == []
