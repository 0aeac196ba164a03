"""Quiet, true first steps (issue 41, item 6): ``make run`` prints a few lines before the
summary, what ``main``, ``simulate`` and ``run`` print fits a terminal of 100 columns
(sentences wrapped, wide tables split), "rounded up" only when it was, the API reference
shows no stray ``::``, and the docs say what the command line accepts and what the engine
leaves out.

The command outputs are real: a tiny experiment run by ``hansa-lab main`` (through the
``MAIN_EXPERIMENT`` hook), ``simulate`` and a ``run`` of a sweep, each once per module;
only the report's figures are not drawn (other tests draw them)."""

from __future__ import annotations

import importlib.util
import io
import re
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd
import pytest

import hansa_lab
from hansa_lab.sim.experiment import Design, normalize_experiment
from hansa_lab.sim.results import format_table, open_results
from hansa_lab.stats.terminal import TERMINAL_WIDTH, aligned_table, column_blocks, wrap_text
from hansa_lab.stats.verdicts import seat_verdicts
from hansa_lab.tools import cli
from hansa_lab.tools.commands.simulate import games_per_arm

ROOT = Path(__file__).resolve().parents[1]
#: Lines ``make run`` may print before the summary (the issue's bar).
MAKE_RUN_LINES = 40
#: The set-up's own lines on a fresh clone (one per step, the rest in .venv/setup.log).
SETUP_LINES = 3

QUICK = """
name = "quick"
games = 1000
players = 3
base_arm = "base"
[arms]
base = ["random"]
tip = ["random:gather=false", "random", "random"]
"""
SWEEP = """
name = "sw"
games = 4
players = 3
log = "summary"
[arms]
r = ["random"]
[sweep]
control_points = [3]
"""


@dataclass(frozen=True)
class Printed:
    """What a command printed."""

    status: int
    out: str
    err: str

    def lines(self) -> list[str]:
        return [*self.out.splitlines(), *self.err.replace("\r", "\n").splitlines()]


#: The commands' outputs by name, and ``"folder"``: where they ran.
Outputs = dict[str, Any]
#: Where each command's run went, in that folder.
RUN_FOLDERS = {"main": cli.MAIN_OUT, "simulate": "results/sim", "run": "results/sweep"}


def _command(argv: list[str]) -> Printed:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(argv)
    return Printed(status, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outputs]:
    """``main`` (progress bar on), ``simulate`` and ``run`` of tiny runs, in a folder
    with ``experiments/quick.toml``."""
    import hansa_lab.viz.report as report

    folder = tmp_path_factory.mktemp("steps")
    (folder / "experiments").mkdir()
    (folder / "experiments" / "quick.toml").write_text(QUICK, encoding="utf-8")
    (folder / "sweep.toml").write_text(SWEEP, encoding="utf-8")

    def no_figures(results: object, path: str, **kwargs: object) -> Path:
        return Path(path).resolve()  # the report page and its figures: other tests

    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.setattr(cli, "MAIN_EXPERIMENT", "quick.toml")
        mp.setattr(report, "write_report", no_figures)
        yield {
            "folder": folder,
            "main": _command(["main", "--games", "6", "--jobs", "1"]),
            "simulate": _command(["simulate", "--players", "3", "--games", "6", "--jobs",
                                  "1", "--out", "results/sim", "--no-progress"]),
            "run": _command(["run", "sweep.toml", "--out", "results/sweep", "--jobs", "1",
                             "--no-progress"]),
        }


def test_the_main_job_prints_its_line_and_the_bar_before_the_summary(
        printed: Outputs) -> None:
    main = printed["main"]
    assert main.status == 0
    out = main.out.splitlines()
    summary = next(i for i, line in enumerate(out) if line.startswith("quick: 12 of 12 games"))
    before = out[:summary]
    assert before[0].startswith("hansa-lab main: quick.toml at a quick size, 6 games per arm")
    assert len(before) <= 2  # the job's one sentence (wrapped at most once)
    assert "rounded" not in " ".join(before)  # 6 games are whole rotations of 3 players
    bar = [line for line in main.err.replace("\r", "\n").splitlines() if line.strip()]
    assert bar and all(line.startswith("quick:") for line in bar)  # nothing but the bar
    # on a terminal the bar is one redrawn line; into a pipe, a handful
    assert SETUP_LINES + len(before) + len(bar) < MAKE_RUN_LINES


