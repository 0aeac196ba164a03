"""Verdicts: the plain answer to a question, with its interval and what more data would buy.

Every answer is an :class:`~hansa_lab.stats.answers.Answer` record built here, once, and
rendered by every surface (text report, HTML report, figures, ``answers.csv``, notebooks):

- *does this arm (a tip) help its focal player?* — :func:`tip_effect_answers` (primary: the
  focal player's score difference, paired t-test over deals, Holm over the arms; win share
  secondary), as a table by :func:`comparison_verdicts`, e.g. ``helps: +5.0 points [+1.2,
  +8.8] vs base, Holm p = 0.012 (12 deals)``;
- *does a rule variant change a measure?* — :func:`paired_answers` with the words
  ``raises``/``lowers`` (:func:`hansa_lab.stats.variants.variant_comparison`);
- *are the seats balanced?* — :func:`seat_balance_answers` (primary: the win share by
  seat and the test of equal win counts, Holm over the groups; Friedman's score test
  secondary), as sentences by :func:`seat_verdicts`;
- *what did a group-sequential run decide?* — :func:`sequential_sentence`.

A verdict never says more than its test and its data:

- a finding ("helps"/"hurts", "raises"/"lowers", "unbalanced") needs the Holm-adjusted
  p-value of the primary test at most ``alpha`` and, for a difference, an interval of
  non-zero width that excludes 0; only a finding fills a figure's marker;
- "the effect is smaller than ±1 point (shown)" (word: ``smaller than the margin``) needs
  the whole interval inside the margin;
- "balanced" needs, besides no rejection, a run that *could* have seen an imbalance that
  matters: a seat gap of ``matters`` (5 percentage points of wins by default) detected
  with 80% power. Otherwise "no clear seat difference", with the gap the run could
  detect (:func:`detectable_seat_gap`) and the games that would see ``matters``;
- "no clear effect" says the same for a comparison: the difference this run would detect
  with 80% power (:func:`detectable_difference`) and the deals that would narrow the
  interval to the margin;
- "too few games to tell" with fewer than :data:`~hansa_lab.stats.answers.MIN_DEALS`
  deals (no p-value is shown then), an interval of zero width, or a run that could not
  detect even the largest plausible difference
  (:data:`~hansa_lab.stats.answers.LARGEST_EFFECT`) or a seat gap as large as the fair
  share.

Tables show p-values through :func:`format_p` (three decimals, ``<0.001``); sentences through
:func:`~hansa_lab.stats.answers.p_phrase` ("Holm p = 0.012", "Holm p < 0.001").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hansa_lab.stats.answers import (
    FINDINGS,
    LARGEST_EFFECT,
    MIN_DEALS,
    PRIMARY,
    Answer,
    QuestionKind,
    Secondary,
    amount,
    p_phrase,
    plural,
    seat_name,
    shown,
)
from hansa_lab.stats.intervals import scipy_stats, t_quantile
from hansa_lab.stats.paired import holm

__all__ = [
    "POWER",
    "PairedQuestion",
    "comparison_verdicts",
    "deals_for_half_width",
    "detectable_difference",
    "detectable_seat_gap",
    "format_p",
    "paired_answers",
    "seat_balance_answers",
    "seat_verdicts",
    "sequential_sentence",
    "tip_effect_answers",
    "verdict_frame",
]

#: The power every "this run would detect ..." statement is made at.
POWER = 0.8
#: The verdict word when the data cannot support any answer.
TOO_FEW = "too few games to tell"


def format_p(p: float) -> str:
    """A p-value as every table, sentence and figure shows it: three decimals, ``<0.001``
    below that, ``n/a`` when there is none.

    >>> format_p(0.97812), format_p(1.0), format_p(0.0004), format_p(float("nan"))
    ('0.978', '1.000', '<0.001', 'n/a')
    """
    if p is None or not math.isfinite(p):
        return "n/a"
    return "<0.001" if p < 0.0005 else f"{p:.3f}"


def detectable_difference(se: float, deals: int, *, alpha: float = 0.05,
                          power: float = POWER) -> float:
    """The smallest true difference a two-sided paired t-test at level ``alpha`` over
    ``deals`` deals (standard error ``se``) detects with probability ``power``:
    ``(t(1−α/2) + t(power)) · se`` with deals − 1 degrees of freedom (the usual
    approximation that ignores the noncentral t's skew). NaN without an estimate.

    >>> round(detectable_difference(1.0, 1_000_000), 2)   # (1.96 + 0.84) · se
    2.8
    """
    if deals < 2 or not math.isfinite(se):
        return math.nan
    df = deals - 1
    return (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) * se


def detectable_seat_gap(games: int, seats: int, *, alpha: float = 0.05,
                        power: float = POWER) -> float:
    """The seat gap (in win share) the equal-seats test of
    :func:`~hansa_lab.stats.seats.seat_advantage` detects with probability ``power`` at
    level ``alpha`` after ``games`` games: one seat winning ``gap`` more than its fair
    share 1/seats, the others sharing the loss equally. The chi-square test's power
    comes from the noncentral chi-square distribution (seats − 1 degrees of freedom,
    noncentrality games · gap² · seats² / (seats − 1)).

    >>> round(detectable_seat_gap(400, 2), 3)        # two seats: ≈ 2.8 · 0.5 / √400
    0.07
    >>> detectable_seat_gap(4, 2) > 0.5             # 4 games: not even 0 vs 100% wins
    True
    """
    if games < 1 or seats < 2:
        return math.nan
    from scipy.optimize import brentq  # imported when used (as scipy_stats)

    sps = scipy_stats()
    df = seats - 1
    crit = float(sps.chi2.isf(alpha, df))

    def shortfall(lam: float) -> float:
        return float(sps.ncx2.sf(crit, df, lam)) - power

    hi = 1.0
    while shortfall(hi) < 0:
        hi *= 2
    lam = float(brentq(shortfall, 1e-9, hi, xtol=1e-9))
    return math.sqrt(lam * df / (games * seats * seats))


def deals_for_half_width(sd: float, half_width: float, ci: float = 0.95) -> int:
    """The fewest deals ``n`` whose t interval ``t(n−1)·sd/√n`` is at most ``half_width``
    (``sd``: the standard deviation of one deal's paired difference).

    >>> deals_for_half_width(4.0, 1.0)   # ≈ (1.96 · 4 / 1)², a little more for t
    64
    >>> deals_for_half_width(0.0, 1.0)
    2
    """
    if half_width <= 0 or not math.isfinite(sd):
        raise ValueError(f"need a positive half-width and a finite sd, got {half_width}, {sd}")
    if sd == 0:
        return 2
    z = t_quantile(0.5 + ci / 2, 1e9)
    n = max(2, math.ceil((z * sd / half_width) ** 2))
    while t_quantile(0.5 + ci / 2, n - 1) * sd / math.sqrt(n) > half_width:
        n += 1
    return n


def _number(x: float, digits: int = 1) -> str:
    return shown(x, f"+.{digits}f")


@dataclass(frozen=True)
class PairedQuestion:
    """One paired comparison to answer: arm against base on the same deals."""

    arm: str
    base: str
    diff: float
    lo: float
    hi: float
    deals: int
    #: the paired t-test's raw p-value
    p_raw: float
    se: float
    games: int = 0
    #: who played, e.g. "opponents: greedy"
    population: str = ""
    secondary: tuple[Secondary, ...] = ()


def _plan(need: int, half_width: float, unit: str) -> str:
    per = _unit_for(half_width, unit)
    return (f"about {plural(need, 'more deal')} would narrow the interval to "
            f"±{half_width:g} {per}")


def _unit_for(x: float, unit: str) -> str:
    """``unit`` in the singular for exactly 1 (``1 point``)."""
    if abs(x) == 1 and unit.endswith("s") and " " not in unit:
        return unit[:-1]
    return unit


def _secondary_text(secondary: Sequence[Secondary]) -> str:
    parts = []
    for s in secondary:
        if s.unit == "win share":
            shown = (f"{s.estimate:+.1%} [{s.lo:+.1%}, {s.hi:+.1%}]"
                     if math.isfinite(s.lo) else f"{s.estimate:+.1%}")
        else:
            shown = (f"{amount(s.estimate, s.unit)} [{_number(s.lo)}, {_number(s.hi)}]"
                     if math.isfinite(s.lo) else amount(s.estimate, s.unit))
        parts.append(f"{s.measure} {shown} (secondary, does not decide)")
    return "; ".join(parts)


def paired_answers(
    questions: Sequence[PairedQuestion],
    *,
    kind: QuestionKind = "tip_effect",
    alpha: float = 0.05,
    half_width: float = 1.0,
    unit: str = "points",
    ci: float = 0.95,
    bound: float | None = None,
    words: tuple[str, str] = ("helps", "hurts"),
    family: str = "",
) -> list[Answer]:
    r"""The :class:`~hansa_lab.stats.answers.Answer` of each paired question, computed
    once: the primary measure is the mean difference over deals with its t interval and
    paired t-test; the p-values are Holm-adjusted over the questions given (the family),
    leaving out those with fewer than :data:`~hansa_lab.stats.answers.MIN_DEALS` deals,
    which get no test. The word (``words`` for a finding, e.g. ``helps``/``hurts``):

    - "too few games to tell" — fewer than ``MIN_DEALS`` deals, an interval of no width
      (every deal gave the same difference), or a run that would not even detect the
      largest plausible difference (``bound``, default
      :data:`~hansa_lab.stats.answers.LARGEST_EFFECT` of the unit);
    - a finding — Holm p at most ``alpha`` and an interval of non-zero width off 0;
    - "smaller than the margin" — the interval lies inside ±``half_width`` (the effect is
      smaller than that, shown);
    - "no clear effect" otherwise, with the difference the run would detect with 80%
      power and the deals that would narrow the interval to ±``half_width``.

    Only a finding fills a figure's marker. Secondary measures ride along, labelled.
    """
    bound = bound if bound is not None else LARGEST_EFFECT.get(unit)
    testable = [q.deals >= MIN_DEALS for q in questions]
    p_holm = holm([q.p_raw if ok else math.nan
                   for q, ok in zip(questions, testable, strict=True)])
    m = max(1, int(np.isfinite(p_holm).sum()))
    family = family or f"Holm over {plural(m, 'question')}"
    measure, test = PRIMARY[kind]
    out: list[Answer] = []
    for q, p, ok in zip(questions, p_holm, testable, strict=True):
        p = float(p)
        sd = q.se * math.sqrt(q.deals) if q.deals > 1 else math.nan
        need = (max(0, deals_for_half_width(sd, half_width, ci) - q.deals)
                if math.isfinite(sd) and sd > 0 else -1)
        versus = f" vs {q.base}" if q.base else ""
        width = q.hi - q.lo
        gap = detectable_difference(q.se, q.deals, alpha=alpha / m) if ok else math.nan
        found = ok and found_at(p, q.lo, q.hi, alpha)
        equivalent = (ok and not found and math.isfinite(width) and width > 0
                      and -half_width < q.lo and q.hi < half_width)
        est = amount(q.diff, unit)
        interval = f"[{_number(q.lo)}, {_number(q.hi)}]"
        deals = plural(q.deals, "deal")
        word: str
        if not ok:
            word, need = TOO_FEW, max(MIN_DEALS - q.deals, 1)
            text = (f"{word}: {est}{versus} from {deals}; an answer needs at least "
                    f"{MIN_DEALS} deals")
        elif not (math.isfinite(width) and width > 0):
            word, gap = TOO_FEW, math.nan
            if q.diff == 0:
                other = q.base or "the base"
                text = (f"{word}: every one of the {deals} ended exactly as in {other} "
                        "(difference 0 in every deal), so the interval has no width: the "
                        "arms played alike here")
            else:
                text = (f"{word}: every one of the {deals} gave the same difference "
                        f"({est}{versus}), so the interval has no width; play more deals")
        elif not found and not equivalent and bound is not None and not gap < bound:
            word, gap = TOO_FEW, math.nan
            text = (f"{word}: {est} {interval}{versus}, {p_phrase(p)} ({deals}); this run "
                    f"could not detect even the largest plausible difference (±{bound:g} "
                    f"{unit})")
            if need > 0:
                text += f"; {_plan(need, half_width, unit)}"
        elif found:
            word = words[0] if q.diff > 0 else words[1]
            need = 0
            text = f"{word}: {est} {interval}{versus}, {p_phrase(p)} ({deals})"
        elif equivalent:
            word, need = "smaller than the margin", 0
            text = (f"the effect is smaller than ±{half_width:g} "
                    f"{_unit_for(half_width, unit)} (shown): {est} {interval}{versus}, "
                    f"{p_phrase(p)} ({deals})")
        else:
            word = "no clear effect"
            text = f"{word}: {est} {interval}{versus}, {p_phrase(p)} ({deals})"
            if math.isfinite(gap):
                text += (f"; this run would detect a difference of ±{gap:.1f} {unit} with "
                         f"{POWER:.0%} power")
            if need > 0:
                text += f"; {_plan(need, half_width, unit)}"
        if q.secondary:
            text += f"; {_secondary_text(q.secondary)}"
        out.append(Answer(
            kind=kind, question=(f"does {q.arm} help its player{versus}?"
                                 if kind == "tip_effect" else
                                 f"does {q.arm} change the measure{versus}?"),
            population=q.population, measure=measure, unit=unit, estimate=q.diff,
            lo=q.lo, hi=q.hi, ci=ci, test=test, p_raw=q.p_raw if ok else math.nan,
            p_adjusted=p, family=family, word=word,  # type: ignore[arg-type]
            detectable=gap, more_games=need, games=q.games, deals=q.deals,
            filled=word in FINDINGS, text=text, secondary=q.secondary,
            details={"arm": q.arm, "base": q.base, "margin": half_width}))
    return out


def _questions(compared: pd.DataFrame) -> list[PairedQuestion]:
    """The paired questions of a comparison table (``Results.compare`` or
    :func:`~hansa_lab.stats.paired.compare_arms` columns), with the win share as the
    secondary measure when the table has it."""
    names = {"arm_a": "arm", "arm_b": "base_arm", "diff": "score_diff", "n_deals": "deals",
             "se_paired": "se", "n_pairs": "n"}
    c = pd.DataFrame(getattr(compared, "full", compared)).rename(
        columns={k: v for k, v in names.items() if v not in compared.columns})
    out = []
    for r in c.to_dict("records"):
        base = r.get("base_arm")
        base = base if isinstance(base, str) and base else ""
        secondary: tuple[Secondary, ...] = ()
        if "win_diff" in r and math.isfinite(float(r["win_diff"])):
            secondary = (Secondary("win share", "win share", float(r["win_diff"]),
                                   float(r.get("win_diff_lo", math.nan)),
                                   float(r.get("win_diff_hi", math.nan)),
                                   float(r.get("p_win", math.nan))),)
        opponents = r.get("base_strategy", r.get("strategy_b"))
        out.append(PairedQuestion(
            arm=str(r["arm"]), base=base, diff=float(r["score_diff"]),
            lo=float(r["diff_lo"]), hi=float(r["diff_hi"]), deals=int(r["deals"]),
            p_raw=float(r["p_value"]), se=float(r["se"]),
            games=int(r["n"]) if "n" in r and pd.notna(r["n"]) else 0,
            population=f"opponents: {opponents}" if isinstance(opponents, str) else "",
            secondary=secondary))
    return out


def tip_effect_answers(compared: pd.DataFrame, *, alpha: float = 0.05,
                       half_width: float = 1.0, unit: str = "points", ci: float = 0.95,
                       bound: float | None = None) -> list[Answer]:
    """The ``tip_effect`` answer of each row of a paired comparison table
    (``Results.compare``, :func:`~hansa_lab.stats.paired.compare_arms`): primary, the
    focal player's mean score difference with its paired t-test over deals, Holm over
    the rows (the tips asked together); the win-share difference is secondary. Why score
    and not win share: with one tip player among several, the score difference is
    measured on every deal, while a win share moves only when the winner changes, so the
    score test needs several times fewer deals for the same power; the win share is
    shown beside it, labelled, and never decides (:func:`paired_answers`)."""
    return paired_answers(_questions(compared), kind="tip_effect", alpha=alpha,
                          half_width=half_width, unit=unit, ci=ci, bound=bound)


def comparison_verdicts(
    compared: pd.DataFrame,
    *,
    alpha: float = 0.05,
    half_width: float = 1.0,
    unit: str = "points",
    ci: float = 0.95,
    bound: float | None = None,
) -> pd.DataFrame:
    r"""A verdict per row of a paired comparison table, rendered from the answer records
    of :func:`tip_effect_answers` (:func:`paired_answers` says how a word is decided).

    ``compared`` has one row per arm (and condition) with the columns of
    ``Results.compare`` (``arm``, ``score_diff``, ``diff_lo``, ``diff_hi``, ``deals``,
    ``p_value``, ``se``) or of :func:`~hansa_lab.stats.paired.compare_arms` (``arm_a``,
    ``diff``, ``n_deals``, ``se_paired``, ...). Returns the table with ``p_holm``,
    ``verdict`` (the record's word), ``filled`` (whether a figure fills its marker),
    ``detectable`` (the difference this run detects with 80% power at the first Holm
    step's level α/m; NaN where that means nothing), ``more_deals`` (deals to add to
    decide; 0 when decided, −1 unknown) and ``text``, the sentence. ``bound``: the
    largest plausible difference (default by unit,
    :data:`~hansa_lab.stats.answers.LARGEST_EFFECT`).

    >>> t = pd.DataFrame({"arm": ["tip"], "base_arm": ["base"], "score_diff": [5.0],
    ...                   "diff_lo": [1.2], "diff_hi": [8.8], "deals": [12],
    ...                   "p_value": [0.012], "se": [1.73]})
    >>> print(comparison_verdicts(t).text[0])
    helps: +5.0 points [+1.2, +8.8] vs base, Holm p = 0.012 (12 deals)
    >>> t.loc[0, ["score_diff", "diff_lo", "diff_hi", "p_value"]] = [1.0, -2.6, 4.6, 0.55]
    >>> print(comparison_verdicts(t).text[0].replace("; ", ";\n"))
    no clear effect: +1.0 points [-2.6, +4.6] vs base, Holm p = 0.550 (12 deals);
    this run would detect a difference of ±5.3 points with 80% power;
    about 129 more deals would narrow the interval to ±1 point
    """
    answers = tip_effect_answers(compared, alpha=alpha, half_width=half_width, unit=unit,
                                 ci=ci, bound=bound)
    return verdict_frame(compared, answers)


def verdict_frame(compared: pd.DataFrame, answers: Sequence[Answer]) -> pd.DataFrame:
    """``compared`` with the columns every verdict table shows from its answer records:
    ``p_holm``, ``verdict``, ``filled``, ``detectable``, ``more_deals``, ``text``."""
    out = compared.copy()
    out["p_holm"] = [a.p_adjusted for a in answers]
    # the adjusted p-value of the score test stands beside the score difference it tests
    after = next((c for c in ("diff_hi", "score_diff", "diff") if c in out.columns), None)
    if after is not None:
        order = [c for c in out.columns if c != "p_holm"]
        order.insert(order.index(after) + 1, "p_holm")
        out = out[order]
    out["verdict"] = [a.word for a in answers]
    out["filled"] = [a.filled for a in answers]
    out["detectable"] = [a.detectable for a in answers]
    out["more_deals"] = [a.more_games for a in answers]
    out["text"] = [a.text for a in answers]
    return out


def sequential_sentence(result: Any, arm: str, base: str, opponents: Sequence[str] = (),
                        unit: str = "points") -> str:
    """The answer of a group-sequential comparison (:func:`hansa_lab.stats.sequential_compare`,
    ``run --until-decided``) in plain words: who played against whom, the mean difference
    and its 95% interval valid at every look, and only the claim that interval supports —
    an effect beyond the margin only when the interval excludes the margin, "smaller than
    the margin (shown)" only when it lies inside it.

    >>> from textwrap import fill
    >>> from types import SimpleNamespace as R
    >>> r = R(decision="A better", estimate=3.1, lo=0.0738, hi=8.32, effect=1.0, n_pairs=60)
    >>> print(fill(sequential_sentence(r, "tip", "base", ["greedy", "greedy"]), 88))
    tip (opponents: greedy, greedy) scores more than base: +3.10 points, 95% interval valid
    at every look [+0.07, +8.32] after 60 deals; above 0, but an effect smaller than the 1
    point that matters is not ruled out
    """
    effect = float(result.effect)
    per = _unit_for(effect, unit)
    matter = "matters" if per != unit else "matter"
    who = f"{arm} (opponents: {', '.join(opponents)})" if opponents else arm
    lo, hi = float(result.lo), float(result.hi)
    shown = (f"{float(result.estimate):+.2f} {unit}, 95% interval valid at every look "
             f"[{lo:+.2f}, {hi:+.2f}] after {plural(int(result.n_pairs), 'deal')}")
    if result.decision in ("A better", "B better"):
        more = "more" if result.decision == "A better" else "less"
        word = "helps" if result.decision == "A better" else "hurts"
        beyond = lo >= effect if result.decision == "A better" else hi <= -effect
        if beyond:
            return (f"{who} {word}: it scores {more} than {base}, {shown}; the effect is at "
                    f"least the {effect:g} {per} that {matter}")
        return (f"{who} scores {more} than {base}: {shown}; "
                f"{'above' if more == 'more' else 'below'} 0, but an effect smaller than "
                f"the {effect:g} {per} that {matter} is not ruled out")
    if -effect < lo and hi < effect:
        return (f"{who} against {base}: the effect is smaller than ±{effect:g} {per} "
                f"(shown): {shown}")
    if result.decision == "no difference":
        return (f"{who} against {base}: no clear effect: {shown}; the planned deals found "
                f"none, but the interval does not rule out an effect of ±{effect:g} {per}")
    return (f"{who} against {base}: too few games to tell: {shown}, the most deals allowed; "
            f"play more deals (--max-deals) to decide")


def found_at(p: float, lo: float, hi: float, alpha: float) -> bool:
    """Whether a test found a difference: (adjusted) ``p`` at most ``alpha`` and an
    interval ``[lo, hi]`` of non-zero width that excludes 0."""
    return math.isfinite(p) and p <= alpha and hi > lo and (lo > 0 or hi < 0)


def _games_for_gap(games: int, gap: float, matters: float) -> int:
    """More games after which the detectable seat gap shrinks to ``matters`` (it falls
    as 1/√games)."""
    if not (math.isfinite(gap) and games > 0):
        return -1
    return max(0, math.ceil(games * (gap / matters) ** 2) - games)


def seat_balance_answers(seats: pd.DataFrame, *, alpha: float = 0.05,
                         group: Sequence[str] | None = None, matters: float = 0.05,
                         population: str = "") -> list[Answer]:
    """The ``seat_balance`` answer of each group of a
    :func:`~hansa_lab.stats.seats.seat_advantage` table, computed once.

    Primary: the win share by seat and the chi-square (or Monte Carlo) test of equal win
    counts (``p_wins``), Holm-adjusted over the groups asked together; Friedman's test on
    the scores is secondary (labelled, it never decides). The estimate is seat 0's (the
    first player's) win share with its Wilson interval; ``details["seats"]`` holds every
    seat's. Then:

    - ``unbalanced`` when the win test rejects at ``alpha``: which seats win more or less
      than their fair share (Wilson interval off the fair share);
    - ``balanced`` when it does not *and* the run detects a seat gap of ``matters`` (win
      share) with 80% power (:func:`detectable_seat_gap` at level α/m);
    - ``no clear seat difference`` when it does not but the run could only see a larger
      gap, which the sentence states with the games that would see ``matters``;
    - ``too few games to tell`` with fewer than :data:`~hansa_lab.stats.answers.MIN_DEALS`
      games, or when even a gap as large as the fair share itself would likely go
      unseen.
    """
    keys = list(group) if group is not None else [
        c for c in seats.columns if c not in _SEAT_COLUMNS]
    parts = list(seats.groupby(keys, sort=False, dropna=False)) if keys else [((), seats)]
    games_of = [int(g["games"].iloc[0]) for _, g in parts]
    raw = np.array([float(g["p_wins"].iloc[0]) if n >= MIN_DEALS else math.nan
                    for (_, g), n in zip(parts, games_of, strict=True)], dtype=float)
    adjusted = holm(raw)
    m = max(1, int(np.isfinite(adjusted).sum()))
    family = f"Holm over {plural(m, 'group')} of seats"
    measure, test = PRIMARY["seat_balance"]
    out: list[Answer] = []
    for (key, g), p, games in zip(parts, adjusted, games_of, strict=True):
        p = float(p)
        key = key if isinstance(key, tuple) else (key,)
        label = ", ".join(_label(k, v) for k, v in zip(keys, key, strict=True)) or "all games"
        fair = float(g["fair"].iloc[0])
        n_seats = len(g)
        gap = detectable_seat_gap(games, n_seats, alpha=alpha / m)
        p_score = float(g["p_score"].iloc[0]) if "p_score" in g.columns else math.nan
        secondary = (Secondary("scores by seat (Friedman test)", "p-value", p_score,
                               p_raw=p_score),) if math.isfinite(p_score) else ()
        ps = f"win test {p_phrase(p)} ({plural(games, 'game')})"
        second = (f"; scores by seat, Friedman {p_phrase(p_score, '')} (secondary, does not "
                  "decide)" if secondary else "")
        power = f"this run would detect a gap of ±{gap:.1%} wins with {POWER:.0%} power"
        more = _games_for_gap(games, gap, matters)
        word: str
        if games < MIN_DEALS:
            word, gap, more = TOO_FEW, math.nan, MIN_DEALS - games
            text = (f"{label}: {word} — {plural(games, 'game')}; an answer needs at least "
                    f"{MIN_DEALS} games")
        elif not (math.isfinite(p) and p <= alpha):
            if not math.isfinite(gap) or gap >= fair:
                word = TOO_FEW
                text = (f"{label}: {word} — {plural(games, 'game')} would detect only a gap "
                        f"of ±{gap:.1%} wins with {POWER:.0%} power, more than the fair "
                        f"share {fair:.1%} itself; {ps}{second}")
            elif gap <= matters:
                word, more = "balanced", 0
                text = (f"{label}: balanced within ±{matters:.0%} wins — no seat differs "
                        f"clearly from the fair share {fair:.1%}, and {power}; {ps}{second}")
            else:
                word = "no clear seat difference"
                text = (f"{label}: no clear seat difference — {power} (fair share "
                        f"{fair:.1%}); {ps}{second}")
            if word != "balanced" and more > 0:
                text += (f"; about {plural(more, 'more game')} would detect a gap of "
                         f"±{matters:.0%} wins")
        else:
            word, more = "unbalanced", 0
            notes = []
            for r in g.itertuples(index=False):
                shown = f"({r.win_rate:.1%} [{r.win_lo:.1%}, {r.win_hi:.1%}] vs {r.fair:.1%})"
                if r.win_lo > r.fair:
                    notes.append(f"{seat_name(int(r.seat))} wins more than its fair share "
                                 f"{shown}")
                elif r.win_hi < r.fair:
                    notes.append(f"{seat_name(int(r.seat))} wins less than its fair share "
                                 f"{shown}")
            if not notes:
                notes.append("the win counts differ from equal, though no single seat's "
                             "interval is clearly off its fair share")
            text = f"{label}: unbalanced — {'; '.join(notes)}; {ps}{second}"
        first = g[g["seat"] == g["seat"].min()].iloc[0]
        out.append(Answer(
            kind="seat_balance", question=f"is any seat favoured ({label})?",
            population=population, measure=measure, unit="win share",
            estimate=float(first["win_rate"]), lo=float(first["win_lo"]),
            hi=float(first["win_hi"]), ci=0.95, test=test,
            p_raw=float(raw[len(out)]), p_adjusted=p, family=family,
            word=word, detectable=gap, more_games=more,  # type: ignore[arg-type]
            games=games, deals=games, filled=word in FINDINGS, text=text,
            secondary=secondary,
            details={"label": label, "fair": fair, "matters": matters,
                     "group": dict(zip(keys, key, strict=True)),
                     "seats": [(int(r.seat), float(r.win_rate), float(r.win_lo),
                                float(r.win_hi)) for r in g.itertuples(index=False)]}))
    return out


def seat_verdicts(seats: pd.DataFrame, *, alpha: float = 0.05,
                  group: Sequence[str] | None = None, matters: float = 0.05) -> list[str]:
    """One sentence per group of a :func:`~hansa_lab.stats.seats.seat_advantage` table:
    the text of :func:`seat_balance_answers`' records (the word is decided by the win
    test alone; Friedman's test on scores is shown as secondary).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> from hansa_lab.stats.seats import seat_advantage
    >>> t = synthetic_tables(["base"], n_deals=300, n_players=3, seat_bonus=[6, 0, 0])
    >>> print(seat_verdicts(seat_advantage(t["players"], t["games"]))[0][:84])
    3 players, base_3p: unbalanced — seat 0 (first player) wins more than its fair share
    """
    return [a.text for a in seat_balance_answers(seats, alpha=alpha, group=group,
                                                 matters=matters)]


_SEAT_COLUMNS = {"seat", "n", "wins", "win_rate", "win_lo", "win_hi", "fair", "mean_score",
                 "score_lo", "score_hi", "games", "chi2", "p_wins", "test", "friedman",
                 "p_score", "p_wins_holm", "p_score_holm"}


def _label(key: str, value: object) -> str:
    if key == "n_players":
        return f"{value} players"
    if key in ("side", "board", "edition"):
        return str(value)
    return f"{key} {value}"
