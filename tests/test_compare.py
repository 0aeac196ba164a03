"""``hansa-lab compare`` and ``hansa_lab.compare`` (issue 43, item 3): a designer's
"which variant is most balanced?" from one command — the plan, a tiny real run, the
answer line, the report's section and figure, the CSV, the sequential stop and bad
input — all saying what the one answer record says."""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import pandas as pd
import pytest

import hansa_lab as hl
from hansa_lab.stats.plot_variants import plot_best_variant
from hansa_lab.tools.cli import main
from hansa_lab.tools.commands.compare import Comparison, parse_option, plan_compare

OPTION = "start_supply=3,5"  # 5 is the printed rule: two variants, default and 3


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One tiny real comparison from the command line: its folder and printed output."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("compare") / "run"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["compare", "--players", "3", "--option", OPTION, "--games", "8",
                     "--out", str(out), "--no-progress"])
    assert code == 0
    return out, buf.getvalue()


def test_the_command_ends_with_the_answer_the_report_and_the_csv(run) -> None:
    out, text = run
    lines = text.splitlines()
    assert lines[0].startswith("plan: 2 variants (default (the printed rules), "
                               "start_supply=3), 3 greedy players")
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    report = out / "report.html"
    csv = out / "answers.csv"
    assert lines[-4:] == ["The report (tables, figure, methods; opens offline):",
                          f"  {report.resolve()}",
                          "The answers as CSV (one row per variant and the answer line):",
                          f"  {csv.resolve()}"]
    answers = pd.read_csv(csv)
    best = answers[answers["kind"] == "best_variant"]
    assert len(best) == 3  # the answer line and one row per variant
    line = best.iloc[0]
    # 8 games per variant cannot tell two variants apart: the answer abstains
    assert line["word"] == "cannot tell yet"
    assert line["text"] in text.replace("\n  ", " ")
    assert "seat 0 (first player) advantage" in text
    assert json.loads((out / "compare.json").read_text())["looks"] == 1


def test_report_section_csv_and_figure_say_what_the_record_says(run) -> None:
    out, _ = run
    html = (out / "report.html").read_text()
    assert "<h2>Which variant is most balanced?</h2>" in html
    assert "<h2>Rule variants against default</h2>" in html
    records = pd.read_csv(out / "answers.csv")
    records = records[records["kind"] == "best_variant"]
    words = re.findall(r'data-word="([^"]*)"', html)
    assert records.iloc[0]["word"] in words
    for variant_text in records["text"].iloc[1:]:
        assert variant_text.split(":")[0] in html
    assert (out / "figures" / "best_variant.png").stat().st_size > 0
    answer = hl.open_results(out).most_balanced()
    fig = plot_best_variant(answer)
    drawn = fig._hansa_answers
    assert [a.word for a in drawn] == list(records["word"])
    assert fig.axes[0].get_title(loc="left").startswith(f"Most balanced: {drawn[0].word}")
    assert any("seat 0 (first player)" in t.get_text() for t in fig.findobj(
        lambda o: hasattr(o, "get_text")))


def test_the_same_from_python_in_one_call(run) -> None:
    out, _ = run  # the same run folder: the call resumes it, playing nothing new
    c = hl.compare(players=3, option={"start_supply": [3, 5]}, games=8, out=out,
                   progress=False, report=False)
    assert isinstance(c, Comparison)
    assert c.answer.kind == "best_variant" and c.answer.word == "cannot tell yet"
    assert list(c.table["variant"]) == ["default", "start_supply=3"]
    assert str(c) == c.answer.text and c.report_path is None
    assert c.csv_path is not None and c.csv_path.exists()
    assert "<b>" in c._repr_html_()