def test_make_run_sets_up_in_one_line_per_step_and_runs_the_job_unechoed() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("$(STAMP): pyproject.toml"):makefile.index("\nrun:")]
    steps = re.findall(r'^\t@echo "set-up: ', recipe, flags=re.MULTILINE)
    assert len(steps) == SETUP_LINES
    installs = [line for line in recipe.splitlines() if re.search(r"\bpip\b.* install", line)]
    assert installs and all(re.search(r">>? \$\(SETUP_LOG\) 2>&1", line) for line in installs)
    run = makefile[makefile.index("\nrun:"):].split("\n\n")[0]
    assert "\t@$(VENV)/bin/hansa-lab main" in run  # its own first line says what it runs


@pytest.mark.parametrize("command", ["main", "simulate", "run"])
def test_every_line_fits_a_terminal_of_100_columns(printed: Outputs, command: str) -> None:
    done = printed[command]
    assert done.status == 0, done.err
    too_wide = [line for line in done.lines() if len(line) > TERMINAL_WIDTH]
    assert not too_wide
    # not for want of content: the run's longest sentence is wider than the terminal, and
    # printed whole, wrapped at its words
    res = open_results(printed["folder"] / RUN_FOLDERS[command])
    sentences = {"main": lambda: list(res.verdicts("base")["text"]),
                 "simulate": lambda: seat_verdicts(res.seats()),
                 "run": lambda: [*res.variants("default")["text"],
                                 *seat_verdicts(res.seats())]}[command]()
    longest = max(sentences, key=len)
    assert len(longest) > TERMINAL_WIDTH
    assert " ".join(longest.split()) in " ".join(done.out.split())


def test_the_wide_tables_are_split_into_blocks_of_even_width(printed: Outputs) -> None:
    out = printed["main"].out
    assert "\narm  strategy             base_strategy  n  deals  mean_score  base_score\n" in out
    # the score test's p-value stands beside the score difference it tests
    [diffs] = [x for x in out.splitlines() if x.startswith("arm  score_diff [95% CI]")]
    assert diffs.split()[4] == "p_holm" and "win_diff [95% CI]" in diffs
    seats = printed["simulate"].out  # each test's p-value beside its measure, seats named
    [head] = [x for x in seats.splitlines() if x.startswith("n_players") and "p_score" in x]
    assert head.split()[-4:] == ["mean_score", "[95%", "CI]", "p_score"]
    assert "p_wins_holm" in seats.split("Seat balance:")[0]
    assert "p_score_holm" not in seats and "seat 0 (first player)" in seats


def test_the_reports_sections_are_all_there(printed: Outputs) -> None:
    assert "Verdicts (decided by the focal player's final score" in printed["main"].out
    assert "Seat balance:" in printed["simulate"].out
    assert "Rule variants vs 'default'" in printed["run"].out
    assert "Balance per variant" in printed["run"].out
    # the commands to copy stand whole on lines of their own
    assert "\n  hansa-lab replay results/strategy_tips_quick --game 0\n" in printed["main"].out
    assert "\n  hansa-lab report results/sim --figures\n" in printed["simulate"].out


def test_a_wide_table_is_split_into_blocks_led_by_the_row_names() -> None:
    frame = pd.DataFrame({"arm": ["actions_first", "blocker"],
                          "strategy": ["actions_first", "blocker"],
                          **{f"measure_{i}": [1.5 * i, 2.5 * i] for i in range(12)}})
    text = format_table(frame)
    blocks = text.split("\n\n")
    assert len(blocks) >= 2
    for block in blocks:
        lines = block.splitlines()
        assert len(lines) == 3 and all(len(line) <= TERMINAL_WIDTH for line in lines)
        # "arm" alone tells the rows apart, so only it is repeated
        assert lines[0].split()[0] == "arm" and lines[1].startswith("actions_first")
    assert text.count("strategy") == 1
    headers = re.findall(r"measure_\d+", text)
    assert headers == [f"measure_{i}" for i in range(12)]  # every column once, in order
    narrow = frame[["arm", "strategy", "measure_1"]]
    assert "\n\n" not in format_table(narrow)


