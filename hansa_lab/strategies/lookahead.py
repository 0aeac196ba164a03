"""Look-ahead helpers shared by the searching strategies (``greedy``, ``mcts``).

Both value a candidate action by the position it leads to; these helpers cover the two
places where one step is not enough to see an action's worth: an action that opens a
decision of the same player (a Move, a move-3/remove-3 marker: worth its best first
step) and an action that fills a route with the player's own pieces (worth the best
establish action that could follow this turn).
"""

from __future__ import annotations

from collections.abc import Callable

from hansa_lab.engine.actions import Action
from hansa_lab.engine.decisions import Move
from hansa_lab.engine.rules import STOP, apply, legal_actions
from hansa_lab.engine.state import State

__all__ = ["OPENS_DECISION", "establish_value", "filled_route", "full_routes"]

#: Action kinds that may open a decision of the acting player (Move; move-3 and remove-3
#: markers): such an action is valued by its best first step.
OPENS_DECISION = ("move", "marker")


def filled_route(after: State, action: Action, player: int) -> int:
    """The route that ``action`` filled with ``player``'s pieces, judged on the position
    ``after`` it (-1 if it filled none)."""
    kind = action.kind
    if kind == "place":
        r = action.a
    elif kind == "move_piece":
        r = action.b
    elif kind == "displace":
        r = after.board.post_route[action.a]
    else:
        return -1
    b = after.board
    occ = after.posts[b.post_start[r] : b.post_start[r + 1]]
    return r if occ.count(2 * player) + occ.count(2 * player + 1) == len(occ) else -1


def full_routes(state: State, player: int) -> list[int]:
    """The routes whose every post holds one of ``player``'s pieces, in route order."""
    b = state.board
    posts = state.posts
    ps = b.post_start
    t, m = 2 * player, 2 * player + 1
    out = []
    for r in range(len(b.route_cities)):
        occ = posts[ps[r] : ps[r + 1]]
        if occ.count(t) + occ.count(m) == len(occ):
            out.append(r)
    return out


def establish_value(
    s: State, r: int, player: int, value: Callable[[State], float]
) -> float:
    """The best ``value`` of establishing route ``r`` right away (after finishing a Move in
    progress); -inf when ``player`` cannot do that now."""
    if s.end_reason is not None or s.actions_left <= 0:
        return float("-inf")
    if s.pending and isinstance(s.pending[-1], Move) and s.current_player == player:
        s = apply(s, STOP, check=False)
    if s.pending or s.end_reason is not None or s.current_player != player:
        return float("-inf")
    return max(
        (value(apply(s, b, check=False)) for b in legal_actions(s)
         if b.kind == "establish" and b.a == r),
        default=float("-inf"),
    )
