"""The ``hansa-lab`` command line."""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hansa_lab.engine.board import KNOWN_BOARDS
from hansa_lab.engine.state import EDITIONS, GameConfig

if TYPE_CHECKING:
    from hansa_lab.sim.results import Results


class CliError(Exception):
    """A bad command-line argument (the message names it); exit status 2."""


class CliFailure(Exception):
    """A run that failed or was interrupted (not a usage error)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _positive_int(name: str, maximum: int | None = None,
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


def _worker_count(text: str) -> int:
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
_SEED = _positive_int("--seed", 2**63 - 1, least=0)
#: Player counts the rules know (2 = the neutral-colour variant).
_PLAYERS = _positive_int("--players", 5, least=2)


def _played(play: Callable[[], object]) -> object:
    """Play one game; a strategy that fails it is reported without a traceback (exit 1)."""
    from hansa_lab.errors import StrategyError

    try:
        return play()
    except StrategyError as e:
        raise CliFailure(f"the game failed: {e}", 1) from e


def _add_game_args(p: argparse.ArgumentParser, players_default: int | None = None,
                   players_required: bool = True) -> None:
    p.add_argument("--players", type=_PLAYERS, default=players_default,
                   required=players_required and players_default is None,
                   help="number of players (2-5; 2 = neutral-colour variant)")
    p.add_argument("--board", default="base", help="base (default), or a side like base_3p")
    p.add_argument("--edition", default="bigbox", help="bonus-marker edition: bigbox|original")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="rule option (repeatable; hansa-lab options lists them), e.g. "
                        "control_points=3 or 'bank_track=[3,5,7,\"all\"]'")


def _config(args: argparse.Namespace, seed: int = 0) -> GameConfig:
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
    options = _rule_options(getattr(args, "option", []))
    try:
        return config.replace(options=tuple(options.items()))
    except (ValueError, TypeError) as e:
        raise CliError(f"--option: {e}") from e


def _lineup(text: str | None, n: int) -> list[str]:
    """``--strategies`` as one spec per seat (default: random everywhere)."""
    from hansa_lab.strategies.lineup import parse_lineup

    if text is not None and not text.strip(" ,"):  # as simulate: an empty list is refused
        raise CliError("--strategies: give at least one strategy")
    try:
        return parse_lineup(text or "random", n)
    except ValueError as e:
        raise CliError(f"--strategies: {e}") from e


def cmd_play(args: argparse.Namespace) -> int:
    from hansa_lab import core
    from hansa_lab.play import GameRecord, play_game

    config = _config(args, args.seed)
    strategies = _lineup(args.strategies, config.n_players)
    play = core.play_game if args.engine == "core" else play_game
    rec = _played(lambda: play(config, strategies, check=args.check))
    assert isinstance(rec, GameRecord)
    result = rec.result()
    if args.actions:
        result["actions"] = rec.action_texts()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"{result['board']} {config.n_players}p seed {config.seed}: "
              f"{result['end_reason']} after {result['n_actions']} actions, "
              f"{result['n_turns']} turns")
        for pl in result["players"]:
            parts = " ".join(f"{k}={v}" for k, v in pl["breakdown"].items())
            print(f"  seat {pl['seat']} {pl['strategy']:<12} rank {pl['rank']} "
                  f"total {pl['total']:>3}  ({parts})")
    return 0


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


def cmd_bench(args: argparse.Namespace) -> int:
    from hansa_lab.tools.bench import bench_engines, bench_runner, bench_strategies

    config = _config(args)
    if args.suite == "runner":
        args.games = 96 if args.games is None else args.games
        if args.games < config.n_players:
            raise CliError(f"--games must be at least the player count, got {args.games}")
        if args.engine == "both":
            raise CliError("--engine: the runner suite runs one engine (core or python)")
        out = bench_runner(config.n_players, args.games, args.board, args.edition,
                           engine=args.engine or "core")
    elif args.suite == "strategies":
        out = bench_strategies(config.n_players, args.games or 3, args.board, args.edition)
    elif args.suite == "env":
        from hansa_lab.tools.bench import bench_env

        if not (math.isfinite(args.seconds) and args.seconds > 0):
            raise CliError(f"--seconds must be a positive number of seconds, got {args.seconds}")
        out = bench_env(config.n_players, args.seconds, args.board, args.edition,
                        threads=args.threads)
    else:
        if not (math.isfinite(args.seconds) and args.seconds > 0):
            raise CliError(f"--seconds must be a positive number of seconds, got {args.seconds}")
        out = bench_engines(args.engine or "core", config.n_players, args.seconds,
                            args.board, args.edition)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    return 0


def cmd_options(args: argparse.Namespace) -> int:
    from hansa_lab.engine.options import options_markdown, options_text

    sys.stdout.write(options_markdown() if args.markdown else options_text())
    return 0


def cmd_parity(args: argparse.Namespace) -> int:
    from hansa_lab.tools.parity import run_parity

    out = run_parity(args.games, args.seed, seconds=args.seconds)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>18}: {v}")
    return 1 if out["mismatches"] else 0


#: The README's main job: the strategy-tips experiment at a quick size.
MAIN_EXPERIMENT = "strategy_tips.toml"
#: 150 deals per arm: 95% intervals within ±1 point on each tip's paired score effect
#: (measured: ±0.5 to ±1.05 with 140 deals), about two minutes on 2 cores in the core
MAIN_GAMES = 600
MAIN_CHUNK_SIZE = 40
MAIN_OUT = "results/strategy_tips_quick"

#: Python parameter names of the runner → the options that set them.
_FLAGS = {
    "strategies": "--strategies", "n_games": "--games", "games": "--games",
    "n_players": "--players", "board": "--board", "edition": "--edition", "seed": "--seed",
    "options": "--option", "n_jobs": "--jobs", "backend": "--backend",
    "dask_address": "--dask-address", "out": "--out", "name": "--name",
    "chunk_size": "--chunk-size", "log": "--log", "decision_time_limit": "--decision-time-limit",
    "selected_arms": "--arms", "selected_players": "--players",
    "deals": "--deals", "tables": "--tables", "limit": "--limit",
}


def _flag_error(e: Exception) -> CliError:
    """An :class:`ExperimentError` from the runner, reworded with the option's name."""
    from hansa_lab.errors import ExperimentError

    if isinstance(e, ExperimentError) and not e.source:
        head = e.field.split(".")[0].split("[")[0]
        if head in _FLAGS:
            rest = e.field[len(head):]
            rest = " " + rest[1:] if rest.startswith(".") else rest
            return CliError(f"{_FLAGS[head]}{rest}: {e.message}")
    return CliError(str(e))


