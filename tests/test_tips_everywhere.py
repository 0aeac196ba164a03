"""A tip is a bias any evaluating player can carry (``greedy``, ``planner``, ``learned``,
``strong``: ``strong:tip=actions_first``), so the main job and ``populations`` can ask
"does this tip help?" among strong players too."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import hansa_lab.viz.report as report
from hansa_lab.engine.board import A_ACTIONS
from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game
from hansa_lab.sim.results import open_results
from hansa_lab.stats.population_answers import NOT_APPLICABLE
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.greedy import TIPS, ActionsFirst, Blocker
from hansa_lab.strategies.learned_search import Strong
from hansa_lab.studies.populations import parse_populations, tip_spec
from hansa_lab.tools import cli


@pytest.mark.parametrize("spec", ["strong:tip=actions_first", "learned:tip=keep_supply",
                                  "strong:tip=blocker,tip_weight=0.5",
                                  "learned_rollout:tip=network_keys"])
def test_a_learned_players_tip_is_a_parameter_that_round_trips(spec: str) -> None:
    player = make_strategy(spec)
    assert player.spec == spec
    assert make_strategy(player.spec).params == player.params
    assert player.params["tip"] in TIPS


def test_greedy_and_its_strategy_files_carrying_a_tip_are_the_tips_strategy() -> None:
    assert make_strategy("greedy:tip=actions_first").spec == "actions_first"
    weighted = make_strategy("greedy:tip=blocker,tip_weight=2")
    assert isinstance(weighted, Blocker) and weighted.params["tip"] == 2.0
    planner = make_strategy("planner")
    carried = make_strategy("planner:tip=actions_first")
    assert isinstance(carried, ActionsFirst)
    # the planner's evaluation weights, the tip on top
    assert all(carried.params[k] == v for k, v in planner.params.items())
    assert make_strategy(carried.spec).params == carried.params
    rush = make_strategy("actions_rush:tip=network_keys")
    assert rush.params["plan_actions"] == make_strategy("actions_rush").params["plan_actions"]
    assert make_strategy("greedy:tip=none").spec == "greedy"


@pytest.mark.parametrize(("spec", "message"), [
    ("rollout:tip=actions_first", "'rollout' cannot carry a tip"),
    ("random:tip=blocker", "'random' cannot carry a tip"),
    ("ismcts:tip=keep_supply", "players that carry one: greedy"),
    ("strong:tip=rush", "no tip 'rush' (tips: actions_first, blocker"),
    ("greedy:tip=rush", "no tip 'rush'"),
    ("actions_first:tip=blocker", "give greedy:tip=blocker"),
])
def test_a_tip_a_player_cannot_carry_is_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make_strategy(spec)


def test_populations_ask_the_tips_of_strong_players_and_refuse_the_others() -> None:
    [strong, rollout] = parse_populations("strong,rollout")
    assert tip_spec("actions_first", strong) == "strong:tip=actions_first"
    assert tip_spec("actions_first", rollout) is None
    [carrying] = parse_populations("strong:tip=blocker")
    assert tip_spec("actions_first", carrying) is None  # one tip at a time
    with pytest.raises(ValueError, match="not a strategy tip"):
        tip_spec("greedy", strong)


def _actions_levels(focal: str, plain: str, seeds: range) -> list[int]:
    """Seat 0's final Actions level in 4-player games of ``focal`` against three
    ``plain``, one per seed (played in the core)."""
    return [play_game(GameConfig(4, seed=seed), [focal, plain, plain, plain], engine="core")
            .final.levels[0][A_ACTIONS] for seed in seeds]


@pytest.mark.parametrize("player", ["strong", "learned"])
def test_actions_first_makes_a_searching_player_develop_actions_further(player: str) -> None:
    seeds = range(4)
    player = f"{player}:temperature=0"  # the best candidate always: game by game, the tip
    plain = _actions_levels(player, player, seeds)  # alone makes the difference
    tipped = _actions_levels(f"{player},tip=actions_first", player, seeds)
    # measured: strong ends on Actions level 1 in every game, with the tip on 3 in most
    assert sum(tipped) > sum(plain), (plain, tipped)
    assert sum(t >= p for t, p in zip(tipped, plain, strict=True)) == len(seeds)


def test_a_tip_weighted_zero_plays_as_the_plain_player() -> None:
    config = GameConfig(3, seed=5)
    plain = play_game(config, ["strong", "strong", "strong"], engine="core")
    zero = play_game(config, ["strong:tip=blocker,tip_weight=0", "strong", "strong"], engine="core")
    assert zero.actions == plain.actions
    tipped = play_game(config, ["strong:tip=network_keys,tip_weight=3", "strong",
                                     "strong"], engine="core")
    assert tipped.actions != plain.actions  # the bias is not ignored


def test_a_tipped_strong_player_decides_alike_in_both_engines() -> None:
    config = GameConfig(3, seed=2)
    lineup = ["strong:tip=actions_first", "greedy", "strong"]
    in_core = play_game(config, lineup, engine="core")
    in_python = play_game(config, lineup)
    assert in_python.actions == in_core.actions
    assert isinstance(make_strategy(lineup[0]), Strong)


TINY_TIPS = """
name = "tiny_tips"
games = 6
players = 3
base_arm = "base"
[arms]
base = ["greedy"]
actions_first = ["actions_first", "greedy", "greedy"]
keep_supply = ["keep_supply", "greedy", "greedy"]
"""


def test_the_main_job_answers_each_tip_among_greedy_and_strong_players(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "tiny_tips.toml").write_text(TINY_TIPS, "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "MAIN_EXPERIMENT", "tiny_tips.toml")
    monkeypatch.setattr(report, "write_report", lambda res, path, **kw: Path(path).resolve())
    assert cli.main(["main", "--games", "6", "--strong-games", "3", "--jobs", "1",
                     "--no-progress", "--out", "out"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("hansa-lab main: tiny_tips.toml at a quick size")
    assert "then its tips carried by strong players (3 games per tip)" in " ".join(out.split())
    answers = pd.read_csv(tmp_path / "out" / "populations" / "answers.csv")
    # every tip of the experiment, among both populations, one row each
    assert sorted(zip(answers.population, answers.question, strict=True)) == [
        ("greedy", "tip actions_first"), ("greedy", "tip keep_supply"),
        ("strong", "tip actions_first"), ("strong", "tip keep_supply")]
    assert (answers.verdict != NOT_APPLICABLE).all()
    # the greedy rows are the run's own games (read back, not played again)
    run = open_results(tmp_path / "out")
    greedy = answers[answers.population == "greedy"]
    assert set(greedy.games) == {int((run.games["arm"] == "actions_first").sum())}
    played = open_results(tmp_path / "out" / "populations" / "strong" / "tips")
    assert "strong:tip=actions_first" in set(played.players["strategy"])
    agreement = (tmp_path / "out" / "populations" / "agreement.txt").read_text("utf-8")
    assert agreement.startswith("greedy vs strong")
    flat = " ".join(out.split())
    assert " ".join(agreement.split()) in flat
    assert "Does each tip help, and among which players?" in flat
    assert all(len(line) <= 100 for line in out.splitlines())
    # asked to skip the strong players, the job is the greedy experiment alone
    assert cli.main(["main", "--games", "6", "--jobs", "1", "--no-progress", "--out", "out2",
                     "--greedy-only"]) == 0
    assert "among which players" not in capsys.readouterr().out
    assert not (tmp_path / "out2" / "populations").exists()
