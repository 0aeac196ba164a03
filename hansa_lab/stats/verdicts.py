"""Verdicts: the plain answer to a question, with its interval and what more data would buy.

Two questions a designer asks first:

- *does this arm (a tip, a rule change) help its focal player?* —
  :func:`comparison_verdicts` turns the rows of a paired comparison
  (:func:`hansa_lab.stats.paired.compare_arms` or ``Results.compare``) into lines like
  ``helps: +5.0 points [+1.2, +8.8] vs base, Holm p = 0.012 (12 deals); about 129 more
  deals for ±1 point``;
- *are the seats balanced?* — :func:`seat_verdicts` reads a per-seat table
  (:func:`hansa_lab.stats.seats.seat_advantage`).

A verdict never says more than its test: "helps"/"hurts" needs the family-wise (Holm)
adjusted p-value at most ``alpha`` — then the unadjusted interval excludes 0 and shows
the direction; anything else is "no clear effect", however large the point estimate. The
planning figure uses the spread of the deal-level differences seen so far: the number of
deals whose t interval would have half-width ``half_width``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from hansa_lab.stats.intervals import t_quantile
from hansa_lab.stats.paired import holm

__all__ = ["comparison_verdicts", "deals_for_half_width", "seat_verdicts"]


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
) -> pd.DataFrame:
    r"""A verdict per row of a paired comparison table.

    ``compared`` has one row per arm (and condition) with the columns of
    ``Results.compare`` (``arm``, ``score_diff``, ``diff_lo``, ``diff_hi``, ``deals``,
    ``p_value``, ``se``) or of :func:`~hansa_lab.stats.paired.compare_arms` (``arm_a``,
    ``diff``, ``n_deals``, ``se_paired``, ...). The p-values are Holm-adjusted over the
    rows given (the family of questions asked together). Returns the table with
    ``p_holm``, ``verdict`` (``helps``, ``hurts`` or ``no clear effect``),
    ``more_deals`` (deals to add for an interval of ±``half_width``; 0 when already
    there) and ``text``, the sentence.

    >>> t = pd.DataFrame({"arm": ["tip"], "base_arm": ["base"], "score_diff": [5.0],
    ...                   "diff_lo": [1.2], "diff_hi": [8.8], "deals": [12],
    ...                   "p_value": [0.012], "se": [1.73]})
    >>> v = comparison_verdicts(t)
    >>> print(v.text[0].replace("; ", ";\n"))
    helps: +5.0 points [+1.2, +8.8] vs base, Holm p = 0.012 (12 deals);
    about 129 more deals for ±1 point
    """
    c = compared.rename(columns={"arm_a": "arm", "arm_b": "base_arm", "diff": "score_diff",
                                 "n_deals": "deals", "se_paired": "se"})
    out = compared.copy()
    p_holm = holm(c["p_value"].to_numpy(dtype=float))
    out["p_holm"] = p_holm
    verdicts: list[str] = []
    more: list[int] = []
    texts: list[str] = []
    for i, row in enumerate(c.itertuples(index=False)):
        diff, lo, hi = float(row.score_diff), float(row.diff_lo), float(row.diff_hi)
        deals, p = int(row.deals), float(p_holm[i])
        if math.isfinite(p) and p <= alpha and math.isfinite(lo) and (lo > 0 or hi < 0):
            verdict = "helps" if diff > 0 else "hurts"
        else:
            verdict = "no clear effect"
        sd = float(row.se) * math.sqrt(deals) if deals > 1 else math.nan
        if math.isfinite(sd):
            need = max(0, deals_for_half_width(sd, half_width, ci) - deals)
            per = unit[:-1] if half_width == 1 and unit.endswith("s") else unit
            plan = (f"about {need} more deals for ±{half_width:g} {per}" if need
                    else f"within ±{half_width:g} {per} already")
        else:
            need = -1
            plan = "too few deals to tell how many more are needed"
        base = getattr(row, "base_arm", None)
        versus = f" vs {base}" if isinstance(base, str) and base else ""
        p_text = f"{p:.3g}" if math.isfinite(p) else "n/a"
        if deals < 2:
            verdict = "no clear effect"
            texts.append(f"{verdict}: {_number(diff)} {unit}{versus} from {deals} deal; a "
                         "verdict needs at least 2 deals")
        else:
            texts.append(f"{verdict}: {_number(diff)} {unit} [{_number(lo)}, {_number(hi)}]"
                         f"{versus}, Holm p = {p_text} ({deals} deals); {plan}")
        verdicts.append(verdict)
        more.append(need)
    out["verdict"] = verdicts
    out["more_deals"] = more
    out["text"] = texts
    return out


def seat_verdicts(seats: pd.DataFrame, *, alpha: float = 0.05,
                  group: Sequence[str] | None = None) -> list[str]:
    """One sentence per group of a :func:`~hansa_lab.stats.seats.seat_advantage` table:
    ``balanced`` unless equal seats are rejected at ``alpha`` by the win-count test or by
    Friedman's test on scores (Holm over the two tests and over the groups), then which
    seats win more or less than their fair share (Wilson interval off the fair share).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> from hansa_lab.stats.seats import seat_advantage
    >>> t = synthetic_tables(["base"], n_deals=300, n_players=3, seat_bonus=[6, 0, 0])
    >>> print(seat_verdicts(seat_advantage(t["players"], t["games"]))[0])  # doctest: +ELLIPSIS
    3 players, base_3p: unbalanced — seat 0 wins more than its fair share (...
    """
    keys = list(group) if group is not None else [
        c for c in seats.columns if c not in _SEAT_COLUMNS]
    parts = list(seats.groupby(keys, sort=False, dropna=False)) if keys else [((), seats)]
    pvals = np.array([[g["p_wins"].iloc[0], g["p_score"].iloc[0]] for _, g in parts],
                     dtype=float)
    adjusted = holm(pvals.ravel()).reshape(pvals.shape) if len(parts) else pvals
    lines = []
    for (key, g), (p_w, p_s) in zip(parts, adjusted, strict=True):
        key = key if isinstance(key, tuple) else (key,)
        label = ", ".join(_label(k, v) for k, v in zip(keys, key, strict=True)) or "all games"
        games = int(g["games"].iloc[0])
        tests = (f"wins p = {_p(p_w)}, scores p = {_p(p_s)} (Holm; {games} games)")
        reject = any(math.isfinite(p) and p <= alpha for p in (p_w, p_s))
        if not reject:
            lines.append(f"{label}: balanced — no seat differs clearly from the fair share "
                         f"{g['fair'].iloc[0]:.1%}; {tests}")
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
        lines.append(f"{label}: unbalanced — {'; '.join(notes)}; {tests}")
    return lines


_SEAT_COLUMNS = {"seat", "n", "wins", "win_rate", "win_lo", "win_hi", "fair", "mean_score",
                 "score_lo", "score_hi", "games", "chi2", "p_wins", "test", "friedman",
                 "p_score"}


def _label(key: str, value: object) -> str:
    if key == "n_players":
        return f"{value} players"
    if key in ("side", "board", "edition"):
        return str(value)
    return f"{key} {value}"


def _p(p: float) -> str:
    return f"{p:.3g}" if math.isfinite(p) else "n/a"
