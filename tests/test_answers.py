"""One question, one answer (issue 43): the text report (what the CLI prints), the HTML
report, the figures' markers, notebook displays and ``answers.csv`` all render the same
:class:`~hansa_lab.stats.answers.Answer` record — the same word and the same filled state —
for every kind of question, including the issue's two contradictions, small samples and a
clear effect. And the words themselves stay plain (the wording corpus)."""

from __future__ import annotations

import json
import math
import re
from html import unescape
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from hansa_lab.sim.exports import RunFrames, answers_frame, figure_answers, report_figures
from hansa_lab.sim.results import Results
from hansa_lab.stats import plots
from hansa_lab.stats.answers import LARGEST_EFFECT, MIN_DEALS, WORDS, Answer
from hansa_lab.stats.paired import compare_arms
from hansa_lab.stats.population_answers import (
    PopulationAnswer,
    agreement_line,
    answers_table,
    seat_answer,
    tip_answers,
)
from hansa_lab.stats.seats import seat_advantage
from hansa_lab.stats.synthetic import synthetic_tables
from hansa_lab.stats.verdicts import (
    comparison_verdicts,
    seat_balance_answers,
    seat_verdicts,
    sequential_sentence,
)
from hansa_lab.viz.report import report_html

# --------------------------------------------------------------------------- helpers


def in_memory(tables: dict[str, pd.DataFrame], arms: dict[str, list[str]],
              base: str | None = "base", **config: Any) -> Results:
    """A finished run held in memory, from synthetic tables."""
    n = len(tables["games"])
    manifest = {"name": "synthetic", "status": "done",
                "configuration": {"arms": arms, **({"base_arm": base} if base else {}),
                                  **config},
                "progress": {"n_chunks": 1, "chunks_done": 1, "games_done": n,
                             "total_games": n, "failures": 0}}
    return Results(manifest, frames=tables)


class FixedSeats(Results):
    """A run whose seats table is given (the issue's numbers, which a model run rarely
    reproduces exactly)."""

    seats_table: pd.DataFrame

    def seats(self) -> pd.DataFrame:
        return self.seats_table


def html_answers(html: str) -> tuple[list[tuple[str, bool]], list[list[dict[str, Any]]]]:
    """The report's verdict paragraphs (word, filled) and each figure's drawn answers."""
    paragraphs = [(unescape(w), f == "true") for w, f in
                  re.findall(r'<p class="verdict [^"]*" data-word="([^"]*)" '
                             r'data-filled="(true|false)">', html)]
    figures = [json.loads(unescape(a)) for a in re.findall(r'data-answers="([^"]*)"', html)]
    return paragraphs, figures


