"""The ``populations`` command: the seat-balance and strategy-tip answers for several
populations side by side, with where they agree and where they differ
(:func:`hansa_lab.studies.populations.compare_populations`); with ``--ladder`` the
populations are the skill ladder's rungs, novice first, and each answer's convergence
along the ladder is stated (:mod:`hansa_lab.stats.convergence`)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from functools import partial
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
    import pandas as pd

    from hansa_lab.studies.populations import PopulationStudy
    from hansa_lab.tools.commands.common import Subcommands

#: The table's columns as printed (the CSV has them all).
SHOWN = ("population", "question", "estimate", "lo", "hi", "verdict", "games",
         "cpu_seconds_per_game", "cost_vs_reference")


def _names(flag: str, text: str) -> list[str]:
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise CliError(f"{flag}: name at least one")
    return names


#: The study's field names (the head of its messages) → the flags that set them.
_FIELD_FLAGS = {"questions": "--questions", "populations": "--populations",
                "games": "--games", "tip_games": "--tip-games", "board": "--board",
                "edition": "--edition", "seed": "--seed", "players": "--players",
                "n_players": "--players", "out": "--out", "n_jobs": "--jobs"}


def _flagged(message: str) -> str:
    """A message of the study (``"board: unknown board 'moon'"``) with its field written
    as the flag that sets it (``"--board: ..."``)."""
    field, colon, rest = message.partition(":")
    flag = _FIELD_FLAGS.get(field.strip())
    return f"{flag}:{rest}" if colon and flag else message


def _readable(table: pd.DataFrame) -> pd.DataFrame:
    """The table as text: win shares in percent, score differences signed, costs rounded."""
    def value(r: pd.Series, col: str) -> str:
        v = r[col]
        if not math.isfinite(v):
            return "-"
        return f"{v:.1%}" if r["unit"].startswith("win share") else f"{v:+.2f}"

    out = table[list(SHOWN)].copy()
    for col in ("estimate", "lo", "hi"):
        out[col] = [value(r, col) for _, r in table.iterrows()]
    out["cpu_seconds_per_game"] = [f"{v:.3f}" if math.isfinite(v) else "-"
                                   for v in table["cpu_seconds_per_game"]]
    out["cost_vs_reference"] = [f"{v:.2f}x" if math.isfinite(v) else "-"
                                for v in table["cost_vs_reference"]]
    return out


def cmd_populations(args: argparse.Namespace) -> int:
    """Ask the seat and tip questions of every population; print the table and the line."""
    from hansa_lab.sim.experiment import MAX_SEED
    from hansa_lab.sim.paths import output_folder
    from hansa_lab.studies.populations import (
        PopulationStudy,
        compare_populations,
        ladder_populations,
        parse_populations,
        tip_spec,
    )
    if args.ladder and args.populations is not None:
        raise CliError("--ladder: the ladder's rungs are the populations; give --ladder or "
                       "--populations, not both")
    populations: str | dict[str, str] = (
        "greedy,planner" if args.populations is None else args.populations)
    if args.ladder:
        try:
            populations = ladder_populations(args.board, args.players)
        except ValueError as e:
            raise CliError(_flagged(str(e))) from None
    questions = _names("--questions", args.questions)
    tips = _names("--tips", args.tips)
    # checked here, where the flag is known (the study's messages name its own fields)
    greedy = parse_populations("greedy")[0]
    checks: list[tuple[str, Callable[[], object]]] = [
        ("--ladder" if args.ladder else "--populations",
         lambda: parse_populations(populations)),
        ("--reference", lambda: parse_populations([args.reference])),
        *(("--tips", partial(tip_spec, tip, greedy)) for tip in tips)]
    for flag, check in checks:
        try:
            check()
        except ValueError as e:
            named = _flagged(str(e))
            raise CliError(named if named != str(e) else f"{flag}: {e}") from None
    output_folder(args.out, "--out")  # "" used to mean the working folder
    # sizes checked before the first question is played (as simulate does)
    counts = args.games.values() if isinstance(args.games, dict) else [args.games]
    for flag, n in [*(("--games", g) for g in counts), ("--tip-games", args.tip_games)]:
        if n is not None and args.seed + n > MAX_SEED + 1:
            raise CliError(f"{flag}: --seed + {flag} must stay within 2**63 (seeds are stored "
                           f"as 64-bit integers), got {args.seed:,} + {n:,}")
        try:
            check_duration(n, 1, args.yes)
        except CliError as e:  # its message names --games
            raise CliError(f"{flag}:{str(e).partition(':')[2]}") from None

    def run() -> PopulationStudy:
        try:
            return compare_populations(
                populations, questions=questions, tips=tips, games=args.games,
                tip_games=args.tip_games, players=args.players, board=args.board,
                edition=args.edition, seed=args.seed, reference=args.reference,
                out=args.out, n_jobs=args.jobs, progress=not args.no_progress,
                force=args.force, ladder=args.ladder)
        except ValueError as e:
            raise CliError(_flagged(str(e))) from None

    study = run_guarded(run)
    assert isinstance(study, PopulationStudy)
    table = study.answers
    for line in study_lines(study):
        print(line)
    out = Path(args.out)
    table.to_csv(out / "answers.csv", index=False)
    (out / "agreement.txt").write_text(study.agreement + "\n", "utf-8")
    written = "answers.csv, agreement.txt"
    if study.rungs:
        (out / "convergence.txt").write_text(
            "".join(c.text + "\n" for c in study.convergence), "utf-8")
        written += ", convergence.txt"
    print(f"\n{written} and one results folder per population in {out}")
    return 0


def study_lines(study: PopulationStudy) -> list[str]:
    """What ``populations`` prints of a study (the main job too): the rungs of a ladder, the
    answers table, the cost line, the methods, each population's answer, the agreement
    line and a ladder's convergence."""
    from hansa_lab.sim.results import format_table
    from hansa_lab.stats.terminal import wrap_text

    table = study.answers
    lines = []
    if study.rungs:
        lines.append("Skill ladder, novice first (the populations of the table):")
        lines += [f"  {i}. {name}" for i, name in enumerate(study.rungs, 1)]
        lines.append("")
    lines += [format_table(_readable(table)),
              wrap_text(f"\ncost: CPU seconds of play per game (the playing process's, not "
                        f"wall time); cost_vs_reference against all-{study.reference} "
                        f"tables of this study ({study.reference_cpu_seconds:.3f} CPU s per "
                        f"game)"),
             wrap_text(f"methods: {'; '.join(dict.fromkeys(table['method']))}"),
             "\nAnswers (each population's record; seat 0 moves first):"]
    for r in table.itertuples(index=False):
        if r.text:
            lines.append(wrap_text(f"  {r.population}, {r.question}: {r.text}"))
    lines.append(f"\n{wrap_text(study.agreement)}")
    if study.rungs:
        lines.append(f"\nAlong the ladder (rungs 1 to {len(study.rungs)}, novice first):")
        lines += [wrap_text(f"  {c.text}") for c in study.convergence]
    return lines


