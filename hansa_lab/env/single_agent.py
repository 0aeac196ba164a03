"""A Gymnasium single-agent wrapper: one seat learns, the other seats are shipped
strategies (``greedy``, ``strong``, any spec :func:`~hansa_lab.strategies.make_strategy`
takes whose strategy the core plays), stepped in the compiled core.

Observations are those of :class:`~hansa_lab.env.aec.HansaEnv` (a dict of
``observation`` and ``action_mask``) for the learning seat; the reward comes at the end:
``(n - rank) / (n - 1)`` (1 for a win, 0 for last place); ``info`` then holds the score
breakdown and the rank. An illegal action ends the episode with reward -1 by default
(``illegal_action="lose"``, so that ``action_space.sample()`` is a valid call), or raises
ValueError (``"raise"``).

What :meth:`~SingleAgentEnv.step` refuses, in every ``illegal_action`` mode (the rules of
:mod:`hansa_lab.env.inputs`): ValueError for an action that is not an integer (a Python
int or numpy integer; a float, even ``2.0``, a string, a bool or ``None`` is not) or is
outside the action space ``[0, action_space.n)``; RuntimeError before :meth:`reset` and
after the episode has ended (terminated or truncated, an illegal action's loss included)
until the next :meth:`reset`. ``reset(seed=...)`` takes an integer ``0 … 2**63 - 1``
(ValueError naming any other).

>>> env = SingleAgentEnv(opponents=("greedy", "greedy"))
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, info["seat"]
((1439,), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hansa_lab.compiled.bridge import CoreGame
from hansa_lab.engine.rng import MASK, MAX_SEED, seat_stream
from hansa_lab.env.action_index import ActionIndex
from hansa_lab.env.aec import ILLEGAL_ACTION_MODES, make_config
from hansa_lab.env.inputs import action_integer, seed_integer
from hansa_lab.env.observation import observation_size
from hansa_lab.play.core_game import core_policy
from hansa_lab.strategies import make_strategy

__all__ = ["SingleAgentEnv"]


class SingleAgentEnv(gymnasium.Env):
    """One learning seat against shipped strategies: ``opponents`` fill the other seats
    in turn order; ``seat`` is the learner's (None: drawn at every reset)."""

    def __init__(self, opponents: Sequence[str] = ("greedy", "greedy"), seat: int | None = 0,
                 board: str = "base", edition: str = "bigbox",
                 options: dict[str, Any] | None = None, max_actions: int = 20_000,
                 illegal_action: str = "lose") -> None:
        if isinstance(opponents, str):
            raise ValueError("opponents is a list of strategy specs, e.g. ['greedy', "
                             "'strong'], not one string")
        n = len(opponents) + 1
        self.config = make_config(n, board, edition, options)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be None or 0-{n - 1} for {n} players, got {seat!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, "
                             f"got {illegal_action!r}")
        if not isinstance(max_actions, int) or max_actions < 1:
            raise ValueError(f"max_actions must be a positive int, got {max_actions!r}")
        self.policies = []
        for spec in opponents:
            policy = core_policy(make_strategy(spec), self.config)
            if policy is None:
                raise ValueError(f"opponent {spec!r}: the core has no twin of this strategy "
                                 "(the opponents are played in the core)")
            self.policies.append(policy)
        self.opponent_specs = tuple(opponents)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.max_actions = max_actions
        self.illegal_action = illegal_action
        self.board = self.config.load_board()
        self.action_index = ActionIndex(self.board)
        self._n_obs = observation_size(self.board, n)
        self._n_act = self.action_index.size
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self._n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (self._n_act,), np.int8),
        })
        self.action_space = spaces.Discrete(self._n_act)
        self.game: CoreGame | None = None
        self._rng_states: list[int] = []
        self._ended = False  # the last step ended the episode (terminated or truncated)

    def _obs(self) -> dict[str, np.ndarray]:
        game = self._game()
        obs = np.zeros(self._n_obs, np.float32)
        game.observe_into(self.seat, obs)
        mask = np.zeros(self._n_act, np.int8)
        if not game.is_over and game.current_player == self.seat:
            game.mask_into(mask.view(np.uint8))
        return {"observation": obs, "action_mask": mask}

    def afterstates(self) -> tuple[np.ndarray, np.ndarray]:
        """The learner's legal actions (int64 indices) and, row by row, its observation
        right after each of them (before anyone else acts): a one-step look-ahead for
        afterstate-value agents. Computed from the true position, so an action that draws
        a replacement marker shows the drawn marker's kind, as a search would see it."""
        game = self._game()
        if self._ended or game.is_over or game.current_player != self.seat:
            raise RuntimeError("the learner is not to act: no afterstates")
        legal = np.asarray(game.legal_indices(), np.int64)
        out = np.zeros((len(legal), self._n_obs), np.float32)
        for k, i in enumerate(legal):
            child = game.copy()
            child.apply_index(int(i))
            child.observe_into(self.seat, out[k])
        return legal, out

    def _game(self) -> CoreGame:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def _opponent_seats(self) -> list[int]:
        return [p for p in range(self.config.n_players) if p != self.seat]

    def _play_opponents(self) -> None:
        """The opponents decide until the learner must or the game ends."""
        game = self._game()
        seats = self._opponent_seats()
        while not game.is_over and game.current_player != self.seat \
                and game.n_actions < self.max_actions:
            p = game.current_player
            k = seats.index(p)
            chosen = game.choice_of(self.policies[k], self._rng_states[k])
            if chosen is None:  # pragma: no cover - only after the end, checked above
                raise RuntimeError("an opponent's core strategy found no decision")
            action, self._rng_states[k] = chosen
            game.apply(action)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                               dict[str, Any]]:
        super().reset(seed=None if seed is None else seed_integer(seed, "reset"))
        game_seed = int(self.np_random.integers(0, MAX_SEED + 1))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, self.config.n_players))
        self.game = CoreGame(self.config.replace(seed=game_seed))
        self._ended = False
        self._rng_states = [seat_stream(game_seed, p).state & MASK
                            for p in self._opponent_seats()]
        self._play_opponents()
        return self._obs(), {"seat": self.seat, "game_seed": game_seed}

    def _final_info(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        game = self._game()
        breakdown = game.score_breakdown()[self.seat]
        return {"seat": self.seat, "score": breakdown, "total": sum(breakdown.values()),
                "rank": game.ranking()[self.seat], **(extra or {})}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        """The learner's action (an integer of the action space), then the opponents' until
        the learner must act again or the episode ends. ValueError for an action that is
        not an integer of ``[0, action_space.n)``, or (``illegal_action="raise"``) not
        legal now; RuntimeError before :meth:`reset` or once the episode has ended."""
        game = self._game()
        if self._ended or game.is_over or game.n_actions >= self.max_actions:
            raise RuntimeError("the episode is over: call reset() before step()")
        i = action_integer(action, self._n_act)
        if not game.apply_index(i):
            if self.illegal_action == "raise":
                raise ValueError(f"action {i} is not legal now (the legal actions are the "
                                 "1s of the observation's action_mask)")
            self._ended = True
            return self._obs(), -1.0, True, False, self._final_info({"illegal_action": i})
        self._play_opponents()
        if game.is_over:
            self._ended = True
            n = self.config.n_players
            rank = game.ranking()[self.seat]
            return self._obs(), (n - rank) / (n - 1), True, False, self._final_info()
        if game.n_actions >= self.max_actions:
            self._ended = True
            return self._obs(), 0.0, False, True, self._final_info()
        return self._obs(), 0.0, False, False, {"seat": self.seat}