def _rule_options(items: Sequence[str]) -> dict[str, object]:
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


def _run_guarded(run: Callable[[], object]) -> object:
    """Run a simulation, turning the runner's errors into CLI errors and exit codes."""
    from hansa_lab.errors import ExperimentError, SimulationFailed

    try:
        return run()
    except ExperimentError as e:
        raise _flag_error(e) from e
    except SimulationFailed as e:
        raise CliFailure(str(e), 1) from e
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (RunTerminated)
        signum = getattr(e, "signum", signal.SIGINT)
        what = "interrupted" if signum == signal.SIGINT else \
            f"terminated ({signal.Signals(signum).name})"
        raise CliFailure(f"{what}; completed chunks are saved, run the same command again "
                         "to resume", 128 + signum) from e
    except RuntimeError as e:  # e.g. another run is writing the same folder
        raise CliFailure(str(e), 1) from e


def cmd_simulate(args: argparse.Namespace) -> int:
    from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT
    from hansa_lab.sim.runner import Results, simulate
    from hansa_lab.strategies.lineup import split_specs

    strategies = split_specs(args.strategies or "")
    if not strategies:
        raise CliError("--strategies: give at least one strategy")
    options = _rule_options(args.option)
    games = args.games
    _check_precision(args.precision)
    if args.precision is not None or args.plan:
        from hansa_lab.sim.experiment import normalize_experiment
        from hansa_lab.sim.planning import plan_experiment

        try:
            exp = normalize_experiment({
                "games": games or 1, "players": args.players, "board": args.board,
                "edition": args.edition, "options": options, "seed": args.seed,
                "arms": {"main": strategies}}, default_name="simulate")
        except Exception as e:
            raise _flag_error(e) from e
        plan = plan_experiment(exp, args.precision or 1.0, n_jobs=_jobs(args.jobs),
                               engine=args.engine or "core",
                               games=games if args.precision is None else None)
        print(f"plan: {plan}", flush=True)
        if args.plan:
            return 0
        games = plan.games
    elif games is None:
        raise CliError("--games: give the number of games (or --precision POINTS to plan it)")
    _check_duration(games, _jobs(args.jobs), args.yes)
    res = _run_guarded(lambda: simulate(
        strategies, n_games=games, n_players=args.players, board=args.board,
        edition=args.edition, options=options, seed=args.seed, n_jobs=args.jobs,
        backend=args.backend or ("dask" if args.dask_address else "loky"),
        dask_address=args.dask_address, out=args.out,
        name=args.name,
        chunk_size=args.chunk_size, progress=not args.no_progress, fail_fast=args.fail_fast,
        force=args.force, log=args.log,
        decision_time_limit=DEFAULT_DECISION_TIME_LIMIT if args.decision_time_limit is None
        else args.decision_time_limit, engine=args.engine or "core",
    ))
    assert isinstance(res, Results)
    print(res.report())
    return _exit_status(res)


def _exit_status(res: Results) -> int:
    """0, or 1 (with a message) when every game of the run failed."""
    prog = res.manifest.get("progress", {})
    games, failures = prog.get("games_done", 0), prog.get("failures", 0)
    if games and failures >= games:
        print(f"hansa-lab: every one of the {games} games failed; see the failures table "
              "(results.failures)", file=sys.stderr)
        return 1
    return 0


def _csv(text: str | None, flag: str, kind: type = str) -> list[Any] | None:
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


