"""``learned_rollout`` and ``strong``: a flat rollout whose leaves the learned evaluation
values after a short horizon; ``strong`` is ``learned_rollout`` at its default budget with
its choice drawn (``temperature`` 0.2; ``strong:temperature=0``, the best always, is the
stronger player against ``strong_v1``: 69.5% against 36.0% of its games; see the
README's players table for its figures against ``strong_v1``, the greedy rollout that was
``strong`` before).

For each decision it takes the ``candidates`` best actions of the one-ply ``learned``
player, plays each ``samples`` times into the future (the hidden bonus-marker bag re-dealt,
then every player playing ``greedy`` through the turn in progress and ``horizon`` more
turns: 0 by default, so a playout ends with the turn in progress) and keeps the candidate
whose futures the ``learned`` player (the model blended with greedy's evaluation) values
most on average; with ``temperature`` above 0 it draws one instead, each with weight
exp((its mean − the best mean) / temperature), as ``learned`` draws among its one-ply
values (and its one-ply fallbacks draw with the same temperature). Short playouts and a
learned judgement of where they lead, where ``strong_v1`` plays long greedy playouts.
``gap`` prunes the search: only the candidates whose one-ply value is within ``gap`` of the
best are played out, and when none is, the one-ply choice is played at once (the default,
10^9, prunes nothing). Inside a Move it plays as ``learned`` does, and the search never
picks ``end`` (ending the turn with actions left) itself: when that is its best candidate
it plays ``learned``'s choice (all-``strong`` 3-player tables froze without this: every
seat ending its turn at once, to the action cap). ``evaluation`` names the one-ply greedy
player whose weights the blend and the playouts use (``greedy``; e.g. ``planner``). Every
knob is a parameter with its range in the shared table
(``hansa_lab/engine/data/limits.json``, groups ``learned`` and ``learned_rollout``); one
draw from the seat's stream per searched decision, two with a temperature (and ``learned``'s
when it decides instead), so a game is reproducible from its seed. Like ``learned`` it is
played by the compiled core in both engines (``core/src/strategies/learned_search.rs``).

>>> make_strategy("learned_rollout").params["horizon"]
0
>>> make_strategy("strong_v2").params["horizon"]
2
>>> strong, search = make_strategy("strong").params, make_strategy("learned_rollout").params
>>> strong["temperature"], search["temperature"]
(0.2, 0.0)
>>> [k for k in strong if strong[k] != search[k]]  # the one difference
['temperature']
"""

from __future__ import annotations

from typing import Any, ClassVar

from hansa_lab.compiled.bridge import core_learned_rollout_policy
from hansa_lab.engine.limits import Limit, strategy_limits
from hansa_lab.engine.state import GameConfig
from hansa_lab.strategies.base import make_strategy, register, search_box
from hansa_lab.strategies.learned import Learned

__all__ = ["LearnedRollout", "Strong", "StrongV2", "make_strategy"]


#: ``learned``'s knob of the one-ply choice itself, which the searches do not have
ONE_PLY_ONLY = ("reply",)


@register("learned_rollout")
class LearnedRollout(Learned):
    """The rollout with learned leaves (see the module doc)."""

    # the search picks among the one-ply candidates itself: ``learned``'s look-ahead at the
    # replies (``reply``) is not one of its knobs
    defaults: ClassVar[dict[str, Any]] = {**{k: v for k, v in Learned.defaults.items()
                                             if k not in ONE_PLY_ONLY},
                                          "candidates": 4, "samples": 2, "horizon": 0,
                                          "gap": 1e9, "temperature": 0.0}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("learned_rollout")
    ranges: ClassVar[dict[str, tuple[float, float]]] = {
        **{k: v for k, v in Learned.ranges.items() if k not in ONE_PLY_ONLY},
        **search_box(limits, "candidates", "samples", "horizon", "gap")}
    candidates: int
    samples: int
    horizon: int
    gap: float

    def core_twin(self, config: GameConfig | None = None) -> Any:
        """The core's ``CorePolicy`` playing this search in games of ``config``
        (ValueError: a parameter out of its range, or a model whose features are not the
        core's)."""
        m = self.learned_model_for(config)
        return core_learned_rollout_policy(
            m.core_args(), m.core_hidden(), model_weight=self.model_weight,
            greedy_weight=self.greedy_weight, explore=self.explore,
            candidates=self.candidates, samples=self.samples, horizon=self.horizon,
            evaluation=self._evaluation, gap=self.gap, temperature=self.temperature,
            **self.core_tip())


@register("strong")
class Strong(LearnedRollout):
    """The strongest shipped player at its default budget: ``learned_rollout`` with its
    defaults (4 candidates of the one-ply learned player, each played 2 times, bonus-marker
    bag re-dealt, to the end of the turn in progress, judged by the shipped model blended
    with greedy's evaluation), its choice drawn among the candidates with ``temperature``
    0.2 (weight exp((mean value of its playouts − the best mean) / 0.2)): played always
    the best, all-``strong`` tables at 4 players had seats that won the race for the one
    Actions city and seats that lost it (``docs/results.md``, "Player audits"). The
    previous budget (2 more turns per playout, the best candidate always) is
    ``strong_v2``; the greedy rollout that had this name first is ``strong_v1``."""

    defaults: ClassVar[dict[str, Any]] = {**LearnedRollout.defaults, "temperature": 0.2}


@register("strong_v2")
class StrongV2(LearnedRollout):
    """``strong`` before its playouts were cut to the turn in progress and its choice was
    drawn: ``learned_rollout`` whose playouts last 2 more turns (about 4× the cost of
    today's ``strong`` at 4 players; earlier figures of ``strong`` were measured with it on
    ``model=learned_base4p``)."""

    defaults: ClassVar[dict[str, Any]] = {**LearnedRollout.defaults, "horizon": 2}
