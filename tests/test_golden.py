"""Golden playthroughs and legal-action counts, replayed and diffed line by line.

Regenerate only on purpose: ``python scripts/make_goldens.py``.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from hansa_lab.golden import GOLDEN_GAMES, LEGAL_COUNT_POSITIONS, golden_lines, legal_counts

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name,config,strategies", GOLDEN_GAMES, ids=[g[0] for g in GOLDEN_GAMES])
def test_golden_playthrough(name, config, strategies):
    expected = (DATA / "golden" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    actual = golden_lines(config, strategies)
    if actual != expected:
        diff = list(difflib.unified_diff(expected, actual, "golden", "now", lineterm="", n=2))
        pytest.fail(f"{name} differs from its golden file:\n" + "\n".join(diff[:60]))


def test_every_golden_file_is_listed():
    files = {p.stem for p in (DATA / "golden").glob("*.txt")}
    assert files == {g[0] for g in GOLDEN_GAMES}


@pytest.mark.parametrize(
    "name,config,n", LEGAL_COUNT_POSITIONS, ids=[p[0] for p in LEGAL_COUNT_POSITIONS]
)
def test_legal_action_counts(name, config, n):
    expected = json.loads((DATA / "legal_counts.json").read_text(encoding="utf-8"))[name]
    assert legal_counts(config, n) == expected
