"""A run's tables as DataFrames, and their summaries with 95% intervals (computed by
:mod:`hansa_lab.stats`)."""

from __future__ import annotations

import json
import math
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hansa_lab.sim.logs import NONE_COLUMNS, SCHEMA, empty_frame, readable
from hansa_lab.sim.store import MANIFEST, Completeness, ResultStore, design_size
from hansa_lab.stats.answers import Answer, seat_name

# wilson_interval: the one Wilson interval, still importable from here (the runner
# re-exports it)
from hansa_lab.stats.balance import (
    BalanceAnswers,
    balance_table,
    most_balanced,
    with_balance_intervals,
)
from hansa_lab.stats.display import LABEL_COLUMNS, View, view_for
from hansa_lab.stats.display import readable as readable_frame
from hansa_lab.stats.intervals import wilson_interval as wilson_interval
from hansa_lab.stats.paired import paired_differences, summarize_pairs
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.summaries import mean_scores, win_rates
from hansa_lab.stats.terminal import TERMINAL_WIDTH, aligned_table, row_keys, wrap_text
from hansa_lab.stats.variants import variant_answers, variant_comparison, variant_sentence
from hansa_lab.stats.verdicts import (
    format_p,
    seat_balance_answers,
    tip_effect_answers,
    verdict_frame,
)
from hansa_lab.strategies.strategy_file import remember_record


