"""Tables people can read: a result frame that *shows* its essential columns in one
display style while it *holds* every column.

The style, the same in a notebook (HTML), at the terminal (text) and in the report:

- percentages as percentages (a win share 0.375 shows as ``37.5%``; a difference of
  shares as ``+2.3%``), counts as integers, p-values in the one format of
  :func:`~hansa_lab.stats.verdicts.format_p`, missing values as ``<NA>``;
- an estimate with its interval in one cell on one line, ``32.1 [31.5, 32.8]`` (the HTML
  cell never breaks);
- no column without a value (named once under the table);
- a value the same in every row said once, under the table, and a long text repeated in
  several rows (a verdict sentence) replaced by a note mark ``[1]`` and said once;
- a table wider than :data:`MAX_WIDTH` characters split into blocks of columns, each
  repeating the row labels, or, with at most :data:`TRANSPOSE_ROWS` rows, transposed.

A :class:`ReadableFrame` is an ordinary :class:`pandas.DataFrame` with all the columns
(``frame["p_win_holm"]`` works, and so does every pandas operation, which returns plain
frames; a selection of columns, ``frame[["a", "b"]]``, keeps the style and shows those
columns). Only its display differs: ``frame.full`` is the plain frame with every column,
``frame.shown`` the formatted essential columns, ``frame.layout()`` the :class:`Layout`
displayed (the tables and the notes under them).

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
import textwrap
from dataclasses import dataclass, replace
from html import escape
from typing import Any, ClassVar

import numpy as np
import pandas as pd

__all__ = ["LABEL_COLUMNS", "MAX_WIDTH", "TRANSPOSE_ROWS", "Layout", "ReadableFrame", "View",
           "arrange", "readable", "table_html", "table_text", "view_for"]

#: The widest table shown, in characters (a terminal of 100 columns; about 800 px of a
#: notebook's output or the report's page at its table font).
MAX_WIDTH = 100
#: A wide table with at most this many rows is transposed rather than split.
TRANSPOSE_ROWS = 3
#: A text at least this long repeated in several rows is said once, as a note.
NOTE_LENGTH = 25
#: Numeric columns that name a row rather than measure it (besides every text column).
LABEL_COLUMNS = ("n_players", "seat", "game_id", "seed", "rotation", "round", "turn")
#: How the estimate/interval columns of plain result frames are named (``view_for``).
KNOWN_INTERVALS = (("win_rate", "win_lo", "win_hi"), ("mean_score", "score_lo", "score_hi"),
                   ("score_diff", "diff_lo", "diff_hi"), ("diff", "diff_lo", "diff_hi"),
                   ("win_diff", "win_diff_lo", "win_diff_hi"), ("rate", "lo", "hi"),
                   ("mean", "lo", "hi"), ("estimate", "lo", "hi"))


@dataclass(frozen=True)
class View:
    """Which columns a result frame shows and how.

    ``columns``: the essential columns, in order (those absent from a frame are skipped);
    ``percent``: columns holding shares (0.25 → ``25.0%``); an estimate ``x`` with
    columns ``x_lo``/``x_hi`` (or the pairs in ``intervals``) shows as
    ``x [lo, hi]``; columns named ``p_*`` show as p-values; ``signed``: differences,
    shown with their sign. A frame whose rows have different units names them in the
    column ``unit``; ``per_unit`` columns of a row whose unit is a key of
    ``percent_units`` show as percentages, the value times its scale (100 for a share,
    1 for percentage points)."""

    columns: tuple[str, ...]
    percent: tuple[str, ...] = ()
    signed: tuple[str, ...] = ("diff", "win_diff", "score_diff", "first_seat_adv")
    intervals: tuple[tuple[str, str, str], ...] = ()
    unit: str | None = None
    per_unit: tuple[str, ...] = ()
    percent_units: tuple[tuple[str, float], ...] = ()

    def interval_of(self, col: str, present: set[str] | pd.Index) -> tuple[str, str] | None:
        for name, lo, hi in self.intervals:
            if name == col and lo in present and hi in present:
                return lo, hi
        for lo, hi in ((f"{col}_lo", f"{col}_hi"),):
            if lo in present and hi in present:
                return lo, hi
        return None

    def selected(self, columns: list[Any], present: pd.Index) -> View:
        """This view for the chosen ``columns`` (in that order): the interval bounds of a
        chosen estimate go into its cell rather than into columns of their own."""
        chosen = [c for c in columns if isinstance(c, str)]
        bounds = {b for c in chosen for b in (self.interval_of(c, present) or ())}
        return replace(self, columns=tuple(c for c in chosen if c not in bounds))


def view_for(frame: pd.DataFrame) -> View:
    """The view of a plain result frame from its column names: every column; shares
    (``win*`` columns, ``rate``, ``fair``) as percentages; the estimates of
    :data:`KNOWN_INTERVALS` with their intervals.

    >>> view_for(pd.DataFrame(columns=["arm", "win_rate", "win_lo", "win_hi"])).columns
    ('arm', 'win_rate')
    """
    present = frame.columns
    intervals = tuple(t for t in KNOWN_INTERVALS if all(c in present for c in t))
    shares = tuple(c for c in map(str, present) if not c.startswith("p_") and (
        "win" in c or c == "fair" or (c in ("rate", "lo", "hi") and "rate" in present)))
    view = View(columns=(), percent=shares, intervals=intervals)
    return view.selected(list(present), present)


def _missing(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float | np.floating) and math.isnan(v))


def _integral(values: list[Any]) -> bool:
    """Whether every value of a column is a whole number (then none shows decimals)."""
    return all(_missing(v) or isinstance(v, bool | np.bool_ | str | int | np.integer)
               or (isinstance(v, float | np.floating) and float(v).is_integer())
               for v in values)


def _cell(v: Any, *, pct: float | None = None, signed: bool = False,
          pvalue: bool = False, whole: bool = True) -> Any:
    """One value as shown: ``pct`` is the scale of a percentage (100 for a share);
    ``whole``: a whole number shows without decimals (false in a column of fractions,
    so that 36.0 beside 34.5 shows as 36.0)."""
    from hansa_lab.stats.verdicts import format_p

    if _missing(v):
        return pd.NA
    if isinstance(v, bool | np.bool_ | str):
        return v
    if pvalue:
        return format_p(float(v))
    if isinstance(v, float | np.floating | int | np.integer) and pct is not None:
        x = pct * float(v)
        return f"{x:+.1f}%" if signed else f"{x:.1f}%"
    if isinstance(v, float | np.floating):
        x = float(v)
        if whole and x.is_integer() and not signed and abs(x) < 1e15:
            return str(int(x))
        return f"{x:+.1f}" if signed else f"{x:.3g}" if abs(x) < 1 else f"{x:.1f}"
    if isinstance(v, int | np.integer):
        return str(int(v))
    return v


@dataclass(frozen=True)
class Layout:
    """What a readable frame displays: ``tables`` (one, or blocks of columns that each
    repeat the row labels, or one transposed table), the values the same in every row
    (``constants``: column → value), the long texts said once (``notes``: mark → text),
    the columns without any value (``empty``) and those only in ``.full`` (``hidden``).
    ``interval_columns``: the columns whose cells hold an estimate with its interval."""

    tables: tuple[pd.DataFrame, ...]
    transposed: bool = False
    constants: tuple[tuple[str, str], ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    empty: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    interval_columns: tuple[str, ...] = ()

    def captions(self, width: int = MAX_WIDTH) -> list[str]:
        """The lines under the table(s), none longer than ``width`` characters."""
        lines = self._caption_lines()
        return [part for line in lines for part in textwrap.wrap(
            line, width, subsequent_indent="  ", break_on_hyphens=False)]

    def _caption_lines(self) -> list[str]:
        out = []
        if self.constants:
            out.append("Same in every row: " + "; ".join(f"{k} = {v}" for k, v in self.constants))
        out += [f"{mark} {text}" for mark, text in self.notes]
        if self.empty:
            out.append(f"No values: {', '.join(self.empty)}")
        if self.hidden:
            out.append(f"({len(self.hidden)} more columns in .full: {', '.join(self.hidden)})")
        return out

    def text(self) -> str:
        """The tables as aligned text (blocks separated by a blank line), then the
        captions."""
        blocks = [t.to_string() for t in self.tables]
        return "\n".join(["\n\n".join(blocks), *self.captions()])

    def html(self) -> str:
        """The tables as HTML, each in a horizontally scrollable box, interval cells on one
        line, then the captions."""
        parts = [_html_table(t, self) for t in self.tables]  # blocks a line apart
        notes = "".join(f"<div>{escape(line)}</div>" for line in self._caption_lines())
        caption = (f'<div class="hansa-notes" style="font-size:.85em;color:#555;'
                   f'margin:.2em 0 .8em">{notes}</div>' if notes else "")
        return f'<div class="hansa-table">{"".join(parts)}{caption}</div>'


def _html_table(t: pd.DataFrame, layout: Layout) -> str:
    keep_index = layout.transposed or not isinstance(t.index, pd.RangeIndex)
    one_line = set(layout.interval_columns)

    def td(v: Any, col: Any, row: Any) -> str:
        text = "<NA>" if _missing(v) else str(v)
        whole = (row if layout.transposed else col) in one_line
        if whole:  # an estimate and its interval never break
            return (f'<td style="white-space:nowrap">'
                    f"{escape(text).replace(' ', '&nbsp;')}</td>")
        return f"<td>{escape(text)}</td>"

    head = "".join(f"<th>{escape(str(c))}</th>" for c in t.columns)
    corner = "<th></th>" if keep_index else ""
    rows = []
    for idx, values in zip(t.index, t.itertuples(index=False, name=None), strict=True):
        label = f"<th>{escape(str(idx))}</th>" if keep_index else ""
        rows.append("<tr>" + label + "".join(td(v, c, idx) for v, c in
                                            zip(values, t.columns, strict=True)) + "</tr>")
    return ('<div style="overflow-x:auto;max-width:100%;margin-bottom:.6em">'
            '<table class="hansa-frame" style="border-collapse:collapse">'
            f"<thead><tr>{corner}{head}</tr></thead><tbody>{''.join(rows)}</tbody>"
            "</table></div>")


def _text_width(table: pd.DataFrame) -> int:
    """The longest line of ``table`` as text."""
    return max(map(len, table.to_string().splitlines()), default=0)


def _width(col: pd.Series, name: Any) -> int:
    cells = ["<NA>" if _missing(v) else str(v) for v in col]
    return max([len(str(name)), *map(len, cells)])


def _labels(table: pd.DataFrame, names: set[str], widths: dict[Any, int],
            width: int) -> list[Any]:
    """The leading columns that name a row (``names``: text columns and
    :data:`LABEL_COLUMNS`), within half the width: repeated in each block of a split
    table, joined as the column names of a transposed one."""
    out: list[Any] = []
    used = 0
    for c in table.columns:
        if c not in names or used + widths[c] + 2 > width // 2:
            break
        out.append(c)
        used += widths[c] + 2
    return out


def arrange(shown: pd.DataFrame, *, measures: set[str], intervals: set[str],
            names: set[str], hidden: tuple[str, ...] = (), width: int = MAX_WIDTH) -> Layout:
    """The :class:`Layout` of a formatted table ``shown`` (cells as text): ``measures`` are
    the columns never said once under the table (the estimates), ``intervals`` those
    whose cells hold an interval, ``names`` those that may name a row."""
    empty = tuple(str(c) for c in shown.columns if shown[c].isna().all())
    table = shown.drop(columns=list(empty))
    constants: list[tuple[str, str]] = []
    if len(table) >= 2:
        for c in list(table.columns):
            if c in measures or len(table.columns) == 1:
                continue
            values = table[c]
            if values.notna().all() and values.astype(str).nunique() == 1:
                constants.append((str(c), str(values.iloc[0])))
                table = table.drop(columns=[c])
    notes: dict[str, str] = {}
    for c in table.columns:
        values = table[c]
        if not values.map(lambda v: isinstance(v, str)).any():
            continue
        counts = values.dropna().astype(str).value_counts()
        long = [v for v, k in counts.items() if k >= 2 and len(v) >= NOTE_LENGTH]
        if long:
            marks = {v: notes.setdefault(v, f"[{len(notes) + 1}]") for v in long}
            table[c] = pd.array([marks.get(v, v) if isinstance(v, str) else v
                                 for v in values], dtype=values.dtype)
    index_width = max(len(str(i)) for i in table.index) if len(table) else 1
    widths = {c: _width(table[c], c) for c in table.columns}
    total = _text_width(table)
    tables: tuple[pd.DataFrame, ...] = (table,)
    transposed = False
    if total > width and len(table.columns) > 1:
        labels = _labels(table, names, widths, width)
        rest = [c for c in table.columns if c not in labels]
        if len(table) <= TRANSPOSE_ROWS:
            heads = [" · ".join(str(table.at[i, c]) for c in labels) or str(i)
                     for i in table.index]
            flipped = table[rest].T
            flipped.columns = pd.Index(heads if len(set(heads)) == len(heads)
                                       else [str(i) for i in table.index])
            tables, transposed = (flipped,), True
        else:
            base = index_width + sum(widths[c] + 2 for c in labels)
            sizes = [widths[c] + 2 for c in rest]
            k = len(_blocks(sizes, width - base))
            room = next(r for r in range(min(width - base, -(-sum(sizes) // k)),
                                         width - base + 1) if len(_blocks(sizes, r)) <= k)
            tables = tuple(table[[*labels, *(rest[i] for i in b)]]  # blocks of like width
                           for b in _blocks(sizes, room))
    return Layout(tables=tables, transposed=transposed, constants=tuple(constants),
                  notes=tuple((m, v) for v, m in notes.items()), empty=empty,
                  hidden=hidden, interval_columns=tuple(sorted(map(str, intervals))))


def _blocks(sizes: list[int], room: int) -> list[list[int]]:
    """Consecutive columns (their widths ``sizes``) packed into blocks of at most ``room``
    (a column wider than that alone in its block): the blocks' column positions."""
    blocks: list[list[int]] = [[]]
    used = 0
    for i, size in enumerate(sizes):
        if blocks[-1] and used + size > room:
            blocks.append([])
            used = 0
        blocks[-1].append(i)
        used += size
    return blocks


