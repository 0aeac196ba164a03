"""What every figure of :mod:`hansa_lab.stats.plots` shares: one colour per strategy, score
category and end reason, the categories in the game's words, fonts that stay legible at
notebook width, panel grids and axes, and saving a figure."""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from hansa_lab.stats.tables import GAME_KEYS

Save = str | os.PathLike[str] | None


KEYS = GAME_KEYS


#: The resolution a notebook shows a figure at: Jupyter's inline backend (and the HTML
#: report) draw a figure at matplotlib's ``figure.dpi``, 100 unless changed, one image
#: pixel per CSS pixel.
NOTEBOOK_DPI = 100

#: The width of a notebook's output area at a 1280 px window with the sidebar open, in
#: CSS pixels: a wider figure is scaled down to it and its fonts shrink with it.
NOTEBOOK_WIDTH_PX = 850

#: The margin around a figure shown inline or saved with a tight bounding box, in inches
#: (matplotlib's ``savefig.pad_inches``).
PAD_INCHES = 0.1

#: The widest figure, in inches: every figure's default size, with its margins, fits a
#: notebook's output (:data:`NOTEBOOK_WIDTH_PX` at :data:`NOTEBOOK_DPI`: 8.3 in).
NOTEBOOK_INCHES = NOTEBOOK_WIDTH_PX / NOTEBOOK_DPI - 2 * PAD_INCHES


#: The smallest font any figure shows at notebook width, in points.
MIN_FONT_PT = 8.5


def _legible(fig: Figure) -> None:
    """Raise every font of ``fig`` that would read smaller than :data:`MIN_FONT_PT` at
    notebook width: a figure up to :data:`NOTEBOOK_INCHES` wide is shown at its own
    size, a wider one scaled down to that width (its fonts shrink by the same factor).
    Nothing is drawn: the figure's width is known, and laying it out is left to the
    notebook or ``savefig``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)  # a canvas that can draw, for callers that measure it
    floor = MIN_FONT_PT * max(1.0, fig.get_figwidth() / NOTEBOOK_INCHES)
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            size = min((float(t.get_fontsize()) for t in axis.get_ticklabels()),
                       default=floor)
            if size < floor - 1e-6:
                ax.tick_params(axis="x" if axis is ax.xaxis else "y", labelsize=floor)
    for t in fig.findobj(Text):
        if float(t.get_fontsize()) < floor - 1e-6:
            t.set_fontsize(floor)


def percent_axis() -> mpl.ticker.PercentFormatter:
    """Tick labels of a share axis (0–1) as percentages, like the tables."""
    return mpl.ticker.PercentFormatter(xmax=1.0, decimals=0)


def finish_figure(fig: Figure, save: Save, dpi: int = 120) -> Figure:
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


def colours_for(labels: Sequence[Any], palette: dict[str, str] | None = None) -> dict[Any, Any]:
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
    return colours_for(labels, STRATEGY_COLOURS if by in ("strategy", "strategy_name") else None)


def category_label(cat: str) -> str:
    """A score category in the game's words (``track`` → ``prestige track``)."""
    return CATEGORY_LABELS.get(cat, cat.replace("_", " "))


def integer_axis(ax: Axes, axis: str, values: Sequence[float] | np.ndarray) -> None:
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


class GridShape(NamedTuple):
    """Rows and columns of a grid of panels."""

    rows: int
    columns: int


def grid_shape(n: int, max_columns: int) -> GridShape:
    """The grid for ``n`` panels, at most ``max_columns`` side by side, with the rows as
    even as they can be: 4 panels at 3 columns are 2 × 2 (not 3 + 1), 5 are 3 + 2, 7
    are 3 + 3 + 1; as many as fit make one row.

    >>> grid_shape(4, 3), grid_shape(5, 3), grid_shape(4, 4)
    (GridShape(rows=2, columns=2), GridShape(rows=2, columns=3), GridShape(rows=1, columns=4))
    """
    if n < 1 or max_columns < 1:
        raise ValueError(f"a grid needs at least one panel and one column, got {n}, "
                         f"{max_columns}")
    rows = math.ceil(n / max_columns)
    return GridShape(rows, math.ceil(n / rows))


def panel_grid(fig: Figure, n: int, max_columns: int, **subplots: Any) -> list[Axes]:
    """``n`` panels of ``fig`` laid out by :func:`grid_shape`, in reading order (the
    grid's unused cells hidden)."""
    shape = grid_shape(n, max_columns)
    axes = np.atleast_1d(fig.subplots(*shape, squeeze=False, **subplots)).ravel().tolist()
    for ax in axes[n:]:
        ax.set_visible(False)
    return axes[:n]


def wrap_label(text: str, width: int = 10) -> str:
    """A category label broken onto lines of about ``width`` characters, so that labels
    side by side never run into each other (``"Coellen / special prestige"`` →
    ``"Coellen /\\nspecial\\nprestige"``); a single long word stays whole.

    >>> wrap_label("prestige track")
    'prestige\\ntrack'
    """
    return "\n".join(textwrap.wrap(text, width, break_long_words=False,
                                   break_on_hyphens=False)) or text


def legend_columns(labels: Sequence[str], fontsize: float = 9.0,
                   width: float = NOTEBOOK_INCHES) -> int:
    """How many columns a legend of ``labels`` can have and stay within ``width``
    inches (each entry: its marker, the text at about 0.6 em per character, a gap)."""
    em = fontsize / 72
    widest = max((len(s) for s in labels), default=1)
    entry = 2.8 * em + 0.6 * em * widest
    return max(1, min(len(labels), int(width * 0.95 // entry)))


def with_players_column(df: pd.DataFrame, players: pd.DataFrame, column: str) -> pd.DataFrame:
    """``df`` with ``column`` of ``players`` joined by game and seat."""
    if column in df.columns:
        return df
    return df.merge(players[[*KEYS, "seat", column]], on=[*KEYS, "seat"], how="inner")


def facet_title(split: str | None, value: Any) -> str:
    if split is None:
        return "all games"
    if split == "n_players":
        return f"{value} players"
    return f"{split} = {value}"


#: The narrowest panel of the seat-advantage grid, in inches (four fit side by side in
#: :data:`NOTEBOOK_INCHES` with the row labels).
PANEL_WIDTH = 1.8


#: The most panels side by side in a grid figure (more wrap onto the next row, by
#: :func:`grid_shape`), so that it stays legible at notebook width.
MAX_COLUMNS = 4
