"""Strategies: ``choose(state, legal_actions, rng) -> action``, looked up by name.

>>> s = make_strategy("random")
>>> s.name
'random'
"""

from hansa_lab.strategies.base import (
    Strategy,
    make_strategy,
    parse_strategy_spec,
    register,
    registry,
)
from hansa_lab.strategies.greedy import ActionsFirst, Blocker, Greedy, KeepSupply, NetworkKeys
from hansa_lab.strategies.mcts import MCTS
from hansa_lab.strategies.random_policy import RandomStrategy

__all__ = [
    "MCTS",
    "ActionsFirst",
    "Blocker",
    "Greedy",
    "KeepSupply",
    "NetworkKeys",
    "RandomStrategy",
    "Strategy",
    "make_strategy",
    "parse_strategy_spec",
    "register",
    "registry",
]