def agree_everywhere(res: Results) -> list[Answer]:
    """Check that the text report, the HTML report, the figures and answers.csv render the
    run's answer records with the same word and filled state; returns the records."""
    run = RunFrames(res)
    records = run.answers
    assert records, "the run answers nothing"
    report = res.report()
    flat = " ".join(report.split())
    arms = res.manifest["configuration"]["arms"]
    printed = [*run.tip_answers,  # the text report prints seats for one-strategy arms
               *(run.seat_answers if all(len(set(v)) == 1 for v in arms.values()) else [])]
    for a in printed:
        assert " ".join(a.text.split()) in flat, a.text  # the CLI prints the record's text
    html = report_html(res)
    paragraphs, drawn = html_answers(html)
    shown = [*run.tip_answers, *run.seat_answers]
    assert paragraphs == [(a.word, a.filled) for a in shown]
    figures = report_figures(run)
    expected_figures = []
    if run.tip_answers:
        expected_figures.append(run.tip_answers)
        fig = figures["comparison"]
        score = fig.axes[0].collections[-1].get_facecolors()
        win = fig.axes[1].collections[-1].get_facecolors()
        for a, s, w in zip(run.tip_answers, score, win, strict=True):
            assert (to_hex(s, keep_alpha=False) != "#ffffff") == a.filled
            assert to_hex(w, keep_alpha=False) == "#ffffff"  # secondary: never filled
    expected_figures.append(run.seat_answers)
    seat_fig = figures["seat_advantage"]
    for ax, a in zip([ax for ax in seat_fig.axes if ax.get_visible()], run.seat_answers,
                     strict=True):
        faces = {to_hex(f, keep_alpha=False) for f in ax.collections[-1].get_facecolors()}
        if not a.filled:
            assert faces == {"#ffffff"}
        assert a.word in ax.get_title()
    for fig, answers in zip([f for k, f in figures.items() if k != "score_breakdown"],
                            expected_figures, strict=True):
        assert json.loads(figure_answers(fig)) == [
            {"question": a.question, "word": a.word, "filled": a.filled} for a in answers]
    for said, answers in zip(drawn, expected_figures, strict=True):
        assert [(d["word"], d["filled"]) for d in said] == [(a.word, a.filled) for a in answers]
    csv = answers_frame(run)
    tips = csv[csv["kind"] == "tip"]
    assert list(zip(tips["verdict"], tips["filled"], strict=True)) == [
        (a.word, a.filled) for a in run.tip_answers]
    seats = csv[csv["kind"] == "seat"].drop_duplicates("sentence")
    assert list(zip(seats["verdict"], seats["filled"], strict=True)) == [
        (a.word, a.filled) for a in run.seat_answers]
    for a in records:
        assert a.word in WORDS and a.filled == (a.word in ("helps", "hurts", "unbalanced",
                                                           "raises", "lowers"))
        # a notebook shows the same record: its word, filled state and sentence
        shown = a._repr_html_()
        assert f'data-word="{a.word}" data-filled="{str(a.filled).lower()}"' in shown
        assert str(a) == a.text
    return records


def tip_on_wins_only(n_deals: int = 300, seed: int = 0) -> dict[str, pd.DataFrame]:
    """The issue's keep_supply case: a tip that changes who wins but not its mean score.
    The tip player turns close losses (within 6 points of the winner) into narrow wins and
    gives the points back in the games it loses by more, so its mean score stays put
    while its win share rises clearly."""
    t = synthetic_tables({"tip": ["keeper", "base", "base"], "base": ["base"]},
                         n_deals=n_deals, n_players=3, seed=seed, detail=False,
                         luck_sd=6.0, noise_sd=6.0)
    players, games = t["players"].copy(), t["games"]
    players["total"] = players["total"].astype(float)
    tip = players["arm"] == "tip"
    rotation = games.set_index(["arm", "game_id"])["rotation"]
    focal = tip & (players["seat"].to_numpy() == rotation.loc[
        list(zip(players["arm"], players["game_id"], strict=True))].to_numpy())
    best = players.groupby(["arm", "game_id"])["total"].transform("max")
    close = focal & (players["total"] < best) & (players["total"] >= best - 6)
    far = focal & (players["total"] < best - 6)
    gain = (best[close] - players.loc[close, "total"] + 0.5)
    players.loc[close, "total"] += gain
    players.loc[far, "total"] -= float(gain.sum()) / int(far.sum())
    top = players.groupby(["arm", "game_id"])["total"].transform("max")
    winners = players["total"] == top
    count = winners.groupby([players["arm"], players["game_id"]]).transform("sum")
    players["win"] = winners
    players["win_share"] = np.where(winners, 1.0 / count, 0.0)
    return {**t, "players": players}


def issue_seats() -> pd.DataFrame:
    """The issue's start_supply=3 case: the win test gives p = 0.364, Friedman's test on
    scores p < 0.001 (3 players, 300 games)."""
    t = synthetic_tables(["base"], n_deals=300, n_players=3, seed=1, seat_bonus=[1.0, 0, 0],
                         detail=False)
    seats = pd.DataFrame(seat_advantage(t["players"], t["games"]).full)
    return seats.assign(p_wins=0.364, p_wins_holm=0.364, p_score=0.0003)


