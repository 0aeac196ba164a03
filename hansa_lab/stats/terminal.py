"""Text for a terminal of :data:`TERMINAL_WIDTH` columns: what ``hansa-lab main``,
``simulate`` and ``run`` print.

Sentences are wrapped at word boundaries (a continued line indented two more spaces than
its first); an aligned table wider than the terminal is split into blocks of columns, a
blank line apart, each block led by the columns that name its rows.

>>> print(wrap_text("  tip: helps: +3.9 points, and a sentence that goes on", width=30))
  tip: helps: +3.9 points, and
    a sentence that goes on
>>> print(aligned_table(["arm", "a", "b"], [["x", "y"], ["1", "2"], ["3", "4"]],
...                     keys=1, width=8))
arm  a
x    1
y    2
<BLANKLINE>
arm  b
x    3
y    4
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from hansa_lab.stats.display import MAX_WIDTH

__all__ = ["TERMINAL_WIDTH", "aligned_table", "column_blocks", "row_keys", "wrap_text"]

#: The widest line printed (the display style's widest table: a terminal of 100 columns).
TERMINAL_WIDTH = MAX_WIDTH
#: Spaces between two columns of an aligned table.
GAP = 2


def wrap_text(text: str, width: int = TERMINAL_WIDTH) -> str:
    """``text`` with every line longer than ``width`` wrapped at word boundaries: the
    continuation keeps the line's indent plus two spaces. A word longer than a line (a
    long path) is kept whole."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip(" "))]
        out.extend(textwrap.wrap(line.strip(), width, initial_indent=indent,
                                 subsequent_indent=indent + "  ", break_long_words=False,
                                 break_on_hyphens=False))
    return "\n".join(out)


def row_keys(columns: Sequence[Sequence[str]], labels: int) -> int:
    """How many of the first ``labels`` columns (cells as text) a block of a split table
    repeats: the fewest that tell every row apart, else all ``labels``."""
    rows = len(columns[0]) if columns else 0
    for k in range(1, labels + 1):
        if len(set(zip(*columns[:k], strict=True))) == rows:
            return k
    return labels


def column_blocks(widths: Sequence[int], keys: int, width: int = TERMINAL_WIDTH
                  ) -> list[list[int]]:
    """The columns (indices) of each block of a table whose columns are ``widths``
    characters wide: every block starts with the ``keys`` first columns and takes the
    others in order (at least one each). One block when the whole table fits in ``width``;
    else as few blocks as fit, of widths as even as can be (no block of one lone column
    after a full one)."""
    def span(cols: Sequence[int]) -> int:
        return sum(widths[c] for c in cols) + GAP * (len(cols) - 1)

    everything = list(range(len(widths)))
    if span(everything) <= width or keys >= len(widths):
        return [everything]
    lead = list(range(keys))

    def packed(limit: int) -> list[list[int]]:
        blocks: list[list[int]] = []
        block = list(lead)
        for c in range(keys, len(widths)):
            if len(block) > keys and span([*block, c]) > limit:
                blocks.append(block)
                block = list(lead)
            block.append(c)
        return [*blocks, block]

    fewest = len(packed(width))
    rest = range(keys, len(widths))
    spans = sorted({span([*lead, *range(a, b)]) for a in rest for b in range(a + 1, len(widths) + 1)
                    if span([*lead, *range(a, b)]) <= width})
    # the narrowest limit that still needs no more blocks (packing greedily under a limit
    # gives the fewest blocks for it)
    return next((packed(limit) for limit in spans if len(packed(limit)) <= fewest),
                packed(width))


def aligned_table(headers: Sequence[str], columns: Sequence[Sequence[str]], keys: int = 0,
                  width: int = TERMINAL_WIDTH) -> str:
    """Cells (text, column by column) under their headers, left-aligned, split into blocks
    (:func:`column_blocks`) led by the ``keys`` first columns when wider than ``width``."""
    widths = [max([len(h), *(len(v) for v in c)]) for h, c in zip(headers, columns, strict=True)]
    rows = len(columns[0]) if columns else 0
    gap = " " * GAP
    parts: list[str] = []
    for block in column_blocks(widths, keys, width):
        lines = [gap.join(headers[c].ljust(widths[c]) for c in block).rstrip()]
        lines += [gap.join(columns[c][r].ljust(widths[c]) for c in block).rstrip()
                  for r in range(rows)]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
