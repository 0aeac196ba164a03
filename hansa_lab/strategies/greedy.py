"""``greedy`` (one-step lookahead on :func:`~.evaluation.evaluate`) and the strategy tips.

Each tip is greedy plus exactly one extra evaluation term, weighted by ``tip``; with
``tip=0`` a tip strategy plays exactly like ``greedy`` (its ablation):

==================  ======================================================================
strategy            tip (source)
==================  ======================================================================
``actions_first``   develop Actions early: +``tip`` × (8 for the first Actions development,
                    +4 for the second), and while Actions is undeveloped, progress on
                    routes touching the Actions city counts extra (seed 000 first tip;
                    seed 001 "aim for three actions quickly")
``blocker``         block opponents on routes next to ability cities and bonus markers:
                    +``tip`` × 0.5 per own piece on such a route that an opponent also uses;
                    being displaced is a gain, so a displaced blocker always takes its
                    extra pieces (seeds 000 and 001)
``network_keys``    one large network and City Keys: +``tip`` × (2 × Kontors in the largest
                    network + 3 × City Keys developments) (seeds 000 and 001)
``keep_supply``     never let the personal supply run dry: −``tip`` × 3 per piece below
                    ``threshold`` in the supply (seed 001)
==================  ======================================================================

The ablation of a tip is the same strategy with ``tip=0`` (the base greedy player; the
spec shows the parameter with its declared type):

>>> make_strategy("actions_first:tip=0").spec
'actions_first:tip=0.0'

**A tip is a bias any evaluating player can carry.** The tip's term is added to greedy's
evaluation wherever a player's own decisions use that evaluation, weighted by the tip's
weight and faded with the plan terms: ``greedy`` (and its archetypes and strategy files,
such as ``planner``) carrying a tip *is* the tip's strategy on its values
(``greedy:tip=actions_first`` builds ``actions_first``; ``planner:tip=actions_first`` the
same on the planner's weights); the learned players (``learned``, ``learned_rollout``,
``strong``, ``strong_v2``) take ``tip=<name>`` and ``tip_weight`` (default 1) as
parameters and add ``greedy_weight`` × the same term to their blend of the model and
greedy's evaluation, so the candidates they rank, the leaves their playouts end in and
the greedy choices they defer to all carry it (the playouts' other moves do not: they
model every seat). What each tip means for a searching player is what it means for
greedy: ``actions_first`` values developing Actions early, ``blocker`` pieces shared with
an opponent on key routes (and never declines being displaced), ``network_keys`` the
largest network and City Keys, ``keep_supply`` a personal supply of at least 3 pieces.
Any other player given ``tip=`` is refused, naming the players that carry one:

>>> make_strategy("greedy:tip=blocker").spec
'blocker'
>>> make_strategy("strong:tip=actions_first").spec
'strong:tip=actions_first'
"""

from __future__ import annotations

from typing import Any, ClassVar

from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import A_ACTIONS, A_KEYS
from hansa_lab.engine.limits import Limit, strategy_limits
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import largest_network
from hansa_lab.engine.state import EMPTY, State
from hansa_lab.strategies.base import Strategy, make_strategy, register, search_box
from hansa_lab.strategies.evaluation import EvalCache, Weights, evaluate, intent_factor
from hansa_lab.strategies.lookahead import (
    OPENS_DECISION,
    establish_value,
    filled_route,
    full_routes,
)

__all__ = ["NO_TIP", "TIPS", "ActionsFirst", "Blocker", "Greedy", "KeepSupply", "NetworkKeys",
           "make_strategy"]

#: The seed documents' four tips, each a strategy (greedy plus the tip's term) and a bias
#: any evaluating player can carry (``strong:tip=actions_first``).
TIPS = ("actions_first", "blocker", "network_keys", "keep_supply")
#: the ``tip`` of a player that carries none
NO_TIP = "none"


