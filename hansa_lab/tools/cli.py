"""The ``hansa-lab`` command line: the parser and the dispatch to the commands of
:mod:`hansa_lab.tools.commands` (one module per job), inside the error boundary of
:mod:`hansa_lab.tools.boundary`.

Only the boundary is imported at the top: the commands (and with them the engine and
pandas) load inside :func:`main`, so that a Ctrl-C or SIGTERM during start-up, a bad
argument or a closed output ends as anywhere else (one line, the documented exit status).
The names re-exported from the commands load on first use.
"""

from __future__ import annotations

import sys

from hansa_lab.tools.boundary import Outcome, run_command

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any, NoReturn

    from hansa_lab.tools.commands.common import (
        FASTEST_GAME_SECONDS,
        LONG_RUN_SECONDS,
        CliError,
        CliFailure,
    )
    from hansa_lab.tools.commands.simulate import (
        MAIN_CHUNK_SIZE,
        MAIN_EXPERIMENT,
        MAIN_GAMES,
        MAIN_OUT,
    )

__all__ = ["FASTEST_GAME_SECONDS", "LONG_RUN_SECONDS", "MAIN_CHUNK_SIZE", "MAIN_EXPERIMENT",
           "MAIN_GAMES", "MAIN_OUT", "CliError", "CliFailure", "build_parser", "main"]

#: Names of the commands re-exported here, loaded on first use (PEP 562). MAIN_EXPERIMENT,
#: the experiment file of ``hansa-lab main`` (experiments/NAME), is read when the parser is
#: built, so a test or a caller may set it here to point the main job at another file.
_REEXPORTED = {
    "FASTEST_GAME_SECONDS": "hansa_lab.tools.commands.common",
    "LONG_RUN_SECONDS": "hansa_lab.tools.commands.common",
    "CliError": "hansa_lab.tools.commands.common",
    "CliFailure": "hansa_lab.tools.commands.common",
    "MAIN_CHUNK_SIZE": "hansa_lab.tools.commands.simulate",
    "MAIN_EXPERIMENT": "hansa_lab.tools.commands.simulate",
    "MAIN_GAMES": "hansa_lab.tools.commands.simulate",
    "MAIN_OUT": "hansa_lab.tools.commands.simulate",
}


def __getattr__(name: str) -> Any:
    module = _REEXPORTED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def _version() -> str:
    """The installed package's version (written once, in core/Cargo.toml)."""
    from hansa_lab.version import __version__

    return __version__


def _parser_class() -> type[argparse.ArgumentParser]:
    import argparse

    class OneLineParser(argparse.ArgumentParser):
        """argparse, with a usage error in one line that names the argument (the usage
        is one ``--help`` away) instead of the usage block."""

        def error(self, message: str) -> NoReturn:
            self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    return OneLineParser


def build_parser() -> argparse.ArgumentParser:
    from hansa_lab.tools import perft
    from hansa_lab.tools.commands import inspect, learn, measure, populations, simulate, survey
    from hansa_lab.tools.commands.audit import add_audit
    from hansa_lab.tools.commands.compare import add_compare
    from hansa_lab.tools.commands.skill import add_skill_ladder

    parser = _parser_class()(prog="hansa-lab", description="Hansa Teutonica lab")
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
    add_skill_ladder(sub)
    add_audit(sub)
    add_compare(sub)  # which rule variant is most balanced
    simulate.add_simulate(sub)
    simulate.add_run(sub)
    learn.add_tune(sub)
    learn.add_learn(sub)
    learn.add_learn_measure(sub)
    simulate.add_main(sub, experiment=globals().get("MAIN_EXPERIMENT",
                                                    simulate.MAIN_EXPERIMENT))
    inspect.add_replay(sub)
    inspect.add_report(sub)
    perft.add_perft(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hansa-lab ARGV`` (default: the process's arguments); its exit status."""

    def start(outcome: Outcome) -> int:
        outcome.parser = parser = build_parser()
        args = parser.parse_args(argv)
        outcome.command, outcome.args = args.command, args
        code: int = args.func(args)
        return code

    return run_command(start)


if __name__ == "__main__":
    sys.exit(main())
