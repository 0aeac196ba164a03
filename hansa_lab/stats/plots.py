"""Figures of the run tables and of :mod:`hansa_lab.stats` results (matplotlib).

Every function returns a :class:`matplotlib.figure.Figure` (made without ``pyplot``, so
nothing is left open; Jupyter shows a returned figure inline) and takes ``save=None`` or
a path: the figure is then written there (format from the suffix, e.g. ``.png``,
``.pdf``), creating the folder, e.g. ``save="results/strategy_tips/ratings.png"``.

- :func:`plot_score_breakdown` — final score per category, per strategy and player count
- :func:`plot_ability_timing` — when each ability level is reached, per strategy
- :func:`plot_trajectories` — prestige and projected score over the rounds, with bands
- :func:`plot_seat_advantage` — win rate and score per seat with intervals
- :func:`plot_end_reasons` — end-reason mix
- :func:`plot_ratings` — Plackett–Luce ratings with intervals
- :func:`plot_comparison` — paired arm-vs-base differences with intervals
- :func:`plot_leader_wins` — how often the leader at round k wins
- :func:`plot_sequential` — the path of a sequential test against its boundaries

>>> from hansa_lab.stats.synthetic import synthetic_tables
>>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
>>> fig = plot_score_breakdown(t["players"])
>>> [ax.get_title() for ax in fig.axes][:3]
['track', 'abilities', 'markers']
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from hansa_lab.engine.board import ABILITIES
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.stats.quality import end_reason_mix, leader_wins
from hansa_lab.stats.ratings import ELO_PER_LOG
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.sequential import SequentialResult
from hansa_lab.stats.tables import CONDITION_COLUMNS, GAME_KEYS

__all__ = [
    "plot_ability_timing",
    "plot_comparison",
    "plot_end_reasons",
    "plot_leader_wins",
    "plot_ratings",
    "plot_score_breakdown",
    "plot_seat_advantage",
    "plot_sequential",
    "plot_trajectories",
]

Save = str | os.PathLike[str] | None
KEYS = GAME_KEYS


def _finish(fig: Figure, save: Save, dpi: int = 120) -> Figure:
    if save is not None:
        path = Path(save)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
    return fig


def _colors(labels: Sequence[Any]) -> dict[Any, Any]:
    """A stable colour per label (tab10, then tab20)."""
    cmap = mpl.colormaps["tab10" if len(labels) <= 10 else "tab20"]
    return {lab: cmap(i % cmap.N) for i, lab in enumerate(labels)}


def _grid(fig: Figure, n: int, ncols: int) -> list[Axes]:
    nrows = max(1, math.ceil(n / ncols))
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel().tolist()
    for ax in axes[n:]:
        ax.set_visible(False)
    return axes[:n]


def _with_players_column(df: pd.DataFrame, players: pd.DataFrame, column: str) -> pd.DataFrame:
    """``df`` with ``column`` of ``players`` joined by game and seat."""
    if column in df.columns:
        return df
    return df.merge(players[[*KEYS, "seat", column]], on=[*KEYS, "seat"], how="inner")


# --------------------------------------------------------------------------------------


def plot_score_breakdown(
    players: pd.DataFrame,
    by: str = "strategy",
    split: str | None = "n_players",
    categories: Sequence[str] | None = None,
    *,
    save: Save = None,
) -> Figure:
    """Distribution of the final score per category (one panel each: track,
    abilities, markers, special, control, network, and regions when any player scored
    there), as box plots per ``by`` value (x axis) and, side by side in colours, per
    ``split`` value (default the player count, counted from the seats when ``players``
    has no ``n_players`` column; ``None``: no split). Boxes span the quartiles,
    whiskers 1.5 IQR, the white dot is the mean.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
    >>> len(plot_score_breakdown(t["players"], split=None).axes)
    6
    """
    df = players
    if split == "n_players" and split not in df.columns:
        df = df.assign(n_players=df.groupby(KEYS)["seat"].transform("size"))
    cats = list(categories) if categories is not None else [
        c for c in CATEGORIES if c in df.columns and (c != "regions" or bool((df[c] != 0).any()))]
    groups = sorted(pd.unique(df[by]).tolist(), key=str)
    splits = sorted(pd.unique(df[split]).tolist()) if split else [None]
    colors = _colors(splits)
    ncols = 3 if len(cats) <= 6 else 4
    fig = Figure(figsize=(4.2 * ncols + 0.6 * max(0, len(groups) - 3),
                          3.4 * math.ceil(len(cats) / ncols) + 0.4), layout="constrained")
    width = 0.8 / len(splits)
    for ax, cat in zip(_grid(fig, len(cats), ncols), cats, strict=True):
        for j, sv in enumerate(splits):
            sub = df if sv is None else df[df[split] == sv]
            data = [sub.loc[sub[by] == g, cat].to_numpy(float) for g in groups]
            pos = np.arange(len(groups)) - 0.4 + width * (j + 0.5)
            keep = [i for i, d in enumerate(data) if len(d)]
            if not keep:
                continue
            bp = ax.boxplot([data[i] for i in keep], positions=pos[keep], widths=width * 0.85,
                            patch_artist=True, showfliers=False, manage_ticks=False)
            for box in bp["boxes"]:
                box.set_facecolor(colors[sv])
                box.set_alpha(0.75)
            for med in bp["medians"]:
                med.set_color("black")
            ax.plot(pos[keep], [data[i].mean() for i in keep], "o", ms=3.5, mfc="white",
                    mec="black", mew=0.6, zorder=3)
        ax.set_xticks(range(len(groups)), [str(g) for g in groups],
                      rotation=30 if len(groups) > 3 else 0, ha="right" if len(groups) > 3
                      else "center")
        ax.set_title(cat)
        ax.set_ylabel("points")
        ax.grid(axis="y", alpha=0.3)
    if split:
        handles = [mpl.patches.Patch(color=colors[s], alpha=0.75, label=f"{split} = {s}")
                   for s in splits]
        fig.legend(handles=handles, loc="outside upper right", ncols=len(splits),
                   frameon=False)
    fig.suptitle(f"Final score by category per {by}", fontweight="bold")
    return _finish(fig, save)


def plot_ability_timing(
    events: pd.DataFrame,
    players: pd.DataFrame,
    by: str = "strategy",
    time: str = "turn",
    *,
    save: Save = None,
) -> Figure:
    """When each ability level is reached, per ``by`` value: one column per ability;
    top row the median ``time`` (``"turn"`` or ``"round"``) of the ``develop`` event
    that reached each level, with a 25–75% band, among the player-games that reached
    it; bottom row the share of player-games that reached the level at all (so the
    timing is read with its survivors in mind). The strategy comes from ``players``
    (joined on the game and seat).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
    >>> fig = plot_ability_timing(t["events"], t["players"])
    >>> [ax.get_title() for ax in fig.axes][:2]
    ['actions', 'bank']
    """
    ev = events[events["kind"] == "develop"][[*KEYS, "seat", time, "detail", "value"]]
    ev = _with_players_column(ev, players, by)
    groups = sorted(pd.unique(players[by]).tolist(), key=str)
    colors = _colors(groups)
    n_pg = players.groupby(by).size()
    abilities = [a for a in ABILITIES if a in set(ev["detail"])] or list(ABILITIES)
    fig = Figure(figsize=(3.3 * len(abilities), 6.2), layout="constrained")
    axes = fig.subplots(2, len(abilities), squeeze=False, sharex="col",
                        height_ratios=[2, 1])
    for j, ab in enumerate(abilities):
        top, bottom = axes[0, j], axes[1, j]
        sub = ev[ev["detail"] == ab]
        for g in groups:
            s = sub[sub[by] == g]
            if s.empty:
                continue
            q = s.groupby("value")[time].quantile([0.25, 0.5, 0.75]).unstack()
            lv = q.index.to_numpy()
            top.plot(lv, q[0.5], "o-", color=colors[g], label=str(g), ms=4)
            top.fill_between(lv, q[0.25], q[0.75], color=colors[g], alpha=0.15, lw=0)
            # a player reaches a level once: count distinct player-games per level
            reached = s.drop_duplicates([*KEYS, "seat", "value"]).groupby("value").size()
            bottom.plot(reached.index, reached / n_pg[g], "o-", color=colors[g], ms=4)
        top.set_title(ab)
        top.grid(alpha=0.3)
        bottom.grid(alpha=0.3)
        bottom.set_xlabel("level reached")
        bottom.set_ylim(0, 1.02)
        bottom.xaxis.set_major_locator(mpl.ticker.MaxNLocator(integer=True))
    axes[0, 0].set_ylabel(f"{time} reached (median, 25–75%)")
    axes[1, 0].set_ylabel("share of player-games")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if not handles:
        for ax in axes[0]:
            handles, labels = ax.get_legend_handles_labels()
            if handles:
                break
    fig.legend(handles, labels, loc="outside upper right", ncols=min(len(groups), 6),
               frameon=False, title=by)
    fig.suptitle("When ability levels are reached", fontweight="bold")
    return _finish(fig, save)


def plot_trajectories(
    turns: pd.DataFrame,
    players: pd.DataFrame,
    by: str = "strategy",
    values: Sequence[str] = ("prestige", "projected"),
    *,
    min_share: float = 0.25,
    save: Save = None,
) -> Figure:
    """Score trajectories over the rounds per ``by`` value: for each of ``values``
    (default: ``prestige``, the track, and ``projected``, the final score if the game
    ended now) the median at the end of each round with a 25–75% band. Games end at
    different rounds, so a round is drawn only while at least ``min_share`` of the
    group's player-games are still running (the survivors of a long game are not a
    random sample); the x axis ends there.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
    >>> fig = plot_trajectories(t["turns"], t["players"])
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['prestige', 'projected']
    """
    cols = list(dict.fromkeys([*KEYS, "round", "turn", "seat", *values]))
    t = turns[cols]
    last = t.groupby([*KEYS, "round"], sort=False)["turn"].transform("max")
    t = t[t["turn"].to_numpy() == last.to_numpy()]
    t = _with_players_column(t, players, by)
    groups = sorted(pd.unique(t[by]).tolist(), key=str)
    colors = _colors(groups)
    fig = Figure(figsize=(6.0 * len(values), 4.4), layout="constrained")
    axes = _grid(fig, len(values), len(values))
    for ax, v in zip(axes, values, strict=True):
        for g in groups:
            s = t[t[by] == g]
            start = s.groupby([*KEYS, "seat"]).ngroups
            q = s.groupby("round")[v].quantile([0.25, 0.5, 0.75]).unstack()
            alive = s.groupby("round").size()
            q = q[alive.reindex(q.index).to_numpy() >= min_share * start]
            r = q.index.to_numpy()
            ax.plot(r, q[0.5], color=colors[g], label=str(g), lw=1.8)
            ax.fill_between(r, q[0.25], q[0.75], color=colors[g], alpha=0.18, lw=0)
        ax.set_xlabel("round")
        ax.set_ylabel(v)
        ax.set_title({"prestige": "prestige track", "projected":
                      "projected final score"}.get(v, v))
        ax.grid(alpha=0.3)
    axes[0].legend(title=by, frameon=False)
    fig.suptitle(f"Score over the rounds (median, 25–75%; rounds reached by ≥ "
                 f"{100 * min_share:.0f}% of player-games)", fontweight="bold")
    return _finish(fig, save)


def plot_seat_advantage(
    table: pd.DataFrame,
    games: pd.DataFrame | None = None,
    *,
    save: Save = None,
    **kwargs: Any,
) -> Figure:
    """Win rate (top, Wilson intervals, dashed: the fair share 1/seats) and mean score
    (bottom, 95% intervals) per seat, one column per group of
    :func:`hansa_lab.stats.seat_advantage`. ``table`` is its result, or the players
    table (then ``games`` and ``kwargs`` go to ``seat_advantage``). Titles give the
    p-value of the test of equal win rates.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=40, n_players=3, seat_bonus=[5, 0, 0])
    >>> fig = plot_seat_advantage(t["players"], t["games"])
    >>> fig.axes[0].get_title().startswith("3 players")
    True
    """
    if "win_rate" not in table.columns:
        table = seat_advantage(table, games, **kwargs)
    keys = [c for c in table.columns[: list(table.columns).index("seat")]]
    groups = list(table.groupby(keys, sort=True)) if keys else [((), table)]
    ncols = len(groups)
    fig = Figure(figsize=(max(3.6 * ncols, 5), 6.4), layout="constrained")
    axes = fig.subplots(2, ncols, squeeze=False)
    for j, (key, g) in enumerate(groups):
        key = key if isinstance(key, tuple) else (key,)
        names = dict(zip(keys, key, strict=True))
        label = [f"{names.pop('n_players')} players"] if "n_players" in names else []
        label += [str(v) for v in names.values()]
        seats = g["seat"].to_numpy()
        top, bottom = axes[0, j], axes[1, j]
        top.errorbar(seats, g["win_rate"], yerr=[g["win_rate"] - g["win_lo"],
                                                 g["win_hi"] - g["win_rate"]],
                     fmt="o", capsize=4, color="C0")
        top.axhline(g["fair"].iloc[0], ls="--", color="grey", lw=1)
        p = g["p_wins"].iloc[0]
        top.set_title(f"{', '.join(label)}\nequal seats: p = {p:.2g}" if pd.notna(p)
                      else ", ".join(label), fontsize=10)
        top.set_ylim(bottom=0)
        bottom.errorbar(seats, g["mean_score"], yerr=[g["mean_score"] - g["score_lo"],
                                                      g["score_hi"] - g["mean_score"]],
                        fmt="s", capsize=4, color="C1")
        for ax in (top, bottom):
            ax.set_xticks(seats)
            ax.grid(alpha=0.3)
        bottom.set_xlabel("seat (0 moves first)")
    axes[0, 0].set_ylabel("win rate")
    axes[1, 0].set_ylabel("mean final score")
    fig.suptitle("Seat advantage (95% intervals; dashed: fair share)", fontweight="bold")
    return _finish(fig, save)


def plot_end_reasons(
    games: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    save: Save = None,
) -> Figure:
    """Stacked bars of the share of games per end reason, one bar per group (default:
    the arm when several, and the player count; see
    :func:`hansa_lab.stats.end_reason_mix`), labelled with the games per group.

    >>> g = pd.DataFrame({"n_players": [3, 3, 4, 4], "arm": "a",
    ...                   "end_reason": ["prestige", "cities", "prestige", "prestige"]})
    >>> fig = plot_end_reasons(g)
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['n_players 3 (2 games)', 'n_players 4 (2 games)']
    """
    mix = end_reason_mix(games, by=by)
    keys = [c for c in mix.columns[: list(mix.columns).index("end_reason")]]
    if keys:
        mix["_group"] = [" · ".join(f"{k} {v}" for k, v in zip(keys, row, strict=True))
                         for row in mix[keys].itertuples(index=False)]
    else:
        mix["_group"] = "all games"
    table = mix.pivot_table(index="_group", columns="end_reason", values="share",
                            fill_value=0.0, sort=True)
    totals = mix.groupby("_group")["total"].first()
    reasons = sorted(table.columns, key=lambda r: -table[r].sum())
    colors = _colors(reasons)
    fig = Figure(figsize=(8, 1.0 + 0.55 * len(table)), layout="constrained")
    ax = fig.subplots()
    left = np.zeros(len(table))
    y = np.arange(len(table))
    for r in reasons:
        w = table[r].to_numpy()
        ax.barh(y, w, left=left, color=colors[r], label=r, edgecolor="white")
        for yi, (l0, wi) in enumerate(zip(left, w, strict=True)):
            if wi >= 0.06:
                ax.text(l0 + wi / 2, yi, f"{100 * wi:.0f}%", ha="center", va="center",
                        fontsize=8, color="white")
        left += w
    ax.set_yticks(y, [f"{g} ({totals[g]} games)" for g in table.index])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(title="end reason", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_title("How games end", fontweight="bold")
    return _finish(fig, save)


def plot_ratings(
    ratings: pd.DataFrame,
    scale: str = "elo",
    *,
    save: Save = None,
) -> Figure:
    """Forest plot of :func:`hansa_lab.stats.plackett_luce` ratings with their
    bootstrap intervals, best at the top. ``scale``: ``"elo"`` (400·log10 strength) or
    ``"log_strength"``.

    >>> r = pd.DataFrame({"strategy": ["a", "b"], "n": [10, 10], "log_strength": [0.5, -0.5],
    ...                   "lo": [0.2, -0.8], "hi": [0.8, -0.2]})
    >>> fig = plot_ratings(r, scale="log_strength")
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['a', 'b']
    """
    name = ratings.columns[0]
    if scale == "elo":
        est, lo, hi = ratings["log_strength"], ratings["lo"], ratings["hi"]
        f = ELO_PER_LOG
        est, lo, hi = est * f, lo * f, hi * f
        xlabel = "rating (Elo-like: 400 = 10:1 odds; centred)"
    elif scale == "log_strength":
        est, lo, hi = ratings["log_strength"], ratings["lo"], ratings["hi"]
        xlabel = "log strength (centred)"
    else:
        raise ValueError(f"scale must be 'elo' or 'log_strength', got {scale!r}")
    order = np.argsort(-est.to_numpy(float), kind="stable")
    y = np.arange(len(order))
    fig = Figure(figsize=(7, 1.2 + 0.45 * len(order)), layout="constrained")
    ax = fig.subplots()
    e, a, b = est.to_numpy(float)[order], lo.to_numpy(float)[order], hi.to_numpy(float)[order]
    ax.errorbar(e, y, xerr=[e - a, b - e], fmt="o", capsize=4, color="C0")
    ax.axvline(0, ls="--", color="grey", lw=1)
    labels = ratings[name].astype(str).to_numpy()[order]
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Plackett–Luce ratings (95% bootstrap intervals)", fontweight="bold")
    return _finish(fig, save)


def plot_comparison(
    comparison: pd.DataFrame,
    *,
    save: Save = None,
) -> Figure:
    """Forest plot of paired comparisons (:func:`hansa_lab.stats.paired_comparison`
    or :func:`~hansa_lab.stats.compare_arms`): score difference (left) and
    win-share difference (right) of each arm against its base, with bootstrap
    intervals; filled markers are significant after Holm when ``significant`` is
    present.

    >>> from hansa_lab import stats
    >>> t = stats.synthetic_tables({"tip": ["plus2", "base"], "base": ["base"]},
    ...                            n_deals=30, n_players=2)
    >>> c = stats.compare_arms(t["players"], t["games"])
    >>> plot_comparison(c).axes[0].get_xlabel()
    'score difference (arm − base)'
    """
    cmp = comparison.reset_index(drop=True)
    cond = [c for c in CONDITION_COLUMNS if c in cmp.columns]
    labels = [f"{r.arm_a} vs {r.arm_b}" + (" · " + ", ".join(
        f"{c} {getattr(r, c)}" for c in cond) if cond else "") for r in cmp.itertuples()]
    y = np.arange(len(cmp))
    fig = Figure(figsize=(10, 1.4 + 0.5 * len(cmp)), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    sig = cmp["significant"].to_numpy(bool) if "significant" in cmp.columns else None
    for ax, (v, lo, hi, xl) in zip(axes, [
            ("diff", "diff_lo", "diff_hi", "score difference (arm − base)"),
            ("win_diff", "win_diff_lo", "win_diff_hi", "win-share difference (arm − base)")],
            strict=True):
        e = cmp[v].to_numpy(float)
        err = [e - cmp[lo].to_numpy(float), cmp[hi].to_numpy(float) - e]
        ax.errorbar(e, y, xerr=err, fmt="none", ecolor="C0", capsize=4)
        face = ["C0" if sig is None or s else "white" for s in (sig if sig is not None
                                                                else [True] * len(e))]
        ax.scatter(e, y, c=face, edgecolors="C0", zorder=3)
        ax.axvline(0, ls="--", color="grey", lw=1)
        ax.set_xlabel(xl)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, labels)
    axes[0].set_ylim(len(cmp) - 0.5, -0.5)
    note = " (filled: significant after Holm)" if sig is not None else ""
    fig.suptitle(f"Paired comparisons, 95% bootstrap intervals{note}", fontweight="bold")
    return _finish(fig, save)


def plot_leader_wins(
    table: pd.DataFrame,
    players: pd.DataFrame | None = None,
    games: pd.DataFrame | None = None,
    *,
    save: Save = None,
) -> Figure:
    """How often the leader at the end of round k wins, with Wilson bands, one line per
    group. ``table``: :func:`hansa_lab.stats.leader_wins` output (or the turns table,
    then ``players`` and ``games`` are needed).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=20, n_players=3, wander=20.0)
    >>> plot_leader_wins(t["turns"], t["players"], t["games"]).axes[0].get_xlabel()
    'round k'
    """
    if "rate" not in table.columns:
        if players is None:
            raise ValueError("pass players (and games) with a turns table")
        table = leader_wins(table, players, games)
    keys = [c for c in table.columns[: list(table.columns).index("round")]]
    groups = list(table.groupby(keys, sort=True)) if keys else [((), table)]
    colors = _colors([g for g, _ in groups])
    fig = Figure(figsize=(7, 4.4), layout="constrained")
    ax = fig.subplots()
    for key, g in groups:
        lab = ", ".join(f"{k} {v}" for k, v in zip(keys, key if isinstance(key, tuple)
                                                     else (key,), strict=True))
        ax.plot(g["round"], g["rate"], color=colors[key], label=lab or None)
        ax.fill_between(g["round"], g["lo"], g["hi"], color=colors[key], alpha=0.18, lw=0)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("round k")
    ax.set_ylabel("P(leader after round k wins)")
    ax.grid(alpha=0.3)
    if keys:
        ax.legend(frameon=False)
    ax.set_title("How often the leader wins (projected score; 95% Wilson bands)",
                 fontweight="bold")
    return _finish(fig, save)


def plot_sequential(result: SequentialResult, *, save: Save = None) -> Figure:
    """A sequential test's path (:func:`hansa_lab.stats.sequential_compare`): left,
    the test statistic at each look against the ± boundaries; right, the repeated
    confidence intervals of the mean difference against ±``effect`` (the early, very
    wide ones are cut by the axes).

    >>> from hansa_lab import stats
    >>> rng = np.random.default_rng(1)
    >>> res = stats.sequential_compare(lambda n: rng.normal(1.0, 5.0, n), effect=1.0,
    ...                                max_pairs=1000, batch_size=100)
    >>> plot_sequential(res).axes[0].get_xlabel()
    'pairs'
    """
    lk = result.looks
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    n = lk["n"].to_numpy()
    cap = 12.0
    bound = np.minimum(lk["bound"].to_numpy(float), cap)
    clipped = bool((lk["bound"] > cap).any() or (lk["z"].abs() > cap).any())
    left.plot(n, lk["z"].clip(-cap, cap), "o-", color="C0", label="statistic")
    left.plot(n, bound, "--", color="C3",
              label=f"boundary{f' (cut at ±{cap:g})' if clipped else ''}")
    left.plot(n, -bound, "--", color="C3")
    left.axhline(0, color="grey", lw=0.8)
    left.set_xlabel("pairs")
    left.set_ylabel("mean / SE")
    left.legend(frameon=False)
    left.grid(alpha=0.3)
    mean = lk["mean"].to_numpy(float)
    big = 1e9  # an infinite RCI (no alpha spent yet) spans the whole axis
    lo = np.clip(lk["lo"].to_numpy(float), -big, big)
    hi = np.clip(lk["hi"].to_numpy(float), -big, big)
    right.errorbar(n, mean, yerr=[mean - lo, hi - mean], fmt="o", capsize=4)
    for s in (-1, 1):
        right.axhline(s * result.effect, ls=":", color="C2",
                      label="± effect" if s == 1 else None)
    right.legend(frameon=False, loc="upper right")
    right.axhline(0, color="grey", lw=0.8)
    span = np.nanmax(np.abs(mean)) + 4 * np.nanmax(lk["se"].to_numpy(float))
    right.set_ylim(-max(span, 1.5 * result.effect), max(span, 1.5 * result.effect))
    right.set_xlabel("pairs")
    right.set_ylabel("mean difference A − B (RCI)")
    right.grid(alpha=0.3)
    fig.suptitle(f"Sequential test ({result.spending}, α = {result.alpha:g}): "
                 f"{result.decision} after {result.n_pairs} pairs", fontweight="bold")
    return _finish(fig, save)
