"""Summaries per group of players: win rates (Wilson intervals), mean scores (t intervals
clustered by game) and unpaired score differences between groups (bootstrap over games).

>>> from hansa_lab.stats.synthetic import synthetic_tables
>>> t = synthetic_tables(["plus5", "base"], n_deals=60, n_players=2, seed=1)
>>> win_rates(t["players"])[["strategy", "n", "rate"]].round(2)
  strategy    n  rate
0     base  120  0.32
1    plus5  120  0.68
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np
import pandas as pd

from hansa_lab.stats.intervals import (
    bootstrap_ratio,
    cluster_sums,
    clustered_se,
    percentile_interval,
    t_quantile,
    wilson_interval,
)
from hansa_lab.stats.tables import GAME_KEYS, By, as_list, codes, groups

__all__ = ["mean_scores", "score_differences", "win_rates"]


def win_rates(players: pd.DataFrame, by: By = "strategy", ci: float = 0.95) -> pd.DataFrame:
    """Win rate per group with Wilson intervals.

    Wins are ``win_share`` (a win shared by k tied winners counts 1/k), so rates add up
    to one per game. Columns: the ``by`` columns, ``n`` (player-games), ``wins``,
    ``rate``, ``lo``, ``hi``. The interval treats player-games as independent, which
    they are not within a game; for a strategy that occupies one seat per game (a
    focal seat) it is exact.

    >>> p = pd.DataFrame({"strategy": ["a", "b"] * 50, "win_share": [1.0, 0.0] * 40 +
    ...                   [0.0, 1.0] * 10})
    >>> win_rates(p).round(3)
      strategy   n  wins  rate     lo     hi
    0        a  50  40.0   0.8  0.670  0.888
    1        b  50  10.0   0.2  0.112  0.330
    """
    keys = as_list(by)
    out = (players.groupby(keys, sort=True, dropna=False)["win_share"]
           .agg(n="size", wins="sum").reset_index())
    out["n"] = out["n"].astype(np.int64)
    out["wins"] = out["wins"].astype(float)
    out["rate"] = out["wins"] / out["n"]
    out["lo"], out["hi"] = wilson_interval(out["wins"].to_numpy(), out["n"].to_numpy(), ci)
    return out


def mean_scores(
    players: pd.DataFrame,
    by: By = "strategy",
    value: str = "total",
    *,
    ci: float = 0.95,
) -> pd.DataFrame:
    """Mean of ``value`` (default the final score) per group with a t interval.

    The interval is ``mean ± t·se`` with the standard error clustered by game
    (:func:`~hansa_lab.stats.intervals.clustered_se`; ``experiment, arm, game_id``) and
    t of ``games − 1`` degrees of freedom: the seats of a game are not independent,
    so the game is the unit. When a group has one player per game (a focal strategy)
    this is the plain ``mean ± t·sd/√n``. Columns: the ``by`` columns, ``n``
    (player-games), ``games``, ``mean``, ``sd``, ``lo``, ``hi``.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=100, n_players=2, noise_sd=2.0)
    >>> m = mean_scores(t["players"])
    >>> m[["strategy", "n", "games"]]
      strategy    n  games
    0     base  200    200
    1    plus5  200    200
    >>> bool((m.lo < m["mean"]).all() and (m["mean"] < m.hi).all())
    True
    """
    keys = as_list(by)
    code, labels = groups(players, keys)
    game = codes(players, GAME_KEYS)
    x = players[value].to_numpy(dtype=float)
    rows = []
    for k in range(len(labels)):
        at = code == k
        xs, gs = x[at], game[at]
        n_games = len(np.unique(gs))
        mean = float(xs.mean())
        half = (t_quantile(0.5 + ci / 2, n_games - 1) * clustered_se(xs, gs)
                if n_games > 1 else math.nan)
        rows.append((len(xs), n_games, mean, float(xs.std(ddof=1)) if len(xs) > 1 else math.nan,
                     mean - half, mean + half))
    stats = pd.DataFrame(rows, columns=["n", "games", "mean", "sd", "lo", "hi"])
    out = pd.concat([labels.reset_index(drop=True), stats], axis=1)
    out["n"] = out["n"].astype(np.int64)
    out["games"] = out["games"].astype(np.int64)
    return out


def score_differences(
    players: pd.DataFrame,
    ref: Hashable,
    by: By = "strategy",
    value: str = "total",
    *,
    n_boot: int = 2000,
    ci: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Mean ``value`` of every group minus that of the reference group ``ref``, with a
    bootstrap interval over games (games are resampled together, so groups that meet in
    the same games keep their correlation). Unpaired: for arms played on the same seeds
    use :func:`paired_comparison`, which is much more precise.

    ``ref`` is a value of ``by`` (a tuple for several ``by`` columns). Columns: the
    ``by`` columns, ``n``, ``mean``, ``ref_mean``, ``diff``, ``lo``, ``hi`` (the
    reference row is left out).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus4", "base"], n_deals=150, n_players=2, noise_sd=2.0)
    >>> d = score_differences(t["players"], "base", n_boot=500)
    >>> d.strategy.tolist(), bool(d["lo"].iloc[0] < 4 < d["hi"].iloc[0])
    (['plus4'], True)
    """
    keys = as_list(by)
    code, labels = groups(players, keys)
    match = [i for i, row in enumerate(labels.itertuples(index=False))
             if (row[0] if len(keys) == 1 else tuple(row)) == ref]
    if not match:
        raise ValueError(f"reference {ref!r} not found among the groups of {keys}")
    r = match[0]
    cluster = codes(players, GAME_KEYS)
    x = players[value].to_numpy(dtype=float)
    k, g = len(labels), int(cluster.max()) + 1
    sums, counts = cluster_sums(x, code, cluster, k, g)
    means = sums.sum(axis=0) / counts.sum(axis=0)
    reps = bootstrap_ratio(sums, counts, n_boot, np.random.default_rng(seed))
    lo, hi = percentile_interval(reps - reps[:, [r]], ci)
    out = labels.copy()
    out["n"] = counts.sum(axis=0).astype(np.int64)
    out["mean"] = means
    out["ref_mean"] = means[r]
    out["diff"] = means - means[r]
    out["lo"], out["hi"] = lo, hi
    return out.drop(index=r).reset_index(drop=True)


# --------------------------------------------------------------------------------------
# paired arms
