"""A corpus of bad inputs — command-line arguments, experiment files, Python API arguments —
each of which must be refused before any game is played, with a message naming the
argument, field or file, exit status 2 from the command line and no traceback (an
exception escaping ``cli.main`` fails the case).

``HANSA_LAB_CORPUS_REPORT=<file>`` collects one JSON line per case (for the closing note).
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from run_helpers import forbid_games, report_case, run_cli

from hansa_lab.errors import ExperimentError
from hansa_lab.sim.runner import run_experiment, simulate
from hansa_lab.strategies import make_strategy

GOOD_TOML = 'games = 3\nplayers = 3\n[arms]\na = ["random"]\n'


@pytest.fixture(autouse=True)
def no_games(monkeypatch, tmp_path):
    """No bad input may get as far as playing a game; everything happens in tmp_path."""
    forbid_games(monkeypatch)
    monkeypatch.chdir(tmp_path)


# ----------------------------------------------------------------- command line: simulate

SIMULATE = [  # (extra arguments, text the message must contain)
    (["--games", "0"], "--games"), (["--games", "-1"], "--games"),
    (["--games", "x"], "--games"), (["--games", "1.5"], "--games"),
    (["--games", "nan"], "--games"), (["--games", ""], "--games"),
    (["--players", "0"], "--players"), (["--players", "1"], "--players"),
    (["--players", "6"], "--players"), (["--players", "x"], "--players"),
    (["--players", "-3"], "--players"), (["--players", "99999999999999999999"], "--players"),
    (["--strategies", "greedyy"], "--strategies[0]"),
    (["--strategies", "random,nope"], "--strategies[1]"),
    (["--strategies", ""], "--strategies"), (["--strategies", ",,,"], "--strategies"),
    (["--strategies", ":"], "--strategies[0]"),
    (["--strategies", "greedy:depth"], "--strategies[0]"),
    (["--strategies", "greedy:depth=3"], "depth"),
    (["--strategies", "greedy:depth=1.5"], "depth"),
    (["--strategies", "greedy:depth=x"], "depth"),
    (["--strategies", "greedy:explore=0"], "explore"),
    (["--strategies", "greedy:explore=nan"], "explore"),
    (["--strategies", "greedy:explore=2"], "explore"),
    (["--strategies", "greedy:score=inf"], "score"),
    (["--strategies", "greedy:score=-inf"], "score"),
    (["--strategies", "greedy:supply_cap=-3"], "supply_cap"),
    (["--strategies", "greedy:supply_cap=2.5"], "supply_cap"),
    (["--strategies", "keep_supply:threshold=-1"], "threshold"),
    (["--strategies", "actions_first:tip=nan"], "tip"),
    (["--strategies", "random:establish=maybe"], "establish"),
    (["--strategies", "random:x=1"], "'x'"),
    (["--strategies", "mcts:iterations=-5"], "iterations"),
    (["--strategies", "mcts:explore=nan"], "explore"),
    (["--strategies", "mcts:top_k=0"], "top_k"),
    (["--strategies", "random,random,random,random,random"], "--strategies"),
    (["--players", "4", "--strategies", "random,random,random"], "--strategies"),
    (["--board", "moon"], "--board"), (["--board", ""], "--board"),
    (["--board", "east", "--players", "2"], "--"),
    (["--edition", "deluxe"], "--edition"), (["--edition", "BIGBOX"], "--edition"),
    (["--option", "special_points=5"], "--option"),
    (["--option", "special_points=[1,2]"], "--option"),
    (["--option", "special_points=[1,2,3,\"x\"]"], "--option"),
    (["--option", "prestige_to_end=abc"], "--option"),
    (["--option", "prestige_to_end=0"], "--option"),
    (["--option", "prestige_to_end=-4"], "--option"),
    (["--option", "prestige_to_end=1.5"], "--option"),
    (["--option", "prestige_to_end=true"], "--option"),
    (["--option", "start_supply=40"], "--option"), (["--option", "start_supply=0"], "--option"),
    (["--option", "emperor=3"], "--option"), (["--option", "east_alternative=true"], "--option"),
    (["--option", "speed=3"], "--option speed"), (["--option", "nonsense"], "--option"),
    (["--option", "=5"], "--option"),
    (["--seed", "-1"], "--seed"), (["--seed", "x"], "--seed"),
    (["--seed", str(2**63)], "--seed"), (["--seed", str(2**63 - 2)], "--seed"),
    (["--seed", str(2**64)], "--seed"),
    (["--jobs", "0"], "--jobs"), (["--jobs", "x"], "--jobs"), (["--jobs", "1.5"], "--jobs"),
    (["--jobs", "-7"], "--jobs"),
    (["--chunk-size", "0"], "--chunk-size"), (["--chunk-size", "x"], "--chunk-size"),
    (["--log", "some"], "--log"), (["--backend", "spark"], "--backend"),
    (["--backend", "dask", "--dask-address", "nohost"], "--dask-address"),
    (["--backend", "dask", "--dask-address", "tcp://x"], "--dask-address"),
    (["--backend", "dask", "--dask-address", "tcp://a b:1"], "--dask-address"),
    (["--backend", "dask", "--dask-address", "tcp://127.0.0.1:port"], "--dask-address"),
    (["--backend", "loky", "--dask-address", "tcp://127.0.0.1:8786"], "--dask-address"),
    (["--name", "a/b"], "--name"), (["--name", ".hidden"], "--name"), (["--name", "a b"], "--name"),
    (["--decision-time-limit", "0"], "--decision-time-limit"),
    (["--decision-time-limit", "-1"], "--decision-time-limit"),
    (["--decision-time-limit", "nan"], "--decision-time-limit"),
    (["--decision-time-limit", "inf"], "--decision-time-limit"),
    (["--decision-time-limit", "x"], "--decision-time-limit"),
    (["--unknown-flag"], "--unknown-flag"),
]


def _cli_fails(argv: list[str], text: str, capsys, code: int = 2) -> None:
    got, err = run_cli("cli", argv, capsys)
    assert got == code, (argv, err)
    assert text in err and "Traceback" not in err, (argv, err)


@pytest.mark.parametrize(("extra", "text"), SIMULATE)
def test_simulate_arguments(extra, text, capsys):
    _cli_fails(["simulate", "--games", "3", "--players", "3", "--no-progress",
                "--out", "results/x", *extra], text, capsys)
    assert not Path("results/x/manifest.json").exists()


@pytest.mark.parametrize("where", ["file", "under_file", "not_results"])
def test_simulate_out(where, capsys):
    Path("f").write_text("mine")
    out = {"file": "f", "under_file": "f/sub", "not_results": "."}[where]
    _cli_fails(["simulate", "--games", "3", "--players", "3", "--out", out], "--out", capsys)
    assert Path("f").read_text() == "mine"


# ---------------------------------------------------------------------- command line: run

RUN_ARGS = [
    (["run", "missing.toml"], "missing.toml"),
    (["run", "."], "."),
    (["run", "good.toml", "--games", "0"], "--games"),
    (["run", "good.toml", "--games", "x"], "--games"),
    (["run", "good.toml", "--chunk-size", "0"], "--chunk-size"),
    (["run", "good.toml", "--jobs", "0"], "--jobs"),
    (["run", "good.toml", "--backend", "ray"], "--backend"),
    (["run", "good.toml", "--decision-time-limit", "-2"], "--decision-time-limit"),
    (["run", "good.toml", "--out", "good.toml"], "--out"),
    (["run"], "experiment"),
]


@pytest.mark.parametrize(("argv", "text"), RUN_ARGS)
def test_run_arguments(argv, text, capsys):
    Path("good.toml").write_text(GOOD_TOML)
    _cli_fails(argv, text, capsys)


TOML = [  # (file body, text after "<file>: ")
    ("games = 4\nbase_arm = [\"a\"]\n[arms]\na = [\"random\"]\n", "base_arm"),
    ("games = 4\nbase_arm = 3\n[arms]\na = [\"random\"]\n", "base_arm"),
    ("games = 4\n[arms]\na = [{name = \"greedy\", depth = 1.0}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{name = \"greedy\", explore = [1]}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{name = \"greedy\", explore = \"lots\"}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{name = \"greedy\", supply_cap = true}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{name = \"random\", establish = 1}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{name = \"greedy\", score = inf}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{name = \"greedy\", explore = nan}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{name = 3}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [{depth = 1}]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [3]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = [[\"random\"]]\n", "arms.a[0]"),
    ("games = 4\n[arms]\na = []\n", "arms.a"),
    ("games = 4\n[arms]\na = 5\n", "arms.a"),
    ("games = 4\narms = 5\n", "arms"),
    ("games = 4\narms = []\n", "arms"),
    ("games = 4\n[arms]\n", "arms"),
    ("games = 4\n", "arms"),
    ("games = [4]\n[arms]\na = [\"random\"]\n", "games"),
    ("games = 4.0\n[arms]\na = [\"random\"]\n", "games"),
    ("games = \"4\"\n[arms]\na = [\"random\"]\n", "games"),
    ("games = true\n[arms]\na = [\"random\"]\n", "games"),
    ("games = 0\n[arms]\na = [\"random\"]\n", "games"),
    ("games = 4\nseed = -1\n[arms]\na = [\"random\"]\n", "seed"),
    ("games = 4\nseed = 1.5\n[arms]\na = [\"random\"]\n", "seed"),
    ("games = 4\nseed = [1]\n[arms]\na = [\"random\"]\n", "seed"),
    ("games = 4\nseed = 9223372036854775807\n[arms]\na = [\"random\"]\n", "seed"),
    ("games = 4\nchunk_size = 0\n[arms]\na = [\"random\"]\n", "chunk_size"),
    ("games = 4\nchunk_size = 2.5\n[arms]\na = [\"random\"]\n", "chunk_size"),
    ("games = 4\nlog = 1\n[arms]\na = [\"random\"]\n", "log"),
    ("games = 4\nlog = [\"full\"]\n[arms]\na = [\"random\"]\n", "log"),
    ("games = 4\nmax_actions = 0\n[arms]\na = [\"random\"]\n", "max_actions"),
    ("games = 4\nmax_actions = \"many\"\n[arms]\na = [\"random\"]\n", "max_actions"),
    ("games = 4\njobs = 0\n[arms]\na = [\"random\"]\n", "jobs"),
    ("games = 4\njobs = \"2\"\n[arms]\na = [\"random\"]\n", "jobs"),
    ("games = 4\nbackend = \"ray\"\n[arms]\na = [\"random\"]\n", "backend"),
    ("games = 4\nbackend = [\"dask\"]\n[arms]\na = [\"random\"]\n", "backend"),
    ("games = 4\nbackend = \"dask\"\ndask_address = \"x\"\n[arms]\na = [\"random\"]\n",
     "dask_address"),
    ("games = 4\ndask_address = 5\n[arms]\na = [\"random\"]\n", "dask_address"),
    ("games = 4\ndecision_time_limit = 0\n[arms]\na = [\"random\"]\n", "decision_time_limit"),
    ("games = 4\ndecision_time_limit = \"1\"\n[arms]\na = [\"random\"]\n",
     "decision_time_limit"),
    ("games = 4\ndecision_time_limit = nan\n[arms]\na = [\"random\"]\n", "decision_time_limit"),
    ("games = 4\nname = \"a/b\"\n[arms]\na = [\"random\"]\n", "name"),
    ("games = 4\nname = 3\n[arms]\na = [\"random\"]\n", "name"),
    ("games = 4\ndescription = 3\n[arms]\na = [\"random\"]\n", "description"),
    ("games = 4\nplayers = 6\n[arms]\na = [\"random\"]\n", "players"),
    ("games = 4\nplayers = \"4\"\n[arms]\na = [\"random\"]\n", "players"),
    ("games = 4\nplayers = [3, 4.5]\n[arms]\na = [\"random\"]\n", "players"),
    ("games = 4\nplayers = []\n[arms]\na = [\"random\"]\n", "players"),
    ("games = 4\nboard = \"moon\"\n[arms]\na = [\"random\"]\n", "board"),
    ("games = 4\nboard = 3\n[arms]\na = [\"random\"]\n", "board"),
    ("games = 4\nboard = [[\"base\"]]\n[arms]\na = [\"random\"]\n", "board"),
    ("games = 4\nedition = \"x\"\n[arms]\na = [\"random\"]\n", "edition"),
    ("games = 4\nedition = {a = 1}\n[arms]\na = [\"random\"]\n", "edition"),
    ("games = 4\noptions = 3\n[arms]\na = [\"random\"]\n", "options"),
    ("games = 4\n[options]\nspeed = 1\n[arms]\na = [\"random\"]\n", "options.speed"),
    ("games = 4\n[options]\nspecial_points = 5\n[arms]\na = [\"random\"]\n", "options"),
    ("games = 4\n[options]\nspecial_points = [1, 2, 3, 4.5]\n[arms]\na = [\"random\"]\n",
     "options"),
    ("games = 4\n[options]\nstart_supply = \"5\"\n[arms]\na = [\"random\"]\n", "options"),
    ("games = 4\n[options]\nprestige_to_end = 0\n[arms]\na = [\"random\"]\n", "options"),
    ("games = 4\n[options]\nemperor = \"yes\"\n[arms]\na = [\"random\"]\n", "options"),
    ("games = 4\nconditions = 3\n[arms]\na = [\"random\"]\n", "conditions"),
    ("games = 4\nconditions = []\n[arms]\na = [\"random\"]\n", "conditions"),
    ("games = 4\nconditions = [3]\n[arms]\na = [\"random\"]\n", "conditions[0]"),
    ("games = 4\n[arms]\na = [\"random\"]\n[[conditions]]\nseed = 1\n", "conditions[0].seed"),
    ("games = 4\n[arms]\na = [\"random\"]\n[[conditions]]\nplayers = 3\n[[conditions]]\n"
     "players = 3\n", "duplicate"),
    ("games = 4\n[arms]\na = [\"random\"]\n[[conditions]]\noptions = 3\n",
     "conditions[0].options"),
    ("games = 4\nplayers = 3\n[arms]\na = [\"random\", \"random\"]\n", "arms.a"),
    ("games = 4\ngamez = 4\n[arms]\na = [\"random\"]\n", "gamez"),
    ("games = 4\n[arms\n", "invalid TOML"),
    ("games = = 4\n", "invalid TOML"),
    ("", "games"),
]


@pytest.mark.parametrize(("body", "text"), TOML)
def test_experiment_files(body, text, capsys):
    path = Path("experiments") / "x.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(body)
    _cli_fails(["run", str(path), "--no-progress"], f"{path}: ", capsys)
    with pytest.raises(ExperimentError) as e:
        run_experiment(path, progress=False)
    assert str(e.value).startswith(f"{path}: ") and text in str(e.value), str(e.value)
    assert not Path("results").exists()


@pytest.mark.parametrize("raw", [b"games = 4\nname = \"\xff\xfe\"\n", b"\xff" * 20])
def test_a_file_that_is_not_utf8(raw, capsys):
    path = Path("bad.toml")
    path.write_bytes(raw)
    _cli_fails(["run", str(path)], "bad.toml: ", capsys)
    with pytest.raises(ExperimentError, match="UTF-8"):
        run_experiment(path, progress=False)


# ---------------------------------------------------------------------------- Python API

API = [  # (keyword arguments of simulate, field named)
    ({"n_games": True}, "n_games"), ({"n_games": 2.0}, "n_games"), ({"n_games": "3"}, "n_games"),
    ({"n_games": None}, "n_games"), ({"n_games": -2}, "n_games"),
    ({"n_players": 4.0}, "n_players"), ({"n_players": None}, "n_players"),
    ({"n_players": [3]}, "n_players"), ({"strategies": 5}, "strategies"),
    ({"strategies": []}, "strategies"), ({"strategies": {}}, "strategies"),
    ({"strategies": "random"}, "strategies"), ({"strategies": [None]}, "strategies[0]"),
    ({"strategies": {"": ["random"]}}, "strategies"),
    ({"strategies": {"a": 5}}, "strategies.a"),
    ({"strategies": {"a": ["greedy:depth=0"]}}, "strategies.a[0]"),
    ({"strategies": ["greedy:explore=0"]}, "strategies[0]"),
    ({"strategies": [{"name": "greedy", "explore": math.nan}]}, "strategies[0]"),
    ({"strategies": [{"name": "greedy", "score": math.inf}]}, "strategies[0]"),
    ({"strategies": [{"name": "greedy", "supply_cap": -3}]}, "strategies[0]"),
    ({"strategies": [{"name": "greedy", "depth": 1.0}]}, "strategies[0]"),
    ({"board": None}, "board"), ({"board": ["base"]}, "board"),
    ({"edition": None}, "edition"), ({"options": "fast"}, "options"),
    ({"options": {"special_points": 5}}, "options"),
    ({"options": {"prestige_to_end": None}}, "options"),
    ({"seed": -1}, "seed"), ({"seed": 2**63}, "seed"), ({"seed": 1.0}, "seed"),
    ({"seed": None}, "seed"), ({"n_jobs": "2"}, "n_jobs"), ({"n_jobs": 0}, "n_jobs"),
    ({"n_jobs": 1.0}, "n_jobs"), ({"backend": None}, "backend"),
    ({"backend": "dask", "dask_address": 5}, "dask_address"),
    ({"chunk_size": 0}, "chunk_size"), ({"chunk_size": "2"}, "chunk_size"),
    ({"log": None}, "log"), ({"max_actions": 0}, "max_actions"),
    ({"max_actions": 1.5}, "max_actions"), ({"name": ""}, "name"), ({"name": 3}, "name"),
    ({"decision_time_limit": 0}, "decision_time_limit"),
    ({"decision_time_limit": "1"}, "decision_time_limit"),
    ({"decision_time_limit": True}, "decision_time_limit"),
    ({"decision_time_limit": math.inf}, "decision_time_limit"),
    ({"out": "f"}, "out"), ({"out": "f/sub"}, "out"),
]


@pytest.mark.parametrize(("kwargs", "field"), API)
def test_simulate_api(kwargs, field):
    Path("f").write_text("a file")
    args: dict[str, Any] = {"strategies": ["random"], "n_games": 3, "n_players": 3,
                            "progress": False, **kwargs}
    try:
        with pytest.raises(ExperimentError) as e:
            simulate(args.pop("strategies"), **args)
    except BaseException:
        report_case("api", kwargs, True)
        raise
    report_case("api", kwargs, False)
    assert e.value.field.startswith(field), (e.value.field, str(e.value))


RUN_API = [  # (spec, keyword arguments of run_experiment, text)
    (5, {}, "experiment"), ("missing.toml", {}, "missing.toml"),
    ({"arms": {"a": ["random"]}}, {}, "games"),
    ({"games": 3, "arms": {"a": ["random"]}}, {"games": 0}, "games"),
    ({"games": 3, "arms": {"a": ["random"]}}, {"games": 1.5}, "games"),
    ({"games": 3, "arms": {"a": ["random"]}}, {"chunk_size": -1}, "chunk_size"),
    ({"games": 3, "arms": {"a": ["random"]}}, {"n_jobs": 0}, "n_jobs"),
    ({"games": 3, "arms": {"a": ["random"]}}, {"backend": "x"}, "backend"),
    ({"games": 3, "arms": {"a": ["random"]}, "base_arm": ["a"]}, {}, "base_arm"),
    ({"games": 3, "arms": {"a": ["random"]}, "base_arm": {"a": 1}}, {}, "base_arm"),
    ({"games": 3, "arms": {1: ["random"]}}, {}, "arms"),
    ({"games": 3, "arms": {"a": ["random"]}, "options": {"special_points": "x"}}, {},
     "options"),
]


@pytest.mark.parametrize(("spec", "kwargs", "text"), RUN_API)
def test_run_experiment_api(spec, kwargs, text):
    try:
        with pytest.raises(ExperimentError) as e:
            run_experiment(spec, progress=False, **kwargs)
    except BaseException:
        report_case("api", (spec, kwargs), True)
        raise
    report_case("api", (spec, kwargs), False)
    assert text in str(e.value)


# ---------------------------------------------------------------- other commands

OTHER = [
    (["play", "--players", "6"], "--players"), (["play", "--players", "3", "--seed", "-1"],
                                                "--seed"),
    (["play", "--players", "3", "--seed", str(2**64)], "--seed"),
    (["play", "--players", "3", "--strategies", "greedy:explore=0"], "--strategies"),
    (["play", "--players", "3", "--board", "moon"], "--board"),
    (["play", "--players", "3", "--edition", "x"], "--edition"),
    (["replay", "--players", "3", "--html", "."], "--html"),
    (["replay", "--players", "3", "--html", "f/out.html"], "--html"),
    (["replay", "--players", "3", "--strategies", "nope", "--html", "o.html"], "--strategies"),
    (["replay", "--players", "3", "--seed", str(2**63), "--html", "o.html"], "--seed"),
    (["bench", "--seconds", "nan"], "--seconds"), (["bench", "--seconds", "inf"], "--seconds"),
    (["bench", "--seconds", "-1"], "--seconds"), (["bench", "--seconds", "0"], "--seconds"),
    (["bench", "--seconds", "x"], "--seconds"), (["bench", "--players", "9"], "--players"),
    (["bench", "--suite", "runner", "--games", "1"], "--games"),
    (["bench", "--suite", "gpu"], "--suite"),
    (["main", "--games", "0"], "--games"), (["main", "--jobs", "0"], "--jobs"),
    (["main", "--jobs", "x"], "--jobs"), (["nosuchcommand"], "nosuchcommand"),
]


@pytest.mark.parametrize(("argv", "text"), OTHER)
def test_other_commands(argv, text, capsys):
    Path("f").write_text("a file")
    _cli_fails(argv, text, capsys)


def test_the_corpus_is_big_enough():
    n = len(SIMULATE) + 3 + len(RUN_ARGS) + len(TOML) + 2 + len(API) + len(RUN_API) + len(OTHER)
    assert n >= 150, n


def test_strategy_ranges_are_declared_and_checked():
    greedy = make_strategy("greedy")
    assert type(greedy).ranges["explore"][0] > 0  # explore=0 has no way out of a dead end
    for bad in ("greedy:explore=0", "greedy:supply_cap=-3", "greedy:explore=nan",
                "greedy:score=inf", "greedy:depth=1.5"):
        with pytest.raises(ValueError, match=bad.split(":")[1].split("=")[0]):
            make_strategy(bad)
    assert make_strategy("greedy:explore=0.25,supply_cap=0").params["explore"] == 0.25
    assert make_strategy("greedy", depth=2).params["depth"] == 2


def test_the_console_script_prints_no_traceback(tmp_path):
    script = Path(sys.executable).parent / "hansa-lab"
    (tmp_path / "bad.toml").write_bytes(b"\xff\xfe")
    for argv in (["simulate", "--games", "3", "--option", "special_points=5"],
                 ["run", str(tmp_path / "bad.toml")], ["bench", "--seconds", "nan"]):
        proc = subprocess.run([str(script), *argv], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, (argv, proc.stderr)
