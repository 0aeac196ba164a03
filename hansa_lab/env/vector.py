"""The core's vector environment: many games stepped in one call, for self-play data.

Every environment holds one game; a call applies one action per environment (an integer
of the :mod:`action index <hansa_lab.env.action_index>`, or ``-1`` for the shipped
``random`` strategy's choice, drawn in the core: uniform among the legal actions with that
strategy's biases, e.g. a completed route is established, as in the plain random games)
and writes, for the seat to act next, its observation and
legal-action mask; a finished game writes its rank rewards ``(n - rank) / (n - 1)`` per
seat and its done flag, and is replaced at once by a new game (auto-reset), whose first
position the arrays then hold. The stepping runs in the core with the GIL released, on
``threads`` threads (a pool started with the environment; the calling thread is one of
them, and the games are shared out in blocks, so a thread the machine schedules late is
not waited for). Game seeds and random actions come from one stream per environment
(from ``seed``, an integer ``0 … 2**63 - 1``: ValueError naming any other, never wrapped),
so the same seed gives the same games on any thread count.

The arrays of a :class:`VectorStep` are the environment's own buffers, overwritten by the
next call (as in envpool and PufferLib): copy what you keep (:meth:`VectorStep.copy`), and
do not write into them: a step rewrites only the parts of a row that changed (the posts
and offices of the observation, the mask entries of the previous legal actions).

>>> venv = VectorEnv(n_envs=4, n_players=3, seed=1)
>>> out = venv.reset()
>>> out.obs.shape, out.mask.shape[0], out.to_act.tolist()
((4, 1439), 4, [0, 0, 0, 0])
>>> out = venv.step([-1, -1, -1, -1])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from hansa_lab.compiled.bridge import core_max_envs, core_max_threads, core_vector_env
from hansa_lab.env.aec import make_config
from hansa_lab.env.inputs import action_array, seed_integer

__all__ = ["VectorEnv", "VectorStep"]


@dataclass(frozen=True)
class VectorStep:
    """One call's results, one row per environment."""

    obs: np.ndarray  #: (n_envs, obs_size) float32: the observation of the seat to act
    mask: np.ndarray  #: (n_envs, n_actions) uint8: its legal actions
    rewards: np.ndarray  #: (n_envs, n_players) float32: rank rewards of a finished game
    terminated: np.ndarray  #: (n_envs,) bool: the game ended (then auto-reset)
    truncated: np.ndarray  #: (n_envs,) bool: the game reached max_actions (auto-reset)
    to_act: np.ndarray  #: (n_envs,) int32: the seat the observation and mask are for

    def copy(self) -> VectorStep:
        return VectorStep(**{f.name: getattr(self, f.name).copy() for f in fields(self)})


class VectorEnv:
    """``n_envs`` games of one configuration stepped together in the core."""

    def __init__(self, n_envs: int, n_players: int = 3, board: str = "base",
                 edition: str = "bigbox", options: dict[str, Any] | None = None,
                 seed: int = 0, max_actions: int = 20_000, threads: int = 1) -> None:
        for name, v, top in (("n_envs", n_envs, core_max_envs()),
                             ("max_actions", max_actions, 2**31 - 1),
                             ("threads", threads, core_max_threads())):
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
                raise ValueError(f"{name} must be an int 1-{top}, got {v!r}")
        seed = seed_integer(seed, "VectorEnv")
        self.config = make_config(n_players, board, edition, options)
        self._env = core_vector_env(self.config, n_envs, seed, max_actions, threads)
        self.n_envs = n_envs
        self.n_players = n_players
        self.threads = threads
        self.obs_size: int = self._env.obs_size
        self.n_actions: int = self._env.n_actions
        self._obs = np.zeros((n_envs, self.obs_size), np.float32)
        self._mask = np.zeros((n_envs, self.n_actions), np.uint8)
        self._rewards = np.zeros((n_envs, n_players), np.float32)
        self._terminated = np.zeros(n_envs, np.uint8)
        self._truncated = np.zeros(n_envs, np.uint8)
        self._to_act = np.zeros(n_envs, np.int32)
        self._started = False
        # made once: a call's Python work is a few microseconds beside a few dozen for
        # stepping 64 games, so nothing per call is rebuilt
        self._buffers = (self._obs, self._mask, self._rewards, self._terminated,
                         self._truncated, self._to_act)
        self._result = VectorStep(self._obs, self._mask, self._rewards,
                                  self._terminated.view(bool), self._truncated.view(bool),
                                  self._to_act)
        self._random_actions = np.full(n_envs, -1, np.int64)

    def reset(self) -> VectorStep:
        """Start a new game in every environment."""
        self._env.reset(*self._buffers)
        self._started = True
        return self._result

    def step(self, actions: Sequence[int] | np.ndarray) -> VectorStep:
        """Apply one action per environment (-1: the ``random`` strategy's choice): an
        integer array (any numpy integer dtype; int64 is passed to the core as it is) or a
        list of ints, of shape ``(n_envs,)``. ValueError, naming the environment, for an
        action outside ``[-1, n_actions)`` or not legal now, a bool, float, string or
        object array, or the wrong shape; then no game changes. RuntimeError before
        :meth:`reset`."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = action_array(actions, self.n_envs, self.n_actions)
        # its own arrays, unchanged since the last call: the core writes what changed
        self._env.step(acts, *self._buffers, kept=True)
        return self._result

    def step_random(self) -> VectorStep:
        """The ``random`` strategy's choice in every environment (drawn in the core)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        self._env.step(self._random_actions, *self._buffers, kept=True)
        return self._result

    def game_seeds(self) -> list[int]:
        """The seed of each environment's game in progress: ``GameConfig(seed=...)``
        replays it."""
        return list(self._env.game_seeds())

    def games(self) -> list[int]:
        """How many games each environment has started."""
        return list(self._env.games())
