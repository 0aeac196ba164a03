"""Verdicts: the plain answer to a question, with its interval and what more data would buy.

Two questions a designer asks first:

- *does this arm (a tip, a rule change) help its focal player?* —
  :func:`comparison_verdicts` turns the rows of a paired comparison
  (:func:`hansa_lab.stats.paired.compare_arms` or ``Results.compare``) into lines like
  ``helps: +5.0 points [+1.2, +8.8] vs base, Holm p = 0.012 (12 deals); about 129 more
  deals for ±1 point``;
- *are the seats balanced?* — :func:`seat_verdicts` reads a per-seat table
  (:func:`hansa_lab.stats.seats.seat_advantage`).

A verdict never says more than its test and its data:

- "helps"/"hurts" (or "unbalanced") needs the family-wise (Holm) adjusted p-value at
  most ``alpha`` and an interval of non-zero width that excludes 0;
- "balanced" needs, besides no rejection, a run that *could* have seen an imbalance that
  matters: a seat gap of ``matters`` (5 percentage points of wins by default) detected
  with 80% power. Otherwise the sentence is "no clear seat difference — this run would
  detect a gap of ±X% wins with 80% power" (:func:`detectable_seat_gap`);
- "no clear effect" says the same for a comparison: the difference this run would detect
  with 80% power (:func:`detectable_difference`);
- "too few games to tell" when there is no interval to speak of: fewer than 2 deals,
  every deal giving the same difference (an interval of zero width), or a detectable
  seat gap as large as the fair share itself.

Every p-value a person reads goes through :func:`format_p` (three decimals, ``<0.001``)
and says whether it is raw or Holm-adjusted. The planning figure uses the spread of the
deal-level differences seen so far: the number of deals whose t interval would have
half-width ``half_width``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import scipy.stats as sps
from scipy.optimize import brentq

from hansa_lab.stats.intervals import t_quantile
from hansa_lab.stats.paired import holm

__all__ = [
    "POWER",
    "comparison_verdicts",
    "deals_for_half_width",
    "detectable_difference",
    "detectable_seat_gap",
    "format_p",
    "seat_verdicts",
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
    return f"{x:+.{digits}f}" if math.isfinite(x) else "n/a"


def comparison_verdicts(
    compared: pd.DataFrame,
    *,
    alpha: float = 0.05,
    half_width: float = 1.0,
    unit: str = "points",
    ci: float = 0.95,
    bound: float | None = None,
) -> pd.DataFrame:
    r"""A verdict per row of a paired comparison table.

    ``compared`` has one row per arm (and condition) with the columns of
    ``Results.compare`` (``arm``, ``score_diff``, ``diff_lo``, ``diff_hi``, ``deals``,
    ``p_value``, ``se``) or of :func:`~hansa_lab.stats.paired.compare_arms` (``arm_a``,
    ``diff``, ``n_deals``, ``se_paired``, ...). The p-values are Holm-adjusted over the
    rows given (the family of questions asked together). Returns the table with
    ``p_holm``, ``verdict`` (``helps``, ``hurts``, ``no clear effect`` or ``too few games
    to tell``), ``detectable`` (the difference this run detects with 80% power at the
    first Holm step's level α/m; NaN without an interval), ``more_deals`` (deals to add
    for an interval of ±``half_width``; 0 when already there, −1 unknown) and ``text``,
    the sentence. ``bound``: the largest difference possible (100 for win shares in
    percentage points); a run that could not detect even that is "too few games to
    tell".

    >>> t = pd.DataFrame({"arm": ["tip"], "base_arm": ["base"], "score_diff": [5.0],
    ...                   "diff_lo": [1.2], "diff_hi": [8.8], "deals": [12],
    ...                   "p_value": [0.012], "se": [1.73]})
    >>> v = comparison_verdicts(t)
    >>> print(v.text[0].replace("; ", ";\n"))
    helps: +5.0 points [+1.2, +8.8] vs base, Holm p = 0.012 (12 deals);
    about 129 more deals for ±1 point
    >>> t.loc[0, ["score_diff", "diff_lo", "diff_hi", "p_value"]] = [1.0, -2.6, 4.6, 0.55]
    >>> print(comparison_verdicts(t).text[0].replace("; ", ";\n"))
    no clear effect: +1.0 points [-2.6, +4.6] vs base, Holm p = 0.550 (12 deals);
    this run would detect a difference of ±5.3 points with 80% power;
    about 129 more deals for ±1 point
    """
    c = compared.rename(columns={"arm_a": "arm", "arm_b": "base_arm", "diff": "score_diff",
                                 "n_deals": "deals", "se_paired": "se"})
    out = compared.copy()
    p_holm = holm(c["p_value"].to_numpy(dtype=float))
    family = max(1, int(np.isfinite(p_holm).sum()))
    out["p_holm"] = p_holm
    verdicts: list[str] = []
    detectable: list[float] = []
    more: list[int] = []
    texts: list[str] = []
    for i, row in enumerate(c.itertuples(index=False)):
        diff, lo, hi = float(row.score_diff), float(row.diff_lo), float(row.diff_hi)
        deals, p, se = int(row.deals), float(p_holm[i]), float(row.se)
        sd = se * math.sqrt(deals) if deals > 1 else math.nan
        if math.isfinite(sd) and sd > 0:
            need = max(0, deals_for_half_width(sd, half_width, ci) - deals)
            per = unit[:-1] if half_width == 1 and unit.endswith("s") else unit
            plan = (f"about {need} more deals for ±{half_width:g} {per}" if need
                    else f"within ±{half_width:g} {per} already")
        else:
            need = -1
            plan = "too few deals to tell how many more are needed"
        base = getattr(row, "base_arm", None)
        versus = f" vs {base}" if isinstance(base, str) and base else ""
        width = hi - lo
        gap = detectable_difference(se, deals, alpha=alpha / family)
        if deals < 2:
            verdict = TOO_FEW
            text = (f"{verdict}: {_number(diff)} {unit}{versus} from {deals} deal; a "
                    "verdict needs at least 2 deals")
        elif not (math.isfinite(width) and width > 0):
            verdict, gap = TOO_FEW, math.nan
            if diff == 0:
                other = base if isinstance(base, str) and base else "the base"
                text = (f"{verdict}: every one of the {deals} deals ended exactly as in "
                        f"{other} (difference 0 in every deal), so the interval has no "
                        "width: the arms played alike here")
            else:
                text = (f"{verdict}: every one of the {deals} deals gave the same difference "
                        f"({_number(diff)} {unit}{versus}), so the interval has no width; "
                        "play more deals")
        elif bound is not None and not found_at(p, lo, hi, alpha) and gap >= bound:
            verdict = TOO_FEW
            text = (f"{verdict}: {_number(diff)} {unit} [{_number(lo)}, {_number(hi)}]"
                    f"{versus}, Holm p = {format_p(p)} ({deals} deals); this run could not "
                    f"detect even the largest possible difference (±{bound:g} {unit}); {plan}")
        else:
            found = found_at(p, lo, hi, alpha)
            verdict = ("helps" if diff > 0 else "hurts") if found else "no clear effect"
            text = (f"{verdict}: {_number(diff)} {unit} [{_number(lo)}, {_number(hi)}]"
                    f"{versus}, Holm p = {format_p(p)} ({deals} deals); ")
            if not found and math.isfinite(gap):
                text += (f"this run would detect a difference of ±{gap:.1f} {unit} with "
                         f"{POWER:.0%} power; ")
            text += plan
        verdicts.append(verdict)
        detectable.append(gap)
        more.append(need)
        texts.append(text)
    out["verdict"] = verdicts
    out["detectable"] = detectable
    out["more_deals"] = more
    out["text"] = texts
    return out


def found_at(p: float, lo: float, hi: float, alpha: float) -> bool:
    """Whether a test found a difference: (adjusted) ``p`` at most ``alpha`` and an
    interval ``[lo, hi]`` of non-zero width that excludes 0."""
    return math.isfinite(p) and p <= alpha and hi > lo and (lo > 0 or hi < 0)


def seat_verdicts(seats: pd.DataFrame, *, alpha: float = 0.05,
                  group: Sequence[str] | None = None, matters: float = 0.05) -> list[str]:
    """One sentence per group of a :func:`~hansa_lab.stats.seats.seat_advantage` table.

    Equal seats are tested by the win-count test and by Friedman's test on scores, Holm
    over the two tests and over the groups (the table's ``p_wins_holm`` /
    ``p_score_holm`` when present, the same numbers the tables show). Then:

    - ``unbalanced`` when a test rejects at ``alpha``: which seats win more or less than
      their fair share (Wilson interval off the fair share);
    - ``balanced`` when nothing rejects *and* the run detects a seat gap of ``matters``
      (win share) with 80% power (:func:`detectable_seat_gap` at level α/m, m the
      number of tests);
    - ``no clear seat difference`` when nothing rejects but the run could only see a
      larger gap, which the sentence states;
    - ``too few games to tell`` when even a gap as large as the fair share itself would
      likely go unseen.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> from hansa_lab.stats.seats import seat_advantage
    >>> t = synthetic_tables(["base"], n_deals=300, n_players=3, seat_bonus=[6, 0, 0])
    >>> print(seat_verdicts(seat_advantage(t["players"], t["games"]))[0])  # doctest: +ELLIPSIS
    3 players, base_3p: unbalanced — seat 0 wins more than its fair share (...
    """
    keys = list(group) if group is not None else [
        c for c in seats.columns if c not in _SEAT_COLUMNS]
    parts = list(seats.groupby(keys, sort=False, dropna=False)) if keys else [((), seats)]
    if "p_wins_holm" in seats.columns and "p_score_holm" in seats.columns:
        adjusted = np.array([[g["p_wins_holm"].iloc[0], g["p_score_holm"].iloc[0]]
                             for _, g in parts], dtype=float).reshape(len(parts), 2)
    else:
        pvals = np.array([[g["p_wins"].iloc[0], g["p_score"].iloc[0]] for _, g in parts],
                         dtype=float).reshape(len(parts), 2)
        adjusted = holm(pvals.ravel()).reshape(pvals.shape)
    tests = max(1, int(np.isfinite(adjusted).sum()))
    lines = []
    for (key, g), (p_w, p_s) in zip(parts, adjusted, strict=True):
        key = key if isinstance(key, tuple) else (key,)
        label = ", ".join(_label(k, v) for k, v in zip(keys, key, strict=True)) or "all games"
        games = int(g["games"].iloc[0])
        fair = float(g["fair"].iloc[0])
        gap = detectable_seat_gap(games, len(g), alpha=alpha / tests)
        ps = (f"Holm p: wins {format_p(p_w)}, scores {format_p(p_s)} ({games} games)")
        reject = any(math.isfinite(p) and p <= alpha for p in (p_w, p_s))
        power = f"this run would detect a gap of ±{gap:.1%} wins with {POWER:.0%} power"
        if not reject:
            if not math.isfinite(gap) or gap >= fair:
                lines.append(f"{label}: {TOO_FEW} — {games} games would detect only a gap "
                             f"of ±{gap:.1%} wins with {POWER:.0%} power, more than the fair "
                             f"share {fair:.1%} itself; {ps}")
            elif gap <= matters:
                lines.append(f"{label}: balanced — no seat differs clearly from the fair "
                             f"share {fair:.1%}, and {power}; {ps}")
            else:
                lines.append(f"{label}: no clear seat difference — {power} (fair share "
                             f"{fair:.1%}); {ps}")
            continue
        notes = []
        for r in g.itertuples(index=False):
            if r.win_lo > r.fair:
                notes.append(f"seat {r.seat} wins more than its fair share "
                             f"({r.win_rate:.1%} [{r.win_lo:.1%}, {r.win_hi:.1%}] vs {r.fair:.1%})")
            elif r.win_hi < r.fair:
                notes.append(f"seat {r.seat} wins less than its fair share "
                             f"({r.win_rate:.1%} [{r.win_lo:.1%}, {r.win_hi:.1%}] vs {r.fair:.1%})")
        if not notes:
            best = g.loc[g["mean_score"].idxmax()]
            notes.append(f"the seats' scores differ (seat {int(best['seat'])} scores most, "
                         f"{best['mean_score']:.1f})")
        lines.append(f"{label}: unbalanced — {'; '.join(notes)}; {ps}")
    return lines


_SEAT_COLUMNS = {"seat", "n", "wins", "win_rate", "win_lo", "win_hi", "fair", "mean_score",
                 "score_lo", "score_hi", "games", "chi2", "p_wins", "test", "friedman",
                 "p_score", "p_wins_holm", "p_score_holm"}


def _label(key: str, value: object) -> str:
    if key == "n_players":
        return f"{value} players"
    if key in ("side", "board", "edition"):
        return str(value)
    return f"{key} {value}"
