"""Paired batches from the runner for sequential tests: :func:`runner_batches` plays new
deals of paired arms on demand, for :func:`hansa_lab.stats.sequential_compare`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from hansa_lab.sim.runner import simulate
from hansa_lab.stats.tables import lineup_period

__all__ = ["runner_batches"]


def _spec_key(spec: Any) -> str:
    return spec if isinstance(spec, str) else repr(sorted(dict(spec).items()))


def runner_batches(
    arms: Mapping[str, Sequence[Any]],
    *,
    n_players: int = 4,
    seed: int = 0,
    **simulate_kwargs: Any,
) -> Callable[[int], tuple[pd.DataFrame, pd.DataFrame]]:
    """A ``run_batch`` for :func:`hansa_lab.stats.sequential_compare` that plays paired
    arms with :func:`hansa_lab.sim.runner.simulate` (in memory; ``log="summary"`` and no
    progress bar unless overridden in ``simulate_kwargs``).

    A call with ``n`` plays ``n`` new deals (the pairs of the sequential test), each arm
    in all its line-up's distinct seat rotations — one ``simulate`` per arm on the same
    seeds, so an all-same base arm plays one game per deal and a tip arm ``n_players``.
    Seeds continue where the previous batch stopped and game ids are offset to stay
    unique across batches. Returns ``(players, games)``; pass
    ``arm_a``/``arm_b`` (and ``focal``) to :func:`~hansa_lab.stats.sequential_compare`.

    >>> run = runner_batches({"tip": ["random:gather=false", "random"], "base": ["random"]},
    ...                      n_players=2)
    >>> players, games = run(1)
    >>> games[["arm", "game_id", "seed", "rotation"]]
        arm  game_id  seed  rotation
    0   tip        0     0         0
    1   tip        1     0         1
    2  base        2     0         0
    >>> run(2)[1].seed.tolist()
    [1, 1, 2, 2, 1, 2]
    """
    kwargs: dict[str, Any] = {"progress": False, "log": "summary", **simulate_kwargs}
    periods = {arm: lineup_period([_spec_key(lu[i % len(lu)]) for i in range(n_players)])
               for arm, lu in arms.items()}
    next_seed, next_id = seed, 0

    def run(n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
        nonlocal next_seed, next_id
        deals = max(1, int(n))
        players, games = [], []
        for arm, lineup in arms.items():
            res = simulate({arm: list(lineup)}, n_games=deals * periods[arm],
                           n_players=n_players, seed=next_seed, **kwargs)
            g, p = res.games.copy(), res.players.copy()
            g["game_id"] += next_id
            p["game_id"] += next_id
            next_id += int(res.games["game_id"].max()) + 1 if len(res.games) else 0
            players.append(p)
            games.append(g)
        next_seed += deals
        return (pd.concat(players, ignore_index=True), pd.concat(games, ignore_index=True))

    return run