def test_column_blocks_keep_order_and_take_at_least_one_column() -> None:
    assert column_blocks([5, 5, 5], keys=1, width=100) == [[0, 1, 2]]
    assert column_blocks([5, 50, 50], keys=1, width=60) == [[0, 1], [0, 2]]
    assert column_blocks([5, 200], keys=1, width=60) == [[0, 1]]  # cannot fit: whole
    # filled greedily, the last column would stand alone: the blocks are evened out
    assert column_blocks([10, 40, 40, 10], keys=1, width=100) == [[0, 1], [0, 2, 3]]
    assert aligned_table(["a"], [["x"]]) == "a\nx"


def test_wrap_text_breaks_at_words_and_keeps_the_indent() -> None:
    line = "  blocker: helps: " + "a word " * 30 + "/a/very/long/path/" + "x" * 120
    wrapped = wrap_text(line).splitlines()
    assert wrapped[0].startswith("  blocker: helps: a word")
    assert all(w.startswith("    ") for w in wrapped[1:])
    assert all(len(w) <= TERMINAL_WIDTH for w in wrapped[:-1])
    assert wrapped[-1].strip() == "/a/very/long/path/" + "x" * 120  # a word stays whole
    assert " ".join(w.strip() for w in wrapped) == line.strip()
    assert wrap_text("short\n\n  lines") == "short\n\n  lines"


def _design(games: int) -> dict[str, object]:
    exp = normalize_experiment({"games": games, "players": 4, "arms": {
        "base": ["greedy"] * 4, "tip": ["blocker", "greedy", "greedy", "greedy"]}})
    return Design(exp).summary()


def test_rounded_up_is_said_only_when_games_were_rounded() -> None:
    assert games_per_arm(_design(600)) == "600 games per arm"
    assert games_per_arm(_design(601)) == (
        "601-604 games per arm (601 asked, rounded up to whole seat rotations)")


def test_simulate_offers_the_player_counts_it_accepts() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["simulate", "--players", "2", "--games", "1"])
    assert args.players == 2  # the two-player variant the statistics guide cites
    sub = next(a for a in parser._actions if a.dest == "command").choices  # type: ignore[attr-defined]
    helps = [a.help or "" for p in sub.values() for a in p._actions if a.dest == "players"]
    assert helps and not any("3-5" in h for h in helps)
    guide = (ROOT / "docs" / "guides" / "statistics.md").read_text(encoding="utf-8")
    assert "--players 2" in guide


def _griffe_rest() -> ModuleType:
    path = ROOT / "docs" / "tools" / "griffe_rest.py"
    spec = importlib.util.spec_from_file_location("griffe_rest_first_steps", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_facade_page_shows_its_example_without_a_stray_double_colon() -> None:
    to_markdown = _griffe_rest().to_markdown
    page = to_markdown(hansa_lab.__doc__ or "")
    assert not [line for line in page.splitlines() if line.rstrip().endswith("::")]
    assert "The everyday API, in one import:\n\n```python\nimport hansa_lab as hl\n" in page


@pytest.mark.parametrize(("rest", "markdown"), [
    ("Example::\n\n    a = 1\n\nAfter.", "Example:\n\n```python\na = 1\n```\n\n\nAfter."),
    ("Example ::\n\n    a = 1", "Example\n\n```python\na = 1\n```\n"),
    ("::\n\n    x ``y`` :func:`z`\n    more", "\n```text\nx ``y`` :func:`z`\nmore\n```\n"),
    ("Not a block::\nsame level.", "Not a block::\nsame level."),
])
def test_a_literal_block_is_fenced_and_its_double_colon_read_as_rest(rest: str,
                                                                     markdown: str) -> None:
    assert _griffe_rest().to_markdown(rest) == markdown


def test_the_rules_page_says_what_is_not_modelled_and_why() -> None:
    page = (ROOT / "docs" / "guides" / "rules.md").read_text(encoding="utf-8")
    section = page[page.index("## What is not modelled, and why"):]
    assert "Mission cards" in section and "no source here lists them" in section
    assert "*Die Hanse*" in section and "wind cards" in section
    assert "storage cards" in section and "hex map" in section
