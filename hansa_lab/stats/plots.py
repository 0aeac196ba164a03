"""Figures of the run tables and of :mod:`hansa_lab.stats` results (matplotlib).

Every function returns a :class:`matplotlib.figure.Figure` (made without ``pyplot``, so
nothing is left open; Jupyter shows a returned figure inline) and takes ``save=None`` or
a path: the figure is then written there (format from the suffix, e.g. ``.png``,
``.pdf``), creating the folder, e.g. ``save="results/strategy_tips/ratings.png"``.
Every figure's default size fits a notebook's output (850 px at the 100 dpi Jupyter
shows it at, :data:`~hansa_lab.stats.plot_style.NOTEBOOK_WIDTH_PX`) with every text at
8.5 pt or more: long names wrap or lie along a horizontal bar, legends sit below the
panels, and grids of panels wrap evenly (:func:`~hansa_lab.stats.plot_style.grid_shape`).

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

from hansa_lab.stats.plot_results import (
    plot_comparison,
    plot_end_reasons,
    plot_leader_wins,
    plot_ratings,
    plot_seat_advantage,
    plot_sequential,
)
from hansa_lab.stats.plot_scores import (
    plot_ability_timing,
    plot_score_breakdown,
    plot_score_composition,
    plot_trajectories,
)
from hansa_lab.stats.plot_style import (
    CATEGORY_COLOURS,
    CATEGORY_LABELS,
    END_REASON_COLOURS,
    STRATEGY_COLOURS,
    category_label,
    group_colours,
)

# the panel width the seat-advantage figure is laid out with (tests read it here)
from hansa_lab.stats.plot_style import PANEL_WIDTH as PANEL_WIDTH

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
