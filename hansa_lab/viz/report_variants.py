"""The report's sections on a sweep of rule variants (:mod:`hansa_lab.viz.report`): each
variant against the unchanged game, and which variant is most balanced — the answer line,
the variants' table with the first seat's advantage and the seat gap with intervals, and
the figure (:func:`hansa_lab.stats.plot_variants.plot_best_variant`)."""

from __future__ import annotations

import base64
import io
from html import escape
from pathlib import Path
from typing import Any

from hansa_lab.sim.results import HIDDEN_VERDICT_COLUMNS, Results
from hansa_lab.stats.balance import BalanceAnswers, variant_view
from hansa_lab.stats.display import table_html
from hansa_lab.stats.variants import variant_sentence

__all__ = ["COMPARE_FILE", "FIGURE_NAME", "compare_looks", "variant_sections"]

#: The figure's file name in ``RUN/figures`` (PNG and SVG).
FIGURE_NAME = "best_variant"

#: The answer words' style class (the report's stylesheet colours helps/hurts/unclear).
_CLASS = {"best": "helps", "worse than the best": "hurts"}


def _embedded(fig: Any, folder: Path | None) -> str:
    """``fig`` as an embedded PNG (and PNG/SVG files in ``folder``); closes it."""
    import matplotlib.pyplot as plt

    from hansa_lab.sim.exports import save_figure

    if folder is not None:
        save_figure(fig, folder, FIGURE_NAME, close=False)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    said = escape(fig._hansa_answers[0].text) if getattr(fig, "_hansa_answers", None) else ""
    return (f'<img alt="seat 0 (first player) advantage per variant: {said}" '
            f'src="data:image/png;base64,{data}">')


#: The file ``hansa-lab compare`` leaves in its run folder: how it looked at the data.
COMPARE_FILE = "compare.json"


def compare_looks(results: Results) -> int:
    """How many looks a ``compare --until-decided`` run took at its data (its answer's
    level is split over them; 1 for any other run), from :data:`COMPARE_FILE`."""
    import json

    if results.path is None:
        return 1
    path = Path(results.path) / COMPARE_FILE
    try:
        return max(1, int(json.loads(path.read_text("utf-8")).get("looks", 1)))
    except (OSError, ValueError, TypeError, AttributeError):
        return 1


def variant_sections(results: Results, folder: Path | None = None,
                     answer: BalanceAnswers | None = None) -> list[str]:
    """The HTML parts of the rule-variants and balance sections of ``results`` (none
    when the run is not a sweep). ``answer``: the most-balanced answer already computed
    (``hansa-lab compare`` passes the one it printed, with its looks); ``folder``: write
    the figure there too."""
    base = results.base_variant()
    if base is None or results.summary().empty:
        return []
    parts = [f"<h2>Rule variants against {escape(base)}</h2>",
             "<p>Each variant against the unchanged game on the same deals (paired by "
             "deal; 95% intervals over deals).</p>"]
    table = results.variants(base)
    if len(table):
        shown = table[[c for c in table.columns if c not in (
            "base_variant", *HIDDEN_VERDICT_COLUMNS, "identical")]]
        parts.append(table_html(shown))
        parts += [f'<p class="verdict unclear">{escape(str(r.variant))}, '
                  f"{escape(str(r.measure))}: {escape(variant_sentence(r))}</p>"
                  for r in table.itertuples(index=False)]
    answer = answer if answer is not None else results.most_balanced(
        looks=compare_looks(results))
    parts += ["<h2>Which variant is most balanced?</h2>",
              "<p>Seat 0 (first player)'s advantage — its win share minus the fair share — "
              "per variant, with simultaneous 95% intervals (all hold at once). The "
              "variants that cannot be told apart from the best are the ones whose "
              "smallest possible advantage is not above another variant's largest "
              "(multiple comparisons with the best); 'cannot tell yet' when that is every "
              "variant. The seat gap (the largest distance of any seat from the fair "
              "share) is shown with its 95% interval.</p>"]
    for sweep in answer.sweeps:
        head = ", ".join(f"{k} {v}" for k, v in sweep.group.items())
        text = f"{head}: {sweep.answer.text}" if head else sweep.answer.text
        parts.append(f'<p class="verdict {_CLASS.get(sweep.answer.word, "unclear")}" '
                     f'data-word="{escape(sweep.answer.word)}">{escape(text)}</p>')
    for line in answer.lines()[len(answer.sweeps):]:
        parts.append(f"<p>{escape(line)}</p>")
    if answer.sweeps:
        parts.append(table_html(variant_view(answer.table)))
        from hansa_lab.stats.plot_variants import plot_best_variant

        for sweep in answer.sweeps:
            parts.append(_embedded(plot_best_variant(sweep), folder))
            folder = None  # one figure file: the first sweep's
    balance = results.balance()
    parts += ["<h3>Balance per variant</h3>",
              "<p>Each variant on its own (95% intervals, one variant at a time: narrower "
              "than the simultaneous ones above, which decide the answer), with the game "
              "length and how games end.</p>", table_html(balance)]
    return parts
