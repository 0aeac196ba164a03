"""``hansa-lab perft``: count the action sequences from a position in both engines.

Prints, for each depth up to ``--depth``, the count of each engine and its speed
(nodes/s = the count over the seconds it took), and says whether the engines agree; with
``--divide`` also the count below each first action (for finding where they differ).
The position is a position text (:mod:`hansa_lab.engine.position`), a line of a file of
positions (the perft file's ``name counts position`` lines, or bare position texts), or
a new game; a text either engine refuses is a usage error (exit 2, one line).

Depth 3 or more is first estimated from the first plies (:func:`estimate`): a count that
would take more than a day is refused unless ``--yes``. Ctrl-C or SIGTERM stops a count
(exit 130 or 143, one line; the depths printed so far stay complete).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from hansa_lab.compiled.bridge import CoreGame, core_divide, core_from_text, core_perft
from hansa_lab.engine.actions import Action, format_action
from hansa_lab.engine.perft import divide, perft
from hansa_lab.engine.position import VERSION, from_text, to_text
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.errors import terminate_as_interrupt
from hansa_lab.golden import read_perft_file
from hansa_lab.play import ENGINES as PLAY_ENGINES
from hansa_lab.tools.commands.common import (
    LONG_RUN_SECONDS,
    SEED,
    CliError,
    CliFailure,
    add_game_args,
    game_config,
    stopped,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands

ENGINES = tuple(PLAY_ENGINES)


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


@dataclass(frozen=True)
class Position:
    """A position to count: a label saying where it came from, its text and its state."""

    label: str
    text: str
    state: State


def load_position(position: str | None, file: Path | None, name: str | None,
                  config: GameConfig) -> Position:
    """The position text, the named (or first) position of ``file``, or the start of a
    game of ``config``. ValueError (a PositionError for a text) naming what is wrong."""
    if position is not None and file is not None:
        raise ValueError("give a position text or --file, not both")
    if name is not None and file is None:
        raise ValueError(f"--name {name!r} picks a position of --file: give --file too")
    if position is not None:
        return Position("position", position, from_text(position))
    if file is None:
        state = new_game(config)
        return Position(f"start of {config.side}, {config.n_players} players, seed "
                        f"{config.seed}", to_text(state), state)
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
    try:
        return Position(label, text, from_text(text))
    except ValueError as e:
        raise ValueError(f"{file}: {label}: {e}") from e


def _timed(engine: str, depth: int, count: Callable[[], int]) -> Count:
    start = time.perf_counter()
    nodes = count()
    return Count(engine, depth, nodes, time.perf_counter() - start)


def _counter(engine: str, state: State, game: CoreGame | None) -> Callable[[int], int]:
    if engine == "core":
        return partial(core_perft, game or core_from_text(to_text(state), state.config))
    return partial(perft, state)


def count(state: State, depth: int, engines: tuple[str, ...],
          game: CoreGame | None = None) -> Iterator[list[Count]]:
    """perft at depths 1 … ``depth``, one list (a Count per engine) per depth as soon as
    it is counted; the core counts ``game`` (by default the core's reading of the
    state's text)."""
    if "core" in engines and game is None:
        game = core_from_text(to_text(state), state.config)
    for d in range(1, depth + 1):
        yield [_timed(e, d, partial(_counter(e, state, game), d)) for e in engines]


# --------------------------------------------------------------------------- estimate
@dataclass(frozen=True)
class Estimate:
    """How long counting to ``depth`` would take: the leaves at ``depth`` and the seconds
    of the whole run (every depth, every engine), carried on from the first plies."""

    depth: int
    nodes: float
    seconds: float

    def duration(self) -> str:
        s = self.seconds
        for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600),
                           ("minutes", 60)):
            if s >= 2 * size:
                return f"{s / size:,.0f} {unit}"
        return f"{s:,.0f} seconds"


