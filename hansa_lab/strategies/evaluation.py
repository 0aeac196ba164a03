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
``plan_actions``   a plan (0 by default; the archetypes and tuned players set them):
``plan_bank``      4 per development of the plan's ability (Actions, Bank, City Keys),
``plan_keys``      plus, while the track is not full, progress towards a route next to a
                   city offering it (3·q² per route holding own pieces and no opponent's,
                   q = own/n); ``plan_keys`` also adds the Kontors of the largest network
``plan_coellen``   4 per own special-prestige space (Coellen's, or the board's
                   equivalent); while one is free, progress towards the special route
                   (as above) and 3 if the Privilege allows a free space
``plan_control``   per city with an ability: 0.5 per own Kontor, 2 if the player
                   controls it; plus progress towards routes next to such cities
``patience``       game-end sense: after ``patience`` rounds the intent terms (``route``,
``fade``           the plans and a tip's term) fade, weighted 1 / (1 + (round −
                   patience) / fade), so a table that has stopped scoring turns its pieces
                   into points instead of holding them (without it, blocker tables and
                   two-player greedy tables could run for hundreds of rounds)
=================  =========================================================================

The strategy tips add one term each on top (see :mod:`hansa_lab.strategies.greedy`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from hansa_lab.engine.board import A_ACTIONS, A_BANK, A_BOOK, A_KEYS, A_PRIVILEGE
from hansa_lab.engine.scoring import (
    TRACK_MAX,
    KontorCache,
    city_controller,
    largest_network,
    score_rows,
)
from hansa_lab.engine.state import EMPTY, State
from hansa_lab.engine.vocabulary import GREEDY_WEIGHTS as _W

ABILITY_VALUE = (
    (0, 4, 4, 7, 7, 10),  # actions
    (0, 2, 3, 4),  # bank
    (0, 1, 2, 3),  # book
    (0, 2, 3, 4),  # privilege
    (0, 2, 2, 4, 6),  # keys
)


#: every ability track, in the order of their values in ABILITY_VALUE
_TRACKS = (A_ACTIONS, A_BANK, A_BOOK, A_PRIVILEGE, A_KEYS)


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights; the defaults are the shared vocabulary's
    (``greedy_weights`` of ``engine/data/vocabulary.json``, the core's too)."""

    score: float = _W["score"]
    opponents: float = _W["opponents"]
    route: float = _W["route"]
    supply: float = _W["supply"]
    supply_cap: int = int(_W["supply_cap"])
    stock: float = _W["stock"]
    reserve: float = _W["reserve"]
    ability: float = _W["ability"]
    actions_left: float = _W["actions_left"]
    plan_actions: float = _W["plan_actions"]
    plan_bank: float = _W["plan_bank"]
    plan_keys: float = _W["plan_keys"]
    plan_coellen: float = _W["plan_coellen"]
    plan_control: float = _W["plan_control"]
    patience: float = _W["patience"]
    fade: float = _W["fade"]

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


def _rewarding_cities(state: State, player: int) -> list[bool]:
    """Cities where establishing an adjacent route could reward the player now."""
    b = state.board
    lv = state.levels[player]
    priv = lv[A_PRIVILEGE]
    offices = state.offices
    starts = b.office_start
    colour = b.office_colour
    out = []
    for c in b.cities:
        ok = c.special_prestige
        if not ok:
            for a in c.abilities:
                if lv[a] < TRACK_MAX[a]:
                    ok = True
                    break
        if not ok:
            for i in range(starts[c.index], starts[c.index + 1]):
                if offices[i] == EMPTY:
                    ok = colour[i] <= priv
                    break
        out.append(ok)
    return out


class EvalCache:
    """Remembers the last position's per-city reward flags (they change only when
    Kontors or abilities change, which most candidate actions do not touch)."""

    def __init__(self) -> None:
        self.kontors = KontorCache()
        self._key: tuple[list[int], list[int], int] | None = None
        self._value: list[bool] = []

    def rewarding(self, state: State, player: int) -> list[bool]:
        key = self._key
        if (
            key is None
            or key[2] != player
            or key[1] != state.levels[player]
            or key[0] != state.offices
        ):
            self._key = (state.offices[:], state.levels[player][:], player)
            self._value = _rewarding_cities(state, player)
        return self._value


def _own_routes(posts: list[int], codes: tuple[int, int], post_route: tuple[int, ...]) -> set[int]:
    """Routes holding a piece with one of ``codes`` (list.index runs at C speed)."""
    routes: set[int] = set()
    for code in codes:
        i = -1
        try:
            while True:
                i = posts.index(code, i + 1)
                routes.add(post_route[i])
        except ValueError:
            pass
    return routes


def route_progress(state: State, player: int, cache: EvalCache | None = None) -> float:
    b = state.board
    posts = state.posts
    ps = b.post_start
    t, m = 2 * player, 2 * player + 1
    total = 0.0
    rewarding: list[bool] | None = None
    rc = b.route_cities
    # in route order, as the compiled core adds them (the same float sum)
    for r in sorted(_own_routes(posts, (t, m), b.post_route)):
        occ = posts[ps[r] : ps[r + 1]]
        own = occ.count(t) + occ.count(m)
        n = len(occ)
        if own == n:
            q = (n - 1) / n
            v = 3.0 * q * q + 0.1
        elif own + occ.count(EMPTY) == n:
            q = own / n
            v = 3.0 * q * q
        else:
            v = 0.3 * own
        if rewarding is None:
            rewarding = (
                cache.rewarding(state, player) if cache else _rewarding_cities(state, player)
            )
        x, y = rc[r]
        if not (rewarding[x] or rewarding[y]):
            v /= 3.0
        total += v
    return total


def intent_factor(state: State, w: Weights) -> float:
    """The weight of the intent terms in this round (1 until ``patience`` rounds)."""
    if state.round <= w.patience:
        return 1.0
    return 1.0 / (1.0 + (state.round - w.patience) / w.fade)


def evaluate(state: State, player: int, w: Weights, cache: EvalCache | None = None) -> float:
    f = intent_factor(state, w)
    rows = score_rows(state, cache.kontors if cache else None)
    mine = sum(rows[player])
    value = w.score * mine
    if w.opponents and state.n_players > 1:
        value -= w.opponents * max(sum(r) for i, r in enumerate(rows) if i != player)
    if w.route:
        value += w.route * route_progress(state, player, cache) * f
    if w.supply:
        value += w.supply * min(state.supply_t[player] + state.supply_m[player], w.supply_cap)
    stock = state.stock_t[player] + state.stock_m[player]
    if w.stock:
        value += w.stock * stock
    if w.reserve:
        value += w.reserve * min(2, stock + state.supply_t[player] + state.supply_m[player])
    if w.ability:
        lv = state.levels[player]
        av = ABILITY_VALUE
        a0, a1, a2, a3, a4 = _TRACKS
        value += w.ability * (
            av[a0][lv[a0]] + av[a1][lv[a1]] + av[a2][lv[a2]] + av[a3][lv[a3]] + av[a4][lv[a4]]
        )
    if w.actions_left and state.active == player and state.end_reason is None:
        value += w.actions_left * state.actions_left
    if w.plan_actions:
        value += w.plan_actions * track_plan(state, player, A_ACTIONS) * f
    if w.plan_bank:
        value += w.plan_bank * track_plan(state, player, A_BANK) * f
    if w.plan_keys:
        value += w.plan_keys * track_plan(state, player, A_KEYS) * f
    if w.plan_coellen:
        value += w.plan_coellen * coellen_plan(state, player) * f
    if w.plan_control:
        value += w.plan_control * control_plan(state, player) * f
    return value


def open_progress(state: State, player: int, routes: list[int]) -> float:
    """Progress towards establishing one of ``routes`` (in route order): 3·q² for each
    holding own pieces and no opponent's, q = own/n."""
    b = state.board
    posts = state.posts
    ps = b.post_start
    t, m = 2 * player, 2 * player + 1
    total = 0.0
    for r in routes:
        occ = posts[ps[r] : ps[r + 1]]
        own = occ.count(t) + occ.count(m)
        n = len(occ)
        if own and own + occ.count(EMPTY) == n:
            q = own / n
            total += 3.0 * q * q
    return total


def track_plan(state: State, player: int, ability: int) -> float:
    """The plan to develop ``ability`` (``plan_actions``, ``plan_bank``, ``plan_keys``)."""
    b = state.board
    lv = state.levels[player][ability]
    v = 4.0 * lv
    if lv < TRACK_MAX[ability]:
        cities = b.ability_cities.get(ability, ())
        routes = [r for r, (x, y) in enumerate(b.route_cities) if x in cities or y in cities]
        v += open_progress(state, player, routes)
    if ability == A_KEYS:
        v += largest_network(state, player)
    return v


def coellen_plan(state: State, player: int) -> float:
    """The plan to take special-prestige spaces (``plan_coellen``)."""
    b = state.board
    v = 4.0 * sum(1 for o in state.special if o != EMPTY and o >> 1 == player)
    priv = state.levels[player][A_PRIVILEGE]
    free = [colour for j, (_, colour) in enumerate(b.special_spaces) if state.special[j] == EMPTY]
    if free:
        if b.special_route >= 0:
            routes = [b.special_route]
        else:
            routes = [r for r, (x, y) in enumerate(b.route_cities)
                      if b.special_city in (x, y)]
        v += open_progress(state, player, routes)
        if min(free) <= priv:
            v += 3.0
    return v


def control_plan(state: State, player: int) -> float:
    """The plan to hold the cities with abilities (``plan_control``)."""
    b = state.board
    offices = state.offices
    starts = b.office_start
    t, m = 2 * player, 2 * player + 1
    v = 0.0
    for c in b.cities:
        if not c.abilities:
            continue
        i = c.index
        occ = offices[starts[i] : starts[i + 1]]
        own = occ.count(t) + occ.count(m)
        own += sum(1 for o in state.extras[i] if o >> 1 == player)
        v += 0.5 * own
        if city_controller(state, i) == player:
            v += 2.0
    routes = [r for r, (x, y) in enumerate(b.route_cities)
              if b.cities[x].abilities or b.cities[y].abilities]
    return v + open_progress(state, player, routes)
