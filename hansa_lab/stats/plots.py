"""Figures of the run tables and of :mod:`hansa_lab.stats` results (matplotlib).

Every function returns a :class:`matplotlib.figure.Figure` (made without ``pyplot``, so
nothing is left open; Jupyter shows a returned figure inline) and takes ``save=None`` or
a path: the figure is then written there (format from the suffix, e.g. ``.png``,
``.pdf``), creating the folder, e.g. ``save="results/strategy_tips/ratings.png"``.

- :func:`plot_score_breakdown` — final score and every category on one scale, per
  strategy, a panel per player count
- :func:`plot_score_composition` — mean points per category stacked, per strategy
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
>>> [ax.get_title() for ax in fig.axes]
['2 players']

Colours have one meaning each, defined here once: strategies always in
:data:`STRATEGY_COLOURS`, score categories in :data:`CATEGORY_COLOURS`, end reasons in
:data:`END_REASON_COLOURS`; category labels are the game's words (:data:`CATEGORY_LABELS`).
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

from hansa_lab.engine.board import ABILITIES, player_board
from hansa_lab.engine.narrate import ABILITY_NAMES
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.stats.quality import end_reason_mix, leader_wins
from hansa_lab.stats.ratings import ELO_PER_LOG
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.sequential import SequentialResult
from hansa_lab.stats.tables import CONDITION_COLUMNS, GAME_KEYS

__all__ = [
    "CATEGORY_COLOURS",
    "CATEGORY_LABELS",
    "END_REASON_COLOURS",
    "STRATEGY_COLOURS",
    "category_label",
    "group_colours",
    "plot_ability_timing",
    "plot_comparison",
    "plot_end_reasons",
    "plot_leader_wins",
    "plot_ratings",
    "plot_score_breakdown",
    "plot_score_composition",
    "plot_seat_advantage",
    "plot_sequential",
    "plot_trajectories",
]

Save = str | os.PathLike[str] | None
KEYS = GAME_KEYS


#: The width a notebook shows a figure at (800 CSS px): a wider figure is scaled down
#: to it, so its fonts shrink by the same factor.
NOTEBOOK_INCHES = 800 / 96
#: The smallest font any figure shows at notebook width, in points.
MIN_FONT_PT = 8.5


def _legible(fig: Figure) -> None:
    """Raise every font of ``fig`` that would read smaller than :data:`MIN_FONT_PT` when
    the saved figure (tight bounding box) is shown :data:`NOTEBOOK_INCHES` wide."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    for _ in range(3):  # larger fonts widen the figure a little: settle in a few steps
        canvas.draw()
        width = fig.get_tightbbox(canvas.get_renderer()).width
        floor = MIN_FONT_PT * max(1.0, width / NOTEBOOK_INCHES)
        small = [t for t in fig.findobj(Text) if float(t.get_fontsize()) < floor - 1e-6]
        if not small:
            return
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                size = min((float(t.get_fontsize()) for t in axis.get_ticklabels()),
                           default=floor)
                if size < floor:
                    ax.tick_params(axis="x" if axis is ax.xaxis else "y", labelsize=floor)
        for t in small:
            t.set_fontsize(floor)


def _percent_axis() -> mpl.ticker.PercentFormatter:
    """Tick labels of a share axis (0–1) as percentages, like the tables."""
    return mpl.ticker.PercentFormatter(xmax=1.0, decimals=0)


def _finish(fig: Figure, save: Save, dpi: int = 120) -> Figure:
    _legible(fig)
    if save is not None:
        path = Path(save)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
    return fig


#: One colour per strategy, the same in every figure (Okabe–Ito and Tableau hues; a
#: strategy not listed takes the next free colour of :data:`EXTRA_COLOURS`).
STRATEGY_COLOURS: dict[str, str] = {
    "greedy": "#0072B2",
    "random": "#7f7f7f",
    "actions_first": "#D55E00",
    "blocker": "#009E73",
    "network_keys": "#CC79A7",
    "keep_supply": "#E69F00",
    "mcts": "#56B4E9",
}
#: Colours for other groups (arms, conditions, unlisted strategies), in order.
EXTRA_COLOURS = ("#4E79A7", "#F28E2B", "#59A14F", "#B07AA1", "#9C755F", "#EDC948",
                 "#76B7B2", "#FF9DA7", "#E15759", "#BAB0AC", "#1F3B5C", "#8C6D31")
