"""Group-sequential testing of paired differences: keep playing until A − B is decided
(Lan–DeMets alpha spending, repeated confidence intervals), with the boundaries and the
planned sample size of such a design.

:func:`hansa_lab.studies.planning.runner_batches` makes a batch function for
:func:`sequential_compare` from the runner.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from hansa_lab.stats.intervals import norm_cdf, norm_pdf, t_quantile
from hansa_lab.stats.paired import deal_means, paired_differences

__all__ = [
    "SPENDING",
    "SequentialResult",
    "alpha_spent",
    "group_sequential_bounds",
    "planned_pairs",
    "sequential_compare",
]

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
        dens = (norm_pdf((z[:, None] - mu[None, :]) / s) / s) @ fw
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


def _t_bound(c: float, df: int) -> float:
    """The critical value of Student's t with ``df`` degrees of freedom with the same
    tail probability as the normal critical value ``c`` (Jennison & Turnbull 2000,
    §3.8: group-sequential t-tests when the variance is estimated)."""
    if not math.isfinite(c) or df < 1:
        return c
    return t_quantile(float(norm_cdf(c)), df)


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
        deals = "deal" if self.n_pairs == 1 else "deals"
        looks = "look" if len(self.looks) == 1 else "looks"
        return (f"{self.decision} after {self.n_pairs} {deals} ({len(self.looks)} {looks}): "
                f"mean difference {self.estimate:+.3g}, "
                f"{100 * (1 - self.alpha):.0f}% interval valid at every look "
                f"[{self.lo:+.3g}, {self.hi:+.3g}]; {self.reason}")


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
            return deal_means(obj)["diff"].to_numpy(dtype=float)
        if "arm" in obj.columns:
            players = obj
        else:
            raise ValueError("a batch DataFrame needs a 'diff' column or players rows")
    else:
        return np.asarray(obj, dtype=float).ravel()
    if arm_a is None or arm_b is None:
        raise ValueError("give arm_a and arm_b to pair the players of a batch")
    pairs = paired_differences(players, games, arm_a, arm_b, focal=focal, value=value)
    return deal_means(pairs)["diff"].to_numpy(dtype=float)


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
    :func:`hansa_lab.studies.planning.runner_batches` makes such a function from the
    runner.

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
