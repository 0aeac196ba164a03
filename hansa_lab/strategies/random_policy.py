"""The baseline ``random`` policy.

Uniform over the legal actions, with four documented biases that make random games
end by a rule (prestige, markers or cities) instead of shuffling pieces forever:

1. a completed route is always established, with a reward when one is available;
2. ``end`` (forfeiting remaining actions) is chosen only when nothing else is legal;
3. inside a Move, a piece goes preferably to a route where its owner already has more
   pieces than on the route it leaves (so routes fill up and get established);
4. two-player games only (both players can run out of loose tradesmen and then only
   shuffle pieces): a player with no tradesman in supply or stock moves preferably to
   a route it can still complete — no other colour on it, no more posts than its pieces
   on the board — from a route it cannot complete or holding fewer own pieces.

Each bias can be switched off by parameter, e.g. ``random:establish=false``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from hansa_lab.engine.actions import NONE, Action
from hansa_lab.engine.limits import Limit, strategy_limits
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import EMPTY, State
from hansa_lab.strategies.base import Strategy, register


@register("random")
class RandomStrategy(Strategy):
    defaults: ClassVar[dict[str, Any]] = {"establish": True, "gather": True}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("random")
    trusted: ClassVar[bool] = True
    establish: bool
    gather: bool

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        if self.establish:
            est = [a for a in legal if a.kind == "establish"]
            if est:
                rewarded = [a for a in est if a.b != NONE]
                return rng.choice(rewarded or est)
        if self.gather and legal[0].kind in ("move_piece", "swap", "stop"):
            p = state.current_player
            stuck = state.neutral >= 0 and not (
                state.supply_t[p] + state.supply_m[p] + state.stock_t[p] + state.stock_m[p]
            )
            moves = _completing_moves(state, legal) if stuck else _gathering_moves(state, legal)
            if moves:
                return rng.choice(moves)
        if len(legal) > 1 and legal[-1].kind == "end":
            return legal[rng.randrange(len(legal) - 1)]
        return rng.choice(legal)


def _gathering_moves(state: State, legal: list[Action]) -> list[Action]:
    p = state.current_player
    b = state.board
    posts = state.posts
    ps = b.post_start
    own = [0] * b.n_routes
    for i, o in enumerate(posts):
        if o != EMPTY and o >> 1 == p:
            own[b.post_route[i]] += 1
    return [
        a
        for a in legal
        if a.kind == "move_piece" and own[a.b] >= own[b.post_route[a.a]] and own[a.b] > 0
        and ps[a.b + 1] - ps[a.b] > own[a.b]
    ]


def _completing_moves(state: State, legal: list[Action]) -> list[Action]:
    """Moves toward routes the player can still complete (bias 4)."""
    p = state.current_player
    b = state.board
    ps = b.post_start
    own = [0] * b.n_routes
    other = [False] * b.n_routes
    for i, o in enumerate(state.posts):
        if o != EMPTY:
            if o >> 1 == p:
                own[b.post_route[i]] += 1
            else:
                other[b.post_route[i]] = True
    total = sum(own)

    def feasible(r: int) -> bool:
        return not other[r] and ps[r + 1] - ps[r] <= total

    return [
        a
        for a in legal
        if a.kind == "move_piece"
        and feasible(a.b)
        and ps[a.b + 1] - ps[a.b] > own[a.b]
        and (not feasible(b.post_route[a.a]) or own[a.b] >= own[b.post_route[a.a]])
    ]

