"""Statistics on the run tables (:data:`hansa_lab.sim.logs.SCHEMA`): pure functions of DataFrames.

Only numpy and pandas are used (the few distribution functions needed — normal, Student
t, chi-square — are implemented here). Every interval is a 95% interval unless ``ci``
says otherwise; bootstrap intervals are percentile intervals with a fixed ``seed``, so
results are reproducible.

Summaries
    :func:`win_rates` (Wilson intervals), :func:`mean_scores` and
    :func:`score_differences` (bootstrap over games), :func:`bootstrap_ci`.
Paired arms (same seed, rotation and seat in two arms of an experiment)
    :func:`paired_differences`, :func:`paired_comparison`, :func:`compare_arms` with
    :func:`holm` adjusted p-values.
Ratings
    :func:`plackett_luce` (MM algorithm, bootstrap over games).
Seats
    :func:`seat_advantage` (win rate and score per seat, tests of equal seats).
Game quality
    :func:`game_quality` (and its parts :func:`lead_changes`, :func:`leader_wins`,
    :func:`end_reason_mix`).
Sequential testing
    :func:`sequential_compare` (group-sequential design with Lan–DeMets alpha spending
    and repeated confidence intervals) with :func:`group_sequential_bounds`,
    :func:`planned_pairs` and :func:`runner_batches` (drive :func:`hansa_lab.sim.runner.simulate`).

Seats of one game are not independent observations (their scores and wins are linked),
so the bootstrap functions resample whole games (or whole matched pairs of games), never
single player rows.

>>> from hansa_lab.stats.synthetic import synthetic_tables
>>> t = synthetic_tables(["plus5", "base"], n_deals=60, n_players=2, seed=1)
>>> win_rates(t["players"])[["strategy", "n", "rate"]].round(2)
  strategy    n  rate
0     base  120  0.32
1    plus5  120  0.68
"""

from __future__ import annotations

import functools
import math
import statistics
import warnings
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

__all__ = [
    "CONDITION_COLUMNS",
    "GAME_KEYS",
    "GameQuality",
    "SequentialResult",
    "alpha_spent",
    "bootstrap_ci",
    "chi2_sf",
    "compare_arms",
    "end_reason_mix",
    "game_quality",
    "group_sequential_bounds",
    "holm",
    "lead_changes",
    "leader_wins",
    "mean_scores",
    "norm_cdf",
    "paired_comparison",
    "paired_differences",
    "plackett_luce",
    "planned_pairs",
    "runner_batches",
    "score_differences",
    "seat_advantage",
    "sequential_compare",
    "t_sf",
    "wilson",
    "win_rates",
    "with_games",
]

#: The columns that identify a game in every table.
GAME_KEYS = ["experiment", "arm", "game_id"]
#: Columns of the ``games`` table that describe the playing condition.
CONDITION_COLUMNS = ("n_players", "board", "side", "edition", "options")
#: ``log(strength)`` → Elo-like points: a difference of 400 means 10:1 odds.
ELO_PER_LOG = 400 / math.log(10)

By = str | Sequence[str]


# --------------------------------------------------------------------------------------
# distribution functions (numpy only)


