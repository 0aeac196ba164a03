"""Figures of the statistics of a run: seat advantage, end reasons, ratings, paired
comparisons with the base arm, the leader's wins and a sequential test's path."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from hansa_lab.stats.answers import Answer, plural
from hansa_lab.stats.plot_style import (
    END_REASON_COLOURS,
    MAX_COLUMNS,
    NOTEBOOK_INCHES,
    PANEL_WIDTH,
    Save,
    colours_for,
    facet_title,
    finish_figure,
    grid_shape,
    group_colours,
    percent_axis,
)
from hansa_lab.stats.quality import end_reason_mix, leader_wins
from hansa_lab.stats.ratings import ELO_PER_LOG
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.sequential import SequentialResult
from hansa_lab.stats.tables import CONDITION_COLUMNS


def plot_seat_advantage(
    table: pd.DataFrame,
    games: pd.DataFrame | None = None,
    *,
    alpha: float = 0.05,
    save: Save = None,
    **kwargs: Any,
) -> Figure:
    """Win rate per seat (Wilson intervals) against the fair share (dashed), as a grid:
    one row per player count (and board side), one column per population — the other
    grouping columns of :func:`hansa_lab.stats.seat_advantage` (arm, edition, rule
    options; more than :data:`MAX_COLUMNS` wrap onto further rows of even length, by
    :func:`~hansa_lab.stats.plot_style.grid_shape`) — all panels on one
    shared percent scale. ``table`` is its result, or the
    players table (then ``games`` and ``kwargs`` go to ``seat_advantage``).

    Each panel renders its group's seat-balance answer
    (:func:`~hansa_lab.stats.verdicts.seat_balance_answers`): the title gives the word and
    the Holm-adjusted win test that decides it; a seat's marker is filled only when the
    answer is "unbalanced" (:attr:`Answer.filled <hansa_lab.stats.answers.Answer.filled>`)
    and the seat's interval excludes the fair share, hollow otherwise. The records drawn
    are kept as ``fig._hansa_answers`` (and in the PNG/SVG metadata by
    :func:`hansa_lab.sim.exports.save_figure`).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=40, n_players=3, seat_bonus=[5, 0, 0])
    >>> fig = plot_seat_advantage(t["players"], t["games"])
    >>> fig.axes[0].get_title().splitlines()[0], fig.axes[0].get_ylabel()
    ('3 players, base_3p', '3 players, base_3p\\nwin rate')
    >>> [(a.word, a.filled) for a in fig._hansa_answers]
    [('no clear seat difference', False)]
    """
    from hansa_lab.stats.answers import p_phrase
    from hansa_lab.stats.verdicts import seat_balance_answers

    if "win_rate" not in table.columns:
        table = seat_advantage(table, games, **kwargs)
    keys = [c for c in table.columns[: list(table.columns).index("seat")]]
    row_keys = [k for k in ("n_players", "side") if k in keys]
    col_keys = [k for k in keys if k not in row_keys]
    rows = (list(table[row_keys].drop_duplicates().sort_values(row_keys)
                 .itertuples(index=False, name=None)) if row_keys else [()])
    cols = (list(table[col_keys].drop_duplicates().sort_values(col_keys)
                 .itertuples(index=False, name=None)) if col_keys else [()])
    # more populations than fit side by side wrap onto further rows, evenly (4: 2 × 2)
    blocks, width = grid_shape(len(cols), MAX_COLUMNS)
    fig = Figure(figsize=(min(NOTEBOOK_INCHES, PANEL_WIDTH * width + 1.3),
                          2.5 * len(rows) * blocks + 1.1), layout="constrained")
    axes = fig.subplots(len(rows) * blocks, width, squeeze=False, sharey=True)
    for ax in axes.ravel():
        ax.set_visible(False)
    answers = seat_balance_answers(table, alpha=alpha, group=keys)
    by_group = {tuple(a.details["group"].get(k) for k in keys): a for a in answers}
    drawn: list[Answer] = []
    top = float(np.nanmax(table["win_hi"].to_numpy(float))) if len(table) else 1.0
    for i, rkey in enumerate(rows):
        for j, ckey in enumerate(cols):
            ax = axes[i * blocks + j // width, j % width]
            pick = np.ones(len(table), dtype=bool)
            for k, v in [*zip(row_keys, rkey, strict=True), *zip(col_keys, ckey, strict=True)]:
                pick &= (table[k] == v).to_numpy()
            g = table[pick]
            if g.empty:
                continue
            ax.set_visible(True)
            row_label = ", ".join(facet_title(k, v) if k == "n_players" else str(v)
                                  for k, v in zip(row_keys, rkey, strict=True))
            col_label = ", ".join(str(v) for v in ckey) or row_label or "all games"
            seats = g["seat"].to_numpy()
            rate = g["win_rate"].to_numpy(float)
            lo, hi = g["win_lo"].to_numpy(float), g["win_hi"].to_numpy(float)
            fair = float(g["fair"].iloc[0])
            group = tuple(g[k].iloc[0] for k in keys)
            answer = by_group.get(group)
            if answer is None:  # NaN keys: match by position
                answer = answers[min(len(drawn), len(answers) - 1)]
            drawn.append(answer)
            off = (lo > fair) | (hi < fair)
            ax.errorbar(seats, rate, yerr=[rate - lo, hi - rate], fmt="none", capsize=4,
                        ecolor="C0")
            ax.scatter(seats, rate, c=["C0" if answer.filled and o else "white" for o in off],
                       edgecolors="C0", zorder=3, s=36)
            ax.axhline(fair, ls="--", color="grey", lw=1)
            shown_p = (f"win test {p_phrase(answer.p_adjusted)}"
                       if math.isfinite(answer.p_adjusted) else "no test")
            ax.set_title(f"{col_label}\n{answer.word}\n{shown_p}\n"
                         f"{int(g['games'].iloc[0])} games", fontsize=8.5)
            ax.set_xticks(seats)
            ax.set_xlim(seats.min() - 0.5, seats.max() + 0.5)
            ax.grid(alpha=0.3)
            ax.yaxis.set_major_formatter(percent_axis())
            ax.set_xlabel("seat (0 moves first)")
            if j % width == 0:
                ax.set_ylabel(f"{row_label}\nwin rate" if row_label else "win rate")
    axes[0, 0].set_ylim(0, min(1.0, top * 1.08 + 0.02))
    fig.suptitle(f"Win rate per seat (seat 0 moves first)\n95% intervals; dashed: fair "
                 f"share\nfilled: the answer is 'unbalanced' (win test, Holm p ≤ {alpha:g})",
                 fontweight="bold", fontsize=11)
    fig._hansa_answers = drawn  # type: ignore[attr-defined]
    return finish_figure(fig, save)


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
    colors = colours_for(reasons, END_REASON_COLOURS)
    fig = Figure(figsize=(NOTEBOOK_INCHES, 1.2 + 0.55 * len(table)), layout="constrained")
    ax = fig.subplots()
    left = np.zeros(len(table))
    y = np.arange(len(table))
    for r in reasons:
        w = table[r].to_numpy()
        ax.barh(y, w, left=left, color=colors[r], label=r, edgecolor="white")
        for yi, (l0, wi) in enumerate(zip(left, w, strict=True)):
            if wi >= 0.06:
                ax.text(l0 + wi / 2, yi, f"{100 * wi:.0f}%", ha="center", va="center",
                        fontsize=8.5, color="white")
        left += w
    ax.set_yticks(y, [f"{g} ({totals[g]} games)" for g in table.index])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(percent_axis())
    ax.set_xlabel("share of games")
    ax.legend(title="end reason", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_title("How games end", fontweight="bold")
    return finish_figure(fig, save)


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
    labels = ratings[name].astype(str).to_numpy()[order]
    colors = group_colours(str(name), list(labels))
    for yi, (ei, ai, bi, lab) in enumerate(zip(e, a, b, labels, strict=True)):
        # the interval and the point drawn apart: a percentile bootstrap interval need not
        # contain the estimate (few games: it may end a hair inside it), and a strategy
        # without an interval (NaN) still gets its point
        if np.isfinite(ai) and np.isfinite(bi):
            ax.hlines(yi, min(ai, bi), max(ai, bi), color=colors[lab])
            ax.vlines([ai, bi], yi - 0.15, yi + 0.15, color=colors[lab])
        if np.isfinite(ei):
            ax.plot([ei], [yi], "o", color=colors[lab])
    ax.axvline(0, ls="--", color="grey", lw=1)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Plackett–Luce ratings (95% bootstrap intervals)", fontweight="bold")
    return finish_figure(fig, save)


def plot_comparison(
    comparison: pd.DataFrame,
    *,
    alpha: float = 0.05,
    answers: Sequence[Answer] | None = None,
    save: Save = None,
) -> Figure:
    """Forest plot of paired comparisons (:func:`hansa_lab.stats.paired_comparison`
    or :func:`~hansa_lab.stats.compare_arms`): score difference (left, the primary
    measure of a tip's effect) and win-share difference (right, in percent, secondary)
    of each arm against its base, with their t intervals over deals. Each row renders
    its :class:`~hansa_lab.stats.answers.Answer` (``answers``, in the rows' order, or
    computed from the table by :func:`~hansa_lab.stats.verdicts.tip_effect_answers`):
    the score marker is filled only when the answer's word is a finding (helps / hurts);
    the secondary win-share markers are always hollow, as a secondary measure never
    decides. The records drawn are kept as ``fig._hansa_answers``.

    >>> from hansa_lab import stats
    >>> t = stats.synthetic_tables({"tip": ["plus2", "base"], "base": ["base"]},
    ...                            n_deals=30, n_players=2)
    >>> c = stats.compare_arms(t["players"], t["games"])
    >>> fig = plot_comparison(c)
    >>> fig.axes[0].get_xlabel().splitlines(), [a.word for a in fig._hansa_answers]
    (['score difference, arm − base', '(decides)'], ['helps'])
    """
    from hansa_lab.stats.verdicts import tip_effect_answers

    cmp = comparison.reset_index(drop=True)
    if answers is None:
        answers = tip_effect_answers(pd.DataFrame(getattr(cmp, "full", cmp)), alpha=alpha)
    if len(answers) != len(cmp):
        raise ValueError(f"{len(answers)} answers for {len(cmp)} rows of the comparison")
    cond = [c for c in CONDITION_COLUMNS if c in cmp.columns]
    labels = [f"{r.arm_a} vs {r.arm_b}" + (" · " + ", ".join(
        f"{c} {getattr(r, c)}" for c in cond) if cond else "") for r in cmp.itertuples()]
    labels = [f"{lab}\n{a.word}" for lab, a in zip(labels, answers, strict=True)]
    y = np.arange(len(cmp))
    fig = Figure(figsize=(NOTEBOOK_INCHES, 1.8 + 0.6 * len(cmp)), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    filled = np.array([a.filled for a in answers], dtype=bool)
    for ax, (v, lo, hi, xl, primary) in zip(axes, [
            ("diff", "diff_lo", "diff_hi", "score difference, arm − base\n(decides)", True),
            ("win_diff", "win_diff_lo", "win_diff_hi",
             "win-share difference, arm − base\n(secondary, never filled)", False)],
            strict=True):
        e = cmp[v].to_numpy(float)
        a, b = cmp[lo].to_numpy(float), cmp[hi].to_numpy(float)
        err = [e - a, b - e]
        colour = "C0" if primary else "grey"
        ax.errorbar(e, y, xerr=err, fmt="none", ecolor=colour, capsize=4)
        marks = filled if primary else np.zeros(len(e), dtype=bool)
        ax.scatter(e, y, c=[colour if f else "white" for f in marks], edgecolors=colour,
                   zorder=3)
        ax.axvline(0, ls="--", color="grey", lw=1)
        ax.set_xlabel(xl)
        ax.grid(axis="x", alpha=0.3)
    axes[1].xaxis.set_major_formatter(mpl.ticker.PercentFormatter(xmax=1.0, decimals=0))
    axes[1].xaxis.set_major_locator(mpl.ticker.MaxNLocator(6, steps=[1, 2, 5, 10]))
    axes[0].set_yticks(y, labels)
    axes[0].set_ylim(len(cmp) - 0.5, -0.5)
    fig.suptitle("Paired comparisons, 95% t intervals over deals\nfilled: the score test "
                 f"finds an effect\n(helps / hurts, Holm p ≤ {alpha:g})", fontweight="bold")
    fig._hansa_answers = list(answers)  # type: ignore[attr-defined]
    return finish_figure(fig, save)


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
    colors = (group_colours(keys[0], [g for g, _ in groups]) if len(keys) == 1
              else colours_for([g for g, _ in groups]))
    fig = Figure(figsize=(7, 4.4), layout="constrained")
    ax = fig.subplots()
    for key, g in groups:
        lab = ", ".join(f"{k} {v}" for k, v in zip(keys, key if isinstance(key, tuple)
                                                     else (key,), strict=True))
        ax.plot(g["round"], g["rate"], color=colors[key], label=lab or None)
        ax.fill_between(g["round"], g["lo"], g["hi"], color=colors[key], alpha=0.18, lw=0)
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(percent_axis())
    ax.set_xlabel("round k")
    ax.set_ylabel("P(leader after round k wins)")
    ax.grid(alpha=0.3)
    if keys:
        ax.legend(frameon=False)
    ax.set_title("How often the leader wins (projected score; 95% Wilson bands)",
                 fontweight="bold")
    return finish_figure(fig, save)


def plot_sequential(result: SequentialResult, *, save: Save = None) -> Figure:
    """A sequential test's path (:func:`hansa_lab.stats.sequential_compare`): left,
    the test statistic at each look against the ± boundaries; right, the repeated
    confidence intervals of the mean difference against ±``effect`` (the early, very
    wide ones are cut by the axes); the horizontal axis counts deals.

    >>> from hansa_lab import stats
    >>> rng = np.random.default_rng(1)
    >>> res = stats.sequential_compare(lambda n: rng.normal(1.0, 5.0, n), effect=1.0,
    ...                                max_pairs=1000, batch_size=100)
    >>> plot_sequential(res).axes[0].get_xlabel()
    'deals'
    """
    lk = result.looks
    fig = Figure(figsize=(NOTEBOOK_INCHES, 4.2), layout="constrained")
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
    left.set_xlabel("deals")
    left.set_ylabel("mean / SE")
    left.legend(frameon=False)
    left.grid(alpha=0.3)
    mean = lk["mean"].to_numpy(float)
    big = 1e9  # an infinite interval (no alpha spent yet) spans the whole axis
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
    right.set_xlabel("deals")
    right.set_ylabel("mean difference A − B\n(interval valid at every look)")
    right.grid(alpha=0.3)
    fig.suptitle(f"Sequential test ({result.spending}, α = {result.alpha:g}):\n"
                 f"{result.decision} after {plural(result.n_pairs, 'deal')}",
                 fontweight="bold")
    return finish_figure(fig, save)
