"""The ``hansa-lab`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from .board import BOARD_FAMILIES, BOARD_SIDES
from .state import EDITIONS, GameConfig


class CliError(Exception):
    """A bad command-line argument (the message names it)."""


def _positive_int(name: str) -> Callable[[str], int]:
    def conv(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if v < 0:
            raise argparse.ArgumentTypeError(f"{name} must be >= 0, got {v}")
        return v

    return conv


def _add_game_args(p: argparse.ArgumentParser, players_default: int | None = None) -> None:
    p.add_argument("--players", type=_positive_int("--players"), default=players_default,
                   required=players_default is None, help="number of players (3-5)")
    p.add_argument("--board", default="base", help="base (default), or a side like base_3p")
    p.add_argument("--edition", default="bigbox", help="bonus-marker edition: bigbox|original")


def _config(args: argparse.Namespace, seed: int = 0) -> GameConfig:
    boards = [*BOARD_FAMILIES, *BOARD_SIDES]
    if args.board not in boards:
        raise CliError(f"--board: unknown board {args.board!r} (known: {', '.join(boards)})")
    if args.edition not in EDITIONS:
        raise CliError(f"--edition: must be one of {', '.join(EDITIONS)}, got {args.edition!r}")
    try:
        return GameConfig(n_players=args.players, board=args.board, edition=args.edition,
                          seed=seed)
    except ValueError as e:
        raise CliError(f"--players/--board: {e}") from e


def _strategies(text: str | None, n: int) -> list[str]:
    from .strategies import make_strategy

    names = [s for s in (text or "").split(",") if s] or ["random"]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise CliError(f"--strategies: {n} players need {n} strategies, got {len(names)}")
    for s in names:
        try:
            make_strategy(s)
        except ValueError as e:
            raise CliError(f"--strategies: {e}") from e
    return names


def cmd_play(args: argparse.Namespace) -> int:
    from .game import play_game

    config = _config(args, args.seed)
    strategies = _strategies(args.strategies, config.n_players)
    rec = play_game(config, strategies, check=args.check)
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


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import bench_engine

    config = _config(args)
    if args.seconds <= 0:
        raise CliError(f"--seconds must be positive, got {args.seconds}")
    out = bench_engine(config.n_players, args.seconds, args.board, args.edition)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    return 0


def cmd_main(args: argparse.Namespace) -> int:
    """The README's main job: a batch of seeded games per player count, summarised."""
    from collections import Counter

    from .game import play_game

    print("hansa-lab: 60 random games per player count (3, 4, 5 players), base board")
    for n in (3, 4, 5):
        wins = [0.0] * n
        reasons: Counter[str] = Counter()
        totals = [0] * n
        games = 60
        for seed in range(games):
            rec = play_game(GameConfig(n, seed=seed), ["random"] * n)
            res = rec.result()
            reasons[res["end_reason"]] += 1
            for w in res["winners"]:
                wins[w] += 1 / len(res["winners"])
            for pl in res["players"]:
                totals[pl["seat"]] += pl["total"]
        seats = "  ".join(
            f"seat {p + 1}: win {wins[p] / games:.0%} mean {totals[p] / games:.1f}"
            for p in range(n)
        )
        print(f"{n}p  end reasons {dict(reasons)}\n    {seats}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hansa-lab", description="Hansa Teutonica lab")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play one game and print its result")
    _add_game_args(p)
    p.add_argument("--seed", type=_positive_int("--seed"), default=0)
    p.add_argument("--strategies", default=None, help="comma-separated, one per seat")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--actions", action="store_true", help="include the action texts")
    p.add_argument("--check", action="store_true", help="run the invariant checker")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("bench", help="engine throughput with the random policy")
    _add_game_args(p, players_default=3)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("main", help="the README's main job")
    p.set_defaults(func=cmd_main)
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


if __name__ == "__main__":
    sys.exit(main())
