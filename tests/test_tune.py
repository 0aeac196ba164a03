"""Strategy files and self-play tuning (hansa_lab.strategies.strategy_file,
hansa_lab.studies.tune)."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from hansa_lab.engine.state import GameConfig
from hansa_lab.errors import ExperimentError
from hansa_lab.play import core_game, play_game
from hansa_lab.sim.results import open_results
from hansa_lab.sim.runner import run_experiment, simulate
from hansa_lab.strategies import make_strategy, strategy_file
from hansa_lab.strategies.strategy_file import (
    StrategyFileError,
    register_folder,
    registered_files,
)
from hansa_lab.studies import tune as tune_module
from hansa_lab.studies.tune import TuneSettings, heldout_seeds, tune, tuning_seeds
from hansa_lab.tools import cli

#: small enough for a few seconds on 2 cores
SMALL = TuneSettings(params=("route", "ability"), players=2, population=4, generations=3,
                     games=4, heldout_games=8, seed=5)


def without_times(log):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in log]


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    """An uninterrupted small run, with the seeds every game of it was played on."""
    played: list[tuple[str, list[int]]] = []
    real = tune_module._play

    def spy(s, candidates, opponents, seeds, n_jobs):
        played.append(("heldout" if len(candidates) == 1 else "tuning", list(seeds)))
        return real(s, candidates, opponents, seeds, n_jobs)

    mp = pytest.MonkeyPatch()
    mp.setattr(tune_module, "_play", spy)
    try:
        state = tmp_path_factory.mktemp("tune") / "state"
        res = tune(SMALL, state, name="tuned_small_2p")
    finally:
        mp.undo()
    return res, played


def write(path, text):
    path.write_text(text)
    return str(path)


# ------------------------------------------------------------------ tuning runs


def test_a_run_writes_a_strategy_file_that_loads_and_plays(tuned):
    res, _ = tuned
    assert res.out is not None and res.out.name == "tuned_small_2p.toml"
    strat = make_strategy(str(res.out))
    assert strat.name == strat.spec == "tuned_small_2p" and type(strat).name == "greedy"
    assert {k: strat.params[k] for k in ("route", "ability")} == res.params
    assert strat.source is not None
    provenance = strat.source.tuning
    assert provenance["players"] == 2 and provenance["generations"] == 3
    assert provenance["population"] == 4 and provenance["fitness"] == "margin"
    held = provenance["heldout"]
    assert held["games"] == 8 and held["win_lo"] <= held["win_share"] <= held["win_hi"]
    assert held["margin_lo"] <= held["margin"] <= held["margin_hi"]
    assert held["margin_gain_lo"] <= held["margin_gain"] <= held["margin_gain_hi"]
    assert len((res.state / "generations.jsonl").read_text().splitlines()) == 3
    rec = play_game(GameConfig(2, seed=1), [str(res.out), "greedy"], engine="core")
    assert rec.strategies == ["tuned_small_2p", "greedy"] and rec.final.end_reason


def test_an_interrupted_run_resumes_to_the_same_parameters_and_log(tuned, tmp_path,
                                                                   monkeypatch):
    res, _ = tuned
    real = tune_module._play
    calls = []

    def crash_in_generation_2(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C while generation 2 plays
        return real(*args, **kwargs)

    monkeypatch.setattr(tune_module, "_play", crash_in_generation_2)
    with pytest.raises(KeyboardInterrupt):
        tune(SMALL, tmp_path / "state", name="tuned_small_2p")
    log = (tmp_path / "state" / "generations.jsonl").read_text().splitlines()
    assert len(log) == 1  # generation 1 is kept
    monkeypatch.setattr(tune_module, "_play", real)
    again = tune(SMALL, tmp_path / "state", name="tuned_small_2p")
    assert again.generations_run == 2
    assert again.params == res.params
    assert without_times(again.log) == without_times(res.log)
    assert again.heldout == res.heldout


def test_a_run_extends_to_more_generations_like_a_longer_run(tuned, tmp_path):
    res, _ = tuned
    short = tune(TuneSettings(**{**SMALL.__dict__, "generations": 1}), tmp_path / "s",
                 name="tuned_small_2p")
    assert len(short.log) == 1
    longer = tune(SMALL, tmp_path / "s", name="tuned_small_2p")
    assert longer.generations_run == 2 and longer.params == res.params


def test_a_changed_setting_refuses_to_resume(tmp_path):
    tune(SMALL, tmp_path / "state", stop_after=1)
    changed = TuneSettings(**{**SMALL.__dict__, "fitness": "win"})
    with pytest.raises(ExperimentError, match=r"differs in: fitness \(\"margin\" there"):
        tune(changed, tmp_path / "state")
    with pytest.raises(ExperimentError, match="differs in: games"):
        tune(TuneSettings(**{**SMALL.__dict__, "games": 6}), tmp_path / "state")
    # a base given as a strategy file that changed in between
    base = write(tmp_path / "b.toml", 'name = "tune_base"\nbase = "greedy"\n[params]\n'
                 'reserve = 0.7\n')
    from_file = TuneSettings(**{**SMALL.__dict__, "base": base})
    tune(from_file, tmp_path / "s2", stop_after=1)
    write(tmp_path / "b.toml", 'name = "tune_base"\nbase = "greedy"\n[params]\nreserve = 0.9\n')
    with pytest.raises(ExperimentError, match="differs in: base_strategy"):
        tune(from_file, tmp_path / "s2")


def test_heldout_seeds_are_disjoint_from_tuning_seeds(tuned):
    _, played = tuned
    tuning = {s for kind, seeds in played if kind == "tuning" for s in seeds}
    held = {s for kind, seeds in played if kind == "heldout" for s in seeds}
    assert len(tuning) == 3 * 2 and len(held) == 4  # 2 deals x 2 rotations per generation
    assert not tuning & held
    many = {s for g in range(10_000) for s in tuning_seeds(7, g, 50)}
    assert not many & set(heldout_seeds(7, 10_000))


def test_the_heldout_check_plays_the_opponents_it_was_tuned_against(tmp_path):
    # tuned against random: held out against random too (greedy beats it nearly always),
    # not against the base (an even game), and the base is measured on the same games
    settings = TuneSettings(**{**SMALL.__dict__, "generations": 1, "opponents": "random"})
    res = tune(settings, tmp_path / "state", name="tuned_vs_random")
    held = res.heldout
    assert held["versus"] == "random"
    assert held["games"] == 8 and held["win_share"] >= 0.75
    assert held["base_win_share"] >= 0.75 and held["equal_margin"] > 0
    assert "vs random in the others" in res.summary()
    # a checkpoint whose held-out check was played against someone else is checked again
    data = pickle.loads((res.state / "checkpoint.pkl").read_bytes())
    data["heldout"] = {**data["heldout"], "versus": "greedy", "win_share": -1.0}
    (res.state / "checkpoint.pkl").write_bytes(pickle.dumps(data))
    again = tune(settings, tmp_path / "state", name="tuned_vs_random")
    assert again.generations_run == 0 and again.heldout == held


def test_the_cli_tunes_and_prints_json(tmp_path, capsys):
    out = tmp_path / "x.toml"
    assert cli.main(["tune", "--players", "2", "--params", "reserve,supply", "--population",
                     "4", "--generations", "1", "--games", "2", "--heldout-games", "2",
                     "--state", str(tmp_path / "st"), "--out", str(out), "--name", "cli_t",
                     "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strategy_file"] == str(out) and set(data["params"]) == {"reserve", "supply"}
    assert make_strategy(str(out)).name == "cli_t"
    assert cli.main(["tune", "--players", "3", "--params", "reserve,supply", "--state",
                     str(tmp_path / "st"), "--no-progress"]) == 2
    assert "--state" in capsys.readouterr().err
    assert cli.main(["tune", "--players", "2", "--params", "nope", "--state",
                     str(tmp_path / "s2")]) == 2
    assert "--params: strategy 'greedy' has no parameter 'nope'" in capsys.readouterr().err


# -------------------------------------------------------------- strategy files


@pytest.mark.parametrize("body, field, message", [
    ('name = "a1"\n[params]\nroute = 1.0\n', "base", "missing"),
    ('name = "a2"\nbase = "greedyy"\n', "base", "unknown strategy 'greedyy'"),
    ('name = "a3"\nbase = "greedy"\n[params]\nrouteing = 1.0\n', "params.routeing",
     "has no parameter 'routeing'"),
    ('name = "a4"\nbase = "greedy"\n[params]\nexplore = 5.0\n', "params.explore",
     "must be within [0, 1]"),
    ('name = "a5"\nbase = "greedy"\n[params]\nroute = "high"\n', "params.route",
     "must be a number"),
    ('name = "a6"\nbase = "greedy"\n[params]\ndepth = 3\n', "params.depth", "within [1, 2]"),
    ('base = "greedy"\n', "name", "missing"),
    ('name = "greedy"\nbase = "greedy"\n', "name", "is a registered strategy"),
    ('name = "a7"\nbase = "greedy"\ncolour = 1\n', "colour", "unknown field"),
    ('name = "a8"\nbase = "greedy\n', "", "invalid TOML"),
])
def test_strategy_file_errors_name_the_file_and_field(tmp_path, body, field, message):
    path = write(tmp_path / "bad.toml", body)
    with pytest.raises(StrategyFileError) as info:
        make_strategy(path)
    text = str(info.value)
    assert text.startswith(f"{path}: {field}: " if field else f"{path}: ")
    assert message in text


def test_an_experiment_names_the_bad_strategy_file_too(tmp_path):
    write(tmp_path / "bad.toml", 'name = "b1"\nbase = "greedy"\n[params]\nroute = -inf\n')
    exp = write(tmp_path / "e.toml", 'games = 2\nplayers = 2\n[arms]\nx = ["bad.toml"]\n')
    with pytest.raises(ExperimentError, match=r"e.toml: arms.x\[0\]: .*bad.toml: "
                                              r"params.route: must be a finite number"):
        run_experiment(exp, progress=False)


def test_a_file_strategy_plays_exactly_like_its_base_with_those_values_in_the_core(tmp_path):
    path = write(tmp_path / "f.toml", 'name = "same_as_greedy"\nbase = "greedy"\n'
                 '[params]\nroute = 1.4\nsupply_cap = 6\nreserve = 0.8\n')
    strat = make_strategy(path)
    assert core_game.core_policy(strat) is not None  # its base's twin: it decides in the core
    assert make_strategy(path + ":route=2.0").spec == "same_as_greedy:route=2.0"
    config = GameConfig(4, seed=11)
    a = play_game(config, [path, "greedy", "random", "greedy"], engine="core")
    b = play_game(config, ["greedy:route=1.4,supply_cap=6,reserve=0.8", "greedy",
                                "random", "greedy"], engine="core")
    assert a.actions == b.actions and a.strategies[0] == "same_as_greedy"


def test_shipped_files_are_registered_by_name_and_names_stay_unique(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    write(folder / "s.toml", 'name = "shipped_demo"\nbase = "blocker"\n[params]\ntip = 2.0\n')
    register_folder(folder, shipped=True)
    assert "shipped_demo" in registered_files()
    strat = make_strategy("shipped_demo:route=1.5")
    assert (type(strat).name, strat.params["tip"], strat.spec) == \
        ("blocker", 2.0, "shipped_demo:route=1.5")
    other = write(tmp_path / "o.toml", 'name = "shipped_demo"\nbase = "greedy"\n')
    with pytest.raises(StrategyFileError, match="name: 'shipped_demo' is already the name "
                                                "of a shipped strategy file"):
        make_strategy(other)


def test_a_pickled_file_strategy_rebuilds_from_its_spec_in_another_process(tmp_path):
    path = write(tmp_path / "p.toml", 'name = "travels"\nbase = "greedy"\n'
                 '[params]\nability = 1.7\n')
    blob = pickle.dumps(make_strategy(path + ":route=0.5"))
    code = ("import pickle, sys; from hansa_lab.strategies import make_strategy; "
            "s = pickle.loads(sys.stdin.buffer.read()); r = make_strategy(s.spec); "
            "print(s.spec, r.params == s.params, r.params['ability'], r.params['route'])")
    out = subprocess.run([sys.executable, "-c", code], input=blob, capture_output=True,
                         check=True, cwd=tmp_path / "..").stdout.decode().split()
    assert out == ["travels:route=0.5", "True", "1.7", "0.5"]


def test_a_file_strategy_runs_in_loky_workers_through_simulate_and_an_experiment(tmp_path,
                                                                                 capsys):
    folder = tmp_path / "strats"
    folder.mkdir()
    path = write(folder / "w.toml", 'name = "in_workers"\nbase = "greedy"\n'
                 '[params]\nroute = 1.6\n')
    by_file = simulate([path, "greedy"], n_games=4, n_players=2, n_jobs=2, log="summary",
                       chunk_size=1, progress=False)
    by_spec = simulate(["greedy:route=1.6", "greedy"], n_games=4, n_players=2, n_jobs=1,
                       log="summary", progress=False)
    assert by_file.manifest["configuration"]["arms"] == {"main": ["in_workers", "greedy"]}
    assert by_file.manifest["strategies"]["in_workers"]["params"]["route"] == 1.6
    assert set(by_file.players.strategy) == {"in_workers", "greedy"}
    assert by_file.players.total.tolist() == by_spec.players.total.tolist()

    # an experiment file names it by a path relative to itself
    exp = write(tmp_path / "exp.toml", 'name = "files"\ngames = 4\nplayers = 2\njobs = 2\n'
                'log = "summary"\nchunk_size = 1\n[arms]\nbase = ["greedy"]\n'
                'tuned = ["strats/w.toml", "greedy"]\n')
    res = run_experiment(exp, out=tmp_path / "out", progress=False)
    config = res.manifest["configuration"]
    assert config["arms"]["tuned"] == ["in_workers", "greedy"]
    assert config["strategy_files"]["in_workers"]["params"]["route"] == 1.6
    tuned = res.players[res.players.arm == "tuned"]
    assert tuned.total.tolist() == by_spec.players.total.tolist()
    # opened in a process that never saw the file, its games still replay by spec
    del strategy_file._FILES["in_workers"]
    again = open_results(tmp_path / "out")
    assert make_strategy("in_workers").params == make_strategy(path).params
    assert again.manifest["strategies"]["in_workers"]["file"]["file"] == str(folder / "w.toml")
    # the file changed: the stored run is not resumed with other values
    write(folder / "w.toml", 'name = "in_workers"\nbase = "greedy"\n[params]\nroute = 1.7\n')
    with pytest.raises(ExperimentError, match="differs in: strategy_files"):
        run_experiment(exp, out=tmp_path / "out", progress=False)

    assert cli.main(["simulate", "--strategies", f"{folder / 'w.toml'},greedy", "--players",
                     "2", "--games", "2", "--jobs", "2", "--no-progress", "--log",
                     "summary"]) == 0
    assert "in_workers" in capsys.readouterr().out


def test_a_tip_weight_is_not_tuned_by_default() -> None:
    from hansa_lab.studies.tune import search_space

    for base in ("learned", "strong"):
        names = [p.name for p in search_space(base)]
        assert "tip_weight" not in names and "explore" not in names, (base, names)
