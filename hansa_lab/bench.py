"""Throughput benchmark of the engine with the baseline random policy (one process).

Prints figures; speed is never asserted by tests (the machine is shared and noisy).
"""

from __future__ import annotations

import pickle
import time
from typing import Any

from .game import play_game
from .state import GameConfig


def bench_engine(
    n_players: int = 3,
    seconds: float = 10.0,
    board: str = "base",
    edition: str = "bigbox",
    first_seed: int = 0,
) -> dict[str, Any]:
    """Play seeded random games until ``seconds`` pass; count applied actions
    (legal-action generation and the policy included)."""
    games = actions = capped = 0
    sizes: list[int] = []
    t0 = time.perf_counter()
    seed = first_seed
    while time.perf_counter() - t0 < seconds:
        rec = play_game(GameConfig(n_players, board, edition, seed), ["random"] * n_players)
        games += 1
        actions += len(rec.actions)
        capped += rec.end_reason == "cap"
        if len(sizes) < 20:
            sizes.append(len(pickle.dumps(rec.final)))
        seed += 1
    elapsed = time.perf_counter() - t0
    return {
        "players": n_players,
        "board": board,
        "edition": edition,
        "seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "games_per_s": round(games / elapsed, 3),
        "capped_games": capped,
        "state_pickle_bytes_max": max(sizes),
    }