def cmd_run(args: argparse.Namespace) -> int:
    from hansa_lab.sim.runner import Results, run_experiment

    arms = _csv(args.arms, "--arms")
    players = _csv(args.players, "--players", int)
    games = args.games
    _check_precision(args.precision)
    if args.until_decided or args.precision is not None or args.plan:
        from hansa_lab.sim.experiment import load_experiment, normalize_experiment

        try:
            raw = load_experiment(args.experiment)
            if games is not None:
                raw["games"] = games
            exp = normalize_experiment(raw, source=args.experiment,
                                       default_name=Path(args.experiment).stem)
            exp = exp.select(arms, players)
        except Exception as e:
            raise _flag_error(e) from e
        jobs = _jobs(args.jobs)
        if args.until_decided:
            return _decide(exp, args, jobs)
        from hansa_lab.sim.planning import plan_experiment

        plan = plan_experiment(exp, args.precision or 1.0, n_jobs=jobs,
                               engine=args.engine or raw.get("engine", "core"),
                               games=games if args.precision is None else None)
        print(f"plan: {plan}", flush=True)
        if args.plan:
            return 0
        games = plan.games
    _check_duration(_planned_games(args.experiment, games, arms, players),
                    _jobs(args.jobs), args.yes)
    res = _run_guarded(lambda: run_experiment(
        args.experiment, games=games, chunk_size=args.chunk_size, n_jobs=args.jobs,
        backend=args.backend or ("dask" if args.dask_address else None),
        dask_address=args.dask_address, out=args.out, force=args.force,
        progress=not args.no_progress, fail_fast=args.fail_fast,
        decision_time_limit=args.decision_time_limit, arms=arms, players=players,
        engine=args.engine,
    ))
    assert isinstance(res, Results)
    print(res.report())
    return _exit_status(res)


def _check_precision(points: float | None) -> None:
    """``--precision``: the half-width of the wanted interval, a positive number of points
    (0 used to mean ±1 without a word; -1 and nan failed with a traceback)."""
    if points is not None and not (math.isfinite(points) and points > 0):
        raise CliError(f"--precision: must be a positive number of points (the half-width "
                       f"of the 95% interval, e.g. 1), got {points}")


#: The fastest a game is played and logged, in seconds of one core: the compiled core with
#: random players (measured: 1,776 three-player games in 0.99 CPU s, ``hansa-lab bench
#: --engine core --players 3 --seconds 3``), so planned games x this / workers is a lower
#: bound of any run's duration (real strategies are slower, never faster).
FASTEST_GAME_SECONDS = 0.0005
#: A run whose lower bound exceeds this asks for --yes.
LONG_RUN_SECONDS = 24 * 3600


def _check_duration(games: int | None, workers: int, yes: bool) -> None:
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


def _planned_games(experiment: str, games: int | None, arms: list[Any] | None,
                   players: list[Any] | None) -> int | None:
    """The games an experiment file plans (None when it does not load: the run then
    reports the file's error itself)."""
    from hansa_lab.sim.experiment import Design, load_experiment, normalize_experiment

    try:
        raw = load_experiment(experiment)
        if games is not None:
            raw["games"] = games
        exp = normalize_experiment(raw, source=experiment,
                                   default_name=Path(experiment).stem)
        if arms is not None or players is not None:
            exp = exp.select(arms, players)
        return Design(exp).n_games
    except Exception:
        return None


def _jobs(value: int | None) -> int:
    """A --jobs value as a worker count (None: 1, negative: that many less than all cores,
    as joblib counts)."""
    if value is None:
        return 1
    if value < 0:
        from joblib import cpu_count

        return max(1, cpu_count() + 1 + value)
    return max(1, value)


def _decide(exp: Any, args: argparse.Namespace, jobs: int) -> int:
    """``run --until-decided``: the group-sequential test per arm (see sim/planning.py)."""
    from hansa_lab.sim.planning import decide_arms

    if args.effect is None or not args.effect > 0:
        raise CliError("--effect: --until-decided needs the smallest difference that matters, "
                       "in points (e.g. --effect 1)")

    def look(arm: str, row: dict[str, Any]) -> None:
        print(f"  {arm}: {row['n']} deals ({row['t']:.0%} of the maximum): mean difference "
              f"{row['mean']:+.2f} points, repeated 95% interval [{row['lo']:+.2f}, "
              f"{row['hi']:+.2f}]", flush=True)

    try:
        results = decide_arms(exp, args.effect, max_deals=args.max_deals,
                              batch_deals=args.batch_deals, n_jobs=jobs, on_look=look,
                              engine=args.engine or "core")
    except ValueError as e:
        raise CliError(f"--until-decided: {e}") from e
    base = exp.comparison_base
    print(f"\nDecided (smallest difference that matters: {args.effect:g} points; "
          f"each arm against {base}):")
    for arm, res in results.items():
        text = str(res).replace("A better", f"{arm} better").replace("B better", f"{base} better")
        print(f"  {arm}: {text}")
    return 0


def _find_experiment(name: str) -> Path:
    """``experiments/<name>`` in the working directory, else next to the package."""
    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):  # hansa_lab/tools/
        path = root / "experiments" / name
        if path.exists():
            return path
    raise CliError(f"experiments/{name} not found (run from the project folder)")


