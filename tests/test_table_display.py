"""Tables for people (issue 41, item 3): every frame a person reads is shown in one style —
percentages as percentages, an estimate and its interval on one line, no column without a
value, a value repeated in every row said once under the table, wide tables split or
transposed rather than cut, the report's tables within the page — while the data keeps
its numbers."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hansa_lab import stats
from hansa_lab.sim.runner import simulate
from hansa_lab.stats.display import MAX_WIDTH, TRANSPOSE_ROWS, View, readable, table_html
from hansa_lab.stats.population_answers import PopulationAnswer, answers_table
from hansa_lab.stats.synthetic import synthetic_tables
from hansa_lab.stats.variants import NEVER_IN_PLAY, NEVER_IN_PLAY_TEXT, variant_comparison


@pytest.fixture(scope="module")
def run() -> stats.ReadableFrame:
    return simulate({"tip": ["random:establish=false", "random", "random"],
                     "base": ["random", "random", "random"]},
                    n_games=9, n_players=3, progress=False)


def _lines(frame: pd.DataFrame) -> list[str]:
    return repr(frame).splitlines()


def _interval_cell(text: str) -> bool:
    return re.fullmatch(r"[+-]?[\d.]+%? \[[+-]?[\d.]+%?, [+-]?[\d.]+%?\]", text) is not None


# ------------------------------------------------------------------ percentages


def test_win_rates_show_as_percentages_and_keep_their_fractions(run) -> None:
    """The finding: summary() showed 0.375 where compare_arms showed percentage points."""
    summary = run.summary()
    cells = summary.shown["win_rate"].tolist()
    assert all(c.count("%") == 3 and _interval_cell(c) for c in cells), cells
    assert float(summary["win_rate"].max()) <= 1.0  # the data keeps its fractions
    first = summary.iloc[0]
    assert cells[0] == (f"{100 * first.win_rate:.1f}% [{100 * first.win_lo:.1f}%, "
                        f"{100 * first.win_hi:.1f}%]")
    verdicts = run.verdicts()
    assert verdicts.shown["win_diff"][0].count("%") == 3
    assert verdicts.shown["win_rate"][0].endswith("%")
    assert abs(float(verdicts["win_diff"][0])) <= 1.0


def test_rows_in_percentage_points_show_as_percentages_by_their_unit() -> None:
    """The variants table holds win shares in percentage points and scores in points: the
    win rows show "+x.x%", the others plain numbers, and the data is unchanged."""
    games = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": range(8), "n_players": 2,
                          "board": "base", "side": "base_3p", "edition": "bigbox",
                          "seed": [0, 1, 2, 3] * 2, "rotation": 0,
                          "variant": ["v"] * 4 + ["default"] * 4,
                          "rounds": [12, 13, 12, 14, 10, 11, 10, 11]})
    players = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": np.repeat(range(8), 2),
                            "seat": [0, 1] * 8, "total": [50.0, 40.0] * 8,
                            "win_share": [1.0, 0.0] * 4 + [1.0, 0.0, 0.0, 1.0] * 2})
    table = variant_comparison(players, games, "default",
                               measures=["score", "first_seat_win", "rounds"])
    shown = table.shown.set_index(table["measure"])["diff"]
    assert shown["first_seat_win"].count("%") == 3
    assert "%" not in shown["score"] and "%" not in shown["rounds"]
    assert float(table.set_index("measure").loc["first_seat_win", "diff"]) == 50.0


def test_an_answers_table_shows_each_row_in_its_unit() -> None:
    rows = [PopulationAnswer("greedy", "seats", 0.26, 0.23, 0.29, "win share of seat 0",
                             "Wilson", "balanced", 1000),
            PopulationAnswer("greedy", "tip good", 2.5, 1.0, 4.0, "points (focal seat)",
                             "paired t", "helps", 800)]
    table = answers_table(rows)
    assert table.shown["estimate"].tolist() == ["26.0% [23.0%, 29.0%]", "2.5 [1.0, 4.0]"]
    assert table["estimate"].tolist() == [0.26, 2.5]


# ------------------------------------------------------------------ one line per cell


def test_interval_cells_stay_on_one_line_in_text_and_html(run) -> None:
    seats = run.seats()
    cells = seats.shown["mean_score"].tolist()
    text = repr(seats)
    assert all(c in text for c in cells)  # whole, on one line of the text
    html = seats._repr_html_()
    for c in cells:
        assert f'<td style="white-space:nowrap">{c.replace(" ", "&nbsp;")}</td>' in html
    assert 'overflow-x:auto' in html  # a table wider than its output scrolls, never cut


def test_one_decimal_in_a_column_of_fractions() -> None:
    """36.0 beside 34.5 showed as "36 [30.2, 41.8]"; counts still show as integers."""
    frame = pd.DataFrame({"arm": ["a", "b"], "n": [12.0, 12.0], "mean_score": [36.0, 34.5],
                          "score_lo": [30.2, 28.4], "score_hi": [41.8, 40.6]})
    shown = readable(frame, View(columns=("arm", "n", "mean_score"), intervals=(
        ("mean_score", "score_lo", "score_hi"),))).shown
    assert shown["mean_score"].tolist() == ["36.0 [30.2, 41.8]", "34.5 [28.4, 40.6]"]
    assert shown["n"].tolist() == ["12", "12"]


# ------------------------------------------------------------------ empty and repeated


def test_a_column_without_values_is_named_once_not_shown() -> None:
    t = synthetic_tables(["plus3", "base"], n_deals=12, n_players=2, seed=3)
    balance = stats.balance_table(t["players"], t["games"])  # no turns: no lead changes
    layout = balance.layout()
    assert balance["lead_changes"].isna().all()
    assert all("lead_changes" not in part.columns for part in layout.tables)
    assert "No values: lead_changes" in repr(balance)
    assert "lead_changes" in balance.shown.columns and "lead_changes" in balance.full.columns


def test_a_repeated_verdict_is_said_once() -> None:
    """The finding: the 18-row variants table repeated "this rule never came into play
    in these games" per row. The table now shows the answer's short word per row, and the
    sentence (the ``text`` column) is not repeated in the display."""
    games = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": range(12), "n_players": 2,
                          "board": "base", "side": "base_3p", "edition": "bigbox",
                          "seed": [0, 1, 2, 3] * 3, "rotation": 0,
                          "variant": ["same"] * 4 + ["other"] * 4 + ["default"] * 4,
                          "rounds": [10, 11, 10, 11, 12, 14, 13, 12, 10, 11, 10, 11]})
    players = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": np.repeat(range(12), 2),
                            "seat": [0, 1] * 12, "total": [50.0, 40.0] * 12,
                            "win_share": [1.0, 0.0] * 12})
    table = variant_comparison(players, games, "default")
    assert (table["verdict"] == NEVER_IN_PLAY).sum() == 3  # the data says it per row
    text = repr(table)
    assert text.count(NEVER_IN_PLAY) == 3 and NEVER_IN_PLAY_TEXT not in text
    assert table._repr_html_().count(NEVER_IN_PLAY_TEXT) == 0
    assert all(t.startswith(NEVER_IN_PLAY_TEXT) for t, v in zip(table["text"], table["verdict"],
                                                               strict=True)
               if v == NEVER_IN_PLAY)


def test_a_value_the_same_in_every_row_is_said_under_the_table() -> None:
    t = synthetic_tables(["base"], n_deals=30, n_players=3)
    seats = stats.seat_advantage(t["players"], t["games"])
    layout = seats.layout()
    constants = dict(layout.constants)
    assert constants["n_players"] == "3" and constants["fair"] == "33.3%"
    assert all("fair" not in part.columns for part in layout.tables)
    assert "Same in every row:" in repr(seats) and repr(seats).count("33.3%") >= 1
    assert "win_rate" in layout.tables[0].columns  # an estimate is never folded away
    assert (seats["fair"] == 1 / 3).all()


# ------------------------------------------------------------------ wide frames


def _wide(rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    data: dict[str, object] = {"variant": [f"variant_{i}" for i in range(rows)],
                               "n_players": [3 + i % 2 for i in range(rows)]}
    for k in range(14):
        x = rng.uniform(0.05, 0.6, rows)
        data[f"share_{k}"], data[f"share_{k}_lo"], data[f"share_{k}_hi"] = x, x - 0.04, x + 0.05
    return pd.DataFrame(data)


def test_a_wide_table_is_split_into_blocks_that_repeat_the_row_labels() -> None:
    frame = _wide(8)
    shares = tuple(f"share_{k}" for k in range(14))
    table = readable(frame, View(columns=("variant", "n_players", *shares), percent=shares))
    lines = _lines(table)
    assert max(map(len, lines)) <= MAX_WIDTH
    layout = table.layout()
    assert len(layout.tables) > 1 and not layout.transposed
    shown = [c for part in layout.tables for c in part.columns]
    assert sorted(set(shown) - {"variant", "n_players"}) == sorted(shares)  # nothing cut
    assert all(list(part.columns[:2]) == ["variant", "n_players"] for part in layout.tables)
    assert sum("variant_7" in line for line in lines) == len(layout.tables)
    # and the numbers are untouched
    assert float(table["share_0"].iloc[0]) == float(frame["share_0"].iloc[0])


def test_a_wide_table_of_few_rows_is_transposed() -> None:
    frame = _wide(TRANSPOSE_ROWS)
    shares = tuple(f"share_{k}" for k in range(14))
    table = readable(frame, View(columns=("variant", "n_players", *shares), percent=shares))
    layout = table.layout()
    assert layout.transposed and len(layout.tables) == 1
    assert list(layout.tables[0].columns) == ["variant_0 · 3", "variant_1 · 4",
                                              "variant_2 · 3"]
    assert max(map(len, _lines(table))) <= MAX_WIDTH
    html = table._repr_html_()
    assert html.count("white-space:nowrap") == 14 * TRANSPOSE_ROWS  # transposed cells too


def test_a_selection_of_columns_keeps_the_display(run) -> None:
    """Notebooks select columns (balance[["options", "first_seat_adv", "adv_lo", ...]]):
    the selection shows those columns in the same style, the bounds in their estimate's
    cell, and stays a DataFrame with the numbers."""
    t = synthetic_tables(["plus3", "base"], n_deals=12, n_players=2, seed=3)
    balance = stats.balance_table(t["players"], t["games"])
    picked = balance[["games", "first_seat_adv", "adv_lo", "adv_hi", "end_cities"]]
    assert isinstance(picked, pd.DataFrame)
    assert list(picked.columns) == ["games", "first_seat_adv", "adv_lo", "adv_hi",
                                    "end_cities"]
    assert list(picked.shown.columns) == ["games", "first_seat_adv", "end_cities"]
    assert picked.shown["first_seat_adv"][0].count("%") == 3
    assert picked["adv_lo"].iloc[0] == balance["adv_lo"].iloc[0]
    assert isinstance(run.summary()[["arm", "win_rate"]].shown["win_rate"][0], str)


# ------------------------------------------------------------------ the report


@pytest.fixture(scope="module")
def report(run, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hansa_lab.viz.report import write_report

    return write_report(run, tmp_path_factory.mktemp("report") / "r.html")


def test_the_report_tables_share_the_style_and_fit_the_width(report: Path) -> None:
    html = report.read_text()
    tables = re.findall(r'<table class="hansa-frame".*?</table>', html)
    assert len(tables) >= 3  # summary, comparison, seats
    assert "white-space: nowrap" in html and "@media print" in html
    for t in tables:
        assert ".full" not in t
        for row in re.findall(r"<tr>(.*?)</tr>", t):
            cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)
            text = "  ".join(c.replace("&nbsp;", " ") for c in cells)
            assert len(text) <= MAX_WIDTH + 10, text  # no table wider than the page
    assert "%&nbsp;[" in html  # win rates as percentages, intervals unbroken
    assert not re.search(r"<td[^>]*>0\.\d{3}%?&nbsp;\[", html)  # no share as a fraction


@pytest.mark.browser
def test_the_report_tables_fit_a_1280_px_window_and_an_a4_page(report: Path) -> None:
    """Measured in chromium: every table within the page at a 1280 px window and on an A4
    page (794 px, print styles), no interval cell taller than one line."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:  # as tests/test_browser.py: fail on CI, skip elsewhere
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed")
    measure = """() => [...document.querySelectorAll('table.hansa-frame')].map(t => {
        const cells = [...t.querySelectorAll('td[style*=nowrap]')];
        const line = parseFloat(getComputedStyle(t).fontSize) * 2;
        return {width: t.getBoundingClientRect().width,
                page: document.body.clientWidth,
                tall: cells.filter(c => c.getBoundingClientRect().height > line).length};
    })"""
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            for width, media in ((1280, "screen"), (794, "print")):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.emulate_media(media=media)
                page.goto(report.as_uri())
                tables = page.evaluate(measure)
                assert len(tables) >= 3
                for t in tables:
                    assert t["width"] <= t["page"] and t["tall"] == 0, (width, t)
        finally:
            browser.close()


def test_table_html_of_a_plain_frame_uses_the_house_view() -> None:
    frame = pd.DataFrame({"arm": ["a", "b"], "win_rate": [0.375, 0.5], "win_lo": [0.2, 0.3],
                          "win_hi": [0.55, 0.7], "empty": [np.nan, np.nan]})
    html = table_html(frame)
    assert "37.5%&nbsp;[20.0%,&nbsp;55.0%]" in html
    assert ">empty<" not in html and "No values: empty" in html
