"""Answers per population: the same questions asked of tables of different players, side
by side, and one line that says where the conclusions agree and where they differ.

A *population* is the players at the table (the strategy every seat plays, or a line-up).
Two questions, each with one interval method:

- ``seats`` — *are the seats balanced?* The estimate is seat 0's win share with its
  Wilson interval (:func:`~hansa_lab.stats.intervals.wilson_interval`); the verdict is
  :func:`~hansa_lab.stats.verdicts.seat_verdicts` on
  :func:`~hansa_lab.stats.seats.seat_advantage` (chi-square / Monte Carlo on the win
  counts and Friedman on the scores, Holm-adjusted);
- ``tip <name>`` — *does the tip help its player?* The estimate is the focal seat's
  paired score difference against the all-population table on the same deals, with its
  t interval over deals (:func:`~hansa_lab.stats.paired.compare_arms`); the verdict is
  :func:`~hansa_lab.stats.verdicts.comparison_verdicts`, Holm-adjusted over the tips of
  one population.

:func:`seat_answer` and :func:`tip_answers` turn a run's tables into
:class:`PopulationAnswer` rows, :func:`answers_table` makes the table and
:func:`agreement_line` the sentence. Two populations' answers to a question *differ*
only when their 95% intervals do not overlap (a conservative test: disjoint intervals
imply a difference at well under 5%); overlapping intervals are "no evidence they
differ", whatever the verdict words say. The runs themselves:
:func:`hansa_lab.sim.populations.compare_populations`.

>>> rows = [PopulationAnswer("greedy", "seats", 0.26, 0.23, 0.29, "win share of seat 0",
...                          "Wilson", "balanced", 1000),
...         PopulationAnswer("planner", "seats", 0.41, 0.38, 0.44, "win share of seat 0",
...                          "Wilson", "unbalanced", 1000)]
>>> print(agreement_line(answers_table(rows)).replace("; ", ";\\n"))
greedy vs planner — differ: seats (greedy 26.0% [23.0%, 29.0%] balanced;
planner 41.0% [38.0%, 44.0%] unbalanced;
the 95% intervals do not overlap)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from hansa_lab.stats.display import View, readable
from hansa_lab.stats.paired import compare_arms
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.verdicts import comparison_verdicts, seat_verdicts

__all__ = [
    "NOT_APPLICABLE",
    "PopulationAnswer",
    "agreement_line",
    "answers_table",
    "seat_answer",
    "tip_answers",
]

#: The verdict of a question a population cannot be asked (e.g. a greedy tip for a
#: search player).
NOT_APPLICABLE = "not applicable"
#: The verdicts that answer a question; two populations *agree* only on one of these
#: ("no clear effect" in both says that neither run could tell).
CONCLUSIVE = ("balanced", "unbalanced", "helps", "hurts")
SEAT_METHOD = "Wilson 95% on seat 0's win share; verdict: chi-square/Friedman, Holm"
TIP_METHOD = "paired t 95% over deals (focal seat vs all-population); verdict: Holm over tips"


@dataclass(frozen=True)
class PopulationAnswer:
    """One population's answer to one question (a row of :func:`answers_table`)."""

    population: str
    question: str
    estimate: float
    lo: float
    hi: float
    unit: str
    method: str
    verdict: str
    games: int
    #: seconds of play per game of this question's games (the games' ``wall_time``)
    seconds_per_game: float = math.nan
    #: ``seconds_per_game`` over the reference table's (all-greedy), same study
    cost_vs_reference: float = math.nan
    text: str = ""


def _verdict_word(line: str) -> str:
    """The verdict of a :func:`seat_verdicts` line ("4 players, base_45p: balanced — ...")."""
    return line.split(": ", 1)[-1].split(" —", 1)[0]


def seat_answer(population: str, players: pd.DataFrame, games: pd.DataFrame) -> PopulationAnswer:
    """The ``seats`` answer of one population's seat study (one player count and board).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=300, n_players=3, seat_bonus=[6, 0, 0])
    >>> a = seat_answer("test", t["players"], t["games"])
    >>> a.verdict, bool(a.lo > 1 / 3), a.games
    ('unbalanced', True, 300)
    """
    table = seat_advantage(players, games)
    n_groups = table.drop(columns=[c for c in table.columns if c not in ("n_players", "side")]
                          ).drop_duplicates().shape[0]
    if n_groups != 1:
        raise ValueError(f"population {population!r}: the seat answer needs one player count "
                         f"and board side, the games have {n_groups}")
    line = seat_verdicts(table)[0]
    s0 = table[table["seat"] == 0].iloc[0]
    return PopulationAnswer(population, "seats", float(s0["win_rate"]), float(s0["win_lo"]),
                            float(s0["win_hi"]), "win share of seat 0", SEAT_METHOD,
                            _verdict_word(line), int(s0["games"]),
                            text=line.split(": ", 1)[-1])


