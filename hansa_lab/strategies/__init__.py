"""Strategies: ``choose(state, legal_actions, rng) -> action``, looked up by name.

>>> s = make_strategy("random")
>>> s.name
'random'
"""

from .base import Strategy, make_strategy, parse_strategy_spec, register, registry
from .greedy import ActionsFirst, Blocker, Greedy, KeepSupply, NetworkKeys
from .mcts import MCTS
from .random_policy import RandomStrategy

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
