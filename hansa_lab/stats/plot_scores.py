"""Figures of what the players scored and when: the final score and its categories
(:func:`plot_score_breakdown`, :func:`plot_score_composition`), when ability levels are
reached (:func:`plot_ability_timing`) and the score over the rounds
(:func:`plot_trajectories`)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from hansa_lab.engine.board import ABILITIES, player_board
from hansa_lab.engine.narrate import ABILITY_NAMES
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.stats.plot_style import (
    CATEGORY_COLOURS,
    KEYS,
    NOTEBOOK_INCHES,
    Save,
    category_label,
    colours_for,
    facet_title,
    finish_figure,
    grid_shape,
    group_colours,
    integer_axis,
    legend_columns,
    panel_grid,
    percent_axis,
    with_players_column,
    wrap_label,
)


def _breakdown_frame(players: pd.DataFrame, split: str | None,
                     categories: Sequence[str] | None) -> tuple[pd.DataFrame, list[str]]:
    """The players table with ``n_players`` (counted from the seats when missing) and
    ``total``, and the categories to show (regions only when anyone scored there)."""
    df = players
    if split == "n_players" and split not in df.columns:
        df = df.assign(n_players=df.groupby(KEYS)["seat"].transform("size"))
    cats = list(categories) if categories is not None else [
        c for c in CATEGORIES if c in df.columns and (c != "regions" or bool((df[c] != 0).any()))]
    if "total" not in df.columns:
        df = df.assign(total=df[cats].sum(axis=1))
    return df, cats


def plot_score_breakdown(
    players: pd.DataFrame,
    by: str = "strategy",
    split: str | None = "n_players",
    categories: Sequence[str] | None = None,
    *,
    save: Save = None,
) -> Figure:
    """Distribution of the final score and of every scoring category on **one shared
    points scale**: one panel per ``split`` value (default the player count, counted
    from the seats when ``players`` has no ``n_players`` column; ``None``: one panel),
    and in each panel a group of boxes per category — the total first, then prestige
    track, abilities, bonus markers, Coellen / special prestige, city control, network
    (and regions when anyone scored there) — one box per ``by`` value in its fixed
    colour (:func:`group_colours`). The legend gives each group's n (player-games) and
    explains the marks: boxes span the quartiles, the line is the median, whiskers reach
    1.5 IQR, the white diamond is the mean. Data columns keep their names (``track``,
    ``control``, …); only the labels use the game's words (:data:`CATEGORY_LABELS`).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
    >>> fig = plot_score_breakdown(t["players"])
    >>> [ax.get_title() for ax in fig.axes]
    ['2 players']
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()][:3]  # wrapped to fit
    ['total', 'prestige\\ntrack', 'abilities']
    """
    df, cats = _breakdown_frame(players, split, categories)
    cols = ["total", *[c for c in cats if c != "total"]]
    groups = sorted(pd.unique(df[by]).tolist(), key=str)
    splits = sorted(pd.unique(df[split]).tolist()) if split else [None]
    colors = group_colours(by, groups)
    fig = Figure(figsize=(NOTEBOOK_INCHES, 1.9 + 3.0 * len(splits)), layout="constrained")
    axes = np.atleast_1d(fig.subplots(len(splits), 1, sharey=True, squeeze=False)).ravel()
    top = 1.0
    for ax, sv in zip(axes, splits, strict=True):
        sub = df if sv is None else df[df[split] == sv]
        counts = sub.groupby(by).size()
        present = [g for g in groups if counts.get(g, 0)]
        width = 0.8 / max(1, len(present))  # the panel's groups side by side, centred
        for j, g in enumerate(present):
            rows = sub[sub[by] == g]
            data = [rows[c].to_numpy(float) for c in cols]
            pos = np.arange(len(cols)) - 0.4 + width * (j + 0.5)
            bp = ax.boxplot(data, positions=pos, widths=width * 0.82, patch_artist=True,
                            showfliers=False, manage_ticks=False)
            for box in bp["boxes"]:
                box.set_facecolor(colors[g])
                box.set_alpha(0.8)
                box.set_edgecolor("#333333")
            for med in bp["medians"]:
                med.set_color("black")
            top = max(top, *(float(np.max(w.get_ydata())) for w in bp["whiskers"]))
            ax.plot(pos, [d.mean() for d in data], "D", ms=4, mfc="white", mec="black",
                    mew=0.7, zorder=3)
        ax.set_xticks(range(len(cols)), [wrap_label(category_label(c)) for c in cols])
        ax.get_xticklabels()[0].set_fontweight("bold")
        ax.axvline(0.5, color="#999999", lw=0.8)
        ns = ", ".join(f"{g} {counts[g]}" for g in groups if counts.get(g, 0))
        ax.set_title(facet_title(split, sv))
        ax.text(0.995, 0.98, textwrap.fill(f"n (player-games): {ns}", 90),
                transform=ax.transAxes, ha="right", va="top", fontsize=8.5,
                color="#444444")
        ax.set_ylabel("points")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylim(0, top * 1.12)  # shared: every panel, the total and the categories
    n_all = df.groupby(by).size()
    handles: list[Any] = [mpl.patches.Patch(facecolor=colors[g], edgecolor="#333333",
                                            alpha=0.8, label=f"{g} (n = {n_all.get(g, 0)})")
                          for g in groups]
    handles += [mpl.lines.Line2D([], [], color="black", lw=1.2, label="median"),
                mpl.lines.Line2D([], [], ls="", marker="D", ms=5, mfc="white", mec="black",
                                 label="mean"),
                mpl.patches.Patch(facecolor="white", edgecolor="#333333",
                                  label="box: middle half (quartiles); whiskers: 1.5 IQR")]
    fig.legend(handles=handles, loc="outside lower center", frameon=False, fontsize=9,
               ncols=legend_columns([str(h.get_label()) for h in handles]))
    fig.suptitle(f"Final score and where it comes from, per {by}\n(one shared scale)",
                 fontweight="bold")
    return finish_figure(fig, save)


def plot_score_composition(
    players: pd.DataFrame,
    by: str = "strategy",
    split: str | None = "n_players",
    categories: Sequence[str] | None = None,
    *,
    save: Save = None,
) -> Figure:
    """What the average score is made of: per ``by`` value one horizontal bar of the
    mean points of every category stacked (prestige track on the left; colours of
    :data:`CATEGORY_COLOURS`), the mean total at its end, n (player-games) beside the
    name; one panel per ``split`` value (default the player count) under each other,
    all on one points scale.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
    >>> fig = plot_score_composition(t["players"])
    >>> fig.axes[0].get_xlabel(), fig.axes[0].get_title(loc="left")
    ('mean points', '2 players')
    """
    df, cats = _breakdown_frame(players, split, categories)
    cats = [c for c in cats if c != "total"]
    groups = sorted(pd.unique(df[by]).tolist(), key=str)
    splits = sorted(pd.unique(df[split]).tolist()) if split else [None]
    colors = colours_for(cats, CATEGORY_COLOURS)
    present = {sv: [g for g in groups if ((df if sv is None else df[df[split] == sv])[by]
                                          == g).any()] for sv in splits}
    sizes = [max(1, len(present[sv])) for sv in splits]
    fig = Figure(figsize=(NOTEBOOK_INCHES, 1.7 + sum(0.42 * n + 0.55 for n in sizes)),
                 layout="constrained")
    axes = np.atleast_1d(fig.subplots(len(splits), 1, sharex=True, squeeze=False,
                                      height_ratios=[n + 1.3 for n in sizes])).ravel()
    means = {sv: (df if sv is None else df[df[split] == sv]).groupby(by)[cats].mean()
             for sv in splits}
    widest = max((float(m.sum(axis=1).max()) for m in means.values() if len(m)), default=1.0)
    for ax, sv in zip(axes, splits, strict=True):
        sub = df if sv is None else df[df[split] == sv]
        shown = present[sv]
        mean = means[sv].reindex(shown)
        counts = sub.groupby(by).size().reindex(shown)
        y = np.arange(len(shown))
        left = np.zeros(len(shown))
        for c in cats:
            v = mean[c].to_numpy(float)
            ax.barh(y, v, left=left, color=colors[c], edgecolor="white", height=0.72,
                    label=category_label(c))
            for yi, (l0, vi) in enumerate(zip(left, v, strict=True)):
                if vi >= max(2.0, 0.05 * widest):  # room for its number
                    ax.text(l0 + vi / 2, yi, f"{vi:.0f}", ha="center", va="center",
                            fontsize=8.5, color="white" if c != "markers" else "#333333")
            left += v
        for yi, total in enumerate(left):
            ax.text(total + 0.01 * widest, yi, f"{total:.1f}", ha="left", va="center",
                    fontsize=9, fontweight="bold")
        ax.set_yticks(y, [f"{g} (n = {counts[g]})" for g in shown])
        ax.set_ylim(len(shown) - 0.5, -0.5)  # the first group on top
        ax.set_title(facet_title(split, sv), loc="left", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
    axes[-1].set_xlim(0, widest * 1.1)  # shared: every panel on one scale
    axes[-1].set_xlabel("mean points")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", frameon=False, fontsize=9,
               title="category (left to right)", title_fontsize=9,
               ncols=legend_columns(labels))
    fig.suptitle(f"Mean final score by category, per {by}\n(numbers: mean points; "
                 "bold: the mean total)", fontweight="bold")
    return finish_figure(fig, save)


def plot_ability_timing(
    events: pd.DataFrame,
    players: pd.DataFrame,
    by: str = "strategy",
    time: str = "turn",
    *,
    save: Save = None,
) -> Figure:
    """When each ability level is reached, per ``by`` value: one column per ability;
    top row the median ``time`` (``"turn"`` or ``"round"``, one scale for every ability)
    of the ``develop`` event that reached each level, with a 25–75% band, among the
    player-games that reached it; bottom row the share of player-games that reached the
    level at all (so the timing is read with its survivors in mind). The strategy comes
    from ``players`` (joined on the game and seat). The legend is below the panels.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
    >>> fig = plot_ability_timing(t["events"], t["players"])
    >>> [ax.get_title() for ax in fig.axes][:2]
    ['Actions', 'Bank']
    """
    ev = events[events["kind"] == "develop"][[*KEYS, "seat", time, "detail", "value"]]
    ev = with_players_column(ev, players, by)
    groups = sorted(pd.unique(players[by]).tolist(), key=str)
    colors = group_colours(by, groups)
    n_pg = players.groupby(by).size()
    abilities = [a for a in ABILITIES if a in set(ev["detail"])] or list(ABILITIES)
    pb = player_board()
    fig = Figure(figsize=(NOTEBOOK_INCHES, 6.4), layout="constrained")
    # one time scale along the top row and one share scale along the bottom row, so
    # the abilities compare at a glance and only the first column needs tick labels
    axes = fig.subplots(2, len(abilities), squeeze=False, sharex="col", sharey="row",
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
        top.set_title(ABILITY_NAMES.get(ab, ab))
        top.grid(alpha=0.3)
        bottom.grid(alpha=0.3)
        bottom.set_xlabel("level reached")
        bottom.set_ylim(0, 1.02)
        bottom.yaxis.set_major_formatter(percent_axis())
        # the whole track of the ability (level 1 … its last), whatever was reached
        bottom.set_xlim(0.5, len(pb[ab]) - 0.5)
        bottom.xaxis.set_major_locator(mpl.ticker.MaxNLocator(integer=True))
    integer_axis(axes[0, 0], "y", ev[time].to_numpy(float))
    axes[0, 0].set_ylabel(f"{time} reached (median, 25–75%)")
    axes[1, 0].set_ylabel("share of player-games")
    # every group in the legend, also one that never developed an ability here
    handles = [mpl.lines.Line2D([], [], color=colors[g], marker="o", ms=4,
                                label=f"{g} (n = {n_pg.get(g, 0)})") for g in groups]
    # below the panels: a legend beside the title would run into it
    fig.legend(handles=handles, loc="outside lower center", frameon=False, title=by,
               ncols=legend_columns([str(h.get_label()) for h in handles], fontsize=10))
    fig.suptitle("When ability levels are reached", fontweight="bold")
    return finish_figure(fig, save)


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
    ['prestige', 'points']
    """
    cols = list(dict.fromkeys([*KEYS, "round", "turn", "seat", *values]))
    t = turns[cols]
    last = t.groupby([*KEYS, "round"], sort=False)["turn"].transform("max")
    t = t[t["turn"].to_numpy() == last.to_numpy()]
    t = with_players_column(t, players, by)
    groups = sorted(pd.unique(t[by]).tolist(), key=str)
    colors = group_colours(by, groups)
    shape = grid_shape(len(values), 2)
    fig = Figure(figsize=(NOTEBOOK_INCHES if shape.columns > 1 else 5.5,
                          1.2 + 3.4 * shape.rows), layout="constrained")
    axes = panel_grid(fig, len(values), 2)
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
        ax.set_ylabel({"prestige": "prestige", "projected": "points"}.get(v, v))
        ax.set_title({"prestige": "prestige track", "projected":
                      "final score if the game ended then"}.get(v, v))
        ax.grid(alpha=0.3)
        ax.yaxis.set_major_locator(mpl.ticker.MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    # below the panels, out of the way of the lines and bands
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", frameon=False, title=by,
               ncols=legend_columns(labels, fontsize=10))
    fig.suptitle(f"Score over the rounds\n(median, 25–75%; rounds reached by ≥ "
                 f"{100 * min_share:.0f}% of player-games)", fontweight="bold")
    return finish_figure(fig, save)
