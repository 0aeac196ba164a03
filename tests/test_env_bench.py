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
    assert out["vector_vs_reference"] == pytest.approx(
        out["vector_steps_per_s"] / out["reference_core_random_actions_per_s"], rel=0.01)
    assert out["vector_vs_reference_per_cpu_s"] == pytest.approx(
        out["vector_steps_per_cpu_s"] / out["reference_actions_per_cpu_s"], rel=0.02)
    assert out["vector_envs"] == 256
    assert out["aec_vs_reference"] == pytest.approx(
        out["aec_steps_per_s"] / out["reference_core_random_actions_per_s"], rel=0.01)
    assert (out["observation_size"], out["action_index_size"]) == (1439, 28174)
    assert out["vector_threads"] == 1


def test_env_benchmark_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--suite", "env", "--seconds", "0"]) == 2
    assert "--seconds" in capsys.readouterr().err
