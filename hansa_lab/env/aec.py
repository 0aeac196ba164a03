"""A PettingZoo AEC environment of the game, stepped by the compiled core.

Agents are ``player_0`` … ``player_{n-1}`` (seats in turn order); the agent to act is
whoever decides now — the active player, or a displaced player relocating, or the
Emperor's Favour ``income_share`` holder. Each observation is a dict: ``observation``
(float32, :mod:`hansa_lab.env.observation`) and ``action_mask`` (int8 over the
:mod:`hansa_lab.env.action_index`; zeros for an agent not to act). Rewards come at the
end of the game: ``(n - rank) / (n - 1)`` for each seat (1 for the winner, 0 for the
last); ``infos`` then hold each seat's score breakdown and rank. A game that reaches
``max_actions`` is truncated.

What :meth:`~HansaEnv.step` refuses (the rules of :mod:`hansa_lab.env.inputs`): ValueError,
naming the agent, for an action that is not an integer (a Python int or numpy integer; a
float, even ``2.0``, a string, a bool or ``None`` is not) or is outside the action space
``[0, n_actions)``, in both ``illegal_action`` modes (the mode decides only what an
integer of the space that is not legal now does); RuntimeError before :meth:`reset`. Once
the game has ended, PettingZoo's convention holds: every agent, terminated or truncated,
is stepped with ``None`` and leaves ``agents`` (any other action: ValueError); a step
after the last has left is a RuntimeError until the next :meth:`reset`.
``reset(seed=...)`` takes an integer ``0 … 2**63 - 1`` (ValueError naming any other).

>>> env = HansaEnv(n_players=3, board="base")
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((1439,), True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from hansa_lab.compiled.bridge import CoreGame
from hansa_lab.engine.actions import Action, format_action
from hansa_lab.engine.rng import mix64
from hansa_lab.engine.state import MAX_SEED, GameConfig
from hansa_lab.env.action_index import ActionIndex
from hansa_lab.env.inputs import action_integer, seed_integer
from hansa_lab.env.observation import observation_fields, observation_size

__all__ = ["ILLEGAL_ACTION_MODES", "HansaEnv", "env", "make_config"]

#: what a step with an illegal action does: raise ValueError, or end the game with the
#: acting seat losing (reward -1, the others 0), as PettingZoo's classic games do
ILLEGAL_ACTION_MODES = ("raise", "lose")


def make_config(n_players: int = 3, board: str = "base", edition: str = "bigbox",
                options: dict[str, Any] | None = None, seed: int = 0) -> GameConfig:
    """The :class:`GameConfig` of an environment's parameters (ValueError if invalid)."""
    return GameConfig(n_players=n_players, board=board, edition=edition, seed=seed,
                      options=tuple((options or {}).items()))


class HansaEnv(AECEnv):
    """Hansa Teutonica for PettingZoo (AEC): every board, player count, edition and rule
    option of :class:`~hansa_lab.engine.state.GameConfig` as parameters."""

    metadata: ClassVar[dict[str, Any]] = {"name": "hansa_teutonica_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, n_players: int = 3, board: str = "base", edition: str = "bigbox",
                 options: dict[str, Any] | None = None, max_actions: int = 20_000,
                 illegal_action: str = "raise", render_mode: str | None = None) -> None:
        super().__init__()
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, "
                             f"got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if not isinstance(max_actions, int) or max_actions < 1:
            raise ValueError(f"max_actions must be a positive int, got {max_actions!r}")
        self.config = make_config(n_players, board, edition, options)
        self.board = self.config.load_board()
        self.action_index = ActionIndex(self.board)
        self.fields = observation_fields(self.board, n_players)
        self.max_actions = max_actions
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        n_obs = observation_size(self.board, n_players)
        n_act = self.action_index.size
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, np.inf, (n_obs,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._n_obs, self._n_act = n_obs, n_act
        self._next_seed: int | None = None
        self.game: CoreGame | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` (an integer ``0 … 2**63 - 1``, ValueError otherwise) fixes
        it and the seeds of the resets after it without one; without any seed the games
        are drawn from fresh entropy."""
        if seed is not None:
            seed = seed_integer(seed, "reset")
        elif self._next_seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) & MAX_SEED
        else:
            seed = self._next_seed
        self._next_seed = mix64(seed + 1) & MAX_SEED  # 63 bits: the seeds a GameConfig stores
        self.game = CoreGame(self.config.replace(seed=seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._game()
        obs = np.zeros(self._n_obs, np.float32)
        game.observe_into(self._seat(agent), obs)
        mask = np.zeros(self._n_act, np.int8)
        if not game.is_over and agent == self.agent_selection:
            game.mask_into(mask.view(np.uint8))
        return {"observation": obs, "action_mask": mask}

    def legal_actions(self) -> list[int]:
        """The integers of the legal actions of the agent to act."""
        return self._game().legal_indices()

    def step(self, action: Any) -> None:
        """The action of the agent to act (an integer of its action space; ``None`` for an
        agent that is done). ValueError for an action that is not an integer of
        ``[0, n_actions)``, or (``illegal_action="raise"``) not legal now, or not None for
        a done agent; RuntimeError before :meth:`reset` or once every agent has left."""
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left: call reset() "
                               "before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done (terminated or truncated): its only "
                                 f"action is None, got {action!r}")
            self._was_dead_step(action)
            return
        game = self.game
        i = action_integer(action, self._n_act, agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if not game.apply_index(i):
            if self.illegal_action == "raise":
                raise ValueError(self._illegal_message(agent, i))
            self.rewards[agent] = -1.0
            self._finish(truncated=False, info={"illegal_action": i})
        elif game.is_over:
            for a, r in zip(self.possible_agents, game.rank_rewards(), strict=True):
                self.rewards[a] = float(r)
            self._finish(truncated=False)
        elif game.n_actions >= self.max_actions:
            self._finish(truncated=True)
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    def _finish(self, truncated: bool, info: dict[str, Any] | None = None) -> None:
        game = self._game()
        flags = self.truncations if truncated else self.terminations
        for a in self.agents:
            flags[a] = True
        breakdown = game.score_breakdown()
        ranks = game.ranking()
        for seat, a in enumerate(self.possible_agents):
            self.infos[a] = {"score": breakdown[seat], "total": sum(breakdown[seat].values()),
                             "rank": ranks[seat], **(info or {})}

    def _illegal_message(self, agent: str, i: int) -> str:
        act: Action = self.action_index.action(i)
        return f"{agent}: action {i} ({format_action(self.board, act)}) is not legal now; " \
               "the legal actions are the 1s of the observation's action_mask"

    def _game(self) -> CoreGame:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self._game()
        s = game.to_state()
        lines = [repr(s)]
        for seat in range(s.n_players):
            lines.append(f"  player_{seat}: prestige {s.prestige[seat]}, "
                         f"supply {s.supply_t[seat]}t/{s.supply_m[seat]}m")
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None


def env(**kwargs: Any) -> HansaEnv:
    """PettingZoo's constructor convention: ``hansa_lab.env.aec.env(n_players=4)``."""
    return HansaEnv(**kwargs)
