"""The command line's workflow pieces (issue 22): ``replay RESULTS --game ID``, ``--plan``
with ``--games``, ``--version``, the ``--jobs`` warning without a progress bar, ``bench``
in the core by default and ``main`` naming its report and the next command."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from hansa_lab import __version__
from hansa_lab.sim import runner
from hansa_lab.sim.results import open_results
from hansa_lab.sim.runner import simulate
from hansa_lab.tools import cli


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("workflow") / "run"
    simulate({"tip": ["random:establish=false", "random"], "base": ["random"]}, n_games=6,
             n_players=2, seed=11, progress=False, out=out)
    return out


def _slider_max(html: Path) -> int:
    found = re.search(r'id="slider"[^>]*max="(\d+)"', html.read_text(encoding="utf-8"))
    assert found is not None, "no slider in the replay"
    return int(found.group(1))


def test_replay_writes_a_game_of_a_results_folder(run_folder: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    games = open_results(run_folder).games
    row = games[games.game_id == games.game_id.max()].iloc[0]
    target = tmp_path / "g.html"
    assert cli.main(["replay", str(run_folder), "--game", str(row.game_id),
                     "--html", str(target)]) == 0
    assert f"wrote {target}" in capsys.readouterr().out
    assert _slider_max(target) == int(row.actions)  # the logged game, action for action
    assert f"game {row.game_id} ({row.arm})" in target.read_text(encoding="utf-8")
    # without --html: beside the results
    assert cli.main(["replay", str(run_folder), "--game", "0"]) == 0
    default = run_folder / "replay_game0.html"
    assert default.exists() and _slider_max(default) == int(
        games[games.game_id == 0].actions.iloc[0])


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "999"], "--game: no game with id 999 in "),
    ([], "--game: give the id of the game"),
    (["--game", "0", "--seed", "3"], "--seed: a game of a results folder is replayed from "
                                     "its own configuration"),
    (["--game", "0", "--players", "2"], "--players: a game of a results folder"),
])
def test_replay_of_a_results_folder_says_what_is_wrong(
        run_folder: Path, argv: list[str], message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(run_folder), *argv]) == 2
    assert message in capsys.readouterr().err


def test_replay_needs_a_results_folder_or_a_game_to_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(tmp_path / "none"), "--game", "1"]) == 2
    assert "RESULTS: " in capsys.readouterr().err
    assert cli.main(["replay", "--game", "1", "--html", str(tmp_path / "x.html")]) == 2
    assert "give the results folder first" in capsys.readouterr().err
    assert cli.main(["replay", "--html", str(tmp_path / "x.html")]) == 2
    assert "--players: give the player count" in capsys.readouterr().err
    assert cli.main(["replay", "--players", "3"]) == 2
    assert "--html: give the file to write" in capsys.readouterr().err
    out = tmp_path / "seeded.html"  # the seeded form still works as before
    assert cli.main(["replay", "--players", "3", "--seed", "4", "--html", str(out)]) == 0
    assert _slider_max(out) > 50


def test_plan_honours_games(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "--players", "3", "--strategies", "random", "--plan"]
    halves = []
    for games in (6, 60):
        assert cli.main([*base, "--games", str(games)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"plan: with games = {games} per arm and condition"), out
        flat = " ".join(out.split())  # lines are wrapped at 100 columns
        found = re.search(r"about ±([0-9.e+]+) points on each strategy's mean", flat)
        assert found is not None, out
        halves.append(float(found.group(1)))
    assert halves[1] < halves[0] / 2  # ten times the games: about a third of the width
    assert cli.main([*base, "--precision", "2"]) == 0  # no --games: the precision's plan
    assert capsys.readouterr().out.startswith("plan: for ±2 points")


def test_run_plan_honours_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "quick.toml"
    path.write_text('name = "quick"\ngames = 8\nplayers = 2\nbase_arm = "base"\n[arms]\n'
                    'base = ["random"]\nlazy = ["random:establish=false", "random"]\n')
    assert cli.main(["run", str(path), "--plan", "--games", "30"]) == 0
    assert capsys.readouterr().out.startswith("plan: with games = 30 per arm and condition")
    assert not (tmp_path / "results").exists()  # --plan runs nothing


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"hansa-lab {__version__}"


def test_jobs_warning_without_a_progress_bar(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    real = runner._iter_joblib  # play in this process: the warning is what is checked
    monkeypatch.setattr(runner, "_iter_joblib", lambda tasks, n_jobs: real(tasks, 1))
    monkeypatch.setattr(runner, "usable_core_count", lambda: 2)
    simulate(["random"], n_games=3, n_players=3, chunk_size=1, n_jobs=3, progress=False)
    assert "warning: 3 worker processes on 2 cores" in capsys.readouterr().err
    simulate(["random"], n_games=3, n_players=3, chunk_size=1, n_jobs=2, progress=False)
    assert "warning" not in capsys.readouterr().err


def test_bench_defaults_to_the_core(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from hansa_lab.tools import bench

    assert inspect.signature(bench.bench_engines).parameters["engine"].default == "core"
    asked: list[str] = []

    def spy(engine: str, *args: object) -> dict[str, object]:  # the real one takes 8 s
        asked.append(engine)
        return {"engine": engine}

    monkeypatch.setattr(bench, "bench_engines", spy)
    assert cli.main(["bench", "--seconds", "0.2", "--json"]) == 0
    assert asked == ["core"] and json.loads(capsys.readouterr().out) == {"engine": "core"}
    assert cli.main(["bench", "--engine", "python", "--json"]) == 0
    assert asked == ["core", "python"]


def test_main_names_its_report_and_the_next_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "quick"
    assert cli.main(["main", "--games", "4", "--strong-games", "4", "--jobs", "1",
                     "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    report = (out / "report.html").resolve()
    assert report.exists() and report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    flat = " ".join(text.split())  # lines are wrapped at 100 columns, paths on their own
    assert f"The report (tables, verdicts, figures; opens offline): {report}" in flat
    assert text.rstrip().endswith(f"hansa-lab replay {out} --game 0")
    assert "make lab" in text
    assert isinstance(open_results(out).games, pd.DataFrame)
    assert cli.main(["replay", str(out), "--game", "0"]) == 0  # the command it suggests
    assert (out / "replay_game0.html").exists()
