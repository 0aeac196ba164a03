"""Answers per population: the table, the agreement line (constructed answers with known
verdicts and intervals) and one small real study, resumed."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from hansa_lab.stats.population_answers import (
    NOT_APPLICABLE,
    PopulationAnswer,
    agreement_line,
    answers_table,
    seat_answer,
    tip_answers,
)
from hansa_lab.stats.synthetic import synthetic_tables
from hansa_lab.studies.populations import compare_populations, parse_populations, tip_spec


def _a(pop: str, question: str, est: float, lo: float, hi: float, verdict: str,
       unit: str = "points") -> PopulationAnswer:
    return PopulationAnswer(pop, question, est, lo, hi, unit, "m", verdict, 100)


def test_differ_only_when_the_intervals_are_apart():
    t = answers_table([
        _a("g", "tip a", 2.0, 1.0, 3.0, "helps"), _a("p", "tip a", -2.0, -3.0, -1.0, "hurts"),
        # different verdicts, overlapping intervals: no evidence they differ
        _a("g", "tip b", 1.0, 0.1, 1.9, "helps"), _a("p", "tip b", 0.5, -0.5, 1.5,
                                                       "no clear effect"),
        # same verdict, intervals apart: the sizes differ, so "differ"
        _a("g", "tip c", 1.0, 0.5, 1.5, "helps"), _a("p", "tip c", 4.0, 3.0, 5.0, "helps"),
        # both conclusive and alike: agree
        _a("g", "tip d", 1.0, 0.5, 1.5, "helps"), _a("p", "tip d", 1.2, 0.4, 2.0, "helps"),
    ])
    line = agreement_line(t)
    head, rest = line.split(" — ")
    assert head == "g vs p"
    agree = rest.split("agree: ")[1].split("; differ:")[0]
    differ = rest.split("differ: ")[1].split("; no evidence")[0]
    unclear = rest.split("no evidence they differ: ")[1]
    assert "tip d" in agree and "tip a" not in agree
    assert "tip a" in differ and "tip c" in differ and "tip b" not in differ
    assert "tip b" in unclear and "tip d" not in unclear


def test_inconclusive_alike_is_not_agreement_and_not_applicable_is_left_out():
    t = answers_table([
        _a("g", "seats", 0.25, 0.2, 0.3, "no clear seat difference", "win share of seat 0"),
        _a("s", "seats", 0.3, 0.22, 0.38, "no clear seat difference", "win share of seat 0"),
        _a("g", "tip a", 1.0, 0.5, 1.5, "helps"),
        PopulationAnswer("s", "tip a", math.nan, math.nan, math.nan, "points", "m",
                         NOT_APPLICABLE, 0),
    ])
    line = agreement_line(t)
    assert "agree:" not in line and "no evidence they differ: seats" in line
    assert "tip a" not in line  # asked of one population only
    assert list(t["question"]) == ["seats", "seats", "tip a", "tip a"]


def test_the_answers_read_the_seat_and_tip_tables():
    t = synthetic_tables(["base"], n_deals=400, n_players=4, seat_bonus=[8, 0, 0, 0])
    a = seat_answer("x", t["players"], t["games"])
    assert a.verdict == "unbalanced" and a.lo > 0.25 and a.games == 400
    fair = synthetic_tables(["base"], n_deals=400, n_players=4, seed=3)
    assert seat_answer("y", fair["players"], fair["games"]).verdict != "unbalanced"
    arms = synthetic_tables({"good": ["plus3", "base"], "same": ["base"], "base": ["base"]},
                            n_deals=60, n_players=2, noise_sd=1.0)
    tips = {x.question: x for x in tip_answers("x", arms["players"], arms["games"])}
    assert tips["tip good"].verdict == "helps" and tips["tip good"].lo > 0
    assert tips["tip same"].verdict != "helps" and tips["tip good"].games == 120


def test_populations_parse_check_and_name():
    pops = parse_populations("greedy:depth=1,planner")
    assert [p.name for p in pops] == ["greedy", "planner"]
    with pytest.raises(ValueError, match="more than once"):
        parse_populations("greedy,greedy")
    with pytest.raises(ValueError, match="population 'nosuch'"):
        parse_populations("nosuch")
    planner = parse_populations("planner")[0]
    assert tip_spec("actions_first", planner).startswith("actions_first:ability=1.388")
    assert tip_spec("blocker", parse_populations({"mix": ["greedy", "planner"]})[0]) is None
    with pytest.raises(ValueError, match="not a strategy tip"):
        tip_spec("greedy", planner)


def test_a_small_study_side_by_side_and_resumed(tmp_path):
    kw = {"games": 8, "tip_games": 8, "tips": ("blocker",), "out": tmp_path, "n_jobs": 1}
    study = compare_populations("greedy,random", **kw)
    t = study.answers
    assert set(zip(t.population, t.question, strict=True)) == {
        ("greedy", "seats"), ("random", "seats"), ("greedy", "tip blocker"),
        ("random", "tip blocker")}
    assert t.loc[(t.population == "random") & (t.question == "tip blocker"),
                 "verdict"].item() == NOT_APPLICABLE
    greedy_seats = t[(t.population == "greedy") & (t.question == "seats")].iloc[0]
    assert greedy_seats.cost_vs_reference == pytest.approx(1.0)  # CPU seconds, not wall
    assert greedy_seats.cpu_seconds_per_game > 0
    assert study.agreement.endswith(f"CPU per game beside all-greedy "
                                    f"({study.reference_cpu_seconds:.3f} s): greedy 1.0x, "
                                    f"random {t.cost_vs_reference.iloc[1]:.1f}x")
    assert greedy_seats.games == 8 and 0 <= greedy_seats.lo <= greedy_seats.hi <= 1
    assert study.agreement.startswith("greedy vs random — ")
    assert (tmp_path / "greedy" / "seats").is_dir() and (tmp_path / "greedy" / "tips").is_dir()
    # resumed: the stored games are read back, nothing is replayed
    stamp = {p: p.stat().st_mtime_ns for p in (tmp_path / "greedy").rglob("*.parquet")}
    again = compare_populations("greedy,random", **kw)
    assert {p: p.stat().st_mtime_ns for p in stamp} == stamp
    pd.testing.assert_frame_equal(again.answers, study.answers)
    with pytest.raises(ValueError, match="questions"):
        compare_populations("greedy", questions=("speed",), out=tmp_path)


def test_the_command_refuses_bad_populations_and_questions(tmp_path, capsys):
    from hansa_lab.tools.cli import main

    assert main(["populations", "--populations", "nosuch", "--out", str(tmp_path)]) == 2
    assert "population 'nosuch': unknown strategy" in capsys.readouterr().err
    assert main(["populations", "--questions", "seats,speed", "--out", str(tmp_path)]) == 2
    assert "questions: unknown ['speed']" in capsys.readouterr().err
    assert main(["populations", "--tips", " , ", "--out", str(tmp_path)]) == 2
    assert "--tips: name at least one" in capsys.readouterr().err


def test_games_per_population_and_its_errors(tmp_path):
    study = compare_populations("greedy,random", questions=("seats",), games={"greedy": 8,
                                "random": 4}, out=tmp_path, n_jobs=1)
    assert dict(zip(study.answers.population, study.answers.games, strict=True)) == {
        "greedy": 8, "random": 4}
    with pytest.raises(ValueError, match="no count for population 'random'"):
        compare_populations("greedy,random", games={"greedy": 8}, out=tmp_path)
    with pytest.raises(ValueError, match="'planner' is not one of the populations"):
        compare_populations("greedy", games={"greedy": 8, "planner": 8}, out=tmp_path)
    with pytest.raises(ValueError, match="whole number of games >= 1, not 0"):
        compare_populations("greedy", games={"greedy": 0}, out=tmp_path)


def test_the_command_reads_games_per_population(tmp_path, capsys):
    from hansa_lab.tools.cli import main

    assert main(["populations", "--populations", "greedy,random", "--questions", "seats",
                 "--games", "greedy=8,random=4", "--jobs", "1", "--no-progress",
                 "--out", str(tmp_path)]) == 0
    answers = pd.read_csv(tmp_path / "answers.csv")
    assert answers.set_index("population").games.to_dict() == {"greedy": 8, "random": 4}
    with pytest.raises(SystemExit):
        main(["populations", "--games", "greedy=x", "--out", str(tmp_path)])
    assert "--games greedy must be an integer" in capsys.readouterr().err
