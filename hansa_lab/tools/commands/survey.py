"""Commands that survey many line-ups at once: the strategy ratings (``ladder``) and the
game lengths on every board side and player count (``lengths``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from hansa_lab.tools.commands.common import (
    PLAYERS,
    SEED,
    add_run_args,
    execution,
    positive_int,
    run_guarded,
    strategy_list,
    worker_count,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands


def _add_survey_run_args(p: argparse.ArgumentParser, out: str) -> None:
    """The first seed, the workers (default: all), the results folder and the run
    options of a survey."""
    p.add_argument("--seed", type=SEED, default=0, help="first seed")
    p.add_argument("--jobs", type=worker_count, default=-1,
                   help="worker processes (default: all)")
    p.add_argument("--out", default=out, help="results folder")
    add_run_args(p)


def cmd_lengths(args: argparse.Namespace) -> int:
    """Game lengths of line-ups on every board side and player count."""
    from hansa_lab.play import DEFAULT_ENGINE
    from hansa_lab.studies.lengths import Lengths, run_lengths

    lineups = strategy_list(args.strategies)
    lengths = run_guarded(lambda: run_lengths(
        lineups, games=args.games, limit=args.limit, seed=args.seed, n_jobs=args.jobs,
        out=args.out, progress=not args.no_progress, engine=args.engine or DEFAULT_ENGINE,
        **execution(args)))
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


def add_lengths(sub: Subcommands) -> None:
    p = sub.add_parser("lengths", help="how long games last: line-ups on every board side "
                       "and player count, rounds per table, games over the limit")
    p.add_argument("--strategies", default=None,
                   help="comma-separated; each plays in every seat (default: every shipped "
                        "strategy the core plays, and a mixed table)")
    p.add_argument("--games", type=positive_int("--games"), default=12,
                   help="deals per line-up and table (default 12)")
    p.add_argument("--limit", type=positive_int("--limit"), default=60,
                   help="rounds a game should not exceed (default 60)")
    _add_survey_run_args(p, "results/lengths")
    p.set_defaults(func=cmd_lengths)


def cmd_ladder(args: argparse.Namespace) -> int:
    """Every combination of the strategies at a table, seat-rotated, rated."""
    from hansa_lab.play import DEFAULT_ENGINE
    from hansa_lab.studies.ladder import LADDER_STRATEGIES, Ladder, run_ladder

    strategies = strategy_list(args.strategies) or list(LADDER_STRATEGIES)
    ladder = run_guarded(lambda: run_ladder(
        strategies, n_players=args.players, deals=args.deals, tables=args.tables,
        board=args.board,
        edition=args.edition, seed=args.seed, n_jobs=args.jobs, out=args.out,
        progress=not args.no_progress, engine=args.engine or DEFAULT_ENGINE, **execution(args)))
    assert isinstance(ladder, Ladder)
    print(f"{ladder.command}\n")
    print(ladder.table())
    print(f"\nratings, results and ladder.png in {args.out}")
    return 0


def add_ladder(sub: Subcommands) -> None:
    p = sub.add_parser("ladder", help="rate the shipped strategies: every combination at a "
                       "table, seat-rotated, Plackett-Luce ratings with intervals")
    p.add_argument("--strategies", default=None,
                   help="comma-separated (default: every strategy the core plays)")
    p.add_argument("--players", type=PLAYERS, default=4)
    p.add_argument("--deals", type=positive_int("--deals"), default=10,
                   help="deals per table, each in every seat rotation (default 10)")
    p.add_argument("--tables", type=positive_int("--tables"), default=None,
                   help="at most this many tables, a balanced subset of the combinations "
                        "(default: all)")
    p.add_argument("--board", default="base")
    p.add_argument("--edition", default="bigbox")
    _add_survey_run_args(p, "results/ladder")
    p.set_defaults(func=cmd_ladder)
