"""LOG.RECEIPT: receipts signed with the server's Ed25519 key, and what a forged one looks like."""

from __future__ import annotations

import json
import os
import stat

import pytest

from regiment.core.errors import BadRequest, TamperedLog
from regiment.tools.server.signing import ServerKey, check_signed, read_receipts


def test_LOG_RECEIPT_a_signed_receipt_checks_and_any_change_to_it_does_not(tmp_path):
    key = ServerKey.load_or_create(tmp_path / "k.pem")
    assert stat.S_IMODE(os.stat(tmp_path / "k.pem").st_mode) == 0o600
    assert ServerKey.load_or_create(tmp_path / "k.pem").public == key.public   # kept
    receipt = key.sign("g1", 7, "ab" * 32)
    assert check_signed(receipt, "here").step == 7
    for field, other in (("game", "g2"), ("step", 8), ("head", "cd" * 32)):
        with pytest.raises(TamperedLog, match="signature does not match"):
            check_signed({**receipt, field: other}, "here")
    stranger = ServerKey.load_or_create(tmp_path / "other.pem")
    with pytest.raises(TamperedLog, match="signature does not match"):
        check_signed({**receipt, "key": stranger.public}, "here")


@pytest.mark.parametrize("bad, says", [
    ([1, 2], "a JSON object"), ({"step": 1}, "no game"),
    ({"game": "g", "step": -1}, "whole number"), ({"game": "g", "step": True}, "whole number"),
    ({"game": "g", "step": 1, "head": "zz"}, "head is not 64"),
])
def test_a_malformed_receipt_is_a_clear_error(bad, says):
    with pytest.raises(BadRequest, match=says):
        check_signed(bad, "receipts.jsonl line 1")


def test_receipts_of_other_games_are_left_and_a_pinned_key_is_enforced(tmp_path):
    key = ServerKey.load_or_create(tmp_path / "k.pem")
    lines = [json.dumps(key.sign("g1", 3, "ab" * 32)), "", json.dumps(key.sign("g2", 4, "cd" * 32))]
    found = read_receipts(lines, "r.jsonl", "g1", None)
    assert [(r.step, r.code) for r in found] == [(3, "ab" * 32)]
    with pytest.raises(TamperedLog, match="not by the server's key"):
        read_receipts(lines, "r.jsonl", "g1", "00" * 32)
    with pytest.raises(BadRequest, match="no receipt of game g3"):
        read_receipts(lines, "r.jsonl", "g3", None)
    with pytest.raises(BadRequest, match="line 1: not JSON"):
        read_receipts(["{oops"], "r.jsonl", "g1", None)
