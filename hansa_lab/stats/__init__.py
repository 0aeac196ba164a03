"""Statistics on the run tables (:data:`hansa_lab.sim.logs.SCHEMA`): pure functions of
DataFrames, and their figures.

What is here (every name below is importable from ``hansa_lab.stats``):

- :mod:`~hansa_lab.stats.intervals` — distributions and intervals: :func:`norm_cdf`,
  :func:`chi2_sf`, :func:`t_sf`, :func:`t_quantile`, :func:`z_quantile`, the Wilson
  interval :func:`wilson_interval`, the t interval :func:`mean_interval`,
  :func:`clustered_se`, :func:`bootstrap_ci`;
- :mod:`~hansa_lab.stats.tables` — the tables' keys (:data:`GAME_KEYS`,
  :data:`CONDITION_COLUMNS`), :func:`with_games`, :func:`lineup_period`;
- :mod:`~hansa_lab.stats.summaries` — :func:`win_rates`, :func:`mean_scores`,
  :func:`score_differences`;
- :mod:`~hansa_lab.stats.paired` — arms on the same deals: :func:`paired_differences`,
  :func:`deal_means`, :func:`paired_comparison` (:func:`summarize_pairs` of given pairs),
  :func:`compare_arms`, :func:`holm`;
- :mod:`~hansa_lab.stats.ratings` — :func:`plackett_luce`;
- :mod:`~hansa_lab.stats.seats` — :func:`seat_advantage`;
- :mod:`~hansa_lab.stats.balance` — a balance objective per variant or group:
  :func:`balance_table` (first-seat advantage with interval, largest seat gap, spread of
  strategy win rates, game length, end-reason mix, lead changes), :func:`most_balanced`
  (which variant is most balanced: the variants that cannot be told apart from the best,
  with the game length in a band; :mod:`~hansa_lab.stats.best`);
- :mod:`~hansa_lab.stats.variants` — rule variants of a sweep against the unchanged game,
  paired by deal: :func:`variant_comparison` (score level, first-seat and focal win
  shares, game length, with verdicts), :func:`variant_values`;
- :mod:`~hansa_lab.stats.verdicts` — plain answers: :func:`comparison_verdicts` (helps /
  hurts / no clear effect / too few games to tell, and the deals a precision needs),
  :func:`seat_verdicts` (balanced only when the run had the power to see a gap that
  matters), :func:`detectable_difference`, :func:`detectable_seat_gap` (80% power),
  :func:`format_p` (every p-value a person reads);
- :mod:`~hansa_lab.stats.mechanism` — why the first seat wins: :func:`first_seat_mechanism`
  (first developments, first routes to the ability cities, the score gap by round);
- :mod:`~hansa_lab.stats.population_answers` — answers per population side by side:
  :func:`answers_table`, :func:`agreement_line` (agree / differ / no evidence they differ);
- :mod:`~hansa_lab.stats.play_style` — :func:`play_style` (third action, City Keys, Coellen,
  winners' scores: how a population plays);
- :mod:`~hansa_lab.stats.quality` — :func:`game_quality`, :func:`lead_changes`,
  :func:`leader_wins`, :func:`end_reason_mix`;
- :mod:`~hansa_lab.stats.sequential` — :func:`sequential_compare`,
  :func:`group_sequential_bounds`, :func:`alpha_spent`, :func:`planned_pairs`;
- :mod:`~hansa_lab.stats.display` — :class:`ReadableFrame`: result frames
  (:func:`compare_arms`, :func:`seat_advantage`, :func:`variant_comparison`,
  :func:`balance_table`) hold every column and display the essential ones, formatted
  (``.full``: all of them);
- :mod:`~hansa_lab.stats.synthetic` — :func:`synthetic_tables`, data with a known truth;
- :mod:`~hansa_lab.stats.plots` — matplotlib figures (``stats.plots.plot_ratings(...)``;
  loaded on first use, so importing ``hansa_lab.stats`` does not import matplotlib).

Every interval is 95% unless ``ci`` says otherwise. Seats of one game are not
independent observations, so means are clustered by game, bootstraps resample whole
games, and paired comparisons work on deals (see each function).

Imports: numpy, pandas (matplotlib in ``plots`` and its ``plot_*`` modules only), the
standard library, and :mod:`hansa_lab.engine` (score categories and abilities) — never
:mod:`hansa_lab.sim`, :mod:`hansa_lab.viz` or :mod:`hansa_lab.tools` (they build on this
package; e.g. :meth:`hansa_lab.sim.results.Results.summary` calls :func:`win_rates`).
Nothing here is imported by ``import hansa_lab``.

>>> from hansa_lab import stats
>>> t = stats.synthetic_tables(["plus5", "base"], n_deals=60, n_players=2, seed=1)
>>> stats.win_rates(t["players"])[["strategy", "n", "rate"]].round(2)
  strategy    n  rate
0     base  120  0.32
1    plus5  120  0.68
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hansa_lab.stats.balance import balance_table, most_balanced
from hansa_lab.stats.display import ReadableFrame, View, readable
from hansa_lab.stats.intervals import (
    binomial_sf,
    bootstrap_ci,
    chi2_sf,
    clustered_se,
    mean_interval,
    norm_cdf,
    t_quantile,
    t_sf,
    wilson_interval,
    z_quantile,
)
from hansa_lab.stats.mechanism import FirstSeatMechanism, first_seat_mechanism
from hansa_lab.stats.paired import (
    compare_arms,
    deal_means,
    holm,
    paired_comparison,
    paired_differences,
    summarize_pairs,
)
from hansa_lab.stats.play_style import play_style
from hansa_lab.stats.population_answers import PopulationAnswer, agreement_line, answers_table
from hansa_lab.stats.quality import (
    GameQuality,
    end_reason_mix,
    game_quality,
    lead_changes,
    leader_wins,
)
from hansa_lab.stats.ratings import ELO_PER_LOG, plackett_luce
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.sequential import (
    SequentialResult,
    alpha_spent,
    group_sequential_bounds,
    planned_pairs,
    sequential_compare,
)
from hansa_lab.stats.summaries import mean_scores, score_differences, win_rates
from hansa_lab.stats.synthetic import synthetic_tables
from hansa_lab.stats.tables import CONDITION_COLUMNS, GAME_KEYS, lineup_period, with_games
from hansa_lab.stats.variants import variant_comparison, variant_values
from hansa_lab.stats.verdicts import (
    comparison_verdicts,
    deals_for_half_width,
    detectable_difference,
    detectable_seat_gap,
    format_p,
    seat_verdicts,
)

if TYPE_CHECKING:
    from hansa_lab.stats import plots

__all__ = [
    "CONDITION_COLUMNS",
    "ELO_PER_LOG",
    "GAME_KEYS",
    "FirstSeatMechanism",
    "GameQuality",
    "PopulationAnswer",
    "ReadableFrame",
    "SequentialResult",
    "View",
    "agreement_line",
    "alpha_spent",
    "answers_table",
    "balance_table",
    "binomial_sf",
    "bootstrap_ci",
    "chi2_sf",
    "clustered_se",
    "compare_arms",
    "comparison_verdicts",
    "deal_means",
    "deals_for_half_width",
    "detectable_difference",
    "detectable_seat_gap",
    "end_reason_mix",
    "first_seat_mechanism",
    "format_p",
    "game_quality",
    "group_sequential_bounds",
    "holm",
    "lead_changes",
    "leader_wins",
    "lineup_period",
    "mean_interval",
    "mean_scores",
    "most_balanced",
    "norm_cdf",
    "paired_comparison",
    "paired_differences",
    "plackett_luce",
    "planned_pairs",
    "play_style",
    "plots",
    "readable",
    "score_differences",
    "seat_advantage",
    "seat_verdicts",
    "sequential_compare",
    "summarize_pairs",
    "synthetic_tables",
    "t_quantile",
    "t_sf",
    "variant_comparison",
    "variant_values",
    "wilson_interval",
    "win_rates",
    "with_games",
    "z_quantile",
]


def __getattr__(name: str) -> Any:
    """``stats.plots`` on first use (PEP 562): matplotlib loads only when a figure is asked."""
    if name == "plots":
        return importlib.import_module("hansa_lab.stats.plots")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
