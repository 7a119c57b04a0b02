"""One walk over a log feeds every tool that reads one (core.walk), as python-chess's PGN
visitors do: the story, the replay page's frames, inspect's rows and a record's commands are
visitors of the same walk."""

from __future__ import annotations

from regiment.core import walk as walking
from regiment.core.walk import Step, walk
from regiment.tools.html import Frames
from regiment.tools.inspect import Rows as InspectRows
from regiment.tools.record import Commands
from regiment.tools.replay import Narrator, narrate

from .test_golden import story


def undone_near_the_end(name: str, player: str):
    """The golden battle played by the bots to its last step, that step not made, and the
    step before it undone: a log with a branch (a finished game takes no undo, GAME.OVER)."""
    from regiment.core.game import Game
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.bot import choose

    from .conftest import EXAMPLES

    _, played = story(name)
    steps = len(played.timeline.steps)
    scenario = load_scenario(EXAMPLES / f"{name}.toml")
    scenario["seed"] = scenario["seed"] or "60de"
    game = Game.new(scenario, store=MemoryStore(), game_id=f"walk-{name}")
    while len(game.timeline.steps) < steps - 2 and game.pending.kind != "over":
        game.submit(choose(game))
    game.undo(player)
    return game


class Seen:
    """A visitor that keeps what it was shown."""

    events = False

    def __init__(self, states: bool) -> None:
        self.states = states
        self.steps: list[Step] = []

    def visit(self, step: Step) -> None:
        self.steps.append(step)

    def end(self, branches):
        return [s.number for s in self.steps], dict(branches)


def test_one_walk_feeds_every_visitor_each_step_once_decoding_each_record_once(monkeypatch):
    game = undone_near_the_end("orcs_vs_empire", "orcs")   # a step undone: its branch shows
    records = list(game.records)
    decoded = []
    real = walking.decode_event
    monkeypatch.setattr(walking, "decode_event",
                        lambda *a, **k: decoded.append(a[0]) or real(*a, **k))
    status = game.timeline.status()
    plain, folded = Seen(False), Seen(True)
    told, shown, rows, commands, seen_plain, seen_folded = walk(
        records, [Narrator(game), Frames(records), InspectRows("t"), Commands(False), plain,
                  folded], status)
    n = len(game.timeline.steps)
    assert seen_plain[0] == seen_folded[0] == list(range(n))
    assert seen_folded[1] == status and status[n - 1] == "meta"
    assert len(decoded) == len(records)          # once each, though two visitors fold
    assert told == list(narrate(game, records)) and len(shown) == n
    assert rows.row_count == len(records) and commands
    assert {s.branch for s in plain.steps} == set(status.values())
    assert all(s.after is not None and s.events is not None for s in folded.steps)


def test_a_walk_with_no_visitor_that_folds_decodes_nothing(monkeypatch):
    _, game = story("the_brood")
    decoded = []
    monkeypatch.setattr(walking, "decode_event", lambda *a, **k: decoded.append(a) or None)
    (numbers, _), = walk(list(game.records), [Seen(False)], game.timeline.status())
    assert numbers == list(range(len(game.timeline.steps))) and decoded == []


def test_without_branches_the_walk_works_them_out_for_the_end():
    game = undone_near_the_end("the_brood", "red")
    (_, branches), = walk(list(game.records), [Seen(False)])
    assert branches == game.timeline.status()
