"""What the ``hansa-lab`` commands share: argument types and blocks, the game configuration
and line-up read from the flags, and the errors and exit codes of a run."""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hansa_lab.engine.board import KNOWN_BOARDS
from hansa_lab.engine.rng import MAX_SEED
from hansa_lab.engine.state import EDITIONS, GameConfig

if TYPE_CHECKING:
    from typing import TypeAlias

    from hansa_lab.sim.results import Results

    #: What ``add_subparsers`` returns: each command module's ``add_*`` registers on it.
    Subcommands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


class CliError(Exception):
    """A bad command-line argument (the message names it); exit status 2."""


class CliFailure(Exception):
    """A run that failed or was interrupted (not a usage error)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def positive_int(name: str, maximum: int | None = None,
                 least: int = 1) -> Callable[[str], int]:
    """An integer flag from ``least`` (1 unless 0 is meaningful, as for ``--seed``) to
    ``maximum``; the message states the bound that is really checked."""
    def conv(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if v < least:
            raise argparse.ArgumentTypeError(f"{name} must be >= {least}, got {v}")
        if maximum is not None and v > maximum:
            raise argparse.ArgumentTypeError(f"{name} must be at most {maximum}, got {v}")
        return v

    return conv


def worker_count(text: str) -> int:
    """A ``--jobs`` value of ladder, lengths, tune and main (simulate and run leave it to
    the runner, which says the same): a number of worker processes, or negative for all
    cores but some (-1: all); 0 is refused (it used to mean 1 without a word)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs must be an integer, got {text!r}") from None
    if v == 0:
        raise argparse.ArgumentTypeError("--jobs: must be a non-zero integer (worker "
                                         "processes; negative: all cores but some, -1 = "
                                         "all), got 0")
    return v


#: Seeds are stored as 64-bit integers.
SEED = positive_int("--seed", MAX_SEED, least=0)
#: Player counts the rules know (2 = the neutral-colour variant).
PLAYERS = positive_int("--players", 5, least=2)


def add_board_args(p: argparse.ArgumentParser,
                   option_help: str = "rule option (repeatable; hansa-lab options lists "
                                      "them), e.g. control_points=3 or "
                                      "'bank_track=[3,5,7,\"all\"]'") -> None:
    """``--board``, ``--edition`` and the repeatable ``--option KEY=VALUE``."""
    p.add_argument("--board", default="base", help="base (default), or a side like base_3p")
    p.add_argument("--edition", default="bigbox", help="bonus-marker edition: bigbox|original")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help=option_help)


def add_game_args(p: argparse.ArgumentParser, players_default: int | None = None,
                  players_required: bool = True) -> None:
    """The game configuration: ``--players`` and the board arguments."""
    p.add_argument("--players", type=PLAYERS, default=players_default,
                   required=players_required and players_default is None,
                   help="number of players (2-5; 2 = neutral-colour variant)")
    add_board_args(p)


def add_deal_args(p: argparse.ArgumentParser, players_required: bool, seed_default: int | None,
                  seed_help: str | None, strategies_help: str) -> None:
    """One game to play from the flags (``play``, and ``replay`` without a results folder):
    its configuration, ``--seed`` and ``--strategies``."""
    add_game_args(p, players_required=players_required)
    p.add_argument("--seed", type=SEED, default=seed_default, help=seed_help)
    p.add_argument("--strategies", default=None, help=strategies_help)


def add_run_args(p: argparse.ArgumentParser) -> None:
    """Execution options shared by ``simulate``, ``run``, ``ladder`` and ``lengths``."""
    p.add_argument("--backend", choices=("loky", "dask"), default=None,
                   help="loky (joblib processes, default) or dask")
    p.add_argument("--dask-address", default=None,
                   help="dask scheduler, e.g. tcp://127.0.0.1:8786 (default: a local cluster)")
    p.add_argument("--force", action="store_true",
                   help="discard existing results in the output folder and rerun")
    p.add_argument("--fail-fast", action="store_true",
                   help="stop at the first failed game (default: record it and go on)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--decision-time-limit", type=float, default=None, metavar="SECONDS",
                   help="a strategy slower than this for one decision fails its game "
                        "(default 60)")
    p.add_argument("--engine", choices=("core", "python"), default=None,
                   help="rules engine: the compiled core (default; random, greedy and the "
                        "tips decide there) or the Python engine; the same games either way")
    p.add_argument("--yes", action="store_true",
                   help="start a run even when it cannot finish within a day")


