"""``SeatMeasure.line`` (learn-measure, retrain): every figure as a number, and ``n/a`` —
never ``nan%`` — for a figure without a value, such as a seat measured on no games."""

from __future__ import annotations

import math

from hansa_lab.studies.learn import SeatMeasure

NAN = math.nan


def test_a_measured_seat_reads_its_figures() -> None:
    m = SeatMeasure("strong", "greedy", 8, 3.5, 0.4375, 0.2, 0.7, 4.3, 0.0123,
                    reference="greedy", reference_cpu_per_game=0.004, cost_ratio=3.1,
                    actions_developed=2.5, opponents_actions_developed=1.25)
    assert m.line() == ("strong one seat vs greedy: 8 games, wins 43.8% [20.0%, 70.0%], "
                        "margin +4.3, 0.012 CPU-s/game, Actions developed 2.50 a game "
                        "(opponents 1.25); greedy table 0.004 CPU-s/game (ratio 3.10)")


def test_a_seat_without_games_reads_n_a() -> None:
    m = SeatMeasure("strong", "greedy", 0, 0.0, NAN, NAN, NAN, NAN, NAN,
                    reference="greedy")
    line = m.line()
    assert line == ("strong one seat vs greedy: 0 games, wins n/a, margin n/a, "
                    "n/a CPU-s/game; greedy table n/a CPU-s/game (ratio n/a)")
    assert "nan" not in line.lower()


def test_a_missing_figure_beside_measured_ones() -> None:
    m = SeatMeasure("strong", "greedy", 4, 1.0, 0.25, NAN, NAN, -3.0, 0.01,
                    actions_developed=2.0)
    assert m.line() == ("strong one seat vs greedy: 4 games, wins 25.0% [n/a, n/a], "
                        "margin -3.0, 0.010 CPU-s/game, Actions developed 2.00 a game "
                        "(opponents n/a)")
