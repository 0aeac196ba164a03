"""Answers across a skill ladder: from which rung upward an answer stops changing.

The populations of a ladder (:func:`hansa_lab.studies.skill.skill_rungs`, novice first) are
asked the same question (:mod:`hansa_lab.stats.population_answers`). An answer that still
moves between the two strongest rungs describes the players, not the game; one that holds
over the top rungs is the best the lab can say about good play.

**The rule.** Rungs ``1..m`` in order of skill. The rungs ``j..m`` are *consistent* when

1. no rung among them has too few games to answer (the verdict
   :data:`~hansa_lab.stats.verdicts.TOO_FEW`),
2. a test of homogeneity across them does not reject at ``alpha`` (5%): for the seat
   question the chi-square test of homogeneity of the win counts by seat (a rungs × seats
   table of win shares; tied wins count as shares), or a Monte Carlo version of it
   (20,000 tables drawn with the rungs' games and the pooled seat shares, fixed seed)
   when an expected count is below 5; for a rule variant's first-seat advantage the same
   test on seat 0's wins against the others' (:func:`advantage_convergence`); for a tip,
   Cochran's Q on the effects with their standard errors read off the 95% intervals
   (half-width / 1.96: a normal approximation to the paired t intervals), and
3. every rung gives the same verdict (``unbalanced``, ``no clear seat difference``, …).

The answer has *converged from rung k* when ``j..m`` is consistent for every ``j`` from
``k`` to ``m - 1``: scanning down from the top two rungs, ``k`` is the last rung reached
before the first inconsistent set. When the top two rungs are not consistent the answer is
*still changing at the top rung*, and the statement says what differs between them. A
ladder of one rung, or a top rung with too few games, cannot tell.

**Its limits.** Consistent means *no evidence of change*, not equality: with few games
per rung the test sees only large changes (the statements say "no evidence the answer
changes", never "the same"). The tests over nested sets are not adjusted for each other;
each further set tested is one more chance to stop the scan early, so the rule errs
towards "changing" rather than "converged". Heterogeneity of the seat shares is tested, not
their order: two rungs with the same favoured seat but different sizes of the edge count as
changing when the sizes differ clearly. The verdict condition is strict: ``balanced`` beside
``no clear seat difference`` is a change of verdict (one run saw enough to say balanced,
the other did not), reported as what differs.

>>> from hansa_lab.stats.population_answers import PopulationAnswer, answers_table
>>> def rung(name, shares, verdict="unbalanced", games=2000):
...     seats = tuple((s, x, x - 0.02, x + 0.02) for s, x in enumerate(shares))
...     return PopulationAnswer(name, "seats", shares[0], shares[0] - .02, shares[0] + .02,
...                             "win share of seat 0", "m", verdict, games, seats=seats)
>>> t = answers_table([rung("a", [.25, .25, .25, .25], "balanced"),
...                    rung("b", [.40, .30, .15, .15]), rung("c", [.40, .30, .15, .15])])
>>> c = seat_convergence(t, ["a", "b", "c"])
>>> c.state, c.rung
('converged', 2)
>>> print(c.text.split(": ")[1])
from rung 2 (b) upward no evidence the answer changes
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from hansa_lab.stats.answers import p_phrase, seat_name
from hansa_lab.stats.intervals import chi2_sf
from hansa_lab.stats.population_answers import NOT_APPLICABLE
from hansa_lab.stats.verdicts import TOO_FEW

__all__ = [
    "AGAINST_FIRST",
    "CONVERGED",
    "FAVOURS_FIRST",
    "NO_CLEAR_ADVANTAGE",
    "STILL_CHANGING",
    "TOO_FEW_TO_TELL",
    "Convergence",
    "advantage_convergence",
    "advantage_verdict",
    "convergence_lines",
    "effect_convergence",
    "favoured_seats",
    "ladder_sentence",
    "seat_convergence",
    "seat_homogeneity",
]

#: The states of a :class:`Convergence`.
CONVERGED = "converged"
STILL_CHANGING = "still changing"
TOO_FEW_TO_TELL = "cannot tell"
#: Monte Carlo tables drawn when the chi-square approximation is doubtful.
N_MC = 20_000
#: z of a two-sided 95% interval: a tip's standard error is its half-width over this.
Z95 = 1.959964


@dataclass(frozen=True)
class Convergence:
    """Where one question's answer stops changing along a ladder."""

    question: str
    #: the rung labels, novice first
    rungs: tuple[str, ...]
    #: :data:`CONVERGED`, :data:`STILL_CHANGING` or :data:`TOO_FEW_TO_TELL`
    state: str
    #: 1-based: the answer shows no evidence of change from this rung up (converged)
    rung: int | None
    #: the homogeneity test's p over the converged rungs, or over the top two rungs
    p_value: float
    #: the test, in words
    test: str
    #: the top rung's answer, in words (for the seat question: which seat is favoured)
    answer: str
    #: the whole statement
    text: str