def test_until_decided_plays_in_rounds_and_splits_the_error_over_the_looks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "seq"
    assert main(["compare", "--players", "3", "--option", OPTION, "--games", "8",
                 "--until-decided", "--looks", "2", "--out", str(out),
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "the 5% error split over 2 looks" in text.replace("\n  ", " ")
    assert "after 4 games per variant: too few games to tell" in text
    assert "after 8 games per variant: cannot tell yet" in text
    saved = json.loads((out / "compare.json").read_text())
    assert saved["looks"] == 2 and saved["rounds"] == [4, 8]
    records = pd.read_csv(out / "answers.csv")
    assert "2 looks" in records["family"].iloc[0]
    # the report, and the report made again later (it reads the looks), say the same
    assert main(["report", str(out), "--html", str(out / "again.html")]) == 0
    for page in ("report.html", "again.html"):
        html = (out / page).read_text()
        assert 'data-word="cannot tell yet"' in html
        assert escape(records["text"].iloc[0]) in html


def test_the_plan_prints_and_plays_nothing(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "planned"
    assert main(["compare", "--players", "3", "--option", "start_supply=3,4,5,6,7",
                 "--plan", "--out", str(out)]) == 0
    text = capsys.readouterr().out.replace("\n  ", " ")
    assert "5 variants" in text and "3,576 games per variant, 17,880 in all" in text
    assert "5.0 percentage points of win share" in text
    assert not out.exists()
    plan = plan_compare(3, {"start_supply": [3, 4, 5, 6, 7]}, difference=0.10)
    assert plan.games < 3576 / 3.5
    few = plan_compare(3, ["start_supply=3,4"], games=10)
    assert "too few games to tell" in str(few)


def test_two_options_sweep_their_grid() -> None:
    plan = plan_compare(4, ["start_supply=3,5", "control_points=2,3"])
    assert plan.variants == ("default", "start_supply=3", "start_supply=3,control_points=3",
                             "control_points=3")


@pytest.mark.parametrize(("args", "message"), [
    (["--option", "start_supplyx=3,4"], "--option: unknown rule option 'start_supplyx'"),
    (["--option", "start_supply=3"], "give at least two different values"),
    (["--option", "start_supply=3,3"], "give at least two different values"),
    (["--option", "start_supply=3,99"], "--option: rule option start_supply must be"),
    (["--option", "start_supply"], "--option: write NAME=VALUE1,VALUE2"),
    ([], "--option: name the rule option to compare"),
    (["--option", "start_supply=3,4", "--option", "control_points=1,2", "--option",
      "emperor=true,false"], "compare sweeps one or two options, got 3"),
    (["--option", "start_supply=3,4", "--option", "start_supply=5,6"], "given twice"),
    (["--option", "start_supply=3,4", "--population", "greedyy"],
     "--population: unknown strategy 'greedyy'"),
    (["--option", "start_supply=3,4", "--population", "greedy,random"],
     "--population: name one strategy spec"),
    (["--option", "start_supply=3,4", "--difference", "0"], "--difference must be between"),
    (["--option", "start_supply=3,4", "--board", "moon"], "--board:"),
    (["--option", "start_supply=3,4", "--players", "7"], "--players must be at most 5"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["compare", "--plan", *args])
    except SystemExit as e:  # argparse's own checks (types, bounds)
        code = int(e.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_python_bad_input_names_the_parameter() -> None:
    with pytest.raises(ValueError, match=r"^option: unknown rule option"):
        hl.compare(players=3, option={"nope": [1, 2]}, games=2)
    with pytest.raises(ValueError, match=r"^difference:"):
        plan_compare(3, {"start_supply": [3, 4]}, difference=5)
    assert parse_option("marker_set=a,b") == ("marker_set", ["a", "b"])


@pytest.mark.parametrize(("out", "message"), [
    ("file", "--out: {path} is a file, not a folder"), ("", "--out: must be a path")])
def test_a_bad_out_folder_is_refused_before_the_plan(
        out: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / out if out else ""
    if out:
        Path(path).write_text("a file")
    assert main(["compare", "--option", OPTION, "--games", "2", "--out", str(path),
                 "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before anything is planned or played
    assert captured.err.count("\n") == 1 and message.format(path=path) in captured.err


def test_until_decided_stops_at_the_first_look_that_names_a_best(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds stop as soon as the answer is "best" (here the second look's answer is
    replaced by a decided one: a tiny run cannot decide by itself)."""
    from hansa_lab.sim.results import Results
    from hansa_lab.stats.balance import BalanceAnswers
    from hansa_lab.stats.best import most_balanced_of

    real = Results.most_balanced
    looks: list[int] = []

    def answer(self: Results, rounds=None, **kw) -> BalanceAnswers:
        looks.append(1)
        if len(looks) < 2:
            return real(self, rounds, **kw)
        table = pd.DataFrame({"options": ["default", "start_supply=3"], "games": 900,
                              "fair": 1 / 3, "first_seat_wins": [300.0, 450.0],
                              "seat_gap": 0.0, "gap_lo": 0.0, "gap_hi": 0.1})
        return BalanceAnswers((most_balanced_of(table),))

    monkeypatch.setattr(Results, "most_balanced", answer)
    seen: list[tuple[int, str]] = []
    c = hl.compare(players=3, option={"start_supply": [3, 5]}, games=6, until_decided=True,
                   looks=3, out=tmp_path / "stop", progress=False, report=False,
                   on_look=lambda n, a: seen.append((n, a.answer.word)))
    assert seen == [(2, "too few games to tell"), (4, "best")]
    assert c.rounds == [2, 4] and c.answer.word == "best" and c.looks == 3
    assert json.loads((tmp_path / "stop" / "compare.json").read_text())["rounds"] == [2, 4]