def open_results(path: str | os.PathLike[str]) -> Results:
    """Open the results folder of a run (finished or not) without running anything.

    Completeness is derived from the design and the verified done-markers, never from the
    manifest's status alone: the manifest's design must agree with itself and with its
    recorded fingerprint (a hand-edited ``design.n_chunks`` raises
    :class:`~hansa_lab.sim.store.ManifestError`), and every done-marker is checked against
    the design (a chunk of it, the right games, the same design hash) and against its
    table files (size, checksum, row count). A chunk that fails is left out and named in a
    warning and in ``results.bad_chunks``; ``results.completeness`` says "incomplete: N of
    M chunks" whenever a chunk is missing or bad (running the same command again replays
    exactly those). A missing or unreadable ``manifest.json`` raises an error naming the
    file."""
    store = ResultStore(Path(path).expanduser())
    if not store.has_manifest():
        raise FileNotFoundError(f"{path}: no {MANIFEST} (not a hansa-lab results folder)")
    manifest = store.read_manifest()
    size = design_size(manifest, str(store.path))
    for strategy in (manifest.get("strategies") or {}).values():
        if isinstance(strategy, Mapping) and isinstance(strategy.get("file"), Mapping):
            remember_record(strategy["file"])  # its games replay by spec, file or not
    checked = store.verify(size.n_chunks, size.games_in, design=manifest.get("design_hash"))
    if checked.bad:
        warnings.warn(
            f"{path}: {len(checked.bad)} chunk(s) left out, their done-markers do not match "
            "the design or their files (run the same command again to replay them): "
            + "; ".join(f"chunk {i}: {why}" for i, why in sorted(checked.bad.items())),
            stacklevel=2)
    return Results(manifest, path=store.path, chunks=list(checked.done), bad_chunks=checked.bad,
                   markers=checked.done)


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
        markers: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        self.manifest = manifest
        self.path = path
        self.chunks = sorted(chunks)
        #: chunks left out because their marker does not match the design or files → reason
        self.bad_chunks = dict(bad_chunks or {})
        self._markers = dict(markers) if markers is not None else None
        self._frames: dict[str, pd.DataFrame] = dict(frames or {})
        self._cache: dict[str, pd.DataFrame] = {}

    def __repr__(self) -> str:
        where = str(self.path) if self.path else "in memory"
        c = self.completeness
        return (f"<Results {self.manifest.get('name')!r} {where}: "
                f"{c.games_done}/{c.total_games} games, {c.failures} failures, {c.text()}>")

    @property
    def completeness(self) -> Completeness:
        """What is on disk: chunks and games of the verified done-markers against the
        design (in memory, or a run just played: the manifest's progress)."""
        prog = self.manifest.get("progress") or {}
        status = str(self.manifest.get("status"))
        if self.path is None or self._markers is None:
            return Completeness(status, int(prog.get("n_chunks", 0)),
                                int(prog.get("chunks_done", 0)), int(prog.get("games_done", 0)),
                                int(prog.get("total_games", 0)), int(prog.get("failures", 0)),
                                self.bad_chunks)
        size = design_size(self.manifest, str(self.path))
        return Completeness(
            status, size.n_chunks, len(self.chunks),
            sum(size.games_in(i) for i in self.chunks), size.total_games,
            sum(int(m.get("failures", 0)) for m in self._markers.values()), self.bad_chunks)

    @property
    def complete(self) -> bool:
        """The run finished: its manifest says so, and (on disk) every chunk of its design
        is there with done-markers that match the design and their files."""
        return self.completeness.complete

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
        nullable = NONE_COLUMNS.get(table, {})
        dtypes = {c: nullable.get(c, SCHEMA[table][c]) for c in cols}
        if self.path is None:
            df = self._frames.get(table, empty_frame(table))
            if filters is not None:
                import pyarrow as pa

                df = pa.Table.from_pandas(df, preserve_index=False).filter(
                    _expression(filters)).to_pandas()
            return readable(table, df[cols].astype(dtypes).reset_index(drop=True))
        files = self.files(table)
        if not files:
            return empty_frame(table)[cols]
        import pyarrow as pa
        import pyarrow.dataset as ds

        dataset = ds.dataset([str(f) for f in files], format="parquet")
        stored = set(dataset.schema.names)
        arrow = dataset.to_table(columns=[c for c in cols if c in stored],
                                 filter=_expression(filters))
        strings = {pa.string(): pd.StringDtype(), pa.large_string(): pd.StringDtype()}
        df = arrow.to_pandas(types_mapper=strings.get)
        for c in cols:  # a run written before a column existed: the column's "unknown"
            if c not in stored:
                df[c] = _UNKNOWN.get(dtypes[c], -1)
        return readable(table, df[cols].astype(dtypes).reset_index(drop=True))

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

    def _player_games(self) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
        """The players and games columns the summaries need, and the playing conditions
        that vary (they become leading columns)."""
        players = self.read("players", ["experiment", "arm", "game_id", "seat", "strategy",
                                        "total", "win_share"])
        games = self.read("games", ["experiment", "arm", "game_id", "seed", "rotation",
                                    "n_players", "board", "side", "edition", "options"])
        if self.base_variant() is not None:  # a sweep: the variants by name
            games["options"] = self._variant_of(games)
        df = players.merge(games, on=["experiment", "arm", "game_id"], how="inner")
        conds = [c for c in ("n_players", "board", "edition", "options") if df[c].nunique() > 1]
        return df, games, conds

    def summary(self, by: str = "strategy") -> pd.DataFrame:
        """Per arm and strategy (``by="seat"``: per arm and seat; conditions that vary
        are added as leading columns): player-games ``n``; ``win_rate`` (ties share the
        win) with its Wilson interval ``win_lo``/``win_hi``
        (:func:`hansa_lab.stats.win_rates`); ``mean_score`` with its t interval
        ``score_lo``/``score_hi``, the standard error clustered by game and t of
        games − 1 degrees of freedom — mean ± t·sd/√n when the group has one seat per
        game (:func:`hansa_lab.stats.mean_scores`).

        Seats of one game are not independent (in an all-greedy arm the greedy win
        rate is 1/n by construction); use :meth:`compare` for tip-vs-base questions."""
        if by not in ("strategy", "seat"):
            raise ValueError(f"by must be 'strategy' or 'seat', got {by!r}")
        df, _, conds = self._player_games()
        keys = [*conds, "arm", by]
        wins = win_rates(df, by=keys)
        scores = mean_scores(df, by=keys)
        out = wins[keys].assign(
            n=wins["n"], win_rate=wins["rate"], win_lo=wins["lo"], win_hi=wins["hi"],
            mean_score=scores["mean"], score_lo=scores["lo"], score_hi=scores["hi"])
        return readable_frame(out, view_for(out))

    def compare(self, base: str | None = None, focal: int = 0) -> pd.DataFrame:
        """Paired comparison of every arm with ``base`` (default: the experiment's
        ``base_arm``, else an arm named ``base``), with the pairs and statistics of
        :func:`hansa_lab.stats.paired_comparison`.

        **Pairing.** In each game of an arm, the seats playing the arm's *focal* strategy
        (line-up position ``focal``) are compared with the same seats of the base arm's
        game with the same seed and rotation (rotation taken modulo the base line-up's
        distinct rotations: an all-greedy base has one game per deal).

        **Unit and interval.** The deal (seed and condition) is the unit: its rotations
        share the bonus draws, so the paired differences are averaged per deal and the
        intervals are t intervals over the deals, mean ± t·sd/√deals with deals − 1
        degrees of freedom (honest with few deals, where a bootstrap would be too
        narrow); the win difference's interval is cut to its possible range [-1, 1].

        Columns: the varying conditions, ``arm``, ``strategy``, ``base_strategy``, the
        pairs ``n``, the ``deals``, mean scores and win rates of both sides (over the
        pairs), the mean differences ``score_diff`` and ``win_diff`` with their
        intervals, the standard error ``se`` of ``score_diff`` and its paired t-test
        ``p_value`` (unadjusted: :meth:`verdicts` adjusts them). Games whose base game is
        not finished yet are left out."""
        base = base or self.manifest.get("configuration", {}).get("base_arm") or "base"
        df, games, conds = self._player_games()
        if base not in set(df["arm"]):
            raise ValueError(f"no arm {base!r} in these results (arms: "
                             f"{', '.join(pd.unique(df['arm']))})")
        players = df[["experiment", "arm", "game_id", "seat", "strategy", "total",
                      "win_share"]]
        with warnings.catch_warnings():
            # a run in progress: games whose base game is not done yet are left out
            warnings.filterwarnings("ignore", ".* focal rows of arm .* have no pair", UserWarning)
            parts = [summarize_pairs(paired_differences(players, games, str(arm), base,
                                                        focal=focal), str(arm), base, by=conds)
                     for arm in pd.unique(df["arm"]) if arm != base]
        parts = [p for p in parts if len(p)]  # an arm without finished pairs: no row
        columns = {"arm_a": "arm", "strategy_a": "strategy", "strategy_b": "base_strategy",
                   "n_pairs": "n", "n_deals": "deals", "mean_a": "mean_score",
                   "mean_b": "base_score", "diff": "score_diff", "diff_lo": "diff_lo",
                   "diff_hi": "diff_hi", "win_a": "win_rate", "win_b": "base_win_rate",
                   "win_diff": "win_diff", "win_diff_lo": "win_diff_lo",
                   "win_diff_hi": "win_diff_hi", "se_paired": "se", "p_value": "p_value"}
        if not parts:
            return pd.DataFrame(columns=[*conds, *columns.values()])
        out = pd.concat(parts, ignore_index=True).rename(columns=columns)[
            [*conds, *columns.values()]]
        return readable_frame(out, view_for(out))

    def verdicts(self, base: str | None = None, *, alpha: float = 0.05,
                 half_width: float = 1.0) -> pd.DataFrame:
        """:meth:`compare` with a verdict per arm (and condition): ``helps``, ``hurts``,
        ``no clear effect`` (with the difference the run would detect with 80% power) or
        ``too few games to tell`` on the focal player's final score, Holm-adjusted over
        all the rows, and the deals still needed for an interval of ±``half_width``
        points (:func:`hansa_lab.stats.comparison_verdicts`; the meaning of each word:
        ``docs/guides/statistics.md``)."""
        compared = self.compare(base)
        compared["base_arm"] = base or self.base_arm() or "base"
        answers = tip_effect_answers(compared, alpha=alpha, half_width=half_width)
        return readable_frame(verdict_frame(compared, answers), VERDICTS_VIEW)

    def answer_records(self, base: str | None = None) -> list[Answer]:
        """Every question this run answers as an :class:`~hansa_lab.stats.answers.Answer`
        record, computed once — each arm against the base arm (``tip_effect``, when the
        run has a base arm and other arms), the seat balance of each group
        (``seat_balance``) and, in a sweep, each variant's effect on the first seat's
        advantage (``variant_effect``). The text report, the HTML report, the figures'
        markers and ``answers.csv`` all render these."""
        out: list[Answer] = []
        if self.summary().empty:
            return out
        arms = self.manifest.get("configuration", {}).get("arms", {})
        base = base or self.base_arm()
        if base is not None and len(arms) > 1:
            compared = self.compare(base)
            compared["base_arm"] = base
            out += tip_effect_answers(pd.DataFrame(getattr(compared, "full", compared)))
        out += seat_balance_answers(self.seats(), population=self._population())
        if self.base_variant() is not None:
            out += variant_answers(self.variants())
        return out

    def _population(self) -> str:
        """Who played, in words (``"arms: main = greedy, greedy, greedy"``)."""
        arms = self.manifest.get("configuration", {}).get("arms", {})
        return "; ".join(f"{k} = {', '.join(map(str, v))}" for k, v in arms.items())

    def seats(self) -> pd.DataFrame:
        """Win rate (Wilson interval) and mean score per seat against the fair share, with
        the tests of equal seats, per arm and condition
        (:func:`hansa_lab.stats.seat_advantage`); :func:`hansa_lab.stats.seat_verdicts`
        reads it."""
        df, games, _ = self._player_games()
        players = df[["experiment", "arm", "game_id", "seat", "strategy", "total",
                      "win_share"]]
        return seat_advantage(players, games)

    def base_variant(self) -> str | None:
        """A sweep's variant without changes (the others are compared with it), else None."""
        base = self.manifest.get("configuration", {}).get("base_variant")
        return str(base) if base else None

    def _variant_of(self, games: pd.DataFrame) -> pd.Series:
        """The variant of every row of ``games`` (from the run's conditions: player count,
        board, edition and options)."""
        names = {}
        for c in self.manifest.get("configuration", {}).get("conditions", []):
            key = (int(c["players"]), c["board"], c["edition"],
                   json.dumps(c.get("options", {}), sort_keys=True))
            names[key] = c.get("variant", "")
        keys = zip(games["n_players"].astype(int), games["board"], games["edition"],
                   games["options"], strict=True)
        return pd.Series([names.get(k, "?") for k in keys], index=games.index, dtype="string")

    def variants(self, base: str | None = None, *, alpha: float = 0.05) -> pd.DataFrame:
        """A sweep's rule variants against the base variant (default: the run's), per arm,
        condition and measure — the mean score, the first seat's win share, the focal
        strategy's win share (mixed line-ups) and the game length — paired by deal, with
        verdicts (:func:`hansa_lab.stats.variant_comparison`). In a sweep the other
        summaries (:meth:`summary`, :meth:`compare`, :meth:`seats`) name the variant in
        their ``options`` column."""
        base = base or self.base_variant()
        if base is None:
            raise ValueError("this run has no rule variants (no [variants] or [sweep] in its "
                             "experiment)")
        games = self.read("games", ["experiment", "arm", "game_id", "seed", "rotation",
                                    "n_players", "board", "side", "edition", "options",
                                    "rounds"])
        games["variant"] = self._variant_of(games)
        players = self.read("players", ["experiment", "arm", "game_id", "seat", "total",
                                        "win_share"])
        return variant_comparison(players, games, base, alpha=alpha)

    def balance(self, *, turns: bool = False) -> pd.DataFrame:
        """The balance objective per variant (a sweep's ``options`` column holds the
        variant's name), arm and player count when they vary
        (:func:`hansa_lab.stats.balance_table`): first-seat advantage with its interval,
        the largest seat gap, the spread of strategy win rates, game length, end-reason
        mix and, with ``turns=True`` (a ``full`` log), lead changes. Lead changes follow
        the turns table's ``projected`` score, which uses the printed scoring numbers."""
        games = self.read("games", ["experiment", "arm", "game_id", "n_players", "board",
                                    "edition", "options", "rounds", "end_reason"])
        if self.base_variant() is not None:
            games["options"] = self._variant_of(games)
        players = self.read("players", ["experiment", "arm", "game_id", "seat", "strategy",
                                        "win_share"])
        t = self.read("turns", ["experiment", "arm", "game_id", "round", "turn", "seat",
                                "projected"]) if turns else None
        table = balance_table(players, games, t)
        if self.base_variant() is not None and "options" in table.columns:  # sweep order
            conditions = self.manifest.get("configuration", {}).get("conditions", [])
            order = list(dict.fromkeys(c.get("variant", "") for c in conditions))
            rank = table["options"].map({v: i for i, v in enumerate(order)})
            table = readable_frame(table.iloc[np.argsort(rank.to_numpy(), kind="stable")]
                                   .reset_index(drop=True), table._view)
        return table

    def most_balanced(self, rounds: tuple[float, float] | None = None, *,
                      looks: int = 1) -> BalanceAnswers:
        """Which variant of the sweep is most balanced, per arm and player count, among
        those whose mean game length lies within ``rounds`` (:meth:`balance`,
        :func:`hansa_lab.stats.most_balanced`): the variants that cannot be told apart
        from the best by the size of the first seat's advantage, a word per variant and
        the answer line ("cannot tell yet" when that set holds every variant)."""
        table = self.balance()
        by = [c for c in ("arm", "n_players") if c in table.columns]
        arms = self.manifest.get("configuration", {}).get("arms", {})
        return most_balanced(table, rounds, by=by, looks=looks,
                             population=next(iter(arms)) if len(arms) == 1 else "")

    def base_arm(self) -> str | None:
        """The arm the others are compared with: the experiment's ``base_arm``, else an
        arm named ``base``, else None."""
        config = self.manifest.get("configuration", {})
        arms = config.get("arms", {})
        return config.get("base_arm") or ("base" if "base" in arms else None)

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

    def report(self) -> str:
        """A text report: totals, per-strategy summary, the paired comparison when a
        base arm exists, and per-seat results when every arm is a single strategy;
        every line within :data:`~hansa_lab.stats.terminal.TERMINAL_WIDTH` characters
        (sentences wrapped, wide tables split into blocks of columns)."""
        c = self.completeness
        where = f" in {self.path}" if self.path else ""
        lines = [f"{self.manifest.get('name')}: {c.games_done} of {c.total_games} "
                 f"games{where}, {c.failures} failed"]
        if not c.complete and self.path is not None:
            lines.append(f"{c.text()} (status {c.status!r}; run the same command again to "
                         "play the missing chunks)")
            lines += [f"  chunk {i}: {why}" for i, why in sorted(c.bad.items())[:10]]
        design = self.manifest.get("design", {})
        rounding = design.get("rounding")
        if rounding and design.get("rounded", True):  # older manifests: always shown
            lines.append(f"({rounding})")
        lines += self._stall_lines()
        summary = self.summary()
        if summary.empty:
            return _text([*lines, "no finished games"])
        lines += ["", "Win rate and mean score per arm and strategy (95% intervals):",
                  _Table(format_table(summary))]
        arms = self.manifest.get("configuration", {}).get("arms", {})
        base = self.base_arm()
        if base is not None and len(arms) > 1:
            verdicts = self.verdicts(base)
            shown = verdicts.drop(columns=[*HIDDEN_VERDICT_COLUMNS, "base_arm"])
            lines += ["", f"Focal strategy vs the same seat of arm {base!r} (same seed and "
                          "rotation; 95% intervals over deals):",
                      _Table(format_table(shown)), "",
                      "Verdicts (decided by the focal player's final score, Holm-adjusted "
                      "over the arms; the win share is secondary):"]
            lines += [f"  {_where(r)}{r.arm}: {r.text}"
                      for r in verdicts.itertuples(index=False)]
        if arms and all(len(set(v)) == 1 for v in arms.values()):
            seats = self.seats()
            lines += ["", "Per seat, against the fair share (seat 0 moves first; 95% "
                          "intervals; p_wins_holm: the test of equal win counts, which "
                          "decides; p_score: Friedman's test on scores, secondary):",
                      _Table(format_table(seats[[c for c in seats.columns
                                                 if c not in HIDDEN_SEAT_COLUMNS]])),
                      "", "Seat balance:"]
            lines += [f"  {a.text}" for a in seat_balance_answers(seats)]
        base_variant = self.base_variant()
        if base_variant is not None:
            lines += ["", *self._variant_lines(base_variant)]
        return _text(lines)

    def answers(self) -> pd.DataFrame:
        """One row per question the run answers — each arm against the base arm, each
        seat against its fair share with the seats' balance verdict, each rule variant
        against the base variant — with the estimate, its 95% interval (``low``,
        ``high``), ``p_value``, ``p_holm``, the ``verdict`` word, the games and deals and
        the sentence: the frame ``answers.csv`` holds
        (:func:`hansa_lab.sim.exports.answers_frame`)."""
        from hansa_lab.sim.exports import answers_frame

        return answers_frame(self)

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables the report shows with spreadsheet columns (shares in percent, units
        in the names, an interval as two columns), by name — ``summary``, ``seats``,
        ``verdicts`` (with a base arm), ``variants`` and ``balance`` (sweeps): the
        frames ``tables/NAME.csv`` hold (:func:`hansa_lab.sim.exports.spreadsheet_tables`)."""
        from hansa_lab.sim.exports import spreadsheet_tables

        return spreadsheet_tables(self)

    def export(self, folder: str | os.PathLike[str] | None = None, *, csv: bool = True,
               figures: bool = True) -> Any:
        """Write the run's results for use outside the lab into ``folder`` (default: the
        run's folder): ``answers.csv`` (:meth:`answers`) and ``tables/NAME.csv``
        (:meth:`tables`) with ``csv``, the report's figures as ``figures/NAME.png`` and
        ``.svg`` with ``figures``. Returns the
        :class:`~hansa_lab.sim.exports.ExportedFiles` written
        (:func:`hansa_lab.sim.exports.export_run`)."""
        from hansa_lab.sim.exports import export_run

        return export_run(self, folder, csv=csv, figures=figures)

    def _variant_lines(self, base: str) -> list[str]:
        """The report's section on a sweep's variants (:meth:`variants`)."""
        table = self.variants(base)
        if table.empty:
            return [f"Rule variants: no variant has games paired with {base!r} yet"]
        shown = table[[c for c in table.columns if c not in (
            "base_variant", *HIDDEN_VERDICT_COLUMNS, "identical")]]
        lines = [f"Rule variants vs {base!r} (same deals and rotations; paired, 95% "
                 "intervals over deals; win shares in percentage points):",
                 _Table(format_table(shown)), "", "Verdicts (Holm-adjusted per measure):"]
        lines += [f"  {_where(r)}{r.arm}, {r.measure}, {r.variant}: {variant_sentence(r)}"
                  for r in table.itertuples(index=False)]
        balance = self.balance().rename(columns={"options": "variant"})
        cols = [c for c in ("variant", "arm", "n_players", "games", "first_seat_adv",
                            "seat_gap", "strategy_spread", "rounds", "end_prestige",
                            "end_cities", "end_markers") if c in balance.columns]
        shown_b = balance[cols].copy()
        for c in ("first_seat_adv", "seat_gap", "strategy_spread", "end_prestige",
                  "end_cities", "end_markers"):
            shown_b[c] = ["-" if math.isnan(v) else f"{100 * v:+.1f}%"
                          if c == "first_seat_adv" else f"{100 * v:.1f}%" for v in shown_b[c]]
        shown_b = with_balance_intervals(shown_b, balance)
        lines += ["", "Balance per variant (seat 0 (first player)'s advantage: its win share "
                      "minus the fair share; seat gap: the largest of any seat; 95% "
                      "intervals; strategy spread: best minus worst strategy's win rate; "
                      "mean rounds; end reasons):",
                  _Table(format_table(shown_b)), "", "Most balanced:"]
        lines += [f"  {line}" for line in self.most_balanced().lines()]
        return lines


#: What a :meth:`Results.verdicts` frame shows (it holds every column).
VERDICTS_VIEW = View(
    columns=("n_players", "board", "edition", "options", "arm", "strategy", "base_strategy",
             "deals", "score_diff", "p_holm", "verdict", "win_rate", "win_diff"),
    percent=("win_rate", "win_diff"), intervals=(("score_diff", "diff_lo", "diff_hi"),))
#: Columns of a verdicts table the reports leave out: the raw p-value (the verdict uses
#: the Holm-adjusted ``p_holm``, which the tables show), and what the sentence says.
HIDDEN_VERDICT_COLUMNS = ("se", "p_value", "verdict", "filled", "detectable", "more_deals",
                          "text")
#: Columns of a seats table the reports leave out: test statistics, win counts and the
#: raw win test (the seat verdicts use the Holm-adjusted ``p_wins_holm``).
HIDDEN_SEAT_COLUMNS = ("chi2", "friedman", "test", "wins", "p_wins")


class _Table(str):
    """An aligned table among a report's lines (:func:`format_table`): never wrapped."""


