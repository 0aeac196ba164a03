"""The ``hansa-lab`` command line: the parser and the dispatch to the commands of
:mod:`hansa_lab.tools.commands` (one module per job)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from hansa_lab.tools import perft
from hansa_lab.tools.commands import inspect, learn, measure, populations, simulate, survey
from hansa_lab.tools.commands.common import (
    FASTEST_GAME_SECONDS,
    LONG_RUN_SECONDS,
    CliError,
    CliFailure,
)
from hansa_lab.tools.commands.simulate import MAIN_CHUNK_SIZE, MAIN_GAMES, MAIN_OUT

__all__ = ["FASTEST_GAME_SECONDS", "LONG_RUN_SECONDS", "MAIN_CHUNK_SIZE", "MAIN_EXPERIMENT",
           "MAIN_GAMES", "MAIN_OUT", "CliError", "CliFailure", "build_parser", "main"]

#: The experiment file of ``hansa-lab main`` (experiments/NAME), read when the parser is
#: built, so a test or a caller may point the main job at another file.
MAIN_EXPERIMENT = simulate.MAIN_EXPERIMENT


def _version() -> str:
    """The installed package's version (its metadata: the facade is above this layer)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hansa-lab")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hansa-lab", description="Hansa Teutonica lab")
    parser.add_argument("--version", action="version", version=f"hansa-lab {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    # in this order in the help
    inspect.add_play(sub)
    measure.add_bench(sub)
    inspect.add_options(sub)
    measure.add_parity(sub)
    survey.add_ladder(sub)
    survey.add_lengths(sub)
    populations.add_populations(sub)
    simulate.add_simulate(sub)
    simulate.add_run(sub)
    learn.add_tune(sub)
    learn.add_learn(sub)
    learn.add_learn_measure(sub)
    simulate.add_main(sub, experiment=MAIN_EXPERIMENT)
    inspect.add_replay(sub)
    inspect.add_report(sub)
    perft.add_perft(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except CliError as e:
        print(f"hansa-lab {args.command}: error: {e}", file=sys.stderr)
        return 2
    except CliFailure as e:
        print(f"hansa-lab {args.command}: {e}", file=sys.stderr)
        return e.code


if __name__ == "__main__":
    sys.exit(main())
