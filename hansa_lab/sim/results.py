"""A run's tables as DataFrames, and their summaries with 95% intervals.

>>> [round(x, 3) for x in wilson_interval(50, 100)]
[0.404, 0.596]
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hansa_lab.sim.logs import SCHEMA, empty_frame
from hansa_lab.sim.store import MANIFEST, ResultStore

Z95 = 1.959963984540054


def open_results(path: str | os.PathLike[str]) -> Results:
    """Open the results folder of a run (finished or not) without running anything.

    Every done-marker is checked against its table files (size and checksum): a chunk
    whose files are missing, truncated or rewritten is left out and named in a warning and
    in ``results.bad_chunks`` (running the same command again replays it). A missing or
    unreadable ``manifest.json`` raises an error naming the file."""
    store = ResultStore(Path(path))
    if not store.has_manifest():
        raise FileNotFoundError(f"{path}: no {MANIFEST} (not a hansa-lab results folder)")
    manifest = store.read_manifest()
    n_chunks = manifest.get("design", {}).get("n_chunks")
    checked = store.verify(n_chunks if isinstance(n_chunks, int) else None)
    if checked.bad:
        warnings.warn(
            f"{path}: {len(checked.bad)} chunk(s) left out, their files do not match their "
            "done-marker (run the same command again to replay them): " + "; ".join(
                f"chunk {i}: {why}" for i, why in sorted(checked.bad.items())),
            stacklevel=2)
    return Results(manifest, path=store.path, chunks=list(checked.done), bad_chunks=checked.bad)


class Results:
    """The tables of a run as DataFrames (columns and dtypes of :data:`logs.SCHEMA`).

    ``.games .players .turns .events .failures`` — read from the run's parquet files on
    first access (only completed chunks; nothing is loaded until asked) or held in
    memory for runs without ``out``. Use :meth:`read` for a subset of columns or rows
    of a big table. ``.manifest`` is the run's provenance; :meth:`summary` and
    :meth:`compare` give win rates and scores with 95% intervals.
    """

    def __init__(
        self,
        manifest: dict[str, Any],
        *,
        frames: Mapping[str, pd.DataFrame] | None = None,
        path: Path | None = None,
        chunks: Sequence[int] = (),
        bad_chunks: Mapping[int, str] | None = None,
    ) -> None:
        self.manifest = manifest
        self.path = path
        self.chunks = sorted(chunks)
        #: chunks left out because their files do not match their done-marker → reason
        self.bad_chunks = dict(bad_chunks or {})
        self._frames: dict[str, pd.DataFrame] = dict(frames or {})
        self._cache: dict[str, pd.DataFrame] = {}

    def __repr__(self) -> str:
        where = str(self.path) if self.path else "in memory"
        prog = self.manifest.get("progress", {})
        return (f"<Results {self.manifest.get('name')!r} {where}: "
                f"{prog.get('games_done', '?')}/{prog.get('total_games', '?')} games, "
                f"{prog.get('failures', 0)} failures, {self.manifest.get('status')}>")

    @property
    def complete(self) -> bool:
        """The run finished: its manifest says so, and (on disk) every chunk of its design
        is there with files that match their done-markers."""
        if self.manifest.get("status") != "complete" or self.bad_chunks:
            return False
        n_chunks = self.manifest.get("design", {}).get("n_chunks")
        return self.path is None or not isinstance(n_chunks, int) or len(self.chunks) == n_chunks

    def files(self, table: str) -> list[Path]:
        """The parquet files of ``table`` (completed chunks only, in chunk order)."""
        if self.path is None:
            return []
        store = ResultStore(self.path)
        return [p for i in self.chunks if (p := store.table_file(table, i)).exists()]

    def read(self, table: str, columns: Sequence[str] | None = None,
             filters: Any = None) -> pd.DataFrame:
        """Read a table, optionally only some ``columns`` and rows matching ``filters``
        (a ``pyarrow.compute`` expression or pyarrow's ``[(col, op, value), ...]``)."""
        if table not in SCHEMA:
            raise ValueError(f"unknown table {table!r}; tables: {', '.join(SCHEMA)}")
        cols = list(columns) if columns is not None else list(SCHEMA[table])
        for c in cols:
            if c not in SCHEMA[table]:
                raise ValueError(f"table {table!r} has no column {c!r}")
        dtypes = {c: SCHEMA[table][c] for c in cols}
        if self.path is None:
            df = self._frames.get(table, empty_frame(table))
            if filters is not None:
                import pyarrow as pa

                df = pa.Table.from_pandas(df, preserve_index=False).filter(
                    _expression(filters)).to_pandas()
            return df[cols].astype(dtypes).reset_index(drop=True)
        files = self.files(table)
        if not files:
            return empty_frame(table)[cols]
        import pyarrow as pa
        import pyarrow.dataset as ds

        dataset = ds.dataset([str(f) for f in files], format="parquet")
        arrow = dataset.to_table(columns=cols, filter=_expression(filters))
        strings = {pa.string(): pd.StringDtype(), pa.large_string(): pd.StringDtype()}
        return arrow.to_pandas(types_mapper=strings.get).astype(dtypes).reset_index(drop=True)

    def _table(self, table: str) -> pd.DataFrame:
        if self.path is None:  # in memory: the frames themselves
            return self._frames.get(table, empty_frame(table))
        if table not in self._cache:
            self._cache[table] = self.read(table)
        return self._cache[table]

    @property
    def games(self) -> pd.DataFrame:
        return self._table("games")

    @property
    def players(self) -> pd.DataFrame:
        return self._table("players")

    @property
    def turns(self) -> pd.DataFrame:
        return self._table("turns")

    @property
    def events(self) -> pd.DataFrame:
        return self._table("events")

    @property
    def failures(self) -> pd.DataFrame:
        return self._table("failures")

    def _player_games(self) -> tuple[pd.DataFrame, list[str]]:
        players = self.read("players", ["arm", "game_id", "seat", "strategy", "total",
                                        "win_share"])
        games = self.read("games", ["arm", "game_id", "seed", "rotation", "n_players",
                                    "board", "edition", "options"])
        df = players.merge(games, on=["arm", "game_id"], how="inner").sort_values(
            ["game_id", "seat"], kind="stable")
        conds = [c for c in ("n_players", "board", "edition", "options") if df[c].nunique() > 1]
        return df, conds

    def summary(self, by: str = "strategy") -> pd.DataFrame:
        """Per arm and strategy (``by="seat"``: per arm and seat; conditions that vary
        are added as leading columns): player-games ``n``, ``win_rate`` (ties share
        the win) with a 95% Wilson interval, ``mean_score`` with mean ± t·sd/√n
        (t ≈ 1.96 but for small n).

        Seats of one game are not independent (in an all-greedy arm the greedy win
        rate is 1/n by construction); use :meth:`compare` for tip-vs-base questions."""
        if by not in ("strategy", "seat"):
            raise ValueError(f"by must be 'strategy' or 'seat', got {by!r}")
        df, conds = self._player_games()
        keys = [*conds, "arm", by]
        rows = []
        for key, g in df.groupby(keys, sort=False, observed=True):
            n = len(g)
            wins = float(g["win_share"].sum())
            lo, hi = wilson_interval(wins, n)
            mean, slo, shi = mean_interval(g["total"].to_numpy(dtype=float))
            rows.append((*key, n, wins / n, lo, hi, mean, slo, shi))
        return pd.DataFrame(rows, columns=[*keys, "n", "win_rate", "win_lo", "win_hi",
                                           "mean_score", "score_lo", "score_hi"])

    def compare(self, base: str | None = None, focal: int = 0) -> pd.DataFrame:
        """Paired comparison of every arm with ``base`` (default: the experiment's
        ``base_arm``, else an arm named ``base``).

        In each game of an arm, the seats playing the arm's *focal* strategy (line-up
        position ``focal``) are compared with the same seats of the base arm's game with
        the same seed and rotation (rotation taken modulo the base line-up's distinct
        rotations: an all-greedy base has one game per deal). Gives the pairs ``n``, the
        ``deals``, mean scores and win rates of both sides, and the mean differences with
        95% intervals: mean ± t·sd/√deals of the per-deal mean differences (the deal, not
        the game, is the independent unit: its rotations share the bonus draws); the win
        difference's interval is cut to its possible range [-1, 1] (few deals)."""
        arms_cfg = self.manifest.get("configuration", {}).get("arms", {})
        base = base or self.manifest.get("configuration", {}).get("base_arm") or "base"
        df, conds = self._player_games()
        if base not in set(df["arm"]):
            raise ValueError(f"no arm {base!r} in these results (arms: "
                             f"{', '.join(pd.unique(df['arm']))})")
        keys = conds or ["_all"]
        df = df.assign(_all=0)
        b = df[df["arm"] == base]
        period = (b.groupby(keys)["rotation"].max() + 1).rename("_period").reset_index()
        b = b[[*keys, "seed", "rotation", "seat", "strategy", "total", "win_share"]].rename(
            columns={"rotation": "_base_rotation"})
        rows = []
        for arm in pd.unique(df["arm"]):
            if arm == base:
                continue
            lineup = arms_cfg.get(arm)
            a = df[df["arm"] == arm]
            if lineup:
                a = a[a["strategy"] == lineup[focal % len(lineup)]]
            else:  # no configuration: the line-up position's seat
                a = a[a["seat"] == (a["rotation"] + focal) % a["n_players"]]
            a = a.merge(period, on=keys)
            a = a.assign(_base_rotation=a["rotation"] % a["_period"])
            m = a.merge(b, on=[*keys, "seed", "_base_rotation", "seat"],
                        suffixes=("", "_base"))
            for key, g in m.groupby(keys, sort=False):
                key = key if isinstance(key, tuple) else (key,)
                per_deal = g.assign(
                    d_score=g["total"] - g["total_base"],
                    d_win=g["win_share"] - g["win_share_base"],
                ).groupby("seed")[["d_score", "d_win"]].mean()
                ds, dslo, dshi = mean_interval(per_deal["d_score"].to_numpy(dtype=float))
                dw, dwlo, dwhi = mean_interval(per_deal["d_win"].to_numpy(dtype=float))
                dwlo, dwhi = max(dwlo, -1.0), min(dwhi, 1.0)  # a difference of win shares
                rows.append((
                    *(key if conds else ()), arm, ", ".join(pd.unique(g["strategy"])),
                    ", ".join(pd.unique(g["strategy_base"])), len(g), len(per_deal),
                    g["total"].mean(), g["total_base"].mean(), ds, dslo, dshi,
                    g["win_share"].mean(), g["win_share_base"].mean(), dw, dwlo, dwhi,
                ))
        return pd.DataFrame(rows, columns=[
            *conds, "arm", "strategy", "base_strategy", "n", "deals", "mean_score",
            "base_score", "score_diff", "diff_lo", "diff_hi", "win_rate", "base_win_rate",
            "win_diff", "win_diff_lo", "win_diff_hi",
        ])

    def report(self) -> str:
        """A text report: totals, per-strategy summary, the paired comparison when a
        base arm exists, and per-seat results when every arm is a single strategy."""
        prog = self.manifest.get("progress", {})
        where = f" in {self.path}" if self.path else ""
        lines = [f"{self.manifest.get('name')}: {prog.get('games_done', 0)} of "
                 f"{prog.get('total_games', 0)} games{where}, "
                 f"{prog.get('failures', 0)} failed"]
        design = self.manifest.get("design", {})
        rounding = design.get("rounding")
        if rounding and design.get("rounded", True):  # older manifests: always shown
            lines.append(f"({rounding})")
        lines += self._stall_lines()
        summary = self.summary()
        if summary.empty:
            return "\n".join([*lines, "no finished games"])
        lines += ["", "Win rate and mean score per arm and strategy (95% intervals):",
                  format_table(summary)]
        arms = self.manifest.get("configuration", {}).get("arms", {})
        base = self.manifest.get("configuration", {}).get("base_arm") or (
            "base" if "base" in arms else None)
        if base is not None and len(arms) > 1:
            lines += ["", f"Focal strategy vs the same seat of arm {base!r} (same seed and "
                          "rotation; paired, 95% intervals over deals):",
                      format_table(self.compare(base))]
        if arms and all(len(set(v)) == 1 for v in arms.values()):
            lines += ["", "Per seat (95% intervals):", format_table(self.summary(by="seat"))]
        return "\n".join(lines)


    def stalled(self) -> pd.DataFrame:
        """The games flagged as stalled (more whole rounds than the run's ``stall_rounds``
        without any prestige or Kontor change), longest quiet stretch first."""
        games = self.read("games", ["arm", "game_id", "seed", "rotation", "lineup",
                                    "end_reason", "rounds", "quiet_rounds", "stalled"])
        return games[games["stalled"]].sort_values(
            ["quiet_rounds", "game_id"], ascending=[False, True]).reset_index(drop=True)

    def _stall_lines(self) -> list[str]:
        stalled = self.stalled()
        if stalled.empty:
            return []
        limit = self.manifest.get("configuration", {}).get("stall_rounds", "?")
        ids = ", ".join(map(str, stalled["game_id"].head(10)))
        more = f" and {len(stalled) - 10} more" if len(stalled) > 10 else ""
        return [f"{len(stalled)} game(s) stalled (more than {limit} rounds without a prestige "
                f"or Kontor change): game ids {ids}{more}; see results.stalled()"]


def _expression(filters: Any) -> Any:
    if filters is None:
        return None
    if isinstance(filters, list):
        import pyarrow.parquet as pq

        return pq.filters_to_expression(filters)
    return filters


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional: tied
    wins count as shares).

    >>> [round(x, 3) for x in wilson_interval(50, 100)]
    [0.404, 0.596]
    """
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


#: Two-sided 95% quantiles of Student's t for 1-30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (1.96 in the limit).

    >>> t975(4), round(t975(1000), 3)
    (2.776, 1.962)
    """
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95  # Cornish-Fisher expansion, within 1e-3 beyond 30 degrees of freedom
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% interval mean ± t·sd/√n (t of n - 1 degrees of freedom, ≈ 1.96 for
    large n); NaN bounds for fewer than two values."""
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if n == 1:
        return (mean, math.nan, math.nan)
    half = t975(n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def format_table(df: pd.DataFrame) -> str:
    """Format a :meth:`Results.summary` / :meth:`Results.compare` frame as aligned text:
    win rates as percentages, a value's ``*_lo``/``*_hi`` interval in brackets."""
    intervals = {
        "win_rate": ("win_lo", "win_hi"),
        "mean_score": ("score_lo", "score_hi"),
        "score_diff": ("diff_lo", "diff_hi"),
        "win_diff": ("win_diff_lo", "win_diff_hi"),
    }
    intervals = {k: v for k, v in intervals.items()
                 if k in df.columns and v[0] in df.columns and v[1] in df.columns}
    hidden = {c for pair in intervals.values() for c in pair}

    def fmt(v: Any, pct: bool) -> str:
        if isinstance(v, float | np.floating):
            if math.isnan(v):
                return "-"
            return f"{100 * v:.1f}%" if pct else f"{v:.1f}"
        return str(v)

    headers: list[str] = []
    columns: list[list[str]] = []
    for col in df.columns:
        if col in hidden:
            continue
        pct = "win" in col
        if col in intervals:
            lo, hi = intervals[col]
            headers.append(f"{col} [95% CI]")
            columns.append([
                f"{fmt(v, pct)} [{fmt(a, pct)}, {fmt(b, pct)}]"
                for v, a, b in zip(df[col], df[lo], df[hi], strict=True)
            ])
        else:
            headers.append(col)
            columns.append([fmt(v, pct) for v in df[col]])
    widths = [max([len(h), *(len(v) for v in c)]) for h, c in zip(headers, columns, strict=True)]
    out = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    for r in range(len(df)):
        out.append("  ".join(c[r].ljust(w) for c, w in zip(columns, widths, strict=True))
                   .rstrip())
    return "\n".join(out)
