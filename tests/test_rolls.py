"""Typed continuations (phases/fantasy/rolls.py): what a roll is for is a value, written to the
log's ``RollRequested.about`` in exactly the form every earlier engine wrote."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regiment.core.about import BY_PURPOSE, from_legacy_text, legacy_text, of, tagged, typed
from regiment.phases.fantasy.rolls import (
    AttackRoll,
    FleeRoll,
    FleeTie,
    Nothing,
    ReformTo,
    SideRoll,
    Toward,
)

# what each roll purpose's ``about`` holds, as the flow asks for it (a purpose not named here
# holds nothing)
FOR_PURPOSE = {
    "random_side": SideRoll, "flee": FleeRoll, "redirect": Toward, "charge_range": Toward,
    "pursuit": Toward, "overrun": Toward, "dangerous_terrain": Toward,
    "to_hit": AttackRoll, "stand_and_shoot_hit": AttackRoll, "to_wound": AttackRoll,
    "armour": AttackRoll, "ward": AttackRoll, "random_choice": FleeTie, "reform": ReformTo,
}

ids = st.from_regex(r"[a-z0-9_-]{1,12}", fullmatch=True)


@given(st.one_of(
    st.builds(SideRoll, ids, st.sampled_from(["declare_charge", "redirect"]),
              st.tuples(st.sampled_from(["front", "left"]), st.sampled_from(["rear", "right"]))),
    st.builds(FleeRoll, st.sampled_from(["charge_reaction", "panic", "rally", "combat"]),
              st.one_of(st.just(""), ids)),
    st.builds(Toward, st.one_of(st.just(""), ids)),
    st.builds(AttackRoll, st.integers(0, 40), st.sampled_from(["hit", "wound", "armour"])),
    st.builds(FleeTie, st.lists(ids, min_size=2, max_size=4).map(tuple)),
    st.builds(ReformTo, st.integers(1, 20), st.one_of(st.just(""), ids),
              st.integers(-180, 180)),
    st.just(Nothing())))
def test_a_continuation_reads_back_as_itself(value):
    assert type(value).parse(value.text()) == value
    about = tagged(value)
    if value.text() == "":      # none: a purpose that says it all, a roll toward no one
        assert about is None and of(type(value), typed(about)) == value
    else:
        assert about["kind"] == value.KIND and ":" not in json.dumps(about["kind"])
        again = json.loads(json.dumps(about))   # as a log or the wire carries it
        assert typed(again) == value
        assert from_legacy_text(_PURPOSE_OF[type(value)], value.text()) == about
        assert legacy_text(again) == value.text()


_PURPOSE_OF = {kind: purpose for purpose, kind in BY_PURPOSE.items()}


def test_a_roll_of_another_kind_or_an_unknown_kind_is_a_corrupt_log():
    import pytest

    from regiment.core.errors import CorruptLog

    with pytest.raises(CorruptLog, match="unknown kind 'nope'"):
        typed({"kind": "nope"})
    with pytest.raises(CorruptLog, match="needs"):
        typed({"kind": "attack_roll", "group": 1})
    with pytest.raises(CorruptLog, match="not a attack_roll"):
        of(AttackRoll, Toward("x"))
    with pytest.raises(CorruptLog, match="no rulebook knows"):
        from_legacy_text("no_such_purpose", "a:b")


def _old_logs() -> list[Path]:
    return sorted(p for p in (Path(__file__).parent / "data").glob("v0.*/*.jsonl"))


def test_every_continuation_of_every_old_log_upcasts_to_a_tagged_map_and_writes_back():
    """LOG.RULINGS: each ``about`` an engine from 0.3.0 to 0.12.0 wrote reads, where it is
    decoded, as a map tagged with its kind, and a game that engine began writes it back as it
    was (``as_written``): the same bytes, the same hashes."""
    from regiment.core.events import RollRequested
    from regiment.core.upcast import as_written, decode_event

    seen: set[str] = set()
    for path in _old_logs():
        for line in path.read_text().splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if not isinstance(r, dict) or r.get("type") != "RollRequested" or r.get("v") != 1:
                continue
            e = decode_event("RollRequested", 1, r["data"])
            assert isinstance(e, RollRequested) and e.v == 2
            assert e.about is None or isinstance(e.about, dict)
            if e.about is not None:
                seen.add(e.about["kind"])
            old = as_written(e, (0, 12, 0))
            assert old is not None and old[0] == 1
            assert old[1] == {**r["data"], "about": r["data"].get("about", "")}, path.name
    assert {"toward", "attack_roll", "reform_to", "flee_roll"} <= seen, seen


def test_a_new_game_writes_no_text_packed_with_separators_in_its_rolls():
    """DESIGN: a roll's continuation is a tagged map in a new log, and every reason is a code
    of its field's set with the rule that decided it (the bundled battles, played by the
    bots)."""
    from regiment.core.about import KINDS
    from regiment.core.game import Game
    from regiment.core.reasons import REASON_FIELDS
    from regiment.core.scenario import load_scenario
    from regiment.store import MemoryStore
    from regiment.tools.bot import choose

    examples = Path(__file__).parent.parent / "examples"
    kinds: set[str] = set()
    reasons: set[str] = set()
    for battle in ("border_patrol", "the_brood"):
        game = Game.new(load_scenario(examples / f"{battle}.toml"),
                        store=MemoryStore())
        while not game.state.over:
            game.submit(choose(game))
        for r in game.records:
            if r.type == "RollRequested":
                assert r.v == 2
                about = r.data.get("about")
                assert about is None or (isinstance(about, dict) and about["kind"] in KINDS)
                if about:
                    kinds.add(about["kind"])
                    assert not any(isinstance(v, str) and ":" in v for v in about.values())
            for name, field in REASON_FIELDS.get(r.type, {}).items():   # one reason shape
                if name in r.data:
                    why = r.data[name]
                    assert isinstance(why, dict) and why["rule"] and \
                        why["code"] in field.codes, (r.type, why)
                    reasons.add(r.type)
    assert {"toward", "attack_roll"} <= kinds, kinds
    assert {"UnitDestroyed", "BreakTestTaken"} <= reasons, reasons


def test_every_about_a_030_log_holds_reads_and_writes_back_the_same():
    data = Path(__file__).parent / "data" / "v0.3.0"
    seen = set()
    for name in ("published.jsonl", "secret.jsonl"):
        for line in (data / name).read_text().splitlines():
            r = json.loads(line)
            if r["type"] != "RollRequested":
                continue
            about, kind = r["data"]["about"], FOR_PURPOSE.get(r["data"]["purpose"], Nothing)
            assert kind.parse(about).text() == about, (r["data"]["purpose"], about)
            seen.add(kind)
    assert {Toward, AttackRoll, Nothing} <= seen


def _strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{where}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _strings(v, f"{where}[{i}]")


# free text a log keeps as the players gave it: names, a told refusal's English words, the
# times a record was written, the dice's public commitment
FREE = ("GameStarted.", ".text", ".at", "DiceCommitted.")


@pytest.mark.parametrize("battle", ["border_patrol", "the_brood", "chariot_and_giant"])
def test_a_new_log_holds_no_colon_packed_string_in_either_mode(battle: str) -> None:
    """DESIGN: a continuation, a question's key and a reason are maps in a new log; nothing a
    program reads out of it is text packed with separators (the battle played by the bots on
    geometry, and again in table mode with the answers geometry gave)."""
    from .tabletop import example, lockstep

    played = lockstep(example(battle))
    asked = 0
    for game in (played.known, played.measured):
        for r in game.history:
            asked += r.type == "MeasurementRequested"
            for where, text in _strings(dict(r.data), r.type):
                if not any(f in where for f in FREE):
                    assert ":" not in text and ";" not in text, (where, text)
    assert asked > 10, asked
