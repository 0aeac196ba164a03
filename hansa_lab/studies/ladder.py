"""The ladder: shipped strategies against each other in mixed, seat-rotated tables, rated
with Plackett–Luce (:func:`hansa_lab.stats.plackett_luce`).

Design: every combination of ``n_players`` distinct strategies is one table (an arm of the
run); each table plays ``deals`` deals in all its seat rotations, so every strategy sits
in every seat equally often against every set of opponents. With many strategies
(12 shipped ones make 495 four-player tables) ``tables`` keeps a balanced subset: each
strategy sits at as equal a number of tables as possible, and each pair of strategies
meets as evenly as the subset allows (:func:`balanced_tables`). The placements of all games
give one rating per strategy (Elo-like scale: 400 points = odds of 10:1; centred on the
mean of the rated strategies) with percentile-bootstrap intervals over games.

>>> tables_of(["a", "b", "c"], 2)
[('a', 'b'), ('a', 'c'), ('b', 'c')]
>>> sorted(balanced_tables(["a", "b", "c", "d"], 2, 2, seed=1))
[('a', 'd'), ('b', 'c')]
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from hansa_lab.errors import ExperimentError
from hansa_lab.play import DEFAULT_ENGINE
from hansa_lab.sim.experiment import is_int
from hansa_lab.sim.paths import output_folder
from hansa_lab.sim.results import Results, format_table
from hansa_lab.sim.runner import simulate
from hansa_lab.stats.ratings import plackett_luce

__all__ = ["LADDER_STRATEGIES", "Ladder", "balanced_tables", "run_ladder", "tables_of"]

#: The default ladder: every shipped strategy the compiled core plays: the baselines, the
#: four seed tips, the five expert archetypes and ``strong`` (the rollout with learned
#: leaves, at its default budget). ``rollout``, ``strong_v1`` and ``mcts`` (which searches
#: in Python) can be added with ``strategies=[..., "mcts"]``; they make the run slow.
LADDER_STRATEGIES = ("random", "greedy", "actions_first", "blocker", "network_keys",
                     "keep_supply", "actions_rush", "keys_network", "coellen",
                     "ability_control", "bank", "strong")


def tables_of(strategies: Sequence[str], n_players: int) -> list[tuple[str, ...]]:
    """Every table of ``n_players`` distinct strategies, in a fixed order."""
    return list(itertools.combinations(strategies, n_players))


def balanced_tables(strategies: Sequence[str], n_players: int, tables: int,
                    seed: int = 0) -> list[tuple[str, ...]]:
    """At most ``tables`` of the tables of :func:`tables_of`, chosen one by one: next is
    the table whose strategies have sat at the fewest tables so far, then whose pairs have
    met least (ties in an order shuffled by ``seed``). All of them if there are no more."""
    every = tables_of(strategies, n_players)
    if tables >= len(every):
        return every
    random.Random(seed).shuffle(every)
    seats = dict.fromkeys(strategies, 0)
    pairs: dict[tuple[str, str], int] = {}
    chosen: list[tuple[str, ...]] = []
    left = every
    for _ in range(tables):
        def cost(t: tuple[str, ...]) -> tuple[int, int, int]:
            met = sum(pairs.get(p, 0) for p in itertools.combinations(t, 2))
            return max(seats[x] for x in t), sum(seats[x] for x in t), met
        best = min(range(len(left)), key=lambda i: cost(left[i]))
        t = left.pop(best)
        chosen.append(t)
        for x in t:
            seats[x] += 1
        for p in itertools.combinations(t, 2):
            pairs[p] = pairs.get(p, 0) + 1
    return chosen


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
    tables: int | None = None,
    board: str = "base",
    edition: str = "bigbox",
    seed: int = 0,
    n_jobs: int = 1,
    out: str | os.PathLike[str] | None = None,
    progress: bool = True,
    engine: str = DEFAULT_ENGINE,
    n_boot: int = 1000,
    **execution: Any,
) -> Ladder:
    """Play the ladder (see the module doc) and rate the strategies. ``tables``: at most
    this many tables (:func:`balanced_tables`; None: every combination). ``out``: a results
    folder; the ratings are also written there as ``ladder.csv``, ``ladder.md`` (with
    the command that made them) and ``ladder.png``. ``execution``: more options of
    :func:`~hansa_lab.sim.runner.simulate` (``force``, ``backend``, ``dask_address``,
    ``fail_fast``, ``decision_time_limit``)."""
    if out is not None:
        out = output_folder(out, "out")  # ~ expanded, checked before any game
    if not is_int(n_players) or not 2 <= n_players <= 5:
        raise ExperimentError("n_players", f"must be 2-5, got {n_players!r}")
    names = list(dict.fromkeys(strategies))
    if len(names) < n_players:
        raise ExperimentError("strategies", f"a {n_players}-player ladder needs at least "
                                            f"{n_players} distinct strategies, got {names}")
    if not is_int(deals) or deals < 1:
        raise ExperimentError("deals", f"must be a positive integer, got {deals!r}")
    if tables is not None and (not is_int(tables) or tables < 1):
        raise ExperimentError("tables", f"must be a positive integer, got {tables!r}")
    chosen = (tables_of(names, n_players) if tables is None
              else balanced_tables(names, n_players, tables, seed=seed))
    arms = {"|".join(t): list(t) for t in chosen}
    res = simulate(arms, n_games=deals * n_players, n_players=n_players, board=board,
                   edition=edition, seed=seed, n_jobs=n_jobs, out=out, name="ladder",
                   progress=progress, log="summary", engine=engine, **execution)
    players = res.players
    ratings = plackett_luce(players, by="strategy", n_boot=n_boot, seed=seed)
    shares = players.groupby("strategy")["win_share"].mean()
    ratings["win_share"] = ratings["strategy"].map(shares).round(3)
    ratings = ratings.sort_values("elo", ascending=False).reset_index(drop=True)
    for c in ("elo", "elo_lo", "elo_hi"):
        ratings[c] = ratings[c].round(0).astype("Int64")
    command = (f"hansa-lab ladder --strategies {','.join(names)} --players {n_players} "
               f"--deals {deals}" + (f" --tables {tables}" if tables is not None else "")
               + f" --board {board} --edition {edition} --seed {seed}")
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