#: One colour per score category (and the total), the same in every figure.
CATEGORY_COLOURS: dict[str, str] = {
    "total": "#3d3427",
    "track": "#4E79A7",
    "abilities": "#F28E2B",
    "markers": "#EDC948",
    "special": "#B07AA1",
    "control": "#59A14F",
    "network": "#76B7B2",
    "regions": "#9C755F",
}
#: The score categories in the game's words (the data columns keep their names).
CATEGORY_LABELS: dict[str, str] = {
    "total": "total",
    "track": "prestige track",
    "abilities": "abilities",
    "markers": "bonus markers",
    "special": "Coellen / special prestige",
    "control": "city control",
    "network": "network",
    "regions": "regions",
}
#: One colour per end reason.
END_REASON_COLOURS: dict[str, str] = {
    "prestige": "#0072B2",
    "cities": "#E69F00",
    "markers": "#009E73",
    "cap": "#7f7f7f",
}


def _colors(labels: Sequence[Any], palette: dict[str, str] | None = None) -> dict[Any, Any]:
    """A colour per label: from ``palette`` when it lists the label, the others from
    :data:`EXTRA_COLOURS` in order, skipping the colours already taken."""
    palette = palette or {}
    out: dict[Any, Any] = {lab: palette[str(lab)] for lab in labels if str(lab) in palette}
    free = [c for c in EXTRA_COLOURS if c not in out.values()]
    rest = [lab for lab in labels if lab not in out]
    if len(rest) > len(free):
        cmap = mpl.colormaps["tab20"]
        free += [mpl.colors.to_hex(cmap(i % cmap.N)) for i in range(len(rest) - len(free))]
    out.update(zip(rest, free, strict=False))
    return {lab: out[lab] for lab in labels}


def group_colours(by: str, labels: Sequence[Any]) -> dict[Any, Any]:
    """The colours of the groups of a ``by`` column: strategies get their fixed
    :data:`STRATEGY_COLOURS`, anything else the next :data:`EXTRA_COLOURS`."""
    return _colors(labels, STRATEGY_COLOURS if by in ("strategy", "strategy_name") else None)


def category_label(cat: str) -> str:
    """A score category in the game's words (``track`` → ``prestige track``)."""
    return CATEGORY_LABELS.get(cat, cat.replace("_", " "))


def _integer_axis(ax: Axes, axis: str, values: Sequence[float] | np.ndarray) -> None:
    """Integer ticks and a range of at least one unit around ``values`` on ``axis``
    (no 0.945–1.050 axis when all the values are equal)."""
    vals = np.asarray(values, dtype=float)
    vals = vals[np.isfinite(vals)]
    getattr(ax, f"{axis}axis").set_major_locator(mpl.ticker.MaxNLocator(integer=True))
    if vals.size:
        lo, hi = float(vals.min()), float(vals.max())
        if hi - lo < 2:
            mid = (lo + hi) / 2
            getattr(ax, f"set_{axis}lim")(mid - 1.25, mid + 1.25)


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


