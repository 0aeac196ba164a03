"""Tables people can read: a result frame that *shows* its essential columns, formatted
(percentages as percentages, counts as integers, an estimate with its interval in one
cell, p-values in the one format of :func:`~hansa_lab.stats.verdicts.format_p`, missing
values as ``<NA>``), while it *holds* every column.

A :class:`ReadableFrame` is an ordinary :class:`pandas.DataFrame` with all the columns
(``frame["p_win_holm"]`` works, and so does every pandas operation, which returns plain
frames); only its display differs. ``frame.full`` is the plain frame with every column,
``frame.shown`` the formatted table that is displayed.

>>> t = pd.DataFrame({"arm": ["tip"], "n_deals": [12.0], "diff": [1.234], "diff_lo": [0.2],
...                   "diff_hi": [2.3], "win_rate": [0.4567], "p_holm": [0.97812],
...                   "se_paired": [0.5]})
>>> v = readable(t, View(columns=("arm", "n_deals", "diff", "win_rate", "p_holm"),
...                      percent=("win_rate",)))
>>> v
   arm n_deals               diff win_rate p_holm
0  tip      12  +1.2 [+0.2, +2.3]    45.7%  0.978
(3 more columns in .full: diff_lo, diff_hi, se_paired)
>>> float(v["se_paired"].iloc[0]), type(v.full).__name__
(0.5, 'DataFrame')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

__all__ = ["ReadableFrame", "View", "readable"]


@dataclass(frozen=True)
class View:
    """Which columns a result frame shows and how.

    ``columns``: the essential columns, in order (those absent from a frame are skipped);
    ``percent``: columns holding shares (0.25 → ``25.0%``); an estimate ``x`` with
    columns ``x_lo``/``x_hi`` (or the pairs in ``intervals``) shows as
    ``x [lo, hi]``; columns named ``p_*`` show as p-values; ``signed``: differences,
    shown with their sign."""

    columns: tuple[str, ...]
    percent: tuple[str, ...] = ()
    signed: tuple[str, ...] = ("diff", "win_diff", "score_diff", "first_seat_adv")
    intervals: tuple[tuple[str, str, str], ...] = ()

    def interval_of(self, col: str, present: set[str]) -> tuple[str, str] | None:
        for name, lo, hi in self.intervals:
            if name == col and lo in present and hi in present:
                return lo, hi
        for lo, hi in ((f"{col}_lo", f"{col}_hi"),):
            if lo in present and hi in present:
                return lo, hi
        return None


def _cell(v: Any, *, pct: bool = False, signed: bool = False, pvalue: bool = False) -> Any:
    from hansa_lab.stats.verdicts import format_p

    if v is None or v is pd.NA or (isinstance(v, float | np.floating) and math.isnan(v)):
        return pd.NA
    if isinstance(v, bool | np.bool_ | str):
        return v
    if pvalue:
        return format_p(float(v))
    if isinstance(v, float | np.floating):
        x = float(v)
        if pct:
            return f"{100 * x:+.1f}%" if signed else f"{100 * x:.1f}%"
        if x.is_integer() and not signed and abs(x) < 1e15:
            return str(int(x))
        return f"{x:+.1f}" if signed else f"{x:.3g}" if abs(x) < 1 else f"{x:.1f}"
    if isinstance(v, int | np.integer):
        return str(int(v))
    return v


class ReadableFrame(pd.DataFrame):
    """A result frame with every column, displayed through its :class:`View` (see the
    module text). Derived frames (selections, copies, arithmetic) are plain frames."""

    _metadata: ClassVar[list[str]] = ["_view"]
    _view: View

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame

    @property
    def full(self) -> pd.DataFrame:
        """Every column, as a plain :class:`pandas.DataFrame`."""
        return pd.DataFrame(self, copy=True)

    @property
    def shown(self) -> pd.DataFrame:
        """The essential columns, formatted as text (what the frame displays)."""
        view = self._view
        present = set(self.columns)
        out: dict[str, Any] = {}
        for col in view.columns:
            if col not in present:
                continue
            pct = col in view.percent
            signed = col in view.signed
            pair = view.interval_of(col, present)
            values = self[col].tolist()
            if pair is not None:
                lo, hi = self[pair[0]].tolist(), self[pair[1]].tolist()
                cells = []
                for v, a, b in zip(values, lo, hi, strict=True):
                    c = _cell(v, pct=pct, signed=signed)
                    if c is pd.NA:
                        cells.append(pd.NA)
                        continue
                    ca, cb = _cell(a, pct=pct, signed=signed), _cell(b, pct=pct, signed=signed)
                    cells.append(c if ca is pd.NA or cb is pd.NA else f"{c} [{ca}, {cb}]")
            else:
                cells = [_cell(v, pct=pct, signed=signed, pvalue=col.startswith("p_"))
                         for v in values]
            out[col] = pd.array(cells, dtype="string") if any(
                isinstance(c, str) for c in cells) else cells
        return pd.DataFrame(out, index=self.index)

    def _hidden(self) -> list[str]:
        shown = set(self.shown.columns)
        return [c for c in self.columns if c not in shown]

    def _note(self) -> str:
        hidden = self._hidden()
        if not hidden:
            return ""
        return f"({len(hidden)} more columns in .full: {', '.join(map(str, hidden))})"

    def __repr__(self) -> str:
        text = self.shown.to_string()  # every essential column: no "..."
        note = self._note()
        return f"{text}\n{note}" if note else text

    def _repr_html_(self) -> str | None:
        html = self.shown._repr_html_()
        note = self._note()
        return f"{html}<p><small>{note}</small></p>" if note and html else html


def readable(frame: pd.DataFrame, view: View) -> ReadableFrame:
    """``frame`` (all its columns kept) displayed through ``view``."""
    out = ReadableFrame(frame)
    out._view = view
    return out
