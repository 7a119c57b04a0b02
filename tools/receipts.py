"""Receipts (LOG.RECEIPT): the heads a player noted during a game, checked against a log later.

A step's head is the hash of its last record; through the hash chain it stands for the whole
log up to that step. A log that verifies on its own may still have been cut (whole steps
taken off its end) or forked (rewritten from some step on and re-hashed): only someone who
kept a head from the real game can tell. ``serve`` answers carry the head, ``play`` shows
its first 10 hex digits at each turn's end, and ``verify --head [STEP:]CODE`` checks them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from regiment.core.errors import TamperedLog
from regiment.core.record import Record, step_heads

MIN_DIGITS = 10
_RECEIPT = re.compile(r"^(?:(\d{1,9})[:=])?([0-9a-fA-F]{10,64})$")


@dataclass(frozen=True)
class Receipt:
    code: str               # lower-case hex: the whole head or a prefix of 10+ digits
    step: int | None = None
    party: str | None = None   # a seat's signature of the head (shared dice), with its key
    key: str | None = None

    def __str__(self) -> str:
        return f"{self.step}:{self.code}" if self.step is not None else self.code


def parse_receipt(text: str) -> Receipt:
    """``CODE`` or ``STEP:CODE``, CODE the whole head or its first 10 or more hex digits."""
    m = _RECEIPT.match(text.strip())
    if m is None:
        raise ValueError(f"{text!r} is not a receipt: give a head's first {MIN_DIGITS} to 64 "
                         "hex digits, optionally after its step number (57:3fa9c0d1e2)")
    return Receipt(m.group(2).lower(), int(m.group(1)) if m.group(1) else None)


def seat_keys(records: Sequence[Record]) -> dict[str, str]:
    """Each party's key, from its commitment in the log (shared dice)."""
    out = {}
    for r in records:
        if r.type == "DiceCommitted":
            d = r.data if isinstance(r.data, dict) else r.data.to_data()
            out[d["party"]] = d["key"]
    return out


def short(head: bytes | str) -> str:
    """The code players note: a head's first 10 hex digits."""
    text = head.hex() if isinstance(head, bytes) else head
    return text[:MIN_DIGITS]


def check_receipts(records: Sequence[Record], receipts: Sequence[Receipt]) -> None:
    """Raise TamperedLog, naming the step, for the first receipt this log does not hold:
    its head is no step's head here (the log was cut or forked before it), or is another
    step's head than the receipt says."""
    heads = {digest.hex(): step for step, digest in step_heads(records).items()}
    keys = seat_keys(records) if any(r.party for r in receipts) else {}
    by_step = {s: h for h, s in heads.items()}
    for receipt in receipts:
        if receipt.party is None:
            continue
        if keys.get(receipt.party) != receipt.key:
            raise TamperedLog(f"{receipt.party}'s signature of step {receipt.step} is by key "
                              f"{str(receipt.key)[:16]}..., not the key of its commitment in "
                              "this log")
        if receipt.step in by_step and by_step[receipt.step] != receipt.code:
            raise TamperedLog(
                f"{receipt.party} signed head {receipt.code[:10]} at step {receipt.step}; "
                f"this log's head there is {by_step[receipt.step][:10]}: the host showed "
                f"{receipt.party} another game (a split view), or changed it since")
    last = records[-1] if records else None
    for receipt in receipts:
        found = [(h, s) for h, s in heads.items() if h.startswith(receipt.code)]
        said = f" (step {receipt.step})" if receipt.step is not None else ""
        if len(found) > 1:
            raise TamperedLog(f"the receipt {receipt.code}{said} matches the heads of steps "
                              f"{', '.join(str(s) for _, s in found)}: give more digits")
        if not found:
            inside = next((r for r in records if r.hash.hex().startswith(receipt.code)), None)
            if inside is not None:
                raise TamperedLog(f"the receipt {receipt.code}{said} is record {inside.seq} "
                                  f"in the middle of step {inside.step}, not a step's head")
            end = (f"this log ends at step {last.step} (head {short(last.hash)})"
                   if last is not None else "this log is empty")
            by_step = {s: h for h, s in heads.items()}
            if receipt.step is not None and receipt.step in by_step:
                own = by_step[receipt.step][:len(receipt.code)]
                typo = sum(a != b for a, b in zip(own, receipt.code, strict=True)) <= 2
                raise TamperedLog(
                    f"the receipt {receipt.code} (step {receipt.step}) is not in this log: its "
                    f"head at step {receipt.step} is {own}; compare it with the sheet"
                    + (" (a digit or two apart: miscopied?)" if typo else
                       ": if the sheet is right, the game was changed (forked) before that "
                       "step"))
            raise TamperedLog(f"the receipt {receipt.code}{said} is not in this log: {end}; "
                              "the game was cut short or changed (forked) before that head")
        step = found[0][1]
        if receipt.step is not None and step != receipt.step:
            raise TamperedLog(f"the receipt {receipt.code} is step {receipt.step}'s head, but "
                              f"in this log it is step {step}'s: steps were added or taken out "
                              "before it")
