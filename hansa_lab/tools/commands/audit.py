"""The ``audit`` command: a player's self-play tables profiled seat by seat, with the seats
that differ from the others beyond what the rules explain flagged
(:mod:`hansa_lab.studies.audit` plays, :mod:`hansa_lab.stats.audit` profiles and tests)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from hansa_lab.tools.commands.common import (
    PLAYERS,
    SEED,
    CliError,
    check_duration,
    positive_int,
    run_guarded,
    worker_count,
)

if TYPE_CHECKING:
    from hansa_lab.tools.commands.common import Subcommands

#: ``--reference`` value that plays no reference population.
NO_REFERENCE = "none"


def _boards(text: str, n_players: int) -> tuple[str, ...]:
    from hansa_lab.engine.board import resolve_side

    boards = tuple(b.strip() for b in text.split(",") if b.strip())
    if not boards:
        raise CliError("--board: name at least one board")
    for board in boards:
        try:
            resolve_side(board, n_players)
        except ValueError as e:
            raise CliError(f"--board: {e}") from None
    return boards


def cmd_audit(args: argparse.Namespace) -> int:
    """Play and profile the audit; print one report per board and save its tables."""
    from hansa_lab.sim.experiment import MAX_SEED
    from hansa_lab.sim.paths import output_folder
    from hansa_lab.stats.audit import (
        audit_report,
        format_audit,
        predecessor_table,
        probe_table,
        seat_records,
    )
    from hansa_lab.strategies import make_strategy
    from hansa_lab.studies.audit import AuditRun, play_audit, predecessor_of

    try:
        make_strategy(args.player)
    except ValueError as e:
        raise CliError(f"PLAYER: {e}") from None
    reference = None if args.reference == NO_REFERENCE else args.reference
    if reference is not None:
        try:
            make_strategy(reference)
        except ValueError as e:
            raise CliError(f"--reference: {e}") from None
    if args.against_predecessor:
        try:
            predecessor_of(args.player)
        except ValueError as e:
            raise CliError(f"--against-predecessor: {e}") from None
    if args.probe is not None:
        try:
            make_strategy(args.probe)
        except ValueError as e:
            raise CliError(f"--probe: {e}") from None
    boards = _boards(args.board, args.players)
    blocks = 3 if args.probe is not None else 2
    if args.seed + blocks * args.games > MAX_SEED + 1:
        raise CliError(f"--seed: --seed + {blocks} x --games must stay within 2**63, got "
                       f"{args.seed:,} + {blocks} x {args.games:,}")
    check_duration(args.games * len(boards) * (3 + (args.probe is not None)), 1, args.yes)
    out = output_folder(args.out or f"results/audit/{args.player}", "--out")

    def run() -> AuditRun:
        try:
            return play_audit(args.player, boards=boards, n_players=args.players,
                              games=args.games, reference=reference,
                              against_predecessor=args.against_predecessor,
                              probe=args.probe, seed=args.seed,
                              n_jobs=args.jobs, out=out, progress=not args.no_progress,
                              force=args.force)
        except ValueError as e:
            raise CliError(str(e)) from None

    played = run_guarded(run)
    assert isinstance(played, AuditRun)
    for board in boards:
        res = played.self_play[board]
        records = seat_records(res.players, res.games, res.events)
        ref_records = None
        if board in played.reference_play:
            ref = played.reference_play[board]
            ref_records = seat_records(ref.players, ref.games, ref.events)
        report = audit_report(args.player, records, res.games, ref_records, reference)
        if board in played.against_predecessor:
            match = played.against_predecessor[board]
            report.predecessor = predecessor_table({board: (match.players, match.games)})
            report.predecessor_name = played.predecessor
        if board in played.probe_play:
            probe = played.probe_play[board]
            report.probe = probe_table(probe.players, probe.games, report.flags)
            report.probe_name = played.probe
        print(f"== {board}, {args.players} players ==")
        print(format_audit(report))
        print()
        folder = Path(out) / f"tables_{board}_{args.players}p"
        folder.mkdir(parents=True, exist_ok=True)
        report.profile.to_csv(folder / "profile.csv", index=False)
        report.flags.to_csv(folder / "flags.csv", index=False)
        report.ends.to_csv(folder / "end_reasons.csv", index=False)
        if report.predecessor is not None:
            report.predecessor.to_csv(folder / "against_predecessor.csv", index=False)
        if report.probe is not None:
            report.probe.to_csv(folder / "probe.csv", index=False)
    print("profile.csv, flags.csv and end_reasons.csv per board in the folder")
    print(f"  {out}")
    return 0


def add_audit(sub: Subcommands) -> None:
    p = sub.add_parser("audit", help="a player's self-play profiled per seat, flagging a "
                       "seat that differs from the others beyond the rules")
    p.add_argument("player", metavar="PLAYER", help="the strategy to audit (e.g. learned)")
    p.add_argument("--board", default="base",
                   help="board(s), comma-separated: base|east|britannia or a side "
                        "(default base)")
    p.add_argument("--players", type=PLAYERS, default=4, help="number of players (default 4)")
    p.add_argument("--games", type=positive_int("--games"), default=200,
                   help="self-play games per board, and as many of the reference "
                        "(default 200)")
    p.add_argument("--reference", default="greedy",
                   help="the population whose self-play (other deals) measures what the "
                        "rules make seats differ by (default greedy; 'none': no reference)")
    p.add_argument("--against-predecessor", action="store_true",
                   help="also one PLAYER seat against its predecessor in the others, "
                        "seats rotated, --games per board (strong: strong_v1)")
    p.add_argument("--probe", default=None, metavar="STRATEGY",
                   help="also one STRATEGY seat (a stronger player, e.g. strong) against "
                        "PLAYER in the others, seats rotated, --games per board: says "
                        "whether a seat PLAYER does badly in is hard for a better player "
                        "too (the player's difference or the seat's)")
    p.add_argument("--seed", type=SEED, default=0, help="first seed (default 0)")
    p.add_argument("--jobs", type=worker_count, default=1,
                   help="worker processes (default 1)")
    p.add_argument("--out", default=None,
                   help="folder of the runs and tables (default results/audit/PLAYER)")
    p.add_argument("--force", action="store_true", help="replay instead of resuming")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--yes", action="store_true",
                   help="start even when the games cannot be played within a day")
    p.set_defaults(func=cmd_audit)