# --------------------------------------------------------------------------- the two contradictions


def test_a_tip_that_moves_only_the_win_share_reads_the_same_everywhere() -> None:
    """Issue 43 (a): keep_supply read "no clear effect" by the score test while the
    win-share panel drew its marker filled (win share −3.6% [−6.6, −0.6], Holm p 0.042)."""
    t = tip_on_wins_only()
    cmp = compare_arms(t["players"], t["games"], "base")
    assert float(cmp["p_win_holm"].iloc[0]) <= 0.05  # the win-share test alone finds it
    assert float(cmp["p_holm"].iloc[0]) > 0.05       # the score test does not
    res = in_memory(t, {"tip": ["keeper", "base", "base"], "base": ["base"] * 3})
    [tip, *_] = agree_everywhere(res)
    assert tip.kind == "tip_effect" and tip.word in ("no clear effect",
                                                     "smaller than the margin")
    assert not tip.filled
    assert "win share" in tip.text and "(secondary, does not decide)" in tip.text
    # the table puts the score test's p beside the score difference, not the win share
    shown = res.report().split("Focal strategy vs")[1].split("Verdicts")[0]
    header = next(x for x in shown.splitlines() if "p_holm" in x).split()
    assert header.index("p_holm") == header.index("score_diff") + 3  # "[95% CI]" between


def test_a_seat_study_the_score_test_alone_rejects_is_not_unbalanced() -> None:
    """Issue 43 (b): start_supply=3 read "unbalanced — seat 0 wins more than its fair
    share" (the score test) while the win test said p = 0.364 and the panel was hollow."""
    seats = issue_seats()
    t = synthetic_tables(["base"], n_deals=300, n_players=3, seed=1, detail=False)
    res = FixedSeats(in_memory(t, {"main": ["base"] * 3}, base=None).manifest, frames=t)
    res.seats_table = seats
    [answer] = agree_everywhere(res)
    assert answer.word != "unbalanced" and not answer.filled
    assert "win test Holm p = 0.364" in answer.text
    assert "Friedman p < 0.001 (secondary, does not decide)" in answer.text
    fig = plots.plot_seat_advantage(seats)
    assert "win test Holm p = 0.364" in fig.axes[0].get_title()


# --------------------------------------------------------------------------- sizes and effects


def test_a_clear_tip_and_a_clear_seat_advantage_are_filled_everywhere(tmp_path) -> None:
    from PIL import Image

    from hansa_lab.sim.exports import save_figure

    t = synthetic_tables({"tip": ["plus3", "base", "base"], "base": ["base"]}, n_deals=60,
                         n_players=3, seat_bonus=[6, 0, 0], detail=False)
    res = in_memory(t, {"tip": ["plus3", "base", "base"], "base": ["base"] * 3})
    records = agree_everywhere(res)
    words = {(a.kind, a.word) for a in records}
    assert ("tip_effect", "helps") in words and ("seat_balance", "unbalanced") in words
    assert all(a.filled for a in records if a.word in ("helps", "unbalanced"))
    # the exported files carry the answers they draw as metadata
    fig = report_figures(res)["comparison"]
    said = figure_answers(fig)
    png, svg = save_figure(fig, tmp_path, "comparison")
    assert json.loads(Image.open(png).text["Description"]) == json.loads(said)
    assert json.loads(said)[0] == {"question": records[0].question, "word": "helps",
                                   "filled": True}
    assert "helps" in svg.read_text(encoding="utf-8").split("<dc:description>")[1][:400]