def _erfc(x: ArrayLike) -> np.ndarray:
    """Complementary error function, fractional error < 1.2e-7 (Numerical Recipes,
    ``erfcc``), vectorised."""
    x = np.asarray(x, dtype=float)
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (
        0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (
            1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    r = t * np.exp(poly)
    return np.where(x >= 0, r, 2.0 - r)


def norm_cdf(x: ArrayLike) -> np.ndarray:
    """Standard normal distribution function, vectorised (absolute error < 1e-7).

    >>> [round(float(v), 4) for v in norm_cdf([-1.959964, 0.0, 1.0])]
    [0.025, 0.5, 0.8413]
    """
    return 0.5 * _erfc(-np.asarray(x, dtype=float) / math.sqrt(2.0))


def _norm_pdf(x: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def _z(ci: float) -> float:
    """Two-sided normal quantile for a ``ci`` interval (0.95 → 1.96)."""
    if not 0 < ci < 1:
        raise ValueError(f"ci must be in (0, 1), got {ci!r}")
    return statistics.NormalDist().inv_cdf(0.5 + ci / 2)


def _gammaincc(a: float, x: float) -> float:
    """Regularised upper incomplete gamma function Q(a, x) (series / continued fraction)."""
    if x <= 0:
        return 1.0
    lg = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # series for P(a, x)
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(lg))
    tiny = 1e-300  # modified Lentz continued fraction for Q(a, x)
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(lg) * h)


def chi2_sf(x: float, df: float) -> float:
    """Upper tail probability of the chi-square distribution with ``df`` degrees of freedom.

    >>> round(chi2_sf(3.841459, 1), 4), round(chi2_sf(7.814728, 3), 4)
    (0.05, 0.05)
    """
    if df <= 0:
        raise ValueError(f"df must be positive, got {df!r}")
    if math.isnan(x):
        return math.nan
    return _gammaincc(df / 2, x / 2)


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + aa / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_sf(t: float, df: float) -> float:
    """Two-sided p-value of Student's t: P(|T| ≥ |t|) with ``df`` degrees of freedom.

    >>> round(t_sf(2.228139, 10), 4), round(t_sf(1.959964, 1e9), 4)
    (0.05, 0.05)
    """
    if math.isnan(t) or df <= 0:
        return math.nan
    if math.isinf(t):
        return 0.0
    return _betainc(df / 2, 0.5, df / (df + t * t))


def wilson(successes: ArrayLike, n: ArrayLike, ci: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval(s) for proportions, vectorised (``successes`` may be
    fractional: tied wins count as shares). ``n == 0`` gives NaN.

    >>> lo, hi = wilson([50, 0], [100, 10])
    >>> [round(float(v), 3) for v in lo], [round(float(v), 3) for v in hi]
    ([0.404, 0.0], [0.596, 0.278])
    """
    z = _z(ci)
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        denom = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / denom
        half = z * np.sqrt(np.maximum(p * (1 - p), 0.0) / m + z * z / (4 * m * m)) / denom
    lo = np.where(m > 0, np.maximum(0.0, centre - half), np.nan)
    hi = np.where(m > 0, np.minimum(1.0, centre + half), np.nan)
    return lo, hi


# --------------------------------------------------------------------------------------
# helpers


def _as_list(by: By | None) -> list[str]:
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def _codes(df: pd.DataFrame, cols: Sequence[str]) -> np.ndarray:
    """Integer code 0..k-1 of each row's combination of ``cols`` (first-seen order)."""
    if not cols:
        return np.zeros(len(df), dtype=np.int64)
    return df.groupby(list(cols), sort=False, dropna=False).ngroup().to_numpy(np.int64)


def _groups(df: pd.DataFrame, keys: list[str]) -> tuple[np.ndarray, pd.DataFrame]:
    """Sorted group codes of the rows and the table of group keys (one row per code)."""
    if not keys:
        return np.zeros(len(df), dtype=np.int64), pd.DataFrame(index=range(1 if len(df) else 0))
    grouped = df.groupby(keys, sort=True, dropna=False)
    codes = grouped.ngroup().to_numpy(np.int64)
    labels = grouped.size().reset_index()[keys]
    return codes, labels


def _varying(df: pd.DataFrame, cols: Sequence[str]) -> list[str]:
    """The columns of ``cols`` present in ``df`` with more than one value."""
    return [c for c in cols if c in df.columns and df[c].nunique(dropna=False) > 1]


def _quantiles(reps: np.ndarray, ci: float) -> tuple[np.ndarray, np.ndarray]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns → NaN
        q = np.nanquantile(reps, [(1 - ci) / 2, (1 + ci) / 2], axis=0)
    return q[0], q[1]


def _boot_counts(n_clusters: int, n_boot: int, rng: np.random.Generator,
                 cells: int = 2_000_000) -> Iterator[np.ndarray]:
    """Bootstrap resamples of ``n_clusters`` clusters as counts, in chunks of rows:
    each row says how often each cluster was drawn (rows sum to ``n_clusters``)."""
    g = n_clusters
    chunk = max(1, min(n_boot, cells // max(g, 1)))
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        idx = rng.integers(0, g, size=(b, g)) + (np.arange(b) * g)[:, None]
        yield np.bincount(idx.ravel(), minlength=b * g).reshape(b, g).astype(float)
        done += b


def _cluster_sums(values: np.ndarray, group: np.ndarray, cluster: np.ndarray,
                  n_groups: int, n_clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster and group: sum of ``values`` and count of rows, (clusters x groups)."""
    idx = cluster * n_groups + group
    size = n_clusters * n_groups
    sums = np.bincount(idx, weights=values, minlength=size).reshape(n_clusters, n_groups)
    counts = np.bincount(idx, minlength=size).reshape(n_clusters, n_groups).astype(float)
    return sums, counts


def _boot_ratio(sums: np.ndarray, counts: np.ndarray, n_boot: int,
                rng: np.random.Generator) -> np.ndarray:
    """Bootstrap replicates (n_boot x groups) of sum/count over resampled clusters."""
    reps = np.empty((n_boot, sums.shape[1]))
    row = 0
    for w in _boot_counts(sums.shape[0], n_boot, rng):
        with np.errstate(divide="ignore", invalid="ignore"):
            reps[row:row + len(w)] = (w @ sums) / (w @ counts)
        row += len(w)
    return reps


def _cluster_se(x: np.ndarray, cluster: np.ndarray) -> float:
    """Standard error of the mean of ``x`` with rows clustered (cluster-robust; equals
    sd/√n when every cluster has one row)."""
    n = len(x)
    codes, inv = np.unique(cluster, return_inverse=True)
    g = len(codes)
    if g < 2:
        return math.nan
    resid = np.bincount(inv, weights=x - x.mean(), minlength=g)
    return math.sqrt(g / (g - 1) * float((resid ** 2).sum())) / n


# --------------------------------------------------------------------------------------
# summaries


def bootstrap_ci(
    values: ArrayLike,
    stat: Callable[..., Any] = np.mean,
    *,
    n_boot: int = 2000,
    ci: float = 0.95,
    seed: int = 0,
) -> tuple[float, float, float]:
    """``(estimate, lo, hi)``: the statistic and its percentile bootstrap interval.

    ``values`` are resampled with replacement ``n_boot`` times (independent
    observations; for player rows, which are clustered by game, use
    :func:`mean_scores`). ``stat`` is computed on each resample; numpy reductions that
    take ``axis=`` are vectorised.

    >>> est, lo, hi = bootstrap_ci(np.arange(101.0))
    >>> est, bool(44 < lo < 46), bool(54 < hi < 56)
    (50.0, True, True)
    >>> bootstrap_ci([1.0, 3.0], stat=lambda x: x.max() - x.min(), n_boot=200)[0]
    2.0
    """
    x = np.asarray(values, dtype=float).ravel()
    if len(x) == 0:
        return (math.nan, math.nan, math.nan)
    est = float(stat(x))
    rng = np.random.default_rng(seed)
    try:
        vectorised = np.shape(stat(x[None, :], axis=1)) == (1,)
    except TypeError:
        vectorised = False
    reps = np.empty(n_boot)
    chunk = max(1, min(n_boot, 2_000_000 // len(x)))
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        samples = x[rng.integers(0, len(x), size=(b, len(x)))]
        if vectorised:
            reps[done:done + b] = stat(samples, axis=1)
        else:
            reps[done:done + b] = [stat(s) for s in samples]
        done += b
    lo, hi = np.quantile(reps, [(1 - ci) / 2, (1 + ci) / 2])
    return est, float(lo), float(hi)


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
    keys = _as_list(by)
    out = (players.groupby(keys, sort=True, dropna=False)["win_share"]
           .agg(n="size", wins="sum").reset_index())
    out["n"] = out["n"].astype(np.int64)
    out["wins"] = out["wins"].astype(float)
    out["rate"] = out["wins"] / out["n"]
    out["lo"], out["hi"] = wilson(out["wins"], out["n"], ci)
    return out


def mean_scores(
    players: pd.DataFrame,
    by: By = "strategy",
    value: str = "total",
    *,
    n_boot: int = 2000,
    ci: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Mean of ``value`` (default the final score) per group with a bootstrap interval.

    The bootstrap resamples whole games (``experiment, arm, game_id``) — the seats of a
    game are not independent — and recomputes each group's mean of its rows in the
    resampled games. Columns: the ``by`` columns, ``n``, ``games``, ``mean``, ``sd``,
    ``lo``, ``hi``.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=100, n_players=2, noise_sd=2.0)
    >>> m = mean_scores(t["players"], n_boot=500)
    >>> m[["strategy", "n", "games"]]
      strategy    n  games
    0     base  200    200
    1    plus5  200    200
    >>> bool((m.lo < m["mean"]).all() and (m["mean"] < m.hi).all())
    True
    """
    keys = _as_list(by)
    codes, labels = _groups(players, keys)
    cluster = _codes(players, GAME_KEYS)
    x = players[value].to_numpy(dtype=float)
    k, g = len(labels), int(cluster.max()) + 1 if len(cluster) else 0
    sums, counts = _cluster_sums(x, codes, cluster, k, g)
    n = counts.sum(axis=0)
    reps = _boot_ratio(sums, counts, n_boot, np.random.default_rng(seed))
    lo, hi = _quantiles(reps, ci)
    out = labels.copy()
    out["n"] = n.astype(np.int64)
    out["games"] = (counts > 0).sum(axis=0).astype(np.int64)
    out["mean"] = sums.sum(axis=0) / n
    out["sd"] = pd.Series(x).groupby(codes).std().to_numpy()
    out["lo"], out["hi"] = lo, hi
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
    keys = _as_list(by)
    codes, labels = _groups(players, keys)
    match = [i for i, row in enumerate(labels.itertuples(index=False))
             if (row[0] if len(keys) == 1 else tuple(row)) == ref]
    if not match:
        raise ValueError(f"reference {ref!r} not found among the groups of {keys}")
    r = match[0]
    cluster = _codes(players, GAME_KEYS)
    x = players[value].to_numpy(dtype=float)
    k, g = len(labels), int(cluster.max()) + 1
    sums, counts = _cluster_sums(x, codes, cluster, k, g)
    means = sums.sum(axis=0) / counts.sum(axis=0)
    reps = _boot_ratio(sums, counts, n_boot, np.random.default_rng(seed))
    lo, hi = _quantiles(reps - reps[:, [r]], ci)
    out = labels.copy()
    out["n"] = counts.sum(axis=0).astype(np.int64)
    out["mean"] = means
    out["ref_mean"] = means[r]
    out["diff"] = means - means[r]
    out["lo"], out["hi"] = lo, hi
    return out.drop(index=r).reset_index(drop=True)


# --------------------------------------------------------------------------------------
# paired arms


def with_games(
    df: pd.DataFrame,
    games: pd.DataFrame | None,
    columns: Sequence[str] = ("seed", "rotation", *CONDITION_COLUMNS),
) -> pd.DataFrame:
    """``df`` (players, turns, ...) with ``columns`` of the ``games`` table added by
    game (``experiment, arm, game_id``); columns already present are kept.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["a", "b"], n_deals=1, n_players=2)
    >>> with_games(t["players"], t["games"], ["seed", "rotation"])[["seat", "seed", "rotation"]]
       seat  seed  rotation
    0     0     0         0
    1     1     0         0
    2     0     0         1
    3     1     0         1
    """
    need = [c for c in columns if c not in df.columns]
    if not need:
        return df
    if games is None:
        raise ValueError(f"the table lacks {need}: pass the games table")
    missing = [c for c in need if c not in games.columns]
    if missing:
        raise ValueError(f"the games table lacks {missing}")
    out = df.merge(games[[*GAME_KEYS, *need]], on=GAME_KEYS, how="left",
                   validate="many_to_one")
    if out[need[0]].isna().any():
        raise ValueError("some rows have no game in the games table")
    return out


def _period(lineup: Sequence[Any]) -> int:
    """Distinct seat rotations of a line-up (as the runner plays them): the smallest
    ``p`` with the line-up rotated by ``p`` equal to itself."""
    seq = list(lineup)
    n = len(seq)
    return next(p for p in range(1, n + 1) if seq[p:] + seq[:p] == seq)


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
    of :func:`paired_comparison` resample and cluster by deal.

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
    periods = lineups.map(_period).groupby(level=list(range(len(conds)))).max()
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


_PAIR_CLUSTER = ["experiment", *CONDITION_COLUMNS, "seed"]


def _paired_stats(pairs: pd.DataFrame, n_boot: int, ci: float,
                  rng: np.random.Generator) -> dict[str, Any]:
    cl = _codes(pairs, [c for c in _PAIR_CLUSTER if c in pairs.columns])
    g = int(cl.max()) + 1 if len(cl) else 0
    d = pairs["diff"].to_numpy(float)
    a, b = pairs["value_a"].to_numpy(float), pairs["value_b"].to_numpy(float)
    wd = pairs["win_diff"].to_numpy(float)
    n = len(d)
    se_p = _cluster_se(d, cl)
    se_u = math.sqrt(_cluster_se(a, cl) ** 2 + _cluster_se(b, cl) ** 2) if g > 1 else math.nan
    se_w = _cluster_se(wd, cl)
    lo = hi = wlo = whi = math.nan
    if g > 1 and n_boot > 0:
        sums = np.stack([np.bincount(cl, weights=d, minlength=g),
                         np.bincount(cl, weights=wd, minlength=g)], axis=1)
        counts = np.repeat(np.bincount(cl, minlength=g)[:, None].astype(float), 2, axis=1)
        q_lo, q_hi = _quantiles(_boot_ratio(sums, counts, n_boot, rng), ci)
        lo, hi, wlo, whi = q_lo[0], q_hi[0], q_lo[1], q_hi[1]

    def p_value(mean: float, se: float) -> float:
        if g < 2:
            return math.nan
        if se == 0:
            return 1.0 if mean == 0 else 0.0
        return t_sf(mean / se, g - 1)

    diff, wdiff = float(d.mean()) if n else math.nan, float(wd.mean()) if n else math.nan
    ratio = se_p ** 2 / se_u ** 2 if se_u and se_u > 0 else math.nan
    return {
        "strategy_a": ", ".join(map(str, pd.unique(pairs["strategy_a"]))),
        "strategy_b": ", ".join(map(str, pd.unique(pairs["strategy_b"]))),
        "n_pairs": n, "n_deals": g,
        "mean_a": float(a.mean()) if n else math.nan,
        "mean_b": float(b.mean()) if n else math.nan,
        "diff": diff, "diff_lo": lo, "diff_hi": hi,
        "se_paired": se_p, "se_unpaired": se_u,
        "var_ratio": ratio, "variance_removed": 1 - ratio,
        "p_value": p_value(diff, se_p),
        "win_a": float(pairs["win_a"].mean()) if n else math.nan,
        "win_b": float(pairs["win_b"].mean()) if n else math.nan,
        "win_diff": wdiff, "win_diff_lo": wlo, "win_diff_hi": whi,
        "p_win": p_value(wdiff, se_w),
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
    n_boot: int = 2000,
    ci: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Paired comparison of arm A with arm B on the runner's matched seeds (see
    :func:`paired_differences` for the pairing and the choice of the focal player).

    One row per group: ``by`` (default: the condition columns that vary, so a sweep of
    player counts gives one row per count; ``by=[]`` pools everything). Columns:

    - ``n_pairs``, ``n_deals`` (the independent units: pairs of a deal share its
      bonus draws and random streams, and an all-same base arm plays one game per deal);
    - ``mean_a``, ``mean_b``, ``diff`` (mean of A − B) with a bootstrap interval
      ``diff_lo``/``diff_hi`` (resampling deals);
    - ``se_paired``: standard error of ``diff`` from the paired differences;
      ``se_unpaired``: what it would be if the arms had been played on independent
      seeds (√(se_A² + se_B²)); ``var_ratio = se_paired² / se_unpaired²`` and
      ``variance_removed = 1 − var_ratio``, the share of the variance the pairing
      removed (1/var_ratio: how many unpaired games one pair is worth);
    - ``p_value``: paired t-test of ``diff`` (standard error clustered by deal,
      ``n_deals − 1`` degrees of freedom);
    - ``win_a``, ``win_b``, ``win_diff`` (win shares) with their own bootstrap interval
      and paired t-test ``p_win``.

    With few deals (say under 30) percentile bootstrap intervals are too narrow; trust
    ``p_value`` (a t-test) or ``diff ± t·se_paired`` there.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables({"tip": ["plus2", "base"], "base": ["base"]}, n_deals=100,
    ...                      n_players=2, luck_sd=8.0, noise_sd=1.0)
    >>> r = paired_comparison(t["players"], t["games"], "tip", "base", n_boot=500)
    >>> r[["arm_a", "arm_b", "strategy_a", "n_pairs"]]
      arm_a arm_b strategy_a  n_pairs
    0   tip  base      plus2      200
    >>> bool(r.diff_lo[0] < 2 < r.diff_hi[0]), bool(r.variance_removed[0] > 0.9)
    (True, True)
    """
    pairs = paired_differences(players, games, arm_a, arm_b, focal=focal, value=value)
    if pairs.empty:
        raise ValueError(f"no matched pairs between arms {arm_a!r} and {arm_b!r}")
    keys = _varying(pairs, CONDITION_COLUMNS) if by is None else _as_list(by)
    rng = np.random.default_rng(seed)
    rows = []
    groups = pairs.groupby(keys, sort=True, dropna=False) if keys else [((), pairs)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(keys, key, strict=True)), "arm_a": arm_a, "arm_b": arm_b,
                     **_paired_stats(g, n_boot, ci, rng)})
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
    n_boot: int = 2000,
    ci: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Every arm of the base arm's experiment (or ``arms``) against ``base`` with
    :func:`paired_comparison`, and
    Holm-adjusted p-values over the whole family of comparisons in the table (all arms
    and conditions): ``p_holm`` (scores), ``p_win_holm`` (win shares) and
    ``significant`` (``p_holm <= alpha``). The bootstrap intervals are per comparison
    (not adjusted).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables({"good": ["plus3", "base"], "same": ["base"],
    ...                       "base": ["base"]}, n_deals=60, n_players=2, noise_sd=1.0)
    >>> c = compare_arms(t["players"], t["games"], "base", n_boot=200)
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
                               n_boot=n_boot, ci=ci, seed=seed + i)
             for i, a in enumerate(todo)]
    if not parts:
        raise ValueError(f"no arm to compare with {base!r}")
    out = pd.concat(parts, ignore_index=True)
    out["p_holm"] = holm(out["p_value"])
    out["p_win_holm"] = holm(out["p_win"])
    out["significant"] = out["p_holm"] <= alpha
    return out


# --------------------------------------------------------------------------------------
# Plackett–Luce ratings


def _pl_stages(players: pd.DataFrame, by: str, ties: str, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, pd.Index]:
    """The choice stages of every game as item-count vectors.

    A game's placement is read as successive choices: the first place is chosen from
    all players, the next place from the rest, ... For a stage, ``W`` counts the chosen
    players per item (a tie group under Breslow's rule) and ``R`` the players still
    in the running per item. Stages whose running players all share one item carry no
    information and are dropped. Returns the distinct (W, R) patterns, the pattern of
    every stage, the game of every stage, the number of games and the items."""
    game = _codes(players, GAME_KEYS)
    item, items = pd.factorize(players[by], sort=True)
    if (item < 0).any():
        raise ValueError(f"missing values in {by!r}")
    rank = players["rank"].to_numpy(np.int64)
    if ties == "random":  # break ties in a random order: strict ranks 1..n per game
        order = np.lexsort((rng.random(len(rank)), rank, game))
        first = np.r_[0, np.flatnonzero(np.diff(game[order])) + 1]
        pos = np.arange(len(order)) - np.repeat(first, np.diff(np.r_[first, len(order)]))
        rank = np.empty_like(rank)
        rank[order] = pos + 1
    elif ties != "breslow":
        raise ValueError(f"ties must be 'breslow' or 'random', got {ties!r}")
    g_n, k, r_n = int(game.max()) + 1, len(items), int(rank.max())
    e = np.bincount((game * r_n + rank - 1) * k + item, minlength=g_n * r_n * k)
    e = e.reshape(g_n, r_n, k)
    running = e[:, ::-1, :].cumsum(axis=1)[:, ::-1, :]
    keep = (e.sum(axis=2) > 0) & ((running > 0).sum(axis=2) >= 2)
    gi, ri = np.nonzero(keep)
    stages = np.hstack([e[gi, ri], running[gi, ri]])
    patterns, inv = np.unique(stages, axis=0, return_inverse=True)
    return patterns[:, :k].astype(float), patterns[:, k:].astype(float), inv.ravel(), gi, \
        g_n, pd.Index(items)


def _pl_mm(w_pat: np.ndarray, r_pat: np.ndarray, c: np.ndarray, prior: float,
           tol: float, max_iter: int, init: np.ndarray | None = None
           ) -> tuple[np.ndarray, int]:
    """Minorise–maximise (Hunter 2004) for Plackett–Luce strengths with tied items,
    vectorised over rows of pattern weights ``c`` (one row per data set). Update:
    ``γ_i ← (prior + w_i) / (prior + Σ_s c_s m_s R_si / Σ_j R_sj γ_j)`` (``w_i``:
    times item i was chosen, ``m_s``: players chosen at stage s) — the MAP update
    under a Gamma(1 + prior, prior) prior on each γ (Caron & Doucet 2012), each
    followed by the exact maximisation over the common scale of γ (an ascent step too);
    ``prior=0`` is maximum likelihood. Items absent from a data set get NaN."""
    b, k = c.shape[0], w_pat.shape[1]
    m = w_pat.sum(axis=1)
    wins = c @ w_pat
    present = (c @ r_pat) > 0
    gamma = np.ones((b, k)) if init is None else np.broadcast_to(init, (b, k)).copy()
    it = 0
    cm = c * m
    for it in range(1, max_iter + 1):  # noqa: B007 (iterations are reported)
        denom = gamma @ r_pat.T
        with np.errstate(divide="ignore", invalid="ignore"):
            d = (cm / denom) @ r_pat
            new = (prior + wins) / (prior + d)
        new = np.where(present, new, 1.0)
        n_present = np.maximum(present.sum(axis=1, keepdims=True), 1)
        if prior == 0:  # scale-free: fix the geometric mean of the present items
            logn = np.log(np.where(present & (new > 0), new, 1.0))
            new = new / np.exp(logn.sum(axis=1, keepdims=True) / n_present)
        else:
            # the likelihood ignores the scale of γ: maximise the prior over it exactly
            # (mean γ = 1), else the weak prior alone would fix it, very slowly
            scale = np.where(present, new, 0.0).sum(axis=1, keepdims=True) / n_present
            new = new / np.where(scale > 0, scale, 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            change = np.abs(np.log(new) - np.log(gamma))
        change = np.where(np.isfinite(change), change, 0.0)
        gamma = new
        if float(change.max(initial=0.0)) < tol:
            break
    return np.where(present, gamma, np.nan), it


def plackett_luce(
    players: pd.DataFrame,
    by: str = "strategy",
    *,
    n_boot: int = 1000,
    ci: float = 0.95,
    seed: int = 0,
    prior: float = 0.1,
    ties: str = "breslow",
    ref: Hashable | None = None,
    tol: float = 1e-9,
    max_iter: int = 20_000,
) -> pd.DataFrame:
    """Plackett–Luce ratings of the ``by`` values (strategies) from the placements.

    Model: each player of item i has strength γ_i; a game's order arises by choosing
    the winner among all players with probability ∝ γ, then the second among the rest,
    and so on (several players of one strategy in a game share its γ). With two players
    per game this is Bradley–Terry.

    - Fitted by the MM algorithm of Hunter (2004), with a weak Gamma(1 + ``prior``,
      ``prior``) prior on each γ (``prior`` pseudo-observations at strength 1) that
      keeps strengths finite when a strategy never wins or never loses; ``prior=0`` is
      the plain maximum-likelihood estimate.
    - Ties (equal ``rank``): ``"breslow"`` (default) treats the tied players as all
      chosen at the same stage from the same set of remaining players (Breslow's
      approximation, as for tied event times in Cox regression); ``"random"`` breaks
      ties in a random (seeded) order.
    - Intervals: percentile bootstrap over games (``n_boot`` resamples, refitted).
    - Scale: ``log_strength`` = log γ, centred to mean 0 over the rated items (or 0 for
      ``ref``); ``elo`` = 400·log10 γ on the same centre (a difference of 400 = odds of
      10:1 between two players); ``strength`` = γ normalised to sum 1 (the chance of
      each to win a game with one player of every rated item).

    Columns: ``by``, ``n`` (player-games), ``games``, ``firsts`` (first places),
    ``log_strength``, ``lo``, ``hi``, ``se`` (bootstrap sd), ``elo``, ``elo_lo``,
    ``elo_hi``, ``strength``. Items that never meet another item get NaN. ``attrs``
    hold ``loglik`` and ``iterations``.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base", "minus5"], n_deals=100, n_players=3)
    >>> r = plackett_luce(t["players"], n_boot=200)
    >>> r.sort_values("elo")[["strategy", "n", "games"]]
      strategy    n  games
    1   minus5  300    300
    0     base  300    300
    2    plus5  300    300
    >>> bool((r.lo < r.log_strength).all() and (r.log_strength < r.hi).all())
    True
    """
    rng = np.random.default_rng(seed)
    w_pat, r_pat, inv, stage_game, n_games, items = _pl_stages(players, by, ties, rng)
    k = len(items)
    n_pat = len(w_pat)
    c0 = np.bincount(inv, minlength=n_pat).astype(float)[None, :]
    gamma, iterations = _pl_mm(w_pat, r_pat, c0, prior, tol, max_iter)
    gamma = gamma[0]

    ref_idx: int | None = None
    if ref is not None:
        if ref not in items:
            raise ValueError(f"ref {ref!r} is not among {list(items)}")
        ref_idx = int(items.get_loc(ref))

    def centre(logs: np.ndarray) -> np.ndarray:
        if ref_idx is not None:
            return logs - logs[:, [ref_idx]]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return logs - np.nanmean(np.where(np.isfinite(logs), logs, np.nan), axis=1,
                                     keepdims=True)

    with np.errstate(divide="ignore"):
        est = centre(np.log(gamma)[None, :])[0]
    reps = np.full((n_boot, k), np.nan)
    if n_boot > 0 and len(stage_game):
        order = np.argsort(inv, kind="stable")
        starts = np.r_[0, np.flatnonzero(np.diff(inv[order])) + 1]
        row = 0
        for w in _boot_counts(n_games, n_boot, rng, cells=1_000_000):
            sw = w[:, stage_game[order]]
            c = np.add.reduceat(sw, starts, axis=1)
            gb, _ = _pl_mm(w_pat, r_pat, c, prior, max(tol, 1e-7), max_iter, init=gamma)
            with np.errstate(divide="ignore", invalid="ignore"):
                reps[row:row + len(w)] = centre(np.log(gb))
            row += len(w)
    lo, hi = _quantiles(np.where(np.isfinite(reps), reps, np.nan), ci)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        se = np.nanstd(np.where(np.isfinite(reps), reps, np.nan), axis=0, ddof=1)

    code = pd.Categorical(players[by], categories=items)
    counts = pd.DataFrame({"item": code, "first": players["rank"].to_numpy() == 1,
                           "game": _codes(players, GAME_KEYS)})
    grouped = counts.groupby("item", observed=False)
    out = pd.DataFrame({by: items})
    out["n"] = grouped.size().to_numpy(np.int64)
    out["games"] = grouped["game"].nunique().to_numpy(np.int64)
    out["firsts"] = grouped["first"].sum().to_numpy(np.int64)
    out["log_strength"] = est
    out["lo"], out["hi"], out["se"] = lo, hi, se
    out["elo"] = est * ELO_PER_LOG
    out["elo_lo"], out["elo_hi"] = lo * ELO_PER_LOG, hi * ELO_PER_LOG
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.exp(est)
        out["strength"] = s / np.nansum(s)
    c_full = c0[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        lg = np.log(np.where(np.isnan(gamma), 1.0, gamma))
        ll = c_full @ (w_pat @ lg - w_pat.sum(axis=1) * np.log(
            r_pat @ np.where(np.isnan(gamma), 0.0, gamma)))
    out.attrs["loglik"] = float(ll)
    out.attrs["iterations"] = iterations
    return out


# --------------------------------------------------------------------------------------
# seats


def _auto_keys(df: pd.DataFrame, fixed: Sequence[str]) -> list[str]:
    lead = _varying(df, ["arm"])
    tail = _varying(df, ["edition", "options"])
    return [*lead, *fixed, *[c for c in tail if c not in fixed]]


def _friedman(values: pd.DataFrame) -> float:
    """Friedman statistic (tie-corrected) for a games x seats table of scores."""
    x = values.dropna()
    g, k = x.shape
    if g < 2 or k < 2:
        return math.nan
    r = x.rank(axis=1).to_numpy()
    rj = r.sum(axis=0)
    denom = float((r ** 2).sum()) - g * k * (k + 1) ** 2 / 4
    if denom <= 0:
        return 0.0
    return float((k - 1) * ((rj - g * (k + 1) / 2) ** 2).sum() / denom)


def seat_advantage(
    players: pd.DataFrame,
    games: pd.DataFrame | None = None,
    by: By | None = None,
    *,
    value: str = "total",
    ci: float = 0.95,
    test: str = "auto",
    n_mc: int = 20_000,
    seed: int = 0,
) -> pd.DataFrame:
    """Win rate and mean score per seat (seat 0 moves first), with tests of equal seats.

    Groups: ``by`` (default ``arm`` when several arms are present, then ``n_players``
    and ``side``, then ``edition`` / ``options`` when they vary); columns
    ``n_players``/``side`` come from ``games`` when ``players`` lacks them.

    Per seat: ``n``, ``wins`` (win shares), ``win_rate`` with a Wilson interval
    ``win_lo``/``win_hi``, ``fair`` (1/seats), ``mean_score`` of ``value`` with a
    normal interval ``score_lo``/``score_hi`` (the names of
    :meth:`hansa_lab.sim.results.Results.summary`). Per group (repeated on its rows): ``games``;
    ``chi2``/``p_wins``: goodness-of-fit test of equal win counts per seat (one winner
    per game, so the counts are multinomial) — chi-square with seats − 1 degrees of
    freedom, or (``test="mc"``, or ``"auto"`` when an expected count is below 5) a
    Monte Carlo exact test with ``n_mc`` multinomial draws; ``friedman``/``p_score``:
    Friedman's test of equal scores per seat, games as blocks (tie-corrected,
    chi-square approximation).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=100, n_players=3, seat_bonus=[6, 0, 0])
    >>> s = seat_advantage(t["players"], t["games"])
    >>> s[["n_players", "side", "seat", "n"]]
       n_players     side  seat    n
    0          3  base_3p     0  100
    1          3  base_3p     1  100
    2          3  base_3p     2  100
    >>> bool(s.win_rate[0] > s.win_rate[1]), bool(s.p_wins[0] < 0.001)
    (True, True)
    """
    optional = [c for c in ("edition", "options") if games is not None and c in games.columns]
    df = with_games(players, games, ["n_players", "side", *optional])
    keys = _auto_keys(df, ["n_players", "side"]) if by is None else _as_list(by)
    if test not in ("auto", "chi2", "mc"):
        raise ValueError(f"test must be 'auto', 'chi2' or 'mc', got {test!r}")
    z = _z(ci)
    rng = np.random.default_rng(seed)
    parts = []
    groups = df.groupby(keys, sort=True, dropna=False) if keys else [((), df)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        per = g.groupby("seat", sort=True).agg(
            n=("win_share", "size"), wins=("win_share", "sum"),
            mean_score=(value, "mean"), sd=(value, "std")).reset_index()
        seats = len(per)
        per["win_rate"] = per["wins"] / per["n"]
        per["win_lo"], per["win_hi"] = wilson(per["wins"], per["n"], ci)
        per["fair"] = 1 / seats
        half = z * per["sd"] / np.sqrt(per["n"])
        per["score_lo"], per["score_hi"] = per["mean_score"] - half, per["mean_score"] + half
        obs = per["wins"].to_numpy(float)
        total = obs.sum()
        expected = np.full(seats, total / seats)
        chi2 = float(((obs - expected) ** 2 / expected).sum()) if total > 0 else math.nan
        use_mc = test == "mc" or (test == "auto" and float(expected.min()) < 5)
        if math.isnan(chi2) or seats < 2:
            p_wins, how = math.nan, "-"
        elif use_mc:
            draws = rng.multinomial(round(total), np.full(seats, 1 / seats), size=n_mc)
            e = round(total) / seats
            sim = ((draws - e) ** 2 / e).sum(axis=1)
            p_wins, how = float((1 + (sim >= chi2 - 1e-9).sum()) / (n_mc + 1)), "mc"
        else:
            p_wins, how = chi2_sf(chi2, seats - 1), "chi2"
        table = g.pivot_table(index=GAME_KEYS, columns="seat", values=value, aggfunc="first",
                              observed=True)
        fr = _friedman(table)
        per = per.drop(columns="sd")
        for name, v in zip(keys, key, strict=True):
            per[name] = v
        per["games"] = int(g[GAME_KEYS].drop_duplicates().shape[0])
        per["chi2"], per["p_wins"], per["test"] = chi2, p_wins, how
        per["friedman"] = fr
        per["p_score"] = chi2_sf(fr, seats - 1) if not math.isnan(fr) and seats > 1 else math.nan
        parts.append(per)
    cols = [*keys, "seat", "n", "wins", "win_rate", "win_lo", "win_hi", "fair", "mean_score",
            "score_lo", "score_hi", "games", "chi2", "p_wins", "test", "friedman", "p_score"]
    return pd.concat(parts, ignore_index=True)[cols]


# --------------------------------------------------------------------------------------
# game quality


def _leader_table(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game and turn: the round and the unique leader's seat by ``projected``
    (-1 when the lead is tied)."""
    t = turns[[*GAME_KEYS, "round", "turn", "seat", "projected"]]
    game = _codes(t, GAME_KEYS)
    frame = pd.DataFrame({"game": game, "turn": t["turn"].to_numpy(np.int64),
                          "round": t["round"].to_numpy(np.int64),
                          "seat": t["seat"].to_numpy(np.int64),
                          "proj": t["projected"].to_numpy(np.int64)})
    top = frame.groupby(["game", "turn"], sort=True)["proj"].transform("max")
    at = frame[frame["proj"].to_numpy() == top.to_numpy()]
    agg = at.groupby(["game", "turn"], sort=True).agg(
        round=("round", "first"), n_top=("seat", "size"), seat=("seat", "first"))
    agg["leader"] = np.where(agg["n_top"] == 1, agg["seat"], -1)
    return agg.reset_index()[["game", "turn", "round", "leader"]]


def lead_changes(turns: pd.DataFrame) -> pd.DataFrame:
    """Lead changes per game: how often the player with the highest ``projected`` score
    (the final score if the game ended now) changes from one turn to the next.

    The leader after each turn is the unique argmax of ``projected``; while the lead is
    tied there is no leader, and the lead changes when a player other than the last
    unique leader takes it alone (a tie and back is no change). Columns: the game
    keys, ``lead_changes``.

    >>> turns = pd.DataFrame({"experiment": "", "arm": "", "game_id": 0, "round": 1,
    ...     "turn": [1, 1, 2, 2, 3, 3, 4, 4], "seat": [0, 1] * 4,
    ...     "projected": [0, 0, 3, 1, 3, 3, 3, 5]})
    >>> lead_changes(turns)
      experiment arm  game_id  lead_changes
    0                       0             1
    """
    lead = _leader_table(turns)
    lead = lead[lead["leader"] >= 0]
    same_game = lead["game"].to_numpy()[1:] == lead["game"].to_numpy()[:-1]
    changed = np.r_[False, same_game & (np.diff(lead["leader"].to_numpy()) != 0)]
    per = pd.Series(changed, index=lead["game"]).groupby(level=0).sum()
    keys = turns[GAME_KEYS].drop_duplicates().reset_index(drop=True)
    keys["lead_changes"] = per.reindex(range(len(keys)), fill_value=0).to_numpy(np.int64)
    return keys


def leader_wins(
    turns: pd.DataFrame,
    players: pd.DataFrame,
    games: pd.DataFrame | None = None,
    by: By | None = None,
    ci: float = 0.95,
) -> pd.DataFrame:
    """How often the leader at the end of round k wins the game, per k.

    The leaders after the last turn of round k are the players with the highest
    ``projected`` score; a game counts ``win`` averaged over its leaders (1 if the
    single leader ends among the winners, 1/2 if one of two tied leaders does, ...).
    Only games that reached round k count for k. ``by``: grouping columns of
    ``games`` (default: ``n_players`` and the ``arm`` when several). Columns: ``by``,
    ``round``, ``games``, ``leader_wins``, ``rate``, ``lo``, ``hi`` (Wilson).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=5, n_players=2, rounds=3)
    >>> leader_wins(t["turns"], t["players"], t["games"])[["round", "games", "rate"]]
       round  games  rate
    0      1      5   1.0
    1      2      5   1.0
    2      3      5   1.0
    """
    t = turns[[*GAME_KEYS, "round", "turn", "seat", "projected"]]
    last = t.groupby([*GAME_KEYS, "round"], sort=False)["turn"].transform("max")
    t = t[t["turn"].to_numpy() == last.to_numpy()]
    top = t.groupby([*GAME_KEYS, "round"], sort=False)["projected"].transform("max")
    lead = t[t["projected"].to_numpy() == top.to_numpy()]
    lead = lead.merge(players[[*GAME_KEYS, "seat", "win"]], on=[*GAME_KEYS, "seat"],
                      how="left")
    per_game = lead.groupby([*GAME_KEYS, "round"], sort=False)["win"].mean().reset_index()
    if by is None:
        g = with_games(per_game, games, ["n_players"]) if games is not None else per_game
        keys = [*_varying(g, ["arm"]), *(["n_players"] if "n_players" in g.columns else [])]
    else:
        keys = _as_list(by)
        g = with_games(per_game, games, [k for k in keys if k not in per_game.columns])
    out = (g.groupby([*keys, "round"], sort=True)["win"].agg(games="size", leader_wins="sum")
           .reset_index())
    out["games"] = out["games"].astype(np.int64)
    out["leader_wins"] = out["leader_wins"].astype(float)
    out["rate"] = out["leader_wins"] / out["games"]
    out["lo"], out["hi"] = wilson(out["leader_wins"], out["games"], ci)
    return out


def end_reason_mix(games: pd.DataFrame, by: By | None = None,
                   ci: float = 0.95) -> pd.DataFrame:
    """Share of games per end reason, per group (default: the ``arm`` when several
    arms, and ``n_players``). Columns: ``by``, ``end_reason``, ``games``, ``share``,
    ``lo``, ``hi`` (Wilson), ``total`` (games in the group).

    >>> g = pd.DataFrame({"n_players": 3, "arm": "a",
    ...                   "end_reason": ["prestige"] * 3 + ["cities"]})
    >>> end_reason_mix(g)[["n_players", "end_reason", "games", "share"]]
       n_players end_reason  games  share
    0          3     cities      1   0.25
    1          3   prestige      3   0.75
    """
    keys = [*_varying(games, ["arm"]), "n_players"] if by is None else _as_list(by)
    counts = games.groupby([*keys, "end_reason"], sort=True).size().rename("games").reset_index()
    total = counts.groupby(keys)["games"].transform("sum") if keys else counts["games"].sum()
    counts["games"] = counts["games"].astype(np.int64)
    counts["total"] = np.asarray(total, dtype=np.int64)
    counts["share"] = counts["games"] / counts["total"]
    counts["lo"], counts["hi"] = wilson(counts["games"], counts["total"], ci)
    return counts[[*keys, "end_reason", "games", "share", "lo", "hi", "total"]]


@dataclass
class GameQuality:
    """The tables of :func:`game_quality`."""

    #: one row per game: length, end reason, lead changes, score spread and margin
    per_game: pd.DataFrame
    #: per group: means of the per-game measures
    summary: pd.DataFrame
    #: per group and end reason: share of games (:func:`end_reason_mix`)
    end_reasons: pd.DataFrame
    #: per group and round k: how often the leader at round k wins (:func:`leader_wins`)
    leader_wins: pd.DataFrame = field(default_factory=pd.DataFrame)


def game_quality(
    games: pd.DataFrame,
    players: pd.DataFrame,
    turns: pd.DataFrame | None = None,
    by: By | None = None,
    ci: float = 0.95,
) -> GameQuality:
    """Game-quality measures: length, end-reason mix, lead changes, final score spread,
    and how often the leader at round k wins.

    ``per_game`` (one row per game): ``rounds``, ``turns``, ``actions``,
    ``end_reason``, ``n_winners``, ``spread`` (highest − lowest final score),
    ``margin`` (winner − runner-up by score; 0 for ties), ``score_sd`` (sd of the
    final scores) and, with ``turns``, ``lead_changes`` (:func:`lead_changes`).
    ``summary`` (per group: ``by``, default the ``arm`` when several, and
    ``n_players``): ``games`` and the means of those measures (``tie_rate``: share of
    games with tied winners). ``end_reasons``: :func:`end_reason_mix`.
    ``leader_wins``: :func:`leader_wins` (empty without ``turns``).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=10, n_players=4, rounds=8, wander=0.0)
    >>> q = game_quality(t["games"], t["players"], t["turns"])
    >>> q.summary[["n_players", "games", "rounds_mean", "lead_changes_mean"]]
       n_players  games  rounds_mean  lead_changes_mean
    0          4     10          8.0                0.0
    >>> float(q.leader_wins.rate.iloc[-1])  # the leader after the last round won
    1.0
    """
    keys = [*_varying(games, ["arm"]), "n_players"] if by is None else _as_list(by)
    cols = list(dict.fromkeys([*GAME_KEYS, *keys, "rounds", "turns", "actions",
                               "end_reason", "n_winners"]))
    per = games[cols].copy()
    totals = players.groupby(GAME_KEYS, sort=False)["total"]
    ordered = players[[*GAME_KEYS, "total"]].sort_values(
        [*GAME_KEYS, "total"], ascending=[True] * len(GAME_KEYS) + [False])
    pos = ordered.groupby(GAME_KEYS, sort=False).cumcount().to_numpy()
    first = ordered[pos == 0].set_index(GAME_KEYS)["total"]
    second = ordered[pos == 1].set_index(GAME_KEYS)["total"]
    scores = pd.DataFrame({"spread": totals.max() - totals.min(), "score_sd": totals.std()})
    scores["margin"] = (first - second).reindex(scores.index)
    per = per.merge(scores.reset_index(), on=GAME_KEYS, how="left")
    measures = ["rounds", "turns", "actions", "spread", "margin", "score_sd"]
    if turns is not None and len(turns):
        per = per.merge(lead_changes(turns), on=GAME_KEYS, how="left")
        measures.append("lead_changes")
    gkeys = keys or ["_all"]
    grouped = per.assign(_all="all").groupby(gkeys, sort=True, dropna=False)
    summary = grouped.size().rename("games").reset_index()
    for m in measures:
        summary[f"{m}_mean"] = grouped[m].mean().to_numpy(float)
    summary["rounds_sd"] = grouped["rounds"].std().to_numpy(float)
    summary["tie_rate"] = grouped["n_winners"].apply(lambda s: float((s > 1).mean())).to_numpy()
    if not keys:
        summary = summary.drop(columns="_all")
    lw = (leader_wins(turns, players, games, by=keys, ci=ci)
          if turns is not None and len(turns) else pd.DataFrame())
    return GameQuality(per_game=per, summary=summary,
                       end_reasons=end_reason_mix(games, by=keys, ci=ci), leader_wins=lw)


# --------------------------------------------------------------------------------------
# group-sequential testing

SPENDING = ("obf", "pocock")


def alpha_spent(t: ArrayLike, alpha: float = 0.05, spending: str = "obf") -> np.ndarray:
    """Cumulative two-sided type I error spent by information fraction ``t`` (Lan &
    DeMets 1983), α/2 on each side: ``"obf"`` (O'Brien–Fleming type)
    ``2 · (2 − 2Φ(z_{1−α/4} / √t))``, or ``"pocock"`` (Pocock type)
    ``α · ln(1 + (e − 1) t)``. Both reach α at ``t = 1``. (The convention of gsDesign's
    ``sfLDOF``/``sfLDPocock`` and rpact's ``asOF``/``asP`` for two-sided designs.)

    >>> alpha_spent([0.5, 1.0], 0.05, "obf").round(4).tolist()
    [0.0031, 0.05]
    >>> alpha_spent([0.5, 1.0], 0.05, "pocock").round(4).tolist()
    [0.031, 0.05]
    """
    tt = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
    if spending == "obf":
        zc = statistics.NormalDist().inv_cdf(1 - alpha / 4)
        with np.errstate(divide="ignore"):
            side = 2 - 2 * norm_cdf(zc / np.sqrt(np.maximum(tt, 1e-300)))
        return np.where(tt > 0, 2 * side, 0.0)
    if spending == "pocock":
        return alpha * np.log1p((math.e - 1) * tt)
    raise ValueError(f"spending must be one of {SPENDING}, got {spending!r}")


_GRID = 301  # Simpson points per look


def _simpson(lo: float, hi: float, n: int = _GRID) -> tuple[np.ndarray, np.ndarray]:
    x = np.linspace(lo, hi, n)
    w = np.ones(n)
    w[1:-1:2], w[2:-1:2] = 4, 2
    return x, w * (hi - lo) / (n - 1) / 3


@dataclass(frozen=True)
class _GSState:
    """After a look: the boundaries so far and the sub-density of Z at the last look on
    its continuation region, as grid points and (density x quadrature weight)."""

    bounds: tuple[float, ...]
    t: float
    u: np.ndarray
    fw: np.ndarray


def _gs_step(state: _GSState, t1: float, theta: float) -> tuple[
        Callable[[float], tuple[float, float]], Callable[[float], _GSState]]:
    """Transition from the previous look to information fraction ``t1`` under drift
    ``theta`` (Z_k = B(t_k)/√t_k for a Brownian motion B with drift θ): returns the
    exit probabilities above +c / below −c, and a builder of the next state."""
    t0, u, fw = state.t, state.u, state.fw
    s = math.sqrt((t1 - t0) / t1)
    mu = math.sqrt(t0 / t1) * u + theta * (t1 - t0) / math.sqrt(t1)

    def exits(c: float) -> tuple[float, float]:
        if math.isinf(c):
            return 0.0, 0.0
        return float(fw @ norm_cdf((mu - c) / s)), float(fw @ norm_cdf((-c - mu) / s))

    def advance(c: float) -> _GSState:
        centre = theta * math.sqrt(t1)
        lim = c if math.isfinite(c) else abs(centre) + 9.0
        lim = min(lim, abs(centre) + 9.0)
        z, w = _simpson(-lim, lim)
        dens = (_norm_pdf((z[:, None] - mu[None, :]) / s) / s) @ fw
        return _GSState((*state.bounds, c), t1, z, dens * w)

    return exits, advance


_START = _GSState((), 0.0, np.zeros(1), np.ones(1))
_BOUNDS_CACHE: dict[tuple[float, str, tuple[float, ...]], _GSState] = {}


def _gs_bounds_state(t: tuple[float, ...], alpha: float, spending: str) -> _GSState:
    """Boundaries for looks at ``t`` (increasing, in (0, 1]); cached by prefix."""
    if len(_BOUNDS_CACHE) > 20_000:
        _BOUNDS_CACHE.clear()
    state, spent = _START, 0.0
    for k in range(len(t)):
        key = (alpha, spending, t[:k + 1])
        cached = _BOUNDS_CACHE.get(key)
        if cached is None:
            t1 = t[k]
            if not state.t < t1 <= 1:
                raise ValueError(f"information fractions must increase within (0, 1]: {t}")
            target = float(alpha_spent(t1, alpha, spending)) - spent
            exits, advance = _gs_step(state, t1, 0.0)
            if target <= 1e-14:
                c = math.inf
            else:
                lo, hi = 0.0, 40.0
                for _ in range(60):
                    mid = (lo + hi) / 2
                    if sum(exits(mid)) > target:
                        lo = mid
                    else:
                        hi = mid
                c = (lo + hi) / 2
            cached = advance(c)
            _BOUNDS_CACHE[key] = cached
        state = cached
        spent = float(alpha_spent(t[k], alpha, spending))
    return state


def group_sequential_bounds(t: ArrayLike, alpha: float = 0.05,
                            spending: str = "obf") -> np.ndarray:
    """Two-sided symmetric critical values c_k for the z-statistic at looks with
    information fractions ``t`` (increasing, the last ≤ 1), spending ``alpha`` with the
    Lan–DeMets function ``spending`` (:func:`alpha_spent`): P(|Z_j| ≥ c_j for some
    j ≤ k) = α(t_k) under no effect. Computed by recursive numerical integration
    (Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19).

    >>> group_sequential_bounds([0.2, 0.4, 0.6, 0.8, 1.0]).round(2).tolist()
    [4.88, 3.36, 2.68, 2.29, 2.03]
    >>> group_sequential_bounds([1.0]).round(3).tolist()
    [1.96]
    """
    tt = tuple(round(float(x), 12) for x in np.asarray(t, dtype=float).ravel())
    return np.array(_gs_bounds_state(tt, alpha, spending).bounds)


def _gs_upper_power(bounds: Sequence[float], t: Sequence[float], theta: float) -> float:
    """P(Z crosses +c_k at some look before crossing −c) under drift θ."""
    state, total = _START, 0.0
    for k, (c, t1) in enumerate(zip(bounds, t, strict=True)):
        exits, advance = _gs_step(state, t1, theta)
        total += exits(c)[0]
        if k < len(t) - 1:
            state = advance(c)
    return total


@functools.lru_cache(maxsize=65536)
def _t_bound(c: float, df: int) -> float:
    """The critical value of Student's t with ``df`` degrees of freedom with the same
    tail probability as the normal critical value ``c`` (Jennison & Turnbull 2000,
    §3.8: group-sequential t-tests when the variance is estimated). Cornish–Fisher
    start, then Newton steps."""
    if not math.isfinite(c) or df < 1:
        return c
    tail = 2 * float(norm_cdf(-c))
    z, v = c, float(df)
    x = z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v * v)
    log_k = math.lgamma((v + 1) / 2) - math.lgamma(v / 2) - 0.5 * math.log(v * math.pi)
    for _ in range(20):
        pdf = math.exp(log_k - (v + 1) / 2 * math.log1p(x * x / v))
        step = (t_sf(x, v) - tail) / (2 * pdf)
        x = max(x + step, z)
        if abs(step) < 1e-10 * x:
            break
    return x


def planned_pairs(
    effect: float,
    sd: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    spending: str = "obf",
    n_looks: int = 5,
) -> int:
    """Pairs needed by a group-sequential design with ``n_looks`` equally spaced looks
    (two-sided level ``alpha``, :func:`group_sequential_bounds`) to detect a true mean
    paired difference ``effect`` with probability ``power`` when the differences have
    standard deviation ``sd``. ``n_looks=1`` is the fixed-sample size
    ``((z_{1−α/2} + z_power) · sd / effect)²``; more looks inflate it a little (about
    3% for 5 O'Brien–Fleming looks, 20% for Pocock).

    >>> planned_pairs(1.0, 10.0, n_looks=1), planned_pairs(1.0, 10.0, n_looks=5)
    (785, 805)
    """
    if effect == 0 or sd <= 0:
        raise ValueError("effect must be non-zero and sd positive")
    nd = statistics.NormalDist()
    theta = nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(power)  # the fixed-sample drift
    if n_looks > 1:
        t = [k / n_looks for k in range(1, n_looks + 1)]
        bounds = group_sequential_bounds(t, alpha, spending).tolist()
        lo, hi = theta - 0.5, theta + 2.5
        for _ in range(32):
            mid = (lo + hi) / 2
            if _gs_upper_power(bounds, t, mid) < power:
                lo = mid
            else:
                hi = mid
        theta = (lo + hi) / 2
    return math.ceil((theta * sd / abs(effect)) ** 2 - 1e-9)


@dataclass
class SequentialResult:
    """The outcome of :func:`sequential_compare`."""

    #: "A better", "B better", "no difference" or "budget exhausted"
    decision: str
    #: why the run stopped
    reason: str
    #: pairs used
    n_pairs: int
    #: mean paired difference A − B (biased away from 0 when stopped early)
    estimate: float
    #: repeated confidence interval of the mean difference at the last look
    lo: float
    hi: float
    #: one row per look: n, t, mean, sd, se, z, bound, lo, hi, alpha_spent
    looks: pd.DataFrame
    effect: float
    alpha: float
    spending: str
    #: the design's maximum number of pairs
    max_pairs: int
    #: every paired difference, in order
    differences: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))

    def __str__(self) -> str:
        return (f"{self.decision} after {self.n_pairs} pairs ({len(self.looks)} looks): "
                f"mean difference {self.estimate:.3g}, "
                f"{100 * (1 - self.alpha):.0f}% RCI [{self.lo:.3g}, {self.hi:.3g}]; "
                f"{self.reason}")


def _deal_means(pairs: pd.DataFrame) -> np.ndarray:
    """Mean paired difference per deal, the independent unit of runner output."""
    keys = [c for c in _PAIR_CLUSTER if c in pairs.columns]
    if "seed" not in keys:
        return pairs["diff"].to_numpy(dtype=float)
    return pairs.groupby(keys, sort=True, dropna=False)["diff"].mean().to_numpy(dtype=float)


def _as_differences(obj: Any, arm_a: str | None, arm_b: str | None,
                    focal: int | str | None, value: str) -> np.ndarray:
    """Independent paired differences from what a batch function returned (see
    sequential_compare): runner output and pair tables are averaged per deal."""
    players = games = None
    if hasattr(obj, "players") and hasattr(obj, "games"):
        players, games = obj.players, obj.games
    elif isinstance(obj, tuple) and len(obj) == 2 and all(
            isinstance(x, pd.DataFrame) for x in obj):
        players, games = obj
    elif isinstance(obj, pd.DataFrame):
        if "diff" in obj.columns:
            return _deal_means(obj)
        if "arm" in obj.columns:
            players = obj
        else:
            raise ValueError("a batch DataFrame needs a 'diff' column or players rows")
    else:
        return np.asarray(obj, dtype=float).ravel()
    if arm_a is None or arm_b is None:
        raise ValueError("give arm_a and arm_b to pair the players of a batch")
    return _deal_means(paired_differences(players, games, arm_a, arm_b, focal=focal,
                                          value=value))


def sequential_compare(
    run_batch: Callable[[int], Any],
    effect: float,
    *,
    alpha: float = 0.05,
    power: float | None = None,
    max_pairs: int = 2000,
    batch_size: int = 100,
    spending: str = "obf",
    min_pairs: int = 10,
    arm_a: str | None = None,
    arm_b: str | None = None,
    focal: int | str | None = 0,
    value: str = "total",
    on_look: Callable[[dict[str, Any]], None] | None = None,
) -> SequentialResult:
    """Keep playing paired games until A − B is decided at the size ``effect``, or the
    budget ``max_pairs`` runs out.

    **Data.** ``run_batch(n)`` is called with the number of new *pairs* wanted and
    returns new, independent paired results: an array of differences A − B, a
    DataFrame with a ``diff`` column (e.g. from :func:`paired_differences`), or runner
    output — a :class:`~hansa_lab.sim.results.Results`, a ``(players, games)`` pair or a
    players frame with ``seed``/``rotation`` — paired with ``arm_a``, ``arm_b``,
    ``focal`` and ``value`` as in :func:`paired_differences`. Runner output and pair
    tables (with a ``seed`` column) are first averaged per deal: the rotations of a
    deal share its bonus draws and random streams, so the **deal is the pair** (the
    independent unit) and ``n``, ``max_pairs``, ``batch_size`` count deals.
    :func:`runner_batches` makes such a function from :func:`hansa_lab.sim.runner.simulate`.

    **Test.** A two-sided group-sequential test of H0: mean difference δ = 0 on the
    paired differences, with Lan–DeMets alpha spending (``spending="obf"``:
    O'Brien–Fleming type, cautious early; ``"pocock"``: stops earlier, larger maximum).
    After each batch (a *look*, once ``min_pairs`` pairs are in) with n pairs, the
    statistic ``mean / (sd/√n)`` is compared with the critical value c_k of
    :func:`group_sequential_bounds` at information fraction t = n / N (N: the design's
    maximum; the last look uses t = 1 and spends all of α), converted to Student's t
    with n − 1 degrees of freedom at the same tail probability since the variance is
    estimated (Jennison & Turnbull 2000, §3.8). Each look also gives the repeated
    confidence interval (RCI) ``mean ± c_k·sd/√n`` (Jennison & Turnbull 1989): all RCIs
    cover δ simultaneously with probability ≥ 1 − α (approximately, with the estimated
    variance), whatever the reason for stopping. Decisions:

    - ``"A better"`` / ``"B better"``: z ≥ c_k / z ≤ −c_k (the RCI excludes 0);
      under δ = 0 this happens with probability ≤ ``alpha`` in total;
    - ``"no difference"``: the RCI lies inside (−effect, effect), so |δ| < effect
      (wrong with probability ≤ alpha); or, with ``power``, the planned maximum was
      reached without crossing (a test with that power to detect ``effect``);
    - ``"budget exhausted"``: ``max_pairs`` reached, none of the above.

    ``power`` (optional): after the first look the maximum becomes
    N = :func:`planned_pairs` (``effect``, the observed sd, ``alpha``, ``power``),
    capped by ``max_pairs``; without it N = ``max_pairs``. ``on_look`` receives
    each look's row (e.g. to print progress).

    >>> rng = np.random.default_rng(0)
    >>> res = sequential_compare(lambda n: rng.normal(3.0, 10.0, n), effect=2.0,
    ...                          max_pairs=3000, batch_size=200)
    >>> res.decision, res.n_pairs < 3000
    ('A better', True)
    >>> res = sequential_compare(lambda n: rng.normal(0.0, 10.0, n), effect=3.0,
    ...                          max_pairs=3000, batch_size=200)
    >>> res.decision, bool(-3 < res.lo and res.hi < 3)
    ('no difference', True)
    """
    if effect < 0:
        raise ValueError(f"effect must be non-negative, got {effect!r}")
    if max_pairs < 2 or batch_size < 1:
        raise ValueError("max_pairs must be at least 2 and batch_size positive")
    if spending not in SPENDING:
        raise ValueError(f"spending must be one of {SPENDING}, got {spending!r}")
    diffs: list[np.ndarray] = []
    n = 0
    n_max = max_pairs
    planned: int | None = None
    ts: list[float] = []
    rows: list[dict[str, Any]] = []
    decision = reason = ""
    while True:
        want = max(1, min(batch_size, n_max - n))
        new = _as_differences(run_batch(want), arm_a, arm_b, focal, value)
        if len(new) == 0:
            raise ValueError("run_batch returned no pairs")
        diffs.append(new)
        n += len(new)
        if n < max(min_pairs, 2) and n < n_max:
            continue
        x = np.concatenate(diffs)
        mean, sd = float(x.mean()), float(x.std(ddof=1)) if n > 1 else 0.0
        if power is not None and planned is None:
            if sd > 0 and effect > 0:
                fixed = planned_pairs(effect, sd, alpha=alpha, power=power, n_looks=1)
                looks = max(1, min(10, round(fixed / batch_size)))
                planned = planned_pairs(effect, sd, alpha=alpha, power=power,
                                        spending=spending, n_looks=looks)
            else:
                planned = n
            n_max = max(n, min(max_pairs, planned))
        final = n >= n_max
        t = 1.0 if final else n / n_max
        if ts and t <= ts[-1]:
            continue
        ts.append(t)
        c = _t_bound(float(group_sequential_bounds(ts, alpha, spending)[-1]), n - 1)
        se = sd / math.sqrt(n)
        # all differences equal (se = 0): decided by their sign alone
        z = mean / se if se > 0 else 0.0 if mean == 0 else math.copysign(math.inf, mean)
        half = c * se if math.isfinite(c) else math.inf
        lo, hi = mean - half, mean + half
        row = {"look": len(ts), "n": n, "t": t, "mean": mean, "sd": sd, "se": se, "z": z,
               "bound": c, "lo": lo, "hi": hi,
               "alpha_spent": float(alpha_spent(t, alpha, spending))}
        rows.append(row)
        if on_look is not None:
            on_look(row)
        if z >= c:
            decision, reason = "A better", f"z = {z:.2f} crossed the bound {c:.2f}"
        elif z <= -c:
            decision, reason = "B better", f"z = {z:.2f} crossed the bound -{c:.2f}"
        elif -effect < lo and hi < effect:
            decision, reason = "no difference", f"the RCI lies within ±{effect:g}"
        elif final and planned is not None and planned <= max_pairs:
            decision = "no difference"
            reason = (f"planned size {planned} reached without crossing (power {power:g} "
                      f"to detect ±{effect:g})")
        elif final:
            decision, reason = "budget exhausted", f"{n} pairs used, undecided"
        if decision:
            break
    return SequentialResult(
        decision=decision, reason=reason, n_pairs=n, estimate=rows[-1]["mean"],
        lo=rows[-1]["lo"], hi=rows[-1]["hi"], looks=pd.DataFrame(rows), effect=effect,
        alpha=alpha, spending=spending, max_pairs=n_max, differences=np.concatenate(diffs),
    )


def _spec_key(spec: Any) -> str:
    return spec if isinstance(spec, str) else repr(sorted(dict(spec).items()))


def runner_batches(
    arms: Mapping[str, Sequence[Any]],
    *,
    n_players: int = 4,
    seed: int = 0,
    **simulate_kwargs: Any,
) -> Callable[[int], tuple[pd.DataFrame, pd.DataFrame]]:
    """A ``run_batch`` for :func:`sequential_compare` that plays paired arms with
    :func:`hansa_lab.sim.runner.simulate` (in memory; ``log="summary"`` and no progress bar
    unless overridden in ``simulate_kwargs``).

    A call with ``n`` plays ``n`` new deals (the pairs of :func:`sequential_compare`),
    each arm in all its line-up's distinct seat rotations — one ``simulate`` per arm on
    the same seeds, so an all-same base arm plays one game per deal and a tip arm
    ``n_players``. Seeds continue where the previous batch stopped and game ids are
    offset to stay unique across batches. Returns ``(players, games)``; pass
    ``arm_a``/``arm_b`` (and ``focal``) to :func:`sequential_compare`.

    >>> run = runner_batches({"tip": ["random:gather=false", "random"], "base": ["random"]},
    ...                      n_players=2)
    >>> players, games = run(1)
    >>> games[["arm", "game_id", "seed", "rotation"]]
        arm  game_id  seed  rotation
    0   tip        0     0         0
    1   tip        1     0         1
    2  base        2     0         0
    >>> run(2)[1].seed.tolist()
    [1, 1, 2, 2, 1, 2]
    """
    from hansa_lab.sim.runner import simulate

    kwargs: dict[str, Any] = {"progress": False, "log": "summary", **simulate_kwargs}
    periods = {arm: _period([_spec_key(lu[i % len(lu)]) for i in range(n_players)])
               for arm, lu in arms.items()}
    next_seed, next_id = seed, 0

    def run(n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
        nonlocal next_seed, next_id
        deals = max(1, int(n))
        players, games = [], []
        for arm, lineup in arms.items():
            res = simulate({arm: list(lineup)}, n_games=deals * periods[arm],
                           n_players=n_players, seed=next_seed, **kwargs)
            g, p = res.games.copy(), res.players.copy()
            g["game_id"] += next_id
            p["game_id"] += next_id
            next_id += int(res.games["game_id"].max()) + 1 if len(res.games) else 0
            players.append(p)
            games.append(g)
        next_seed += deals
        return (pd.concat(players, ignore_index=True), pd.concat(games, ignore_index=True))

    return run
