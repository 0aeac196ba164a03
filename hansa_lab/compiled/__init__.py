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

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # games' names, for type checkers; at run time see __getattr__
    from hansa_lab.compiled.games import *  # noqa: F403


def __getattr__(name: str) -> Any:
    """A name of :mod:`hansa_lab.compiled.games` (its ``__all__``), imported on first use.
    (``import_module``, not ``from hansa_lab.compiled import games``: that form asks this
    function for ``games`` itself before the submodule is loaded.)"""
    games = import_module("hansa_lab.compiled.games")
    if name in games.__all__:
        return getattr(games, name)
    raise AttributeError(f"module 'hansa_lab.compiled' has no attribute {name!r}")


def __dir__() -> list[str]:
    games = import_module("hansa_lab.compiled.games")
    return sorted([*globals(), *games.__all__])