def test_two_deals_give_no_finding_no_p_and_no_filled_marker() -> None:
    """Notebook 02 at small size: compare_arms marked significant=True, p < 0.001 from 2
    deals whose interval was [+75%, +75%]."""
    t = synthetic_tables({"tip": ["plus9", "base"], "base": ["base"]}, n_deals=2,
                         n_players=2, noise_sd=0.0, luck_sd=0.0, detail=False)
    cmp = compare_arms(t["players"], t["games"], "base")
    assert not bool(cmp["significant"].iloc[0]) and math.isnan(cmp["p_holm"].iloc[0])
    res = in_memory(t, {"tip": ["plus9", "base"], "base": ["base", "base"]})
    records = agree_everywhere(res)
    tip = records[0]
    assert tip.word == "too few games to tell" and not tip.filled
    assert f"an answer needs at least {MIN_DEALS} deals" in tip.text
    assert "p =" not in tip.text and "p <" not in tip.text
    assert all(a.word == "too few games to tell" for a in records)  # 4 games per arm


def test_the_command_line_and_its_report_agree_on_a_tiny_real_run(tmp_path, capsys) -> None:
    from hansa_lab.sim.results import open_results
    from hansa_lab.tools.cli import main

    out = tmp_path / "tiny"
    assert main(["simulate", "--strategies", "random", "--players", "2", "--games", "4",
                 "--out", str(out), "--no-progress", "--jobs", "1"]) == 0
    printed = capsys.readouterr().out
    res = open_results(out)
    [seat] = agree_everywhere(res)
    assert seat.word == "too few games to tell"
    assert seat.text in " ".join(x.strip() for x in printed.splitlines())
    # a command to copy holds the run's path whole (as long as the test's folder makes it)
    too_wide = [x for x in printed.splitlines() if len(x.replace(str(out), "RUN")) > 100]
    assert not too_wide, too_wide


def test_a_variant_answer_is_the_first_seats_win_share() -> None:
    """A sweep's variant: the first seat's win share against the printed rules decides;
    the score change rides along as secondary; the text report and answers.csv agree."""
    printed = synthetic_tables(["base"], n_deals=40, n_players=3, seed=4, detail=False)
    tilted = synthetic_tables(["base"], n_deals=40, n_players=3, seed=4, detail=False,
                              seat_bonus=[12, 0, 0], game_id_start=1000)
    printed["games"]["options"] = "{}"
    tilted["games"]["options"] = '{"start_supply": 3}'
    tables = {k: pd.concat([printed[k], tilted[k]], ignore_index=True)
              for k in ("games", "players", "turns", "events")}
    cond = {"players": 3, "board": str(printed["games"]["board"].iloc[0]),
            "edition": "bigbox"}
    res = in_memory(tables, {"main": ["base"] * 3}, base=None, base_variant="printed",
                    conditions=[{**cond, "options": {}, "variant": "printed"},
                                {**cond, "options": {"start_supply": 3},
                                 "variant": "supply3"}])
    run = RunFrames(res)
    [variant] = run.variant_answers
    assert variant.kind == "variant_effect" and variant.word == "raises" and variant.filled
    assert {s.measure for s in variant.secondary} == {"score", "rounds"}
    assert variant.text in " ".join(res.report().split())
    csv = answers_frame(run)
    row = csv[(csv["kind"] == "variant")
              & csv["measure"].str.startswith("the first seat's win share")].iloc[0]
    assert (row["verdict"], bool(row["filled"])) == (variant.word, variant.filled)


