"""Strategies: ``choose(state, legal_actions, rng) -> action``, looked up by name.

>>> s = make_strategy("random")
>>> s.name
'random'
"""

from .base import Strategy, make_strategy, parse_strategy_spec, register, registry
from .random_policy import RandomStrategy

__all__ = [
    "RandomStrategy",
    "Strategy",
    "make_strategy",
    "parse_strategy_spec",
    "register",
    "registry",
]
