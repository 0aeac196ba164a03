"""``hansa-lab learn`` killed at every write it makes (``settings.json``, each data chunk,
the model file: under its temporary name and once in place), then run again with the same
command: it resumes, and the model file it writes is byte for byte the one an uninterrupted
run writes (:data:`hansa_lab.studies.learn.LEARN_TRANSITIONS`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from tiers import sample

from hansa_lab.sim.store import FAULT_ENV
from hansa_lab.studies.learn import LEARN_TRANSITIONS

#: a data set of two chunks of three random games, a ridge fit (seconds)
ARGS = ["learn", "--players", "3", "--lineup", "random", "--games", "6", "--chunk", "3",
        "--rate", "0.2", "--seed", "3", "--kind", "ridge_margin", "--name", "learned_k",
        "--no-progress"]


def _learn(folder: Path, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != FAULT_ENV}
    if fault is not None:
        env[FAULT_ENV] = fault
    return subprocess.run(
        [sys.executable, "-m", "hansa_lab.tools.cli", *ARGS, "--data", "data",
         "--out", "model.json"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    folder = tmp_path_factory.mktemp("uninterrupted")
    done = _learn(folder)
    assert done.returncode == 0, done.stderr
    return (folder / "model.json").read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("fault", sample([
    *LEARN_TRANSITIONS,
    "learn_chunk_temp_written@2",  # the second chunk: the first one stays
    "learn_chunk_written@2",
], keep=len(LEARN_TRANSITIONS)))
def test_learn_killed_at_a_write_resumes_to_the_same_model(fault, reference, tmp_path):
    killed = _learn(tmp_path, fault)
    assert killed.returncode == -signal.SIGKILL, (fault, killed.returncode, killed.stderr)
    files = {p.name for p in (tmp_path / "data").iterdir()}
    if fault.startswith("learn_settings_temp"):
        assert "settings.json" not in files  # only the temporary file was there
    again = _learn(tmp_path)
    assert again.returncode == 0, (fault, again.stderr)
    assert "Traceback" not in again.stderr
    assert (tmp_path / "model.json").read_bytes() == reference
    left = sorted(p.name for p in (tmp_path / "data").iterdir())
    assert left == ["chunk_00_000000.npz", "chunk_00_000003.npz", "settings.json"], left


def test_every_learn_write_is_a_kill_point():
    """The list the test above kills at names each write of :mod:`hansa_lab.studies.learn`."""
    source = Path(sys.modules["hansa_lab.studies.learn"].__file__ or "").read_text()
    for point in LEARN_TRANSITIONS:
        base = point.removesuffix("_temp_written")
        assert f'fault_point("{point}")' in source or f'fault="{base}"' in source, point
