"""Every notebook runs top to bottom at small size in a real Jupyter kernel."""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("0*.ipynb"))
#: The figures each study shows (at least): executed notebooks must contain them as
#: images, at the small size too (not ``<Figure size ...>`` text).
FIGURES = {"01_quickstart": 1, "02_strategy_tips": 1, "03_balance": 1,
           "04_score_breakdowns": 5, "05_inspect_a_game": 0, "06_rule_knobs": 1,
           "07_learning_agent": 1}
#: Board pictures (SVG) each study shows: notebook 05's game also as a static picture,
#: so that an HTML export of the notebook (where widgets do not run) is not blank.
BOARDS = {"05_inspect_a_game": 1}
#: Batches each study plays at the small size too, each with its progress bar (tqdm's
#: notebook widget), or, for a run already complete in ``results/small``, the line saying
#: so (notebook 05 reads the quickstart's run when notebook 01 has played it).
BATCHES = {"01_quickstart": 1, "02_strategy_tips": 2, "03_balance": 8,
           "04_score_breakdowns": 3, "05_inspect_a_game": 1, "06_rule_knobs": 2,
           "07_learning_agent": 3}
#: a progress bar's text: "quickstart:  0%|          | 0/8 [00:00<?, ?game/s]"
BAR_TEXT = re.compile(r"\d+%\|.*\| *\d+/\d+ \[")
#: the line of a run found complete (no bar: nothing is played)
FOUND_COMPLETE = re.compile(r": complete \([\d,]+ games\), nothing to do")
#: The running time in the first cell's **Size.** paragraph, at both sizes for a study
#: with a size switch (dates ISO, durations like "3 min 14 s", "56 s", "1 h 2 min")
DURATION = r"(?:more than )?\d+ (?:h|min|s)(?: \d+ (?:min|s))?"
MEASURED = r"\(measured (\d{4}-\d\d-\d\d)[^)]*\)"
RUNNING_TIME = {
    "sizes": re.compile(rf"\*\*Running time\*\* on a shared 2-core machine: {DURATION} at "
                        rf"the default size {MEASURED}, {DURATION} at "
                        rf"`HANSA_LAB_SIZE=small` {MEASURED}\."),
    "one size": re.compile(rf"\*\*Running time\*\* on a shared 2-core machine: {DURATION} "
                           rf"{MEASURED}\."),
}


def test_the_seven_studies_exist():
    assert [p.stem for p in NOTEBOOKS] == [
        "01_quickstart",
        "02_strategy_tips",
        "03_balance",
        "04_score_breakdowns",
        "05_inspect_a_game",
        "06_rule_knobs",
        "07_learning_agent",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_clean(path):
    """The notebooks are edited in JupyterLab and committed as they are: without outputs
    or execution counts (results belong to whoever runs them) and with the kernel the
    package installs, so they open and run in a fresh JupyterLab."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, f"{path.name}: no code cells"
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
             and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: cells {dirty} were committed with outputs; clear them"
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3", path.name


ALL_NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=[p.stem for p in ALL_NOTEBOOKS])
def test_first_cell_states_the_size_and_a_measured_running_time(path):
    """The README promises it: each notebook says at the top how big it is and how long
    it took on the developers' machine, at each size it has, with the date measured."""
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown", f"{path.name}: the first cell is not text"
    paragraphs = [" ".join(p.split()) for p in first.source.split("\n\n")]
    size = [p for p in paragraphs if p.startswith("**Size.**")]
    assert size, f"{path.name}: the first cell has no paragraph starting **Size.**"
    sizes = any("study.pick(" in c.source for c in nb.cells if c.cell_type == "code")
    pattern = RUNNING_TIME["sizes" if sizes else "one size"]
    found = pattern.search(size[0])
    assert found, (f"{path.name}: the **Size.** paragraph lacks '{pattern.pattern}' "
                   f"(the measured running time{' at both sizes' if sizes else ''})")
    for day in found.groups():
        date.fromisoformat(day)  # a real date


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=[p.stem for p in ALL_NOTEBOOKS])
def test_notebooks_do_not_hide_the_progress_bars(path):
    """A batch of minutes shows its bar (tqdm's notebook widget) with the time left."""
    nb = nbformat.read(path, as_version=4)
    quiet = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
             and re.search(r"progress\s*=\s*False", c.source)]
    assert not quiet, f"{path.name}: cells {quiet} pass progress=False"


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("HANSA_LAB_SIZE", "small")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError naming the failing cell
    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
    assert os.environ["HANSA_LAB_SIZE"] == "small"
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= FIGURES[path.stem], f"{len(images)} images in {path.stem}"
    boards = [o for o in outputs if "hansa-board" in str(o.get("data", {}).get(
        "image/svg+xml", ""))]
    assert len(boards) >= BOARDS.get(path.stem, 0)
    # the batches' progress: widget bars (a few hundred bytes each, whatever the run's
    # length), never a text bar redrawn into the cell's output
    bars = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in
            o.get("data", {}) and BAR_TEXT.search(str(o["data"].get("text/plain", "")))]
    streams = "".join(str(o.get("text", "")) for o in outputs)
    found = FOUND_COMPLETE.findall(streams)
    assert len(bars) + len(found) >= BATCHES[path.stem], f"{len(bars)} bars, {len(found)} found"
    assert not BAR_TEXT.search(streams) and len(streams) < 100_000
    # a figure shown only as text ("<Figure size 1260x720 with 6 Axes>") was not drawn
    as_text = [o for o in outputs if str(o.get("data", {}).get("text/plain", "")).startswith(
        "<Figure size") and "image/png" not in o.get("data", {})]
    as_text += [o for o in outputs if "<Figure size" in str(o.get("text", ""))]
    assert not as_text
    # every comparison has at least 2 deals at the small size too, so the suite checks real
    # intervals: no verdict from one deal, no interval-less NaN rows
    text = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                     for o in outputs)
    assert "needs at least 2 deals" not in text and "from 1 deal" not in text
    if path.stem == "06_rule_knobs":  # greedy tables never pay an East-West award: said so
        assert re.search(r"ew_531 +\w+: this rule never came into play in these games", text)
    # tables show three decimals: no 1.387779e-17, no six-decimal floats
    tables = "".join(str(o.get("data", {}).get("text/html", "")) for o in outputs)
    assert not re.search(r"\d\.\d{6}|\de-\d\d", tables)
