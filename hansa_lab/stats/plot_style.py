"""What every figure of :mod:`hansa_lab.stats.plots` shares: one colour per strategy, score
category and end reason, the categories in the game's words, fonts that stay legible at
notebook width, panel grids and axes, and saving a figure."""

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

from hansa_lab.stats.tables import GAME_KEYS

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


def panel_grid(fig: Figure, n: int, ncols: int) -> list[Axes]:
    nrows = max(1, math.ceil(n / ncols))
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel().tolist()
    for ax in axes[n:]:
        ax.set_visible(False)
    return axes[:n]


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


#: The narrowest panel a grid figure draws, in inches (at the 100 dpi of the HTML report
#: that is 300 px, at the 120 dpi of saved files 360 px).
PANEL_WIDTH = 3.0


#: The most panels side by side in a grid figure (more wrap onto the next row), so that
#: it stays legible at notebook width.
MAX_COLUMNS = 3
