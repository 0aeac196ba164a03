"""The dask backend against real clusters: a scheduler and two workers started as separate
processes with dask's own command-line tools on 127.0.0.1 (``--dask-address`` / an address
given to the API), a local cluster the runner makes itself (``--backend dask``), and a
worker killed in the middle of a run: every game is played and written exactly once.

Only loopback addresses are used.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from run_helpers import assert_same_tables

from hansa_lab.sim.runner import open_results, simulate
from hansa_lab.tools import cli

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DASK = Path(sys.executable).parent / "dask"
SCRIPT = Path(sys.executable).parent / "hansa-lab"
LINEUP = ["test_sleepy", "random:gather=false", "random"]


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two single-threaded workers (no nanny: killing one removes it),
    each its own process, all on 127.0.0.1. Yields (address, [worker processes])."""
    from distributed import Client

    env = {**os.environ, "PYTHONPATH": str(TESTS), "HANSA_TEST_PAUSE": "0.08"}
    sched_file = tmp_path / "scheduler.json"
    procs = [subprocess.Popen(
        [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(sched_file)],
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    workers: list[subprocess.Popen] = []
    try:
        t0 = time.monotonic()
        while not sched_file.exists() or not sched_file.read_text().strip():
            assert time.monotonic() - t0 < 60, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for _ in range(2):
            workers.append(subprocess.Popen(
                [str(DASK), "worker", address, "--nthreads", "1", "--no-nanny",
                 "--host", "127.0.0.1", "--no-dashboard"],
                env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        procs += workers
        with Client(address, set_as_default=False, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for p in reversed(procs):
            _stop(p)


def _marker_pids(out: Path) -> set[int]:
    """The worker pids recorded by the done-markers written so far (atomic writes: a
    marker is either absent or whole)."""
    pids = set()
    for p in (out / "_chunks").glob("chunk-*.json"):
        pids.add(json.loads(p.read_text())["worker_pid"])
    return pids


def test_a_worker_killed_mid_run_loses_no_game(cluster, tmp_path):
    address, workers = cluster
    out = tmp_path / "run"
    n_games = 24
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, sleepy_strategy\n"
         "from hansa_lab.sim.runner import simulate\n"
         f"simulate({LINEUP!r}, n_games={n_games}, n_players=3, chunk_size=2, "
         "backend='dask', dask_address=sys.argv[1], out=sys.argv[2], progress=False)\n",
         address, str(out)],
        env={**os.environ, "PYTHONPATH": str(TESTS)}, cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the condition asserted below: each worker has written a chunk before the kill
        # (waiting for any two markers is not enough: one fast worker may write both)
        t0 = time.monotonic()
        while not {w.pid for w in workers} <= _marker_pids(out):
            assert child.poll() is None, ("the run ended before each worker had done a "
                                          f"chunk: {child.communicate()}")
            assert time.monotonic() - t0 < 240, "the workers did not each complete a chunk"
            time.sleep(0.02)
        workers[0].send_signal(signal.SIGKILL)
        workers[0].wait()
        _, err = child.communicate(timeout=240)
    finally:
        _stop(child)
    assert child.returncode == 0, err
    done = len(list((out / "_chunks").glob("chunk-*.json")))
    assert done == n_games // 2
    res = open_results(out)
    assert res.complete
    ids = res.games.game_id.tolist()
    assert sorted(ids) == list(range(n_games))  # every game exactly once
    markers = [json.loads(p.read_text()) for p in (out / "_chunks").glob("chunk-*.json")]
    pids = {m["worker_pid"] for m in markers}
    assert workers[0].pid in pids and workers[1].pid in pids, pids
    assert workers[0].returncode == -signal.SIGKILL
    import sleepy_strategy  # noqa: F401  (registers test_sleepy in this process)

    serial = simulate(LINEUP, n_games=n_games, n_players=3, chunk_size=2, progress=False,
                      name="run")
    assert_same_tables(res, serial, ("games", "players", "turns", "events", "failures"))


def test_cli_with_a_scheduler_address(cluster, tmp_path):
    address, _ = cluster
    out = tmp_path / "cli"
    proc = subprocess.run(
        [str(SCRIPT), "simulate", "--players", "3", "--games", "6", "--chunk-size", "2",
         "--dask-address", address, "--out", str(out), "--no-progress"],
        capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "win_rate [95% CI]" in proc.stdout
    res = open_results(out)
    assert res.complete and sorted(res.games.game_id) == list(range(6))
    assert res.manifest["execution"]["dask_address"] == address


def test_cli_and_api_with_a_cluster_the_runner_makes(tmp_path, capsys):
    code = cli.main(["simulate", "--players", "3", "--games", "6", "--backend", "dask",
                     "--jobs", "2", "--out", str(tmp_path / "local"), "--no-progress"])
    assert code == 0, capsys.readouterr().err
    assert sorted(open_results(tmp_path / "local").games.game_id) == list(range(6))
    res = simulate(["random"], n_games=4, n_players=3, backend="dask", n_jobs=2,
                   progress=False)
    assert sorted(res.games.game_id) == list(range(4))
    from distributed import default_client

    with pytest.raises(ValueError, match="No clients"):
        default_client()  # the runner's client was closed and never made the default
