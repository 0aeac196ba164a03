"""Plan and stop: part of an experiment, the games a precision needs (from a pilot), and
runs that stop as soon as the question is decided."""

from __future__ import annotations

import re

import pytest

from hansa_lab.errors import ExperimentError
from hansa_lab.sim.experiment import normalize_experiment
from hansa_lab.studies.planning import decide_arms, plan_experiment
from hansa_lab.tools import cli

SPEC = {"name": "quick", "games": 8, "players": [2, 4], "seed": 5,
        "arms": {"base": ["random"], "lazy": ["random:establish=false", "random"],
                 "same": ["random:gather=true", "random"]}}


def experiment(**changes):
    return normalize_experiment({**SPEC, **changes})


def test_select_part_of_an_experiment() -> None:
    part = experiment().select(["lazy"], [2])
    assert list(part.arms) == ["base", "lazy"] and part.name == "quick--lazy--2p"
    assert [c.n_players for c in part.conditions] == [2]
    assert list(experiment().select(players=[4]).arms) == ["base", "lazy", "same"]
    with pytest.raises(ExperimentError, match="no arm 'nope'"):
        experiment().select(["nope"])
    with pytest.raises(ExperimentError, match="no condition with 5 players"):
        experiment().select(players=[5])


def test_a_plan_scales_with_the_precision() -> None:
    exp = experiment().select(["lazy"], [2])
    coarse = plan_experiment(exp, 4.0)
    fine = plan_experiment(exp, 1.0)
    assert coarse.pilot_games == fine.pilot_games > 0 and coarse.seconds > 0
    assert fine.deals >= 4 * coarse.deals - 8  # the interval narrows as 1/sqrt(deals)
    assert fine.games == fine.deals * 2  # the tip arm plays 2 rotations per deal
    assert "for ±1 points on each arm's paired difference" in str(fine)
    solo = plan_experiment(normalize_experiment({"games": 4, "players": 3,
                                                 "arms": {"a": ["random"]}}), 2.0)
    assert solo.basis == "each strategy's mean final score" and solo.games >= 2
    with pytest.raises(ValueError, match="positive"):
        plan_experiment(exp, 0.0)


def test_decide_stops_when_the_question_is_answered() -> None:
    exp = experiment().select(["same"], [2])
    [(arm, result)] = decide_arms(exp, effect=25.0, max_deals=60, batch_deals=10).items()
    assert arm == "same" and result.decision == "no difference"
    assert result.n_pairs < 60 and -25 < result.lo <= result.hi < 25
    with pytest.raises(ValueError, match="one condition"):
        decide_arms(experiment(), effect=1.0)


def test_run_command_line(tmp_path, capsys) -> None:
    path = tmp_path / "quick.toml"
    path.write_text('name = "quick"\ngames = 4\nplayers = [2, 4]\n'
                    '[arms]\nbase = ["random"]\nlazy = ["random:establish=false", "random"]\n')
    assert cli.main(["run", str(path), "--arms", "nope"]) == 2
    assert "--arms: no arm 'nope'" in capsys.readouterr().err
    assert cli.main(["run", str(path), "--players", "2", "--until-decided"]) == 2
    assert "--effect" in capsys.readouterr().err
    assert cli.main(["run", str(path), "--players", "2", "--plan", "--precision", "3"]) == 0
    assert capsys.readouterr().out.startswith("plan: for ±3 points")
    assert not (tmp_path / "results").exists()
    out = tmp_path / "part"
    assert cli.main(["run", str(path), "--players", "4", "--arms", "lazy", "--out", str(out),
                     "--no-progress"]) == 0
    report = capsys.readouterr().out
    assert "quick--lazy--4p" in report and "Verdicts" in report
    assert cli.main(["run", str(path), "--players", "2", "--until-decided", "--effect", "30",
                     "--max-deals", "40", "--batch-deals", "10"]) == 0
    decided = " ".join(capsys.readouterr().out.split())  # never establishing hurts
    assert "each arm against base, whose players are random" in decided
    assert "the 30 points that matter is not ruled out" in decided or "hurts" in decided
    assert re.search(r"lazy \(opponents: random\) (hurts: it )?scores less than base", decided)
    assert "RCI" not in decided and "pairs" not in decided


def test_simulate_plans_its_games(capsys) -> None:
    assert cli.main(["simulate", "--players", "3", "--strategies", "random",
                     "--precision", "2", "--plan"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("plan: for ±2 points on each strategy's mean final score")
    assert cli.main(["simulate", "--players", "3", "--strategies", "random"]) == 2
    assert "--games: give the number of games" in capsys.readouterr().err
    assert cli.main(["simulate", "--players", "3", "--strategies", "random", "--precision",
                     "8", "--no-progress"]) == 0
    assert "Seat balance:" in capsys.readouterr().out
