"""Paired comparisons of arms played on the same deals: the matched pairs, their deal-level
t intervals and tests, and Holm's adjustment for a family of comparisons.

The runner plays every arm on the same seeds, so a strategy's game and the base arm's
game on the same deal differ only by the strategy: their difference cancels the luck
of the deal (common random numbers). See :func:`paired_differences` for the pairing
and :func:`paired_comparison` for the statistics.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from hansa_lab.stats.answers import MIN_DEALS
from hansa_lab.stats.display import View, readable
from hansa_lab.stats.intervals import t_quantile, t_sf
from hansa_lab.stats.tables import (
    CONDITION_COLUMNS,
    GAME_KEYS,
    By,
    as_list,
    lineup_period,
    varying,
    with_games,
)

__all__ = [
    "DEAL_KEYS",
    "compare_arms",
    "deal_means",
    "holm",
    "paired_comparison",
    "paired_differences",
    "summarize_pairs",
]


def deal_t_test(v: np.ndarray) -> tuple[float, float, float]:
    """Mean, standard error and two-sided t-test p-value (mean 0) of per-deal paired
    differences ``v`` (NaN where too few deals; p 1 or 0 when every deal agrees)."""
    g = len(v)
    mean = float(v.mean()) if g else math.nan
    se = float(v.std(ddof=1)) / math.sqrt(g) if g > 1 else math.nan
    if g < 2:
        p = math.nan
    elif se == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = t_sf(mean / se, g - 1)
    return mean, se, p


def _focal_rows(a: pd.DataFrame, focal: int | str | None) -> pd.DataFrame:
    if focal is None:
        return a
    if isinstance(focal, str):
        hit = a["strategy"] == focal
        if "strategy_name" in a.columns:
            hit |= a["strategy_name"] == focal
        if not hit.any():
            raise ValueError(f"no player with strategy {focal!r} in the arm")
        return a[hit]
    # the strategy at line-up position `focal` sits in seat (rotation + focal) % n; take
    # every seat of the game that plays it (a repeated strategy has several)
    seat = (a["rotation"].astype(np.int64) + int(focal)) % a["n_players"].astype(np.int64)
    at = a[a["seat"].astype(np.int64) == seat][[*GAME_KEYS, "strategy"]]
    at = at.rename(columns={"strategy": "_focal"})
    m = a.merge(at, on=GAME_KEYS, how="inner")
    return m[m["strategy"] == m["_focal"]].drop(columns="_focal")


def paired_differences(
    players: pd.DataFrame,
    games: pd.DataFrame | None,
    arm_a: str,
    arm_b: str,
    *,
    focal: int | str | None = 0,
    value: str = "total",
) -> pd.DataFrame:
    """The matched pairs of two arms: one row per focal player of ``arm_a`` and the
    player in the same seat of the ``arm_b`` game with the same seed and rotation.

    **Pairing.** The runner plays every arm on the same deals (seed = base seed + deal)
    and, per deal, in each of the line-up's distinct seat rotations (rotation r puts
    line-up position 0 in seat r; an all-same line-up such as an all-greedy base has a
    single rotation). An arm-A player is matched with the same ``seat`` of the arm-B
    game with the same ``experiment``, condition (``n_players, board, side, edition,
    options``), ``seed`` and rotation ``rotation mod p_B`` (p_B: arm B's number of
    distinct rotations, read from its line-up), so one base game can pair with several
    arm-A games. ``seed``/``rotation``/conditions come from ``games`` unless
    ``players`` already has them.

    **Focal players** (chosen in arm A):

    - ``focal=k`` (int, default 0): the players of the strategy at line-up position
      ``k`` — in rotation r it sits in seat ``(r + k) % n_players``, plus any other
      seat of the game playing the same strategy. In a tip experiment (tip first in the
      line-up) this is the tip's seat.
    - ``focal="name"``: every arm-A player whose ``strategy`` (or ``strategy_name``)
      is ``name``;
    - ``focal=None``: every seat (e.g. a rule option that affects all players).

    The deal (``experiment``, condition, ``seed``) is the independent unit: its
    rotations share the bonus draws and the seats' random streams, so the statistics
    of :func:`paired_comparison` work on the per-deal means (:func:`deal_means`).

    Columns: the match keys (with arm A's ``rotation``), ``rotation_b``,
    ``game_id_a``, ``game_id_b``, ``strategy_a``, ``strategy_b``, ``value_a``,
    ``value_b``, ``diff`` (A − B), ``win_a``, ``win_b``, ``win_diff``. Unmatched
    arm-A rows are dropped with a warning.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables({"tip": ["plus3", "base"], "base": ["base"]}, n_deals=2,
    ...                      n_players=2, noise_sd=0.0)
    >>> d = paired_differences(t["players"], t["games"], "tip", "base")
    >>> d[["seed", "rotation", "seat", "rotation_b", "strategy_a", "strategy_b", "diff"]]
       seed  rotation  seat  rotation_b strategy_a strategy_b  diff
    0     0         0     0           0      plus3       base   3.0
    1     0         1     1           0      plus3       base   3.0
    2     1         0     0           0      plus3       base   3.0
    3     1         1     1           0      plus3       base   3.0
    """
    df = with_games(players, games)
    arms = set(df["arm"].dropna())
    for arm in (arm_a, arm_b):
        if arm not in arms:
            raise ValueError(f"no arm {arm!r} (arms: {', '.join(sorted(map(str, arms)))})")
    a = _focal_rows(df[df["arm"] == arm_a], focal)
    n_focal = len(a)
    b = df[df["arm"] == arm_b]
    conds = [c for c in ("experiment", *CONDITION_COLUMNS) if c in df.columns]
    # arm B's distinct rotations per condition, from its line-up (seat order)
    lineups = (b.sort_values("seat").groupby([*conds, *GAME_KEYS[1:]], sort=False,
                                             dropna=False)["strategy"].agg(tuple))
    periods = lineups.map(lineup_period).groupby(level=list(range(len(conds)))).max()
    periods = periods.rename("_period").reset_index()
    a = a.merge(periods, on=conds, how="inner")
    a = a.assign(_rot_b=a["rotation"].to_numpy(np.int64) % a["_period"].to_numpy(np.int64))
    keys = [*conds, "seed", "seat"]
    cols = list(dict.fromkeys([*keys, "rotation", "game_id", "strategy", value, "win_share"]))
    bb = b[cols].rename(columns={"rotation": "_rot_b"})
    m = a[[*cols, "_rot_b"]].merge(bb, on=[*keys, "_rot_b"], suffixes=("_a", "_b"),
                                   validate="many_to_one")
    if len(m) < n_focal:
        warnings.warn(f"{n_focal - len(m)} of {n_focal} focal rows of arm {arm_a!r} have "
                      f"no pair in arm {arm_b!r}", stacklevel=2)
    va = "win_share_a" if value == "win_share" else f"{value}_a"
    vb = "win_share_b" if value == "win_share" else f"{value}_b"
    out = m[[*conds, "seed", "rotation", "seat"]].copy()
    out["rotation_b"] = m["_rot_b"].to_numpy(np.int64)
    for c in ("game_id", "strategy"):
        out[f"{c}_a"], out[f"{c}_b"] = m[f"{c}_a"].to_numpy(), m[f"{c}_b"].to_numpy()
    out["value_a"] = m[va].to_numpy(dtype=float)
    out["value_b"] = m[vb].to_numpy(dtype=float)
    out["diff"] = out["value_a"] - out["value_b"]
    out["win_a"] = m["win_share_a"].to_numpy(dtype=float)
    out["win_b"] = m["win_share_b"].to_numpy(dtype=float)
    out["win_diff"] = out["win_a"] - out["win_b"]
    return out.sort_values([*conds, "seed", "rotation", "seat"]).reset_index(drop=True)


#: The columns that identify a deal: its rotations (and the games of every arm on it)
#: share the bonus draws and random streams, so the deal is the independent unit.
DEAL_KEYS = ["experiment", *CONDITION_COLUMNS, "seed"]


def deal_means(pairs: pd.DataFrame, columns: Sequence[str] = ("diff",), *,
               by: By | None = None) -> pd.DataFrame:
    """The mean of ``columns`` of :func:`paired_differences` rows per deal (one row a
    deal, in deal order): the independent paired results. Without a ``seed`` column
    every row is its own deal.

    ``by``: the deal means of every group of these columns at once, the groups in sorted
    order (missing keys last) with their ``by`` columns first — the same rows as
    :func:`deal_means` of each group's pairs, one group after the other.

    >>> pairs = pd.DataFrame({"seed": [0, 0, 1, 1], "count": [2, 3, 2, 2],
    ...                       "diff": [1.0, 3.0, 5.0, 7.0]})
    >>> deal_means(pairs)["diff"].tolist()
    [2.0, 6.0]
    >>> deal_means(pairs, by="count")
       count  diff
    0      2   1.0
    1      2   6.0
    2      3   3.0
    """
    groups = list(dict.fromkeys(as_list(by)))
    cols = list(columns)
    if "seed" not in pairs.columns:
        if not groups:
            return pairs[cols].reset_index(drop=True)
        number = pairs.groupby(groups, sort=True, dropna=False, observed=True).ngroup()
        order = np.argsort(number.to_numpy(np.int64), kind="stable")
        return pairs[[*groups, *cols]].take(order).reset_index(drop=True)
    keys = [*groups, *(c for c in DEAL_KEYS if c in pairs.columns and c not in groups)]
    means = pairs.groupby(keys, sort=True, dropna=False, observed=True)[cols].mean()
    if groups:
        means = means.reset_index(level=groups)
    return means.reset_index(drop=True)


#: the per-deal means every paired statistic is computed from
_DEAL_COLUMNS = ["diff", "value_a", "value_b", "win_diff"]
#: the columns averaged over a group's pairs
_PAIR_COLUMNS = ["value_a", "value_b", "win_a", "win_b"]


def _paired_stats(strategies: tuple[str, str], n_pairs: int, pair_means: np.ndarray,
                  deals: dict[str, np.ndarray], ci: float) -> dict[str, Any]:
    """The statistics of one group of pairs (its number of pairs, the means of
    :data:`_PAIR_COLUMNS` over them and its deal means): every interval and test is a t
    interval / t-test over the deal means of the paired differences (``n_deals − 1``
    degrees of freedom)."""
    g = len(deals["diff"])
    q = t_quantile(0.5 + ci / 2, g - 1) if g > 1 else math.nan

    diff, se_p, p_diff = deal_t_test(deals["diff"])
    wdiff, se_w, p_win = deal_t_test(deals["win_diff"])
    se_u = math.hypot(deal_t_test(deals["value_a"])[1], deal_t_test(deals["value_b"])[1])
    ratio = se_p ** 2 / se_u ** 2 if se_u > 0 else math.nan
    mean_a, mean_b, win_a, win_b = map(float, pair_means)
    return {
        "strategy_a": strategies[0], "strategy_b": strategies[1],
        "n_pairs": n_pairs, "n_deals": g, "mean_a": mean_a, "mean_b": mean_b,
        "diff": diff, "diff_lo": diff - q * se_p, "diff_hi": diff + q * se_p,
        "se_paired": se_p, "se_unpaired": se_u,
        "var_ratio": ratio, "variance_removed": 1 - ratio,
        "p_value": p_diff,
        "win_a": win_a, "win_b": win_b,
        # a difference of win shares lies in [-1, 1]: a t interval over few deals does not
        "win_diff": wdiff, "win_diff_lo": max(wdiff - q * se_w, -1.0),
        "win_diff_hi": min(wdiff + q * se_w, 1.0),
        "p_win": p_win,
    }


def paired_comparison(
    players: pd.DataFrame,
    games: pd.DataFrame | None,
    arm_a: str,
    arm_b: str,
    *,
    focal: int | str | None = 0,
    value: str = "total",
    by: By | None = None,
    ci: float = 0.95,
) -> pd.DataFrame:
    """Paired comparison of arm A with arm B on the runner's matched seeds (see
    :func:`paired_differences` for the pairing and the choice of the focal player).

    One row per group: ``by`` (default: the condition columns that vary, so a sweep of
    player counts gives one row per count; ``by=[]`` pools everything).

    **Method.** The unit is the deal (pairs of a deal share its bonus draws and random
    streams, and an all-same base arm plays one game per deal): the paired differences
    are averaged per deal (:func:`deal_means`) and every interval is the t interval
    ``mean ± t·sd/√deals`` of those deal means, t of ``n_deals − 1`` degrees of
    freedom; the p-values are the matching paired t-tests. This stays honest with few
    deals, where a bootstrap over deals gives intervals that are too narrow. Columns:

    - ``n_pairs``, ``n_deals``;
    - ``mean_a``, ``mean_b`` (over the pairs), ``diff`` (mean A − B over deals) with its
      interval ``diff_lo``/``diff_hi``;
    - ``se_paired``: standard error of ``diff``; ``se_unpaired``: what it would be if
      the arms had been played on independent seeds (√(se_A² + se_B²) of the per-deal
      means); ``var_ratio = se_paired² / se_unpaired²`` and ``variance_removed = 1 −
      var_ratio``, the share of the variance the pairing removed (1/var_ratio: how many
      unpaired games one pair is worth);
    - ``p_value``: paired t-test of ``diff``;
    - ``win_a``, ``win_b``, ``win_diff`` (win shares) with their interval
      ``win_diff_lo``/``win_diff_hi`` (cut to the possible range [-1, 1]) and paired
      t-test ``p_win``.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables({"tip": ["plus2", "base"], "base": ["base"]}, n_deals=100,
    ...                      n_players=2, luck_sd=8.0, noise_sd=1.0)
    >>> r = paired_comparison(t["players"], t["games"], "tip", "base")
    >>> r[["arm_a", "arm_b", "strategy_a", "n_pairs"]]
      arm_a arm_b strategy_a  n_pairs
    0   tip  base      plus2      200
    >>> bool(r.diff_lo[0] < 2 < r.diff_hi[0]), bool(r.variance_removed[0] > 0.9)
    (True, True)
    """
    pairs = paired_differences(players, games, arm_a, arm_b, focal=focal, value=value)
    if pairs.empty:
        raise ValueError(f"no matched pairs between arms {arm_a!r} and {arm_b!r}")
    return summarize_pairs(pairs, arm_a, arm_b, by=by, ci=ci)


def summarize_pairs(pairs: pd.DataFrame, arm_a: str, arm_b: str, *, by: By | None = None,
                    ci: float = 0.95) -> pd.DataFrame:
    """The statistics of :func:`paired_comparison` from the pairs of
    :func:`paired_differences` (one row per ``by`` group; none when there are no pairs).

    >>> pairs = pd.DataFrame({"seed": [0, 0, 1, 1, 2, 2], "strategy_a": "a",
    ...     "strategy_b": "b", "value_a": [3.0, 5, 4, 6, 6, 6], "value_b": 2.0,
    ...     "diff": [1.0, 3, 2, 4, 4, 4], "win_a": 1.0, "win_b": 0.0, "win_diff": 1.0})
    >>> r = summarize_pairs(pairs, "tip", "base").iloc[0]  # deal means 2, 3, 4
    >>> int(r["n_deals"]), float(r["diff"]), round(float(r["diff_lo"]), 3)
    (3, 3.0, 0.516)
    """
    keys = varying(pairs, CONDITION_COLUMNS) if by is None else as_list(by)
    if pairs.empty:
        return pd.DataFrame()
    frame = pairs.reset_index(drop=True)
    # every group at once: its number, its rows (in their order) and its deal means
    group = (frame.groupby(keys, sort=True, dropna=False).ngroup().to_numpy(np.int64)
             if keys else np.zeros(len(frame), np.int64))
    order = np.argsort(group, kind="stable")
    row_ends = np.searchsorted(group[order], np.arange(group.max() + 1), side="right")
    deal_keys = [c for c in DEAL_KEYS if c in frame.columns]
    deals = deal_means(frame[[*deal_keys, *_DEAL_COLUMNS]].assign(_group=group),
                       _DEAL_COLUMNS, by="_group")
    deal_ends = np.searchsorted(deals["_group"].to_numpy(np.int64),
                                np.arange(group.max() + 1), side="right")
    deal_values = {c: deals[c].to_numpy(dtype=float) for c in _DEAL_COLUMNS}
    # a row per column of _PAIR_COLUMNS: np.nanmean of a group's slice sums each row with
    # NaN as 0 and divides by its count of values, the bits of pandas' Series.mean
    pair_values = np.stack([frame[c].to_numpy(dtype=float)[order] for c in _PAIR_COLUMNS])
    names = {c: frame[c].to_numpy()[order] for c in ("strategy_a", "strategy_b")}
    key_rows = frame[keys].to_numpy(dtype=object)[order] if keys else None
    rows = []
    row_start = deal_start = 0
    with warnings.catch_warnings():  # a group without any value of a column: NaN, quietly
        warnings.filterwarnings("ignore", "Mean of empty slice", RuntimeWarning)
        for row_end, deal_end in zip(row_ends, deal_ends, strict=True):
            if row_end == row_start:  # a key combination without pairs (a category unseen)
                continue
            part = slice(row_start, row_end)
            strategies = (", ".join(map(str, pd.unique(names["strategy_a"][part]))),
                          ", ".join(map(str, pd.unique(names["strategy_b"][part]))))
            stats = _paired_stats(
                strategies, row_end - row_start, np.nanmean(pair_values[:, part], axis=1),
                {c: v[deal_start:deal_end] for c, v in deal_values.items()}, ci)
            key = (dict(zip(keys, key_rows[row_start], strict=True))
                   if key_rows is not None else {})
            rows.append({**key, "arm_a": arm_a, "arm_b": arm_b, **stats})
            row_start, deal_start = row_end, deal_end
    return pd.DataFrame(rows)


def holm(pvalues: ArrayLike) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control), in input order.

    Reject hypothesis i at level α when ``holm(p)[i] <= α``. NaNs are left out of the
    family and stay NaN.

    >>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    >>> holm([0.5, float("nan")]).tolist()
    [0.5, nan]
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    m = int(ok.sum())
    if m == 0:
        return out
    vals = p[ok]
    order = np.argsort(vals, kind="stable")
    adj = np.maximum.accumulate((m - np.arange(m)) * vals[order])
    res = np.empty(m)
    res[order] = np.minimum(adj, 1.0)
    out[ok] = res
    return out


def compare_arms(
    players: pd.DataFrame,
    games: pd.DataFrame | None,
    base: str = "base",
    *,
    arms: Sequence[str] | None = None,
    focal: int | str | None = 0,
    value: str = "total",
    by: By | None = None,
    alpha: float = 0.05,
    ci: float = 0.95,
) -> pd.DataFrame:
    """Every arm of the base arm's experiment (or ``arms``) against ``base`` with
    :func:`paired_comparison`, and
    Holm-adjusted p-values over the whole family of comparisons in the table (all arms
    and conditions): ``p_holm`` (scores, the primary test of a tip's effect),
    ``p_win_holm`` (win shares, secondary) and ``significant``, the rule of every
    verdict: at least :data:`~hansa_lab.stats.answers.MIN_DEALS` deals (fewer get no
    adjusted p-value), ``p_holm <= alpha`` and a score interval of non-zero width off 0.
    The intervals are per comparison (not adjusted). The frame holds every column of
    :func:`paired_comparison`; it displays the essential ones, formatted
    (:class:`~hansa_lab.stats.display.ReadableFrame`; ``.full`` shows them all).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables({"good": ["plus3", "base"], "same": ["base"],
    ...                       "base": ["base"]}, n_deals=60, n_players=2, noise_sd=1.0)
    >>> c = compare_arms(t["players"], t["games"], "base")
    >>> c[["arm_a", "significant"]]
      arm_a  significant
    0  good         True
    1  same        False
    """
    same = players[players["experiment"].isin(players.loc[players["arm"] == base,
                                                          "experiment"].unique())]
    present = [str(a) for a in pd.unique(same["arm"]) if a != base]
    todo = list(arms) if arms is not None else present
    parts = [paired_comparison(players, games, a, base, focal=focal, value=value, by=by,
                               ci=ci) for a in todo]
    if not parts:
        raise ValueError(f"no arm to compare with {base!r}")
    out = pd.concat(parts, ignore_index=True)
    enough = out["n_deals"].to_numpy(int) >= MIN_DEALS
    out["p_holm"] = holm(out["p_value"].where(enough))
    out["p_win_holm"] = holm(out["p_win"].where(enough))
    width = out["diff_hi"] - out["diff_lo"]
    out["significant"] = (enough & (out["p_holm"] <= alpha) & (width > 0)
                          & ((out["diff_lo"] > 0) | (out["diff_hi"] < 0)))
    conds = [c for c in out.columns if c in CONDITION_COLUMNS]
    return readable(out, View(
        columns=(*conds, "arm_a", "arm_b", "n_deals", "diff", "p_holm", "significant",
                 "win_diff"), percent=("win_diff",)))


# --------------------------------------------------------------------------------------
# Plackett–Luce ratings
