"""Balance by skill: each seat's win share along the skill ladder, one line per seat with
its Wilson 95% band, the fair share 1/N dashed (:mod:`hansa_lab.stats.convergence` states
where the answer stops changing; this is the picture of it).

>>> from hansa_lab.stats.population_answers import PopulationAnswer, answers_table
>>> def rung(name, shares):
...     seats = tuple((s, x, x - .03, x + .03) for s, x in enumerate(shares))
...     return PopulationAnswer(name, "seats", shares[0], shares[0] - .03, shares[0] + .03,
...                             "win share of seat 0", "m", "unbalanced", 400, seats=seats)
>>> t = answers_table([rung("greedy", [.3, .3, .2, .2]), rung("strong", [.4, .3, .15, .15])])
>>> fig = plot_seats_by_rung({4: (t, ["greedy", "strong"])})
>>> [ax.get_title() for ax in fig.axes]
['4 players: win share by seat, rung by rung']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from hansa_lab.stats.answers import seat_name
from hansa_lab.stats.plot_style import (
    NOTEBOOK_INCHES,
    Save,
    finish_figure,
    legend_columns,
    percent_axis,
)
from hansa_lab.stats.plots_mechanism import SEAT_COLOURS

__all__ = ["plot_seats_by_rung"]

#: A ladder's seat answers: the answers table and its rungs, novice first.
Ladder = tuple[pd.DataFrame, Sequence[str]]


def _shares(table: pd.DataFrame, rungs: Sequence[str]) -> pd.DataFrame:
    """One row per rung and seat: share, lo, hi (from the ``seats`` answers)."""
    full = pd.DataFrame(getattr(table, "full", table))
    part = full[full["question"] == "seats"].set_index("population")
    missing = [r for r in rungs if r not in part.index]
    if missing:
        raise ValueError(f"no seat answer for rung {missing[0]!r}")
    rows = []
    for i, r in enumerate(rungs):
        for seat, share, lo, hi in part.loc[r, "seats"]:
            rows.append({"rung": i, "seat": int(seat), "share": float(share),
                         "lo": float(lo), "hi": float(hi)})
    return pd.DataFrame(rows)


def plot_seats_by_rung(ladders: Mapping[int, Ladder], *, save: Save = None) -> Figure:
    """Win share by seat against rung, one panel per player count (under each other):
    x the rungs in order (novice left), one line per seat with its Wilson 95% interval
    as a band, the fair share 1/N dashed. ``ladders``: player count → (answers table of a
    ladder study, its rung labels novice first)."""
    if not ladders:
        raise ValueError("no ladder to plot")
    n = len(ladders)
    fig = Figure(figsize=(NOTEBOOK_INCHES, 0.9 + 2.9 * n), layout="constrained")
    axes = fig.subplots(n, 1, squeeze=False)[:, 0]
    most = 0
    for ax, (players, (table, rungs)) in zip(axes, ladders.items(), strict=True):
        shares = _shares(table, rungs)
        seats = sorted(shares["seat"].unique())
        most = max(most, len(seats))
        x = np.arange(len(rungs))
        for k, seat in enumerate(seats):
            s = shares[shares["seat"] == seat].sort_values("rung")
            colour = SEAT_COLOURS[k % len(SEAT_COLOURS)]
            offset = (k - (len(seats) - 1) / 2) * 0.04  # the bands side by side, not hidden
            ax.fill_between(s["rung"] + offset, s["lo"], s["hi"], color=colour, alpha=0.15,
                            lw=0)
            ax.plot(s["rung"] + offset, s["share"], marker="o", color=colour, lw=1.6)
        ax.axhline(1 / len(seats), color="black", ls="--", lw=0.8)
        ax.set_xticks(x, [str(r) for r in rungs])
        ax.set_xlim(-0.4, len(rungs) - 0.6)
        ax.yaxis.set_major_formatter(percent_axis())
        ax.set_ylabel("win share")
        ax.set_title(f"{players} players: win share by seat, rung by rung")
        ax.grid(axis="y", alpha=0.3)
    axes[-1].set_xlabel("skill ladder rung (novice left); bands: Wilson 95%; dashed: fair "
                        "share 1/N")
    labels = [seat_name(s) for s in range(most)]
    handles = [Line2D([], [], color=SEAT_COLOURS[k % len(SEAT_COLOURS)], marker="o",
                      label=label) for k, label in enumerate(labels)]
    fig.legend(handles=handles, loc="outside lower center", frameon=False, title="seat",
               ncols=legend_columns(labels))
    return finish_figure(fig, save)
