"""Fault injection: a run killed (SIGKILL) or terminated (SIGTERM) at every transition of
its results folder (:data:`hansa_lab.sim.store.TRANSITIONS`, reached through the
``HANSA_LAB_FAULT`` hook), chunk files truncated, emptied or deleted, the manifest
corrupted — and every time the folder never claims to be complete with games missing,
and the next command brings it to the very tables of an uninterrupted run.

Set ``HANSA_LAB_FAULT_REPORT=<file>`` to collect the figures (one JSON line per case:
signals sent, corruptions, games compared, games lost).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from run_helpers import assert_same_tables
from tiers import full_only

from hansa_lab.sim.logs import SCHEMA
from hansa_lab.sim.runner import open_results, simulate
from hansa_lab.sim.store import FAULT_ENV, TRANSITIONS
from hansa_lab.tools import cli

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
TABLES = list(SCHEMA)
LINEUP = ["random", "random:gather=false", "random"]
N_GAMES, CHUNK = 9, 2  # 5 chunks, the last one short
ARGS = ["simulate", "--players", "3", "--games", str(N_GAMES), "--chunk-size", str(CHUNK),
        "--strategies", ",".join(LINEUP), "--no-progress"]
#: transitions reached only by a forced rerun of a finished run
CLEARING = ("cleared_markers", "cleared_tables")
#: which occurrence of a transition to stop at (the second chunk for per-chunk ones)
NTH = {"chunk_tables_written": 2, "chunk_marked": 2}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run on disk (copied as the starting point of forced reruns)."""
    out = tmp_path_factory.mktemp("reference") / "run"
    res = simulate(LINEUP, n_games=N_GAMES, n_players=3, chunk_size=CHUNK, out=out,
                   progress=False)
    return res, out


def _report(case: str, **figures: int) -> None:
    path = os.environ.get("HANSA_LAB_FAULT_REPORT")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"case": case, **figures}) + "\n")


def _never_complete_with_games_missing(out: Path) -> None:
    """What the folder claims right after the fault."""
    if not (out / "manifest.json").exists():
        return
    res = open_results(out)
    if res.complete:
        assert sorted(res.games.game_id) == list(range(N_GAMES))


def _compare_with_reference(out: Path, reference) -> int:
    """The folder's tables against the uninterrupted run's; returns the games lost."""
    ref, _ = reference
    res = open_results(out)
    assert res.complete and not res.bad_chunks
    lost = len(set(range(N_GAMES)) - set(res.games.game_id))
    assert sorted(res.games.game_id) == list(range(N_GAMES))
    assert_same_tables(res, ref)
    return lost