def cmd_main(args: argparse.Namespace) -> int:
    """The README's main job: the strategy-tips experiment at a quick size (always rerun),
    with a progress bar, then win rates and scores with 95% intervals per arm."""
    from hansa_lab.sim.runner import Results, run_experiment

    path = _find_experiment(MAIN_EXPERIMENT)
    from joblib import cpu_count

    jobs = (f"all {cpu_count()} cores" if args.jobs == -1 else
            f"{args.jobs} worker process{'es' if args.jobs != 1 else ''}")
    print(f"hansa-lab main: {path.name} at a quick size, {args.games} games per arm "
          f"(rounded up to whole seat rotations), paired seeds, {jobs} → {args.out}",
          flush=True)
    res = _run_guarded(lambda: run_experiment(
        path, games=args.games, chunk_size=MAIN_CHUNK_SIZE, n_jobs=args.jobs, out=args.out,
        force=True, progress=not args.no_progress,
    ))
    assert isinstance(res, Results)
    print(res.report())
    from hansa_lab.viz.report import write_report

    report = write_report(res, Path(args.out) / "report.html")
    print(f"\nThe report (tables, verdicts, figures; opens offline): {report}\n"
          "Next: make lab (JupyterLab on notebooks/; 05_inspect_a_game.ipynb opens a game "
          f"in the viewer), or hansa-lab replay {args.out} --game 0")
    return 0


def _add_run_args(p: argparse.ArgumentParser) -> None:
    """Execution options shared by ``simulate`` and ``run``."""
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


def _replay_of_results(args: argparse.Namespace) -> tuple[Any, Path, str]:
    """``replay RESULTS --game ID``: the timeline of a logged game (replayed from its
    configuration, seed and line-up), the HTML file to write and a title."""
    from hansa_lab.sim.results import open_results
    from hansa_lab.viz.timeline import Timeline
    from hansa_lab.viz.viewer import record_from_results

    if args.game is None:
        raise CliError("--game: give the id of the game to replay (the game_id column of "
                       "the run's games table)")
    for flag, value in (("--players", args.players), ("--seed", args.seed),
                        ("--strategies", args.strategies)):
        if value is not None:
            raise CliError(f"{flag}: a game of a results folder is replayed from its own "
                           "configuration; leave it out")
    try:
        res = open_results(args.results)
    except FileNotFoundError as e:
        raise CliError(f"RESULTS: {e}") from e
    try:
        found = _played(lambda: record_from_results(
            res, args.game, arm=args.arm, experiment=args.experiment))
    except KeyError as e:
        raise CliError(f"--game: {e.args[0]} in {args.results}") from e
    assert isinstance(found, tuple)
    record, title = found
    html = Path(args.html) if args.html else Path(args.results) / f"replay_game{args.game}.html"
    return Timeline.from_record(record), html, args.title or title


def cmd_replay(args: argparse.Namespace) -> int:
    """Write the replay of one game as one self-contained, offline HTML file: a game of a
    results folder (``RESULTS --game ID``) or one played from ``--players``/``--seed``."""
    from hansa_lab.viz.export import export_replay
    from hansa_lab.viz.timeline import Timeline

    if args.results is not None:
        timeline, html, title = _replay_of_results(args)
        config = timeline.config
    else:
        if args.game is not None or args.arm is not None or args.experiment is not None:
            raise CliError("--game/--arm/--experiment: give the results folder first "
                           "(hansa-lab replay RESULTS --game ID)")
        if args.players is None:
            raise CliError("--players: give the player count (or a results folder and "
                           "--game ID)")
        if args.html is None:
            raise CliError("--html: give the file to write")
        config = _config(args, args.seed or 0)
        lineup = _lineup(args.strategies, config.n_players)
        played = _played(lambda: Timeline.from_seed(config, lineup))
        assert isinstance(played, Timeline)
        timeline, html, title = played, Path(args.html), args.title
    html = Path(html)
    if html.is_dir():
        raise CliError(f"--html: {html} is a directory; give the file to write")
    blocking = next((p for p in html.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise CliError(f"--html: cannot write {html}: {blocking} is a file")
    try:
        out = export_replay(html, timeline, title=title)
    except OSError as e:
        raise CliError(f"--html: cannot write {html}: {e.strerror or e}") from None
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB): {config.side} "
          f"{config.n_players}p seed {config.seed}, {len(timeline.actions)} actions, "
          f"ended by {timeline.final.end_reason or 'cap'}")
    return 0


def _execution(args: argparse.Namespace) -> dict[str, Any]:
    """The run options of ``_add_run_args`` that ladder and lengths pass on to the runner
    (they were accepted and ignored before)."""
    from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT

    return {"force": args.force, "fail_fast": args.fail_fast,
            "backend": args.backend or ("dask" if args.dask_address else "loky"),
            "dask_address": args.dask_address,
            "decision_time_limit": DEFAULT_DECISION_TIME_LIMIT
            if args.decision_time_limit is None else args.decision_time_limit}