def _rows(table: pd.DataFrame, question: str, rungs: Sequence[str]) -> list[pd.Series]:
    full = pd.DataFrame(getattr(table, "full", table))
    part = full[full["question"] == question].set_index("population")
    missing = [r for r in rungs if r not in part.index]
    if missing:
        raise ValueError(f"question {question!r}: no answer for rung {missing[0]!r} "
                         f"(answers for: {', '.join(map(str, part.index))})")
    return [part.loc[r] for r in rungs]


def _wins(row: pd.Series) -> np.ndarray:
    """The win counts by seat of a seat answer (win share × games: tied wins as shares)."""
    seats = row["seats"]
    if seats is None or len(seats) == 0:
        raise ValueError(f"rung {row.name!r}: the seat answer has no per-seat shares")
    ordered = sorted((int(s), float(x)) for s, x, _lo, _hi in seats)
    return np.array([x for _s, x in ordered]) * float(row["games"])


def seat_homogeneity(wins: np.ndarray, *, seed: int = 0, n_mc: int = N_MC
                     ) -> tuple[float, str]:
    """p of the test that the rungs (rows of ``wins``, win counts by seat) share one
    distribution of wins over the seats: chi-square with (rungs − 1)(seats − 1) degrees
    of freedom, or Monte Carlo (each rung's games redrawn from the pooled seat shares)
    when an expected count is below 5. Returns (p, the test's name).

    >>> p, how = seat_homogeneity(np.array([[300., 200, 250, 250], [250, 250, 250, 250]]))
    >>> how, round(p, 3)
    ('chi-square test of homogeneity', 0.018)
    >>> seat_homogeneity(np.array([[3., 1, 0], [1, 2, 1]]))[1]
    'Monte Carlo test of homogeneity'
    """
    wins = np.asarray(wins, dtype=float)
    rows, cols = wins.sum(axis=1), wins.sum(axis=0)
    total = float(wins.sum())
    if wins.shape[0] < 2 or total <= 0 or (rows <= 0).any():
        return math.nan, "test of homogeneity"
    keep = cols > 0  # a seat that never won carries no information on the shares
    wins, cols = wins[:, keep], cols[keep]
    if wins.shape[1] < 2:
        return 1.0, "test of homogeneity"
    expected = np.outer(rows, cols) / total

    def statistic(w: np.ndarray, e: np.ndarray) -> np.ndarray:
        return (((w - e) ** 2) / e).sum(axis=(-2, -1))

    chi2 = float(statistic(wins, expected))
    if float(expected.min()) >= 5:
        df = (wins.shape[0] - 1) * (wins.shape[1] - 1)
        return chi2_sf(chi2, df), "chi-square test of homogeneity"
    rng = np.random.default_rng(seed)
    n = np.maximum(np.rint(rows), 1).astype(int)
    pooled = cols / total
    draws = np.stack([rng.multinomial(k, pooled, size=n_mc) for k in n], axis=1)
    e = np.outer(n, pooled)
    with np.errstate(divide="ignore", invalid="ignore"):
        sim = statistic(draws.astype(float), e[None, :, :])
    observed = float(statistic(wins / rows[:, None] * n[:, None], e))
    p = float((1 + (sim >= observed - 1e-9).sum()) / (n_mc + 1))
    return p, "Monte Carlo test of homogeneity"


def _effect_homogeneity(rows: list[pd.Series]) -> tuple[float, str]:
    """Cochran's Q on the rungs' effects, standard errors from the 95% intervals."""
    x = np.array([float(r["estimate"]) for r in rows])
    se = np.array([(float(r["hi"]) - float(r["lo"])) / (2 * Z95) for r in rows])
    if len(x) < 2 or not (np.isfinite(x).all() and np.isfinite(se).all()):
        return math.nan, "Cochran's Q"
    se = np.maximum(se, 1e-9)
    w = 1 / se**2
    mean = float((w * x).sum() / w.sum())
    q = float((w * (x - mean) ** 2).sum())
    return chi2_sf(q, len(x) - 1), "Cochran's Q test of homogeneity"


def _share(x: float, lo: float, hi: float) -> str:
    return f"{x:.1%} [{lo:.1%}, {hi:.1%}]"


