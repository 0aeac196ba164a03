"""What leaves the lab: a run's answers and tables as CSV files a spreadsheet opens, and the
report's figures as PNG and SVG files to paste into slides.

A run folder gets, beside its parquet tables::

    answers.csv            one row per question the run answers (each verdict)
    tables/summary.csv     win share and mean score per arm and strategy
    tables/verdicts.csv    each arm against the base arm (runs with a base arm)
    tables/seats.csv       win share and mean score per seat, the tests of equal seats
    tables/variants.csv    each rule variant against the base variant (sweeps)
    tables/balance.csv     the balance measures per variant (sweeps)
    figures/NAME.png       the report's figures (200 dpi) ...
    figures/NAME.svg       ... and as vector drawings

Every CSV is UTF-8 with one header row, comma-separated, no index column; numbers are
numbers (an interval is two columns, ``*_low_*`` and ``*_high_*``), shares are in percent
(``win_share_pct``: 32.1 means 32.1%), a column's name ends with its unit, and an empty
cell means "no value". Floats keep 6 significant digits. The frames are the same from
Python: :meth:`Results.answers() <hansa_lab.sim.results.Results.answers>`,
:meth:`Results.tables() <hansa_lab.sim.results.Results.tables>` and
:meth:`Results.export() <hansa_lab.sim.results.Results.export>`, which writes the files.

>>> from hansa_lab.sim.runner import simulate
>>> res = simulate(["greedy", "random", "random"], n_games=6, n_players=3, progress=False)
>>> res.answers()[["kind", "arm", "estimate", "low", "high", "reference", "unit"]].head(1)
   kind   arm  estimate      low     high  reference unit
0  seat  main   33.3333  9.67714  70.0007    33.3333    %
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from hansa_lab.sim.results import Results
    from hansa_lab.stats.answers import Answer

__all__ = [
    "ANSWER_COLUMNS",
    "FIGURES",
    "PNG_DPI",
    "ExportedFiles",
    "RunFrames",
    "answers_frame",
    "export_run",
    "figure_answers",
    "report_figures",
    "save_figure",
    "spreadsheet_tables",
    "write_csv",
]

#: The columns of ``answers.csv``, in order, and what each holds.
ANSWER_COLUMNS: dict[str, str] = {
    "kind": "tip (an arm against the base arm), seat (seat balance) or variant (a rule "
            "variant against the base variant)",
    "question": "the question, in words",
    "arm": "the arm (line-up) the answer is about",
    "condition": "the playing conditions when a run has several (player count, board, "
                 "variant); empty otherwise",
    "measure": "what is measured",
    "unit": "the unit of estimate, low, high and reference",
    "estimate": "the measured value (a difference for tips and variants)",
    "low": "the 95% interval's lower end",
    "high": "the 95% interval's upper end",
    "reference": "the value of no effect: 0 for a difference, the fair share for a seat",
    "p_value": "the test's p-value before adjustment",
    "p_holm": "the p-value after Holm's adjustment for the questions asked together "
              "(the verdict uses this one)",
    "verdict": "the answer's word (helps, hurts, no clear effect, balanced, ...)",
    "games": "the games the answer rests on (paired games for tips and variants)",
    "deals": "the deals (seeds) they were played on, the unit of the intervals",
    "sentence": "the whole answer as the report says it",
    "population": "who played (the opponents of a tip; the arms' line-ups for seats)",
    "test": "the primary test that decides the verdict",
    "family": "what the p-value was adjusted over",
    "filled": "whether a figure draws the answer's marker filled (the verdict is a finding)",
    "detectable": "the difference this run would detect with 80% power (empty where that "
                  "means nothing)",
    "more_deals": "deals (games for seats) more that would decide it; 0 decided, empty "
                  "unknown",
}

#: A column of a spreadsheet table: its name in the CSV file and the factor its values are
#: multiplied by (100 turns a share into percent).
_Column = tuple[str, float]

#: The columns every table keeps as they are (labels, in this order when present).
_LABELS = ("experiment", "n_players", "board", "side", "edition", "options", "variant", "arm",
           "strategy", "base_strategy", "measure", "unit", "base_variant", "seat")

#: Numeric columns of the result frames → their spreadsheet name and scale.
_NUMBERS: dict[str, _Column] = {
    "win_rate": ("win_share_pct", 100.0),
    "win_lo": ("win_share_low_pct", 100.0),
    "win_hi": ("win_share_high_pct", 100.0),
    "mean_score": ("mean_score_points", 1.0),
    "score_lo": ("mean_score_low_points", 1.0),
    "score_hi": ("mean_score_high_points", 1.0),
    "base_score": ("base_mean_score_points", 1.0),
    "base_win_rate": ("base_win_share_pct", 100.0),
    "score_diff": ("score_diff_points", 1.0),
    "win_diff": ("win_share_diff_pct_points", 100.0),
    "win_diff_lo": ("win_share_diff_low_pct_points", 100.0),
    "win_diff_hi": ("win_share_diff_high_pct_points", 100.0),
    "fair": ("fair_share_pct", 100.0),
    "wins": ("wins", 1.0),
    "games": ("games", 1.0),
    "deals": ("deals", 1.0),
    "p_value": ("p_value", 1.0),
    "p_holm": ("p_holm", 1.0),
    "p_wins": ("p_wins", 1.0),
    "p_wins_holm": ("p_wins_holm", 1.0),
    "p_score": ("p_score", 1.0),
}

#: Per table: the columns whose meaning depends on the table.
_PER_TABLE: dict[str, dict[str, _Column]] = {
    "summary": {"n": ("player_games", 1.0)},
    "verdicts": {"n": ("paired_games", 1.0),
                 "diff_lo": ("score_diff_low_points", 1.0),
                 "diff_hi": ("score_diff_high_points", 1.0),
                 "se": ("score_diff_se_points", 1.0),
                 "detectable": ("detectable_diff_points", 1.0),
                 "more_deals": ("more_deals_for_1_point", 1.0)},
    "seats": {"n": ("seat_games", 1.0)},
    # a variant's rows have different units: the ``unit`` column names each row's
    "variants": {"n": ("paired_games", 1.0), "mean": ("mean", 1.0),
                 "base_mean": ("base_mean", 1.0), "diff": ("diff", 1.0),
                 "diff_lo": ("diff_low", 1.0), "diff_hi": ("diff_high", 1.0),
                 "se": ("diff_se", 1.0), "more_deals": ("more_deals", 1.0)},
    "balance": {"first_seat_win": ("first_seat_win_share_pct", 100.0),
                "first_seat_adv": ("first_seat_advantage_pct_points", 100.0),
                "adv_lo": ("first_seat_advantage_low_pct_points", 100.0),
                "adv_hi": ("first_seat_advantage_high_pct_points", 100.0),
                "seat_gap": ("largest_seat_gap_pct_points", 100.0),
                "strategy_spread": ("strategy_spread_pct_points", 100.0),
                "rounds": ("mean_rounds", 1.0),
                "rounds_lo": ("mean_rounds_low", 1.0),
                "rounds_hi": ("mean_rounds_high", 1.0),
                "end_prestige": ("ended_by_prestige_pct", 100.0),
                "end_cities": ("ended_by_cities_pct", 100.0),
                "end_markers": ("ended_by_markers_pct", 100.0),
                "end_other": ("ended_otherwise_pct", 100.0),
                "lead_changes": ("mean_lead_changes", 1.0)},
}
#: Text columns a table keeps after its numbers.
_TEXTS = {"verdict": "verdict", "test": "seat_test", "text": "sentence"}

#: Units in words (the variant tables abbreviate percentage points).
_UNITS = {"pct points": "percentage points"}

#: The figures of the report, by file name: what each shows.
FIGURES: dict[str, str] = {
    "comparison": "each arm against the base arm: score and win-share differences",
    "seat_advantage": "win share per seat against the fair share",
    "score_breakdown": "the final score by scoring category, per strategy",
}

#: Words for a variant measure (the ``measure`` column of ``Results.variants``).
_VARIANT_MEASURES = {"score": "the mean final score",
                     "first_seat_win": "the first seat's win share",
                     "focal_win": "the focal strategy's win share",
                     "rounds": "the game length"}


@dataclass(frozen=True)
class ExportedFiles:
    """The files :func:`export_run` wrote: the folder, the CSV files and the figures."""

    folder: Path
    csv: tuple[Path, ...] = ()
    figures: tuple[Path, ...] = ()

    def text(self) -> str:
        """One line that says what was written where (``wrote answers.csv, tables/ (3
        CSV), figures/ (3 PNG, 3 SVG) in results/x``)."""
        answers = [p.name for p in self.csv if p.parent == self.folder]
        tables = [p for p in self.csv if p.parent != self.folder]
        pngs = sum(p.suffix == ".png" for p in self.figures)
        parts = [*answers, *([f"tables/ ({len(tables)} CSV)"] if tables else []),
                 *([f"figures/ ({pngs} PNG, {len(self.figures) - pngs} SVG)"]
                   if self.figures else [])]
        return f"wrote {', '.join(parts) or 'nothing'} in {self.folder}"


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """A result frame with every column, as a plain DataFrame (a readable frame's
    ``.full``)."""
    return pd.DataFrame(getattr(frame, "full", frame)).reset_index(drop=True)


def _significant(values: pd.Series, scale: float = 1.0) -> pd.Series:
    """Floats times ``scale``, kept to 6 significant digits (what the CSV file holds, so
    a file read back equals the frame); integers stay integers."""
    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        return values
    if pd.api.types.is_integer_dtype(values) and scale == 1.0:
        return values.astype("int64") if not values.isna().any() else values
    out = values.astype(float) * scale
    return out.map(lambda v: float(f"{v:.6g}") if math.isfinite(v) else math.nan)


def _spreadsheet(frame: pd.DataFrame, table: str, *, sweep: bool) -> pd.DataFrame:
    """A result frame with spreadsheet columns, in the frame's order: labels as they are,
    numbers under their unit's name (shares in percent), the verdict and the sentence;
    other columns (test statistics, flags) are left out."""
    df = _plain(frame)
    numbers = {**_NUMBERS, **_PER_TABLE.get(table, {})}
    out: dict[str, pd.Series] = {}
    for col in map(str, df.columns):
        values = df[col]
        if col in _LABELS:
            name = "variant" if col == "options" and sweep else col
            out[name] = values.replace(_UNITS) if col == "unit" else values
        elif col in numbers:
            name, scale = numbers[col]
            if col == "more_deals":  # -1: unknown, an empty cell
                values = values.astype("Int64").where(values >= 0)
            out[name] = _significant(values, scale)
        elif col in _TEXTS:
            out[_TEXTS[col]] = values
    return pd.DataFrame(out)


class RunFrames:
    """The result frames of a run that the report, ``answers.csv`` and the tables read,
    each computed once (from :class:`~hansa_lab.sim.results.Results`' methods, every
    column kept)."""

    def __init__(self, results: Results) -> None:
        self.results = results
        arms = results.manifest.get("configuration", {}).get("arms", {})
        base = results.base_arm()
        #: the arm the others are compared with, when the report compares arms
        self.base: str | None = base if base is not None and len(arms) > 1 else None
        #: a sweep of rule variants (its ``options`` columns hold the variant's name)
        self.sweep = results.base_variant() is not None

    @cached_property
    def summary(self) -> pd.DataFrame:
        return _plain(self.results.summary())

    @property
    def empty(self) -> bool:
        """No finished game yet."""
        return self.summary.empty

    @cached_property
    def verdicts(self) -> pd.DataFrame:
        if self.base is None:
            return pd.DataFrame()
        return _plain(self.results.verdicts(self.base))

    @cached_property
    def seats(self) -> pd.DataFrame:
        return _plain(self.results.seats())

    @cached_property
    def variants(self) -> pd.DataFrame:
        return _plain(self.results.variants()) if self.sweep else pd.DataFrame()

    @cached_property
    def balance(self) -> pd.DataFrame:
        return _plain(self.results.balance()) if self.sweep else pd.DataFrame()

    @cached_property
    def tip_answers(self) -> list[Answer]:
        """Each arm against the base arm (the records behind :attr:`verdicts`)."""
        from hansa_lab.stats.verdicts import tip_effect_answers

        return tip_effect_answers(self.verdicts) if self.base is not None else []

    @cached_property
    def seat_answers(self) -> list[Answer]:
        """The seat balance of each group of :attr:`seats`."""
        from hansa_lab.stats.verdicts import seat_balance_answers

        if self.seats.empty:
            return []
        keys = list(map(str, self.seats.columns[:list(self.seats.columns).index("seat")]))
        return seat_balance_answers(self.seats, group=keys,
                                    population=self.results._population())

    @cached_property
    def variant_answers(self) -> list[Answer]:
        """Each variant's effect on the first seat's advantage (sweeps)."""
        from hansa_lab.stats.variants import variant_answers

        return variant_answers(self.variants) if self.sweep else []

    @property
    def answers(self) -> list[Answer]:
        """Every answer record of the run, in the order the report shows them."""
        return [*self.tip_answers, *self.seat_answers, *self.variant_answers]


def _frames(results: Results | RunFrames) -> RunFrames:
    return results if isinstance(results, RunFrames) else RunFrames(results)


def spreadsheet_tables(results: Results | RunFrames) -> dict[str, pd.DataFrame]:
    """The tables the report shows, with spreadsheet columns (see the module doc), by file
    name: ``summary`` and ``seats``; ``verdicts`` with a base arm; ``variants`` and
    ``balance`` in a sweep. Empty when no game is finished."""
    run = _frames(results)
    if run.empty:
        return {}
    tables = {"summary": _spreadsheet(run.summary, "summary", sweep=run.sweep)}
    if run.base is not None:
        tables["verdicts"] = _spreadsheet(run.verdicts, "verdicts", sweep=run.sweep)
    tables["seats"] = _spreadsheet(run.seats, "seats", sweep=run.sweep)
    if run.sweep:
        tables["variants"] = _spreadsheet(run.variants, "variants", sweep=run.sweep)
        tables["balance"] = _spreadsheet(run.balance, "balance", sweep=run.sweep)
    return tables


def _condition(row: Mapping[str, Any], keys: list[str], *, sweep: bool) -> str:
    """The playing conditions of a row in words (``"3 players, base_3p, variant ew"``)."""
    words = []
    for key in keys:
        value = row[key]
        if key == "n_players":
            words.append(f"{value} players")
        elif key == "options" and sweep:
            words.append(f"variant {value}")
        else:
            words.append(str(value))
    return ", ".join(words)


def _record_columns(a: Answer) -> dict[str, Any]:
    """The columns every row of an answer record shares in ``answers.csv``."""
    return {"population": a.population, "test": a.test, "family": a.family,
            "filled": a.filled, "detectable": a.detectable,
            "more_deals": a.more_games if a.more_games >= 0 else math.nan}


def _tip_answers(run: RunFrames) -> list[dict[str, Any]]:
    conds = [c for c in ("n_players", "board", "edition", "options")
             if c in run.verdicts.columns]
    rows = []
    for r, a in zip(run.verdicts.to_dict("records"), run.tip_answers, strict=True):
        arm = "" if r["arm"] == r["strategy"] else f" (arm {r['arm']})"
        rows.append({
            "kind": "tip",
            "question": f"Does {r['strategy']}{arm} score more than {r['base_strategy']} "
                        f"in the same seat of arm {run.base}, on the same deals?",
            "arm": r["arm"], "condition": _condition(r, conds, sweep=run.sweep),
            "measure": "final score of the focal player, difference", "unit": a.unit,
            "estimate": a.estimate, "low": a.lo, "high": a.hi,
            "reference": 0.0, "p_value": a.p_raw, "p_holm": a.p_adjusted,
            "verdict": a.word, "games": r["n"], "deals": a.deals,
            "sentence": a.text, **_record_columns(a)})
    return rows


def _seat_answers(run: RunFrames) -> list[dict[str, Any]]:
    from hansa_lab.stats.answers import seat_name

    seats = run.seats
    if seats.empty:
        return []
    keys = list(map(str, seats.columns[:list(seats.columns).index("seat")]))
    groups = list(seats.groupby(keys, sort=False, dropna=False)) if keys else [((), seats)]
    conds = [k for k in keys if k != "arm"]
    arms = list(run.results.manifest.get("configuration", {}).get("arms", {}))
    only_arm = arms[0] if len(arms) == 1 else ""  # one arm: the table has no arm column
    rows = []
    for (_, group), a in zip(groups, run.seat_answers, strict=True):
        for r in group.to_dict("records"):
            name = seat_name(int(r["seat"]))
            rows.append({
                "kind": "seat",
                "question": f"Are the seats balanced? {name[0].upper()}{name[1:]}: its win "
                            "share against the fair share",
                "arm": r.get("arm", only_arm), "condition": _condition(r, conds, sweep=run.sweep),
                "measure": f"win share of {name}", "unit": "%",
                "estimate": 100 * r["win_rate"], "low": 100 * r["win_lo"],
                "high": 100 * r["win_hi"], "reference": 100 * r["fair"],
                "p_value": a.p_raw, "p_holm": a.p_adjusted, "verdict": a.word,
                "games": r["games"], "deals": math.nan, "sentence": a.text,
                **_record_columns(a), "detectable": 100 * a.detectable})
    return rows


def _variant_answers(run: RunFrames) -> list[dict[str, Any]]:
    conds = [c for c in ("n_players", "board", "edition") if c in run.variants.columns]
    primary = {(a.details["variant"], a.details["where"]): a for a in run.variant_answers}
    rows = []
    for r in run.variants.to_dict("records"):
        what = _VARIANT_MEASURES.get(str(r["measure"]), str(r["measure"]))
        keys = [c for c in ("n_players", "side", "edition", "arm") if c in r]
        record = primary.get((r["variant"], ", ".join(f"{r[k]}" for k in keys)))
        main = r["measure"] == "first_seat_win"
        extra = (_record_columns(record) if record is not None and main else
                 {"population": r["arm"], "test": "paired t-test over deals",
                  "family": "Holm over the variants, per measure (secondary measure)",
                  "filled": bool(r.get("filled", False)), "detectable": math.nan,
                  "more_deals": r["more_deals"] if r["more_deals"] >= 0 else math.nan})
        rows.append({
            "kind": "variant",
            "question": f"Does variant {r['variant']} change {what} against "
                        f"{r['base_variant']}?",
            "arm": r["arm"], "condition": _condition(r, conds, sweep=True),
            "measure": f"{what}, difference" + ("" if main else " (secondary)"),
            "unit": _UNITS.get(str(r["unit"]), r["unit"]),
            "estimate": r["diff"], "low": r["diff_lo"], "high": r["diff_hi"],
            "reference": 0.0, "p_value": r["p_value"], "p_holm": r["p_holm"],
            "verdict": r["verdict"], "games": r["n"], "deals": r["deals"],
            "sentence": r["text"], **extra})
    return rows


def answers_frame(results: Results | RunFrames) -> pd.DataFrame:
    """One row per question the run answers, in the columns of :data:`ANSWER_COLUMNS`:
    each arm against the base arm (``tip``), each seat against its fair share with the
    verdict on the seats' balance (``seat``) and, in a sweep, each variant and measure
    against the base variant (``variant``). Each row renders one
    :class:`~hansa_lab.stats.answers.Answer` record (:attr:`RunFrames.answers`, the same
    records the report, the text report and the figures render): its word, p-values,
    interval, test, family and filled state; numbers kept to 6 significant digits."""
    run = _frames(results)
    rows: list[dict[str, Any]] = []
    if not run.empty:
        rows += _tip_answers(run) if run.base is not None else []
        rows += _seat_answers(run)
        rows += _variant_answers(run) if run.sweep else []
    df = pd.DataFrame(rows, columns=list(ANSWER_COLUMNS))
    for col in ("estimate", "low", "high", "reference", "p_value", "p_holm", "detectable"):
        df[col] = _significant(df[col].astype(float))
    for col in ("games", "deals", "more_deals"):
        df[col] = df[col].astype("Int64")
    df["filled"] = df["filled"].astype(bool)
    for col in ANSWER_COLUMNS:
        if df[col].dtype == object:
            df[col] = df[col].astype("string")
    return df


def report_figures(results: Results | RunFrames) -> dict[str, Figure]:
    """The report's figures by file name (:data:`FIGURES`): ``comparison`` (with a base
    arm), ``seat_advantage`` and ``score_breakdown``. Empty when no game is finished. The
    caller closes them (:func:`save_figure` does)."""
    from hansa_lab.stats import compare_arms, plots

    run = _frames(results)
    if run.empty:
        return {}
    res = run.results
    figures: dict[str, Figure] = {}
    if run.base is not None:
        figures["comparison"] = plots.plot_comparison(
            compare_arms(res.players, res.games, run.base), answers=run.tip_answers)
    figures["seat_advantage"] = plots.plot_seat_advantage(run.seats)
    figures["score_breakdown"] = plots.plot_score_breakdown(res.players)
    return figures


#: The resolution of an exported PNG: sharp on a slide or printed at its size.
PNG_DPI = 200


def save_figure(fig: Figure, folder: Path, name: str, *, close: bool = True) -> list[Path]:
    """Write ``fig`` as ``folder/name.png`` (:data:`PNG_DPI`) and ``folder/name.svg``,
    each file complete or not there (written beside and renamed); returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    said = figure_answers(fig)
    formats: dict[str, dict[str, Any]] = {
        "png": {"dpi": PNG_DPI, "metadata": {"Software": None,
                                              **({"Description": said} if said else {})}},
        # no date: the same figure, the same file
        "svg": {"metadata": {"Date": None, **({"Description": said} if said else {})}},
    }
    for fmt, options in formats.items():
        def draw(tmp: Path, fmt: str = fmt, options: dict[str, Any] = options) -> None:
            fig.savefig(tmp, format=fmt, bbox_inches="tight", **options)

        path = folder / f"{name}.{fmt}"
        _atomic(path, draw)
        paths.append(path)
    if close:
        import matplotlib.pyplot as plt

        plt.close(fig)
    return paths