def tip_answers(population: str, players: pd.DataFrame, games: pd.DataFrame,
                base: str = "base") -> list[PopulationAnswer]:
    """The ``tip <arm>`` answers of one population's tips experiment: every arm but
    ``base`` is a tip whose first line-up entry (the focal seat) plays the tip.
    ``games``: the tip arm's games (the interval is over its deals; the text says how
    many).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables({"good": ["plus3", "base"], "base": ["base"]},
    ...                      n_deals=60, n_players=2, noise_sd=1.0)
    >>> [(a.question, a.verdict) for a in tip_answers("test", t["players"], t["games"])]
    [('tip good', 'helps')]
    """
    compared = compare_arms(players, games, base=base, focal=0, value="total")
    verdicts = comparison_verdicts(compared)
    out = []
    for r in verdicts.itertuples(index=False):
        out.append(PopulationAnswer(population, f"tip {r.arm_a}", float(r.diff), float(r.diff_lo),
                                    float(r.diff_hi), "points (focal seat)", TIP_METHOD,
                                    str(r.verdict), int((games["arm"] == r.arm_a).sum()),
                                    text=str(r.text)))
    return out


def answers_table(answers: Sequence[PopulationAnswer]) -> pd.DataFrame:
    """The answers as a table: one row per population and question, questions grouped."""
    if not answers:
        raise ValueError("no answers to tabulate")
    df = pd.DataFrame([asdict(a) for a in answers])
    order = {q: i for i, q in enumerate(dict.fromkeys(df["question"]))}
    df = df.sort_values("question", key=lambda s: s.map(order), kind="stable")
    return readable(df.reset_index(drop=True), View(
        columns=("population", "question", "estimate", "unit", "verdict", "games",
                 "seconds_per_game", "cost_vs_reference"),
        intervals=(("estimate", "lo", "hi"),), unit="unit", per_unit=("estimate",),
        percent_units=(("win share of seat 0", 100.0),)))


def _interval(r: pd.Series) -> str:
    if r["unit"].startswith("win share"):
        return f"{r['estimate']:.1%} [{r['lo']:.1%}, {r['hi']:.1%}]"
    return f"{r['estimate']:+.1f} [{r['lo']:+.1f}, {r['hi']:+.1f}]"


def _disjoint(a: pd.Series, b: pd.Series) -> bool:
    return bool(a["hi"] < b["lo"] or b["hi"] < a["lo"])


def agreement_line(table: pd.DataFrame) -> str:
    """One line: for each question asked of two or more populations, whether they
    *agree* (the same conclusive verdict everywhere — balanced, unbalanced, helps,
    hurts — and no two intervals apart), *differ* (some two
    95% intervals do not overlap: named, with their verdicts) or show *no evidence they
    differ* (the intervals overlap, whatever the verdicts). Questions a population
    cannot be asked (:data:`NOT_APPLICABLE`) or without an interval are left out.

    >>> t = answers_table([
    ...     PopulationAnswer("a", "tip x", 1.0, 0.2, 1.8, "points", "t", "helps", 100),
    ...     PopulationAnswer("b", "tip x", 0.4, -0.5, 1.3, "points", "t", "no clear effect", 100),
    ...     PopulationAnswer("a", "tip y", 2.0, 1.0, 3.0, "points", "t", "helps", 100),
    ...     PopulationAnswer("b", "tip y", 2.5, 1.5, 3.5, "points", "t", "helps", 100),
    ...     PopulationAnswer("a", "tip z", 0.1, -1.0, 1.2, "points", "t", "no clear effect", 100),
    ...     PopulationAnswer("b", "tip z", 0.2, -1.0, 1.4, "points", "t", "no clear effect", 100)])
    >>> print(agreement_line(t).replace("; ", ";\\n"))
    a vs b — agree: tip y (helps in every population);
    no evidence they differ: tip x (the 95% intervals overlap: a helps, b no clear effect);
    tip z (the 95% intervals overlap: a no clear effect, b no clear effect)
    """
    usable = table[(table["verdict"] != NOT_APPLICABLE)
                   & np.isfinite(table["lo"].astype(float))
                   & np.isfinite(table["hi"].astype(float))]
    names = list(dict.fromkeys(table["population"]))
    agree: list[str] = []
    differ: list[str] = []
    unclear: list[str] = []
    for question, g in usable.groupby("question", sort=False):
        if len(g) < 2:
            continue
        rows = [r for _, r in g.iterrows()]
        apart = [(a, b) for i, a in enumerate(rows) for b in rows[i + 1:] if _disjoint(a, b)]
        if apart:
            pops = {id(r): r for pair in apart for r in pair}.values()
            parts = "; ".join(f"{r['population']} {_interval(r)} {r['verdict']}" for r in pops)
            differ.append(f"{question} ({parts}; the 95% intervals do not overlap)")
        elif g["verdict"].nunique() == 1 and g["verdict"].iloc[0] in CONCLUSIVE:
            agree.append(f"{question} ({g['verdict'].iloc[0]} in every population)")
        else:
            said = ", ".join(f"{r['population']} {r['verdict']}" for r in rows)
            unclear.append(f"{question} (the 95% intervals overlap: {said})")
    head = " vs ".join(names)
    kinds = (("agree", agree), ("differ", differ), ("no evidence they differ", unclear))
    said_of = [f"{label}: {'; '.join(items)}" for label, items in kinds if items]
    if not said_of:
        return f"{head} — no question was answered by two populations with intervals"
    return f"{head} — " + "; ".join(said_of)
