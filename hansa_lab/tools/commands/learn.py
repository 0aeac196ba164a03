"""Commands that improve strategies by self-play: parameter tuning (``tune``), a learned
position evaluation (``learn``) and one seat measured against line-ups
(``learn-measure``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hansa_lab.engine.board import board_family
from hansa_lab.engine.state import GameConfig
from hansa_lab.tools.commands.common import (
    SEED,
    CliError,
    CliFailure,
    add_game_args,
    check_duration,
    csv_values,
    game_config,
    jobs,
    positive_int,
    stopped,
    worker_count,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands

#: Settings fields of tune whose flag is not the field's name with dashes.
_TUNE_FLAGS = {"heldout_games": "--heldout-games", "bounds": "--bound", "sigma0": "--sigma0"}


def _bounds(items: Sequence[str]) -> tuple[tuple[str, float, float], ...]:
    """``--bound NAME=LOW:HIGH`` items as (name, low, high)."""
    out = []
    for item in items:
        key, eq, rest = item.partition("=")
        lo, colon, hi = rest.partition(":")
        try:
            if not (eq and colon and key):
                raise ValueError
            out.append((key.strip(), float(lo), float(hi)))
        except ValueError:
            raise CliError(f"--bound: expected NAME=LOW:HIGH, got {item!r}") from None
    return tuple(out)


def cmd_tune(args: argparse.Namespace) -> int:
    """Self-play tuning of a strategy's parameters (hansa_lab.studies.tune)."""
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.progress import progress_line
    from hansa_lab.studies.tune import TuneResult, TuneSettings, tune

    config = game_config(args)
    settings = TuneSettings(
        base=args.base, params=tuple(csv_values(args.params, "--params") or ()),
        bounds=_bounds(args.bound), players=config.n_players, board=config.board,
        edition=config.edition, options=config.options, opponents=args.opponents,
        fitness=args.fitness, population=args.population, sigma0=args.sigma0,
        games=args.games, seed=args.seed, generations=args.generations,
        heldout_games=args.heldout_games)
    base_name = args.base.partition(":")[0]
    name = args.name or f"{Path(base_name).stem}_{config.n_players}p_tuned"
    state = args.state or f"results/tune/{name}"
    command = "hansa-lab " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["tune"] else None

    def say(text: str) -> None:
        if not args.no_progress:
            progress_line(text)

    try:
        res = tune(settings, state, out=args.out, name=name, n_jobs=jobs(args.jobs),
                   progress=say, command=command, bar=not args.no_progress)
    except ExperimentError as e:
        flag = _TUNE_FLAGS.get(e.field, "--" + e.field.replace("_", "-"))
        raise CliError(f"{flag}: {e.message}") from e
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (RunTerminated)
        what, code = stopped(e)
        raise CliFailure(f"{what}; the finished generations are saved in {state} "
                         "(checkpoint.pkl): run the same command again to resume",
                         code) from e
    assert isinstance(res, TuneResult)
    if args.json:
        print(json.dumps(res.as_dict()))
    else:
        print(res.summary())
    return 0


