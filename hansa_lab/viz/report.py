"""A run's report as one self-contained HTML page (``hansa-lab report results/NAME --html``).

The page holds what was run (from the manifest), the formatted tables, the verdicts, the
comparison and seat figures, the score-breakdown distributions and a short methods text
that says in plain words what each statistic means. Figures are embedded as PNG data, so
the file opens offline and can be mailed as it is; with ``figures_folder`` (``hansa-lab
report RUN --figures``) they are also written as PNG and SVG files
(:mod:`hansa_lab.sim.exports`).

>>> from hansa_lab.sim.runner import simulate
>>> import tempfile, pathlib
>>> res = simulate(["random"], n_games=3, n_players=3, progress=False)
>>> out = write_report(res, pathlib.Path(tempfile.mkdtemp()) / "r.html")
>>> "Seat balance" in out.read_text()
True
"""

from __future__ import annotations

import base64
import io
import json
import os
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd

from hansa_lab.sim.exports import (
    FIGURES,
    RunFrames,
    figure_answers,
    report_figures,
    save_figure,
)
from hansa_lab.sim.results import (
    HIDDEN_SEAT_COLUMNS,
    HIDDEN_VERDICT_COLUMNS,
    Results,
)
from hansa_lab.stats.display import table_html
from hansa_lab.viz.report_variants import variant_sections

__all__ = ["METHODS", "report_html", "write_report"]

#: The methods text of every report: each statistic in plain words.
METHODS = [
    ("Games and deals",
     "A deal is one seed: the bonus-marker draws and the strategies' random streams. Each "
     "deal is played in every seat rotation of a line-up, and every arm plays the same "
     "deals, so arms are compared on the same luck."),
    ("Win rate",
     "The share of games a strategy won (a win shared by tied players counts as a share). "
     "Its 95% interval is Wilson's score interval, which stays inside 0–100% and is honest "
     "with few games."),
    ("Mean score",
     "The mean final score with a 95% t interval. Seats of one game are not independent, so "
     "the standard error is computed from whole games."),
    ("Paired comparison",
     "For an arm against the base arm, the focal player's final score is compared with the "
     "same seat of the base game on the same deal. The differences are averaged per deal "
     "and the interval is a t interval over deals: it covered the true effect in 95–96% of "
     "simulated experiments from 4 deals up (tests/test_verdicts.py)."),
    ("How an answer is decided",
     "Each question has one primary measure and one test, and every table, sentence and "
     "figure shows the same answer. A tip's effect: the focal player's final score against "
     "the same seat of the base game on the same deal (paired t-test over deals, Holm over "
     "the arms asked together); the win share is shown as secondary and never decides. Seat "
     "balance: the win share by seat (chi-square test of equal win counts, Holm over the "
     "groups); Friedman's test on scores is secondary. A rule variant: the first seat's win "
     "share against the printed rules on the same deals. With fewer than 6 deals (6 games "
     "for seats) no answer is given: 'too few games to tell', and no p-value."),
    ("Verdict",
     "'helps' or 'hurts' only when the paired test rejects 'no effect' at 5% after Holm's "
     "adjustment, with an interval of non-zero width that excludes 0; 'the effect is smaller "
     "than ±1 point (shown)' when the whole interval lies within ±1 point; otherwise 'no "
     "clear effect', with the difference this run would have detected with 80% power and the "
     "deals that would narrow the interval to ±1 point; or 'too few games to tell' (fewer "
     "than 6 deals, every deal giving the same difference, or a run that could not detect "
     "even the largest plausible difference, 30 points). A figure's marker is filled only "
     "for 'helps' or 'hurts'."),
    ("Seat balance",
     "Seats are numbered from 0; seat 0 moves first. Per seat, the win rate against the "
     "fair share (1 / players) and a test that all seats win equally often (chi-square, or "
     "an exact Monte Carlo test with few games), Holm-adjusted over the groups (p_wins_holm): "
     "'unbalanced' when it rejects at 5%, naming the seats whose interval is off the fair "
     "share. 'Balanced within ±5% wins' only when nothing rejects and the run would have "
     "detected a seat 5 percentage points off its fair share with 80% power; otherwise 'no "
     "clear seat difference' with the gap the run could detect, or 'too few games to tell' "
     "when even a gap as large as the fair share could go unseen. Friedman's test that all "
     "seats score alike (p_score) is shown as secondary and never decides."),
    ("Rule variants",
     "A variant against the unchanged game, paired by deal: 'raises'/'lowers' under the same "
     "rule as 'helps'/'hurts' (Holm over the variants, per measure); the first seat's win "
     "share is the variant's primary measure, the others are secondary; 'never came into "
     "play' when every paired game ended exactly as under the unchanged rules (same scores, "
     "winner and length)."),
    ("Score breakdown",
     "The final score split into its categories: prestige track, abilities, bonus markers, "
     "special prestige (Coellen), city control, network and, on Britannia, regions."),
]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em;
       color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .6em 0; font-size: .9em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; }
