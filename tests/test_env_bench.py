"""``hansa-lab bench --suite env`` prints its figures beside the reference."""

from __future__ import annotations

import json

import pytest

from hansa_lab.tools import cli


def test_env_benchmark_reports_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--suite", "env", "--seconds", "0.3", "--threads", "1",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("reference_core_random_actions_per_s", "vector_steps_per_s",
                "aec_steps_per_s", "load_average_1min"):
        assert out[key] > 0 or key == "load_average_1min"
    # the ratios are printed to three decimals: a small one is off by up to 0.0005
    assert out["vector_vs_reference"] == pytest.approx(
        out["vector_steps_per_s"] / out["reference_core_random_actions_per_s"], rel=0.01,
        abs=5e-4)
    assert out["vector_vs_reference_per_cpu_s"] == pytest.approx(
        out["vector_steps_per_cpu_s"] / out["reference_actions_per_cpu_s"], rel=0.02)
    assert out["vector_envs"] == 128 and out["rounds"] == 3
    assert out["vector_steps_per_s_best_round"] >= out["vector_steps_per_s"]
    assert "vector_thread_scaling" not in out  # one thread: nothing beside it
    assert out["aec_vs_reference"] == pytest.approx(
        out["aec_steps_per_s"] / out["reference_core_random_actions_per_s"], rel=0.01,
        abs=5e-4)
    assert (out["observation_size"], out["action_index_size"]) == (1439, 28174)
    assert out["vector_threads"] == 1


def test_env_benchmark_measures_one_thread_beside_two(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--suite", "env", "--seconds", "0.4", "--threads", "2",
                     "--envs", "16", "--rounds", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["vector_envs"], out["vector_threads"], out["rounds"]) == (16, 2, 2)
    assert out["vector_thread_scaling"] == pytest.approx(
        out["vector_steps_per_s"] / out["vector_1_thread_steps_per_s"], rel=0.01)


def test_env_benchmark_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--suite", "env", "--seconds", "0"]) == 2
    assert "--seconds" in capsys.readouterr().err
    assert cli.main(["bench", "--suite", "env", "--envs", "100000"]) == 2
    assert "--envs must be at most 16384, got 100000" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bench", "--suite", "env", "--envs", "0"])
    assert "--envs" in capsys.readouterr().err
