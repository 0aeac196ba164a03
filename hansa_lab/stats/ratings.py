"""Ratings of strategies from the placements of their games: the Plackett–Luce model
(Bradley–Terry for two players), fitted by the MM algorithm, with bootstrap intervals
over games.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable

import numpy as np
import pandas as pd

from hansa_lab.stats.intervals import bootstrap_counts, percentile_interval
from hansa_lab.stats.tables import GAME_KEYS, codes

__all__ = ["ELO_PER_LOG", "plackett_luce"]

#: ``log(strength)`` → Elo-like points: a difference of 400 means 10:1 odds.
ELO_PER_LOG = 400 / math.log(10)


def _pl_stages(players: pd.DataFrame, by: str, ties: str, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, pd.Index]:
    """The choice stages of every game as item-count vectors.

    A game's placement is read as successive choices: the first place is chosen from
    all players, the next place from the rest, ... For a stage, ``W`` counts the chosen
    players per item (a tie group under Breslow's rule) and ``R`` the players still
    in the running per item. Stages whose running players all share one item carry no
    information and are dropped. Returns the distinct (W, R) patterns, the pattern of
    every stage, the game of every stage, the number of games and the items."""
    game = codes(players, GAME_KEYS)
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
        for w in bootstrap_counts(n_games, n_boot, rng, cells=1_000_000):
            sw = w[:, stage_game[order]]
            c = np.add.reduceat(sw, starts, axis=1)
            gb, _ = _pl_mm(w_pat, r_pat, c, prior, max(tol, 1e-7), max_iter, init=gamma)
            with np.errstate(divide="ignore", invalid="ignore"):
                reps[row:row + len(w)] = centre(np.log(gb))
            row += len(w)
    lo, hi = percentile_interval(np.where(np.isfinite(reps), reps, np.nan), ci)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        se = np.nanstd(np.where(np.isfinite(reps), reps, np.nan), axis=0, ddof=1)

    code = pd.Categorical(players[by], categories=items)
    counts = pd.DataFrame({"item": code, "first": players["rank"].to_numpy() == 1,
                           "game": codes(players, GAME_KEYS)})
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
