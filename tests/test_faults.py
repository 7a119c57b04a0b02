"""The fault suite's short round (tests/faults.py has the faults and what each may end in):
kill -9 of a writer on both stores, torn tails at every byte of the last step, single-byte
flips over every artefact, a cut at every step boundary against receipts, fuzzed serve lines.
Nothing acknowledged is lost, no half step is loaded, every change is caught, refused or
flagged, and nothing crashes. ``make faults`` runs the long round and prints the figures."""

from __future__ import annotations

import pytest

from . import faults


@pytest.fixture(scope="module")
def tallies():
    return {t.name: t for t in faults.run(scale=1)}


def test_the_fault_suite_loses_nothing_and_crashes_nowhere(tallies):
    bad = [e for t in tallies.values() for e in t.examples]
    assert not any(t.bad for t in tallies.values()), "\n".join(bad)
    assert all(t.tried for t in tallies.values())


def test_a_killed_writer_keeps_every_acknowledged_step_and_frees_the_game(tallies):
    for kind in ("sqlite", "logfile"):
        t = tallies[f"kill -9 of a writer: {kind}"]
        assert t.counts["intact"] == t.tried == 3


def test_a_torn_tail_is_read_up_to_its_last_whole_step_and_said(tallies):
    t = tallies["torn tail: log file"]
    assert t.counts["flagged"] == t.tried > 50      # every byte of the last step's frames
    assert tallies["torn tail: SQLite WAL"].counts["intact"] == tallies[
        "torn tail: SQLite WAL"].tried
    for kind in ("export", "record"):
        t = tallies[f"torn tail: {kind}"]
        assert t.counts["refused"] == t.tried


def test_store_damage_inside_a_log_file_is_refused_and_never_cut(tallies):
    t = tallies["damage inside a log file (not a torn tail)"]
    assert t.counts["refused"] + t.counts["caught"] + t.counts["intact"] == t.tried > 100


def test_every_flipped_byte_that_matters_is_caught_or_refused(tallies):
    for kind in ("sqlite", "logfile", "export", "record"):
        t = tallies[f"byte flips: {kind}"]
        assert t.counts["caught"] + t.counts["refused"] + t.counts["flagged"] \
            + t.counts["intact"] == t.tried == 40
        assert t.counts["caught"] + t.counts["refused"] > 0


def test_log_receipt_a_cut_at_every_step_boundary_is_caught_by_the_last_receipt(tallies):
    held = tallies["cut at a step boundary: with the last receipt"]
    assert held.counts["caught"] == held.tried > 10
    alone = tallies["cut at a step boundary, no receipt (only a receipt can tell)"]
    assert alone.counts["intact"] == alone.tried      # the hole receipts close (README)
    cut = tallies["cut at a step boundary: export without its closing line"]
    assert cut.counts["refused"] == cut.tried


def test_fuzzed_serve_lines_are_answered_and_refusals_change_nothing(tallies):
    for name in ("fuzzed serve lines", "fuzzed serve lines: a real process"):
        t = tallies[name]
        assert t.counts["refused"] > 0 and t.counts["refused"] + t.counts["intact"] == t.tried


def test_server_limits_hostile_clients_are_refused_and_leave_no_traceback(tallies):
    t = tallies["hostile clients of the game server"]
    assert t.counts["refused"] == t.tried == 12


def test_hostile_rows_refuse_everything_and_lose_nothing(tallies):
    """Issue 55 item 9: the hostile commands and scenarios are all refused, nothing crashes,
    no flipped SQLite record is read as another log, and repair keeps every record of a log
    whose frames were duplicated, swapped or had a CRC word hit."""
    for name in ("hostile commands: numbers, lists, paths (issue 55)",
                 "hostile scenarios: numbers, polygons (issue 55)"):
        t = tallies[name]
        assert t.counts["refused"] == t.tried > 20, (t.counts, t.examples)
    assert "a real step" in tallies["hostile commands: numbers, lists, paths (issue 55)"].measured
    flips = tallies["byte flips in SQLite records: read as another log (issue 55)"]
    assert flips.bad == 0 and flips.counts["caught"] == 0 and flips.counts["refused"] > 10
    mended = tallies["repair: frames duplicated, swapped, CRC word hit (issue 55)"]
    assert mended.counts["intact"] == mended.tried > 10, mended.examples