def test_population_rows_and_the_agreement_line_come_from_the_records() -> None:
    """Every population and every seat is named in the agreement line; each row's word is
    its record's."""
    fair = synthetic_tables(["base"], n_deals=400, n_players=3, seed=3, detail=False)
    tilted = synthetic_tables(["base"], n_deals=400, n_players=3, seed=3, detail=False,
                              seat_bonus=[10, 0, 0])
    rows = [seat_answer("greedy", fair["players"], fair["games"]),
            seat_answer("strong", tilted["players"], tilted["games"])]
    for row, t in zip(rows, (fair, tilted), strict=True):
        [record] = seat_balance_answers(seat_advantage(t["players"], t["games"]))
        assert (row.verdict, row.estimate, row.lo, row.hi) == (
            record.word, record.estimate, record.lo, record.hi)
    line = agreement_line(answers_table(rows))
    assert line.startswith("greedy vs strong — ")
    for seat in ("seat 0 (first player)", "seat 1", "seat 2"):
        assert f"seats, {seat} (" in line
    assert line.count("greedy") >= 4 and line.count("strong") >= 4
    arms = synthetic_tables({"good": ["plus3", "base"], "base": ["base"]}, n_deals=60,
                            n_players=2, noise_sd=1.0, detail=False)
    [tip] = tip_answers("greedy", arms["players"], arms["games"])
    cmp = compare_arms(arms["players"], arms["games"], "base")
    assert tip.verdict == comparison_verdicts(cmp)["verdict"].iloc[0] == "helps"


# --------------------------------------------------------------------------- the wording corpus


def _comparison_grid() -> list[str]:
    rows = []
    for deals in (1, 2, 3, 5, 6, 8, 30, 400):
        for diff, sd in ((0.0, 0.0), (3.0, 0.0), (0.2, 2.0), (1.0, 6.0), (5.0, 6.0),
                         (50.0, 400.0), (1.0, 1.0)):
            se = sd / math.sqrt(deals) if deals > 1 else math.nan
            half = 2.0 * se if deals > 1 else math.nan
            z = diff / se if se and se > 0 else math.inf
            p = float(2 * (1 - __import__("scipy.stats").stats.t.cdf(abs(z), max(deals - 1, 1))))
            rows.append({"arm": f"tip{len(rows)}", "base_arm": "base", "score_diff": diff,
                         "diff_lo": diff - half, "diff_hi": diff + half, "deals": deals,
                         "p_value": p if deals > 1 else math.nan, "se": se,
                         "win_diff": 0.01, "win_diff_lo": -0.1, "win_diff_hi": 0.12,
                         "p_win": 0.8})
    frame = pd.DataFrame(rows)
    texts = []
    for unit, bound in (("points", None), ("pct points", 100.0)):
        for i in range(len(frame)):  # each alone (a family of one) and all together
            texts += list(comparison_verdicts(frame.iloc[[i]], unit=unit, bound=bound)["text"])
        texts += list(comparison_verdicts(frame, unit=unit, bound=bound)["text"])
    return texts


def _seat_grid() -> list[str]:
    texts = []
    for n_players in (2, 3, 4):
        for deals in (1, 3, 5, 6, 12, 60, 400, *((1000,) if n_players == 2 else ())):
            for bonus in (0.0, 6.0):
                t = synthetic_tables(["base"], n_deals=deals, n_players=n_players, seed=deals,
                                     seat_bonus=[bonus] + [0.0] * (n_players - 1),
                                     detail=False)
                texts += seat_verdicts(seat_advantage(t["players"], t["games"]))
    return texts


def _sequential() -> list[str]:
    out = []
    for decision, lo, hi in (("A better", 0.0738, 8.32), ("A better", 1.2, 4.0),
                             ("B better", -3.0, -0.2), ("no difference", -0.5, 0.6),
                             ("no difference", -1.4, 1.2), ("budget exhausted", -2.0, 3.0)):
        r = SimpleNamespace(decision=decision, estimate=(lo + hi) / 2, lo=lo, hi=hi,
                            effect=1.0, n_pairs=60)
        out.append(sequential_sentence(r, "actions_first", "base", ["greedy", "greedy"]))
    return out


