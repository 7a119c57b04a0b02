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
    from regiment.phases.skirmish.assault.steps import charge_rolled  # noqa: F401 - the rule

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
    from regiment.phases.fantasy.reform.rules import contact_kept_at_table
    from regiment.phases.fantasy.state import UnitState

    from . import battle as b

    spears = UnitState.from_scenario(b.scenario([b.unit("s", "blue", models=30, files=5),
                                                 b.unit("o", "red", 10, 40)])["units"][0])
    spears = spears.evolve(position=None, touch=(("o", "front", 5, 0),))   # as counted
    orcs = spears.evolve(id="o", touch=())
    rule, why = contact_kept_at_table(spears, [(orcs, "front")], (3, "", 0, None))
    assert rule == "REF.CONTACT" and "5 models in contact" in why
    assert contact_kept_at_table(spears, [(orcs, "front")], (6, "", 0, None)) == ("", "")


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


# --- a property: no answers within their ranges make a state a mapped game could not reach ---

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from .tabletop import example  # noqa: E402

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def steps_of(game: Game) -> dict[int, list]:
    out: dict[int, list] = {}
    for r in game.records:
        out.setdefault(r.step, []).append(r)
    return out


_FIGHT: list = []


def two_foe_fight() -> Game:
    """A fresh copy of the table-mode two_targets game where a squad fighting two foes is
    about to be counted (found once, by playing it beside geometry)."""
    from regiment.core.record import Draft

    if not _FIGHT:
        played = until_asked(raw("two_targets"), lambda p: p.question.startswith("engaged:"))
        assert played is not None
        g = played.measured
        _FIGHT.append((list(g.records), g.store.get_secret(g.game_id), g.game_id))
    records, seed, gid = _FIGHT[0]
    store = MemoryStore()
    store.append(gid, [Draft(seq=r.seq, step=r.step, type=r.type, v=r.v, data=r.data, at=r.at)
                       for r in records], 0)
    if seed:
        store.put_secret(gid, seed)
    return Game.load(gid, store)


@SETTINGS
@given(shares=st.lists(st.floats(0, 1), min_size=4, max_size=8))
def test_table_measure_random_answers_never_count_more_models_than_a_squad_has(shares):
    """Any answers within each question's own range, from the moment a squad fighting two
    foes is counted: the models counted fighting each foe and splitting never add up to more
    than the squad has (before 0.9.0's check, 4 + 2 + 3 of 6 Assault Marines did)."""
    game = two_foe_fight()
    unit = game.pending.unit
    models = len(game.state.squads[unit].models)
    counted: dict[str, int] = {}
    for share in shares:
        p = game.pending
        if p.kind != "measurement" or not p.question.startswith(f"engaged:{unit}:"):
            break
        value = int(share * p.most)
        counted[p.question] = value
        game.submit({"cmd": "measure", "by": p.player, "value": value})
    assert counted and sum(counted.values()) <= models, counted


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(20, 200))
def test_table_measure_random_play_never_locks_in_an_undeclared_squad(seed, steps):
    """Random legal play at a table, every measurement a random answer in its own range: no
    charge locks in a squad it did not declare (or that was not fighting already)."""
    import random

    from .conftest import random_play

    raw_ = example("two_targets")
    raw_["dice"] = "manual"
    game = Game.new(at_the_table(raw_), store=MemoryStore())
    random_play(game, random.Random(seed), steps, undo_rate=0.0)
    fighting: set[str] = set()
    for batch in steps_of(game).values():
        declared: set[str] = set()
        for r in batch:
            if r.type == "AssaultDeclared":
                declared = {r.data["unit"], r.data["primary"], r.data.get("secondary") or ""}
            if r.type == "MeleeJoined" and declared:
                assert set(r.data["units"]) <= declared | fighting, r.data
            if r.type == "MeleeJoined":
                fighting |= set(r.data["units"])


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(20, 200),
       preset=st.sampled_from(["fantasy8", "fantasy-classic"]))
def test_table_measure_random_answers_never_make_an_unreachable_fantasy_game(seed, steps,
                                                                             preset):
    """The same in the fantasy game: no reform leaves fewer of its models in contact."""
    import random

    from regiment.phases.fantasy.units import touched_at_table

    from .conftest import random_play

    raw = example("ford_clash", preset)
    raw["dice"] = "manual"
    game = Game.new(at_the_table(raw), store=MemoryStore())
    rng = random.Random(seed)
    for _ in range(steps):
        before = game.state
        random_play(game, rng, 1, undo_rate=0.0)
        state = game.state
        for uid, u in state.units.items():
            old = before.units[uid]
            if u.files != old.files and u.status == "engaged" and old.touch:
                had = len({m for e, s, _, _ in old.touch if s == "front"   # each model once
                           and (t := touched_at_table(old, state.units[e])) is not None
                           for m in t[1]})
                assert u.files >= had, f"{uid} reformed {u.files} wide with {had} in contact"
        if game.pending.kind == "over":
            break


def test_fp_fresh_enemy_a_unit_a_pursuit_meets_is_measured_within_the_pursuit():
    """A pursuit of 2" into a unit more than 20" away was taken as said: the unit it meets is
    measured now, and a distance beyond the move is refused (the players undo and say again
    what it meets). The same for a flee through a unit (FP.FLEE_THROUGH)."""
    from regiment.core import measure
    from regiment.phases.fantasy import table

    game = Game.new(at_the_table(raw("ford_clash")), store=MemoryStore())
    boyz = game.state.units["boyz"]
    state = game.state.evolve(answers=((f"pursue_edge:{boyz.id}", "no"),
                                       (f"pursue_into:{boyz.id}", "swords")))
    with pytest.raises(measure.Need) as asked:
        table.pursue(state, boyz, 2.0, lambda: pytest.fail("geometry at a table"))
    q = asked.value.question
    assert (q.key, q.kind, q.rule, q.other, q.most) == (
        "pursue_into_gap:boyz", "distance", "FP.FRESH_ENEMY", "swords", 2.0)
    with pytest.raises(ValueError, match="beyond the 2\" of the move"):
        measure.read(q, 20.5)
    assert measure.read(q, 1.5) == "1.5"
    done = state.evolve(answers=(*state.answers, ("pursue_into_gap:boyz", "1.5")))
    assert table.pursue(done, boyz, 2.0, lambda: pytest.fail("geometry")).fresh == "swords"


def test_table_measure_a_refusal_names_the_pieces_as_the_players_see_them():
    """"boyz has 1 to 5 models" was the id: a refusal says "Orc Boyz"."""
    played = until_asked(raw("ford_clash"), lambda p: p.measure == "count")
    assert played is not None
    game = played.measured
    p = game.pending
    with pytest.raises(IllegalCommand) as refused:
        answer(game, int(p.most) + 1)
    name = game.state.units[p.unit].name
    assert f"{name} has 1 to {int(p.most)} models" in str(refused.value)
