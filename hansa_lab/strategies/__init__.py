"""Strategies: ``choose(state, legal_actions, rng) -> action``, looked up by name.

``base`` (the interface and the registry: ``make_strategy("greedy:depth=2")``), ``lineup``
(one parser for line-ups such as ``"greedy:depth=2,explore=0.1,random"``),
``random_policy`` (the baseline), ``evaluation`` (the documented position evaluation),
``lookahead`` (what greedy and mcts share when valuing a candidate action), ``greedy``
(one-step look-ahead and the four seed tips), ``archetypes`` (greedy with one plan of the
evaluation: Actions rush, City Keys network, Coellen, ability-city control, Bank),
``mcts`` (search with an iteration budget), and the searches of the compiled core
(``core_search``): ``rollout``/``strong_v1`` (greedy candidates judged by short playouts) and
``ismcts`` (information-set MCTS); the players on the learned evaluation, ``learned``
(one ply) and ``learned_rollout``/``strong`` (short playouts, learned leaves). May import
:mod:`hansa_lab.errors`, the engine and the core's bridge (:mod:`hansa_lab.compiled.bridge`) only.

>>> s = make_strategy("random")
>>> s.name
'random'
"""

from hansa_lab.strategies.archetypes import (
    ARCHETYPES,
    AbilityControl,
    ActionsRush,
    BankPlan,
    CoellenPlan,
    KeysNetwork,
)
from hansa_lab.strategies.base import (
    Strategy,
    make_strategy,
    parse_strategy_spec,
    register,
    registry,
)
from hansa_lab.strategies.core_search import CoreSearch
from hansa_lab.strategies.greedy import ActionsFirst, Blocker, Greedy, KeepSupply, NetworkKeys
from hansa_lab.strategies.ismcts import Ismcts
from hansa_lab.strategies.learned import Learned
from hansa_lab.strategies.learned_search import LearnedRollout, Strong, StrongV2
from hansa_lab.strategies.lineup import parse_lineup, split_specs
from hansa_lab.strategies.mcts import MCTS
from hansa_lab.strategies.random_policy import RandomStrategy
from hansa_lab.strategies.rollout import Rollout, StrongV1

__all__ = [
    "ARCHETYPES",
    "MCTS",
    "AbilityControl",
    "ActionsFirst",
    "ActionsRush",
    "BankPlan",
    "Blocker",
    "CoellenPlan",
    "CoreSearch",
    "Greedy",
    "Ismcts",
    "KeepSupply",
    "KeysNetwork",
    "Learned",
    "LearnedRollout",
    "NetworkKeys",
    "RandomStrategy",
    "Rollout",
    "Strategy",
    "Strong",
    "StrongV1",
    "StrongV2",
    "make_strategy",
    "parse_lineup",
    "parse_strategy_spec",
    "register",
    "registry",
    "split_specs",
]

# Strategy files (``strategy_file``: named strategies in TOML, such as the tuned ones
# ``hansa-lab tune`` writes): the package's own, in ``data/``, are registered by name here.
from hansa_lab.strategies.strategy_file import SHIPPED_FOLDER, register_folder

register_folder(SHIPPED_FOLDER, shipped=True)