def favoured_seats(row: pd.Series) -> str:
    """A seat answer's finding in words: when its verdict is ``unbalanced``, the seats
    whose Wilson interval lies above (or below) the fair share; otherwise (or when no
    seat's interval is off it) that no seat is clearly off the fair share, with the
    highest seat. The verdict's test decides; a single seat's interval off the fair share
    in a balanced answer is not named (the intervals are not adjusted for the seats).

    >>> row = pd.Series({"verdict": "unbalanced", "games": 400, "seats": (
    ...     (0, .28, .24, .33), (1, .36, .31, .41), (2, .19, .16, .24), (3, .17, .14, .21))})
    >>> print(favoured_seats(row).replace("; ", ";\\n"))
    favoured over the fair share 25.0%: seat 1 36.0% [31.0%, 41.0%];
    below it: seat 2 19.0% [16.0%, 24.0%], seat 3 17.0% [14.0%, 21.0%]
    """
    seats = sorted((int(s), float(x), float(lo), float(hi)) for s, x, lo, hi in row["seats"])
    fair = 1 / len(seats)
    decided = row["verdict"] == "unbalanced"
    above = [s for s in seats if s[2] > fair] if decided else []
    below = [s for s in seats if s[3] < fair] if decided else []
    def listed(group: list[tuple[int, float, float, float]]) -> str:
        return ", ".join(f"{seat_name(s[0])} {_share(*s[1:])}" for s in group)

    parts = []
    if above:
        parts.append(f"favoured over the fair share {fair:.1%}: {listed(above)}")
    if below:
        parts.append(f"below {'it' if above else f'the fair share {fair:.1%}'}: "
                     f"{listed(below)}")
    if not parts:
        top = max(seats, key=lambda s: s[1])
        parts.append(f"no seat clearly off the fair share {fair:.1%} (highest: "
                     f"{seat_name(top[0])} {_share(*top[1:])})")
    return "; ".join(parts)


def _seat_difference(a: pd.Series, b: pd.Series) -> str:
    """What differs between two rungs' seat shares: the seats whose intervals are apart,
    else the seat that moved most."""
    sa = {int(s): (float(x), float(lo), float(hi)) for s, x, lo, hi in a["seats"]}
    sb = {int(s): (float(x), float(lo), float(hi)) for s, x, lo, hi in b["seats"]}
    seats = sorted(set(sa) & set(sb))
    apart = [s for s in seats if sa[s][2] < sb[s][1] or sb[s][2] < sa[s][1]]
    shown = apart or [max(seats, key=lambda s: abs(sa[s][0] - sb[s][0]))]
    return "; ".join(f"{seat_name(s)} {_share(*sa[s])} at {a.name}, {_share(*sb[s])} at "
                     f"{b.name}" for s in shown)


def _effect_difference(a: pd.Series, b: pd.Series) -> str:
    return (f"{float(a['estimate']):+.1f} [{float(a['lo']):+.1f}, {float(a['hi']):+.1f}] "
            f"points at {a.name}, {float(b['estimate']):+.1f} [{float(b['lo']):+.1f}, "
            f"{float(b['hi']):+.1f}] at {b.name}")


#: A homogeneity test over rungs: (the rungs' rows) → (p, the test's name).
Homogeneity = Callable[[list[pd.Series]], tuple[float, str]]
#: What differs between two rungs' answers, in words.
Difference = Callable[[pd.Series, pd.Series], str]


