"""Regenerate the golden playthroughs and legal-action counts (on purpose only).

    python scripts/make_goldens.py

Writes ``tests/data/golden/*.txt`` and ``tests/data/legal_counts.json``. The tests replay
the same games and compare line by line; a rules change that alters any game shows up as
a diff, which is reviewed before regenerating with this script.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hansa_lab.golden import GOLDEN_GAMES, LEGAL_COUNT_POSITIONS, golden_lines, legal_counts  # noqa: E402

OUT = ROOT / "tests" / "data"


def main() -> None:
    (OUT / "golden").mkdir(parents=True, exist_ok=True)
    for name, config, strategies in GOLDEN_GAMES:
        path = OUT / "golden" / f"{name}.txt"
        path.write_text("\n".join(golden_lines(config, strategies)) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    counts = {name: legal_counts(config, n) for name, config, n in LEGAL_COUNT_POSITIONS}
    path = OUT / "legal_counts.json"
    path.write_text(json.dumps(counts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
