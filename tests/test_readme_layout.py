"""The README's layout table matches the folders: every subpackage of ``hansa_lab`` and
every top-level folder of the project has a row, every row names a folder that exists, and
every sub-folder of ``core/src`` is named in the crate's row."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_COMMITTED = {"results/"}  # run outputs: named in the table, created by the first run


def layout_rows() -> dict[str, str]:
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+/)` \| (.+) \|$", section, flags=re.M)
    return dict(rows)


def tracked_top_folders() -> set[str]:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    return {f.split("/")[0] + "/" for f in files if "/" in f and not f.startswith(".")}


def test_every_subpackage_and_top_folder_has_a_row() -> None:
    rows = layout_rows()
    packages = {f"hansa_lab/{p.parent.name}/" for p in (ROOT / "hansa_lab").glob("*/__init__.py")}
    assert packages, "no subpackages found"
    missing = sorted(packages - set(rows))
    assert not missing, f"README layout table lacks {missing}"
    top = tracked_top_folders() - {"hansa_lab/", "core/"}
    missing = sorted(top - set(rows))
    assert not missing, f"README layout table lacks {missing}"


def test_every_row_names_a_folder_that_exists() -> None:
    for folder in layout_rows():
        if folder not in NOT_COMMITTED:
            assert (ROOT / folder).is_dir(), f"README layout row {folder!r}: no such folder"


def test_the_crates_row_names_its_sub_folders() -> None:
    row = layout_rows()["core/src/"]
    for sub in sorted(p.name for p in (ROOT / "core" / "src").iterdir() if p.is_dir()):
        assert f"`{sub}/`" in row, f"README layout row core/src/ does not name {sub}/"