def figure_answers(fig: Figure) -> str:
    """The answers a figure draws (``fig._hansa_answers``) as JSON text — one object per
    answer with its question, word and filled state — or "" when it draws none. The
    exported PNG and SVG files carry it as their ``Description`` metadata and the HTML
    report as the image's ``data-answers`` attribute."""
    import json

    drawn = getattr(fig, "_hansa_answers", None)
    if not drawn:
        return ""
    return json.dumps([{"question": a.question, "word": a.word, "filled": a.filled}
                       for a in drawn])


def _atomic(path: Path, write: Callable[[Path], Any]) -> None:
    """``write`` to a temporary file beside ``path``, then rename it to ``path``."""
    tmp = path.with_name(f".{path.name}.part")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_csv(frame: pd.DataFrame, path: Path) -> Path:
    """``frame`` as a spreadsheet CSV file: UTF-8, a header row, no index column, empty
    cells for missing values."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _atomic(path, lambda tmp: frame.to_csv(tmp, index=False, encoding="utf-8",
                                           lineterminator="\n"))
    return path


def export_run(results: Results, folder: str | os.PathLike[str] | None = None, *,
               csv: bool = True, figures: bool = True) -> ExportedFiles:
    """Write ``answers.csv`` and ``tables/*.csv`` (``csv``) and ``figures/*.png|svg``
    (``figures``) of ``results`` into ``folder`` (default: the run's folder; a run kept
    in memory needs one). Files of an earlier export are replaced; nothing else in the
    folder changes."""
    if folder is None:
        if results.path is None:
            raise ValueError("this run is kept in memory: give the folder to write to")
        folder = results.path
    root = Path(folder).expanduser()
    if root.exists() and not root.is_dir():
        raise NotADirectoryError(f"{root} is a file, not a folder")
    written_csv: list[Path] = []
    written_figures: list[Path] = []
    run = RunFrames(results)
    if csv:
        written_csv.append(write_csv(answers_frame(run), root / "answers.csv"))
        written_csv += [write_csv(table, root / "tables" / f"{name}.csv")
                        for name, table in spreadsheet_tables(run).items()]
    if figures:
        for name, fig in report_figures(run).items():
            written_figures += save_figure(fig, root / "figures", name)
    return ExportedFiles(root, tuple(written_csv), tuple(written_figures))