def add_tune(sub: Subcommands) -> None:
    p = sub.add_parser("tune", help="tune a strategy's parameters by self-play (CMA-ES) "
                       "and write them as a strategy file")
    add_game_args(p, players_default=4)
    p.add_argument("--base", default="greedy",
                   help="the strategy to tune: a spec (greedy, greedy:depth=2) or a strategy "
                        "file (default greedy)")
    p.add_argument("--params", default=None, metavar="A,B",
                   help="parameters to tune (default: every float parameter but score and "
                        "explore: greedy's evaluation weights)")
    p.add_argument("--bound", action="append", default=[], metavar="NAME=LOW:HIGH",
                   help="search bounds of a parameter (repeatable; default: its declared "
                        "range, else [0, max(1, 3 x default)])")
    p.add_argument("--opponents", default="incumbent",
                   help="incumbent (self-play against the current mean, default) or a "
                        "line-up of the other seats, e.g. greedy")
    p.add_argument("--fitness", choices=("margin", "win"), default="margin",
                   help="margin: mean score minus the best opponent's (default); win: win "
                        "share")
    p.add_argument("--population", type=positive_int("--population", least=2), default=8,
                   help="candidates per generation (default 8)")
    p.add_argument("--generations", type=positive_int("--generations"), default=10,
                   help="generations (default 10; a larger value extends a finished run)")
    p.add_argument("--sigma0", type=float, default=0.2,
                   help="initial step, in units of each parameter's range (default 0.2)")
    p.add_argument("--games", type=positive_int("--games"), default=48,
                   help="games per candidate per generation, rounded up to whole seat "
                        "rotations (default 48)")
    p.add_argument("--heldout-games", type=positive_int("--heldout-games"), default=400,
                   help="games of the held-out check on new deals (default 400)")
    p.add_argument("--seed", type=SEED, default=0, help="run seed (deals, optimiser)")
    p.add_argument("--jobs", type=worker_count, default=1,
                   help="worker processes (-1: all cores)")
    p.add_argument("--state", default=None,
                   help="checkpoint folder (default results/tune/NAME); the same command "
                        "resumes from it")
    p.add_argument("--out", default=None, metavar="FILE.toml",
                   help="the strategy file to write (default STATE/NAME.toml)")
    p.add_argument("--name", default=None,
                   help="the tuned strategy's name (default BASE_<players>p_tuned)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar and no line per generation")
    p.set_defaults(func=cmd_tune)


def _learn_lineups(texts: Sequence[str], config: GameConfig) -> tuple[tuple[str, ...], ...]:
    """``--lineup`` values as line-ups of specs (one spec fills every seat), every spec
    checked to be a strategy that plays in the compiled core (as learning needs) before
    anything is played or written."""
    from hansa_lab.play.core_game import core_policy
    from hansa_lab.strategies import make_strategy
    from hansa_lab.strategies.lineup import split_specs

    out = []
    for text in texts:
        where = f"--lineup {text!r}" if len(texts) > 1 else "--lineup"
        specs = split_specs(text)
        if not specs:
            raise CliError(f"{where}: give at least one strategy")
        for i, spec in enumerate(specs):
            try:
                player = make_strategy(spec)
            except ValueError as e:
                raise CliError(f"{where}: strategy {i + 1} ({spec!r}): {e}") from None
            if core_policy(player, config) is None:
                raise CliError(f"{where}: strategy {i + 1} ({spec!r}) does not play in the "
                               "compiled core, where learn plays its games")
        out.append(tuple(specs * config.n_players if len(specs) == 1 else specs))
    return tuple(out)


