"""Results that leave the lab: every run folder gets ``answers.csv``, the report's tables as
``tables/*.csv`` and its figures as ``figures/*.png|svg``; ``hansa-lab report RUN --csv
--figures`` writes them for an existing run; the CSV files read back (csv module, pandas)
to the frames of ``Results.answers()`` / ``Results.tables()``."""

from __future__ import annotations

import csv
import math
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from run_helpers import run_cli

from hansa_lab.sim import exports
from hansa_lab.sim.results import Results, open_results
from hansa_lab.sim.runner import run_experiment, simulate
from hansa_lab.stats.verdicts import seat_verdicts
from hansa_lab.tools import cli

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

TIPS = """name = "tips"
games = 6
seed = 0
base_arm = "base"
players = 3
[arms]
base = ["greedy"]
rnd = ["random", "greedy", "greedy"]
"""

SWEEP = """name = "sweep"
games = 6
seed = 0
players = 3
log = "summary"
[arms]
r = ["random"]
[variants]
printed = {}
ew = {east_west_points = [5, 3, 1]}
"""


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of ``hansa-lab simulate`` into a folder (greedy against two random players)."""
    out = tmp_path_factory.mktemp("sim") / "run"
    assert cli.main(["simulate", "--players", "3", "--games", "6", "--strategies",
                     "greedy,random,random", "--out", str(out), "--no-progress"]) == 0
    return out


def _experiment(tmp_path_factory: pytest.TempPathFactory, text: str) -> Results:
    folder = tmp_path_factory.mktemp("exp")
    (folder / "e.toml").write_text(text, encoding="utf-8")
    return run_experiment(folder / "e.toml", out=folder / "run", progress=False)


@pytest.fixture(scope="module")
def tips(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """A run with a base arm and a tip arm, played from Python (no exports written)."""
    return _experiment(tmp_path_factory, TIPS)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """A sweep of two rule variants, played from Python."""
    return _experiment(tmp_path_factory, SWEEP)


def _read_back(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, encoding="utf-8")


def _same(frame: pd.DataFrame, read: pd.DataFrame) -> None:
    """A CSV file read by pandas holds the frame: the same columns, numbers equal (to the
    last digit kept), texts equal (an empty text is an empty cell)."""
    assert list(read.columns) == list(frame.columns)
    assert len(read) == len(frame)
    for col in frame.columns:
        mine = frame[col]
        if pd.api.types.is_numeric_dtype(mine) and not pd.api.types.is_bool_dtype(mine):
            pd.testing.assert_series_equal(read[col].astype(float), mine.astype(float),
                                           check_names=False, rtol=0, atol=0)
        else:
            cells = read[col].astype(object).where(read[col].notna(), "")
            assert cells.astype(str).tolist() == mine.fillna("").astype(str).tolist(), col


# ------------------------------------------------------------------ what a run writes


def test_simulate_writes_answers_and_tables(simulated: Path) -> None:
    assert (simulated / "answers.csv").is_file()
    assert sorted(p.name for p in (simulated / "tables").iterdir()) == [
        "seats.csv", "summary.csv"]
    assert not (simulated / "figures").exists()  # drawn by report --figures (seconds)
    assert not list(simulated.rglob(".*.part"))  # no half-written file left


def _check_figures(folder: Path, names: list[str]) -> None:
    """``folder`` holds ``NAME.png`` (a PNG file) and ``NAME.svg`` (an SVG drawing) for each
    name, and nothing else."""
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{n}.{ext}" for n in names for ext in ("png", "svg"))
    for png in folder.glob("*.png"):
        assert png.read_bytes()[:8] == PNG_MAGIC, png
    for svg in folder.glob("*.svg"):
        root = ET.parse(svg).getroot()
        assert root.tag.endswith("svg"), svg
        assert len(list(root.iter())) > 50  # drawn, not an empty page


def test_answers_csv_reads_back_with_the_csv_module(simulated: Path) -> None:
    frame = open_results(simulated).answers()
    with (simulated / "answers.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(exports.ANSWER_COLUMNS) == list(frame.columns)
    assert len(rows) == len(frame) == 3  # a seat row per seat of the one arm
    for row, expected in zip(rows, frame.to_dict("records"), strict=True):
        for col in ("estimate", "low", "high", "reference", "p_value", "p_holm"):
            assert float(row[col]) == expected[col], col  # numbers, not "32.1 [31.5, 32.8]"
        assert int(row["games"]) == expected["games"] == 6
        assert row["deals"] == ""  # no value: an empty cell
        assert row["kind"] == "seat" and row["unit"] == "%" and row["arm"] == "main"
        assert row["verdict"] == expected["verdict"] and row["sentence"] == expected["sentence"]


def test_every_csv_reads_back_with_pandas_to_the_api_frames(simulated: Path) -> None:
    res = open_results(simulated)
    _same(res.answers(), _read_back(simulated / "answers.csv"))
    tables = res.tables()
    assert set(tables) == {"summary", "seats"}
    for name, frame in tables.items():
        _same(frame, _read_back(simulated / "tables" / f"{name}.csv"))


def test_the_csv_files_are_spreadsheet_friendly(simulated: Path) -> None:
    """UTF-8, one header row of plain names with units, no index column, shares in
    percent, an interval as two number columns."""
    for path in [simulated / "answers.csv", *(simulated / "tables").glob("*.csv")]:
        text = path.read_bytes().decode("utf-8")  # UTF-8 (no BOM, no other encoding)
        header = text.splitlines()[0].split(",")
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", h) for h in header), header
        assert not text.startswith(",") and "Unnamed" not in text
    summary = _read_back(simulated / "tables" / "summary.csv")
    plain = pd.DataFrame(getattr(open_results(simulated).summary(), "full", None))
    assert summary["win_share_pct"].tolist() == pytest.approx(
        (100 * plain["win_rate"]).tolist(), rel=1e-5)
    for col in ("win_share_pct", "win_share_low_pct", "win_share_high_pct",
                "mean_score_points", "mean_score_low_points", "mean_score_high_points"):
        assert pd.api.types.is_float_dtype(summary[col]), col
    assert (summary["win_share_low_pct"] <= summary["win_share_pct"]).all()
    assert pd.api.types.is_integer_dtype(summary["player_games"])


# ------------------------------------------------------------------ the answers


def test_tip_rows_are_the_verdicts(tips: Results) -> None:
    answers = tips.answers()
    tip = answers[answers["kind"] == "tip"].reset_index(drop=True)
    verdicts = pd.DataFrame(getattr(tips.verdicts(), "full", tips.verdicts()))
    assert len(tip) == len(verdicts) == 1
    row, v = tip.iloc[0], verdicts.iloc[0]
    assert row["arm"] == v["arm"] == "rnd"
    assert row["estimate"] == pytest.approx(v["score_diff"], rel=1e-5)
    assert (row["low"], row["high"]) == pytest.approx((v["diff_lo"], v["diff_hi"]), rel=1e-5)
    assert row["p_holm"] == pytest.approx(v["p_holm"], rel=1e-5, nan_ok=True)
    assert row["verdict"] == v["verdict"] and row["sentence"] == v["text"]
    assert row["filled"] == v["filled"] and row["test"] == "paired t-test over deals"
    assert (row["games"], row["deals"]) == (v["n"], v["deals"])
    assert "random (arm rnd)" in row["question"] and "arm base" in row["question"]
    assert row["unit"] == "points"
    assert set(tips.tables()) == {"summary", "verdicts", "seats"}


def test_seat_rows_carry_the_reports_seat_verdicts(tips: Results) -> None:
    answers = tips.answers()
    seats = answers[answers["kind"] == "seat"]
    assert len(seats) == 6  # 3 seats in each of 2 arms
    lines = seat_verdicts(tips.seats())
    assert set(seats["sentence"]) == set(lines)
    for row in seats.itertuples(index=False):
        assert row.verdict and f": {row.verdict}" in row.sentence.split(" — ")[0]
        assert row.reference == pytest.approx(100 / 3, rel=1e-5)
        assert row.low <= row.estimate <= row.high


def test_a_sweep_answers_each_variant_and_writes_its_tables(sweep: Results) -> None:
    answers = sweep.answers()
    rows = answers[answers["kind"] == "variant"]
    variants = pd.DataFrame(getattr(sweep.variants(), "full", sweep.variants()))
    assert len(rows) == len(variants) > 0
    assert set(rows["unit"]) <= {"points", "percentage points", "rounds"}
    assert "percentage points" in set(rows["unit"])
    tables = sweep.tables()
    assert {"variants", "balance"} <= set(tables)
    assert "variant" in tables["summary"].columns  # a sweep names its variants
    assert "first_seat_advantage_pct_points" in tables["balance"].columns


# ------------------------------------------------------------------ from Python


def test_results_export_writes_where_asked(tmp_path: Path) -> None:
    res = simulate(["random"], n_games=3, n_players=3, progress=False)
    with pytest.raises(ValueError, match="in memory"):
        res.export()  # no folder of its own
    written = res.export(tmp_path / "x", figures=False)
    assert (tmp_path / "x" / "answers.csv").is_file()
    assert not (tmp_path / "x" / "figures").exists()
    assert written.text().startswith("wrote answers.csv, tables/ (2 CSV) in ")


# ------------------------------------------------------------------ the report command


def test_report_csv_figures_writes_them_for_an_existing_run(
        tips: Results, capsys: pytest.CaptureFixture[str]) -> None:
    folder = Path(tips.path or "")
    assert not (folder / "answers.csv").exists()  # played from Python: nothing exported
    assert cli.main(["report", str(folder), "--csv", "--figures"]) == 0
    out = capsys.readouterr().out
    assert f"wrote answers.csv, tables/ (3 CSV) in {folder}" in out
    assert f"figures as PNG and SVG in {folder / 'figures'}" in out
    _check_figures(folder / "figures", ["comparison", "score_breakdown", "seat_advantage"])
    _same(tips.answers(), _read_back(folder / "answers.csv"))
    for name, frame in tips.tables().items():
        _same(frame, _read_back(folder / "tables" / f"{name}.csv"))
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 3  # the page keeps its figures


def test_report_without_the_flags_writes_only_the_page(
        simulated: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from hansa_lab.viz import report

    asked: list[Any] = []

    def page(res: Any, path: Path, *, title: Any = None, figures_folder: Any = None) -> Path:
        asked.append(figures_folder)
        return Path(path)

    monkeypatch.setattr(report, "write_report", page)  # the page itself: tested elsewhere
    monkeypatch.setattr(exports, "export_run", lambda *a, **k: pytest.fail("exported"))
    assert cli.main(["report", str(simulated)]) == 0
    assert asked == [None]  # no figure files
    assert "answers.csv" not in capsys.readouterr().out


def _file_at(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("in the way", encoding="utf-8")
    return path


@pytest.mark.parametrize(("argv", "words"), [
    (lambda run, tmp: [str(tmp / "missing"), "--csv"], "RESULTS"),
    (lambda run, tmp: [str(_file_at(tmp / "f.txt")), "--figures"], "RESULTS"),
    (lambda run, tmp: [str(run), "--figures", "--html",
                       str(_file_at(tmp / "blocker") / "r.html")], "--html"),
], ids=["missing-folder", "results-is-a-file", "html-under-a-file"])
def test_report_bad_paths_exit_2_with_one_line(
        argv: Any, words: str, simulated: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_cli("report", ["report", *argv(simulated, tmp_path)], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in err, err


@pytest.mark.parametrize(("flag", "blocked"), [("--figures", "figures"), ("--csv", "tables")])
def test_report_refuses_a_file_where_its_folder_goes(
        flag: str, blocked: str, tips: Results, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "run"
    shutil.copytree(Path(tips.path or ""), folder)
    shutil.rmtree(folder / blocked, ignore_errors=True)
    _file_at(folder / blocked)
    html = folder / "report.html"
    html.unlink(missing_ok=True)
    code, err = run_cli("report", ["report", str(folder), flag], capsys)
    assert code == 2
    assert err.strip().count("\n") == 0 and flag in err and blocked in err, err
    assert not html.exists()  # refused before anything was written


def test_a_run_whose_exports_fail_keeps_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(exports, "export_run", broken)
    out = tmp_path / "run"
    code = cli.main(["simulate", "--players", "3", "--games", "3", "--out", str(out),
                     "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert len(err.splitlines()) == 1 and "No space left on device" in err
    assert f"report {out} --csv --figures" in err  # how to try again
    assert open_results(out).completeness.complete
    assert math.isclose(len(open_results(out).games), 3)


def test_run_writes_a_sweeps_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "e.toml").write_text(SWEEP, encoding="utf-8")
    out = tmp_path / "run"
    assert cli.main(["run", str(tmp_path / "e.toml"), "--out", str(out), "--no-progress"]) == 0
    assert f"report {out} --figures" in capsys.readouterr().out  # where the figures come from
    assert sorted(p.name for p in (out / "tables").iterdir()) == [
        "balance.csv", "seats.csv", "summary.csv", "variants.csv"]
    res = open_results(out)
    _same(res.answers(), _read_back(out / "answers.csv"))
    _same(res.tables()["variants"], _read_back(out / "tables" / "variants.csv"))


def test_main_writes_the_report_with_its_figures_and_the_csv_files(
        tips: Results, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``main``'s end (``write_exports`` with the report's path): the CSV files, and the
    report asked to write its figures into the run's folder (the page itself is drawn by
    the report's own tests)."""
    from hansa_lab.tools.commands.simulate import write_exports
    from hansa_lab.viz import report

    asked: list[Any] = []

    def page(res: Any, path: Path, *, title: Any = None, figures_folder: Any = None) -> Path:
        asked.append((Path(path), figures_folder))
        return Path(path)

    monkeypatch.setattr(report, "write_report", page)
    folder = tmp_path / "run"  # a copy: the tips folder stays without exports
    shutil.copytree(Path(tips.path or ""), folder)
    assert write_exports(open_results(folder), folder / "report.html") == 0
    assert asked == [(folder / "report.html", folder / "figures")]
    assert (folder / "answers.csv").is_file() and (folder / "tables" / "verdicts.csv").is_file()
    out = " ".join(capsys.readouterr().out.split())  # wrapped at 100 columns
    assert f"The report (tables, verdicts, figures; opens offline): {folder / 'report.html'}" \
        in out
