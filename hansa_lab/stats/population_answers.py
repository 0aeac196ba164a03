"""Answers per population: the same questions asked of tables of different players, side
by side, and one line that says where the conclusions agree and where they differ.

A *population* is the players at the table (the strategy every seat plays, or a line-up).
Each answer is an :class:`~hansa_lab.stats.answers.Answer` record computed once, with its
primary measure and test (:data:`~hansa_lab.stats.answers.PRIMARY`):

- ``seats`` — *is any seat favoured?* The record of
  :func:`~hansa_lab.stats.verdicts.seat_balance_answers`: the win share by seat with
  Wilson intervals and the chi-square / Monte Carlo test of equal win counts (Friedman's
  test on scores secondary). The table shows seat 0's (the first player's) win share; the
  agreement line compares every seat;
- ``tip <name>`` — *does the tip help its player?* The record of
  :func:`~hansa_lab.stats.verdicts.tip_effect_answers`: the focal seat's paired score
  difference against the all-population table on the same deals, with its t interval
  over deals, Holm over the tips of one population.

:func:`seat_answer` and :func:`tip_answers` turn a run's tables into
:class:`PopulationAnswer` rows (built from the records), :func:`answers_table` makes the
table and :func:`agreement_line` the sentence. Two populations' answers to a question
*differ* only when their 95% intervals do not overlap (a conservative test: disjoint
intervals imply a difference at well under 5%); overlapping intervals are "no evidence
they differ", whatever the words say. The runs themselves:
:func:`hansa_lab.studies.populations.compare_populations`.

>>> rows = [PopulationAnswer("greedy", "seats", 0.26, 0.23, 0.29, "win share of seat 0",
...                          "Wilson", "balanced", 1000),
...         PopulationAnswer("planner", "seats", 0.41, 0.38, 0.44, "win share of seat 0",
...                          "Wilson", "unbalanced", 1000)]
>>> print(agreement_line(answers_table(rows)).replace("; ", ";\\n"))
greedy vs planner — differ: seats, seat 0 (first player) (greedy 26.0% [23.0%, 29.0%] balanced;
planner 41.0% [38.0%, 44.0%] unbalanced;
the 95% intervals do not overlap)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace

import numpy as np
import pandas as pd

from hansa_lab.stats.answers import Answer, seat_name
from hansa_lab.stats.display import View, readable
from hansa_lab.stats.paired import compare_arms
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.verdicts import seat_balance_answers, tip_effect_answers

__all__ = [
    "NOT_APPLICABLE",
    "PopulationAnswer",
    "agreement_line",
    "answers_table",
    "cost_phrase",
    "seat_answer",
    "tip_answers",
]

#: The verdict of a question a population cannot be asked (e.g. a greedy tip for a
#: search player).
NOT_APPLICABLE = "not applicable"
#: The verdicts that answer a question; two populations *agree* only on one of these
#: ("no clear effect" in both says that neither run could tell).
CONCLUSIVE = ("balanced", "unbalanced", "helps", "hurts", "smaller than the margin")
#: The unit of a ``seats`` answer's estimate (seat 0's win share).
SEAT_UNIT = "win share of seat 0 (first player)"
SEAT_METHOD = "Wilson 95% on each seat's win share; verdict: chi-square test of equal wins"
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
    #: CPU seconds of the playing process per game (the games' ``cpu_time``): the cost
    cpu_seconds_per_game: float = math.nan
    #: ``cpu_seconds_per_game`` over the reference table's (all-greedy), same study
    cost_vs_reference: float = math.nan
    text: str = ""
    #: every seat's win share and interval (``seats`` answers): (seat, share, lo, hi)
    seats: tuple[tuple[int, float, float, float], ...] = ()

    @classmethod
    def from_answer(cls, population: str, question: str, answer: Answer, unit: str,
                    method: str) -> PopulationAnswer:
        """The row of one population's :class:`~hansa_lab.stats.answers.Answer`: the same
        estimate, interval, word and sentence."""
        seats = tuple(tuple(x) for x in answer.details.get("seats", ()))
        return cls(population, question, answer.estimate, answer.lo, answer.hi, unit, method,
                   answer.word, answer.games, text=answer.text,
                   seats=seats)


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
    [answer] = seat_balance_answers(table, population=population)
    row = PopulationAnswer.from_answer(population, "seats", answer, SEAT_UNIT, SEAT_METHOD)
    return replace(row, text=answer.text.split(": ", 1)[-1])


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
    answers = tip_effect_answers(compared)
    out = []
    for r, a in zip(compared.to_dict("records"), answers, strict=True):
        row = PopulationAnswer.from_answer(population, f"tip {r['arm_a']}",
                                           replace(a, population=population),
                                           "points (focal seat)", TIP_METHOD)
        out.append(replace(row, games=int((games["arm"] == r["arm_a"]).sum())))
    return out


def answers_table(answers: Sequence[PopulationAnswer]) -> pd.DataFrame:
    """The answers as a table: one row per population and question, questions grouped."""
    if not answers:
        raise ValueError("no answers to tabulate")
    df = pd.DataFrame([asdict(a) for a in answers])
    df["seats"] = [a.seats for a in answers]  # kept as tuples, not spread into lists
    order = {q: i for i, q in enumerate(dict.fromkeys(df["question"]))}
    df = df.sort_values("question", key=lambda s: s.map(order), kind="stable")
    return readable(df.reset_index(drop=True), View(
        columns=("population", "question", "estimate", "unit", "verdict", "games",
                 "cpu_seconds_per_game", "cost_vs_reference"),
        intervals=(("estimate", "lo", "hi"),), unit="unit", per_unit=("estimate",),
        percent_units=((SEAT_UNIT, 100.0), ("win share of seat 0", 100.0))))


def _interval(r: pd.Series) -> str:
    if r["unit"].startswith("win share"):
        return f"{r['estimate']:.1%} [{r['lo']:.1%}, {r['hi']:.1%}]"
    return f"{r['estimate']:+.1f} [{r['lo']:+.1f}, {r['hi']:+.1f}]"


def _disjoint(a: pd.Series, b: pd.Series) -> bool:
    return bool(a["hi"] < b["lo"] or b["hi"] < a["lo"])


def _per_seat(table: pd.DataFrame) -> pd.DataFrame:
    """The table with a ``seats`` answer spread into one row per seat (question ``seats,
    seat 0 (first player)``, ...), so that the agreement line compares every seat."""
    rows = []
    for r in table.to_dict("records"):
        seats = r.get("seats") or ()
        if r["question"] == "seats" and len(seats) > 0:
            for seat, share, lo, hi in seats:
                rows.append({**r, "question": f"seats, {seat_name(int(seat))}",
                             "estimate": share, "lo": lo, "hi": hi})
        elif r["question"] == "seats":
            rows.append({**r, "question": f"seats, {seat_name(0)}"})
        else:
            rows.append(r)
    return pd.DataFrame(rows, columns=table.columns)


def cost_phrase(table: pd.DataFrame, reference: str = "greedy",
                reference_cpu: float = math.nan) -> str:
    """Each population's cost beside the reference's: CPU seconds of play per game (the
    playing process's, not wall time) and the ratio to all-``reference`` tables of the
    same study, from each population's seat study (else its first question with a cost).
    Empty when no population has a CPU cost.

    >>> t = answers_table([PopulationAnswer("greedy", "seats", .25, .2, .3, "win share",
    ...                                     "m", "balanced", 9, cpu_seconds_per_game=0.02,
    ...                                     cost_vs_reference=1.0),
    ...                    PopulationAnswer("strong", "seats", .25, .2, .3, "win share",
    ...                                     "m", "balanced", 9, cpu_seconds_per_game=0.5,
    ...                                     cost_vs_reference=25.0)])
    >>> cost_phrase(t, "greedy", 0.02)
    'CPU per game beside all-greedy (0.020 s): greedy 1.0x, strong 25.0x'
    """
    full = pd.DataFrame(getattr(table, "full", table))
    if "cpu_seconds_per_game" not in full.columns:
        return ""
    costs = []
    for pop, g in full.groupby("population", sort=False):
        g = g[np.isfinite(g["cost_vs_reference"].astype(float))]
        if len(g):
            row = g[g["question"] == "seats"].iloc[0] if (g["question"] == "seats").any() \
                else g.iloc[0]
            costs.append(f"{pop} {float(row['cost_vs_reference']):.1f}x")
    if not costs:
        return ""
    ref = f" ({reference_cpu:.3f} s)" if math.isfinite(reference_cpu) else ""
    return f"CPU per game beside all-{reference}{ref}: {', '.join(costs)}"


def _merged(items: list[tuple[str, str]]) -> list[str]:
    """``question (what was said)`` per item, the seats of the seat question that say the
    same thing named together (``seats, seat 1 and seat 2 (...)``): the words of a seat
    answer are the population's, the same for every seat."""
    groups: dict[tuple[str, str], list[str]] = {}  # (question or "seats", said) → seats
    for question, said in items:
        seat = question.startswith("seats, ")
        key = ("seats", said) if seat else (question, said)
        groups.setdefault(key, []).extend([question.removeprefix("seats, ")] if seat else [])
    out = []
    for (question, said), seats in groups.items():
        if seats:
            listed = seats[0] if len(seats) == 1 else f"{', '.join(seats[:-1])} and {seats[-1]}"
            question = f"seats, {listed}"
        out.append(f"{question} ({said})")
    return out


def agreement_line(table: pd.DataFrame, *, reference: str | None = None,
                   reference_cpu: float = math.nan) -> str:
    """One line: for each question asked of two or more populations — each seat of the
    seat question, each tip — whether they *agree* (the same conclusive word everywhere:
    balanced, unbalanced, helps, hurts, smaller than the margin; and no two intervals
    apart), *differ* (some two 95% intervals do not overlap: named, with their words) or
    show *no evidence they differ* (the intervals overlap, whatever the words). Every
    population is named in every item. Questions a population cannot be asked
    (:data:`NOT_APPLICABLE`) or without an interval are left out. With ``reference``
    (the population the costs are relative to) the line ends with every population's CPU
    cost per game beside it (:func:`cost_phrase`).

    >>> t = answers_table([
    ...     PopulationAnswer("a", "tip x", 1.0, 0.2, 1.8, "points", "t", "helps", 100),
    ...     PopulationAnswer("b", "tip x", 0.4, -0.5, 1.3, "points", "t", "no clear effect", 100),
    ...     PopulationAnswer("a", "tip y", 2.0, 1.0, 3.0, "points", "t", "helps", 100),
    ...     PopulationAnswer("b", "tip y", 2.5, 1.5, 3.5, "points", "t", "helps", 100)])
    >>> print(agreement_line(t).replace("; ", ";\\n"))
    a vs b — agree: tip y (a helps, b helps);
    no evidence they differ: tip x (the 95% intervals overlap: a helps, b no clear effect)
    """
    full = _per_seat(pd.DataFrame(getattr(table, "full", table)))
    usable = full[(full["verdict"] != NOT_APPLICABLE)
                  & np.isfinite(full["lo"].astype(float))
                  & np.isfinite(full["hi"].astype(float))]
    names = list(dict.fromkeys(full["population"]))
    agree: list[tuple[str, str]] = []
    differ: list[str] = []
    unclear: list[tuple[str, str]] = []
    for question, g in usable.groupby("question", sort=False):
        if len(g) < 2:
            continue
        rows = [r for _, r in g.iterrows()]
        said = ", ".join(f"{r['population']} {r['verdict']}" for r in rows)
        apart = [(a, b) for i, a in enumerate(rows) for b in rows[i + 1:] if _disjoint(a, b)]
        if apart:
            parts = "; ".join(f"{r['population']} {_interval(r)} {r['verdict']}" for r in rows)
            differ.append(f"{question} ({parts}; the 95% intervals do not overlap)")
        elif g["verdict"].nunique() == 1 and g["verdict"].iloc[0] in CONCLUSIVE:
            agree.append((str(question), said))
        else:
            unclear.append((str(question), f"the 95% intervals overlap: {said}"))
    head = " vs ".join(names)
    kinds = (("agree", _merged(agree)), ("differ", differ),
             ("no evidence they differ", _merged(unclear)))
    said_of = [f"{label}: {'; '.join(items)}" for label, items in kinds if items]
    cost = cost_phrase(table, reference, reference_cpu) if reference else ""
    tail = f"; {cost}" if cost else ""
    if not said_of:
        return f"{head} — no question was answered by two populations with intervals{tail}"
    return f"{head} — " + "; ".join(said_of) + tail
