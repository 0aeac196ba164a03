"""docs/guides/learning_agents.md: its generated tables are up to date and every Python
example on it runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hansa_lab.env.docs import regenerate

PAGE = Path(__file__).resolve().parents[1] / "docs" / "guides" / "learning_agents.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_generated_tables_are_up_to_date() -> None:
    text = PAGE.read_text()
    assert regenerate(text) == text, (
        "docs/guides/learning_agents.md is out of date: "
        "python -m hansa_lab.env.docs docs/guides/learning_agents.md")
    assert "| `perm_place` |" in text and "| `permits_used` |" in text


def test_there_is_an_example_of_each_api() -> None:
    joined = "\n".join(BLOCKS)
    for api in ("ActionIndex(", "observe(", "HansaEnv(", "SingleAgentEnv(", "VectorEnv("):
        assert api in joined
    assert all(len(b.strip().splitlines()) <= 12 for b in BLOCKS)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example_{i}" for i in range(len(BLOCKS))])
def test_example_runs(code: str) -> None:
    exec(compile(code, str(PAGE), "exec"), {})