def _facet_title(split: str | None, value: Any) -> str:
    if split is None:
        return "all games"
    if split == "n_players":
        return f"{value} players"
    return f"{split} = {value}"


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
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()][:3]
    ['total', 'prestige track', 'abilities']
    """
    df, cats = _breakdown_frame(players, split, categories)
    cols = ["total", *[c for c in cats if c != "total"]]
    groups = sorted(pd.unique(df[by]).tolist(), key=str)
    splits = sorted(pd.unique(df[split]).tolist()) if split else [None]
    colors = group_colours(by, groups)
    width = 0.8 / max(1, len(groups))
    fig = Figure(figsize=(max(9.0, 1.2 + len(cols) * (0.45 + 0.28 * len(groups))),
                          1.6 + 3.3 * len(splits)), layout="constrained")
    axes = np.atleast_1d(fig.subplots(len(splits), 1, sharey=True, squeeze=False)).ravel()
    top = 1.0
    for ax, sv in zip(axes, splits, strict=True):
        sub = df if sv is None else df[df[split] == sv]
        counts = sub.groupby(by).size()
        for j, g in enumerate(groups):
            rows = sub[sub[by] == g]
            if rows.empty:
                continue
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
        ax.set_xticks(range(len(cols)), [category_label(c) for c in cols], rotation=15,
                      ha="right")
        ax.get_xticklabels()[0].set_fontweight("bold")
        ax.axvline(0.5, color="#999999", lw=0.8)
        ns = ", ".join(f"{g} {counts[g]}" for g in groups if counts.get(g, 0))
        ax.set_title(_facet_title(split, sv))
        ax.text(0.995, 0.98, f"n (player-games): {ns}", transform=ax.transAxes,
                ha="right", va="top", fontsize=8.5, color="#444444")
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
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 4),
               frameon=False, fontsize=9)
    fig.suptitle(f"Final score and where it comes from, per {by} (one shared scale)",
                 fontweight="bold")
    return _finish(fig, save)


def plot_score_composition(
    players: pd.DataFrame,
    by: str = "strategy",
    split: str | None = "n_players",
    categories: Sequence[str] | None = None,
    *,
    save: Save = None,
) -> Figure:
    """What the average score is made of: per ``by`` value one bar of the mean points
    of every category stacked (prestige track at the bottom; colours of
    :data:`CATEGORY_COLOURS`), the mean total on top, n (player-games) under the bar;
    one panel per ``split`` value (default the player count), all on one scale.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["plus5", "base"], n_deals=10, n_players=2)
    >>> fig = plot_score_composition(t["players"])
    >>> fig.axes[0].get_ylabel(), fig.axes[0].get_title()
    ('mean points', '2 players')
    """
    df, cats = _breakdown_frame(players, split, categories)
    cats = [c for c in cats if c != "total"]
    groups = sorted(pd.unique(df[by]).tolist(), key=str)
    splits = sorted(pd.unique(df[split]).tolist()) if split else [None]
    colors = _colors(cats, CATEGORY_COLOURS)
    fig = Figure(figsize=(max(7.0, 2.2 + 1.0 * len(groups) * len(splits) + 1.5 * len(splits)),
                          5.2), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(splits), sharey=True, squeeze=False)).ravel()
    for ax, sv in zip(axes, splits, strict=True):
        sub = df if sv is None else df[df[split] == sv]
        present = [g for g in groups if (sub[by] == g).any()]
        means = sub.groupby(by)[cats].mean().reindex(present)
        counts = sub.groupby(by).size().reindex(present)
        x = np.arange(len(present))
        bottom = np.zeros(len(present))
        for c in cats:
            v = means[c].to_numpy(float)
            ax.bar(x, v, bottom=bottom, color=colors[c], edgecolor="white", width=0.7,
                   label=category_label(c))
            for xi, (b0, vi) in enumerate(zip(bottom, v, strict=True)):
                if vi >= 3:
                    ax.text(xi, b0 + vi / 2, f"{vi:.0f}", ha="center", va="center",
                            fontsize=8, color="white" if c != "markers" else "#333333")
            bottom += v
        for xi, total in enumerate(bottom):
            ax.text(xi, total + 0.6, f"{total:.1f}", ha="center", va="bottom", fontsize=9,
                    fontweight="bold")
        ax.set_xticks(x, [f"{g}\nn = {counts[g]}" for g in present],
                      rotation=0 if len(present) <= 4 else 20)
        ax.set_title(_facet_title(split, sv))
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    axes[0].set_ylabel("mean points")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles[::-1], labels[::-1], loc="outside right center", frameon=False,
               title="category (top to bottom)", fontsize=9)
    fig.suptitle(f"Mean final score by category, per {by} (numbers: mean points)",
                 fontweight="bold")
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
    ['Actions', 'Bank']
    """
    ev = events[events["kind"] == "develop"][[*KEYS, "seat", time, "detail", "value"]]
    ev = _with_players_column(ev, players, by)
    groups = sorted(pd.unique(players[by]).tolist(), key=str)
    colors = group_colours(by, groups)
    n_pg = players.groupby(by).size()
    abilities = [a for a in ABILITIES if a in set(ev["detail"])] or list(ABILITIES)
    pb = player_board()
    fig = Figure(figsize=(2.2 * len(abilities) + 0.6, 6.2), layout="constrained")
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
        top.set_title(ABILITY_NAMES.get(ab, ab))
        top.grid(alpha=0.3)
        bottom.grid(alpha=0.3)
        bottom.set_xlabel("level reached")
        bottom.set_ylim(0, 1.02)
        bottom.yaxis.set_major_formatter(_percent_axis())
        # the whole track of the ability (level 1 … its last), whatever was reached
        bottom.set_xlim(0.5, len(pb[ab]) - 0.5)
        bottom.xaxis.set_major_locator(mpl.ticker.MaxNLocator(integer=True))
        _integer_axis(top, "y", sub[time].to_numpy(float))
    axes[0, 0].set_ylabel(f"{time} reached (median, 25–75%)")
    axes[1, 0].set_ylabel("share of player-games")
    # every group in the legend, also one that never developed an ability here
    handles = [mpl.lines.Line2D([], [], color=colors[g], marker="o", ms=4,
                                label=f"{g} (n = {n_pg.get(g, 0)})") for g in groups]
    fig.legend(handles=handles, loc="outside upper right", ncols=min(len(groups), 6),
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
    ['prestige', 'points']
    """
    cols = list(dict.fromkeys([*KEYS, "round", "turn", "seat", *values]))
    t = turns[cols]
    last = t.groupby([*KEYS, "round"], sort=False)["turn"].transform("max")
    t = t[t["turn"].to_numpy() == last.to_numpy()]
    t = _with_players_column(t, players, by)
    groups = sorted(pd.unique(t[by]).tolist(), key=str)
    colors = group_colours(by, groups)
    fig = Figure(figsize=(4.6 * len(values), 4.4), layout="constrained")
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
        ax.set_ylabel({"prestige": "prestige", "projected": "points"}.get(v, v))
        ax.set_title({"prestige": "prestige track", "projected":
                      "final score if the game ended then"}.get(v, v))
        ax.grid(alpha=0.3)
    axes[0].legend(title=by, frameon=False)
    fig.suptitle(f"Score over the rounds (median, 25–75%; rounds reached by ≥ "
                 f"{100 * min_share:.0f}% of player-games)", fontweight="bold")
    return _finish(fig, save)


#: The narrowest panel a grid figure draws, in inches (at the 100 dpi of the HTML report
#: that is 300 px, at the 120 dpi of saved files 360 px).
PANEL_WIDTH = 3.0
#: The most panels side by side in a grid figure (more wrap onto the next row), so that
#: it stays legible at notebook width.
MAX_COLUMNS = 3


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
    options; more than :data:`MAX_COLUMNS` wrap onto further rows) — all panels on one
    shared percent scale. ``table`` is its result, or the
    players table (then ``games`` and ``kwargs`` go to ``seat_advantage``).

    Each panel's title gives its Holm-adjusted test of equal win counts; a seat's marker
    is filled only when that test rejects at ``alpha`` and the seat's interval excludes
    the fair share, hollow otherwise.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=40, n_players=3, seat_bonus=[5, 0, 0])
    >>> fig = plot_seat_advantage(t["players"], t["games"])
    >>> fig.axes[0].get_title().splitlines()[0], fig.axes[0].get_ylabel()
    ('3 players, base_3p', '3 players, base_3p\\nwin rate')
    """
    from hansa_lab.stats.verdicts import format_p

    if "win_rate" not in table.columns:
        table = seat_advantage(table, games, **kwargs)
    keys = [c for c in table.columns[: list(table.columns).index("seat")]]
    row_keys = [k for k in ("n_players", "side") if k in keys]
    col_keys = [k for k in keys if k not in row_keys]
    rows = (list(table[row_keys].drop_duplicates().sort_values(row_keys)
                 .itertuples(index=False, name=None)) if row_keys else [()])
    cols = (list(table[col_keys].drop_duplicates().sort_values(col_keys)
                 .itertuples(index=False, name=None)) if col_keys else [()])
    width = min(len(cols), MAX_COLUMNS)  # more populations wrap onto further rows
    blocks = math.ceil(len(cols) / width)
    fig = Figure(figsize=(PANEL_WIDTH * width + 1.1, 2.7 * len(rows) * blocks + 1.0),
                 layout="constrained")
    axes = fig.subplots(len(rows) * blocks, width, squeeze=False, sharey=True)
    for ax in axes.ravel():
        ax.set_visible(False)
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
            row_label = ", ".join(_facet_title(k, v) if k == "n_players" else str(v)
                                  for k, v in zip(row_keys, rkey, strict=True))
            col_label = ", ".join(str(v) for v in ckey) or row_label or "all games"
            seats = g["seat"].to_numpy()
            rate = g["win_rate"].to_numpy(float)
            lo, hi = g["win_lo"].to_numpy(float), g["win_hi"].to_numpy(float)
            fair = float(g["fair"].iloc[0])
            p_col = "p_wins_holm" if "p_wins_holm" in g.columns else "p_wins"
            p = float(g[p_col].iloc[0])
            rejects = math.isfinite(p) and p <= alpha
            off = (lo > fair) | (hi < fair)
            ax.errorbar(seats, rate, yerr=[rate - lo, hi - rate], fmt="none", capsize=4,
                        ecolor="C0")
            ax.scatter(seats, rate, c=["C0" if rejects and o else "white" for o in off],
                       edgecolors="C0", zorder=3, s=36)
            ax.axhline(fair, ls="--", color="grey", lw=1)
            which = "Holm p" if p_col == "p_wins_holm" else "p"
            ax.set_title(f"{col_label}\n{which} = {format_p(p)}, {int(g['games'].iloc[0])} "
                         "games", fontsize=10)
            ax.set_xticks(seats)
            ax.set_xlim(seats.min() - 0.5, seats.max() + 0.5)
            ax.grid(alpha=0.3)
            ax.yaxis.set_major_formatter(_percent_axis())
            ax.set_xlabel("seat (0 moves first)")
            if j % width == 0:
                ax.set_ylabel(f"{row_label}\nwin rate" if row_label else "win rate")
    axes[0, 0].set_ylim(0, min(1.0, top * 1.08 + 0.02))
    fig.suptitle(f"Win rate per seat (95% intervals; dashed: fair share)\nfilled: the "
                 f"panel's test rejects equal seats (Holm p ≤ {alpha:g})", fontweight="bold")
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
    colors = _colors(reasons, END_REASON_COLOURS)
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
    ax.xaxis.set_major_formatter(_percent_axis())
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
    return _finish(fig, save)


def plot_comparison(
    comparison: pd.DataFrame,
    *,
    alpha: float = 0.05,
    save: Save = None,
) -> Figure:
    """Forest plot of paired comparisons (:func:`hansa_lab.stats.paired_comparison`
    or :func:`~hansa_lab.stats.compare_arms`): score difference (left) and
    win-share difference (right, in percent) of each arm against its base, with their t
    intervals over deals. In each panel a marker is filled when that panel's own
    Holm-adjusted test (``p_holm`` for scores, ``p_win_holm`` for win shares, as
    :func:`~hansa_lab.stats.compare_arms` gives them) rejects "no difference" at
    ``alpha`` with an interval of non-zero width off 0, hollow otherwise; without the
    column every marker is filled.

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
    judged = False
    for ax, (v, lo, hi, p_col, xl) in zip(axes, [
            ("diff", "diff_lo", "diff_hi", "p_holm", "score difference (arm − base)"),
            ("win_diff", "win_diff_lo", "win_diff_hi", "p_win_holm",
             "win-share difference (arm − base)")], strict=True):
        e = cmp[v].to_numpy(float)
        a, b = cmp[lo].to_numpy(float), cmp[hi].to_numpy(float)
        err = [e - a, b - e]
        ax.errorbar(e, y, xerr=err, fmt="none", ecolor="C0", capsize=4)
        if p_col in cmp.columns:  # this panel's own test decides filled or hollow
            judged = True
            found = _found(cmp[p_col].to_numpy(float), a, b, alpha)
        else:
            found = np.ones(len(e), dtype=bool)
        ax.scatter(e, y, c=["C0" if f else "white" for f in found], edgecolors="C0",
                   zorder=3)
        ax.axvline(0, ls="--", color="grey", lw=1)
        ax.set_xlabel(xl)
        ax.grid(axis="x", alpha=0.3)
    axes[1].xaxis.set_major_formatter(mpl.ticker.PercentFormatter(xmax=1.0, decimals=0))
    axes[1].xaxis.set_major_locator(mpl.ticker.MaxNLocator(6))
    axes[0].set_yticks(y, labels)
    axes[0].set_ylim(len(cmp) - 0.5, -0.5)
    note = (f"\nfilled: the panel's own test rejects 'no difference' (Holm p ≤ {alpha:g})"
            if judged else "")
    fig.suptitle(f"Paired comparisons, 95% t intervals over deals{note}", fontweight="bold")
    return _finish(fig, save)


def _found(p: np.ndarray, lo: np.ndarray, hi: np.ndarray, alpha: float) -> np.ndarray:
    """Where a test found a difference: adjusted ``p`` at most ``alpha`` and an interval
    of non-zero width that excludes 0 (the rule of the verdicts)."""
    with np.errstate(invalid="ignore"):
        return (np.isfinite(p) & (p <= alpha) & (hi > lo) & ((lo > 0) | (hi < 0)))


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
              else _colors([g for g, _ in groups]))
    fig = Figure(figsize=(7, 4.4), layout="constrained")
    ax = fig.subplots()
    for key, g in groups:
        lab = ", ".join(f"{k} {v}" for k, v in zip(keys, key if isinstance(key, tuple)
                                                     else (key,), strict=True))
        ax.plot(g["round"], g["rate"], color=colors[key], label=lab or None)
        ax.fill_between(g["round"], g["lo"], g["hi"], color=colors[key], alpha=0.18, lw=0)
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(_percent_axis())
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
    fig = Figure(figsize=(9, 4.2), layout="constrained")
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