@register("greedy")
class Greedy(Strategy):
    """Try every legal action, evaluate the resulting position for the deciding player,
    play the best (ties broken by the strategy's random stream).

    * An action that opens a decision of the same player (a Move, a move-3 or remove-3
      marker) is valued by its best first step; an action (or such a first step) that
      completes a route is valued by the best way of establishing it right away when an
      action is left, and ending a Move (``stop``) by the best establishment of a
      route full of own pieces (so a Move that gathers pieces onto one route is seen
      for the route it completes, and is not undone by an exploring second step:
      without that, 2- and 3-player tables whose pieces were all on the board, several
      routes one piece short, could wait for hundreds of rounds).
    * When no action improves the evaluation, with probability ``explore`` it plays a
      random action other than ending the turn or stopping (otherwise all-greedy tables
      can wait for each other forever).
    * ``depth=2`` also looks at the best follow-up whenever the same player decides
      again (slower)."""

    trusted: ClassVar[bool] = True

    defaults: ClassVar[dict[str, Any]] = {"depth": 1, "explore": 0.5, **Weights().__dict__}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("greedy")
    #: explore > 0: without it all-greedy tables can wait for each other until the cap
    ranges: ClassVar[dict[str, tuple[float, float]]] = search_box(
        limits, "depth", "supply_cap", "patience", "fade", explore=(0.01, 1.0))
    depth: int
    explore: float

    def setup(self) -> None:
        if self.depth not in (1, 2):
            raise ValueError(f"strategy {self.name!r}: depth must be 1 or 2, got {self.depth}")
        self.weights = Weights(**{k: self._params[k] for k in Weights.names()})
        self._cache = EvalCache()

    def value(self, state: State, player: int) -> float:
        tip = self.tip_value(state, player)
        if tip:
            tip *= intent_factor(state, self.weights)
        return evaluate(state, player, self.weights, self._cache) + tip

    def tip_value(self, state: State, player: int) -> float:
        return 0.0

    @classmethod
    def tip_carrier(cls, tip: str) -> type[Strategy] | None:
        """Greedy (an archetype, a strategy file on them) carrying ``tip`` is the tip's
        strategy on its values; a tip strategy carries its own tip only."""
        if issubclass(cls, TipStrategy) or tip not in TIPS:
            return None
        return TIP_CLASSES[tip]

    def worth(self, after: State, action: Action, player: int) -> float:
        """The value of the position ``after`` ``action``, or of establishing right away
        the route the action filled with the player's pieces (after a ``stop``: any
        route full of them), whichever is more."""
        v = self.value(after, player)
        if action.kind == "stop":
            routes = full_routes(after, player)
        else:
            r = filled_route(after, action, player)
            routes = [r] if r >= 0 else []
        for r in routes:
            v = max(v, establish_value(after, r, player, lambda st: self.value(st, player)))
        return v

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        player = state.current_player
        best: list[Action] = []
        best_v = float("-inf")
        for a in legal:
            nxt = apply(state, a, check=False)
            if a.kind in OPENS_DECISION and nxt.pending and nxt.current_player == player:
                # a Move or a move-3/remove-3 marker is worth its best first step
                v = max(self.worth(apply(nxt, b, check=False), b, player)
                        for b in legal_actions(nxt))
            else:
                v = self.worth(nxt, a, player)
            if self.depth == 2 and nxt.end_reason is None and nxt.current_player == player:
                follow = legal_actions(nxt)
                if len(follow) > 1:
                    v = max(
                        v, max(self.value(apply(nxt, b, check=False), player) for b in follow)
                    )
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif v > best_v - 1e-9:
                best.append(a)
        if self.explore and best_v <= self.value(state, player) + 1e-9:
            # nothing improves the position: sometimes act at random instead of passing
            # (breaks positions where every player waits for the others)
            active = [a for a in legal if a.kind not in ("end", "stop", "decline")]
            if active and rng.random() < self.explore:
                return rng.choice(active)
        return best[0] if len(best) == 1 else rng.choice(best)


class TipStrategy(Greedy):
    """Greedy plus one tip term weighted by ``tip`` (``tip=0`` switches the tip off)."""

    defaults: ClassVar[dict[str, Any]] = {**Greedy.defaults, "tip": 1.0}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("actions_first")  # the tips' groups
    tip: float


@register("actions_first")
class ActionsFirst(TipStrategy):
    def tip_value(self, state: State, player: int) -> float:
        if not self.tip:
            return 0.0
        lv = state.levels[player][A_ACTIONS]
        bonus = 8.0 * (lv >= 1) + 4.0 * (lv >= 2)
        if lv == 0:
            b = state.board
            mine = (2 * player, 2 * player + 1)
            for c in b.ability_cities.get(0, ()):
                for r in b.city_routes[c]:
                    occ = state.posts[b.post_start[r] : b.post_start[r + 1]]
                    own = occ.count(mine[0]) + occ.count(mine[1])
                    if own and own + occ.count(EMPTY) == len(occ):
                        q = own / len(occ)
                        bonus += 3.0 * q * q
        return self.tip * bonus


def key_routes(state: State) -> list[int]:
    """Routes next to an ability or special-prestige city, or beside a bonus marker."""
    b = state.board
    out = []
    for r, (a, z) in enumerate(b.route_cities):
        ca, cz = b.cities[a], b.cities[z]
        if (
            ca.abilities or cz.abilities or ca.special_prestige or cz.special_prestige
            or state.route_marker[r] is not None
        ):
            out.append(r)
    return out


@register("blocker")
class Blocker(TipStrategy):
    def tip_value(self, state: State, player: int) -> float:
        if not self.tip:
            return 0.0
        b = state.board
        t, m = 2 * player, 2 * player + 1
        n = 0
        for r in key_routes(state):
            occ = state.posts[b.post_start[r] : b.post_start[r + 1]]
            own = occ.count(t) + occ.count(m)
            if own and own + occ.count(EMPTY) < len(occ):  # shared with an opponent
                n += own
        return self.tip * 0.5 * n

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        if self.tip and len(legal) > 1 and legal[-1].kind == "decline":
            legal = legal[:-1]  # being displaced is a gain: always take the extra pieces
        return super().choose(state, legal, rng)


@register("network_keys")
class NetworkKeys(TipStrategy):
    def tip_value(self, state: State, player: int) -> float:
        if not self.tip:
            return 0.0
        keys = state.levels[player][A_KEYS]
        return self.tip * (2.0 * largest_network(state, player) + 3.0 * keys)


@register("keep_supply")
class KeepSupply(TipStrategy):
    defaults: ClassVar[dict[str, Any]] = {**TipStrategy.defaults, "threshold": 3}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("keep_supply")
    ranges: ClassVar[dict[str, tuple[float, float]]] = {**Greedy.ranges,
                                                       **search_box(limits, "threshold")}
    threshold: int

    def tip_value(self, state: State, player: int) -> float:
        if not self.tip:
            return 0.0
        short = self.threshold - state.supply_t[player] - state.supply_m[player]
        return -self.tip * 3.0 * max(0, short)


#: Each tip's strategy: greedy plus the tip's term.
TIP_CLASSES: dict[str, type[TipStrategy]] = {
    cls.name: cls for cls in (ActionsFirst, Blocker, NetworkKeys, KeepSupply)}
