"""The run tables' conventions shared by the statistics: the columns that identify a
game and a playing condition, grouping helpers, joining game columns onto other tables,
and the period of a line-up (how many of its seat rotations are distinct games — the
runner plays that many per deal, and paired comparisons match rotations modulo it).

>>> lineup_period(["greedy", "random", "random"]), lineup_period(["greedy"] * 4)
(3, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["CONDITION_COLUMNS", "GAME_KEYS", "lineup_period", "with_games"]

#: The columns that identify a game in every table.
GAME_KEYS = ["experiment", "arm", "game_id"]
#: Columns of the ``games`` table that describe the playing condition.
CONDITION_COLUMNS = ("n_players", "board", "side", "edition", "options")

By = str | Sequence[str]


def lineup_period(lineup: Sequence[Any]) -> int:
    """How many seat rotations of ``lineup`` are distinct games: the smallest ``p`` with
    ``lineup`` rotated by ``p`` equal to itself (1 when every seat plays the same
    strategy — its rotations would replay the very same game — and ``n`` when no
    strategy repeats).

    >>> [lineup_period(x) for x in (("a", "b", "c"), ("a", "b", "a", "b"), ("a",) * 4)]
    [3, 2, 1]
    """
    seq = list(lineup)
    n = len(seq)
    return next(p for p in range(1, n + 1) if seq[p:] + seq[:p] == seq)


def as_list(by: By | None) -> list[str]:
    """Grouping columns as a list (``None`` → none, a name → one)."""
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def codes(df: pd.DataFrame, cols: Sequence[str]) -> np.ndarray:
    """Integer code 0..k-1 of each row's combination of ``cols`` (first-seen order)."""
    if not cols:
        return np.zeros(len(df), dtype=np.int64)
    return df.groupby(list(cols), sort=False, dropna=False).ngroup().to_numpy(np.int64)


def groups(df: pd.DataFrame, keys: list[str]) -> tuple[np.ndarray, pd.DataFrame]:
    """Sorted group codes of the rows and the table of group keys (one row per code)."""
    if not keys:
        return np.zeros(len(df), dtype=np.int64), pd.DataFrame(index=range(1 if len(df) else 0))
    grouped = df.groupby(keys, sort=True, dropna=False)
    code = grouped.ngroup().to_numpy(np.int64)
    labels = grouped.size().reset_index()[keys]
    return code, labels


def varying(df: pd.DataFrame, cols: Sequence[str]) -> list[str]:
    """The columns of ``cols`` present in ``df`` with more than one value."""
    return [c for c in cols if c in df.columns and df[c].nunique(dropna=False) > 1]


def with_games(
    df: pd.DataFrame,
    games: pd.DataFrame | None,
    columns: Sequence[str] = ("seed", "rotation", *CONDITION_COLUMNS),
) -> pd.DataFrame:
    """``df`` (players, turns, ...) with ``columns`` of the ``games`` table added by
    game (``experiment, arm, game_id``); columns already present are kept.

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["a", "b"], n_deals=1, n_players=2)
    >>> with_games(t["players"], t["games"], ["seed", "rotation"])[["seat", "seed", "rotation"]]
       seat  seed  rotation
    0     0     0         0
    1     1     0         0
    2     0     0         1
    3     1     0         1
    """
    need = [c for c in columns if c not in df.columns]
    if not need:
        return df
    if games is None:
        raise ValueError(f"the table lacks {need}: pass the games table")
    missing = [c for c in need if c not in games.columns]
    if missing:
        raise ValueError(f"the games table lacks {missing}")
    out = df.merge(games[[*GAME_KEYS, *need]], on=GAME_KEYS, how="left",
                   validate="many_to_one")
    if out[need[0]].isna().any():
        raise ValueError("some rows have no game in the games table")
    return out
