"""Draw balance by skill (win share by seat along the skill ladder) for 3, 4 and 5 players
on the base board into docs/screenshots/balance_by_skill.png (issue 39).

Each player count is the seat study of ``hansa-lab populations --ladder --players N
--questions seats --games G --seed S --out RUNS/base_Np``: this script asks the same study
of the same folders (it resumes them, so after those commands nothing is played; a missing
folder is played here), prints each player count's convergence sentence, and draws the
three panels with :func:`hansa_lab.stats.plot_skill.plot_seats_by_rung` at the 100 dpi a
notebook shows figures at. It also prints each player count's win shares by seat, rung by
rung, as a Markdown table (the one in docs/results/skill_ladder.md).

Run: .venv/bin/python scripts/make_balance_by_skill.py --games 200 --seed 8300000
     [--runs results/balance_by_skill] [--players 3,4,5] [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from hansa_lab.stats import plot_style
from hansa_lab.stats.answers import seat_name
from hansa_lab.stats.plot_skill import plot_seats_by_rung
from hansa_lab.studies.populations import compare_populations, ladder_populations

ROOT = Path(__file__).resolve().parents[1]


def seat_table(table: pd.DataFrame, rungs: Sequence[str]) -> list[str]:
    """Markdown: one row per rung (novice first), each seat's win share [Wilson 95%]."""
    part = table[table["question"] == "seats"].set_index("population")
    n = len(part.loc[rungs[0], "seats"])
    lines = ["| rung | games | " + " | ".join(seat_name(s) for s in range(n)) + " |",
             "|---|---:|" + "---|" * n]
    for r in rungs:
        cells = [f"{x:.1%} [{lo:.1%}, {hi:.1%}]".replace("%", "")
                 for _, x, lo, hi in part.loc[r, "seats"]]
        lines.append(f"| {r} | {part.loc[r, 'games']} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, required=True, help="games per rung")
    parser.add_argument("--seed", type=int, required=True, help="first seed")
    parser.add_argument("--players", default="3,4,5", help="player counts, one panel each")
    parser.add_argument("--runs", type=Path, default=Path("results/balance_by_skill"),
                        help="the studies' folders: RUNS/base_3p, RUNS/base_4p, ...")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    ladders = {}
    for n in counts:
        study = compare_populations(ladder_populations("base", n), questions=["seats"],
                                    games=args.games, players=n, seed=args.seed,
                                    out=args.runs / f"base_{n}p", n_jobs=args.jobs,
                                    ladder=True)
        for c in study.convergence:
            print(f"{n} players: {c.text}")
        print("\n".join(seat_table(study.answers, study.rungs)) + "\n")
        ladders[n] = (study.answers, study.rungs)
    fig = plot_seats_by_rung(ladders)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "balance_by_skill.png"
    fig.savefig(path, dpi=plot_style.NOTEBOOK_DPI, bbox_inches="tight")
    print(path)


if __name__ == "__main__":
    main()