def _strategy_list(text: str | None) -> list[str] | None:
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


def cmd_lengths(args: argparse.Namespace) -> int:
    """Game lengths of line-ups on every board side and player count."""
    from hansa_lab.sim.lengths import Lengths, run_lengths

    lineups = _strategy_list(args.strategies)
    lengths = _run_guarded(lambda: run_lengths(
        lineups, games=args.games, limit=args.limit, seed=args.seed, n_jobs=args.jobs,
        out=args.out, progress=not args.no_progress, engine=args.engine or "core",
        **_execution(args)))
    assert isinstance(lengths, Lengths)
    print(f"{lengths.command}\n")
    print(lengths.text())
    worst = lengths.worst()
    if worst.empty:
        print(f"\nno game lasted more than {args.limit} rounds")
    else:
        print(f"\n{int(worst.over_limit.sum())} games lasted more than {args.limit} rounds, "
              f"in {len(worst)} of {len(lengths.table)} rows")
    print(f"lengths.csv, lengths.md and the results in {args.out}")
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    """Every combination of the strategies at a table, seat-rotated, rated."""
    from hansa_lab.sim.ladder import LADDER_STRATEGIES, Ladder, run_ladder

    strategies = _strategy_list(args.strategies) or list(LADDER_STRATEGIES)
    ladder = _run_guarded(lambda: run_ladder(
        strategies, n_players=args.players, deals=args.deals, tables=args.tables,
        board=args.board,
        edition=args.edition, seed=args.seed, n_jobs=args.jobs, out=args.out,
        progress=not args.no_progress, engine=args.engine or "core", **_execution(args)))
    assert isinstance(ladder, Ladder)
    print(f"{ladder.command}\n")
    print(ladder.table())
    print(f"\nratings, results and ladder.png in {args.out}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Write a run's report (tables, verdicts, figures, methods) as one offline HTML page."""
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.paths import output_file, user_path
    from hansa_lab.sim.results import open_results
    from hansa_lab.viz.report import write_report

    try:
        folder = user_path(args.results, "RESULTS")
    except ExperimentError as e:
        raise CliError(str(e)) from e
    try:
        res = open_results(folder)
    except (FileNotFoundError, ExperimentError) as e:  # no manifest; unreadable or edited
        raise CliError(f"RESULTS: {e}") from e
    try:
        target = output_file(args.html if args.html else folder / "report.html", "--html")
    except ExperimentError as e:
        raise CliError(str(e)) from e
    try:
        out = write_report(res, target, title=args.title)
    except OSError as e:
        raise CliError(f"--html: cannot write {target}: {e}") from e
    print(res.report())
    print(f"\nwrote {out}")
    return 0


_TUNE_FLAGS = {"heldout_games": "--heldout-games", "bounds": "--bound", "sigma0": "--sigma0"}


def _bounds(items: Sequence[str]) -> tuple[tuple[str, float, float], ...]:
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
    """Self-play tuning of a strategy's parameters (hansa_lab.sim.tune)."""
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.tune import TuneResult, TuneSettings, tune

    config = _config(args)
    settings = TuneSettings(
        base=args.base, params=tuple(_csv(args.params, "--params") or ()),
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
            print(text, file=sys.stderr, flush=True)

    try:
        res = tune(settings, state, out=args.out, name=name, n_jobs=_jobs(args.jobs),
                   progress=say, command=command)
    except ExperimentError as e:
        flag = _TUNE_FLAGS.get(e.field, "--" + e.field.replace("_", "-"))
        raise CliError(f"{flag}: {e.message}") from e
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (RunTerminated)
        signum = getattr(e, "signum", signal.SIGINT)
        what = "interrupted" if signum == signal.SIGINT else \
            f"terminated ({signal.Signals(signum).name})"
        raise CliFailure(f"{what}; the finished generations are saved in {state} "
                         "(checkpoint.pkl): run the same command again to resume",
                         128 + signum) from e
    assert isinstance(res, TuneResult)
    if args.json:
        print(json.dumps(res.as_dict()))
    else:
        print(res.summary())
    return 0


def _version() -> str:
    """The installed package's version (its metadata: the facade is above this layer)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hansa-lab")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def cmd_learn(args: argparse.Namespace) -> int:
    """Self-play data, a fitted model and its held-out figures (hansa_lab.sim.learn)."""
    from hansa_lab.errors import ExperimentError
    from hansa_lab.sim.learn import LearnSettings, build_dataset, fit_model, write_model
    from hansa_lab.strategies.lineup import split_specs

    config = _config(args)
    lineups = tuple(tuple(split_specs(x)) for x in args.lineup or ["greedy"])
    lineups = tuple(x * config.n_players if len(x) == 1 else x for x in lineups)
    try:
        settings = LearnSettings(
            lineups=lineups, n_players=config.n_players, board=config.board,
            edition=config.edition, options=config.options, games=args.games,
            seed=args.seed, rate=args.rate, chunk=args.chunk)
    except ValueError as e:
        raise CliError(f"--lineup: {e}") from e
    name = args.name or f"learned_{config.board}{config.n_players}p"
    data = args.data or f"results/learn/{name}"
    say = (lambda text: None) if args.no_progress else (
        lambda text: print(text, file=sys.stderr, flush=True))
    say(f"data set: {len(lineups)} line-up(s) x {args.games} games into {data}")
    try:
        ds = build_dataset(settings, data, jobs=_jobs(args.jobs), progress=not args.no_progress)
        report = fit_model(ds, args.seed, name)
    except ExperimentError as e:
        raise CliError(f"--data: {e.message}") from e
    except ValueError as e:
        raise CliError(str(e)) from e
    except KeyboardInterrupt as e:
        raise CliFailure(f"interrupted; the finished chunks are saved in {data}: run the "
                         "same command again to resume", 130) from e
    # the command that reproduces the model, from the parsed arguments (not the
    # process's: main() may be called with its own argv)
    command = ["hansa-lab", "learn", "--players", str(config.n_players), "--board",
               config.board, "--edition", config.edition,
               *[x for o in args.option for x in ("--option", o)],
               *[x for lu in lineups for x in ("--lineup", ",".join(lu))],
               "--games", str(args.games), "--rate", str(args.rate), "--chunk",
               str(args.chunk), "--seed", str(args.seed), "--name", name]
    out = write_model(report, settings, args.out or f"{data}/{name}.json", command=command)
    summary = {"model": str(out), "kind": report.kind, "strength": report.alpha,
               **report.split, "test": report.test}
    print(json.dumps(summary, indent=None if args.json else 1))
    return 0


def cmd_learn_measure(args: argparse.Namespace) -> int:
    """One challenger seat against a line-up, seat-rotated, with its cost beside a
    reference table (hansa_lab.sim.learn.measure_seat)."""
    from hansa_lab.sim.learn import measure_seat
    from hansa_lab.strategies.lineup import split_specs

    config = _config(args)
    for opponent in split_specs(args.against):
        res = measure_seat(args.challenger, opponent, n_players=config.n_players,
                           board=config.board, deals=args.deals, seed=args.seed,
                           reference=args.reference, options=config.options)
        print(json.dumps(res.__dict__) if args.json else res.line(), flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hansa-lab", description="Hansa Teutonica lab")
    parser.add_argument("--version", action="version", version=f"hansa-lab {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play one game and print its result")
    _add_game_args(p)
    p.add_argument("--seed", type=_SEED, default=0)
    p.add_argument("--strategies", default=None, help="comma-separated, one per seat")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--actions", action="store_true", help="include the action texts")
    p.add_argument("--check", action="store_true", help="run the invariant checker")
    p.add_argument("--engine", choices=("core", "python"), default="core",
                   help="rules engine: the compiled core (default) or the Python engine; "
                        "both print the same result")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "bench", help="benchmarks: engine throughput, or the runner suite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=BENCH_LEGEND)
    _add_game_args(p, players_default=3)
    p.add_argument("--suite", choices=("engine", "runner", "strategies", "env"),
                   default="engine",
                   help="engine: games/s of the rules engine (default); runner: logging "
                        "overhead, parallel speed-up, log sizes; strategies: seconds per "
                        "game of each core strategy in both engines; env: steps/s of the "
                        "vector and AEC environments beside the core's random games")
    p.add_argument("--threads", type=_positive_int("--threads"), default=2,
                   help="env suite: threads of the vector environment (default 2)")
    p.add_argument("--seconds", type=float, default=10.0, help="engine suite: duration")
    p.add_argument("--engine", choices=("python", "core", "both"), default=None,
                   help="engine suite: the compiled core (default, as everywhere else), "
                        "the Python engine, or both in one run with their ratio; runner "
                        "suite: core (default) or python")
    p.add_argument("--games", type=_positive_int("--games"), default=None,
                   help="runner suite: games per parallel run (default 96); strategies "
                        "suite: games per strategy and engine (default 3)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("options", help="the rule options: default, allowed values, effect")
    p.add_argument("--markdown", action="store_true",
                   help="as the Markdown table of docs/rule_options.md")
    p.set_defaults(func=cmd_options)

    p = sub.add_parser("parity", help="step random games in the Python engine and the "
                       "compiled core and compare every step")
    p.add_argument("--games", type=_positive_int("--games"), default=100)
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_parity)

    p = sub.add_parser("ladder", help="rate the shipped strategies: every combination at a "
                       "table, seat-rotated, Plackett-Luce ratings with intervals")
    p.add_argument("--strategies", default=None,
                   help="comma-separated (default: every strategy the core plays)")
    p.add_argument("--players", type=_PLAYERS, default=4)
    p.add_argument("--deals", type=_positive_int("--deals"), default=10,
                   help="deals per table, each in every seat rotation (default 10)")
    p.add_argument("--tables", type=_positive_int("--tables"), default=None,
                   help="at most this many tables, a balanced subset of the combinations "
                        "(default: all)")
    p.add_argument("--board", default="base")
    p.add_argument("--edition", default="bigbox")
    p.add_argument("--seed", type=_SEED, default=0, help="first seed")
    p.add_argument("--jobs", type=_worker_count, default=-1,
                   help="worker processes (default: all)")
    p.add_argument("--out", default="results/ladder", help="results folder")
    _add_run_args(p)
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser("lengths", help="how long games last: line-ups on every board side "
                       "and player count, rounds per table, games over the limit")
    p.add_argument("--strategies", default=None,
                   help="comma-separated; each plays in every seat (default: every shipped "
                        "strategy the core plays, and a mixed table)")
    p.add_argument("--games", type=_positive_int("--games"), default=12,
                   help="deals per line-up and table (default 12)")
    p.add_argument("--limit", type=_positive_int("--limit"), default=60,
                   help="rounds a game should not exceed (default 60)")
    p.add_argument("--seed", type=_SEED, default=0, help="first seed")
    p.add_argument("--jobs", type=_worker_count, default=-1,
                   help="worker processes (default: all)")
    p.add_argument("--out", default="results/lengths", help="results folder")
    _add_run_args(p)
    p.set_defaults(func=cmd_lengths)

    p = sub.add_parser("simulate", help="play seat-rotated games of a line-up, log, summarise")
    p.add_argument("--players", type=_PLAYERS, default=4,
                   help="number of players (3-5, default 4)")
    p.add_argument("--games", type=_positive_int("--games"), default=None,
                   help="games per arm (rounded up to whole seat rotations)")
    p.add_argument("--precision", type=float, default=None, metavar="POINTS",
                   help="instead of --games: play a short pilot, print the games and time a "
                        "±POINTS interval of the mean scores needs, then play them")
    p.add_argument("--plan", action="store_true",
                   help="print the plan and stop: of --precision if given, else of --games "
                        "if given (the precision they reach), else of ±1 point")
    p.add_argument("--strategies", default="random",
                   help="comma-separated, one per seat or fewer repeated (default random)")
    p.add_argument("--board", default="base", help="base (default), or a side like base_3p")
    p.add_argument("--edition", default="bigbox", help="bonus-marker edition: bigbox|original")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="rule option (repeatable), e.g. prestige_to_end=25")
    p.add_argument("--seed", type=_SEED, default=0, help="first seed")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes (-1: all cores)")
    p.add_argument("--out", default=None,
                   help="results folder, e.g. results/NAME (default: keep in memory)")
    p.add_argument("--name", default=None, help="experiment name (default: the folder name)")
    p.add_argument("--chunk-size", type=_positive_int("--chunk-size"), default=None,
                   help="games per chunk (default: about 16 chunks, at most 100 games each)")
    p.add_argument("--log", choices=("full", "summary"), default="full",
                   help="summary: skip the turns and events tables")
    _add_run_args(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("run", help="run an experiment file (experiments/NAME.toml)")
    p.add_argument("experiment", help="path of the experiment's TOML file")
    p.add_argument("--games", type=_positive_int("--games"), default=None,
                   help="override the file's games per arm")
    p.add_argument("--chunk-size", type=_positive_int("--chunk-size"), default=None,
                   help="override the file's games per chunk")
    p.add_argument("--jobs", type=int, default=None,
                   help="worker processes (-1: all cores)")
    p.add_argument("--out", default=None, help="results folder (default results/<name>)")
    p.add_argument("--arms", default=None, metavar="A,B",
                   help="run only these arms (and the base arm) into results/<name>--A-B")
    p.add_argument("--players", default=None, metavar="N[,M]",
                   help="run only the conditions with these player counts")
    p.add_argument("--precision", type=float, default=None, metavar="POINTS",
                   help="play a short pilot, print the games and time a ±POINTS interval "
                        "needs, then run that many games")
    p.add_argument("--plan", action="store_true",
                   help="print the plan and stop: of --precision if given, else of --games "
                        "if given (the precision they reach), else of ±1 point")
    p.add_argument("--until-decided", action="store_true",
                   help="play paired deals in batches until each arm is decided against the "
                        "base arm (group-sequential test; needs --effect, one condition)")
    p.add_argument("--effect", type=float, default=None, metavar="POINTS",
                   help="with --until-decided: the smallest difference that matters")
    p.add_argument("--max-deals", type=_positive_int("--max-deals"), default=400,
                   help="with --until-decided: stop undecided after this many deals (400)")
    p.add_argument("--batch-deals", type=_positive_int("--batch-deals"), default=20,
                   help="with --until-decided: deals between looks (20)")
    _add_run_args(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("tune", help="tune a strategy's parameters by self-play (CMA-ES) "
                       "and write them as a strategy file")
    _add_game_args(p, players_default=4)
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
    p.add_argument("--population", type=_positive_int("--population", least=2), default=8,
                   help="candidates per generation (default 8)")
    p.add_argument("--generations", type=_positive_int("--generations"), default=10,
                   help="generations (default 10; a larger value extends a finished run)")
    p.add_argument("--sigma0", type=float, default=0.2,
                   help="initial step, in units of each parameter's range (default 0.2)")
    p.add_argument("--games", type=_positive_int("--games"), default=48,
                   help="games per candidate per generation, rounded up to whole seat "
                        "rotations (default 48)")
    p.add_argument("--heldout-games", type=_positive_int("--heldout-games"), default=400,
                   help="games of the held-out check on new deals (default 400)")
    p.add_argument("--seed", type=_SEED, default=0, help="run seed (deals, optimiser)")
    p.add_argument("--jobs", type=_worker_count, default=1,
                   help="worker processes (-1: all cores)")
    p.add_argument("--state", default=None,
                   help="checkpoint folder (default results/tune/NAME); the same command "
                        "resumes from it")
    p.add_argument("--out", default=None, metavar="FILE.toml",
                   help="the strategy file to write (default STATE/NAME.toml)")
    p.add_argument("--name", default=None,
                   help="the tuned strategy's name (default BASE_<players>p_tuned)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="no line per generation")
    p.set_defaults(func=cmd_tune)

    p = sub.add_parser("learn", help="learn a position evaluation from self-play and write "
                       "a model file for the learned player")
    _add_game_args(p, players_default=4)
    p.add_argument("--lineup", action="append", default=[], metavar="A,B,...",
                   help="a self-play line-up, one strategy per seat or one for all seats "
                        "(repeatable; default greedy); seats rotate from game to game")
    p.add_argument("--games", type=_positive_int("--games"), default=200,
                   help="games per line-up (default 200)")
    p.add_argument("--rate", type=float, default=0.05,
                   help="share of decision points sampled (default 0.05)")
    p.add_argument("--chunk", type=_positive_int("--chunk"), default=20,
                   help="games per saved chunk (default 20)")
    p.add_argument("--seed", type=_SEED, default=0, help="data seed (game seeds, split)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: all cores)")
    p.add_argument("--data", default=None,
                   help="data folder (default results/learn/NAME); the same command resumes")
    p.add_argument("--out", default=None, metavar="FILE.json",
                   help="the model file to write (default DATA/NAME.json)")
    p.add_argument("--name", default=None, help="the model's name (default "
                   "learned_<board><players>p)")
    p.add_argument("--json", action="store_true", help="print the summary on one line")
    p.add_argument("--no-progress", action="store_true", help="no line per chunk")
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser("learn-measure", help="one challenger seat against each opponent "
                       "line-up, seat-rotated, with its cost beside a reference table")
    _add_game_args(p, players_default=4)
    p.add_argument("--challenger", default="learned", help="the seat's strategy")
    p.add_argument("--against", default="greedy", metavar="A,B",
                   help="opponents, one strategy for all other seats per entry (default "
                        "greedy)")
    p.add_argument("--deals", type=_positive_int("--deals"), default=25,
                   help="deals, each played in every seat rotation (default 25)")
    p.add_argument("--seed", type=_SEED, default=5_000_000,
                   help="first deal's seed (default 5000000: never used by learn's data)")
    p.add_argument("--reference", default="greedy",
                   help="strategy of the reference table for the cost ratio ('' for none)")
    p.add_argument("--json", action="store_true", help="one JSON line per opponent")
    p.set_defaults(func=cmd_learn_measure)

    p = sub.add_parser("main", help="the README's main job (strategy tips, quick size)")
    p.add_argument("--games", type=_positive_int("--games"), default=MAIN_GAMES,
                   help=f"games per arm (default {MAIN_GAMES})")
    p.add_argument("--jobs", type=_worker_count, default=-1,
                   help="worker processes (default: all cores)")
    p.add_argument("--out", default=MAIN_OUT, help=f"results folder (default {MAIN_OUT})")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_main)

    p = sub.add_parser("replay", help="export the replay of a game of a results folder "
                       "(RESULTS --game ID), or of one game played now, as offline HTML")
    p.add_argument("results", metavar="RESULTS", nargs="?", default=None,
                   help="a results folder (results/NAME): replay its game --game ID")
    p.add_argument("--game", type=_positive_int("--game", least=0), default=None, metavar="ID",
                   help="with RESULTS: the game's id (the game_id column of its games table)")
    p.add_argument("--arm", default=None, help="with RESULTS: the arm, if ids repeat")
    p.add_argument("--experiment", default=None,
                   help="with RESULTS: the experiment, if ids repeat")
    _add_game_args(p, players_required=False)
    p.add_argument("--seed", type=_SEED, default=None, help="without RESULTS: the seed (0)")
    p.add_argument("--strategies", default=None,
                   help="without RESULTS: comma-separated, one per seat or one for all "
                        "(default random)")
    p.add_argument("--html", default=None, metavar="OUT.html",
                   help="the HTML file to write (self-contained, works offline; default "
                        "with RESULTS: RESULTS/replay_gameID.html)")
    p.add_argument("--title", default=None, help="heading of the page")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("report", help="a run's tables, verdicts and figures as offline HTML")
    p.add_argument("results", metavar="RESULTS", help="a results folder (results/NAME)")
    p.add_argument("--html", default=None, metavar="OUT.html",
                   help="the HTML file to write (default RESULTS/report.html)")
    p.add_argument("--title", default=None, help="heading of the page")
    p.set_defaults(func=cmd_report)
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