#: the depth each engine is measured at for the estimate (the core is faster)
_MEASURED_DEPTH = {"python": 2, "core": 3}


def estimate(state: State, depth: int, engines: tuple[str, ...],
             game: CoreGame | None = None) -> Estimate:
    """Count each engine to a small depth k (2 in Python, 3 in the core), take the
    branching b = count(k) / count(k - 1), and carry count and time on by b per ply:
    leaves ≈ count(k)·b^(depth − k), seconds ≈ Σ time(k)·b^(d − k) over the depths."""
    nodes, seconds = 0.0, 0.0
    for engine in engines:
        k = max(1, min(depth - 1, _MEASURED_DEPTH[engine]))
        counter = _counter(engine, state, game)
        before = counter(k - 1)
        measured = _timed(engine, k, partial(counter, k))
        branching = max(1.0, measured.nodes / max(1, before))
        nodes = max(nodes, measured.nodes * branching ** (depth - k))
        seconds += measured.seconds * sum(branching ** (d - k) for d in range(k, depth + 1))
    return Estimate(depth, nodes, seconds)


def check_work(state: State, depth: int, engines: tuple[str, ...], game: CoreGame | None,
               yes: bool) -> None:
    """Refuse, without ``--yes``, a count estimated to take more than a day (as
    ``simulate`` refuses such runs), saying how long it would take."""
    if yes or depth < 3:
        return
    guess = estimate(state, depth, engines, game)
    if guess.seconds <= LONG_RUN_SECONDS:
        return
    raise CliError(f"--depth: depth {depth} would take about {guess.duration()} (about "
                   f"{guess.nodes:.1e} action sequences, estimated from the branching of "
                   f"the first plies and the measured speed of {' and '.join(engines)}); "
                   f"pass a smaller --depth, or --yes to start it anyway")


# --------------------------------------------------------------------------- output
def divided(state: State, depth: int, engines: tuple[str, ...],
            game: CoreGame | None = None) -> dict[str, list[tuple[Action, int]]]:
    """The count below each first action, per engine."""
    out = {}
    if "python" in engines:
        out["python"] = divide(state, depth)
    if "core" in engines:
        out["core"] = core_divide(game or core_from_text(to_text(state), state.config), depth)
    return out


def run(state: State, label: str, depth: int, engines: tuple[str, ...], show_divide: bool,
        out: TextIO, game: CoreGame | None = None) -> bool:
    """Print the counts, each depth as soon as it is counted (and the division); True
    when the engines agree."""
    print(f"perft of {label}: {state!r}", file=out)
    print(f"{'depth':>5} " + " ".join(f"{e + ' count':>14} {e + ' nodes/s':>14}"
                                      for e in engines), file=out, flush=True)
    agree = True
    for row in count(state, depth, engines, game):
        agree &= len({c.nodes for c in row}) == 1
        print(f"{row[0].depth:>5} " + " ".join(f"{c.nodes:>14} {c.nodes_per_second:>14,.0f}"
                                               for c in row), file=out, flush=True)
    if show_divide:
        rows = divided(state, depth, engines, game)
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
        position = load_position(args.position, args.file, args.name, config)
        # the core reads the same text with its own parser (and the same validator)
        game = core_from_text(position.text, position.state.config) if "core" in engines \
            else None
    except OSError as e:
        raise CliError(f"--file: {e}") from e
    except ValueError as e:
        raise CliError(str(e)) from e
    try:
        with terminate_as_interrupt():
            check_work(position.state, args.depth, engines, game, args.yes)
            agree = run(position.state, position.label, args.depth, engines, args.divide,
                        sys.stdout, game)
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (RunTerminated)
        what, code = stopped(e)
        raise CliFailure(f"{what}; the depths printed above are complete", code) from e
    return 0 if agree else 1


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
    p.add_argument("--yes", action="store_true",
                   help="count even when the estimate says it takes more than a day")
    p.set_defaults(func=cmd_perft)