def cmd_learn(args: argparse.Namespace) -> int:
    """Self-play data, a fitted model and its held-out figures (hansa_lab.studies.learn).
    Every argument and path is checked before the first game; the model file is checked
    before it is written."""
    from hansa_lab.errors import ExperimentError, ModelFileError, terminate_as_interrupt
    from hansa_lab.sim.paths import output_file, output_folder
    from hansa_lab.studies.learn import (
        MODEL_KINDS,
        LearnSettings,
        build_dataset,
        fit_model,
        write_model,
    )

    config = game_config(args)
    if not 0.0 < args.rate <= 1.0:  # nan too
        raise CliError(f"--rate: must be a share of decision points within (0, 1], got "
                       f"{args.rate}")
    if args.name is not None and (not args.name.strip() or "/" in args.name):
        raise CliError(f"--name: must be a model name (no '/'), got {args.name!r}")
    lineups = _learn_lineups(args.lineup or ["greedy"], config)
    try:
        settings = LearnSettings(
            lineups=lineups, n_players=config.n_players, board=config.board,
            edition=config.edition, options=config.options, games=args.games,
            seed=args.seed, rate=args.rate, chunk=args.chunk)
    except ValueError as e:
        raise CliError(f"--lineup: {e}") from e
    if args.games * len(lineups) < 5:  # fit_model's least, said before the games
        raise CliError(f"--games: {args.games} game(s) x {len(lineups)} line-up(s) are too "
                       "few: the fit needs at least 5 games to hold some out")
    check_duration(args.games * len(lineups), min(jobs(args.jobs), os.cpu_count() or 1),
                   args.yes)
    name = args.name or f"learned_{board_family(config.side)}{config.n_players}p"
    try:  # both paths checked before a game is played, the output before the fit
        data = output_folder(args.data or f"results/learn/{name}", "--data")
        out_path = output_file(args.out or f"{data}/{name}.json", "--out")
    except ExperimentError as e:
        raise CliError(str(e)) from e
    say = (lambda text: None) if args.no_progress else (
        lambda text: print(text, file=sys.stderr, flush=True))
    say(f"data set: {len(lineups)} line-up(s) x {args.games} games into {data}")
    try:
        with terminate_as_interrupt():  # SIGTERM ends it like Ctrl-C: the chunks kept
            ds = build_dataset(settings, data, jobs=jobs(args.jobs),
                               progress=not args.no_progress)
            say(f"fitting the model on {len(lineups) * args.games} games")
            report = fit_model(ds, args.seed, name,
                               kinds=MODEL_KINDS if args.kind == "best" else (args.kind,))
    except ExperimentError as e:
        raise CliError(f"--data: {e.message}") from e
    except ValueError as e:
        raise CliError(str(e)) from e
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (RunTerminated)
        what, code = stopped(e)
        raise CliFailure(f"{what}; the finished chunks are saved in {data}: run the same "
                         "command again to resume", code) from e
    # the command that reproduces the model, from the parsed arguments (not the
    # process's: main() may be called with its own argv)
    command = ["hansa-lab", "learn", "--players", str(config.n_players), "--board",
               config.board, "--edition", config.edition,
               *[x for o in args.option for x in ("--option", o)],
               *[x for lu in lineups for x in ("--lineup", ",".join(lu))],
               "--games", str(args.games), "--rate", str(args.rate), "--chunk",
               str(args.chunk), "--seed", str(args.seed), "--name", name,
               *(("--kind", args.kind) if args.kind != "best" else ())]
    try:
        out = write_model(report, settings, out_path, command=command)
    except ModelFileError as e:
        raise CliFailure(f"the fitted model is not written, no player could load it: {e}",
                         1) from e
    except (ExperimentError, OSError) as e:
        raise CliFailure(f"--out: cannot write the model file {out_path}: {e}; the data "
                         f"set in {data} is kept: run the command again to fit anew",
                         1) from e
    summary = {"model": str(out), "kind": report.kind, "strength": report.alpha,
               **report.split, "test": report.test}
    print(json.dumps(summary, indent=None if args.json else 1))
    return 0


def add_learn(sub: Subcommands) -> None:
    p = sub.add_parser("learn", help="learn a position evaluation from self-play and write "
                       "a model file for the learned player")
    add_game_args(p, players_default=4)
    p.add_argument("--lineup", action="append", default=[], metavar="A,B,...",
                   help="a self-play line-up, one strategy per seat or one for all seats "
                        "(repeatable; default greedy); seats rotate from game to game")
    p.add_argument("--games", type=positive_int("--games"), default=200,
                   help="games per line-up (default 200)")
    p.add_argument("--rate", type=float, default=0.05,
                   help="share of decision points sampled (default 0.05)")
    p.add_argument("--chunk", type=positive_int("--chunk"), default=20,
                   help="games per saved chunk (default 20)")
    p.add_argument("--seed", type=SEED, default=0, help="data seed (game seeds, split)")
    p.add_argument("--jobs", type=worker_count, default=1,
                   help="worker processes (-1: all cores; at most one per chunk to play)")
    p.add_argument("--data", default=None,
                   help="data folder (default results/learn/NAME); the same command resumes")
    p.add_argument("--out", default=None, metavar="FILE.json",
                   help="the model file to write (default DATA/NAME.json)")
    p.add_argument("--name", default=None, help="the model's name (default "
                   "learned_<board family><players>p, the name model=auto looks for)")
    p.add_argument("--kind", choices=("best", "logistic_win", "ridge_margin", "mlp_win"),
                   default="best",
                   help="the model kind: best (default: the better linear model on "
                        "validation games), or logistic_win (log-odds of the win, the kind "
                        "the learned players' blend weights were measured with), "
                        "ridge_margin, or mlp_win (logistic_win with a hidden layer of 32 "
                        "rectified units; about a minute more to fit)")
    p.add_argument("--json", action="store_true", help="print the summary on one line")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--yes", action="store_true",
                   help="start even when the games cannot be played within a day")
    p.set_defaults(func=cmd_learn)


