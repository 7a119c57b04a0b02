"""Old events stay readable through upcasters; unknown types and versions are never guessed."""

from __future__ import annotations

import pytest

from regiment.core.errors import UnknownEventType
from regiment.core.events import Event, event
from regiment.core.upcast import UPCASTERS, decode_event, upcaster


@event("MarchedForTest", v=3)
class MarchedForTest(Event):
    unit: str
    inches: float
    reason: str


@upcaster("MarchedForTest", 1)
def _v1(data):  # v1 measured centimetres
    return {"unit": data["unit"], "inches": data["cm"] / 2.54}


@upcaster("MarchedForTest", 2)
def _v2(data):
    return {**data, "reason": "march"}


def test_old_versions_are_upcast_step_by_step():
    e = decode_event("MarchedForTest", 1, {"unit": "boyz", "cm": 25.4})
    assert e == MarchedForTest(unit="boyz", inches=10.0, reason="march")
    current = {"unit": "a", "inches": 1.0, "reason": "r"}
    assert decode_event("MarchedForTest", 3, current).unit == "a"


def test_unknown_types_and_versions_are_refused():
    with pytest.raises(UnknownEventType, match="unknown event type 'Teleported'"):
        decode_event("Teleported", 1, {})
    with pytest.raises(UnknownEventType, match="newer than this engine"):
        decode_event("MarchedForTest", 4, {})
    del UPCASTERS[("MarchedForTest", 1)]
    try:
        with pytest.raises(UnknownEventType, match="no upcaster"):
            decode_event("MarchedForTest", 1, {"unit": "a", "cm": 1})
    finally:
        UPCASTERS[("MarchedForTest", 1)] = _v1


def test_event_data_of_the_wrong_shape_is_corrupt():
    from regiment.core.errors import CorruptLog

    with pytest.raises(CorruptLog, match=r"MarchedForTest\.inches"):
        decode_event("MarchedForTest", 3, {"unit": "a", "inches": "far", "reason": "r"})
    with pytest.raises(CorruptLog, match="missing field"):
        decode_event("MarchedForTest", 3, {"unit": "a"})