th { background: #f2f2f2; } .verdict { font-weight: 600; margin: .3em 0; }
.helps { color: #006d2c; } .hurts { color: #a50f15; } .unclear { color: #555; }
img { max-width: 100%; } dt { font-weight: 600; margin-top: .5em; }
.meta td:first-child { font-weight: 600; }
.hansa-frame td, .hansa-frame th { white-space: nowrap; }
.hansa-notes { font-size: .85em; color: #555; }
@media print { body { margin: 0; max-width: none; } .hansa-frame { font-size: .75em; } }
"""


def _figure(fig: Any, name: str, folder: Path | None) -> str:
    """``fig`` as an embedded PNG; with ``folder``, also written there as ``name.png`` and
    ``name.svg`` (:func:`hansa_lab.sim.exports.save_figure`). Closes the figure."""
    import matplotlib.pyplot as plt

    if folder is not None:
        save_figure(fig, folder, name, close=False)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    said = figure_answers(fig)
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    answers = f' data-answers="{escape(said)}"' if said else ""
    return (f'<img alt="{escape(FIGURES.get(name, name))}"{answers} '
            f'src="data:image/png;base64,{data}">')


def _named_seats(df: pd.DataFrame) -> pd.DataFrame:
    """A seats table with each seat named as everywhere (``seat 0 (first player)``)."""
    from hansa_lab.stats.answers import seat_name

    out = df.copy()
    out["seat"] = [seat_name(int(v)) for v in out["seat"]]
    return out


def _table(df: pd.DataFrame) -> str:
    """A summary frame as HTML in the display style of every table a person reads
    (:func:`hansa_lab.stats.display.table_html`: percentages, intervals on one line,
    wide tables split to fit the page)."""
    return table_html(df)


def _meta(results: Results) -> str:
    manifest = results.manifest
    config = manifest.get("configuration", {})
    done = results.completeness  # from the verified done-markers, not the manifest's word
    rows = [
        ("name", manifest.get("name")),
        ("status", done.text()),
        ("games", f"{done.games_done} of {done.total_games} ({done.failures} failed)"),
        ("arms", "; ".join(f"{k} = {', '.join(v)}" for k, v in config.get("arms", {}).items())),
        ("conditions", "; ".join(json.dumps(c, sort_keys=True)
                                 for c in config.get("conditions", []))),
        ("seed", config.get("seed")),
        ("package", f"{manifest.get('package_version', '')} "
                    f"{(manifest.get('git_commit') or '')[:12]}"),
        ("started", manifest.get("started")),
        ("finished", manifest.get("finished")),
    ]
    body = "".join(f"<tr><td>{escape(str(k))}</td><td>{escape(str(v))}</td></tr>"
                   for k, v in rows if v not in (None, "", "None"))
    return f'<table class="meta">{body}</table>'


def _verdict_class(verdict: str) -> str:
    return {"helps": "helps", "hurts": "hurts", "unbalanced": "hurts", "raises": "helps",
            "lowers": "hurts"}.get(verdict, "unclear")


def _answer_paragraph(answer: Any, prefix: str = "") -> str:
    """One answer record as the report's verdict paragraph: its sentence, with the word
    and the filled state as data attributes (what the figure draws for it)."""
    filled = "true" if answer.filled else "false"
    return (f'<p class="verdict {_verdict_class(answer.word)}" '
            f'data-word="{escape(answer.word)}" data-filled="{filled}">'
            f"{escape(prefix)}{escape(answer.text)}</p>")


def report_html(results: Results, *, title: str | None = None,
                figures_folder: str | os.PathLike[str] | None = None) -> str:
    """The report of ``results`` as an HTML string (see the module doc); with
    ``figures_folder``, its figures are also written there as PNG and SVG files. Every
    verdict paragraph renders an :class:`~hansa_lab.stats.answers.Answer` record, the
    same records the figures' markers and ``answers.csv`` render."""
    folder = Path(figures_folder) if figures_folder is not None else None
    run = RunFrames(results)
    figures = report_figures(run)

    manifest = results.manifest
    name = title or f"hansa-lab report: {manifest.get('name', 'run')}"
    parts = [f"<h1>{escape(name)}</h1>", "<h2>What was run</h2>", _meta(results)]
    summary = results.summary()
    if summary.empty:
        parts.append("<p>No finished games yet.</p>")
    else:
        parts += ["<h2>Win rate and mean score</h2>",
                  "<p>Per arm and strategy, with 95% intervals.</p>", _table(summary)]
        base = run.base
        if base is not None:
            verdicts = results.verdicts(base)
            shown = verdicts.drop(columns=[*HIDDEN_VERDICT_COLUMNS, "base_arm"])
            parts += [f"<h2>Does it help? Each arm against {escape(base)}</h2>",
                      "<p>Decided by the focal player's final score against the same seat "
                      "of the base game on the same deal (paired; 95% intervals over deals; "
                      "p_holm is that test's, Holm-adjusted over the arms). The win share "
                      "is secondary: shown, never deciding.</p>",
                      _table(shown)]
            parts += [_answer_paragraph(a, f"{r.arm}: ")
                      for r, a in zip(verdicts.itertuples(index=False), run.tip_answers,
                                      strict=True)]
            parts.append(_figure(figures["comparison"], "comparison", folder))
        shown_seats = results.seats()
        parts += ["<h2>Seat balance</h2>",
                  "<p>Win rate per seat against the fair share (seat 0 moves first). The "
                  "test of equal win counts decides (p_wins_holm, beside the win rate); "
                  "Friedman's test on scores is secondary (p_score, beside the mean "
                  "score).</p>",
                  _table(_named_seats(shown_seats[[c for c in shown_seats.columns
                                                   if c not in HIDDEN_SEAT_COLUMNS]]))]
        parts += [_answer_paragraph(a) for a in run.seat_answers]
        parts.append(_figure(figures["seat_advantage"], "seat_advantage", folder))
        parts += variant_sections(results, folder)  # a sweep: report_variants.py
        parts += ["<h2>Score breakdown</h2>",
                  "<p>Final score by category, per strategy.</p>",
                  _figure(figures["score_breakdown"], "score_breakdown", folder)]
    parts += ["<h2>Methods</h2>", "<dl>"]
    parts += [f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in METHODS]
    parts.append("</dl>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(name)}</title><style>{_STYLE}</style></head>"
            f"<body>\n{body}\n</body></html>\n")


def write_report(results: Results, path: str | os.PathLike[str], *,
                 title: str | None = None,
                 figures_folder: str | os.PathLike[str] | None = None) -> Path:
    """Write :func:`report_html` of ``results`` to ``path`` (folders created); returns the
    absolute path. ``figures_folder``: write the report's figures there too, as PNG and
    SVG (``RUN/figures``, see :mod:`hansa_lab.sim.exports`)."""
    out = Path(path).expanduser().resolve()
    if out.is_dir():
        raise IsADirectoryError(f"{out} is a folder: give a file name like report.html")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report_html(results, title=title, figures_folder=figures_folder),
                   encoding="utf-8")
    return out
