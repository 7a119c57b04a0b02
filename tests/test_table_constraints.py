"""Table mode checks each answer against the earlier answers and what the rules know, not
only against its own range: the audit's four cases (docs/rules.md, "What table mode checks")."""

from __future__ import annotations

import tomllib

import pytest

from regiment.core.errors import IllegalCommand
from regiment.core.game import Game
from regiment.store import MemoryStore

from .conftest import EXAMPLES
from .tabletop import at_the_table, until_asked


def raw(name: str) -> dict:
    return tomllib.loads((EXAMPLES / f"{name}.toml").read_text(encoding="utf-8"))


def answer(game: Game, value: object) -> None:
    game.submit({"cmd": "measure", "by": game.pending.player, "value": value})


def test_sk_engaged_the_models_fighting_each_foe_and_those_splitting_add_up_to_the_squad():
    """6 Assault Marines were answered 4 + 2 + 3 = 9 models, and rolled 18 attack dice: now
    each count allows only what the counts before it left over (SK.ENGAGED, SK.ALLOCATE)."""
    played = until_asked(raw("two_targets"), lambda p: p.question.startswith("engaged:"))
    assert played is not None, "the battle never counted models fighting two foes"
    game = played.measured
    first = game.pending
    squad = game.state.squads[first.unit]
    n = len(squad.models)
    answer(game, n - 1)
    second = game.pending
    assert second.kind == "measurement" and second.most == 1
    before = (game.version, game.head)
    with pytest.raises(IllegalCommand) as refused:
        answer(game, 2)
    assert refused.value.rule == second.rule and (game.version, game.head) == before
    answer(game, 1)
    pending = game.pending   # the splitters: none left to count, so not asked
    assert not (pending.kind == "measurement" and pending.question.startswith(
        f"engaged:{first.unit}:"))


def test_sk_charge_move_a_charge_touches_only_its_primary_and_secondary_targets():
    """Seed 004: the models move "к первичной и вторичной целям": a charge declared at one
    squad is never offered another it did not declare."""
    from regiment.phases.skirmish.flow_assault import charge_rolled  # noqa: F401 - the rule

    played = until_asked(raw("two_targets"), lambda p: p.question.startswith("touches:"))
    if played is None:   # no secondary target was declared: nothing else may be touched
        game = Game.new(at_the_table(raw("two_targets")), store=MemoryStore())
        asked = [r.data["question"]["key"] for r in game.records
                 if r.type == "MeasurementRequested"]
        assert not any(k.startswith("touches:") for k in asked)
        return
    p = played.measured.pending
    assault = played.measured.state.assault
    assert assault is not None and tuple(p.options) == (assault.secondary,)


def test_ref_contact_a_reform_keeps_at_least_as_many_models_in_contact_at_the_table():
    """30 steadfast spearmen with 5 models in contact reformed 3 wide: a reform narrower than
    the models in contact is not offered, and is refused with REF.CONTACT."""
    from regiment.phases.fantasy.pursuit import _contact_kept_at_table
    from regiment.phases.fantasy.state import UnitState

    from . import battle as b

    spears = UnitState.from_scenario(b.scenario([b.unit("s", "blue", models=30, files=5),
                                                 b.unit("o", "red", 10, 40)])["units"][0])
    spears = spears.evolve(position=None)
    touching = type(spears).touch
    try:
        type(spears).touch = (("o", "front", 5, 0),)   # what the players counted
        orcs = spears.evolve(id="o")
        rule, why = _contact_kept_at_table(spears, [(orcs, "front")], (3, "", 0, None))
        assert rule == "REF.CONTACT" and "5 models in contact" in why
        assert _contact_kept_at_table(spears, [(orcs, "front")], (6, "", 0, None)) == ("", "")
    finally:
        type(spears).touch = touching


def test_fp_flee_through_a_unit_never_passes_through_the_one_it_flees_from():
    """FP.FLEE_DIRECTION: it flees straight away from its enemy, so that enemy is not among
    the units the players may say it passed through."""
    from regiment.core import measure
    from regiment.phases.fantasy import table

    game = Game.new(at_the_table(raw("ford_clash")), store=MemoryStore())
    state = game.state
    spears, boyz = state.units["spears"], state.units["boyz"]
    key = f"flee_edge:{spears.id}"
    state = state.evolve(answers=((key, "no"),))   # it does not reach the table edge
    with pytest.raises(measure.Need) as asked:
        table.flee(state, spears, boyz, 7.0, lambda: pytest.fail("geometry at a table"))
    q = asked.value.question
    assert q.key == f"flee_through:{spears.id}" and q.rule == "FP.FLEE_THROUGH"
    assert "boyz" not in q.options and "wolves" in q.options and "none" in q.options
