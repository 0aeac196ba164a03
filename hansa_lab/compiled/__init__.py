"""The compiled rules core (the Rust crate in ``core/``, built as ``hansa_lab._core``) as
seen from Python, in two modules on two levels of the package:

- :mod:`hansa_lab.compiled.bridge` — a single core position (:class:`CoreGame`) and its
  conversion to and from the engine's :class:`~hansa_lab.engine.state.State`, the
  resolved configuration the core receives; on the engine's level, so strategies may
  use it;
- :mod:`hansa_lab.compiled.games` — whole games through the core (``play_game``,
  ``play_on``, ``play_match`` with the logs built in the core), the core twins of the
  package's strategies; on the level of :mod:`hansa_lab.play`.

``from hansa_lab import compiled`` then ``compiled.play_game(...)`` reads the names of
:mod:`~hansa_lab.compiled.games` on first use: this package imports nothing at import
time, so that the engine-level ``bridge`` can be imported from below the strategies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below, for type checkers; at run time see __getattr__
    from hansa_lab.compiled.games import (
        CORE_STRATEGIES,
        CheckedCoreGame,
        CoreGame,
        CoreMatchGame,
        MatchResult,
        available,
        core_policy,
        play_game,
        play_match,
        play_on,
        play_random_game,
        play_random_games,
        state_fields,
        timings,
        turn_columns,
    )

__all__ = [
    "CORE_STRATEGIES",
    "CheckedCoreGame",
    "CoreGame",
    "CoreMatchGame",
    "MatchResult",
    "available",
    "core_policy",
    "play_game",
    "play_match",
    "play_on",
    "play_random_game",
    "play_random_games",
    "state_fields",
    "timings",
    "turn_columns",
]


def __getattr__(name: str) -> Any:
    """A name of :mod:`hansa_lab.compiled.games`, imported on first use."""
    if name in __all__:
        from hansa_lab.compiled import games

        return getattr(games, name)
    raise AttributeError(f"module 'hansa_lab.compiled' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
