"""The long-running commands end honestly (issue 23 items 4-6): ``ladder`` on a sample so
small its intervals barely exist still writes its figure, and again on a rerun; ``tune``
saves and says so on SIGTERM, prints no "+nan" for a held-out check of one deal, and
leaves no stray temp file when its strategy file cannot be written; ``~`` in ``--out``
means the home folder for writing and for reading alike; a run that cannot finish in a
day starts only with ``--yes``."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from run_helpers import forbid_games

from hansa_lab.sim import runner
from hansa_lab.sim.runner import open_results
from hansa_lab.studies.tune import TuneSettings
from hansa_lab.studies.tune import tune as run_tune
from hansa_lab.tools import cli

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "hansa-lab"
TINY_TUNE = ["--players", "2", "--params", "route", "--population", "2", "--games", "2",
             "--no-progress"]


def test_a_ladder_of_one_deal_writes_its_figure_and_reruns(tmp_path, capsys):
    out = tmp_path / "ladder"
    argv = ["ladder", "--players", "3", "--strategies", "random,greedy,blocker", "--deals",
            "1", "--jobs", "1", "--out", str(out), "--no-progress"]
    assert cli.main(argv) == 0  # was: "'xerr' must not contain negative values"
    png = out / "ladder.png"
    assert png.stat().st_size > 1000 and (out / "ladder.csv").exists()
    first = png.read_bytes()
    png.unlink()
    monkey = pytest.MonkeyPatch()
    forbid_games(monkey)
    try:
        assert cli.main(argv) == 0  # the finished run is rated and drawn again
    finally:
        monkey.undo()
    assert png.stat().st_size > 1000 and len(png.read_bytes()) == len(first)
    assert "ratings, results and ladder.png" in capsys.readouterr().out


def test_the_ratings_plot_draws_an_interval_that_misses_its_estimate():
    import pandas as pd

    from hansa_lab.stats.plots import plot_ratings

    # a percentile bootstrap interval may end a hair inside its estimate, or be missing
    r = pd.DataFrame({"strategy": ["a", "b", "c"], "n": [3, 3, 3],
                      "log_strength": [1.6, -2.5979473377, 0.2],
                      "lo": [0.2, -3.2, float("nan")], "hi": [3.0, -2.5979473379,
                                                              float("nan")]})
    fig = plot_ratings(r)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["a", "c", "b"]


def test_a_held_out_check_of_one_deal_prints_no_nan(tmp_path):
    settings = TuneSettings(params=("route",), players=2, population=2, generations=1,
                            games=2, heldout_games=2, seed=3)  # 2 games = 1 deal
    res = run_tune(settings, tmp_path / "st", name="one_deal")
    assert res.heldout["deals"] == 1
    text = res.summary()
    assert "nan" not in text.lower(), text
    assert "[no interval: 1 deal, it needs 2]" in text


def test_an_unwritable_strategy_file_fails_after_tuning_without_a_stray_tmp(tmp_path,
                                                                            monkeypatch):
    from hansa_lab.errors import ExperimentError
    from hansa_lab.studies import tune as tune_module

    settings = TuneSettings(params=("route",), players=2, population=2, generations=1,
                            games=2, heldout_games=2, seed=4)
    real = tune_module.os.replace

    def failing(src, dst):
        if str(dst).endswith(".toml"):
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(tune_module.os, "replace", failing)
    with pytest.raises(ExperimentError) as e:
        run_tune(settings, tmp_path / "st", out=tmp_path / "x.toml", name="nospace")
    assert e.value.field == "out" and "No space left on device" in str(e.value)
    assert not list(tmp_path.rglob("*.tmp"))
    assert (tmp_path / "st" / "checkpoint.pkl").exists()  # the generations are kept


def test_tune_saves_and_says_so_on_sigterm(tmp_path):
    state = tmp_path / "st"
    argv = [str(SCRIPT), "tune", *TINY_TUNE, "--generations", "1000", "--state", str(state)]
    proc = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        while not (state / "checkpoint.pkl").exists():  # a generation is saved
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() - t0 < 120, "no generation finished"
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "terminated (SIGTERM)" in err and "checkpoint.pkl" in err, err
    assert "Traceback" not in err
    assert not list(state.glob("*.tmp"))
    # the checkpoint holds the finished generations: the command resumes after them
    done = pickle.loads((state / "checkpoint.pkl").read_bytes())["generation"]
    assert done >= 1
    resumed = subprocess.run(
        [str(SCRIPT), "tune", *TINY_TUNE[:-1], "--generations", str(done),
         "--heldout-games", "2", "--state", str(state)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming after generation {done}" in resumed.stderr
    assert (state / "greedy_2p_tuned.toml").exists()


def test_a_tilde_in_out_is_the_home_folder_for_writing_and_reading(tmp_path, monkeypatch,
                                                                  capsys):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert cli.main(["simulate", "--players", "3", "--games", "3", "--out", "~/runs/x",
                     "--no-progress"]) == 0
    assert (home / "runs" / "x" / "manifest.json").exists()
    assert not (work / "~").exists()
    assert open_results("~/runs/x").complete
    assert cli.main(["report", "~/runs/x"]) == 0
    assert (home / "runs" / "x" / "report.html").exists()
    assert "3 of 3 games" in capsys.readouterr().out


def test_a_run_longer_than_a_day_needs_yes(tmp_path, monkeypatch, capsys):
    seen = {}

    def fake_simulate(*args, **kwargs):
        seen.update(kwargs)
        raise KeyboardInterrupt  # stands in for the long run, stopped at once

    monkeypatch.setattr(runner, "simulate", fake_simulate)
    argv = ["simulate", "--players", "3", "--games", str(10**12), "--no-progress"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "would take at least" in err and "years" in err and "--yes" in err
    assert not seen
    assert cli.main([*argv, "--yes"]) == 130  # started (and interrupted)
    assert seen["n_games"] == 10**12


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_duration_bound_counts_the_workers(jobs, capsys):
    games = str(int(cli.LONG_RUN_SECONDS / cli.FASTEST_GAME_SECONDS * int(jobs)) + 10)
    assert cli.main(["simulate", "--players", "3", "--games", games, "--jobs", jobs]) == 2
    assert f"with {jobs} worker" in capsys.readouterr().err


def test_odd_out_names_are_named_as_out_not_name(tmp_path, capsys):
    assert cli.main(["simulate", "--players", "3", "--games", "3", "--out",
                     str(tmp_path / "my run"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "--out: the folder name 'my run'" in err and "--name" in err
    assert cli.main(["simulate", "--players", "3", "--games", "3", "--out",
                     str(tmp_path / "my run"), "--name", "ok", "--no-progress"]) == 0
    assert os.path.exists(tmp_path / "my run" / "manifest.json")


@pytest.mark.parametrize("out", [123, b"bytes", "", "x\0y", ["a"]])
def test_the_api_refuses_an_out_that_is_no_path(out, monkeypatch):
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.runner import run_experiment, simulate
    from hansa_lab.studies.ladder import run_ladder
    from hansa_lab.studies.lengths import run_lengths

    forbid_games(monkeypatch)
    for call in (lambda: simulate(["random"], n_games=3, n_players=3, out=out),
                 lambda: run_experiment({"games": 3, "players": 3, "arms": {"a": ["random"]}},
                                        out=out),
                 lambda: run_ladder(["random", "greedy"], n_players=2, out=out),
                 lambda: run_lengths(["random"], out=out)):
        with pytest.raises(ExperimentError) as e:
            call()
        assert e.value.field == "out" and "path" in e.value.message