@pytest.mark.parametrize("sig", ["KILL", "TERM"])
@pytest.mark.parametrize("transition", TRANSITIONS)
def test_a_run_stopped_at_a_transition_comes_back_whole(transition, sig, tmp_path, reference,
                                                        capsys):
    out = tmp_path / "run"
    argv = [*ARGS, "--out", str(out)]
    if transition in CLEARING:
        shutil.copytree(reference[1], out)
        argv.append("--force")
    env = {**os.environ, FAULT_ENV: f"{transition}@{NTH.get(transition, 1)}:{sig}"}
    proc = subprocess.run([sys.executable, "-m", "hansa_lab.tools.cli", *argv], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    if sig == "KILL":
        assert proc.returncode == -signal.SIGKILL, proc.stderr
    else:
        assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
        assert "terminated (SIGTERM)" in proc.stderr and "resume" in proc.stderr
        assert "Traceback" not in proc.stderr
        if (out / "manifest.json").exists():
            status = json.loads((out / "manifest.json").read_text())["status"]
            assert status != "running"
    assert not (out / ".lock").exists() or sig == "KILL"
    _never_complete_with_games_missing(out)
    # the same command again (never forced) finishes the run
    assert cli.main([a for a in argv if a != "--force"]) == 0, capsys.readouterr().err
    lost = _compare_with_reference(out, reference)
    _report(f"{transition}:{sig}", signals=1, corruptions=0, games=N_GAMES, lost=lost)


@pytest.mark.parametrize("damage", ["truncate", "empty", "delete", "marker_only", "tmp_left"])
@pytest.mark.parametrize("table", ["games", "turns"])
def test_damaged_chunk_files_are_replayed(damage, table, tmp_path, reference, capsys):
    out = tmp_path / "run"
    shutil.copytree(reference[1], out)
    victim = out / table / "chunk-000003.parquet"
    if damage == "truncate":
        victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    elif damage == "empty":
        victim.write_bytes(b"")
    elif damage == "delete":
        victim.unlink()
    elif damage == "marker_only":  # every table file of the chunk gone, the marker kept
        for t in TABLES:
            (out / t / "chunk-000003.parquet").unlink()
    else:  # a half-written temp file next to a deleted one
        victim.rename(victim.with_name(".chunk-000003.parquet.tmp-99"))
    with pytest.warns(UserWarning, match="chunk 3"):
        damaged = open_results(out)
    assert not damaged.complete
    assert 3 * CHUNK not in set(damaged.games.game_id)
    assert cli.main([*ARGS, "--out", str(out)]) == 0, capsys.readouterr().err
    assert "chunk 3" in capsys.readouterr().err
    lost = _compare_with_reference(out, reference)
    _report(f"{damage}:{table}", signals=0, corruptions=1, games=N_GAMES, lost=lost)


@pytest.mark.parametrize("content", [b"", b"{", b"\x00" * 64, b"null", b"{\"sessions\": 3}"])
def test_a_corrupt_manifest_is_named_and_force_recovers(content, tmp_path, reference, capsys):
    out = tmp_path / "run"
    shutil.copytree(reference[1], out)
    (out / "manifest.json").write_bytes(content)
    assert cli.main([*ARGS, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "manifest.json" in err and "--force" in err and "Traceback" not in err
    assert cli.main([*ARGS, "--out", str(out), "--force"]) == 0
    lost = _compare_with_reference(out, reference)
    _report(f"manifest:{content[:8]!r}", signals=0, corruptions=1, games=N_GAMES, lost=lost)


def test_kill_during_a_forced_rerun_then_a_plain_rerun_never_reports_complete(
        tmp_path, reference, capsys):
    """The data loss of the issue: a forced rerun killed while it clears, then the plain
    command: it must replay, not say "complete, nothing to do" over an empty table."""
    out = tmp_path / "run"
    shutil.copytree(reference[1], out)
    for transition in CLEARING:
        env = {**os.environ, FAULT_ENV: f"{transition}:KILL"}
        proc = subprocess.run([sys.executable, "-m", "hansa_lab.tools.cli", *ARGS, "--out",
                               str(out), "--force"], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == -signal.SIGKILL
        assert cli.main([*ARGS, "--out", str(out)]) == 0
        err = capsys.readouterr().err
        assert "nothing to do" not in err
        lost = _compare_with_reference(out, reference)
        _report(f"force-then-plain:{transition}", signals=1, corruptions=0, games=N_GAMES,
                lost=lost)


@pytest.mark.parametrize(("sig", "backend"), [
    ("KILL", "loky"), ("TERM", "dask"),  # bounded tier: each signal and each backend once
    pytest.param("TERM", "loky", marks=full_only), pytest.param("KILL", "dask",
                                                                marks=full_only)])
def test_worker_processes_end_with_their_parent(sig, backend, tmp_path, reference):
    """The run pauses itself (SIGSTOP) once its second chunk is written; the test takes
    note of every process below it (workers, resource trackers), kills or terminates it,
    and every one of them must be gone within seconds — then the run resumes whole."""
    psutil = pytest.importorskip("psutil")
    if backend == "dask":
        pytest.importorskip("distributed")
    out = tmp_path / "run"
    argv = [*ARGS, "--out", str(out), "--jobs", "2", "--backend", backend]
    env = {**os.environ, FAULT_ENV: "chunk_marked@2:STOP"}
    proc = subprocess.Popen([sys.executable, "-m", "hansa_lab.tools.cli", *argv], env=env,
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        parent = psutil.Process(proc.pid)
        t0 = time.monotonic()
        while parent.status() != psutil.STATUS_STOPPED:
            assert proc.poll() is None and time.monotonic() - t0 < 120, proc.stderr
            time.sleep(0.02)
        below = parent.children(recursive=True)
        assert len(below) >= 2  # at least the two workers
        os.kill(proc.pid, getattr(signal, f"SIG{sig}"))
        if sig != "KILL":
            os.kill(proc.pid, signal.SIGCONT)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    t0 = time.monotonic()
    alive = below
    while time.monotonic() - t0 < 15:
        alive = [p for p in below if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if not alive:
            break
        time.sleep(0.1)
    for p in alive:
        p.kill()
    assert not alive, [p.cmdline() for p in alive]
    assert proc.returncode == (-signal.SIGKILL if sig == "KILL" else 128 + signal.SIGTERM)
    assert cli.main([*ARGS, "--out", str(out)]) == 0
    lost = _compare_with_reference(out, reference)
    _report(f"orphans:{backend}:{sig}", signals=1, corruptions=0, games=N_GAMES, lost=lost)
