"""The position evaluation used by ``greedy``, the strategy tips and ``mcts``.

``evaluate(state, player, weights)`` is a number, higher is better for ``player``:

=================  =========================================================================
term               meaning
=================  =========================================================================
``score``          projected final score ("score if the game ended now")
``opponents``      minus the best opponent's projected final score
``route``          progress on routes: a route free of opponents' pieces with ``own`` of
                   its ``n`` posts filled counts 3·(own/n)² (so pieces gather on few
                   routes); a completed route counts only 0.1 more than one piece short
                   (its value is realised by establishing it, which greedy looks ahead
                   to); a route shared with opponents counts 0.3 per own piece; a route
                   whose establishment would bring the player no Kontor, development or
                   special-prestige space counts a third
``supply``         pieces in the personal supply, up to ``supply_cap``
``stock``          pieces in the general stock (income turns them into supply)
``reserve``        the first 3 pieces in supply and stock together (a player with none
                   left can only shuffle pieces on the board)
``ability``        value of ability developments beyond what the score already counts:
                   Actions 0,4,4,7,7,10 · Bank 0,2,3,4 · Book 0,1,2,3 · Privilege 0,2,3,4
                   · City Keys 0,2,2,4,6
``actions_left``   actions the acting player still has this turn (so ending a turn early
                   or wasting an action costs something)
=================  =========================================================================

The strategy tips add one term each on top (see :mod:`hansa_lab.strategies.greedy`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..scoring import TRACK_MAX, KontorCache, score_rows
from ..state import EMPTY, State

ABILITY_VALUE = (
    (0, 4, 4, 7, 7, 10),  # actions
    (0, 2, 3, 4),  # bank
    (0, 1, 2, 3),  # book
    (0, 2, 3, 4),  # privilege
    (0, 2, 2, 4, 6),  # keys
)


@dataclass(frozen=True)
class Weights:
    score: float = 1.0
    opponents: float = 0.25
    route: float = 1.0
    supply: float = 0.15
    supply_cap: int = 8
    stock: float = 0.05
    reserve: float = 1.0
    ability: float = 1.0
    actions_left: float = 0.0

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


def _rewarding_cities(state: State, player: int) -> list[bool]:
    """Cities where establishing an adjacent route could reward the player now."""
    b = state.board
    priv = state.levels[player][3]
    lv = state.levels[player]
    offices = state.offices
    out = []
    for c in b.cities:
        ok = any(lv[a] < TRACK_MAX[a] for a in c.abilities) or c.special_prestige
        if not ok:
            for i in range(b.office_start[c.index], b.office_start[c.index + 1]):
                if offices[i] == EMPTY:
                    ok = b.office_colour[i] <= priv
                    break
        out.append(ok)
    return out


def route_progress(state: State, player: int) -> float:
    b = state.board
    posts = state.posts
    ps = b.post_start
    mine = (2 * player, 2 * player + 1)
    total = 0.0
    rewarding: list[bool] | None = None
    for r in range(b.n_routes):
        occ = posts[ps[r] : ps[r + 1]]
        own = occ.count(mine[0]) + occ.count(mine[1])
        if own:
            n = len(occ)
            if own == n:
                v = 3.0 * ((n - 1) / n) ** 2 + 0.1
            elif own + occ.count(EMPTY) == n:
                v = 3.0 * (own / n) ** 2
            else:
                v = 0.3 * own
            if rewarding is None:
                rewarding = _rewarding_cities(state, player)
            x, y = b.route_cities[r]
            if not (rewarding[x] or rewarding[y]):
                v /= 3.0
            total += v
    return total


def evaluate(
    state: State, player: int, w: Weights, cache: KontorCache | None = None
) -> float:
    rows = score_rows(state, cache)
    mine = sum(rows[player])
    value = w.score * mine
    if w.opponents and state.n_players > 1:
        value -= w.opponents * max(sum(r) for i, r in enumerate(rows) if i != player)
    if w.route:
        value += w.route * route_progress(state, player)
    if w.supply:
        value += w.supply * min(state.supply_t[player] + state.supply_m[player], w.supply_cap)
    stock = state.stock_t[player] + state.stock_m[player]
    if w.stock:
        value += w.stock * stock
    if w.reserve:
        value += w.reserve * min(3, stock + state.supply_t[player] + state.supply_m[player])
    if w.ability:
        lv = state.levels[player]
        value += w.ability * sum(ABILITY_VALUE[a][lv[a]] for a in range(5))
    if w.actions_left and state.active == player and state.end_reason is None:
        value += w.actions_left * state.actions_left
    return value
