"""docs/rules.md is the rule reference: every rule the code cites is in it, and every rule it
calls implemented has a test named after it (CH.RANGE -> test_ch_range_*)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE = re.compile(r"\b([A-Z]{2,6}\.[A-Z][A-Z_]+)\b")


def reference() -> dict[str, str]:
    """Each rule ID written in bold in a bullet, with the status that follows it there."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    bullets = re.split(r"\n(?=- )", text)
    status = {}
    for bullet in bullets:
        for m in re.finditer(r"\*\*([A-Z]{2,6}\.[A-Z][A-Z_]+)\*\*", bullet):
            after = re.search(r"\((implemented|partial|planned)\)", bullet[m.end():])
            if after:
                status[m.group(1)] = after.group(1)
    return status


def cited_in_code() -> set[str]:
    found = set()
    for folder in ("core", "phases", "store", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(RULE.findall(path.read_text(encoding="utf-8")))
    return found


def names_of_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names |= set(re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8")))
    return names


def test_every_rule_the_code_cites_is_in_the_reference():
    known = reference()
    missing = sorted(cited_in_code() - set(known))
    assert not missing, f"cited in code but not in docs/rules.md: {missing}"


def test_every_implemented_rule_has_a_test_named_after_it():
    names = names_of_tests()
    untested = [rule for rule, status in reference().items() if status == "implemented"
                and not any(n.startswith("test_" + rule.lower().replace(".", "_"))
                            for n in names)]
    assert not untested, f"implemented rules without a test named after them: {untested}"


# Every rule ID of the specification this project was built from (71 IDs); the reference
# restates each of them in our own words.
SPEC_IDS = """
ATK.ARMOUR ATK.CASUALTIES ATK.CATEGORIES ATK.SEQUENCE ATK.TO_HIT ATK.TO_HIT_SHOOTING
ATK.TO_WOUND ATK.WARD BT.DISRUPTED BT.SPECIAL BT.STEADFAST BT.TEST BT.WHO CC.ASF CC.CHALLENGE
CC.INITIATIVE CC.ORDER CC.WHO_FIGHTS CH.CATCH_FLEEING CH.CHARGE_MOVE CH.DECLARE CH.FAILED
CH.MOVE_ORDER CH.RANGE CH.REACT CH.REDIRECT CR.BOOKKEEPING CR.BSB CR.CHARGE CR.FLANK
CR.HIGH_GROUND CR.MUSICIAN CR.NO_MORE_FOES CR.OVERKILL CR.RANKS CR.REAR CR.STANDARD CR.WINNER
CR.WOUNDS FP.CAUGHT FP.CHOOSE_PURSUIT FP.FLEE_DIRECTION FP.FLEE_ROLL FP.FLEE_THROUGH
FP.FRESH_ENEMY FP.MULTI_ORDER FP.OFF_TABLE FP.OVERRUN FP.PIVOT_CONTACT FP.PURSUE_MOVE
FP.PURSUE_ROLL GEO.ARCS LD.INSANE LD.TEST PANIC.TRIGGERS RALLY.TEST REF.CONTACT REF.ORDER
REF.PLACEMENT REF.TEST REF.WHO SK.ALLOCATE SK.CHARGE_MOVE SK.CONSOLIDATE SK.DECLARE
SK.OVERWATCH SK.RESULT SK.SWEEP SK.TERRAIN TURN.ORDER UNIT.FULL_RANK
""".split()


def test_the_reference_restates_every_rule_of_the_specification():
    assert len(SPEC_IDS) == 71
    missing = sorted(set(SPEC_IDS) - set(reference()))
    assert not missing, f"rules of the specification missing from docs/rules.md: {missing}"
