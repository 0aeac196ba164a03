"""Helpers shared by the notebooks: one switch for the study size, one results folder.

``HANSA_LAB_SIZE=small`` (the test suite sets it) runs every notebook in seconds to
minutes; the default ``full`` size gives publishable intervals and writes full-size
figures under ``results/``.

>>> pick(small=10, full=2000, size="small")
10
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
SIZES = ("small", "full")


def size() -> str:
    """The study size from the environment variable ``HANSA_LAB_SIZE`` (default full)."""
    value = os.environ.get("HANSA_LAB_SIZE", "full").strip().lower()
    if value not in SIZES:
        raise ValueError(f"HANSA_LAB_SIZE must be one of {SIZES}, got {value!r}")
    return value


def pick(small: T, full: T, size: str | None = None) -> T:
    """``small`` or ``full`` according to the study size."""
    return small if (size or globals()["size"]()) == "small" else full


def results_dir(name: str) -> Path:
    """``results/<name>`` (``results/small/<name>`` at small size), created if needed.

    Relative to the project root when run from ``notebooks/``."""
    root = Path.cwd()
    if root.name == "notebooks":
        root = root.parent
    base = root / "results" / ("small" if size() == "small" else "")
    path = base / name
    path.mkdir(parents=True, exist_ok=True)
    return path
