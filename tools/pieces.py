"""``verify --jobs N``: a long log checked in pieces at once, each in a process of its own
forked from the one that holds the records (``verify``: the same report, the same first
record named as one walk names it)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import Any

from regiment.core.errors import CorruptLog, TamperedLog
from regiment.core.events import GameStarted
from regiment.core.game import Game
from regiment.core.record import Record
from regiment.core.walk import walk

from .verify import (
    Rederived,
    Replayed,
    Report,
    Tape,
    TapeDice,
    Window,
    check_chain,
    keep_states,
)

#
# Each record's hash is checked against the hash its predecessor holds, and a step is
# re-derived from the state before it, which a fold of the steps before it gives as a load
# does (no rules: 5x faster than re-deriving them). So the log is cut at step boundaries into
# pieces; each piece checks its records' chain and re-derives its steps in a process of its
# own, forked from this one (which holds the records), from the fold of every step before it.
# Every record is hashed once and every step re-derived once, with the log's own dice (the
# whole tape is read first). The failure named is the one one walk names: a broken chain
# first (the first record of all), then the opening's (already checked here), then, of the
# steps a walk reaches first, the dice's before the rules'.

PIECE_RECORDS = 2_000   # a piece smaller than this is not worth a process
# A step folded before a piece costs about this much of one re-derived, in the forked piece
# (from records, its pages copied as it reads them: dearer than a load's fold). Measured on
# 100,000 events, two pieces, five interleaved runs: 0.2 left the second piece 0.1-0.25 s
# behind the first (0.96 s in all), 0.3-0.5 gave 0.85-0.87 s.
FOLD_COST = 0.4


def pieces_of(records: Sequence[Record], jobs: int) -> list[tuple[int, int]]:
    """Up to ``jobs`` pieces as (first record, end), each from the first record of a step;
    the later ones shorter, by what folding the steps before them costs."""
    if jobs <= 1 or len(records) < 2 * PIECE_RECORDS:
        return [(0, len(records))]
    jobs = min(jobs, len(records) // PIECE_RECORDS)
    # piece k of size s_k costs s_k + FOLD_COST * (what comes before it): equal costs
    weights, before = [], 0.0
    for _ in range(jobs):
        weights.append(1.0 - FOLD_COST * before)
        before += weights[-1]
    total = sum(weights)
    cuts, at = [0], 0.0
    for w in weights[:-1]:
        at += w / total
        i = int(len(records) * at)
        while i < len(records) and records[i].step == records[i - 1].step:
            i += 1
        if cuts[-1] < i < len(records):
            cuts.append(i)
    return list(zip(cuts, [*cuts[1:], len(records)], strict=True))


def can_fork() -> bool:
    """A forked worker inherits the records; where a fork is not offered (or is warned
    against: Python 3.12 on), one walk checks the log."""
    import multiprocessing
    import sys

    return sys.version_info < (3, 12) and "fork" in multiprocessing.get_all_start_methods()


# (0: the chain's / 1: a walk's, step, 0: the dice's / 1: the rules' / 2: the fold's before
# a piece, seq, reason): the least is named
Failure = tuple[int, int, int, int, str]

_SHARED: dict[str, Any] = {}   # what a forked piece reads: set before the fork, never sent


def in_pieces(records: Sequence[Record], started: GameStarted, tape: Tape, report: Report,
              advance: Callable[[int], None], pieces: list[tuple[int, int]],
              chained: Sequence[bytes] | None = None) -> None:
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    failures: list[Failure] = []
    try:
        walk(records, [tape], {})
    except TamperedLog as exc:   # the dice after it are not on the tape: a piece may fail
        failures.append(_failure(records, exc, 1, 0))   # for that, and is named after it
    except CorruptLog:
        raise Undecodable from None
    _SHARED.update(records=records, started=started, faces=tape.faces, chained=chained)
    # The records go to the pieces by fork, as shared pages; frozen, they are left out of
    # the collections a piece runs, which would otherwise write to every one of them and
    # copy its pages (as the gc module's documentation advises for a fork). Measured on
    # 100,000 events, five interleaved runs: 0.80 s (0.79-0.86) against 0.83 (0.80-0.91),
    # and once 1.47 (1.09-1.84) when the run before had left the collector's counts high.
    gc.freeze()
    try:
        with ProcessPoolExecutor(len(pieces), mp_context=get_context("fork")) as pool:
            running = [pool.submit(_piece, lo, hi) for lo, hi in pieces]
            for done in as_completed(running):
                steps, failure, undecodable = done.result()
                if undecodable:
                    raise Undecodable
                report.steps += steps
                advance(steps)
                if failure is not None:
                    failures.append(failure)
    finally:
        gc.unfreeze()
        _SHARED.clear()
    if failures:
        *_, seq, reason = min(failures)
        raise TamperedLog(reason, seq=None if seq < 0 else seq)


def _failure(records: Sequence[Record], exc: TamperedLog, where: int, kind: int) -> Failure:
    seq = exc.seq if exc.seq is not None else -1
    step = records[seq].step if 0 <= seq < len(records) else len(records)
    return where, step if where else seq, kind, seq, exc.reason


def _piece(lo: int, hi: int) -> tuple[int, Failure | None, bool]:
    """In a forked worker: records ``lo`` to ``hi`` (whole steps) chained and re-derived
    from the fold of those before them; how many steps, the first failure, and whether a
    record did not decode (CorruptLog: one walk then says what is named, see ``verify``)."""
    records: Sequence[Record] = _SHARED["records"]
    started: GameStarted = _SHARED["started"]
    try:
        data = check_chain(records, lo, hi, _SHARED["chained"])
    except TamperedLog as exc:
        return 0, _failure(records, exc, 0, 0), False
    report = Report()
    dice = TapeDice(started.dice, started.dice_commitment, _SHARED["faces"])
    store = Replayed(records, Window(lo, data), _SHARED["chained"] is not None)
    rederived = Rederived(started, dice, report, lambda k: None, store)
    try:
        if lo > 0:
            try:
                rederived.game = keep_states(Game.from_records(records[:lo], store=store,
                                                               dice=dice))
            except TamperedLog as exc:   # (the piece before re-derives those steps: its
                return 0, _failure(records, exc, 1, 2), False   # failure there comes first)
        try:
            walk(records[lo:hi], [rederived], {})
        except TamperedLog as exc:
            return report.steps, _failure(records, exc, 1, 1), False
    except CorruptLog:
        return report.steps, None, True
    return report.steps, None, False


class Undecodable(Exception):
    """A record of the log does not decode (a CorruptLog in a piece or in the dice's walk):
    whether one walk names it or a broken chain before it, one walk says (rare: a log
    damaged so; the pieces' steps are then checked again)."""