def add_plan_args(p: argparse.ArgumentParser, precision_help: str) -> None:
    """``--precision POINTS`` and ``--plan`` of ``simulate`` and ``run``."""
    p.add_argument("--precision", type=float, default=None, metavar="POINTS",
                   help=precision_help)
    p.add_argument("--plan", action="store_true",
                   help="print the plan and stop: of --precision if given, else of --games "
                        "if given (the precision they reach), else of ±1 point")


def played(play: Callable[[], object]) -> object:
    """Play one game; a strategy that fails it is reported without a traceback (exit 1)."""
    from hansa_lab.errors import StrategyError

    try:
        return play()
    except StrategyError as e:
        raise CliFailure(f"the game failed: {e}", 1) from e


def rule_options(items: Sequence[str]) -> dict[str, object]:
    """``--option KEY=VALUE`` items as a dict (a value is JSON if it parses, else text)."""
    out: dict[str, object] = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key:
            raise CliError(f"--option: expected KEY=VALUE, got {item!r}")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out


def game_config(args: argparse.Namespace, seed: int = 0) -> GameConfig:
    """The configuration of :func:`add_game_args`' flags, checked (messages name the flag)."""
    if args.board not in KNOWN_BOARDS:
        raise CliError(f"--board: unknown board {args.board!r} "
                       f"(known boards: {', '.join(KNOWN_BOARDS)})")
    if args.edition not in EDITIONS:
        raise CliError(f"--edition: must be one of {', '.join(EDITIONS)}, got {args.edition!r}")
    try:
        config = GameConfig(n_players=args.players, board=args.board, edition=args.edition,
                            seed=seed)
    except ValueError as e:
        raise CliError(f"--players/--board: {e}") from e
    options = rule_options(getattr(args, "option", []))
    try:
        return config.replace(options=tuple(options.items()))
    except (ValueError, TypeError) as e:
        raise CliError(f"--option: {e}") from e


def lineup(text: str | None, n: int) -> list[str]:
    """``--strategies`` as one spec per seat (default: random everywhere)."""
    from hansa_lab.strategies.lineup import parse_lineup

    if text is not None and not text.strip(" ,"):  # as simulate: an empty list is refused
        raise CliError("--strategies: give at least one strategy")
    try:
        return parse_lineup(text or "random", n)
    except ValueError as e:
        raise CliError(f"--strategies: {e}") from e


def strategy_list(text: str | None) -> list[str] | None:
    """``--strategies`` of ladder and lengths: None when absent (the default list); an
    empty list is refused, as by simulate and play."""
    from hansa_lab.strategies.lineup import split_specs

    if text is None:
        return None
    specs = split_specs(text)
    if not specs:
        raise CliError("--strategies: give at least one strategy (or leave the flag out for "
                       "the default list)")
    return specs


def csv_values(text: str | None, flag: str, kind: type = str) -> list[Any] | None:
    """A comma-separated flag value as a list (None when the flag is absent)."""
    if text is None:
        return None
    items = [x.strip() for x in text.split(",") if x.strip()]
    try:
        values = [kind(x) for x in items]
    except ValueError as e:
        raise CliError(f"{flag}: expected a comma-separated list, got {text!r}") from e
    if not values:
        raise CliError(f"{flag}: give at least one value")
    return values


def jobs(value: int | None) -> int:
    """A --jobs value as a worker count (None: 1, negative: that many less than all cores,
    as joblib counts)."""
    if value is None:
        return 1
    if value < 0:
        from joblib import cpu_count

        return max(1, cpu_count() + 1 + value)
    return max(1, value)


#: Python parameter names of the runner → the options that set them.
FLAGS = {
    "strategies": "--strategies", "n_games": "--games", "games": "--games",
    "n_players": "--players", "board": "--board", "edition": "--edition", "seed": "--seed",
    "options": "--option", "n_jobs": "--jobs", "backend": "--backend",
    "dask_address": "--dask-address", "out": "--out", "name": "--name",
    "chunk_size": "--chunk-size", "log": "--log", "decision_time_limit": "--decision-time-limit",
    "selected_arms": "--arms", "selected_players": "--players",
    "deals": "--deals", "tables": "--tables", "limit": "--limit",
}


def flag_error(e: Exception) -> CliError:
    """An :class:`ExperimentError` from the runner, reworded with the option's name."""
    from hansa_lab.errors import ExperimentError

    if isinstance(e, ExperimentError) and not e.source:
        head = e.field.split(".")[0].split("[")[0]
        if head in FLAGS:
            rest = e.field[len(head):]
            rest = " " + rest[1:] if rest.startswith(".") else rest
            return CliError(f"{FLAGS[head]}{rest}: {e.message}")
    return CliError(str(e))


