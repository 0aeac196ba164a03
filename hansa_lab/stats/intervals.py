"""Distributions and intervals: the one place for normal, Student t and chi-square
tails and quantiles, Wilson intervals for proportions, t intervals for means (plain and
clustered) and percentile bootstrap intervals.

The distributions are scipy's (:mod:`scipy.stats`); this module only fixes the
conventions (two-sided p-values, NaN for too little data). Every interval is a
two-sided ``ci`` interval, 95% unless asked otherwise.

>>> [round(x, 3) for x in wilson_interval(50, 100)]
[0.404, 0.596]
>>> round(t_quantile(0.975, 4), 3), round(t_quantile(0.975, 10**6), 3)
(2.776, 1.96)
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, overload

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "binomial_sf",
    "bootstrap_ci",
    "chi2_sf",
    "clustered_se",
    "mean_interval",
    "norm_cdf",
    "t_quantile",
    "t_sf",
    "wilson_interval",
    "z_quantile",
]


# --------------------------------------------------------------------------------------
# distributions: thin, documented wrappers over scipy.stats, so every module asks the
# same questions the same way (two-sided t p-values, NaN in → NaN out)


@functools.cache
def scipy_stats() -> ModuleType:
    """:mod:`scipy.stats`, imported at the first statistic asked for: importing it takes
    about a second, which a command that computes none (a run's start, a worker process)
    does not pay."""
    import scipy.stats

    return scipy.stats


def norm_cdf(x: ArrayLike) -> np.ndarray:
    """Standard normal distribution function, vectorised (:data:`scipy.stats.norm`).

    >>> [round(float(v), 4) for v in norm_cdf([-1.959964, 0.0, 1.0])]
    [0.025, 0.5, 0.8413]
    """
    return np.asarray(scipy_stats().norm.cdf(np.asarray(x, dtype=float)), dtype=float)


def norm_pdf(x: ArrayLike) -> np.ndarray:
    """Standard normal density, vectorised (:data:`scipy.stats.norm`)."""
    return np.asarray(scipy_stats().norm.pdf(np.asarray(x, dtype=float)), dtype=float)


def z_quantile(ci: float = 0.95) -> float:
    """Two-sided normal critical value of a ``ci`` interval (0.95 → 1.96).

    >>> round(z_quantile(0.95), 4)
    1.96
    """
    if not 0 < ci < 1:
        raise ValueError(f"ci must be in (0, 1), got {ci!r}")
    return float(scipy_stats().norm.ppf(0.5 + ci / 2))


def chi2_sf(x: float, df: float) -> float:
    """Upper tail probability of the chi-square distribution with ``df`` degrees of freedom.

    >>> round(chi2_sf(3.841459, 1), 4), round(chi2_sf(7.814728, 3), 4)
    (0.05, 0.05)
    """
    if df <= 0:
        raise ValueError(f"df must be positive, got {df!r}")
    if math.isnan(x):
        return math.nan
    return float(scipy_stats().chi2.sf(x, df))


def t_sf(t: float, df: float) -> float:
    """Two-sided p-value of Student's t: P(|T| ≥ |t|) with ``df`` degrees of freedom.

    >>> round(t_sf(2.228139, 10), 4), round(t_sf(1.959964, 1e9), 4)
    (0.05, 0.05)
    """
    if math.isnan(t) or df <= 0:
        return math.nan
    return float(2 * scipy_stats().t.sf(abs(t), df))


@functools.lru_cache(maxsize=65536)
def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``t_quantile(0.975,
    df)`` is the critical value of a two-sided 95% interval: 12.706 for one degree of
    freedom, 1.96 in the limit); :data:`scipy.stats.t`.

    >>> [round(t_quantile(0.975, d), 3) for d in (1, 3, 30, 120)]
    [12.706, 3.182, 2.042, 1.98]
    >>> round(t_quantile(0.025, 3), 3), t_quantile(0.5, 3)
    (-3.182, 0.0)
    """
    if not 0 <= p <= 1 or math.isnan(df) or df <= 0:
        raise ValueError(f"need 0 <= p <= 1 and df > 0, got p={p!r}, df={df!r}")
    if p < 0.5:  # exactly symmetric: lower and upper bounds of an interval match
        return -t_quantile(1 - p, df)
    return float(scipy_stats().t.ppf(p, df))


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p) (the one-sided exact binomial test's p-value).

    >>> round(binomial_sf(3, 4, 0.5), 4)
    0.3125
    """
    return float(scipy_stats().binom.sf(max(0, k) - 1, n, p))


@overload
def wilson_interval(successes: float, n: float, ci: float = ...) -> tuple[float, float]: ...
@overload
def wilson_interval(successes: ArrayLike, n: ArrayLike, ci: float = ...
                    ) -> tuple[np.ndarray, np.ndarray]: ...
def wilson_interval(successes: Any, n: Any, ci: float = 0.95) -> tuple[Any, Any]:
    """Wilson score interval for a proportion (Wilson 1927): ``successes`` of ``n``
    (fractional successes allowed: tied wins count as shares). Honest at small ``n``
    and near 0 or 1, where the normal interval is not. Vectorised: arrays in, arrays
    out; numbers in, floats out. ``n == 0`` gives NaN.

    >>> [round(x, 3) for x in wilson_interval(0, 10)]
    [0.0, 0.278]
    >>> lo, hi = wilson_interval([50, 0], [100, 10])
    >>> lo.round(3).tolist(), hi.round(3).tolist()
    ([0.404, 0.0], [0.596, 0.278])
    """
    z = z_quantile(ci)
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        denom = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / denom
        half = z * np.sqrt(np.maximum(p * (1 - p), 0.0) / m + z * z / (4 * m * m)) / denom
    # no successes: the interval starts at 0 (and ends at 1 for all successes) exactly,
    # where centre ∓ half would leave a rounding error
    lo = np.where(m > 0, np.where(k <= 0, 0.0, np.maximum(0.0, centre - half)), np.nan)
    hi = np.where(m > 0, np.where(k >= m, 1.0, np.minimum(1.0, centre + half)), np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def mean_interval(x: ArrayLike, ci: float = 0.95) -> tuple[float, float, float]:
    """Mean and its t interval ``mean ± t·sd/√n`` (t of n − 1 degrees of freedom) of
    independent values; NaN bounds for fewer than two values.

    >>> [round(v, 3) for v in mean_interval([1.0, 2.0, 3.0, 4.0])]
    [2.5, 0.446, 4.554]
    """
    v = np.asarray(x, dtype=float).ravel()
    n = len(v)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(v.mean())
    if n == 1:
        return (mean, math.nan, math.nan)
    half = t_quantile(0.5 + ci / 2, n - 1) * float(v.std(ddof=1)) / math.sqrt(n)
    return (mean, mean - half, mean + half)


# --------------------------------------------------------------------------------------
# clustered standard errors and the bootstrap


def clustered_se(x: ArrayLike, cluster: ArrayLike) -> float:
    """Standard error of the mean of ``x`` when rows come in clusters (e.g. the seats of
    one game): the cluster-robust estimate √(g/(g−1) · Σ_c r_c²) / n over the g
    clusters, r_c the sum of a cluster's deviations from the mean. With one row per
    cluster it is sd/√n. NaN for fewer than two clusters.

    >>> round(clustered_se([1.0, 2.0, 3.0, 4.0], [0, 1, 2, 3]), 4)  # sd/√n
    0.6455
    """
    v = np.asarray(x, dtype=float)
    n = len(v)
    codes, inv = np.unique(np.asarray(cluster), return_inverse=True)
    g = len(codes)
    if g < 2:
        return math.nan
    resid = np.bincount(inv.ravel(), weights=v - v.mean(), minlength=g)
    return math.sqrt(g / (g - 1) * float((resid ** 2).sum())) / n


def percentile_interval(reps: np.ndarray, ci: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of bootstrap replicates, per column (NaN replicates left out)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns → NaN
        q = np.nanquantile(reps, [(1 - ci) / 2, (1 + ci) / 2], axis=0)
    return q[0], q[1]


def bootstrap_counts(n_clusters: int, n_boot: int, rng: np.random.Generator,
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


def cluster_sums(values: np.ndarray, group: np.ndarray, cluster: np.ndarray,
                 n_groups: int, n_clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster and group: sum of ``values`` and count of rows, (clusters x groups)."""
    idx = cluster * n_groups + group
    size = n_clusters * n_groups
    sums = np.bincount(idx, weights=values, minlength=size).reshape(n_clusters, n_groups)
    counts = np.bincount(idx, minlength=size).reshape(n_clusters, n_groups).astype(float)
    return sums, counts


def bootstrap_ratio(sums: np.ndarray, counts: np.ndarray, n_boot: int,
                    rng: np.random.Generator) -> np.ndarray:
    """Bootstrap replicates (n_boot x groups) of sum/count over resampled clusters."""
    reps = np.empty((n_boot, sums.shape[1]))
    row = 0
    for w in bootstrap_counts(sums.shape[0], n_boot, rng):
        with np.errstate(divide="ignore", invalid="ignore"):
            reps[row:row + len(w)] = (w @ sums) / (w @ counts)
        row += len(w)
    return reps


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