class ReadableFrame(pd.DataFrame):
    """A result frame with every column, displayed through its :class:`View` (see the
    module text). Derived frames (arithmetic, copies, row selections) are plain frames;
    a selection of columns keeps the display style."""

    _metadata: ClassVar[list[str]] = ["_view"]
    _view: View

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame

    def __getitem__(self, key: Any) -> Any:
        out = super().__getitem__(key)
        if (isinstance(out, pd.DataFrame) and isinstance(key, list | tuple | pd.Index)
                and getattr(self, "_view", None) is not None
                and all(k in self.columns for k in key)):
            return readable(out, self._view.selected(list(key), out.columns))
        return out

    @property
    def full(self) -> pd.DataFrame:
        """Every column, as a plain :class:`pandas.DataFrame`."""
        return pd.DataFrame(self, copy=True)

    @property
    def shown(self) -> pd.DataFrame:
        """The essential columns, formatted as text (what the frame displays)."""
        view = self._view
        present = set(self.columns)
        scales = dict(view.percent_units)
        units = ([str(u) for u in self[view.unit]] if view.unit in present
                 else [""] * len(self))
        out: dict[str, Any] = {}
        for col in view.columns:
            if col not in present:
                continue
            signed = col in view.signed
            pair = view.interval_of(col, present)
            pcts = [scales.get(u) if col in view.per_unit else 100.0 if col in view.percent
                    else None for u in units]
            values = self[col].tolist()
            if pair is not None:
                lo, hi = self[pair[0]].tolist(), self[pair[1]].tolist()
                whole = _integral(values + lo + hi)
                cells = []
                for v, a, b, pct in zip(values, lo, hi, pcts, strict=True):
                    c = _cell(v, pct=pct, signed=signed, whole=whole)
                    if c is pd.NA:
                        cells.append(pd.NA)
                        continue
                    ca = _cell(a, pct=pct, signed=signed, whole=whole)
                    cb = _cell(b, pct=pct, signed=signed, whole=whole)
                    cells.append(c if ca is pd.NA or cb is pd.NA else f"{c} [{ca}, {cb}]")
            else:
                whole = _integral(values)
                cells = [_cell(v, pct=pct, signed=signed, pvalue=col.startswith("p_"),
                               whole=whole) for v, pct in zip(values, pcts, strict=True)]
            out[col] = pd.array(cells, dtype="string") if any(
                isinstance(c, str) for c in cells) else cells
        return pd.DataFrame(out, index=self.index)

    def _hidden(self, shown: pd.DataFrame) -> tuple[str, ...]:
        return tuple(str(c) for c in self.columns if c not in set(shown.columns))

    def layout(self, width: int = MAX_WIDTH) -> Layout:
        """What the frame displays (:func:`arrange` of :attr:`shown`) at ``width``
        characters."""
        shown = self.shown
        present = set(self.columns)
        intervals = {c for c in shown.columns if self._view.interval_of(c, present)}
        measures = intervals | {c for c in shown.columns if c in self._view.signed}
        names = {c for c in shown.columns if c in LABEL_COLUMNS or not (
            pd.api.types.is_numeric_dtype(self[c]) or pd.api.types.is_bool_dtype(self[c]))}
        return arrange(shown, measures=measures, intervals=intervals, names=names,
                       hidden=self._hidden(shown), width=width)

    def __repr__(self) -> str:
        return self.layout().text()  # every essential column: no "..."

    def _repr_html_(self) -> str | None:
        return self.layout().html()


def readable(frame: pd.DataFrame, view: View) -> ReadableFrame:
    """``frame`` (all its columns kept) displayed through ``view``."""
    out = ReadableFrame(frame)
    out._view = view
    return out


def table_text(frame: pd.DataFrame, width: int = MAX_WIDTH) -> str:
    """Any result frame as text in the display style (a plain frame through
    :func:`view_for`)."""
    shown = frame if isinstance(frame, ReadableFrame) else readable(frame, view_for(frame))
    return shown.layout(width).text()


def table_html(frame: pd.DataFrame, width: int = MAX_WIDTH) -> str:
    """Any result frame as HTML in the display style (a plain frame through
    :func:`view_for`): what the report shows (a page, so without the note on the
    columns only ``.full`` shows)."""
    shown = frame if isinstance(frame, ReadableFrame) else readable(frame, view_for(frame))
    return replace(shown.layout(width), hidden=()).html()
