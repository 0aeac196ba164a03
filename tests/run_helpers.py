"""Helpers of the run and command-line tests (``from run_helpers import ...``).

- :func:`assert_same_tables`: two runs hold the same rows (in any order, wall-clock
  times aside), table by table
- :func:`forbid_games`: from now on, a game played by the runner fails the test
- :func:`counting_chunks`: the ids of the chunks the runner plays while it is open
- :func:`run_cli`: ``hansa-lab ARGV`` in this process, its exit code and stderr, recorded
  in the bad-input corpus report (:envvar:`HANSA_LAB_CORPUS_REPORT`) when one is asked for
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

import pandas as pd
import pytest

from hansa_lab.sim import runner
from hansa_lab.sim.logs import SCHEMA
from hansa_lab.tools import cli

#: Every table a full log writes.
TABLES = list(SCHEMA)


def sorted_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Rows in a canonical order, without the clock columns (wall and CPU seconds)."""
    df = df.drop(columns=[c for c in ("wall_time", "cpu_time") if c in df.columns])
    return df.sort_values(list(df.columns), kind="stable").reset_index(drop=True)


def assert_same_tables(a: Any, b: Any, tables: Iterable[str] = TABLES) -> None:
    """``a`` and ``b`` (results of runs) hold the same rows in each of ``tables``."""
    for t in tables:
        pd.testing.assert_frame_equal(sorted_rows(getattr(a, t)), sorted_rows(getattr(b, t)),
                                      obj=f"table {t}")


def forbid_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any chunk the runner plays from now on (until ``monkeypatch`` is undone) fails the
    test."""
    monkeypatch.setattr(runner, "run_chunk", lambda task: pytest.fail("a game was played"))


@contextlib.contextmanager
def counting_chunks() -> Iterator[list[int]]:
    """The ids of the chunks the runner plays (in this process) inside the block."""
    played: list[int] = []
    real = runner.run_chunk

    def counting(task: Any) -> Any:
        played.append(task.chunk_id)
        return real(task)

    runner.run_chunk = counting
    try:
        yield played
    finally:
        runner.run_chunk = real


def report_case(kind: str, case: Any, traceback: bool) -> None:
    """One line of the bad-input corpus report, if ``HANSA_LAB_CORPUS_REPORT`` names one."""
    path = os.environ.get("HANSA_LAB_CORPUS_REPORT")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"kind": kind, "case": repr(case), "traceback": traceback}) + "\n")


def run_cli(kind: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Any, str]:
    """``hansa-lab ARGV`` in this process: its exit code (argparse's own errors included)
    and what it wrote to stderr; an exception escaping it is reported, then raised."""
    try:
        code: Any = cli.main(argv)
    except SystemExit as e:  # argparse's own errors (they name the argument too)
        code = e.code
    except BaseException:
        report_case(kind, argv, True)
        raise
    err = capsys.readouterr().err
    report_case(kind, argv, False)
    return code, err
