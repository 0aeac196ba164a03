"""Balance by skill (issue 39, item 3): the convergence rule on constructed ladders whose
answer is known (converged, changing at the top, small samples), the agreement line's
seats, populations and CPU cost, the ladder as populations, and one tiny real study."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from hansa_lab.stats.convergence import (
    CONVERGED,
    STILL_CHANGING,
    TOO_FEW_TO_TELL,
    effect_convergence,
    ladder_sentence,
    seat_convergence,
    seat_homogeneity,
)
from hansa_lab.stats.intervals import wilson_interval
from hansa_lab.stats.population_answers import (
    NOT_APPLICABLE,
    PopulationAnswer,
    agreement_line,
    answers_table,
)
from hansa_lab.stats.verdicts import TOO_FEW
from hansa_lab.studies.populations import compare_populations, ladder_populations


def _rung(name: str, wins: list[float], verdict: str = "unbalanced",
          cpu: float = math.nan, cost: float = math.nan) -> PopulationAnswer:
    """A rung's seat answer from its win counts by seat (Wilson intervals)."""
    games = sum(wins)
    lo, hi = wilson_interval(np.array(wins), np.full(len(wins), games))
    seats = tuple((s, w / games, float(a), float(b))
                  for s, (w, a, b) in enumerate(zip(wins, lo, hi, strict=True)))
    return PopulationAnswer(name, "seats", seats[0][1], seats[0][2], seats[0][3],
                            "win share of seat 0 (first player)", "m", verdict, int(games),
                            cpu_seconds_per_game=cpu, cost_vs_reference=cost, seats=seats)


def _drawn(name: str, shares: list[float], games: int, seed: int,
           verdict: str = "unbalanced") -> PopulationAnswer:
    wins = np.random.default_rng(seed).multinomial(games, shares)
    return _rung(name, [float(w) for w in wins], verdict)


FAVOURED = [0.40, 0.30, 0.15, 0.15]
FAIR = [0.25, 0.25, 0.25, 0.25]
NAMES = ["novice", "middle", "good", "best"]


def test_a_converged_ladder_names_the_rung_and_the_top_answer() -> None:
    rows = [_drawn("novice", FAIR, 800, 1, "balanced"), _drawn("middle", FAVOURED, 800, 2),
            _drawn("good", FAVOURED, 800, 3), _drawn("best", FAVOURED, 800, 4)]
    c = seat_convergence(answers_table(rows), NAMES)
    assert (c.state, c.rung) == (CONVERGED, 2)
    assert c.p_value >= 0.05 and c.test == "chi-square test of homogeneity"
    assert c.text.startswith("seats: from rung 2 (middle) upward no evidence the answer "
                             "changes: unbalanced at best, favoured over the fair share "
                             "25.0%: seat 0 (first player)")
    assert "rungs 2–4" in c.text and "not proof of equality" in c.text
    # every rung alike: "at every rung"
    same = [_drawn(n, FAVOURED, 800, i) for i, n in enumerate(NAMES)]
    c = seat_convergence(answers_table(same), NAMES)
    assert c.rung == 1 and "at every rung no evidence" in c.text


def test_a_ladder_changing_at_the_top_says_what_differs() -> None:
    moved = [0.25, 0.40, 0.20, 0.15]  # the edge moves from seat 0 to seat 1 at the top
    rows = [_drawn("novice", FAVOURED, 800, 1), _drawn("middle", FAVOURED, 800, 2),
            _drawn("good", FAVOURED, 800, 3), _drawn("best", moved, 800, 4)]
    c = seat_convergence(answers_table(rows), NAMES)
    assert c.state == STILL_CHANGING and c.rung is None and c.p_value < 0.001
    assert c.text.startswith("seats: still changing at the top rung — ")
    assert "seat 0 (first player)" in c.text and "seat 1 " in c.text
    assert "at good" in c.text and "at best" in c.text
    assert "verdict" not in c.text  # both unbalanced: only the shares differ