def stopped(e: KeyboardInterrupt) -> tuple[str, int]:
    """How a run was stopped (Ctrl-C, or SIGTERM as :class:`RunTerminated`) and the exit
    code that says so (128 + the signal)."""
    signum = getattr(e, "signum", signal.SIGINT)
    what = "interrupted" if signum == signal.SIGINT else \
        f"terminated ({signal.Signals(signum).name})"
    return what, 128 + signum


def run_guarded(run: Callable[[], object]) -> object:
    """Run a simulation, turning the runner's errors into CLI errors and exit codes."""
    from hansa_lab.errors import ExperimentError, SimulationFailed

    try:
        return run()
    except ExperimentError as e:
        raise flag_error(e) from e
    except SimulationFailed as e:
        raise CliFailure(str(e), 1) from e
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (RunTerminated)
        what, code = stopped(e)
        raise CliFailure(f"{what}; completed chunks are saved, run the same command again "
                         "to resume", code) from e
    except RuntimeError as e:  # e.g. another run is writing the same folder
        raise CliFailure(str(e), 1) from e


def execution(args: argparse.Namespace) -> dict[str, Any]:
    """The run options of :func:`add_run_args` that ladder and lengths pass on to the
    runner (they were accepted and ignored before)."""
    from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT

    return {"force": args.force, "fail_fast": args.fail_fast,
            "backend": args.backend or ("dask" if args.dask_address else "loky"),
            "dask_address": args.dask_address,
            "decision_time_limit": DEFAULT_DECISION_TIME_LIMIT
            if args.decision_time_limit is None else args.decision_time_limit}


def exit_status(res: Results) -> int:
    """0, or 1 (with a message) when every game of the run failed."""
    prog = res.manifest.get("progress", {})
    games, failures = prog.get("games_done", 0), prog.get("failures", 0)
    if games and failures >= games:
        print(f"hansa-lab: every one of the {games} games failed; see the failures table "
              "(results.failures)", file=sys.stderr)
        return 1
    return 0


def check_precision(points: float | None) -> None:
    """``--precision``: the half-width of the wanted interval, a positive number of points
    (0 used to mean ±1 without a word; -1 and nan failed with a traceback)."""
    if points is not None and not (math.isfinite(points) and points > 0):
        raise CliError(f"--precision: must be a positive number of points (the half-width "
                       f"of the 95% interval, e.g. 1), got {points}")


#: The longest a benchmark or check may be asked to run (``--seconds``): a day.
MAX_SECONDS = 24 * 3600.0


def check_seconds(seconds: float | None, flag: str = "--seconds") -> None:
    """``--seconds`` of the bench suites and of parity: positive, finite and at most a
    day (nan, inf and 2**70 seconds used to run on for ever; parity also took 0 and -1)."""
    if seconds is not None and not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise CliError(f"{flag} must be a positive number of seconds, at most "
                       f"{MAX_SECONDS:g} (a day), got {seconds}")


#: The fastest a game is played and logged, in seconds of one core: the compiled core with
#: random players (measured: 1,776 three-player games in 0.99 CPU s, ``hansa-lab bench
#: --engine core --players 3 --seconds 3``), so planned games x this / workers is a lower
#: bound of any run's duration (real strategies are slower, never faster).
FASTEST_GAME_SECONDS = 0.0005
#: A run whose lower bound exceeds this asks for --yes.
LONG_RUN_SECONDS = 24 * 3600


def check_duration(games: int | None, workers: int, yes: bool) -> None:
    """Refuse, without ``--yes``, a run that cannot finish in a day even at the fastest
    engine speed, saying how long it would take at least."""
    if not games or yes:
        return
    seconds = games * FASTEST_GAME_SECONDS / max(1, workers)
    if seconds <= LONG_RUN_SECONDS:
        return
    days = seconds / 86400
    size = f"{days / 365.25:,.0f} years" if days > 3 * 365.25 else f"{days:,.1f} days"
    raise CliError(f"--games: {games:,} games would take at least {size} with {workers} "
                   f"worker{'s' if workers != 1 else ''} (at the fastest measured speed, "
                   f"{1 / FASTEST_GAME_SECONDS:,.0f} games a second per core, random "
                   "players in the core); pass --yes to start it anyway")