def _games(text: str) -> int | dict[str, int]:
    """``--games``: ``400``, or ``greedy=800,strong=48`` (a count per population)."""
    if "=" not in text:
        return positive_int("--games")(text)
    out: dict[str, int] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise argparse.ArgumentTypeError(f"{part!r}: write NAME=N (e.g. strong=48)")
        out[name.strip()] = positive_int(f"--games {name.strip()}")(value.strip())
    return out


def add_populations(sub: Subcommands) -> None:
    p = sub.add_parser("populations", help="seat balance and strategy tips for several "
                       "populations side by side: which answers hold for which players")
    p.add_argument("--populations", default=None,
                   help="comma-separated strategy specs, each played in every seat "
                        "(default greedy,planner)")
    p.add_argument("--ladder", action="store_true",
                   help="the skill ladder's rungs for --board and --players as the "
                        "populations, novice first, with each answer's convergence")
    p.add_argument("--questions", default="seats,tips", help="seats and/or tips")
    p.add_argument("--tips", default="actions_first,blocker,network_keys,keep_supply",
                   help="the tips to test (each carried by the population's player, "
                        "e.g. strong:tip=actions_first)")
    p.add_argument("--games", type=_games, default=400, metavar="N|NAME=N,...",
                   help="games per seat study: one count, or one per population "
                        "(greedy=800,strong=48); default 400")
    p.add_argument("--tip-games", type=positive_int("--tip-games"), default=None,
                   help="games per tip arm (default: --games)")
    p.add_argument("--players", type=PLAYERS, default=4)
    p.add_argument("--board", default="base")
    p.add_argument("--edition", default="bigbox")
    p.add_argument("--seed", type=SEED, default=0, help="first seed")
    p.add_argument("--reference", default="greedy",
                   help="the population costs are relative to (default greedy)")
    p.add_argument("--jobs", type=worker_count, default=-1,
                   help="worker processes (default: all)")
    p.add_argument("--out", default="results/populations", help="results folder")
    p.add_argument("--force", action="store_true", help="replay instead of resuming")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--yes", action="store_true",
                   help="start a study even when it cannot finish within a day")
    p.set_defaults(func=cmd_populations)
