"""regiment simulate on every core and on a Dask cluster: the same games, the same counts, the
same standard output as on one core (issue 15)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from regiment.core.scenario import load_scenario
from regiment.tools.simulate import chunks, simulate

from .conftest import EXAMPLES


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regiment.tools.cli", "simulate", *args],
                          capture_output=True, text=True, timeout=300)


def test_simulate_on_two_processes_prints_exactly_what_one_prints():
    one = cli("mill_race", "-n", "40", "--jobs", "1", "--seed", "a0")
    two = cli("mill_race", "-n", "40", "--jobs", "2", "--seed", "a0")
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout and "40 games by the bots" in one.stdout
    # the rate goes to standard error, with where the games were played
    assert "games/s on 1 process" in one.stderr and "games/s on 2 processes" in two.stderr


def test_the_seeds_are_split_into_pieces_that_cover_each_once():
    for n, workers in ((1, 4), (7, 2), (1000, 2), (333, 8)):
        pieces = chunks(5, n, workers)
        assert [s for p in pieces for s in p] == list(range(5, 5 + n))
    assert all(len(p) == 1 for p in chunks(0, 10, 1))


def test_the_pieces_shrink_as_the_games_run_out_so_the_workers_finish_together():
    sizes = [len(p) for p in chunks(0, 600, 2)]
    assert sizes == sorted(sizes, reverse=True) and max(sizes) <= 50
    # the last pieces are single games: no worker is left with a long piece while one idles
    assert sizes[-1] == 1 and sum(sizes[-4:]) <= 4 < len(sizes)


def test_simulate_on_a_dask_cluster_of_two_workers_counts_what_one_core_does():
    distributed = pytest.importorskip("distributed")
    scenario = load_scenario(EXAMPLES / "two_targets.toml")
    scenario["dice"] = "seeded"
    alone = simulate(scenario, 24, 7)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        seen: list[int] = []
        spread = simulate(scenario, 24, 7, scheduler=cluster.scheduler_address,
                          advance=seen.append)
    assert spread == alone and sum(seen) == 24
    assert alone["winners"]["red"] > 0


def test_a_scheduler_that_does_not_answer_is_a_clear_error():
    out = cli("mill_race", "-n", "5", "--scheduler", "tcp://127.0.0.1:9")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in out.stderr


@pytest.mark.parametrize("python", [(3, 11, 0), (3, 12, 0)])
def test_simulate_workers_started_beforehand_play_the_same_games(python, monkeypatch):
    """The workers ``simulate`` starts before its progress bar (forked from the command on
    Python 3.11, from a server that loaded the rulebooks on later Pythons) give the same
    tallies as one process."""
    import sys

    from regiment.core.scenario import load_scenario
    from regiment.tools import simulate as sim

    scenario = load_scenario(EXAMPLES / "mill_race.toml")
    scenario["dice"] = "seeded"
    monkeypatch.setattr(sys, "version_info", python)
    pool = sim.workers(2, scenario["preset"])
    monkeypatch.undo()
    assert sim.simulate(scenario, 30, 7, 2, None, None, pool) == sim.simulate(scenario, 30, 7, 1)
