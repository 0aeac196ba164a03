"""Game lengths of shipped strategies on every board side and player count.

Issue 13 asks that no game between shipped strategies last more than 60 rounds. This
plays each line-up (one strategy in every seat, or a mixed table) on every board family
(base, East, Britannia) with every player count it takes, and tabulates the rounds per
board side and player count (:func:`hansa_lab.stats.play_style.game_lengths`): median, 90th
percentile, longest, the games over the limit with a Wilson interval, and how the games
ended. Summary logs suffice, so the run is light; ``strong`` seats make it slower (a
search: see the README's players table for its cost beside greedy's).

>>> sorted(set(TABLES))[:3]
[('base', 2), ('base', 3), ('base', 4)]
"""

from __future__ import annotations

import os
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
from hansa_lab.sim.runner import run_experiment
from hansa_lab.stats.play_style import game_lengths

__all__ = ["LENGTH_LINEUPS", "TABLES", "Lengths", "run_lengths"]

#: every board family with every player count it takes
TABLES: tuple[tuple[str, int], ...] = (
    ("base", 2), ("base", 3), ("base", 4), ("base", 5), ("east", 3), ("east", 4),
    ("east", 5), ("britannia", 3), ("britannia", 4), ("britannia", 5))

#: the default line-ups: every shipped strategy the core plays in every seat, and one
#: mixed table around ``strong`` (an n-player table seats the first n of the list)
LENGTH_LINEUPS: dict[str, list[str]] = {
    **{name: [name] for name in (
        "random", "greedy", "actions_first", "blocker", "network_keys", "keep_supply",
        "actions_rush", "keys_network", "coellen", "ability_control", "bank", "strong")},
    "mixed": ["strong", "actions_rush", "blocker", "keys_network", "greedy"],
}


@dataclass
class Lengths:
    """The length table of a run (one row per arm, board side and player count)."""

    table: pd.DataFrame
    #: the runs behind it, one per player count
    results: list[Results]
    limit: int
    command: str

    def text(self) -> str:
        cols = ["arm", "side", "n_players", "games", "rounds_median", "rounds_p90",
                "rounds_max", "over_limit", "over_hi", "end_prestige", "end_cities"]
        shown = self.table[cols].copy()
        for c in ("over_hi", "end_prestige", "end_cities"):
            shown[c] = shown[c].round(3)
        return format_table(shown)

    def worst(self) -> pd.DataFrame:
        """The rows with games over the limit, longest first."""
        bad = self.table[self.table["over_limit"] > 0]
        return bad.sort_values("rounds_max", ascending=False).reset_index(drop=True)


def run_lengths(
    lineups: dict[str, list[str]] | Sequence[str] | None = None,
    *,
    games: int = 12,
    limit: int = 60,
    seed: int = 0,
    n_jobs: int = 1,
    out: str | os.PathLike[str] | None = None,
    progress: bool = True,
    engine: str = DEFAULT_ENGINE,
    **execution: Any,
) -> Lengths:
    """Play ``games`` deals of each line-up (default :data:`LENGTH_LINEUPS`; a list of
    strategy names means one arm per name, that strategy in every seat) on every table of
    :data:`TABLES`, and tabulate the lengths. A line-up of several strategies seats its
    first n at an n-player table (repeating the list if it is shorter). One run per
    player count; ``out``: a results folder (the runs go to ``<out>/<n>p``), which also
    gets ``lengths.csv`` and ``lengths.md`` (with the command that made them).
    ``execution``: more options of :func:`~hansa_lab.sim.runner.run_experiment`
    (``force``, ``backend``, ``dask_address``, ``fail_fast``, ``decision_time_limit``)."""
    if out is not None:
        out = output_folder(out, "out")  # ~ expanded, checked before any game
    if not is_int(limit) or limit < 1:
        raise ExperimentError("limit", f"must be a positive number of rounds, got {limit!r}")
    if lineups is None:
        arms = dict(LENGTH_LINEUPS)
    elif isinstance(lineups, dict):
        arms = {k: list(v) for k, v in lineups.items()}
    else:
        arms = {name: [name] for name in lineups}
    if not arms:
        raise ExperimentError("strategies", "no line-up to play")
    if not is_int(games) or games < 1:
        raise ExperimentError("games", f"must be a positive integer, got {games!r}")
    first = next(iter(arms))
    runs = []
    for n in sorted({n for _, n in TABLES}):
        # a mixed line-up seats its first n strategies (repeated if it has fewer)
        seated = {k: [v[i % len(v)] for i in range(n)] if len(v) > 1 else v
                  for k, v in arms.items()}
        conditions = [{"players": n, "board": board} for board, m in TABLES if m == n]
        spec = {"name": f"lengths_{n}p", "games": games, "seed": seed, "log": "summary",
                "arms": seated, "base_arm": first, "conditions": conditions,
                "engine": engine}
        folder = None if out is None else Path(out) / f"{n}p"
        runs.append(run_experiment(spec, n_jobs=n_jobs, out=folder, progress=progress,
                                   **execution))
    games_table = pd.concat([r.games for r in runs], ignore_index=True)
    table = game_lengths(games_table, by=["arm", "side", "n_players"], limit=limit)
    order = {name: i for i, name in enumerate(arms)}
    table = table.sort_values(["arm", "side", "n_players"], key=lambda c: c.map(order)
                              if c.name == "arm" else c).reset_index(drop=True)
    names = ",".join(arms) if all(v == [k] for k, v in arms.items()) else "(default)"
    command = f"hansa-lab lengths --strategies {names} --games {games} --seed {seed}"
    lengths = Lengths(table=table, results=runs, limit=limit, command=command)
    if out is not None:
        folder = Path(out)
        table.to_csv(folder / "lengths.csv", index=False)
        (folder / "lengths.md").write_text(
            f"Game lengths: {len(games_table)} games, limit {limit} rounds\n\n"
            f"```\n{command}\n```\n\n```\n{lengths.text()}\n```\n", encoding="utf-8")
    return lengths