def _one_strategy(text: str, flag: str) -> str:
    """The one strategy spec of ``flag``, checked (a bad one refused naming the flag)."""
    from hansa_lab.strategies import make_strategy
    from hansa_lab.strategies.lineup import split_specs

    specs = split_specs(text)
    if len(specs) != 1:
        raise CliError(f"{flag}: give one strategy, got {len(specs)} in {text!r}")
    try:
        make_strategy(specs[0])
    except ValueError as e:
        raise CliError(f"{flag}: {e}") from None
    return specs[0]


def cmd_learn_measure(args: argparse.Namespace) -> int:
    """One challenger seat against a line-up, seat-rotated, with its cost beside a
    reference table (hansa_lab.studies.learn.measure_seat). Every strategy (and model file)
    is checked before the first game."""
    from hansa_lab.errors import StrategyError, terminate_as_interrupt
    from hansa_lab.strategies.lineup import split_specs
    from hansa_lab.studies.learn import measure_seat

    config = game_config(args)
    challenger = _one_strategy(args.challenger, "--challenger")
    opponents = split_specs(args.against)
    if not opponents:
        raise CliError("--against: give at least one strategy (each plays every other "
                       "seat in its own games)")
    for i, spec in enumerate(opponents):
        _one_strategy(spec, f"--against (entry {i + 1}, {spec!r})")
    reference = _one_strategy(args.reference, "--reference") if args.reference.strip() \
        else ""
    games = len(opponents) * args.deals * (config.n_players + bool(reference))
    try:
        check_duration(games, 1, args.yes)
    except CliError as e:
        raise CliError(f"--deals: {args.deals:,} deals x {len(opponents)} opponent line-up(s):"
                       f"{str(e).partition(':')[2]}") from None
    done = 0
    try:
        with terminate_as_interrupt():
            for opponent in opponents:
                res = measure_seat(challenger, opponent, n_players=config.n_players,
                                   board=config.board, deals=args.deals, seed=args.seed,
                                   reference=reference, options=config.options)
                print(json.dumps(res.__dict__) if args.json else res.line(), flush=True)
                done += 1
    except StrategyError as e:
        raise CliFailure(f"a game failed: {e}", 1) from e
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (RunTerminated)
        what, code = stopped(e)
        raise CliFailure(f"{what}; {done} of {len(opponents)} opponent line-ups were "
                         "measured in full (printed above)", code) from e
    return 0


def add_learn_measure(sub: Subcommands) -> None:
    p = sub.add_parser("learn-measure", help="one challenger seat against each opponent "
                       "line-up, seat-rotated, with its cost beside a reference table")
    add_game_args(p, players_default=4)
    p.add_argument("--challenger", default="learned", help="the seat's strategy")
    p.add_argument("--against", default="greedy", metavar="A,B",
                   help="opponents, one strategy for all other seats per entry (default "
                        "greedy)")
    p.add_argument("--deals", type=positive_int("--deals"), default=25,
                   help="deals, each played in every seat rotation (default 25)")
    p.add_argument("--seed", type=SEED, default=5_000_000,
                   help="first deal's seed (default 5000000: never used by learn's data)")
    p.add_argument("--reference", default="greedy",
                   help="strategy of the reference table for the cost ratio ('' for none)")
    p.add_argument("--json", action="store_true", help="one JSON line per opponent")
    p.add_argument("--yes", action="store_true",
                   help="start even when the games cannot be played within a day")
    p.set_defaults(func=cmd_learn_measure)
