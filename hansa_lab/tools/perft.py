"""``hansa-lab perft``: count the action sequences from a position in both engines.

Prints, for each depth up to ``--depth``, the count of each engine and its speed
(nodes/s = the count over the seconds it took), and says whether the engines agree; with
``--divide`` also the count below each first action (for finding where they differ).
The position is a position text (:mod:`hansa_lab.engine.position`), a line of a file of
positions (the perft file's ``name counts position`` lines, or bare position texts), or
a new game.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from hansa_lab.compiled.bridge import core_divide, core_from_text, core_perft
from hansa_lab.engine.actions import Action, format_action
from hansa_lab.engine.perft import divide, perft
from hansa_lab.engine.position import VERSION, from_text, to_text
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.golden import read_perft_file
from hansa_lab.tools.commands.common import SEED, CliError, add_game_args, game_config

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands

ENGINES = ("python", "core")


@dataclass(frozen=True)
class Count:
    """One engine's perft at one depth and the seconds it took."""

    engine: str
    depth: int
    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def load_position(position: str | None, file: Path | None, name: str | None,
                  config: GameConfig) -> tuple[str, State]:
    """(label, state): the position text, the named (or first) position of ``file``, or
    the start of a game of ``config``. ValueError naming what is wrong."""
    if position is not None and file is not None:
        raise ValueError("give a position text or --file, not both")
    if position is not None:
        return "position", from_text(position)
    if file is None:
        return f"start of {config.side}, {config.n_players} players, seed {config.seed}", (
            new_game(config))
    lines = file.read_text(encoding="utf-8").splitlines()
    if any(line.startswith(VERSION + " ") for line in lines):
        texts = [(f"line {i}", line) for i, line in enumerate(lines, 1)
                 if line.startswith(VERSION + " ")]
    else:
        texts = [(p.name, p.text) for p in read_perft_file("\n".join(lines))]
    if not texts:
        raise ValueError(f"{file}: no positions in it")
    if name is None:
        label, text = texts[0]
    else:
        found = [t for t in texts if t[0] == name]
        if not found:
            raise ValueError(f"{file}: no position named {name!r} (names: "
                             f"{', '.join(t[0] for t in texts[:20])})")
        label, text = found[0]
    return label, from_text(text)


def _timed(engine: str, depth: int, count: Callable[[], int]) -> Count:
    start = time.perf_counter()
    nodes = count()
    return Count(engine, depth, nodes, time.perf_counter() - start)


def count(state: State, depth: int, engines: tuple[str, ...]) -> list[Count]:
    """perft at depths 1 … ``depth`` in each engine (the core reads the position's text)."""
    game = core_from_text(to_text(state), state.config) if "core" in engines else None
    out = []
    for d in range(1, depth + 1):
        if "python" in engines:
            out.append(_timed("python", d, partial(perft, state, d)))
        if game is not None:
            out.append(_timed("core", d, partial(core_perft, game, d)))
    return out


def divided(state: State, depth: int, engines: tuple[str, ...]) -> dict[str, list[
        tuple[Action, int]]]:
    """The count below each first action, per engine."""
    out = {}
    if "python" in engines:
        out["python"] = divide(state, depth)
    if "core" in engines:
        out["core"] = core_divide(core_from_text(to_text(state), state.config), depth)
    return out


def run(state: State, label: str, depth: int, engines: tuple[str, ...], show_divide: bool,
        out: TextIO) -> bool:
    """Print the counts (and the division); True when the engines agree."""
    print(f"perft of {label}: {state!r}", file=out)
    counts = count(state, depth, engines)
    print(f"{'depth':>5} " + " ".join(f"{e + ' count':>14} {e + ' nodes/s':>14}"
                                      for e in engines), file=out)
    agree = True
    for d in range(1, depth + 1):
        row = [c for c in counts if c.depth == d]
        agree &= len({c.nodes for c in row}) == 1
        print(f"{d:>5} " + " ".join(f"{c.nodes:>14} {c.nodes_per_second:>14,.0f}"
                                    for c in row), file=out)
    if show_divide:
        rows = divided(state, depth, engines)
        first = rows[engines[0]]
        print(f"divide at depth {depth}:", file=out)
        for i, (action, _) in enumerate(first):
            values = [rows[e][i][1] if i < len(rows[e]) else -1 for e in engines]
            mark = "" if len(set(values)) == 1 else "   <- engines differ"
            print(f"  {format_action(state.board, action):<40} "
                  + " ".join(f"{v:>10}" for v in values) + mark, file=out)
        agree &= len({len(r) for r in rows.values()}) == 1 and all(
            r == first for r in rows.values())
    if len(engines) > 1:
        print("the engines agree" if agree else "THE ENGINES DIFFER", file=out)
    return agree


# --------------------------------------------------------------------------- command
#: the deepest perft the command runs (the core's own limit)
MAX_DEPTH = 8


def cmd_perft(args: argparse.Namespace) -> int:
    if not 1 <= args.depth <= MAX_DEPTH:
        raise CliError(f"--depth: must be 1-{MAX_DEPTH}, got {args.depth}")
    engines = ENGINES if args.engine == "both" else (args.engine,)
    try:
        config = game_config(args, args.seed) if args.position is None and args.file is None \
            else GameConfig()
        label, state = load_position(args.position, args.file, args.name, config)
    except OSError as e:
        raise CliError(f"--file: {e}") from e
    except ValueError as e:
        raise CliError(str(e)) from e
    return 0 if run(state, label, args.depth, engines, args.divide, sys.stdout) else 1


def add_perft(sub: Subcommands) -> None:
    p = sub.add_parser("perft", help="count the action sequences from a position to a "
                                     "depth in both engines (counts, nodes/s, --divide)")
    p.add_argument("position", nargs="?", default=None,
                   help="a position text (docs/guides/positions.md); default: --file, or "
                        "the start of a game of --players/--board/--seed")
    p.add_argument("--file", type=Path, default=None,
                   help="a file of positions (tests/data/perft.txt, or one text a line)")
    p.add_argument("--name", default=None, help="the position of --file to count "
                                                "(default: the first)")
    p.add_argument("--depth", type=int, default=3, help="the deepest count (default 3)")
    p.add_argument("--engine", choices=("both", *ENGINES), default="both",
                   help="count in both engines (default) or one")
    p.add_argument("--divide", action="store_true",
                   help="also the count below each first action, per engine")
    add_game_args(p, players_default=3)
    p.add_argument("--seed", type=SEED, default=0, help="the new game's seed (default 0)")
    p.set_defaults(func=cmd_perft)
