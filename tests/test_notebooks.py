"""Every notebook runs top to bottom at small size in a real Jupyter kernel."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("0*.ipynb"))


def test_the_five_studies_exist():
    assert [p.stem for p in NOTEBOOKS] == [
        "01_quickstart",
        "02_strategy_tips",
        "03_balance",
        "04_score_breakdowns",
        "05_inspect_a_game",
    ]


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
