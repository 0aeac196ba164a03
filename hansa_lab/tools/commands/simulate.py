"""Commands that run games into a results folder: a line-up (``simulate``), an experiment
file (``run``, with planning and the group-sequential ``--until-decided``) and the README's
main job (``main``)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hansa_lab.tools.commands.common import (
    PLAYERS,
    SEED,
    CliError,
    add_board_args,
    add_plan_args,
    add_run_args,
    check_duration,
    check_precision,
    csv_values,
    exit_status,
    flag_error,
    jobs,
    positive_int,
    rule_options,
    run_guarded,
    worker_count,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands

#: The README's main job: the strategy-tips experiment at a quick size.
MAIN_EXPERIMENT = "strategy_tips.toml"
#: 75 deals per arm: 95% intervals within about ±1.2 points on each tip's paired score
#: effect (measured with 100 deals: ±0.5 to ±1.0), about a minute of play on 2 cores in
#: the core, leaving the other minute to the same tips among ``strong`` players
#: (MAIN_STRONG_GAMES). Measured 2026-12-04, whole job on 2 workers: 258 s of CPU with 100
#: deals here, 300 s with 150 (so about 0.05 s of CPU per greedy game with its logs)
MAIN_GAMES = 300
MAIN_CHUNK_SIZE = 40
MAIN_OUT = "results/strategy_tips_quick"
#: The players the main job also asks its tips among (``strong:tip=actions_first`` in the
#: focal seat against three ``strong``; :mod:`hansa_lab.studies.populations`), and their games
#: per tip arm: 8 deals × 4 seat rotations, the base arm 8 games. Measured: about 0.75 s
#: of CPU per all-strong 4-player game, 100 s of CPU for the four tips (about 50 s on 2
#: cores); the intervals are wide (about ±5 points) and the job says how wide.
MAIN_AMONG = "strong"
MAIN_STRONG_GAMES = 32


def _planned(exp: Any, args: argparse.Namespace, n_jobs: int, engine: str,
             games: int | None) -> int | None:
    """``--precision``/``--plan``: print the plan of ``exp``; the games to play, or None
    when ``--plan`` asked to stop there."""
    from hansa_lab.stats.terminal import wrap_text
    from hansa_lab.studies.planning import plan_experiment

    plan = plan_experiment(exp, args.precision or 1.0, n_jobs=n_jobs, engine=engine,
                           games=games if args.precision is None else None,
                           progress=not args.no_progress)
    print(wrap_text(f"plan: {plan}"), flush=True)
    return None if args.plan else plan.games


def cmd_simulate(args: argparse.Namespace) -> int:
    from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT, DEFAULT_ENGINE
    from hansa_lab.sim.runner import Results, simulate
    from hansa_lab.strategies.lineup import split_specs

    strategies = split_specs(args.strategies or "")
    if not strategies:
        raise CliError("--strategies: give at least one strategy")
    options = rule_options(args.option)
    games = args.games
    check_precision(args.precision)
    if args.precision is not None or args.plan:
        from hansa_lab.sim.experiment import normalize_experiment

        try:
            exp = normalize_experiment({
                "games": games or 1, "players": args.players, "board": args.board,
                "edition": args.edition, "options": options, "seed": args.seed,
                "arms": {"main": strategies}}, default_name="simulate")
        except Exception as e:
            raise flag_error(e) from e
        games = _planned(exp, args, jobs(args.jobs), args.engine or DEFAULT_ENGINE, games)
        if games is None:
            return 0
    elif games is None:
        raise CliError("--games: give the number of games (or --precision POINTS to plan it)")
    check_duration(games, jobs(args.jobs), args.yes)
    res = run_guarded(lambda: simulate(
        strategies, n_games=games, n_players=args.players, board=args.board,
        edition=args.edition, options=options, seed=args.seed, n_jobs=args.jobs,
        backend=args.backend or ("dask" if args.dask_address else "loky"),
        dask_address=args.dask_address, out=args.out,
        name=args.name,
        chunk_size=args.chunk_size, progress=not args.no_progress, fail_fast=args.fail_fast,
        force=args.force, log=args.log,
        decision_time_limit=DEFAULT_DECISION_TIME_LIMIT if args.decision_time_limit is None
        else args.decision_time_limit, engine=args.engine or DEFAULT_ENGINE,
    ))
    assert isinstance(res, Results)
    print(res.report())
    return max(exit_status(res), write_exports(res))


def write_exports(res: Any, report: Path | None = None) -> int:
    """At the end of a run into a folder: ``answers.csv`` and ``tables/*.csv``
    (:mod:`hansa_lab.sim.exports`); with ``report``, the HTML report there and its figures
    as ``figures/*.png|svg`` (drawing them costs seconds, so ``simulate`` and ``run`` leave
    them to ``hansa-lab report RUN --figures``). 0, or 1 with one line when they cannot be
    written (the games stay in the folder)."""
    import sys

    from hansa_lab.sim.exports import export_run
    from hansa_lab.stats.terminal import wrap_text

    if res.path is None:
        return 0
    folder = Path(res.path)
    try:
        exported = export_run(res, folder, csv=True, figures=False)
        if report is not None:  # the figures are drawn once, for the page and the files
            from hansa_lab.viz.report import write_report

            written = write_report(res, report, figures_folder=folder / "figures")
    except Exception as e:  # the games are kept: say so, in one line
        print(f"hansa-lab: the games are kept in {folder}, but writing its CSV files or "
              f"report failed ({type(e).__name__}: {e}); hansa-lab report {folder} --csv "
              "--figures tries again", file=sys.stderr)
        return 1
    # a command or a path on a line of its own: whole, to be copied
    print(wrap_text(f"\n{exported.text()} (for spreadsheets)"))
    if report is None:
        print(f"The figures (PNG, SVG) and the HTML report:\n  hansa-lab report {folder} "
              "--figures")
    else:
        print(wrap_text(f"wrote the report's figures as PNG and SVG in {folder / 'figures'}"))
        print(f"The report (tables, verdicts, figures; opens offline):\n  {written}")
    return 0


def add_simulate(sub: Subcommands) -> None:
    p = sub.add_parser("simulate", help="play seat-rotated games of a line-up, log, summarise")
    p.add_argument("--players", type=PLAYERS, default=4,
                   help="number of players (2-5, default 4; 2 = neutral-colour variant)")
    p.add_argument("--games", type=positive_int("--games"), default=None,
                   help="games per arm (rounded up to whole seat rotations)")
    add_plan_args(p, "instead of --games: play a short pilot, print the games and time a "
                     "±POINTS interval of the mean scores needs, then play them")
    p.add_argument("--strategies", default="random",
                   help="comma-separated, one per seat or fewer repeated (default random)")
    add_board_args(p, option_help="rule option (repeatable), e.g. prestige_to_end=25")
    p.add_argument("--seed", type=SEED, default=0, help="first seed")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes (-1: all cores)")
    p.add_argument("--out", default=None,
                   help="results folder, e.g. results/NAME (default: keep in memory)")
    p.add_argument("--name", default=None, help="experiment name (default: the folder name)")
    p.add_argument("--chunk-size", type=positive_int("--chunk-size"), default=None,
                   help="games per chunk (default: about 16 chunks, at most 100 games each)")
    p.add_argument("--log", choices=("full", "summary"), default="full",
                   help="summary: skip the turns and events tables")
    add_run_args(p)
    p.set_defaults(func=cmd_simulate)


@dataclass(frozen=True)
class _ExperimentFile:
    """An experiment file as ``run`` reads it before running it."""

    experiment: Any  #: the normalised experiment, with the selection applied
    engine: str  #: the file's engine (core unless it names one)


def _experiment(path: str, games: int | None, arms: list[Any] | None,
                players: list[Any] | None) -> _ExperimentFile:
    """An experiment file loaded, with ``--games`` and the ``--arms``/``--players``
    selection applied (errors as the runner raises them)."""
    from hansa_lab.play import DEFAULT_ENGINE
    from hansa_lab.sim.experiment import load_experiment, normalize_experiment

    raw = load_experiment(path)
    if games is not None:
        raw["games"] = games
    exp = normalize_experiment(raw, source=path, default_name=Path(path).stem)
    if arms is not None or players is not None:
        exp = exp.select(arms, players)
    return _ExperimentFile(exp, raw.get("engine", DEFAULT_ENGINE))


def cmd_run(args: argparse.Namespace) -> int:
    from hansa_lab.sim.runner import Results, run_experiment

    arms = csv_values(args.arms, "--arms")
    players = csv_values(args.players, "--players", int)
    games = args.games
    check_precision(args.precision)
    if args.until_decided or args.precision is not None or args.plan:
        try:
            loaded = _experiment(args.experiment, games, arms, players)
        except Exception as e:
            raise flag_error(e) from e
        n_jobs = jobs(args.jobs)
        if args.until_decided:
            return _decide(loaded.experiment, args, n_jobs)
        games = _planned(loaded.experiment, args, n_jobs, args.engine or loaded.engine, games)
        if games is None:
            return 0
    check_duration(_planned_games(args.experiment, games, arms, players),
                   jobs(args.jobs), args.yes)
    res = run_guarded(lambda: run_experiment(
        args.experiment, games=games, chunk_size=args.chunk_size, n_jobs=args.jobs,
        backend=args.backend or ("dask" if args.dask_address else None),
        dask_address=args.dask_address, out=args.out, force=args.force,
        progress=not args.no_progress, fail_fast=args.fail_fast,
        decision_time_limit=args.decision_time_limit, arms=arms, players=players,
        engine=args.engine,
    ))
    assert isinstance(res, Results)
    print(res.report())
    return max(exit_status(res), write_exports(res))


def _planned_games(experiment: str, games: int | None, arms: list[Any] | None,
                   players: list[Any] | None) -> int | None:
    """The games an experiment file plans (None when it does not load: the run then
    reports the file's error itself)."""
    from hansa_lab.sim.experiment import Design

    try:
        return Design(_experiment(experiment, games, arms, players).experiment).n_games
    except Exception:
        return None


def _decide(exp: Any, args: argparse.Namespace, n_jobs: int) -> int:
    """``run --until-decided``: the group-sequential test per arm (see studies/planning.py)."""
    from hansa_lab.play import DEFAULT_ENGINE
    from hansa_lab.stats.answers import plural
    from hansa_lab.stats.terminal import wrap_text
    from hansa_lab.stats.verdicts import sequential_sentence
    from hansa_lab.studies.planning import decide_arms

    if args.effect is None or not 0 < args.effect < float("inf"):
        raise CliError("--effect: --until-decided needs the smallest difference that matters, "
                       "in points (e.g. --effect 1)")

    def look(arm: str, row: dict[str, Any]) -> None:
        print(wrap_text(f"  {arm}: {plural(int(row['n']), 'deal')} ({row['t']:.0%} of the "
                        f"maximum): mean difference {row['mean']:+.2f} points, 95% interval "
                        f"valid at every look [{row['lo']:+.2f}, {row['hi']:+.2f}]"),
              flush=True)

    try:
        results = decide_arms(exp, args.effect, max_deals=args.max_deals,
                              batch_deals=args.batch_deals, n_jobs=n_jobs, on_look=look,
                              engine=args.engine or DEFAULT_ENGINE)
    except ValueError as e:
        raise CliError(f"--until-decided: {e}") from e
    base = exp.comparison_base
    base_players = ", ".join(map(str, exp.arms[base]))
    print(wrap_text(f"\nDecided on the focal player's final score (smallest difference that "
                    f"matters: {plural(float(args.effect), 'point')}; each arm against "
                    f"{base}, whose players are {base_players}):"))
    for arm, res in results.items():
        opponents = [str(x) for x in exp.arms[arm][1:]] or [str(x) for x in exp.arms[base]]
        print(wrap_text(f"  {sequential_sentence(res, arm, base, opponents)}"))
    return 0


def add_run(sub: Subcommands) -> None:
    p = sub.add_parser("run", help="run an experiment file (experiments/NAME.toml)")
    p.add_argument("experiment", help="path of the experiment's TOML file")
    p.add_argument("--games", type=positive_int("--games"), default=None,
                   help="override the file's games per arm")
    p.add_argument("--chunk-size", type=positive_int("--chunk-size"), default=None,
                   help="override the file's games per chunk")
    p.add_argument("--jobs", type=int, default=None,
                   help="worker processes (-1: all cores)")
    p.add_argument("--out", default=None, help="results folder (default results/<name>)")
    p.add_argument("--arms", default=None, metavar="A,B",
                   help="run only these arms (and the base arm) into results/<name>--A-B")
    p.add_argument("--players", default=None, metavar="N[,M]",
                   help="run only the conditions with these player counts")
    add_plan_args(p, "play a short pilot, print the games and time a ±POINTS interval "
                     "needs, then run that many games")
    p.add_argument("--until-decided", action="store_true",
                   help="play paired deals in batches until each arm is decided against the "
                        "base arm (group-sequential test; needs --effect, one condition)")
    p.add_argument("--effect", type=float, default=None, metavar="POINTS",
                   help="with --until-decided: the smallest difference that matters")
    p.add_argument("--max-deals", type=positive_int("--max-deals"), default=400,
                   help="with --until-decided: stop undecided after this many deals (400)")
    p.add_argument("--batch-deals", type=positive_int("--batch-deals"), default=20,
                   help="with --until-decided: deals between looks (20)")
    add_run_args(p)
    p.set_defaults(func=cmd_run)


def _find_experiment(name: str) -> Path:
    """``experiments/<name>`` in the working directory, else next to the package."""
    # hansa_lab/tools/commands/ -> the project folder
    for root in (Path.cwd(), Path(__file__).resolve().parents[3]):
        path = root / "experiments" / name
        if path.exists():
            return path
    raise CliError(f"experiments/{name} not found (run from the project folder)")


def cmd_main(args: argparse.Namespace) -> int:
    """The README's main job: the strategy-tips experiment at a quick size (always rerun),
    with a progress bar, then win rates and scores with 95% intervals per arm."""
    from joblib import cpu_count

    from hansa_lab.sim.experiment import Design
    from hansa_lab.sim.runner import Results, run_experiment
    from hansa_lab.stats.terminal import wrap_text

    path = _find_experiment(args.main_experiment)
    try:
        exp = _experiment(str(path), args.games, None, None).experiment
        design = Design(exp)
    except Exception as e:
        raise flag_error(e) from e
    workers = (f"all {cpu_count()} cores" if args.jobs == -1 else
               f"{args.jobs} worker process{'es' if args.jobs != 1 else ''}")
    among = None if args.greedy_only else _main_among(exp)
    also = (f", then its tips carried by {among.label} players ({args.strong_games} games "
            "per tip)" if among else "")
    print(wrap_text(f"hansa-lab main: {path.name} at a quick size, "
                    f"{games_per_arm(design.summary())}, paired seeds{also}, {workers} → "
                    f"{args.out}"), flush=True)
    res = run_guarded(lambda: run_experiment(
        path, games=args.games, chunk_size=MAIN_CHUNK_SIZE, n_jobs=args.jobs, out=args.out,
        force=True, progress=not args.no_progress,
    ))
    assert isinstance(res, Results)
    print(res.report())
    if write_exports(res, Path(args.out) / "report.html"):
        return 1
    if among is not None:
        _print_tips_among(among, exp, res, args)
    print("Next: make lab (JupyterLab on notebooks/; 05_inspect_a_game.ipynb opens a game in "
          f"the viewer), or\n  hansa-lab replay {args.out} --game 0")
    return 0


@dataclass(frozen=True)
class _MainAmong:
    """The main job's tips asked of two populations: the experiment's own players and
    :data:`MAIN_AMONG`."""

    #: the experiment's population (its base arm's one strategy), e.g. ``greedy``
    population: str
    #: the tips among the experiment's arms
    tips: tuple[str, ...]
    label: str = MAIN_AMONG


def _main_among(exp: Any) -> _MainAmong | None:
    """What the main job asks among :data:`MAIN_AMONG` players too: the experiment's tip
    arms when it is a tips experiment (a base arm of one strategy, arms named after tips,
    one condition without rule options); None otherwise."""
    from hansa_lab.strategies.greedy import TIPS

    base = exp.arms.get(exp.base_arm) if exp.base_arm else None
    tips = tuple(a for a in exp.arms if a != exp.base_arm and a in TIPS)
    if (not tips or base is None or len(set(base)) != 1 or len(exp.conditions) != 1
            or exp.conditions[0].options or base[0] == MAIN_AMONG):
        return None
    return _MainAmong(base[0], tips)


def _print_tips_among(among: _MainAmong, exp: Any, res: Any,
                      args: argparse.Namespace) -> None:
    """The main job's last answer: each tip among the experiment's players (its run,
    ``res``) and among :data:`MAIN_AMONG` players (played here by
    :func:`~hansa_lab.studies.populations.compare_populations`), with the agreement line and
    the resolution the sizes give."""
    import math

    from joblib import cpu_count

    from hansa_lab.stats.terminal import wrap_text
    from hansa_lab.studies.populations import PopulationStudy, compare_populations
    from hansa_lab.tools.commands.populations import study_lines

    condition = exp.conditions[0]
    out = Path(args.out) / "populations"
    print(wrap_text(f"\nDoes each tip help, and among which players? Each tip carried by "
                    f"the focal seat against three of the same players: {among.population} "
                    f"(the run above) and {among.label} ({args.strong_games} games per tip)."),
          flush=True)
    study = run_guarded(lambda: compare_populations(
        {among.population: among.population, among.label: among.label},
        questions=("tips",), tips=among.tips,
        games={among.population: args.games, among.label: args.strong_games},
        players=condition.n_players, board=condition.board, edition=condition.edition,
        seed=exp.seed, reference=among.population, out=out, n_jobs=args.jobs,
        progress=not args.no_progress, force=True, tips_results={among.population: res}))
    assert isinstance(study, PopulationStudy)
    for line in study_lines(study):
        print(line)
    study.answers.to_csv(out / "answers.csv", index=False)
    (out / "agreement.txt").write_text(study.agreement + "\n", "utf-8")
    rows = study.answers[study.answers["population"] == among.label]
    half = [(hi - lo) / 2 for lo, hi in zip(rows["lo"], rows["hi"], strict=True)
            if math.isfinite(hi - lo)]
    if half:
        deals = -(-args.strong_games // condition.n_players)
        cores = cpu_count() if args.jobs == -1 else args.jobs
        per_game = float(rows["seconds_per_game"].mean())
        minutes = (len(among.tips) * 400 + 100) * per_game / max(1, cores) / 60
        print(wrap_text(
            f"\nresolution: among {among.label} players {deals} deals per tip give 95% "
            f"intervals of about ±{sum(half) / len(half):.1f} points, so only a large effect "
            f"shows here; hansa-lab populations --populations "
            f"{among.population},{among.label} --questions tips --tip-games 400 asks it "
            f"closely (about {minutes:.0f} minutes with {cores} "
            f"worker{'s' if cores != 1 else ''} at this run's pace)."))
    print(f"answers.csv and agreement.txt in {out}")


def games_per_arm(design: dict[str, Any]) -> str:
    """The games per arm of a design (:meth:`~hansa_lab.sim.experiment.Design.summary`),
    saying "rounded up" only when an arm plays more games than asked:
    ``"600 games per arm"``, ``"601-604 games per arm (601 asked, rounded up to whole
    seat rotations)"``."""
    asked = design["games_requested_per_arm"]
    played = sorted({arm["games"] for condition in design["conditions"]
                     for arm in condition["arms"].values()})
    if not design["rounded"]:
        return f"{asked} games per arm"
    span = f"{played[0]}" if len(played) == 1 else f"{played[0]}-{played[-1]}"
    return f"{span} games per arm ({asked} asked, rounded up to whole seat rotations)"


def add_main(sub: Subcommands, experiment: str = MAIN_EXPERIMENT) -> None:
    """The ``main`` command, running ``experiments/<experiment>``."""
    p = sub.add_parser("main", help="the README's main job (strategy tips, quick size)")
    p.add_argument("--games", type=positive_int("--games"), default=MAIN_GAMES,
                   help=f"games per arm (default {MAIN_GAMES})")
    p.add_argument("--jobs", type=worker_count, default=-1,
                   help="worker processes (default: all cores)")
    p.add_argument("--strong-games", type=positive_int("--strong-games"),
                   default=MAIN_STRONG_GAMES,
                   help=f"games per tip arm among {MAIN_AMONG} players (default "
                        f"{MAIN_STRONG_GAMES})")
    p.add_argument("--greedy-only", action="store_true",
                   help=f"skip asking the tips among {MAIN_AMONG} players")
    p.add_argument("--out", default=MAIN_OUT, help=f"results folder (default {MAIN_OUT})")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_main, main_experiment=experiment)
