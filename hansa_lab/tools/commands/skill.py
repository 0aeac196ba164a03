"""The ``skill-ladder`` command: each rung of the skill ladder in one seat against the rung
below, seats rotated, with its cost beside an all-greedy table and optionally the top
rung against a named player and each rung's realism table
(:mod:`hansa_lab.studies.skill` plays and formats)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from hansa_lab.tools.commands.common import (
    SEED,
    CliError,
    add_game_args,
    check_duration,
    game_config,
    positive_int,
    run_guarded,
    worker_count,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands

#: ``--realism`` self-play games per rung when the flag is given without a number.
REALISM_GAMES = 40


def cmd_skill_ladder(args: argparse.Namespace) -> int:
    """Measure the ladder, print its tables and verdict, write the CSV files."""
    from hansa_lab.sim.experiment import MAX_SEED
    from hansa_lab.sim.paths import output_folder
    from hansa_lab.strategies import make_strategy
    from hansa_lab.strategies.lineup import split_specs
    from hansa_lab.studies.skill import (
        LadderRun,
        Step,
        format_ladder,
        ladder_frames,
        measure_ladder,
        resolve_rungs,
        skill_rungs,
    )

    config = game_config(args)
    if args.rungs is None:
        try:
            rungs = skill_rungs(config.board, config.n_players)
        except ValueError as e:  # the shipped file is broken (--board was checked above)
            raise CliError(f"--board/--players: {e}") from None
    else:
        try:
            rungs = resolve_rungs(split_specs(args.rungs), config.board, config.n_players)
        except ValueError as e:
            raise CliError(f"--rungs: {e}") from None
    if args.top_against is not None:
        try:
            make_strategy(args.top_against)
        except ValueError as e:
            raise CliError(f"--top-against: {e}") from None
    realism = args.realism or 0
    if args.seed + args.games + realism > MAX_SEED + 1:
        raise CliError(f"--seed: --seed + --games + --realism must stay within 2**63, got "
                       f"{args.seed:,} + {args.games:,} + {realism:,}")
    tables = len(rungs) + (args.top_against is not None)
    check_duration(args.games * tables + realism * len(rungs), 1, args.yes)
    out = output_folder(args.out or f"results/skill_ladder/{config.board}_"
                        f"{config.n_players}p", "--out")

    def progress(step: Step) -> None:
        if not args.no_progress:
            print(f"  measured: {step.challenger} one seat vs {step.below}: "
                  f"{step.win_share:.1%} [{step.lo:.1%}, {step.hi:.1%}]", flush=True)

    def run() -> LadderRun:
        try:
            return measure_ladder(
                rungs, board=config.board, n_players=config.n_players,
                edition=config.edition, options=dict(config.options), games=args.games,
                seed=args.seed, top_against=args.top_against, realism_games=realism,
                n_jobs=args.jobs, out=out, progress=not args.no_progress, force=args.force,
                on_step=progress)
        except ValueError as e:
            raise CliError(str(e)) from None

    played = run_guarded(run)
    assert isinstance(played, LadderRun)
    print(format_ladder(played))
    folder = Path(out)
    for name, frame in ladder_frames(played).items():
        frame.to_csv(folder / f"{name}.csv", index=False)
    print(f"steps.csv, rungs.csv{', realism.csv' if realism else ''} in {folder}")
    return 0


def add_skill_ladder(sub: Subcommands) -> None:
    p = sub.add_parser(
        "skill-ladder", help="each rung of the skill ladder in one seat against the rung "
        "below, seat-rotated, with Wilson intervals, costs and a calibration verdict")
    add_game_args(p, players_default=4)
    p.add_argument("--games", type=positive_int("--games"), default=200,
                   help="games per step, rounded up to whole seat rotations (default 200)")
    p.add_argument("--seed", type=SEED, default=0,
                   help="first seed of every step (default 0); the realism tables use the "
                        "seeds after them")
    p.add_argument("--rungs", default=None, metavar="LABEL|SPEC,...",
                   help="the rungs, novice first: labels of the shipped ladder or strategy "
                        "specs (default: the shipped ladder for the board and players)")
    p.add_argument("--top-against", default=None, metavar="SPEC",
                   help="also the top rung in one seat against this player in the others "
                        "(e.g. strong_v1), --games games")
    p.add_argument("--realism", type=positive_int("--realism"), nargs="?",
                   const=REALISM_GAMES, default=None, metavar="GAMES",
                   help="also each rung's self-play profile (score by place, rounds, end "
                        f"reasons, third action, ...): GAMES per rung (default "
                        f"{REALISM_GAMES})")
    p.add_argument("--jobs", type=worker_count, default=1, help="worker processes (default 1)")
    p.add_argument("--out", default=None,
                   help="folder of the runs and CSV files (default "
                        "results/skill_ladder/BOARD_Np); an interrupted run resumes")
    p.add_argument("--force", action="store_true", help="replay instead of resuming")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--yes", action="store_true",
                   help="start even when the games cannot be played within a day")
    p.set_defaults(func=cmd_skill_ladder)