def _text(lines: Sequence[str]) -> str:
    """A report's lines as text: the sentences wrapped to the terminal's width
    (:func:`~hansa_lab.stats.terminal.wrap_text`), the tables as they are."""
    return "\n".join(line if isinstance(line, _Table) else wrap_text(line) for line in lines)


def _where(row: Any) -> str:
    """The varying conditions of a compare row as a prefix (``"3p, original: "``)."""
    parts = [f"{row.n_players}p" if hasattr(row, "n_players") else "",
             *(str(getattr(row, c)) for c in ("board", "edition", "options") if hasattr(row, c))]
    text = ", ".join(p for p in parts if p)
    return f"{text}: " if text else ""


#: The value of a column that a run written by an older version does not have.
_UNKNOWN: dict[str, Any] = {"string": "", "bool": False, "float64": float("nan")}


def _expression(filters: Any) -> Any:
    if filters is None:
        return None
    if isinstance(filters, list):
        import pyarrow.parquet as pq

        return pq.filters_to_expression(filters)
    return filters


def format_table(df: pd.DataFrame, width: int = TERMINAL_WIDTH) -> str:
    """Format a :meth:`Results.summary` / :meth:`Results.compare` frame as aligned text:
    win rates as percentages, a value's ``*_lo``/``*_hi`` interval in brackets; wider than
    ``width`` characters, split into blocks of columns, each led by the columns that name
    its rows (:func:`hansa_lab.stats.terminal.aligned_table`)."""
    headers, columns = formatted_columns(df)
    labels = 0
    for h in headers:  # the leading text columns (and ids such as seat) name the rows
        if h not in df.columns or (pd.api.types.is_numeric_dtype(df[h])
                                   and h not in LABEL_COLUMNS):
            break
        labels += 1
    return aligned_table(headers, columns, keys=row_keys(columns, labels), width=width)


