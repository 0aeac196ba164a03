"""Project habits that a test can hold: one version, a licence, a kept changelog."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import hansa_lab
from hansa_lab.version import NOT_INSTALLED

ROOT = Path(__file__).resolve().parents[1]


def _crate_version() -> str:
    return str(tomllib.loads((ROOT / "core" / "Cargo.toml").read_text())["package"]["version"])


def test_the_version_is_written_once_in_the_crate() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project, "pyproject.toml must not write the version: it is dynamic"
    assert "version" in project["dynamic"]
    assert hansa_lab.__version__ == _crate_version() != NOT_INSTALLED
    literal = re.compile(r"__version__\s*=\s*[\"']\d")
    written = [p for p in (ROOT / "hansa_lab").rglob("*.py") if literal.search(p.read_text())]
    assert not written, f"a version literal outside core/Cargo.toml: {written}"


def test_a_licence_is_shipped_and_declared() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"file": "LICENSE"}


def test_the_changelog_has_an_unreleased_section_and_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings[0] == "Unreleased", "new work goes under '## Unreleased' first"
    versions = [h.split(" ")[0] for h in headings[1:]]
    assert _crate_version() in versions, f"no '## {_crate_version()} — date' section"
    for h in headings[1:]:
        assert re.fullmatch(r"\d+\.\d+\.\d+ — \d{4}-\d{2}-\d{2}", h), f"heading {h!r}"
    unreleased = text.split("## Unreleased", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^- ", unreleased, flags=re.M), "Unreleased lists nothing"