def _convergence(question: str, rows: list[pd.Series], labels: tuple[str, ...],
                 test_of: Homogeneity, answer: str, difference: Difference,
                 measure: str, alpha: float, numbers: Sequence[int] = ()) -> Convergence:
    """The rule of the module doc over ``rows`` (novice first); ``numbers``: the rows'
    1-based places on the ladder (default 1..m; a rung left out keeps the others'
    numbers)."""
    m = len(rows)
    number = list(numbers) or list(range(1, m + 1))
    top = rows[-1]
    if m < 2:
        text = f"{question}: one rung only ({labels[0]}); convergence needs two or more"
        return Convergence(question, labels, TOO_FEW_TO_TELL, None, math.nan, "", answer,
                           text)
    if top["verdict"] == TOO_FEW or rows[-2]["verdict"] == TOO_FEW:
        few = [f"{r.name} {int(r['games'])}" for r in rows[-2:] if r["verdict"] == TOO_FEW]
        text = (f"{question}: cannot tell whether the answer has converged — too few games "
                f"at the top rungs ({', '.join(few)} games)")
        return Convergence(question, labels, TOO_FEW_TO_TELL, None, math.nan, "", answer,
                           text)
    k, p_k, test = m, math.nan, ""
    p_top, test_top = math.nan, ""
    for j in range(m - 2, -1, -1):  # rungs j..m-1 (0-based), the top two first
        part = rows[j:]
        p, name = test_of(part)
        if j == m - 2:
            p_top, test_top = p, name
        same = len({str(r["verdict"]) for r in part}) == 1
        if any(r["verdict"] == TOO_FEW for r in part) or not same \
                or not (math.isfinite(p) and p >= alpha):
            break
        k, p_k, test = j, p, name
    if k == m:
        a, b = rows[-2], rows[-1]
        why = [difference(a, b)]
        if a["verdict"] != b["verdict"]:
            why.append(f"verdict {a['verdict']} at {a.name}, {b['verdict']} at {b.name}")
        text = (f"{question}: still changing at the top rung — {'; '.join(why)} "
                f"({test_top} across the top two rungs: {p_phrase(p_top, '')})")
        return Convergence(question, labels, STILL_CHANGING, None, p_top, test_top, answer,
                           text)
    first, last = number[k], number[-1]
    span = f"rungs {first}–{last}" if m - k > 2 else f"rungs {first} and {last}"
    where = "at every rung" if k == 0 and first == 1 else \
        f"from rung {first} ({labels[k]}) upward"
    text = (f"{question}: {where} no evidence the answer changes: {top['verdict']} at "
            f"{labels[-1]}, {answer} ({measure} consistent across {span}: {test} "
            f"{p_phrase(p_k, '')}; no evidence of change, not proof of equality)")
    return Convergence(question, labels, CONVERGED, first, p_k, test, answer, text)


def seat_convergence(table: pd.DataFrame, rungs: Sequence[str], *,
                     alpha: float = 0.05) -> Convergence:
    """Where the seat answer (win share by seat) stops changing along ``rungs`` (the
    populations of an answers table, novice first); see the module doc for the rule."""
    rows = _rows(table, "seats", rungs)
    labels = tuple(str(r) for r in rungs)
    top = rows[-1]
    answer = favoured_seats(top) if top["verdict"] != TOO_FEW else str(TOO_FEW)

    def test(part: list[pd.Series]) -> tuple[float, str]:
        return seat_homogeneity(np.vstack([_wins(r) for r in part]))

    return _convergence("seats", rows, labels, test, answer, _seat_difference,
                        "seat win shares", alpha)


def effect_convergence(table: pd.DataFrame, question: str, rungs: Sequence[str], *,
                       alpha: float = 0.05) -> Convergence:
    """Where an effect's answer (a tip's score difference) stops changing along
    ``rungs``; rungs that cannot be asked the question (not applicable) are left out."""
    every = _rows(table, question, rungs)
    numbers = [i for i, r in enumerate(every, 1) if r["verdict"] != NOT_APPLICABLE]
    rows = [every[i - 1] for i in numbers]
    labels = tuple(str(r.name) for r in rows)
    if not rows:
        return Convergence(question, (), TOO_FEW_TO_TELL, None, math.nan, "", "",
                           f"{question}: no rung can be asked this question")
    top = rows[-1]
    answer = (f"{float(top['estimate']):+.1f} [{float(top['lo']):+.1f}, "
              f"{float(top['hi']):+.1f}] points")
    return _convergence(question, rows, labels, _effect_homogeneity, answer,
                        _effect_difference, "effects", alpha, numbers)


def convergence_lines(table: pd.DataFrame, rungs: Sequence[str], *,
                      alpha: float = 0.05) -> list[Convergence]:
    """The convergence of every question of an answers table along ``rungs``, in the
    table's order of questions."""
    full = pd.DataFrame(getattr(table, "full", table))
    out = []
    for question in dict.fromkeys(full["question"]):
        if question == "seats":
            out.append(seat_convergence(table, rungs, alpha=alpha))
        else:
            out.append(effect_convergence(table, str(question), rungs, alpha=alpha))
    return out