def test_a_change_of_verdict_alone_is_a_change() -> None:
    rows = [_rung("good", [250, 250, 250, 250], "balanced"),
            _rung("best", [250, 250, 250, 250], "no clear seat difference")]
    c = seat_convergence(answers_table(rows), ["good", "best"])
    assert c.state == STILL_CHANGING and c.p_value == pytest.approx(1.0)
    assert "verdict balanced at good, no clear seat difference at best" in c.text


def test_a_change_below_the_top_rungs_is_left_behind() -> None:
    """The scan stops at the first inconsistent set from the top: a lower rung that
    differs does not hide the agreement above it."""
    rows = [_drawn("novice", FAVOURED, 800, 1), _drawn("middle", FAIR, 800, 2, "balanced"),
            _drawn("good", FAIR, 800, 3, "balanced"), _drawn("best", FAIR, 800, 4, "balanced")]
    c = seat_convergence(answers_table(rows), NAMES)
    assert (c.state, c.rung) == (CONVERGED, 2)
    assert "no seat clearly off the fair share 25.0%" in c.text


def test_small_samples_cannot_tell_or_see_only_large_changes() -> None:
    few = [_rung("good", [2, 1, 1, 0], TOO_FEW), _rung("best", [1, 2, 0, 1], TOO_FEW)]
    c = seat_convergence(answers_table(few), ["good", "best"])
    assert c.state == TOO_FEW_TO_TELL and "too few games at the top rungs" in c.text
    # 12 games a rung: the Monte Carlo test, and a real change too small to see
    small = [_rung("good", [5, 3, 2, 2], "no clear seat difference"),
             _rung("best", [3, 5, 2, 2], "no clear seat difference")]
    c = seat_convergence(answers_table(small), ["good", "best"])
    assert c.test == "Monte Carlo test of homogeneity" and c.state == CONVERGED
    assert "no evidence the answer changes" in c.text
    one = seat_convergence(answers_table([small[0]]), ["good"])
    assert one.state == TOO_FEW_TO_TELL and "one rung only" in one.text


def test_one_sentence_per_player_count_says_favoured_and_converged() -> None:
    converged = answers_table([_drawn(n, FAVOURED, 800, i) for i, n in enumerate(NAMES)])
    line = ladder_sentence(4, converged, NAMES)
    assert line.startswith("At 4 players, among the top rungs (good, best): at best "
                           "unbalanced — favoured over the fair share 25.0%: seat 0 (first "
                           "player) ")
    assert "; converged: no evidence the answer changes at every rung" in line
    assert line.endswith(").") and line.count(". ") == 0  # one sentence
    moved = [_drawn("novice", FAVOURED, 800, 1), _drawn("middle", FAVOURED, 800, 2),
             _drawn("good", FAVOURED, 800, 3), _drawn("best", [.25, .4, .2, .15], 800, 4)]
    assert "; not converged: still changing at the top rung — " in ladder_sentence(
        4, answers_table(moved), NAMES)
    few = answers_table([_rung("good", [2, 1, 1], TOO_FEW), _rung("best", [1, 2, 1], TOO_FEW)])
    line = ladder_sentence(3, few, ["good", "best"])
    assert line.startswith("At 3 players, among the top rungs (good, best): at best too few "
                           "games to tell; convergence unknown: too few games at the top "
                           "rungs")


def test_the_homogeneity_test_holds_its_level_and_sees_a_change() -> None:
    rng = np.random.default_rng(7)
    null = [seat_homogeneity(rng.multinomial(300, FAVOURED, size=3).astype(float))[0]
            for _ in range(300)]
    assert 0.02 <= float(np.mean(np.array(null) < 0.05)) <= 0.09
    small = [seat_homogeneity(rng.multinomial(10, FAVOURED, size=2).astype(float),
                              n_mc=2000)[0] for _ in range(200)]
    assert float(np.mean(np.array(small) < 0.05)) <= 0.08  # Monte Carlo: not anti-conservative
    change = np.vstack([rng.multinomial(600, FAVOURED), rng.multinomial(600, FAIR)])
    assert seat_homogeneity(change.astype(float))[0] < 1e-6


