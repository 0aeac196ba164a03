"""Progress on long work: one bar (tqdm.auto) with the time left for runs, learn, tune,
ladder and populations; quiet with --no-progress; a few lines, not hundreds, in a log."""

from __future__ import annotations

import io
import itertools
import re

import pytest

from hansa_lab.sim.progress import LOG_INTERVAL, progress_bar, progress_line
from hansa_lab.tools import cli

#: a text bar's time fields: "[00:03<00:12" (elapsed < left)
TIME_LEFT = re.compile(r"\[\d\d:\d\d<\d\d:\d\d")


class Terminal(io.StringIO):
    """A stream that says it is an interactive terminal."""

    def isatty(self) -> bool:
        return True


def _redraws(stream: io.StringIO, seconds_per_update: float, updates: int) -> int:
    """How many times a bar of ``updates`` steps, one every ``seconds_per_update`` seconds
    of a fake clock, is drawn on ``stream``."""
    bar = progress_bar(updates, desc="games", unit="game", file=stream)
    clock = itertools.count(bar.last_print_t, seconds_per_update)
    bar._time = lambda: next(clock)
    for _ in range(updates):
        bar.update(1)
    bar.close()
    return stream.getvalue().count("\r")


def test_a_bar_in_a_log_is_redrawn_every_half_minute_not_every_step():
    # an hour of one update a second: a terminal redraws in place, a log gets a line each
    on_terminal = _redraws(Terminal(), 1.0, 3600)
    in_log = _redraws(io.StringIO(), 1.0, 3600)
    assert on_terminal > 1000
    assert in_log <= 3600 / LOG_INTERVAL + 5


def test_a_bar_shows_the_time_left_and_nothing_when_disabled():
    out = Terminal()
    with progress_bar(4, desc="demo", unit="game", file=out) as bar:
        bar.update(2)
    assert TIME_LEFT.search(out.getvalue()) and "demo" in out.getvalue()
    quiet = Terminal()
    with progress_bar(4, desc="demo", unit="game", enabled=False, file=quiet) as bar:
        bar.update(4)
    assert quiet.getvalue() == ""


def test_a_line_is_printed_above_a_bar_not_inside_it():
    out = Terminal()
    with progress_bar(4, desc="demo", unit="game", file=out) as bar:
        progress_line("generation 1/4", file=out)
        bar.update(1)
    # the bar's line is cleared before the text, which stands on a line of its own
    assert re.search(r"\r\x1b\[A|\r +\r|\rgeneration|\ngeneration", out.getvalue())
    assert "generation 1/4\n" in out.getvalue()


def _commands(tmp_path):
    """Each long command at its smallest (one chunk, generation or table)."""
    return {
        "learn": ["learn", "--players", "3", "--lineup", "random", "--games", "6", "--chunk",
                  "3", "--rate", "0.2", "--data", str(tmp_path / "data"), "--name", "t",
                  "--kind", "ridge_margin", "--json"],
        "tune": ["tune", "--players", "2", "--params", "route", "--population", "2",
                 "--generations", "2", "--games", "2", "--heldout-games", "2", "--state",
                 str(tmp_path / "st"), "--json"],
        "ladder": ["ladder", "--players", "3", "--strategies", "random,greedy,blocker",
                   "--deals", "1", "--jobs", "1", "--out", str(tmp_path / "ladder")],
        "populations": ["populations", "--populations", "random", "--reference", "random",
                        "--questions", "seats", "--players", "3", "--games", "3", "--jobs",
                        "1", "--out", str(tmp_path / "pop")],
    }


#: the bar each command draws: its label and unit
BARS = {"learn": ("learn data", "game"), "tune": ("tune", "generation"),
        "ladder": ("ladder", "game"), "populations": ("populations-seats-random", "game")}


@pytest.mark.parametrize("quiet", [False, True], ids=["progress", "no-progress"])
@pytest.mark.parametrize("command", list(BARS))
def test_long_commands_show_a_bar_with_the_time_left_on_stderr(command, quiet, tmp_path,
                                                               capsys):
    argv = _commands(tmp_path)[command] + (["--no-progress"] if quiet else [])
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    desc, unit = BARS[command]
    bars = [line for line in re.split(r"[\r\n]", captured.err)
            if line.startswith(desc + ":") and TIME_LEFT.search(line)]
    assert not TIME_LEFT.search(captured.out)  # the bar never mixes with the results
    if quiet:
        assert not bars, captured.err
        assert "%|" not in captured.err
    else:
        assert bars, captured.err
        assert f"{unit}/s" in bars[-1] or f"s/{unit}" in bars[-1]
        assert "100%" in bars[-1]