def _populations() -> list[str]:
    rows = [PopulationAnswer("greedy", "seats", 0.26, 0.23, 0.29,
                             "win share of seat 0 (first player)", "m", "balanced", 1000,
                             seats=((0, 0.26, 0.23, 0.29), (1, 0.24, 0.21, 0.27))),
            PopulationAnswer("strong", "seats", 0.41, 0.38, 0.44,
                             "win share of seat 0 (first player)", "m", "unbalanced", 100,
                             seats=((0, 0.41, 0.38, 0.44), (1, 0.2, 0.1, 0.3))),
            PopulationAnswer("greedy", "tip a", 1.0, 0.2, 1.8, "points", "m", "helps", 100),
            PopulationAnswer("strong", "tip a", 0.3, -0.4, 0.9, "points", "m",
                             "smaller than the margin", 100)]
    return [agreement_line(answers_table(rows))]


def _report_text() -> list[str]:
    t = synthetic_tables({"tip": ["plus1", "base", "base"], "base": ["base"]}, n_deals=8,
                         n_players=3, detail=False)
    res = in_memory(t, {"tip": ["plus1", "base", "base"], "base": ["base"] * 3})
    html = report_html(res)
    text = re.sub(r"<[^>]+>", "\n", re.sub(r'data-answers="[^"]*"|src="[^"]*"', "", html))
    return [unescape(x) for x in text.splitlines() if x.strip()] + res.report().splitlines()


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return [*_comparison_grid(), *_seat_grid(), *_sequential(), *_populations(),
            *_report_text()]


def test_the_wording_corpus_is_large_enough_to_mean_something(corpus: list[str]) -> None:
    joined = "\n".join(corpus)
    for word in ("helps", "no clear effect", "too few games to tell", "unbalanced",
                 "balanced within", "no clear seat difference", "smaller than ±1 point (shown)",
                 "would detect"):
        assert word in joined, word


def test_no_statisticians_shorthand(corpus: list[str]) -> None:
    for line in corpus:
        assert "= <" not in line, line
        assert not re.search(r"\bRCI\b", line), line
        assert not re.search(r"\bpairs?\b", line), line  # deals everywhere a person reads
        assert "already" not in line, line               # "within ±1 point already"


def test_units_singular_and_plural(corpus: list[str]) -> None:
    for line in corpus:
        assert not re.search(r"(?<![\d.])1 (points|deals|games|rounds|seats)\b", line), line
        assert not re.search(r"(?<![\d.])(0|[2-9]|\d{2,}) (point|deal|game)\b(?!-)", line), line


def test_seats_are_named_with_the_first_player(corpus: list[str]) -> None:
    for line in corpus:
        for m in re.finditer(r"\bseat 0\b", line):
            rest = line[m.end():]
            assert rest.startswith((" (first player)", " moves first")), line


def test_no_power_statement_beyond_the_largest_plausible_effect(corpus: list[str]) -> None:
    for line in corpus:
        for m in re.finditer(r"would detect a difference of ±([\d.]+) (points|pct points)",
                             line):
            assert float(m.group(1)) < LARGEST_EFFECT[m.group(2)], line
        for m in re.finditer(r"this run would detect a gap of ±([\d.]+)% wins", line):
            assert float(m.group(1)) < 100, line


def test_too_few_deals_never_show_a_p_value_or_a_finding(corpus: list[str]) -> None:
    for line in corpus:
        if "an answer needs at least" in line:
            assert not re.search(r"\bp [=<]", line), line
            assert not line.startswith(("helps", "hurts", "unbalanced")), line


def test_the_sequential_answer_names_the_opponents_and_claims_no_more_than_it_shows() -> None:
    a_better, clear, b_better, small, open_, budget = _sequential()
    assert a_better.startswith("actions_first (opponents: greedy, greedy) scores more than "
                               "base")
    assert "an effect smaller than the 1 point that matters is not ruled out" in a_better
    assert "helps" in clear and "at least the 1 point that matters" in clear
    assert "scores less than base" in b_better
    assert "the effect is smaller than ±1 point (shown)" in small
    assert "does not rule out an effect of ±1 point" in open_ and "(shown)" not in open_
    assert "too few games to tell" in budget