def test_a_tip_effect_converges_or_changes() -> None:
    def tip(name: str, est: float, half: float, verdict: str) -> PopulationAnswer:
        return PopulationAnswer(name, "tip x", est, est - half, est + half, "points", "t",
                                verdict, 200)

    same = answers_table([tip("a", 3.0, 1.0, "helps"), tip("b", 3.4, 1.0, "helps"),
                          tip("c", 3.1, 0.8, "helps")])
    c = effect_convergence(same, "tip x", ["a", "b", "c"])
    assert (c.state, c.rung) == (CONVERGED, 1) and "Cochran's Q" in c.text
    flipped = answers_table([tip("a", 3.0, 1.0, "helps"), tip("b", 3.4, 1.0, "helps"),
                             tip("c", -0.2, 0.7, "no clear effect")])
    c = effect_convergence(flipped, "tip x", ["a", "b", "c"])
    assert c.state == STILL_CHANGING
    assert "+3.4 [+2.4, +4.4] points at b, -0.2 [-0.9, +0.5] at c" in c.text
    # a rung that cannot carry the tip is left out; the others keep their places
    skipped = answers_table([
        tip("a", -1.0, 0.5, "hurts"), tip("b", 3.0, 1.0, "helps"),
        PopulationAnswer("c", "tip x", math.nan, math.nan, math.nan, "points", "t",
                         NOT_APPLICABLE, 0), tip("d", 3.2, 1.0, "helps")])
    c = effect_convergence(skipped, "tip x", ["a", "b", "c", "d"])
    assert (c.state, c.rung, c.rungs) == (CONVERGED, 2, ("a", "b", "d"))
    assert "from rung 2 (b) upward" in c.text and "rungs 2 and 4" in c.text


def test_the_agreement_line_names_every_population_every_seat_and_the_cpu_cost() -> None:
    rows = [_rung("greedy", [100, 100, 100, 100], "balanced", 0.02, 1.0),
            _rung("planner", [160, 120, 60, 60], cpu=0.03, cost=1.5),
            _rung("strong", [150, 130, 60, 60], cpu=0.5, cost=25.0)]
    line = agreement_line(answers_table(rows), reference="greedy", reference_cpu=0.02)
    assert line.startswith("greedy vs planner vs strong — ")
    for seat in ("seat 0 (first player)", "seat 1", "seat 2", "seat 3"):
        assert seat in line
    assert line.endswith("CPU per game beside all-greedy (0.020 s): greedy 1.0x, "
                         "planner 1.5x, strong 25.0x")
    # seats that say the same thing are named together, not repeated
    alike = [_rung("a", [100, 100, 100, 100], "balanced"),
             _rung("b", [101, 99, 100, 100], "balanced")]
    line = agreement_line(answers_table(alike))
    assert line == ("a vs b — agree: seats, seat 0 (first player), seat 1, seat 2 and "
                    "seat 3 (a balanced, b balanced)")


def test_the_ladder_is_the_skill_rungs_in_order() -> None:
    from hansa_lab.studies.skill import skill_rungs

    pops = ladder_populations("base", 4)
    assert list(pops.items()) == [(r.label, r.spec) for r in skill_rungs("base", 4)]
    with pytest.raises(ValueError, match="board"):
        ladder_populations("moon", 4)


def test_a_tiny_ladder_study_states_its_convergence(tmp_path) -> None:
    study = compare_populations({"random": "random", "greedy": "greedy"}, questions=("seats",),
                                games=6, players=3, out=tmp_path, n_jobs=1, ladder=True)
    assert study.rungs == ("random", "greedy")
    [c] = study.convergence
    assert c.question == "seats" and c.rungs == ("random", "greedy")
    t = study.answers
    assert (t["cpu_seconds_per_game"] > 0).all()
    greedy = t[t.population == "greedy"].iloc[0]
    assert greedy.cost_vs_reference == pytest.approx(1.0)
    assert "CPU per game beside all-greedy" in study.agreement
    plain = compare_populations("random,greedy", questions=("seats",), games=6, players=3,
                                out=tmp_path, n_jobs=1)
    assert plain.rungs == () and plain.convergence == ()


