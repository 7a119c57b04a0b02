"""Typed continuations (phases/fantasy/rolls.py): what a roll is for is a value, written to the
log's ``RollRequested.about`` in exactly the form every earlier engine wrote."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

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
