"""``ismcts``: information-set Monte Carlo tree search, a search player for the
multi-player game with hidden information (nobody knows the draw order of the
bonus-marker bag).

Each iteration re-deals the hidden bag (a determinization) and walks one tree shared by
all iterations. A node is a sequence of actions from the decision's position and belongs
to whoever decides there: the active player for each of the actions of a turn, another
player for a displacement reply. Selection is UCB1 (``ucb_c``) on the value of the
player deciding at the node, over the children whose action is legal in this
determinization, each child's exploration counting the iterations in which it was
available (ISMCTS's "subset-armed" correction). Progressive widening: a node considers
its ``ceil(widen_c * visits ** widen_alpha)`` best actions by greedy's candidate values
(:mod:`~hansa_lab.strategies.evaluation`, the same look-ahead as ``greedy``). A new node
is valued by a greedy playout of every player through the turn in progress and
``horizon`` more turns (the tree stops there too). There each player's margin (its greedy
evaluation minus ``rival`` times the best other player's) is compared with its margin in
the decision's position and the gain mapped to [0, 1] by a logistic of scale ``scale``;
the vector of values is backed up (max-n: each player maximises its own; ``paranoid``: the
searching player against all the others). The decision is the root's most visited
action (ties: the better valued).

Budget: ``iterations`` per decision (reproducible: every random number comes from one
draw of the seat's stream; a single legal action is played without search). At the
default budget (16 iterations, horizon 4) a 4-player game with one ``ismcts`` seat
takes about 1.6 s of CPU on this machine (``rollout`` at its default: about 1.7 s). The
other defaults were tuned a little against three ``rollout`` players (the README has the
measurements): a small exploration constant (the values of good actions lie close together);
a player's own evaluation (``rival=0``) rather than its lead over the best rival; max-n
rather than ``paranoid``, which measured no better.

The search runs in the compiled core (``core/src/strategies/ismcts.rs``); in the Python
engine this strategy hands the position to the core and plays the action it returns
(:class:`~hansa_lab.strategies.core_search.CoreSearch`), so it decides alike in both
engines. The greedy parameters (``depth``, ``explore`` and the evaluation weights) apply
to the ranking, the playouts and the evaluation.

>>> make_strategy("ismcts:iterations=8").params["iterations"]
8
"""

from __future__ import annotations

from typing import Any, ClassVar

from hansa_lab.engine.limits import Limit, strategy_limits
from hansa_lab.strategies.base import make_strategy, register, search_box
from hansa_lab.strategies.core_search import CoreSearch
from hansa_lab.strategies.greedy import Greedy

__all__ = ["Ismcts", "make_strategy"]


@register("ismcts")
class Ismcts(CoreSearch):
    """Information-set MCTS with greedy playouts (see the module doc)."""

    core_name: ClassVar[str] = "ismcts"
    defaults: ClassVar[dict[str, Any]] = {
        "iterations": 16, "ucb_c": 0.15, "widen_c": 2.0, "widen_alpha": 0.5, "horizon": 4,
        "rival": 0.0, "scale": 2.0, "paranoid": False, **Greedy.defaults}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("ismcts")
    ranges: ClassVar[dict[str, tuple[float, float]]] = {
        **Greedy.ranges, **search_box(limits, "iterations", "ucb_c", "widen_c", "widen_alpha",
                                      "horizon", "rival", "scale")}
    iterations: int
    ucb_c: float
    widen_c: float
    widen_alpha: float
    horizon: int
    rival: float
    scale: float
    paranoid: bool
