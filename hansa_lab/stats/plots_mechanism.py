"""Figures of the first-seat study (:func:`hansa_lab.stats.mechanism.first_seat_mechanism`)
and of answers per population (:mod:`hansa_lab.stats.population_answers`), matplotlib.

- :func:`plot_first_seat_mechanism` — three panels a designer reads at a glance: which
  seat develops each ability first, which seat reaches each ability city first (both
  as shares with Wilson intervals against the fair share), and each seat's projected
  score lead over the others by round (t bands);
- :func:`plot_population_answers` — every question's estimate and interval per
  population, one panel per unit.

Like :mod:`hansa_lab.stats.plots`: each function returns a
:class:`matplotlib.figure.Figure` (no ``pyplot``) and ``save`` writes it to a path.

>>> import pandas as pd
>>> from hansa_lab.stats.population_answers import PopulationAnswer, answers_table
>>> t = answers_table([PopulationAnswer("a", "seats", 0.3, 0.2, 0.4, "win share of seat 0",
...                                     "Wilson", "balanced", 100)])
>>> [ax.get_title() for ax in plot_population_answers(t).axes]
['win share of seat 0']
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from hansa_lab.stats.mechanism import FirstSeatMechanism
from hansa_lab.stats.plot_style import (
    NOTEBOOK_INCHES,
    Save,
    finish_figure,
    legend_columns,
    percent_axis,
)
from hansa_lab.stats.population_answers import NOT_APPLICABLE

__all__ = ["plot_first_seat_mechanism", "plot_population_answers"]

#: One colour per seat (seat 0 first), the same in every panel.
SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#7d3c98", "#b9770e", "#5d6d7e")


def _seat_colour(k: int) -> str:
    return SEAT_COLOURS[k % len(SEAT_COLOURS)]


def _share_limit(*tables: pd.DataFrame) -> float:
    """The end of the share axis: past every interval, at least 50%, at most 100%."""
    highs = [float(np.nanmax(t["share_hi"].to_numpy(float))) for t in tables if len(t)]
    return min(1.0, max(0.5, np.ceil(10 * max(highs, default=0.0) + 0.5) / 10))


def _shares(ax: Axes, shares: pd.DataFrame, item: str, title: str, limit: float) -> None:
    """Horizontal bars: a group per ``item`` (its median first round beside its name),
    a bar per seat with its interval, the fair share dashed."""
    ax.set_title(title)
    ax.set_xlim(0, limit)
    ax.xaxis.set_major_formatter(percent_axis())
    ax.set_xlabel("share of games first")
    if shares.empty:
        ax.set_title(f"{title}\n(nobody did it)")
        ax.set_yticks([])
        return
    labels = list(dict.fromkeys(shares[item]))
    seats = sorted(shares["seat"].unique())
    height = 0.8 / len(seats)
    for k, seat in enumerate(seats):
        s = shares[shares["seat"] == seat].set_index(item).reindex(labels)
        y = np.arange(len(labels)) + (k - (len(seats) - 1) / 2) * height
        err = np.vstack([s["share"] - s["share_lo"], s["share_hi"] - s["share"]])
        ax.barh(y, s["share"], height, color=_seat_colour(k), xerr=err, capsize=2,
                error_kw={"lw": 0.8})
    ax.axvline(float(shares["fair"].iloc[0]), color="black", ls="--", lw=0.8)
    rounds = shares.groupby(item, sort=False)["median_round"].min()
    ax.set_yticks(np.arange(len(labels)),
                  [f"{lab}\nfirst ≈ round {rounds[lab]:g}" for lab in labels])
    ax.set_ylim(len(labels) - 0.5, -0.5)  # the first item on top, seat 0 at its top
    ax.grid(axis="x", alpha=0.3)


def plot_first_seat_mechanism(mechanism: FirstSeatMechanism, *, max_round: int | None = None,
                              save: Save = None) -> Figure:
    """Who is first to the abilities and how the score gap opens (three panels).

    Top left: the share of games in which each seat develops each ability first (Wilson
    95% intervals; dashed: the fair share), with the median round of the first
    development. Top right: the same for the first route established to each ability
    city. Below: each seat's projected score minus the mean of the others', by round
    (95% t bands; rounds that at least half the games reach, or up to ``max_round``).
    One legend gives the seats' colours for every panel.
    """
    dev = mechanism.development_shares.assign(
        ability=lambda d: d["ability"].str.capitalize())
    routes = mechanism.route_shares
    if not routes.empty:
        routes = routes.assign(city=routes["city"] + " (" + routes["ability"] + ")")
    items = max(dev["ability"].nunique(), routes["city"].nunique() if len(routes) else 1)
    top = 0.9 + 0.75 * items
    fig = Figure(figsize=(NOTEBOOK_INCHES, top + 3.8), layout="constrained")
    grid = fig.add_gridspec(2, 2, height_ratios=[top, 2.6])
    ax_dev, ax_route = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
    ax_gap = fig.add_subplot(grid[1, :])
    limit = _share_limit(dev, routes)  # one share scale for both panels
    _shares(ax_dev, dev, "ability", "first to develop", limit)
    _shares(ax_route, routes, "city", "first route to the ability city", limit)
    gap = mechanism.gap
    n_games = int(mechanism.seats["games"].iloc[0])
    if max_round is None:
        reached = gap.groupby("round")["games"].max()
        max_round = int(reached[reached >= n_games / 2].index.max())
    gap = gap[gap["round"] <= max_round]
    for k, (_seat, g) in enumerate(gap.groupby("seat", sort=True)):
        colour = _seat_colour(k)
        ax_gap.plot(g["round"], g["gap"], color=colour)
        ax_gap.fill_between(g["round"], g["gap_lo"], g["gap_hi"], color=colour, alpha=0.2,
                            lw=0)
    ax_gap.axhline(0, color="black", lw=0.8)
    ax_gap.set_xlabel("round")
    ax_gap.set_ylabel("projected score\n− others' mean")
    ax_gap.set_title("score gap by round")
    ax_gap.grid(alpha=0.3)
    seats = sorted(mechanism.seats["seat"])
    handles: list[Patch | Line2D] = [Patch(color=_seat_colour(k), label=f"seat {seat}")
                                     for k, seat in enumerate(seats)]
    handles.append(Line2D([], [], color="black", ls="--", lw=0.8, label="fair share"))
    fig.legend(handles=handles, loc="outside lower center", frameon=False,
               ncols=legend_columns([str(h.get_label()) for h in handles]))
    s0 = mechanism.seats.iloc[0]
    fig.suptitle(f"seat 0 wins {s0['win_rate']:.0%} [{s0['win_lo']:.0%}, {s0['win_hi']:.0%}] "
                 f"of {n_games} games (fair {s0['fair']:.0%})", fontweight="bold")
    return finish_figure(fig, save)


def plot_population_answers(table: pd.DataFrame, *, save: Save = None) -> Figure:
    """Each question's estimate with its 95% interval, one marker per population, one
    panel per unit (seat 0's win share; the tips' score differences) under each other,
    the fair share or zero dashed; one legend for the populations below."""
    usable = table[table["verdict"] != NOT_APPLICABLE]
    units = list(dict.fromkeys(usable["unit"]))
    if not units:
        raise ValueError("no answers with an estimate to plot")
    pops = list(dict.fromkeys(table["population"]))
    # one panel per unit under each other: the questions need the width for their names
    sizes = [usable.loc[usable["unit"] == u, "question"].nunique() for u in units]
    fig = Figure(figsize=(NOTEBOOK_INCHES, 1.2 + sum(0.9 + 0.5 * n for n in sizes)),
                 layout="constrained")
    axes = fig.subplots(len(units), 1, squeeze=False,
                        height_ratios=[n + 1.2 for n in sizes])[:, 0]
    for ax, unit in zip(axes, units, strict=True):
        part = usable[usable["unit"] == unit]
        questions = list(dict.fromkeys(part["question"]))
        step = 0.7 / max(1, len(pops))
        for k, pop in enumerate(pops):
            p = part[part["population"] == pop].set_index("question").reindex(questions)
            y = np.arange(len(questions)) + (k - (len(pops) - 1) / 2) * step
            err = np.vstack([p["estimate"] - p["lo"], p["hi"] - p["estimate"]])
            ax.errorbar(p["estimate"], y, xerr=err, fmt="o", capsize=3,
                        color=_seat_colour(k), label=pop)
        ax.set_yticks(np.arange(len(questions)), questions)
        ax.set_ylim(len(questions) - 0.5, -0.5)  # the first question on top
        if unit.startswith("win share"):
            seats = table.attrs.get("seats")
            if seats:
                ax.axvline(1 / seats, color="black", ls="--", lw=0.8)
            ax.xaxis.set_major_formatter(percent_axis())
        else:
            ax.axvline(0, color="black", ls="--", lw=0.8)
        ax.set_title(unit)
        ax.grid(axis="x", alpha=0.3)
    handles = [Line2D([], [], color=_seat_colour(k), marker="o", label=pop)
               for k, pop in enumerate(pops)]
    fig.legend(handles=handles, loc="outside lower center", frameon=False, title="population",
               ncols=legend_columns(pops))
    return finish_figure(fig, save)
