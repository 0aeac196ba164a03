"""Progress bars of long work, one look for every batch: games of a run, chunks of a
learning data set, generations of a tuning run.

A bar is tqdm's :mod:`tqdm.auto` bar: the widget bar in Jupyter, the text bar with the
time left (``[elapsed<left]``) on stderr elsewhere. On a terminal (or in a notebook) it is
redrawn at most ten times a second; where stderr is a file or a pipe (a CI log, ``2> log``)
every redraw is a new line to whoever reads it, so it is redrawn at most every
:data:`LOG_INTERVAL` seconds: a run of an hour adds about a hundred short lines to a log.

>>> import io
>>> out = io.StringIO()
>>> with progress_bar(3, desc="demo", unit="game", file=out) as bar:
...     bar.update(3)
>>> "3/3" in out.getvalue()
True
"""

from __future__ import annotations

import sys
from typing import IO, Any

#: Seconds between redraws of a text bar written to a file or pipe (not a terminal).
LOG_INTERVAL = 30.0
#: Seconds between redraws on a terminal or in a notebook (tqdm's default).
LIVE_INTERVAL = 0.1


def in_notebook() -> bool:
    """True when :mod:`tqdm.auto` draws the widget bar (a Jupyter kernel with
    ipywidgets)."""
    from tqdm.auto import tqdm as auto_bar

    # by its classes' module, so that a terminal never imports ipywidgets for nothing
    return any(c.__module__ == "tqdm.notebook" for c in auto_bar.__mro__)


def is_terminal(stream: IO[str]) -> bool:
    """True when ``stream`` is an interactive terminal (a redraw overwrites the line)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def progress_bar(total: int, *, desc: str, unit: str, enabled: bool = True,
                 initial: int = 0, file: IO[str] | None = None) -> Any:
    """A bar of ``total`` ``unit``\\ s (``initial`` already done, e.g. on a resume) on
    ``file`` (default stderr); ``enabled=False`` draws nothing (``--no-progress``).
    Use it as a context manager or close it, so that its last state is drawn."""
    from tqdm.auto import tqdm as auto_bar

    stream = sys.stderr if file is None else file
    live = in_notebook() or is_terminal(stream)
    interval = LIVE_INTERVAL if live else LOG_INTERVAL
    return auto_bar(total=total, initial=initial, desc=desc, unit=unit, disable=not enabled,
                    file=stream, dynamic_ncols=live, mininterval=interval,
                    maxinterval=max(interval, 10.0))


def progress_line(text: str, file: IO[str] | None = None) -> None:
    """Print ``text`` as a line of its own above any bar being drawn (a plain ``print``
    would land in the middle of the bar's line)."""
    from tqdm.auto import tqdm as auto_bar

    auto_bar.write(text, file=sys.stderr if file is None else file)
    (sys.stderr if file is None else file).flush()