def ladder_sentence(n_players: int, table: pd.DataFrame, rungs: Sequence[str], *,
                    alpha: float = 0.05) -> str:
    """One sentence for a ladder's seat answer at one player count: which seat is favoured
    among the top rungs (the top rung's shares with their Wilson intervals, as decided by
    its verdict) and whether the answer has converged (:func:`seat_convergence`).

    >>> from hansa_lab.stats.population_answers import PopulationAnswer, answers_table
    >>> def rung(name, shares, verdict="unbalanced"):
    ...     seats = tuple((s, x, x - .03, x + .03) for s, x in enumerate(shares))
    ...     return PopulationAnswer(name, "seats", shares[0], shares[0] - .03,
    ...                             shares[0] + .03, "win share of seat 0", "m", verdict,
    ...                             900, seats=seats)
    >>> t = answers_table([rung("a", [.4, .3, .3]), rung("b", [.4, .3, .3])])
    >>> print(ladder_sentence(3, t, ["a", "b"]))  # doctest: +NORMALIZE_WHITESPACE
    At 3 players, among the top rungs (a, b): at b unbalanced — favoured over the fair
    share 33.3%: seat 0 (first player) 40.0% [37.0%, 43.0%]; below it: seat 1 30.0%
    [27.0%, 33.0%], seat 2 30.0% [27.0%, 33.0%]; converged: no evidence the answer changes
    at every rung (chi-square test of homogeneity across rungs 1 and 2: p = 1.000).
    """
    c = seat_convergence(table, rungs, alpha=alpha)
    top = list(rungs)[-2:]
    verdict = _rows(table, "seats", [top[-1]])[0]["verdict"]
    said = str(verdict) if c.answer == verdict else f"{verdict} — {c.answer}"
    head = f"At {n_players} players, among the top rungs ({', '.join(top)}): at {top[-1]} {said}"
    if c.state == CONVERGED and c.rung is not None:
        where = "at every rung" if c.rung == 1 else \
            f"from rung {c.rung} ({c.rungs[c.rung - 1]}) upward"
        m = len(c.rungs)
        span = f"rungs {c.rung}–{m}" if m - c.rung > 1 else f"rungs {c.rung} and {m}"
        tail = (f"converged: no evidence the answer changes {where} ({c.test} across "
                f"{span}: {p_phrase(c.p_value, '')})")
    elif c.state == STILL_CHANGING:
        tail = f"not converged: {c.text.split(': ', 1)[1]}"
    else:
        tail = f"convergence unknown: {c.text.split(' — ', 1)[-1]}"
    return f"{head}; {tail}."


#: The verdicts of a first-seat advantage (:func:`advantage_verdict`).
FAVOURS_FIRST = "favours the first seat"
AGAINST_FIRST = "against the first seat"
NO_CLEAR_ADVANTAGE = "no clear first-seat advantage"


def advantage_verdict(games: int, lo: float, hi: float) -> str:
    """The word of a first-seat advantage (seat 0's win share minus its fair share, with
    its Wilson interval shifted the same way): its interval above zero, below zero, or
    across it; too few games to tell below :data:`~hansa_lab.stats.answers.MIN_DEALS`.

    >>> advantage_verdict(400, 0.02, 0.11), advantage_verdict(400, -0.04, 0.05)
    ('favours the first seat', 'no clear first-seat advantage')
    """
    from hansa_lab.stats.answers import MIN_DEALS

    if games < MIN_DEALS:
        return str(TOO_FEW)
    if lo > 0:
        return FAVOURS_FIRST
    return AGAINST_FIRST if hi < 0 else NO_CLEAR_ADVANTAGE


def _advantage(r: pd.Series) -> str:
    def pct(x: float) -> str:  # no "-0.0%" for a share a hair under the fair one
        return f"{round(float(x), 6) + 0.0:+.1%}"

    return (f"{pct(r['estimate'])} [{pct(r['lo'])}, {pct(r['hi'])}] "
            f"(seat 0 wins {float(r['first_seat_win']):.1%} of {int(r['games'])} games)")


def advantage_convergence(table: pd.DataFrame, question: str, rungs: Sequence[str], *,
                          alpha: float = 0.05) -> Convergence:
    """Where a variant's first-seat advantage stops changing along ``rungs``. ``table``:
    one row per rung (``population``) and ``question`` with ``estimate``/``lo``/``hi``
    (the advantage and its interval), ``verdict`` (:func:`advantage_verdict`), ``games``
    and ``first_seat_win``; the test is the chi-square (or Monte Carlo) test of
    homogeneity of seat 0's wins against the others' (the rule of the module doc)."""
    rows = _rows(table, question, rungs)
    labels = tuple(str(r) for r in rungs)

    def test(part: list[pd.Series]) -> tuple[float, str]:
        wins = np.array([[float(r["first_seat_win"]) * float(r["games"]),
                          (1 - float(r["first_seat_win"])) * float(r["games"])]
                         for r in part])
        return seat_homogeneity(wins)

    def difference(a: pd.Series, b: pd.Series) -> str:
        return f"{_advantage(a)} at {a.name}, {_advantage(b)} at {b.name}"

    return _convergence(question, rows, labels, test,
                        f"the first seat's advantage {_advantage(rows[-1])}", difference,
                        "the first seat's win shares", alpha)
