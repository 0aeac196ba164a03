"""What the searches that run only in the compiled core share (``rollout``, ``strong_v1``,
``ismcts``): the Python strategy builds the core's twin from its parameters, hands it the
position and the seat's random stream, and plays the action it returns, so the search
decides alike in both engines by construction.

>>> from hansa_lab.strategies.rollout import Rollout
>>> issubclass(Rollout, CoreSearch), Rollout.core_name
(True, 'rollout')
"""

from __future__ import annotations

from typing import Any, ClassVar

from hansa_lab.compiled.bridge import CoreGame, core_policy_named
from hansa_lab.engine.actions import Action
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import State
from hansa_lab.strategies.base import Strategy

__all__ = ["CoreSearch"]


class CoreSearch(Strategy):
    """A strategy whose decisions the core's ``CorePolicy`` of :attr:`core_name` makes
    (every parameter passed by name); a single legal action is played without asking."""

    trusted: ClassVar[bool] = True
    #: the name of this search in the compiled core
    core_name: ClassVar[str] = ""
    depth: int

    def setup(self) -> None:
        if self.depth not in (1, 2):
            raise ValueError(f"strategy {self.name!r}: depth must be 1 or 2, got {self.depth}")
        self._twin: Any = None

    def core_params(self) -> list[tuple[str, float]]:
        """The parameters as the core's ``CorePolicy`` reads them."""
        return [(k, float(v)) for k, v in self.params.items()]

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self._twin is None:
            self._twin = core_policy_named(self.core_name, self.core_params())
        # the game loop's own position: the core checks its fields, not its invariants
        out = CoreGame.from_state(state, check=False).choice_of(self._twin, rng.state)
        if out is None:  # pragma: no cover - the game loop never asks after the end
            raise RuntimeError(f"{self.name} asked to decide in a finished game")
        action, rng.state = out
        return legal[legal.index(action)]

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_twin"] = None  # the core object is rebuilt where the strategy plays
        return state
