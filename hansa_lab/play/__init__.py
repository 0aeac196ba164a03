"""Playing and replaying games: (configuration, seed, actions) → the same game, in
either rules engine.

- :mod:`hansa_lab.play.loop` — the game loop every engine shares (:class:`Game`,
  :func:`run_game`, the decision clock) and the finished game's :class:`GameRecord`;
- :mod:`hansa_lab.play.python_game` — the Python engine's game, :func:`replay` and
  :func:`states_of`;
- :mod:`hansa_lab.play.core_game` — the compiled core's games, :func:`play_match` (logs
  built in the core) and the core twins of the strategies;
- :mod:`hansa_lab.play.engines` — the engines' table (:data:`ENGINES`) and the one
  :func:`play_game` / :func:`play_on` built from it.

>>> from hansa_lab.engine.state import GameConfig
>>> rec = play_game(GameConfig(n_players=3, seed=5), ["random"] * 3)
>>> rec.end_reason in ("prestige", "markers", "cities")
True
>>> replay(rec.config, rec.actions).n_actions == len(rec.actions)
True
"""

from __future__ import annotations

from hansa_lab.play.engines import (
    DEFAULT_ENGINE,
    ENGINES,
    REFERENCE_ENGINE,
    Engine,
    engine_named,
    per_engine,
    play_game,
    play_on,
)
from hansa_lab.play.loop import (
    DEFAULT_DECISION_TIME_LIMIT,
    DEFAULT_MAX_ACTIONS,
    DecisionClock,
    Game,
    GameRecord,
    checked_seed,
    run_game,
    seat_players,
)
from hansa_lab.play.python_game import PythonGame, replay, states_of

__all__ = [
    "DEFAULT_DECISION_TIME_LIMIT",
    "DEFAULT_ENGINE",
    "DEFAULT_MAX_ACTIONS",
    "ENGINES",
    "REFERENCE_ENGINE",
    "DecisionClock",
    "Engine",
    "Game",
    "GameRecord",
    "PythonGame",
    "checked_seed",
    "engine_named",
    "per_engine",
    "play_game",
    "play_on",
    "replay",
    "run_game",
    "seat_players",
    "states_of",
]
