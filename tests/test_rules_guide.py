"""docs/guides/rules.md: every ``pycon`` snippet of the rules walkthrough runs and prints
what the page says (one doctest over the page's snippets, in order, sharing names)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guides" / "rules.md"


def snippets(text: str) -> str:
    """The page's ``pycon`` blocks, joined into one doctest text."""
    return "\n".join(re.findall(r"^```pycon\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL))


def test_the_rules_walkthrough_runs_as_written() -> None:
    text = snippets(GUIDE.read_text(encoding="utf-8"))
    assert text.count(">>> ") >= 30, "the walkthrough lost its snippets"
    test = doctest.DocTestParser().get_doctest(text, {}, "rules.md", str(GUIDE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
