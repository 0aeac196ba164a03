"""The ladder: shipped strategies against each other in mixed, seat-rotated tables, rated
with Plackett–Luce (:func:`hansa_lab.stats.plackett_luce`).

Design: every combination of ``n_players`` distinct strategies is one table (an arm of the
run); each table plays ``deals`` deals in all its seat rotations, so every strategy sits
in every seat equally often against every set of opponents. The placements of all games
give one rating per strategy (Elo-like scale: 400 points = odds of 10:1; centred on the
mean of the rated strategies) with percentile-bootstrap intervals over games.

>>> tables_of(["a", "b", "c"], 2)
[('a', 'b'), ('a', 'c'), ('b', 'c')]
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from hansa_lab.errors import ExperimentError
from hansa_lab.sim.results import Results, format_table
from hansa_lab.sim.runner import simulate
from hansa_lab.stats.ratings import plackett_luce

__all__ = ["LADDER_STRATEGIES", "Ladder", "run_ladder", "tables_of"]

#: The default ladder: every strategy the compiled core plays (``mcts``, which searches
#: in Python, can be added with ``strategies=[..., "mcts"]``; it makes the run slow).
LADDER_STRATEGIES = ("random", "greedy", "actions_first", "blocker", "network_keys",
                     "keep_supply")


def tables_of(strategies: Sequence[str], n_players: int) -> list[tuple[str, ...]]:
    """Every table of ``n_players`` distinct strategies, in a fixed order."""
    return list(itertools.combinations(strategies, n_players))


@dataclass
class Ladder:
    """A ladder's ratings and the run behind them."""

    ratings: pd.DataFrame
    results: Results
    command: str

    def table(self) -> str:
        """The ratings as a text table, best first."""
        cols = ["strategy", "elo", "elo_lo", "elo_hi", "games", "firsts", "win_share"]
        return format_table(self.ratings[cols])

    def plot(self, save: str | os.PathLike[str] | None = None) -> Any:
        from hansa_lab.stats.plots import plot_ratings

        return plot_ratings(self.ratings, save=save)


def run_ladder(
    strategies: Sequence[str] = LADDER_STRATEGIES,
    *,
    n_players: int = 4,
    deals: int = 10,
    board: str = "base",
    edition: str = "bigbox",
    seed: int = 0,
    n_jobs: int = 1,
    out: str | os.PathLike[str] | None = None,
    progress: bool = True,
    engine: str = "core",
    n_boot: int = 1000,
) -> Ladder:
    """Play the ladder (see the module doc) and rate the strategies. ``out``: a results
    folder; the ratings are also written there as ``ladder.csv``, ``ladder.md`` (with
    the command that made them) and ``ladder.png``."""
    names = list(dict.fromkeys(strategies))
    if len(names) < n_players:
        raise ExperimentError("strategies", f"a {n_players}-player ladder needs at least "
                                            f"{n_players} distinct strategies, got {names}")
    if deals < 1:
        raise ExperimentError("deals", f"must be a positive integer, got {deals!r}")
    arms = {"|".join(t): list(t) for t in tables_of(names, n_players)}
    res = simulate(arms, n_games=deals * n_players, n_players=n_players, board=board,
                   edition=edition, seed=seed, n_jobs=n_jobs, out=out, name="ladder",
                   progress=progress, log="summary", engine=engine)
    players = res.players
    ratings = plackett_luce(players, by="strategy", n_boot=n_boot, seed=seed)
    shares = players.groupby("strategy")["win_share"].mean()
    ratings["win_share"] = ratings["strategy"].map(shares).round(3)
    ratings = ratings.sort_values("elo", ascending=False).reset_index(drop=True)
    for c in ("elo", "elo_lo", "elo_hi"):
        ratings[c] = ratings[c].round(0).astype("Int64")
    command = (f"hansa-lab ladder --strategies {','.join(names)} --players {n_players} "
               f"--deals {deals} --board {board} --edition {edition} --seed {seed}")
    ladder = Ladder(ratings=ratings, results=res, command=command)
    if out is not None:
        folder = Path(out)
        ratings.to_csv(folder / "ladder.csv", index=False)
        games = len(res.games)
        (folder / "ladder.md").write_text(
            f"Ladder: {len(arms)} tables x {deals} deals x {n_players} seat rotations = "
            f"{games} games\n\n```\n{command}\n```\n\n```\n{ladder.table()}\n```\n",
            encoding="utf-8")
        ladder.plot(save=folder / "ladder.png")
    return ladder
