"""Seat advantage: win rate and mean score per seat (seat 0 moves first), with tests that
all seats are equal (chi-square or Monte Carlo on the win counts, Friedman on the
scores).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from hansa_lab.stats.answers import MIN_DEALS
from hansa_lab.stats.display import View, readable
from hansa_lab.stats.intervals import chi2_sf, t_quantile, wilson_interval
from hansa_lab.stats.paired import holm
from hansa_lab.stats.tables import GAME_KEYS, By, as_list, varying, with_games

__all__ = ["seat_advantage"]


def _auto_keys(df: pd.DataFrame, fixed: Sequence[str]) -> list[str]:
    lead = varying(df, ["arm"])
    tail = varying(df, ["edition", "options"])
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
    t interval ``score_lo``/``score_hi`` (the names of
    :meth:`hansa_lab.sim.results.Results.summary`). Per group (repeated on its rows): ``games``;
    ``chi2``/``p_wins``: goodness-of-fit test of equal win counts per seat (one winner
    per game, so the counts are multinomial) — chi-square with seats − 1 degrees of
    freedom, or (``test="mc"``, or ``"auto"`` when an expected count is below 5) a
    Monte Carlo exact test with ``n_mc`` multinomial draws; ``friedman``/``p_score``:
    Friedman's test of equal scores per seat, games as blocks (tie-corrected,
    chi-square approximation). The win test is the primary test of seat balance
    (:data:`~hansa_lab.stats.answers.PRIMARY`): ``p_wins_holm`` is it Holm-adjusted over
    the groups of the table that have at least
    :data:`~hansa_lab.stats.answers.MIN_DEALS` games (NaN below: no answer), the family
    :func:`~hansa_lab.stats.verdicts.seat_balance_answers` judges, and it stands beside
    the win share; ``p_wins`` is raw; ``p_score`` (raw, beside the mean score) is the
    secondary Friedman test, which never decides.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=100, n_players=3, seat_bonus=[6, 0, 0])
    >>> s = seat_advantage(t["players"], t["games"])
    >>> s[["n_players", "side", "seat", "n"]]  # what every row shares is said once
      seat
    0    0
    1    1
    2    2
    Same in every row: n_players = 3; side = base_3p; n = 100
    >>> bool(s.win_rate[0] > s.win_rate[1]), bool(s.p_wins[0] < 0.001)
    (True, True)
    """
    optional = [c for c in ("edition", "options") if games is not None and c in games.columns]
    df = with_games(players, games, ["n_players", "side", *optional])
    keys = _auto_keys(df, ["n_players", "side"]) if by is None else as_list(by)
    if test not in ("auto", "chi2", "mc"):
        raise ValueError(f"test must be 'auto', 'chi2' or 'mc', got {test!r}")
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
        per["win_lo"], per["win_hi"] = wilson_interval(per["wins"], per["n"], ci)
        per["fair"] = 1 / seats
        t = [t_quantile(0.5 + ci / 2, n - 1) if n > 1 else np.nan for n in per["n"]]
        half = np.asarray(t) * per["sd"] / np.sqrt(per["n"])
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
    cols = [*keys, "seat", "n", "games", "wins", "win_rate", "win_lo", "win_hi", "fair",
            "p_wins_holm", "mean_score", "score_lo", "score_hi", "p_score", "chi2", "p_wins",
            "test", "friedman"]
    out = pd.concat(parts, ignore_index=True)
    first = out.groupby(keys, sort=False, dropna=False).head(1) if keys else out.head(1)
    # the family: the win tests of the groups with enough games for an answer
    raw = first["p_wins"].to_numpy(float).copy()
    raw[first["games"].to_numpy(int) < MIN_DEALS] = np.nan
    adjusted = pd.Series(holm(raw), index=first.index)
    group_of = (out.groupby(keys, sort=False, dropna=False).ngroup() if keys
                else pd.Series(0, index=out.index))
    out["p_wins_holm"] = adjusted.to_numpy()[group_of.to_numpy()]
    return readable(out[cols], View(
        columns=(*keys, "seat", "n", "games", "win_rate", "fair", "p_wins_holm",
                 "mean_score", "p_score"),
        percent=("win_rate", "fair"),
        intervals=(("win_rate", "win_lo", "win_hi"), ("mean_score", "score_lo", "score_hi"))))


# --------------------------------------------------------------------------------------
# game quality
