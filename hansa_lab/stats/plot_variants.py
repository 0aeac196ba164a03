"""The figure of "which variant is most balanced?": one row per variant, seat 0 (first
player)'s advantage over its fair share with its simultaneous 95% interval, the variants
that cannot be told apart from the best marked (:mod:`hansa_lab.stats.best`)."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from hansa_lab.stats.answers import seat_name
from hansa_lab.stats.best import MostBalanced
from hansa_lab.stats.plot_style import NOTEBOOK_INCHES, Save, finish_figure, percent_axis

__all__ = ["plot_best_variant"]

#: The best set's colour and the others'.
IN_SET = "#009E73"
OUTSIDE = "#7f7f7f"


def plot_best_variant(answer: MostBalanced | Any, *, save: Save = None) -> Figure:
    """Seat 0 (first player)'s advantage per variant of a sweep — its win share minus the
    fair share, 0 is balanced — with the simultaneous 95% intervals the answer is
    decided on. The variants that cannot be told apart from the best are green (the
    best, when it stands alone, with a star); a marker is filled when its word is a
    finding ("best", "worse than the best": :attr:`Answer.filled
    <hansa_lab.stats.answers.Answer.filled>`), hollow otherwise. The title is the answer
    line's word. ``answer``: a :class:`~hansa_lab.stats.best.MostBalanced`, or a
    :class:`~hansa_lab.stats.balance.BalanceAnswers` (its first sweep). The records drawn
    are kept as ``fig._hansa_answers``.

    >>> import pandas as pd
    >>> from hansa_lab.stats.best import most_balanced_of
    >>> t = pd.DataFrame({"options": ["a", "b"], "games": [900, 900], "fair": 1 / 3,
    ...                   "first_seat_wins": [300.0, 420.0], "seat_gap": 0.0,
    ...                   "gap_lo": 0.0, "gap_hi": 0.1})
    >>> fig = plot_best_variant(most_balanced_of(t))
    >>> [(a.word, a.filled) for a in fig._hansa_answers[1:]]
    [('best', True), ('worse than the best', True)]
    """
    sweep: MostBalanced = answer if isinstance(answer, MostBalanced) else answer.sweeps[0]
    variants = sweep.variants
    n = len(variants)
    fig = Figure(figsize=(min(NOTEBOOK_INCHES, 7.2), 1.9 + 0.42 * n), layout="constrained")
    ax = fig.add_subplot()
    ax.axvline(0.0, color="#333333", linestyle="--", linewidth=1)
    for row, a in enumerate(variants):
        y = n - 1 - row
        colour = IN_SET if a.details["in_best_set"] else OUTSIDE
        ax.plot([a.lo, a.hi], [y, y], color=colour, linewidth=2.2, solid_capstyle="butt")
        marker = "*" if a.word == "best" else "o"
        ax.plot([a.estimate], [y], marker=marker, markersize=13 if marker == "*" else 8,
                color=colour, markerfacecolor=colour if a.filled else "white",
                markeredgewidth=1.6, linestyle="none")
    ax.set_yticks(range(n), [a.details["variant"] for a in reversed(variants)])
    ax.xaxis.set_major_formatter(percent_axis())
    ax.set_xlabel(f"{seat_name(0)}: win share minus its fair share "
                  f"({variants[0].details['fair']:.0%}); 0 = balanced")
    ax.set_ylim(-0.7, n - 0.3)
    who = f", {sweep.answer.population} players" if sweep.answer.population else ""
    counts = {a.games for a in variants}
    size = f"{min(counts):,}{'' if len(counts) == 1 else ' or more'}"
    ax.set_title(f"Most balanced: {sweep.answer.word}\n{size} games per variant{who}\n"
                 "(simultaneous 95% intervals)", loc="left", fontsize=10)
    fig.legend(handles=[
        Patch(color=IN_SET, label="cannot be told apart from the best"),
        Patch(color=OUTSIDE, label="worse than the best"),
        Line2D([], [], color="#333333", linestyle="--", label="fair share")],
        loc="outside lower center", ncols=3, frameon=False, fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig._hansa_answers = [sweep.answer, *variants]  # type: ignore[attr-defined]
    return finish_figure(fig, save)
