"""Commands that measure the lab itself: the benchmarks (``bench``) and the step-by-step
comparison of the two engines (``parity``)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from hansa_lab.tools.commands.common import (
    SEED,
    CliError,
    add_game_args,
    check_seconds,
    game_config,
    positive_int,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands

#: Threads of the vector environment the core takes (its MAX_THREADS), checked as the flag
#: is read (it used to reach the core and fail there with a traceback).
MAX_THREADS = 256

BENCH_LEGEND = """\
what the figures mean (random players; in the runner suite every time is the best of three
runs, order rotated, so a pause of the shared machine does not count):
  engine suite   actions_per_s, games_per_s: the rules engine with the random policy,
                 legal-action generation included; state_pickle_bytes_max: state size;
                 in the compiled core (default), --engine python: the Python engine,
                 --engine both: both and core_vs_python
  runner suite   logging / logging_by_players: play_game (engine only) vs record_game
                   (played with the recorder, rows and columns built) on the same games;
                   logged_ratio = logged time / engine time (> 1: slower),
                   logged_throughput_cost = 1 - engine time / logged time (share of
                   engine games/s that logging costs; games = games timed)
                 end_to_end: simulate() with full and summary logs, one chunk written as
                   parquet, vs play_game on the same games (same ratio and cost names)
                 parallel: simulate() wall time with n_jobs=1 and 2 and its speed-up,
                   next to a pure-CPU loop's speed-up on this machine (cpu_loop_*);
                   runner_vs_machine = runner speed-up / loop speed-up (1 = as good as
                   the machine allows)
                 logs_per_1000_games: rows, memory (pandas, deep) and parquet bytes per
                   table, scaled to 1,000 games
                 --engine core (default) or python: the engine every game is played in
  strategies     per strategy, every seat playing it (4 players unless --players):
  suite            python_s_per_game, core_s_per_game and core_vs_python (their ratio)
                   on the same seeds, the engines alternating game by game
"""


def _print_figures(out: dict[str, Any], as_json: bool, width: int) -> None:
    """A benchmark's or check's figures: one JSON line, or one aligned line per figure."""
    if as_json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>{width}}: {v}")


def cmd_bench(args: argparse.Namespace) -> int:
    from hansa_lab.play import DEFAULT_ENGINE
    from hansa_lab.tools.bench import bench_engines, bench_runner, bench_strategies

    config = game_config(args)
    check_seconds(args.seconds)
    if args.suite == "runner":
        args.games = 96 if args.games is None else args.games
        if args.games < config.n_players:
            raise CliError(f"--games must be at least the player count, got {args.games}")
        if args.engine == "both":
            raise CliError("--engine: the runner suite runs one engine (core or python)")
        out = bench_runner(config.n_players, args.games, args.board, args.edition,
                           engine=args.engine or DEFAULT_ENGINE)
    elif args.suite == "strategies":
        out = bench_strategies(config.n_players, args.games or 3, args.board, args.edition)
    elif args.suite == "env":
        from hansa_lab.compiled.bridge import core_max_envs
        from hansa_lab.tools.bench import bench_env

        top = core_max_envs()
        if args.envs > top:
            raise CliError(f"--envs must be at most {top}, got {args.envs}")
        out = bench_env(config.n_players, args.seconds, args.board, args.edition,
                        n_envs=args.envs, threads=args.threads, rounds=args.rounds)
    else:
        out = bench_engines(args.engine or DEFAULT_ENGINE, config.n_players, args.seconds,
                            args.board, args.edition)
    _print_figures(out, args.json, 24)
    return 0


def add_bench(sub: Subcommands) -> None:
    p = sub.add_parser(
        "bench", help="benchmarks: engine throughput, or the runner suite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=BENCH_LEGEND)
    add_game_args(p, players_default=3)
    p.add_argument("--suite", choices=("engine", "runner", "strategies", "env"),
                   default="engine",
                   help="engine: games/s of the rules engine (default); runner: logging "
                        "overhead, parallel speed-up, log sizes; strategies: seconds per "
                        "game of each core strategy in both engines; env: steps/s of the "
                        "vector and AEC environments beside the core's random games")
    p.add_argument("--threads", type=positive_int("--threads", MAX_THREADS), default=2,
                   help="env suite: threads of the vector environment (default 2; "
                        "above 1 the 1-thread rate is measured beside it)")
    p.add_argument("--envs", type=positive_int("--envs"), default=128,
                   help="env suite: games per vector environment call (default 128)")
    p.add_argument("--rounds", type=positive_int("--rounds"), default=3,
                   help="env suite: rounds the phases take turns for; figures are the "
                        "medians of the rounds (default 3)")
    p.add_argument("--seconds", type=float, default=10.0,
                   help="engine and env suites: duration")
    p.add_argument("--engine", choices=("python", "core", "both"), default=None,
                   help="engine suite: the compiled core (default, as everywhere else), "
                        "the Python engine, or both in one run with their ratio; runner "
                        "suite: core (default) or python")
    p.add_argument("--games", type=positive_int("--games"), default=None,
                   help="runner suite: games per parallel run (default 96); strategies "
                        "suite: games per strategy and engine (default 3)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)


def cmd_parity(args: argparse.Namespace) -> int:
    from hansa_lab.tools.parity import run_parity

    check_seconds(args.seconds)
    out = run_parity(args.games, args.seed, seconds=args.seconds)
    _print_figures(out, args.json, 18)
    return 1 if out["mismatches"] else 0


def add_parity(sub: Subcommands) -> None:
    p = sub.add_parser("parity", help="step random games in the Python engine and the "
                       "compiled core and compare every step")
    p.add_argument("--games", type=positive_int("--games"), default=100)
    p.add_argument("--seed", type=SEED, default=0, help="first seed")
    p.add_argument("--seconds", type=float, default=None,
                   help="stop after this long")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_parity)
