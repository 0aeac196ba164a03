"""``rollout`` and ``strong_v1``: a search player that plays its best greedy candidates a
little into the future; ``strong_v1`` is ``rollout`` with the evaluation weights of the
tuned ``planner`` (plans: an early third action, City Keys and one large network, Coellen).
It was ``strong`` until the learned search (:mod:`~hansa_lab.strategies.learned_search`)
beat it at a fraction of its cost; under its new name it plays exactly as before, so older
studies replay.

For each decision it ranks the legal actions by the greedy evaluation
(:mod:`~hansa_lab.strategies.evaluation`, the same look-ahead as ``greedy``) and takes
the ``candidates`` best. Each candidate is played ``samples`` times: the hidden
bonus-marker bag re-dealt (a determinization — the player cannot know the draw order),
the candidate applied, then every player, itself included, playing ``greedy`` through
the turn in progress and ``horizon`` more turns (or to the end of the game). It keeps the
candidate whose playouts end in the positions it values most on average (its own evaluation, which
counts the best opponent's projected score against it). Sample ``r`` re-deals the bag
and seeds the playouts alike for every candidate, so candidates are compared on the same
futures.

Budget: ``candidates × samples`` playouts of ``horizon + 1`` turns at most per decision, all seeded
from one draw of the seat's stream, so a game is reproducible from its seed. At the
default budget (8 candidates, 1 sample, 8 turns) a 4-player game with one ``rollout``
seat takes about 1.5 s of CPU on this machine (see the README's ladder for its strength
against the other shipped players).

The search runs in the compiled core (``core/src/strategies/rollout.rs``); in the Python
engine this strategy hands the position to the core and plays the action it returns, so
it decides alike in both engines by construction. The greedy parameters (``depth``,
``explore`` and the evaluation weights) apply to the evaluation and to the playouts.

>>> make_strategy("strong_v1").spec
'strong_v1'
>>> make_strategy("rollout:horizon=4").params["horizon"]
4
"""

from __future__ import annotations

from typing import Any, ClassVar

from hansa_lab.engine.limits import Limit, strategy_limits
from hansa_lab.strategies.base import make_strategy, register, search_box
from hansa_lab.strategies.core_search import CoreSearch
from hansa_lab.strategies.greedy import Greedy

__all__ = ["Rollout", "StrongV1", "make_strategy"]


@register("rollout")
class Rollout(CoreSearch):
    """Greedy candidates judged by short greedy playouts (see the module doc)."""

    core_name: ClassVar[str] = "rollout"
    defaults: ClassVar[dict[str, Any]] = {"candidates": 8, "samples": 1, "horizon": 8,
                                          **Greedy.defaults}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("rollout")
    ranges: ClassVar[dict[str, tuple[float, float]]] = {
        **Greedy.ranges, **search_box(limits, "candidates", "samples", "horizon")}
    candidates: int
    samples: int
    horizon: int


#: the evaluation weights of the shipped ``planner`` strategy file (a test keeps them equal)
PLANNER_WEIGHTS: dict[str, float] = {
    "opponents": 0.1277, "route": 0.7983, "supply": 0.1372, "reserve": 0.5546,
    "ability": 1.388, "plan_actions": 2.48, "plan_bank": 0.00568, "plan_keys": 0.8216,
    "plan_coellen": 0.6092, "plan_control": 0.2725}


@register("strong_v1")
class StrongV1(Rollout):
    """The first ``strong`` (the strongest shipped player until the learned search):
    ``rollout`` whose evaluation (in the candidates' ranking, the playouts and the
    judgement of their ends) has the weights of the shipped ``planner``
    (``strategies/data/planner.toml``, tuned by ``hansa-lab tune``): it values the plans
    strong players follow (the third action early and on to five, City Keys with one
    large network, Coellen, ability-city control); 6 candidates played 6 turns ahead."""

    #: a smaller budget than rollout's: with the planner's evaluation players take more
    #: actions per turn, so playouts are longer; 6 candidates and 6 turns cost about
    #: 1.25 s of CPU per 4-player game for the seat and won 40 of 40 games against three
    #: planners (the default 8 and 8: 3.4 s and 37 of 40)
    defaults: ClassVar[dict[str, Any]] = {**Rollout.defaults, "candidates": 6, "horizon": 6,
                                          **PLANNER_WEIGHTS}
