"""Figures of the first-seat study (:func:`hansa_lab.stats.mechanism.first_seat_mechanism`)
and of answers per population (:mod:`hansa_lab.stats.populations`), matplotlib.

- :func:`plot_first_seat_mechanism` — three panels a designer reads at a glance: which
  seat develops each ability first, which seat reaches each ability city first (both
  as shares with Wilson intervals against the fair share), and each seat's projected
  score lead over the others by round (t bands);
- :func:`plot_population_answers` — every question's estimate and interval per
  population, one panel per unit.

Like :mod:`hansa_lab.stats.plots`: each function returns a
:class:`matplotlib.figure.Figure` (no ``pyplot``) and ``save`` writes it to a path.

>>> import pandas as pd
>>> from hansa_lab.stats.populations import PopulationAnswer, answers_table
>>> t = answers_table([PopulationAnswer("a", "seats", 0.3, 0.2, 0.4, "win share of seat 0",
...                                     "Wilson", "balanced", 100)])
>>> [ax.get_title() for ax in plot_population_answers(t).axes]
['win share of seat 0']
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from hansa_lab.stats.mechanism import FirstSeatMechanism
from hansa_lab.stats.populations import NOT_APPLICABLE

__all__ = ["plot_first_seat_mechanism", "plot_population_answers"]

Save = str | os.PathLike[str] | None
#: One colour per seat (seat 0 first), the same in every panel.
SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#7d3c98", "#b9770e", "#5d6d7e")


def _save(fig: Figure, save: Save) -> Figure:
    if save is not None:
        path = Path(save)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120, bbox_inches="tight")
    return fig


def _shares(ax: Axes, shares: pd.DataFrame, item: str, title: str) -> None:
    if shares.empty:
        ax.set_title(f"{title}\n(nobody did it)")
        return
    labels = list(dict.fromkeys(shares[item]))
    seats = sorted(shares["seat"].unique())
    width = 0.8 / len(seats)
    for k, seat in enumerate(seats):
        s = shares[shares["seat"] == seat].set_index(item).reindex(labels)
        x = np.arange(len(labels)) + (k - (len(seats) - 1) / 2) * width
        err = np.vstack([s["share"] - s["share_lo"], s["share_hi"] - s["share"]])
        ax.bar(x, s["share"], width, color=SEAT_COLOURS[k % len(SEAT_COLOURS)],
               label=f"seat {seat}", yerr=err, capsize=2, error_kw={"lw": 0.8})
    ax.axhline(float(shares["fair"].iloc[0]), color="black", ls="--", lw=0.8,
               label="fair share")
    rounds = shares.groupby(item, sort=False)["median_round"].min()
    ax.set_xticks(np.arange(len(labels)),
                  [f"{lab}\nfirst ≈ round {rounds[lab]:g}" for lab in labels])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_ylabel("share of games first")
    ax.set_title(title)


def plot_first_seat_mechanism(mechanism: FirstSeatMechanism, *, max_round: int | None = None,
                              save: Save = None) -> Figure:
    """Who is first to the abilities and how the score gap opens (three panels).

    Left: the share of games in which each seat develops each ability first (Wilson
    95% intervals; dashed: the fair share), with the median round of the first
    development. Middle: the same for the first route established to each ability
    city. Right: each seat's projected score minus the mean of the others', by round
    (95% t bands; rounds that at least half the games reach, or up to ``max_round``).
    """
    fig = Figure(figsize=(15, 4.6), layout="constrained")
    ax_dev, ax_route, ax_gap = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.1, 1.1, 1]})
    dev = mechanism.development_shares.assign(
        ability=lambda d: d["ability"].str.capitalize())
    _shares(ax_dev, dev, "ability", "first to develop")
    routes = mechanism.route_shares
    if not routes.empty:
        routes = routes.assign(city=routes["city"] + " (" + routes["ability"] + ")")
    _shares(ax_route, routes, "city", "first route to the ability city")
    gap = mechanism.gap
    n_games = int(mechanism.seats["games"].iloc[0])
    if max_round is None:
        reached = gap.groupby("round")["games"].max()
        max_round = int(reached[reached >= n_games / 2].index.max())
    gap = gap[gap["round"] <= max_round]
    for k, (seat, g) in enumerate(gap.groupby("seat", sort=True)):
        colour = SEAT_COLOURS[k % len(SEAT_COLOURS)]
        ax_gap.plot(g["round"], g["gap"], color=colour, label=f"seat {seat}")
        ax_gap.fill_between(g["round"], g["gap_lo"], g["gap_hi"], color=colour, alpha=0.2,
                            lw=0)
    ax_gap.axhline(0, color="black", lw=0.8)
    ax_gap.set_xlabel("round")
    ax_gap.set_ylabel("projected score − others' mean")
    ax_gap.set_title("score gap by round")
    ax_gap.legend(loc="upper left", fontsize="small")
    ax_dev.legend(loc="upper right", fontsize="small")
    s0 = mechanism.seats.iloc[0]
    fig.suptitle(f"seat 0 wins {s0['win_rate']:.0%} [{s0['win_lo']:.0%}, {s0['win_hi']:.0%}] "
                 f"of {n_games} games (fair {s0['fair']:.0%})")
    return _save(fig, save)


def plot_population_answers(table: pd.DataFrame, *, save: Save = None) -> Figure:
    """Each question's estimate with its 95% interval, one marker per population, one
    panel per unit (seat 0's win share; the tips' score differences), the fair share or
    zero dashed."""
    usable = table[table["verdict"] != NOT_APPLICABLE]
    units = list(dict.fromkeys(usable["unit"]))
    if not units:
        raise ValueError("no answers with an estimate to plot")
    fig = Figure(figsize=(6 * len(units), 3.8), layout="constrained")
    axes = fig.subplots(1, len(units), squeeze=False)[0]
    pops = list(dict.fromkeys(table["population"]))
    for ax, unit in zip(axes, units, strict=True):
        part = usable[usable["unit"] == unit]
        questions = list(dict.fromkeys(part["question"]))
        step = 0.7 / max(1, len(pops))
        for k, pop in enumerate(pops):
            p = part[part["population"] == pop].set_index("question").reindex(questions)
            y = np.arange(len(questions)) + (k - (len(pops) - 1) / 2) * step
            err = np.vstack([p["estimate"] - p["lo"], p["hi"] - p["estimate"]])
            ax.errorbar(p["estimate"], y, xerr=err, fmt="o", capsize=3,
                        color=SEAT_COLOURS[k % len(SEAT_COLOURS)], label=pop)
        ax.set_yticks(np.arange(len(questions)), questions)
        ax.invert_yaxis()
        if unit.startswith("win share"):
            seats = table.attrs.get("seats")
            if seats:
                ax.axvline(1 / seats, color="black", ls="--", lw=0.8)
            ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        else:
            ax.axvline(0, color="black", ls="--", lw=0.8)
        ax.set_title(unit)
        ax.legend(fontsize="small")
    return _save(fig, save)
