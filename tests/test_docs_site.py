"""The README and the documentation site (issue 22): the README is a short introduction
whose two commands are real Makefile targets; every page of the site's nav exists; the
Griffe extension of the API reference turns the docstrings' reST habits into Markdown.
(`make test` builds the site itself with ``mkdocs build --strict``.)"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _nav_pages() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:"):]
    return re.findall(r"([\w/]+\.md)\s*$", nav, flags=re.MULTILINE)


def _griffe_rest() -> ModuleType:
    path = ROOT / "docs" / "tools" / "griffe_rest.py"
    spec = importlib.util.spec_from_file_location("griffe_rest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_introduces() -> None:
    lines = README.splitlines()
    assert len(lines) <= 150
    assert lines[2:6] == ["```",
                          "make run    # set-up + main job: plays a batch of games and prints "
                          "a summary",
                          "make test   # set-up + lint, type check and the whole test suite",
                          "```"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run", "test", "lab", "docs"):
        assert re.search(rf"^{target}:", makefile, flags=re.MULTILINE), target
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README)
    assert len(pictures) == 1 and (ROOT / pictures[0]).exists()
    for heading in ("## Install", "## A five-minute tour", "## More"):
        assert heading in README
    for link in re.findall(r"\]\((docs/[^)#]+)\)", README):
        assert (ROOT / link).exists(), link


def test_every_page_of_the_nav_exists() -> None:
    pages = _nav_pages()
    assert len(pages) > 20
    for page in pages:
        assert (ROOT / "docs" / page).exists(), page
    for guide in ("results_folders", "errors_and_limits", "learning_agents",
                  "learned_players", "experiments", "strategies", "viewer", "statistics",
                  "compiled_core", "distributed"):
        assert f"guides/{guide}.md" in pages, guide
    assert "rule_options.md" in pages and "results.md" in pages


def test_the_results_page_dates_every_figure() -> None:
    """Each row of a "figure | command | date" table names a command and a date."""
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    rows, in_table = [], False
    for line in text.splitlines():
        if line.startswith("| figure | command | date |"):
            in_table = True
        elif in_table and line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif not line.startswith("|"):
            in_table = False
    assert len(rows) >= 6
    for figure, command, date in rows:
        assert figure and "`" in command, (figure, command)
        assert re.search(r"20\d\d-\d\d-\d\d", date), (figure, date)
    for measured in ("hansa-lab ladder", "hansa-lab lengths", "hansa-lab tune"):
        assert measured in text


def test_docstrings_become_markdown() -> None:
    to_markdown = _griffe_rest().to_markdown
    text = ("See :func:`~hansa_lab.sim.runner.simulate` and ``n_jobs``.\n\n"
            ">>> x = [0, 1]\n>>> x[0]\n0\n\nAfter.")
    assert to_markdown(text) == ("See `hansa_lab.sim.runner.simulate` and `n_jobs`.\n\n\n"
                                 "```pycon\n>>> x = [0, 1]\n>>> x[0]\n0\n```\n\n\nAfter.")
    assert to_markdown(">>> 1 + 1\n2").endswith("2\n```")
    table = "Before:\n\n==== ====\na    b\n==== ====\n``x`` y\n==== ====\n\nAfter."
    fenced = to_markdown(table)
    assert "```text\n==== ====\na    b\n==== ====\n" in fenced
    assert fenced.endswith("==== ====\n```\n\n\nAfter.")