def test_the_command_refuses_ladder_with_populations(tmp_path, capsys) -> None:
    from hansa_lab.tools.cli import main

    assert main(["populations", "--ladder", "--populations", "greedy",
                 "--out", str(tmp_path)]) == 2
    assert "--ladder: " in capsys.readouterr().err
    assert main(["populations", "--ladder", "--board", "moon", "--out", str(tmp_path)]) == 2
    assert "--board: unknown board 'moon'" in capsys.readouterr().err


def test_the_figure_draws_one_line_per_seat_and_the_fair_share() -> None:
    from hansa_lab.stats.plot_skill import plot_seats_by_rung

    rows = [_drawn(n, FAVOURED, 400, i) for i, n in enumerate(NAMES)]
    fig = plot_seats_by_rung({4: (answers_table(rows), NAMES)})
    [ax] = fig.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == NAMES
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == len(NAMES)]
    assert len(lines) == 4
    fair = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    assert fair and float(np.asarray(fair[0].get_ydata())[0]) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="no seat answer for rung 'nobody'"):
        plot_seats_by_rung({4: (answers_table(rows), ["nobody"])})


def test_an_answers_table_keeps_the_cpu_cost_column() -> None:
    t = answers_table([_rung("greedy", [3, 3, 3, 3], cpu=0.02, cost=1.0)])
    assert "cpu_seconds_per_game" in pd.DataFrame(t).columns


def test_a_variant_advantage_converges_or_changes() -> None:
    from hansa_lab.stats.convergence import advantage_convergence, advantage_verdict

    def row(rung: str, wins: int, games: int, fair: float = 1 / 3) -> dict[str, object]:
        lo, hi = wilson_interval(float(wins), float(games))
        return {"population": rung, "question": "variant v", "estimate": wins / games - fair,
                "lo": lo - fair, "hi": hi - fair, "first_seat_win": wins / games,
                "games": games, "verdict": advantage_verdict(games, lo - fair, hi - fair)}

    same = pd.DataFrame([row("a", 200, 400), row("b", 205, 400), row("c", 198, 400)])
    c = advantage_convergence(same, "variant v", ["a", "b", "c"])
    assert (c.state, c.rung) == (CONVERGED, 1)
    assert "favours the first seat at c, the first seat's advantage +16.2%" in c.text
    moved = pd.DataFrame([row("a", 200, 400), row("b", 205, 400), row("c", 130, 400)])
    c = advantage_convergence(moved, "variant v", ["a", "b", "c"])
    assert c.state == STILL_CHANGING and "seat 0 wins 32.5% of 400 games) at c" in c.text


def test_compare_ladder_plays_every_rung_and_states_each_variant(tmp_path, monkeypatch,
                                                                  capsys) -> None:
    from hansa_lab.studies import skill
    from hansa_lab.studies.skill import Rung
    from hansa_lab.tools.cli import main
    from hansa_lab.tools.commands.compare import compare_ladder

    rungs = (Rung("random", "random", "novice"), Rung("greedy", "greedy", "next"))
    monkeypatch.setattr(skill, "skill_rungs", lambda board="base", players=4: rungs)
    result = compare_ladder(3, {"start_supply": [3, 4]}, games=6, out=tmp_path,
                            progress=False)
    assert result.rungs == ("random", "greedy")
    questions = ["variant default", "variant start_supply=3", "variant start_supply=4"]
    assert list(dict.fromkeys(result.table["question"])) == questions
    assert len(result.table) == 6 and (result.table["games"] == 6).all()
    assert [c.question for c in result.convergence] == questions
    assert (tmp_path / "random").is_dir() and (tmp_path / "greedy").is_dir()
    assert main(["compare", "--ladder", "--population", "strong", "--option",
                 "start_supply=3,4", "--out", str(tmp_path)]) == 2
    assert "--ladder: " in capsys.readouterr().err
    assert main(["compare", "--ladder", "--players", "3", "--option", "start_supply=3,4",
                 "--games", "6", "--no-progress", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Along the ladder (novice first):" in out and "variant start_supply=4: " in out
