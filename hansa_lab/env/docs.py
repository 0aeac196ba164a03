"""The generated parts of ``docs/guides/learning_agents.md``: the action index layout and
the observation fields, as Markdown tables built from the code's own tables
(:data:`~hansa_lab.env.action_index.LAYOUT`,
:func:`~hansa_lab.env.observation.observation_fields`). A test keeps the page in step;
rewrite it with ``python -m hansa_lab.env.docs docs/guides/learning_agents.md``.

>>> "| `place` |" in action_index_table()
True
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from hansa_lab.engine.board import BOARD_SIDES, load_board
from hansa_lab.env.action_index import LAYOUT, ActionIndex
from hansa_lab.env.observation import observation_fields

#: (board side, players) columns of the observation table
OBS_COLUMNS = (("base_3p", 2), ("base_3p", 3), ("base_45p", 4), ("britannia_45p", 5))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def action_index_table() -> str:
    """Each kind's range: its layout, and its start and size on every board side."""
    indices = [ActionIndex(load_board(side)) for side in BOARD_SIDES]
    head = "| kind | layout (offset inside the kind's range) | " + " | ".join(
        f"{side} start+size" for side in BOARD_SIDES) + " |"
    lines = [head, "|" + "---|" * (2 + len(BOARD_SIDES))]
    for k, kind in enumerate(LAYOUT):
        cells = [f"{ix.ranges[k].start}+{ix.ranges[k].size}" for ix in indices]
        lines.append(f"| `{kind}` | {_cell(LAYOUT[kind])} | " + " | ".join(cells) + " |")
    lines.append("| **total** | | " + " | ".join(str(ix.size) for ix in indices) + " |")
    return "\n".join(lines)


def observation_table() -> str:
    """Each field: its shape for a few configurations and what it holds."""
    configs = [observation_fields(load_board(side), n) for side, n in OBS_COLUMNS]
    head = "| field | " + " | ".join(f"{side}, {n}p" for side, n in OBS_COLUMNS) + \
        " | what it holds |"
    lines = [head, "|" + "---|" * (2 + len(OBS_COLUMNS))]
    for k, f in enumerate(configs[0]):
        shapes = [" × ".join(map(str, c[k].shape)) for c in configs]
        lines.append(f"| `{f.name}` | " + " | ".join(shapes) + f" | {_cell(f.description)} |")
    lines.append("| **total** | " + " | ".join(str(c[-1].stop) for c in configs) + " | |")
    return "\n".join(lines)


SECTIONS = {"action-index": action_index_table, "observation": observation_table}


def regenerate(text: str) -> str:
    """``text`` with every ``<!-- generated: NAME -->`` … ``<!-- end -->`` block rebuilt."""
    def block(m: re.Match[str]) -> str:
        return f"<!-- generated: {m[1]} -->\n{SECTIONS[m[1]]()}\n<!-- end -->"
    return re.sub(r"<!-- generated: ([\w-]+) -->\n.*?<!-- end -->", block, text, flags=re.S)


def main(argv: list[str]) -> int:
    for name in argv:
        path = Path(name)
        path.write_text(regenerate(path.read_text()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
