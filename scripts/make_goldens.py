"""Regenerate the golden playthroughs and the perft counts (on purpose only).

    python scripts/make_goldens.py                    # replay what the files record
    python scripts/make_goldens.py --new-games        # play the golden games afresh
    python scripts/make_goldens.py --new-positions    # pick the perft positions afresh
    python scripts/make_goldens.py --games NAME ...   # only these golden games (no perft)

Writes ``tests/data/golden/*.txt`` and ``tests/data/perft.txt``. By default the golden
games replay the actions their files record and the perft file keeps its positions, so
only a rules change alters them; it shows up as a diff, reviewed before regenerating.
``--new-games`` plays each golden game with its strategies (a new game, or after a change
to the recorded games on purpose); ``--new-positions`` picks the perft positions again
from the golden games and a few seeded random games.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hansa_lab.engine.perft import perft  # noqa: E402
from hansa_lab.engine.position import from_text, to_text  # noqa: E402
from hansa_lab.engine.rules import apply, legal_actions  # noqa: E402
from hansa_lab.engine.state import GameConfig, State, new_game  # noqa: E402
from hansa_lab.golden import (  # noqa: E402
    GOLDEN_GAMES,
    PerftPosition,
    golden_lines,
    played_actions,
    read_perft_file,
    recorded_actions,
)
from hansa_lab.play import play_game  # noqa: E402

OUT = ROOT / "tests" / "data"
PERFT_FILE = OUT / "perft.txt"
PERFT_DEPTHS = (1, 2, 3)
PERFT_HEADER = (
    "# Saved positions (docs/guides/positions.md) and their perft counts at depths 1,2,3:\n"
    "# name d1,d2,d3 position. Written by scripts/make_goldens.py; checked by\n"
    "# tests/test_perft.py in the Python engine and the compiled core.\n"
)
_EMPEROR = (("emperor", True),)
_ALTERNATIVE = (("east_alternative", True),)
_TUNED = (("control_points", 3), ("prestige_to_end", 15), ("start_supply", 4))

#: (name, configuration, number of random-policy actions played) of the perft positions
#: that are not taken from the golden games (the starts, mid and late games, variants).
RANDOM_POSITIONS: list[tuple[str, GameConfig, int]] = [
    ("base3p_start", GameConfig(3, "base", "bigbox", 1), 0),
    ("base3p_after40", GameConfig(3, "base", "bigbox", 1), 40),
    ("base3p_after150", GameConfig(3, "base", "bigbox", 2), 150),
    ("base4p_after120_original", GameConfig(4, "base", "original", 3), 120),
    ("base5p_after200", GameConfig(5, "base", "bigbox", 4), 200),
    ("base5p_after400", GameConfig(5, "base", "bigbox", 5), 400),
    ("east3_start", GameConfig(3, "east", "bigbox", 1), 0),
    ("east4_alternative_after150", GameConfig(4, "east", "original", 2, _ALTERNATIVE), 150),
    ("britannia3_start", GameConfig(3, "britannia", "bigbox", 1), 0),
    ("britannia4_after200", GameConfig(4, "britannia", "bigbox", 3), 200),
    ("two_players_start", GameConfig(2, "base", "bigbox", 1), 0),
    ("two_players_after300", GameConfig(2, "base", "original", 4), 300),
    ("emperor3_after200", GameConfig(3, "base", "bigbox", 6, _EMPEROR), 200),
    ("tuned3_after60", GameConfig(3, "base", "bigbox", 7, _TUNED), 60),
]
#: emperor games (seeds 0 …) searched for a pending decision the golden games lack
SCAN_SEEDS = 200
#: the kinds of pending decision a perft position of the golden games has on top
PENDING_KINDS = ("relocate", "relocate_neutral", "move", "move3", "remove3", "place_marker",
                 "permanent", "favour_income")


def golden_states(name: str, config: GameConfig) -> Iterator[State]:
    """Every position of a golden game, from the actions its file records."""
    lines = (OUT / "golden" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    state = new_game(config)
    yield state
    for action in recorded_actions(state.board, lines):
        state = apply(state, action)
        yield state


def picked_positions() -> list[tuple[str, State]]:
    """The perft positions: seeded random games' positions, then from the golden games
    the position with the fewest legal actions for each kind of pending decision (so
    that the Python engine counts its depth 3 in seconds), the first where Coellen's
    special-prestige spaces can be taken, and the last before each game ended."""
    out: list[tuple[str, State]] = []
    for name, config, n in RANDOM_POSITIONS:
        rec = play_game(config, ["random"] * config.n_players, max_actions=n)
        state = new_game(config)
        for a in rec.actions:
            state = apply(state, a)
        out.append((name, state))
    fewest: dict[str, tuple[int, str, State]] = {}  # kind -> (legal actions, name, state)

    def consider(game: str, i: int, s: State) -> None:
        kind = s.pending[-1].KIND if s.pending else None
        if kind is not None:
            n = len(legal_actions(s))
            if kind not in fewest or n < fewest[kind][0]:
                fewest[kind] = (n, f"{game}_step{i}_{kind}", s)

    coellen = False
    for name, config, _ in GOLDEN_GAMES:
        states = list(golden_states(name, config))
        for i, s in enumerate(states):
            consider(name, i, s)
            special = [a for a in legal_actions(s) if a.kind == "establish" and a.b == 4]
            if not coellen and special:
                coellen = True
                out.append((f"{name}_step{i}_coellen", s))
        out.append((f"{name}_late", states[-2]))
    for seed in range(SCAN_SEEDS):  # decisions the golden games lack: seeded random games
        if set(PENDING_KINDS) <= set(fewest):
            break
        config = GameConfig(4, "base", "bigbox", seed, _EMPEROR)
        s = new_game(config)
        for i, a in enumerate(play_game(config, ["random"] * 4).actions):
            consider(f"emperor4_seed{seed}", i, s)
            s = apply(s, a)
    wanted = set(PENDING_KINDS) - set(fewest)
    out.extend((name, s) for kind, (_, name, s) in sorted(fewest.items())
               if kind in PENDING_KINDS)
    if wanted:
        raise SystemExit(f"no golden game has a pending {sorted(wanted)} decision")
    return out


def write_goldens(new_games: bool, only: list[str] | None = None) -> None:
    """Write the golden files (of the games named in ``only``, by default all)."""
    names = [name for name, _, _ in GOLDEN_GAMES]
    unknown = sorted(set(only or ()) - set(names))
    if unknown:
        raise SystemExit(f"no golden game named {', '.join(unknown)} (names: {', '.join(names)})")
    (OUT / "golden").mkdir(parents=True, exist_ok=True)
    for name, config, strategies in GOLDEN_GAMES:
        if only is not None and name not in only:
            continue
        path = OUT / "golden" / f"{name}.txt"
        if new_games or not path.exists():
            actions = played_actions(config, strategies)
        else:
            lines = path.read_text(encoding="utf-8").splitlines()
            actions = recorded_actions(config.load_board(), lines)
        text = "\n".join(golden_lines(config, strategies, actions)) + "\n"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


def write_perft(new_positions: bool) -> None:
    if new_positions or not PERFT_FILE.exists():
        states = picked_positions()
    else:
        saved = read_perft_file(PERFT_FILE.read_text(encoding="utf-8"))
        states = [(p.name, from_text(p.text)) for p in saved]
    rows = []
    for name, state in states:
        counts = tuple(perft(state, d) for d in PERFT_DEPTHS)
        rows.append(PerftPosition(name, counts, to_text(state)).line())
        print(f"  {name}: {counts}", flush=True)
    PERFT_FILE.write_text(PERFT_HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    print(f"wrote {PERFT_FILE.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new-games", action="store_true",
                        help="play the golden games with their strategies again")
    parser.add_argument("--new-positions", action="store_true",
                        help="pick the perft positions again")
    parser.add_argument("--games", nargs="+", metavar="NAME",
                        help="write only these golden games (a new one is played) and "
                             "leave the perft file as it is")
    args = parser.parse_args()
    write_goldens(args.new_games, args.games)
    if args.games is None:
        write_perft(args.new_positions)


if __name__ == "__main__":
    main()
