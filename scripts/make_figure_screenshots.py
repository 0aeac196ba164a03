"""Draw the notebooks' figures at notebook width into docs/screenshots/ (issue 41).

Small real runs shaped like notebooks 03 and 04 (a few minutes' worth of games cut down
to about a minute), each figure called as the notebook calls it and written as a PNG at
the 100 dpi a notebook shows it at, so each image is what a reader sees in JupyterLab.

Run: .venv/bin/python scripts/make_figure_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pandas as pd

from hansa_lab import run_experiment, simulate, stats
from hansa_lab.stats import plot_style, plots, plots_mechanism

ROOT = Path(__file__).resolve().parents[1]

#: notebook 04's line-ups
LINEUPS = {3: ["greedy", "network_keys", "random"],
           4: ["greedy", "network_keys", "random", "blocker"],
           5: ["greedy", "network_keys", "random", "blocker", "actions_first"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        runs = {n: simulate(lineup, n_games=60, n_players=n, seed=2000, n_jobs=1,
                            progress=False, out=Path(tmp) / f"breakdowns_{n}p")
                for n, lineup in LINEUPS.items()}
        players = pd.concat([stats.with_games(r.players, r.games) for r in runs.values()],
                            ignore_index=True)
        events = pd.concat([r.events for r in runs.values()], ignore_index=True)
        seats = run_experiment(ROOT / "experiments" / "seat_balance.toml", games=60,
                               out=Path(tmp) / "seat_balance", n_jobs=1, progress=False)
        first = run_experiment({"name": "first_seat", "games": 80, "players": 4,
                                "log": "full", "arms": {"greedy": ["greedy"]}},
                               out=Path(tmp) / "first_seat", n_jobs=1, progress=False)
        mechanism = stats.first_seat_mechanism(first.games, first.players, first.events,
                                               first.turns)
        figures = {
            "figure_composition.png": plots.plot_score_composition(
                players, by="strategy", split="n_players"),
            "figure_breakdown.png": plots.plot_score_breakdown(
                players, by="strategy", split="n_players"),
            "figure_ability_timing.png": plots.plot_ability_timing(events, players),
            "figure_seats.png": plots.plot_seat_advantage(
                stats.seat_advantage(seats.players, seats.games)),
            "figure_mechanism.png": plots_mechanism.plot_first_seat_mechanism(mechanism),
        }
    for name, fig in figures.items():
        fig.savefig(out / name, dpi=plot_style.NOTEBOOK_DPI, bbox_inches="tight")
        print(out / name)


if __name__ == "__main__":
    main()
