"""One line-up parser for every entry point: play, simulate, replay, the viewer and
experiment files read ``--strategies`` text the same way."""

from __future__ import annotations

import json

import pytest

from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game
from hansa_lab.sim.experiment import normalize_experiment
from hansa_lab.sim.runner import simulate
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.lineup import fill_seats, parse_lineup, split_specs
from hansa_lab.tools import cli
from hansa_lab.viz.timeline import Timeline

EXAMPLE = "greedy:depth=2,explore=0.1,random"
#: the same shape (two parameters with a comma, then a second strategy), quicker to play
QUICK = "random:establish=false,gather=false,greedy:explore=0.2"
QUICK_SPECS = ["random:establish=False,gather=False", "greedy:explore=0.2"]


def test_parameters_with_commas_stay_with_their_strategy() -> None:
    assert split_specs(EXAMPLE) == ["greedy:depth=2,explore=0.1", "random"]
    assert split_specs(" greedy:depth=2 , explore=0.1 ,, random ") == [
        "greedy:depth=2,explore=0.1", "random"]
    assert parse_lineup(EXAMPLE, 2) == ["greedy:depth=2,explore=0.1", "random"]
    assert parse_lineup("mcts:iterations=5,top_k=3,greedy:depth=2", 2) == [
        "mcts:iterations=5,top_k=3", "greedy:depth=2"]


def test_a_divisor_of_the_seats_repeats() -> None:
    assert parse_lineup("random", 5) == ["random"] * 5
    assert parse_lineup(EXAMPLE, 4) == ["greedy:depth=2,explore=0.1", "random"] * 2
    assert parse_lineup(["greedy", "random"], 2) == ["greedy", "random"]
    assert fill_seats([1, 2], 4) == [1, 2, 1, 2]
    for text, n in [("random,random", 3), ("random,random,random", 4), ("a,b,c,d,e,f", 5)]:
        with pytest.raises(ValueError, match="cannot fill"):
            fill_seats(split_specs(text), n)
    with pytest.raises(ValueError, match="at least one strategy"):
        parse_lineup(" , ", 3)


def test_strategy_objects_pass_through() -> None:
    greedy = make_strategy("greedy:depth=2")
    assert parse_lineup([greedy, "random"], 4) == [greedy, "random", greedy, "random"]


@pytest.mark.parametrize(("text", "message"), [
    ("random,nonsense", r"strategy 2 of the line-up \('nonsense'\): unknown strategy"),
    ("greedy:depth=two", r"strategy 1 .*parameter 'depth'"),
    ("greedy:speed=3", r"strategy 1 .*has no parameter 'speed'"),
    ("greedy:depth", r"parameter 'depth' is not key=value"),
])
def test_unknown_names_and_bad_parameters_are_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_lineup(text, 2)


def test_the_example_works_everywhere(tmp_path, capsys) -> None:
    assert cli.main(["play", "--players", "2", "--seed", "3", "--strategies", EXAMPLE,
                     "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [p["strategy"] for p in result["players"]] == ["greedy:depth=2,explore=0.1",
                                                          "random"]
    config = GameConfig(2, seed=3)
    played = play_game(config, QUICK)
    assert played.strategies == QUICK_SPECS
    out = tmp_path / "r.html"
    assert cli.main(["replay", "--players", "2", "--seed", "3", "--strategies", QUICK,
                     "--html", str(out)]) == 0
    assert out.exists()
    capsys.readouterr()
    # the viewer's timeline, from text as from the games table
    assert Timeline.from_seed(config, QUICK).actions == played.actions
    # simulate (API and command line) and an experiment file's string arm
    res = simulate(split_specs(QUICK), n_games=2, n_players=2, seed=3, progress=False)
    assert set(res.players.strategy) == set(QUICK_SPECS)
    assert cli.main(["simulate", "--players", "2", "--games", "2", "--strategies", QUICK,
                     "--no-progress", "--out", str(tmp_path / "sim")]) == 0
    exp = normalize_experiment({"games": 2, "players": 2, "arms": {"a": EXAMPLE}})
    assert exp.arms["a"] == ("greedy:depth=2,explore=0.1", "random")