def formatted_columns(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The headers and the cells (as text, column by column) of :func:`format_table`, for
    other layouts such as HTML tables."""
    intervals = {
        "win_rate": ("win_lo", "win_hi"),
        "mean_score": ("score_lo", "score_hi"),
        "score_diff": ("diff_lo", "diff_hi"),
        "win_diff": ("win_diff_lo", "win_diff_hi"),
        "diff": ("diff_lo", "diff_hi"),
    }
    intervals = {k: v for k, v in intervals.items()
                 if k in df.columns and v[0] in df.columns and v[1] in df.columns}
    hidden = {c for pair in intervals.values() for c in pair}

    def fmt(v: Any, pct: bool, pvalue: bool = False) -> str:
        if isinstance(v, float | np.floating):
            if math.isnan(v):
                return "-"
            if pvalue:
                return format_p(float(v))
            return f"{100 * v:.1f}%" if pct else f"{v:.1f}"
        return str(v)

    headers: list[str] = []
    columns: list[list[str]] = []
    for col in df.columns:
        if col in hidden:
            continue
        pct = "win" in col or col == "fair"
        pvalue = col.startswith("p_")
        if col == "seat":  # seats by name: seat 0 moves first
            headers.append(col)
            columns.append([seat_name(int(v)) for v in df[col]])
        elif col in intervals:
            lo, hi = intervals[col]
            headers.append(f"{col} [95% CI]")
            columns.append([
                f"{fmt(v, pct)} [{fmt(a, pct)}, {fmt(b, pct)}]"
                for v, a, b in zip(df[col], df[lo], df[hi], strict=True)
            ])
        else:
            headers.append(col)
            columns.append([fmt(v, pct and not pvalue, pvalue) for v in df[col]])
    return headers, columns
