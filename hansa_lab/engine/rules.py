"""The forward model: legal actions and applying them. It holds no state of its own.

* :func:`legal_actions` lists every choice of whoever must decide now
  (``state.current_player``), sub-decisions included: a displaced player's relocation,
  the pieces of a Move, moving/removing opponents with a marker, placing replacement
  markers at the end of a turn.
* :func:`apply` returns a new state; an illegal action raises
  :class:`~hansa_lab.engine.actions.IllegalActionError` saying why, and the given state is
  untouched.

Pending decisions are a stack of frames inside the state (``state.pending``):

====================================================  ====================================
frame                                                  meaning
====================================================  ====================================
``("relocate", player, route, piece, extras)``         displaced ``piece`` (-1 once placed)
                                                       and ``extras`` still allowed
``("move", player, moves_left)``                       a Move action in progress
``("move3", player, left)`` / ``("remove3", …)``       a move-3 / remove-3 marker in use
``("place_marker", player)``                           replacement markers to place
``("permanent", player, kind, left, t, m)``            a permanent marker after establishing
                                                       a maritime route (:mod:`.permanent`)
``("relocate_neutral", decider, route, piece, extras)``  two players: the displaced neutral
                                                       trader, placed by the other player
                                                       (:mod:`.neutral`)
``("favour_income", holder)``                          Emperor's Favour ``income_share``
                                                       (:mod:`.favour`)
====================================================  ====================================

Board and variant rules live beside this module: countries and permissions on Britannia
(:mod:`.regions`), permanent markers (:mod:`.permanent`), the neutral colour of the
two-player game (:mod:`.neutral`), Emperor's Favour (:mod:`.favour`); the primitives
they share are in :mod:`.effects`.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> s = new_game(GameConfig(n_players=3, seed=1))
>>> s2 = apply(s, Action("place", 0, 0))
>>> s2.route_occupants(0), s.route_occupants(0)
([0, -1, -1], [-1, -1, -1])
"""

from __future__ import annotations

from collections.abc import Callable

from hansa_lab.engine.actions import (
    DEVELOP,
    EXTRA,
    KONTOR,
    NONE,
    SPECIAL,
    USABLE_MARKERS,
    Action,
    format_action,
)
from hansa_lab.engine.board import ABILITIES, MERCHANT, TRADER, Board
from hansa_lab.engine.effects import (
    A_ACTIONS,
    A_BANK,
    A_BOOK,
    A_KEYS,
    A_PRIVILEGE,
    ACTIONS_VALUES,
    BANK_VALUES,
    BOOK_VALUES,
    DECLINE,
    STOP,
    add_extra,
    check_end,
    develop,
    fill_office,
    first_vacant_office,
    free_post,
    free_routes,
    log,
    may_go,
    score_control,
    set_frame,
    shift_options,
    stock_of,
    take_from_supply,
    take_loose,
    to_route,
    to_stock,
)
from hansa_lab.engine.scoring import TRACK_MAX
from hansa_lab.engine.state import EMPTY, FAVOUR_TILES, State
from hansa_lab.engine.variants import favour, neutral, permanent
from hansa_lab.engine.variants.regions import permitted_countries, use_permit
from hansa_lab.errors import IllegalActionError

__all__ = [
    "ACTIONS_VALUES",
    "A_ACTIONS",
    "A_BANK",
    "A_BOOK",
    "A_KEYS",
    "A_PRIVILEGE",
    "BANK_VALUES",
    "BOOK_VALUES",
    "DECLINE",
    "END",
    "MOVE",
    "STOP",
    "apply",
    "apply_in_place",
    "develop",
    "explain_illegal",
    "first_vacant_office",
    "free_post",
    "free_routes",
    "income_limit",
    "legal_actions",
    "marker_routes",
    "relocation_routes",
    "validate",
]

M_PLUS3, M_PLUS4, M_DEVELOP, M_SWAP, M_MOVE3, M_REMOVE3 = range(6)

END = Action("end")
MOVE = Action("move")


# --------------------------------------------------------------------------- queries
def income_limit(state: State, player: int) -> int | None:
    """Tradesmen one Income action may take (None = all)."""
    return BANK_VALUES[state.levels[player][A_BANK]]


def relocation_routes(state: State, origin: int, piece: int, colour: int = -1) -> list[int]:
    """Routes a displaced piece of ``colour`` may use: the nearest ring of routes around
    ``origin`` that has a free post for ``piece`` (adjacent routes first, then one step
    further). On Britannia only routes of the origin's country or England count. With
    the Emperor's Favour tile ``relocate_anywhere`` every route with a free post counts."""
    b = state.board
    regions = b.has_regions
    if colour >= 0 and state.has_favour(colour, "relocate_anywhere"):
        return [
            r
            for r in range(b.n_routes)
            if free_post(state, r, piece) >= 0 and (not regions or may_go(b, origin, r, False))
        ]
    for ring in b.route_rings[origin]:
        if regions:
            found = [
                r for r in ring if may_go(b, origin, r, False) and free_post(state, r, piece) >= 0
            ]
        else:
            found = [r for r in ring if free_post(state, r, piece) >= 0]
        if found:
            return found
    return []


def marker_routes(state: State) -> list[int]:
    """Routes that may receive a replacement marker: no marker, no tradesmen, an endpoint
    city with a vacant printed office (and not a permanent-marker or regional route)."""
    b = state.board
    posts, offices = state.posts, state.offices
    out = []
    for r, route in enumerate(b.routes):
        if state.route_marker[r] is not None or route.permanent_marker or route.region:
            continue
        if any(posts[i] != EMPTY for i in range(b.post_start[r], b.post_start[r + 1])):
            continue
        if any(
            offices[i] == EMPTY for c in (route.a, route.b) for i in b.city_offices(c)
        ):
            out.append(r)
    return out


# --------------------------------------------------------------------------- legal
def legal_actions(state: State) -> list[Action]:
    """Every legal action of ``state.current_player`` (empty once the game is over)."""
    if state.end_reason is not None:
        return []
    if state.pending:
        frame = state.pending[-1]
        return _PENDING_LEGAL[frame[0]](state, frame)
    return _turn_actions(state)


def _turn_actions(s: State) -> list[Action]:
    p = s.active
    b = s.board
    acts: list[Action] = []
    if s.actions_left > 0:
        st, sm = s.stock_t[p], s.stock_m[p]
        if st + sm:
            cap = income_limit(s, p)
            if cap is None:
                cap = st + sm
            income = _INCOME
            for m in range(min(cap, sm) + 1):
                row = income[m]
                acts.extend(row[t] for t in range(1 if m == 0 else 0, min(cap - m, st) + 1))
        sup_t, sup_m = s.supply_t[p], s.supply_m[p]
        posts = s.posts
        mo = b.post_merchant_only
        ps = b.post_start
        place = _place_table(b)
        have = sup_t + sup_m
        own_on_board = False
        any_free = False
        mine = (2 * p, 2 * p + 1)
        # Britannia: Place/Displace in Wales/Scotland only with a permission this turn
        closed = _closed_routes(s, p) if b.has_regions else ()
        for r in range(b.n_routes):
            lo, hi = ps[r], ps[r + 1]
            occ = posts[lo:hi]
            n_free = occ.count(EMPTY)
            if n_free == hi - lo:  # empty route
                any_free = True
                if closed and r in closed:
                    continue
                if sup_t and len(b.routes[r].merchant_only) < hi - lo:  # a trader's post
                    acts.append(place[r][TRADER])
                if sup_m:
                    acts.append(place[r][MERCHANT])
                continue
            n_own = occ.count(mine[0]) + occ.count(mine[1])
            if n_own:
                own_on_board = True
                if n_own == hi - lo:
                    _establish_options(s, p, r, acts)
                    continue
            if closed and r in closed:
                any_free = any_free or n_free > 0
                continue
            if n_own + n_free < hi - lo and have >= 2:
                for i in range(lo, hi):
                    o = posts[i]
                    if o != EMPTY and o >> 1 != p and have >= 2 + (o & 1):
                        _displace_options(acts, i, o, sup_t, sup_m, mo[i])
            if n_free:
                any_free = True
                if sup_t and any(posts[i] == EMPTY and not mo[i] for i in range(lo, hi)):
                    acts.append(place[r][TRADER])
                if sup_m:
                    acts.append(place[r][MERCHANT])
        if own_on_board and any_free:
            acts.append(MOVE)
    if s.markers[p]:
        _marker_options(s, p, acts)
        if s.favour_display:
            favour.options(s, p, acts)
    acts.append(END)
    return acts


def _closed_routes(s: State, p: int) -> frozenset[int]:
    """Routes where ``p`` may not Place/Displace now (regions without a permission)."""
    allowed = permitted_countries(s, p)
    country = s.board.route_country
    return frozenset(r for r in range(s.board.n_routes) if country[r] not in allowed)


_INCOME = [[Action("income", t, m) for t in range(32)] for m in range(5)]
_PLACE: dict[str, list[tuple[Action, Action]]] = {}


def _place_table(b: Board) -> list[tuple[Action, Action]]:
    key = b.name + "/" + b.variant
    table = _PLACE.get(key)
    if table is None:
        table = [(Action("place", r, TRADER), Action("place", r, MERCHANT)) for r in
                 range(b.n_routes)]
        _PLACE[key] = table
    return table


def _displace_options(
    acts: list[Action], i: int, o: int, sup_t: int, sup_m: int, merchant_only: bool
) -> None:
    cost = 1 + (o & 1)
    for k in (TRADER, MERCHANT):
        if merchant_only and k == TRADER:
            continue
        t = sup_t - (k == TRADER)
        m = sup_m - (k == MERCHANT)
        if t < 0 or m < 0 or t + m < cost:
            continue
        for pay_m in range(max(0, cost - t), min(cost, m) + 1):
            acts.append(Action("displace", i, k, pay_m))


def _establish_options(s: State, p: int, r: int, acts: list[Action]) -> None:
    b = s.board
    route = b.routes[r]
    occ = s.posts[b.post_start[r] : b.post_start[r + 1]]
    has = (any(o & 1 == TRADER for o in occ), any(o & 1 == MERCHANT for o in occ))
    priv = s.levels[p][A_PRIVILEGE]
    acts.append(Action("establish", r, NONE))
    ends = (route.a, route.b)
    can_extra = "extra" in s.markers[p]
    for e, c in enumerate(ends):
        i = first_vacant_office(s, c)
        if i >= 0 and b.office_colour[i] <= priv and has[b.office_shape[i]]:
            acts.append(Action("establish", r, KONTOR, e))
        # an extra Kontor needs the leftmost printed office taken; a yellow/green city
        # (no printed offices) takes Kontors only this way or by a permanent marker
        city = b.cities[c]
        if can_extra and (
            city.yellow_green or (city.offices and s.offices[b.office_start[c]] != EMPTY)
        ):
            for k in (TRADER, MERCHANT):
                if has[k]:
                    acts.append(Action("establish", r, EXTRA, e * 2 + k))
    abilities = sorted({a for c in ends for a in b.cities[c].abilities})
    for a in abilities:
        if s.levels[p][a] < TRACK_MAX[a]:
            acts.append(Action("establish", r, DEVELOP, a))
    if has[MERCHANT] and _special_route(s, r):
        for j, (_, colour) in enumerate(b.special_spaces):
            if s.special[j] == EMPTY and colour <= priv:
                acts.append(Action("establish", r, SPECIAL, j))


def _special_route(s: State, r: int) -> bool:
    b = s.board
    if b.special_route >= 0:
        return r == b.special_route
    return b.special_city in b.route_cities[r]


def _marker_options(s: State, p: int, acts: list[Action]) -> None:
    held = set(s.markers[p])
    if "plus3" in held:
        acts.append(Action("marker", M_PLUS3))
    if "plus4" in held:
        acts.append(Action("marker", M_PLUS4))
    if "develop" in held:
        for a in range(len(ABILITIES)):
            if s.levels[p][a] < TRACK_MAX[a]:
                acts.append(Action("marker", M_DEVELOP, a))
    if "swap" in held:
        offices = s.offices
        b = s.board
        for c in range(b.n_cities):
            for i in range(b.office_start[c], b.office_start[c + 1] - 1):
                o1, o2 = offices[i], offices[i + 1]
                if o1 != EMPTY and o2 != EMPTY and o1 != o2 and (o1 >> 1 == p or o2 >> 1 == p):
                    acts.append(Action("marker", M_SWAP, i))
    if "move3" in held or "remove3" in held:
        opp = any(o != EMPTY and o >> 1 != p for o in s.posts)
        if opp and "remove3" in held:
            acts.append(Action("marker", M_REMOVE3))
        if opp and "move3" in held and EMPTY in s.posts:
            acts.append(Action("marker", M_MOVE3))


def _has_usable_marker(s: State, p: int) -> bool:
    if not s.markers[p]:
        return False
    acts: list[Action] = []
    _marker_options(s, p, acts)
    return bool(acts)


def _relocating(s: State, frame: tuple) -> int:
    """The colour being relocated: the decider of a "relocate" frame, or the neutral."""
    return s.neutral if frame[0] == "relocate_neutral" else frame[1]


def _relocate_legal(s: State, frame: tuple) -> list[Action]:
    kind, _, origin, piece, extras = frame
    v = _relocating(s, frame)
    acts: list[Action] = []
    if piece >= 0:
        acts.extend(Action("relocate", r) for r in relocation_routes(s, origin, piece, v))
    if extras > 0:
        _relocate_extra_options(s, v, origin, acts)
    if piece < 0 and kind == "relocate":  # the neutral's extra trader is not optional
        acts.append(DECLINE)
    return acts


def _relocate_extra_options(s: State, v: int, origin: int, acts: list[Action]) -> None:
    kinds: list[int]
    stock_t, stock_m = stock_of(s, v)
    if stock_t + stock_m:
        kinds = [k for k, n in ((TRADER, stock_t), (MERCHANT, stock_m)) if n]
    elif v == s.neutral:
        return  # the neutral colour takes extras only from its pool
    elif s.supply_t[v] + s.supply_m[v]:
        kinds = [k for k, n in ((TRADER, s.supply_t[v]), (MERCHANT, s.supply_m[v])) if n]
    else:
        kinds = []
        routes = {k: relocation_routes(s, origin, k, v) for k in (TRADER, MERCHANT)}
        pr = s.board.post_route
        for i, o in enumerate(s.posts):
            if o != EMPTY and o >> 1 == v:
                acts.extend(
                    Action("relocate_extra", r, -1, i) for r in routes[o & 1] if r != pr[i]
                )
        return
    for k in kinds:
        acts.extend(Action("relocate_extra", r, k) for r in relocation_routes(s, origin, k, v))


def _move_legal(s: State, frame: tuple) -> list[Action]:
    _, p, left = frame
    return _shift_options(s, p, own=True, kind="move_piece", swaps=left >= 2)


def _shift_options(s: State, p: int, own: bool, kind: str, swaps: bool = False) -> list[Action]:
    """Moves of own pieces (Move action: on Britannia within the piece's country or to
    England) or of opponents' pieces (move-3 marker: within the piece's country)."""
    b = s.board
    posts = s.posts
    acts: list[Action] = []
    pieces = [i for i, o in enumerate(posts) if o != EMPTY and ((o >> 1 == p) == own)]
    shift_options(s, pieces, kind, not own, acts)
    if swaps:
        pr = b.post_route
        mo = b.post_merchant_only
        country = b.route_country
        for x in pieces:
            for y in pieces:
                if x < y and posts[x] & 1 != posts[y] & 1 and pr[x] != pr[y]:
                    t_post = y if posts[x] & 1 == TRADER else x
                    if not mo[t_post] and country[pr[x]] == country[pr[y]]:
                        acts.append(Action("swap", x, y))
    acts.append(STOP)
    return acts


def _move3_legal(s: State, frame: tuple) -> list[Action]:
    return _shift_options(s, frame[1], own=False, kind="shift")


def _remove3_legal(s: State, frame: tuple) -> list[Action]:
    p = frame[1]
    acts = [Action("remove", i) for i, o in enumerate(s.posts) if o != EMPTY and o >> 1 != p]
    acts.append(STOP)
    return acts


def _place_marker_legal(s: State, frame: tuple) -> list[Action]:
    return [Action("place_marker", r) for r in marker_routes(s)]


_PENDING_LEGAL: dict[str, Callable[[State, tuple], list[Action]]] = {
    "relocate": _relocate_legal,
    "relocate_neutral": _relocate_legal,
    "move": _move_legal,
    "move3": _move3_legal,
    "remove3": _remove3_legal,
    "place_marker": _place_marker_legal,
    "permanent": permanent.legal,
    "favour_income": favour.income_legal,
}


# --------------------------------------------------------------------------- apply
def apply(state: State, action: Action, *, check: bool = True) -> State:
    """Return the state after ``action``. ``state`` itself is never modified.

    With ``check=False`` the caller promises that ``action`` came from
    :func:`legal_actions` of this very state (the simulation loop does)."""
    if check:
        validate(state, action)
    s = state.clone()
    _apply_in_place(s, action)
    return s


def apply_in_place(state: State, action: Action, *, check: bool = True) -> None:
    """Like :func:`apply` but mutates ``state`` (for fast loops that keep no history).
    An illegal action raises before anything changes."""
    if check:
        validate(state, action)
    state.events = []
    _apply_in_place(state, action)


def validate(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` with the reason unless ``action`` is legal."""
    if not isinstance(action, Action):
        raise IllegalActionError(f"not an Action: {action!r}")
    if type(action.kind) is not str or any(type(x) is not int for x in action[1:]):
        # a look-alike (float or numpy fields) equals a legal action but would corrupt the
        # state it is applied to: refused before anything changes
        raise IllegalActionError(f"an Action's kind is a str and its arguments ints: {action!r}")
    if action not in legal_actions(state):
        raise IllegalActionError(explain_illegal(state, action))


def _apply_in_place(s: State, action: Action) -> None:
    _HANDLERS[action.kind](s, action)
    s.n_actions += 1
    _settle(s)


def _do_income(s: State, a: Action) -> None:
    p = s.active
    s.stock_t[p] -= a.a
    s.stock_m[p] -= a.b
    s.supply_t[p] += a.a
    s.supply_m[p] += a.b
    s.actions_left -= 1
    if s.favours:
        favour.after_income(s, p)


def _do_place(s: State, a: Action) -> None:
    p = s.active
    take_from_supply(s, p, a.b)
    to_route(s, a.a, p * 2 + a.b)
    s.actions_left -= 1
    country = s.board.route_country[a.a]
    if country:
        use_permit(s, p, country)


def _do_displace(s: State, a: Action) -> None:
    p = s.active
    i, k, pay_m = a.a, a.b, a.c
    victim = s.posts[i]
    cost = 1 + (victim & 1)
    take_from_supply(s, p, k)
    s.posts[i] = p * 2 + k
    s.supply_m[p] -= pay_m
    s.stock_m[p] += pay_m
    s.supply_t[p] -= cost - pay_m
    s.stock_t[p] += cost - pay_m
    s.actions_left -= 1
    r = s.board.post_route[i]
    country = s.board.route_country[r]
    if country:
        use_permit(s, p, country)
    v = victim >> 1
    log(s, "displace", p, v, r, victim & 1)
    if v == s.neutral:
        # two players: the neutral trader comes back with one more, placed by the other
        s.pending = (*s.pending, ("relocate_neutral", 1 - p, r, TRADER, 1))
        return
    extras = cost + (victim & 1 == TRADER and s.has_favour(v, "displaced_two"))
    s.pending = (*s.pending, ("relocate", v, r, victim & 1, extras))


def _do_move(s: State, a: Action) -> None:
    s.actions_left -= 1
    s.pending = (*s.pending, ("move", s.active, BOOK_VALUES[s.levels[s.active][A_BOOK]]))


def _spend(s: State, n: int) -> None:
    f = s.pending[-1]
    set_frame(s, (*f[:2], f[2] - n))


def _do_move_piece(s: State, a: Action) -> None:
    o = s.posts[a.a]
    s.posts[a.a] = EMPTY
    to_route(s, a.b, o)
    _spend(s, 1)


def _do_swap(s: State, a: Action) -> None:
    s.posts[a.a], s.posts[a.b] = s.posts[a.b], s.posts[a.a]
    _spend(s, 2)


def _do_remove(s: State, a: Action) -> None:
    o = s.posts[a.a]
    s.posts[a.a] = EMPTY
    if o >> 1 == s.neutral:
        s.neutral_pool += 1
    elif o & 1:
        s.supply_m[o >> 1] += 1
    else:
        s.supply_t[o >> 1] += 1
    _spend(s, 1)


def _do_stop(s: State, a: Action) -> None:
    if s.pending[-1][0] == "permanent":
        permanent.finish(s)
    else:
        s.pending = s.pending[:-1]


def _do_relocate(s: State, a: Action) -> None:
    f = s.pending[-1]
    to_route(s, a.a, _relocating(s, f) * 2 + f[3])
    set_frame(s, (*f[:3], -1, f[4]))


def _do_relocate_extra(s: State, a: Action) -> None:
    f = s.pending[-1]
    v = _relocating(s, f)
    if a.c >= 0:
        k = s.posts[a.c] & 1
        s.posts[a.c] = EMPTY
    else:
        k = a.b
        take_loose(s, v, k)
    to_route(s, a.a, v * 2 + k)
    set_frame(s, (*f[:4], f[4] - 1))


def _do_decline(s: State, a: Action) -> None:
    f = s.pending[-1]
    if f[0] == "favour_income":
        s.pending = s.pending[:-1]
    else:
        set_frame(s, (*f[:4], 0))


def _do_establish(s: State, a: Action) -> None:
    p = s.active
    b = s.board
    r, reward, arg = a.a, a.b, a.c
    route = b.routes[r]
    s.actions_left -= 1
    log(s, "establish", p, r)
    # 1. control prestige for each endpoint city
    score_control(s, r)
    # 2. bonus marker and its replacement
    m = s.route_marker[r]
    if m is not None:
        s.route_marker[r] = None
        s.markers[p] = (*s.markers[p], m)
        log(s, "marker_taken", p, m, r)
        if s.bag:
            s.drawn = (*s.drawn, s.bag[0])
            s.bag = s.bag[1:]
        else:
            s.end_after_action = "markers"
    # 3. the reward, then everything else returns to the general stock
    lo, hi = b.post_start[r], b.post_start[r + 1]
    pieces = [s.posts[i] & 1 for i in range(lo, hi)]
    for i in range(lo, hi):
        s.posts[i] = EMPTY
    if reward == KONTOR:
        i = first_vacant_office(s, (route.a, route.b)[arg])
        k = b.office_shape[i]
        pieces.remove(k)
        fill_office(s, p, i, k)
    elif reward == EXTRA:
        k = arg & 1
        pieces.remove(k)
        _use_marker(s, p, "extra")
        add_extra(s, p, (route.a, route.b)[arg >> 1], k)
    elif reward == DEVELOP:
        develop(s, p, arg)
    elif reward == SPECIAL:
        pieces.remove(MERCHANT)
        s.special[arg] = p * 2 + MERCHANT
        log(s, "special", p, arg, s.special_points[arg])
    n_m = sum(pieces)
    to_stock(s, p, MERCHANT, n_m)
    to_stock(s, p, TRADER, len(pieces) - n_m)
    # 4. a maritime route's permanent marker, then (once it is resolved) the end check
    if route.permanent_marker:
        permanent.start(s, p, r, route.permanent_marker, pieces)
    else:
        check_end(s)


def _use_marker(s: State, p: int, kind: str) -> None:
    held = list(s.markers[p])
    held.remove(kind)
    s.markers[p] = tuple(held)
    s.markers_used[p] = (*s.markers_used[p], kind)
    log(s, "marker_used", p, kind)


def _do_marker(s: State, a: Action) -> None:
    p = s.active
    kind = USABLE_MARKERS[a.a]
    _use_marker(s, p, kind)
    if a.a == M_PLUS3:
        s.actions_left += 3
    elif a.a == M_PLUS4:
        s.actions_left += 4
    elif a.a == M_DEVELOP:
        develop(s, p, a.b)
    elif a.a == M_SWAP:
        i = a.b
        s.offices[i], s.offices[i + 1] = s.offices[i + 1], s.offices[i]
    elif a.a == M_MOVE3:
        s.pending = (*s.pending, ("move3", p, 3))
    elif a.a == M_REMOVE3:
        s.pending = (*s.pending, ("remove3", p, 3))


def _do_place_marker(s: State, a: Action) -> None:
    m = s.drawn[0]
    s.route_marker[a.a] = m
    s.drawn = s.drawn[1:]
    log(s, "marker_placed", s.active, m, a.a)
    if s.neutral_pool >= 0:
        neutral.marker_placed(s, a.a)


def _do_favour(s: State, a: Action) -> None:
    favour.take(s, a)
    _end_turn(s)  # the whole turn is given up


def _do_end(s: State, a: Action) -> None:
    _end_turn(s)


def _end_turn(s: State) -> None:
    s.actions_left = 0
    if s.drawn:
        s.pending = (*s.pending, ("place_marker", s.active))
    else:
        _next_player(s)


def _next_player(s: State) -> None:
    s.active = (s.active + 1) % s.n_players
    if s.active == 0:
        s.round += 1
    s.turn += 1
    s.actions_left = ACTIONS_VALUES[s.levels[s.active][A_ACTIONS]]
    if s.favours and "extra_action" in s.favours[s.active]:
        s.actions_left += 1
    s.turn_start = s.n_actions
    s.permits_used = ()


# --------------------------------------------------------------------------- settle
def _settle(s: State) -> None:
    """Resolve what needs no decision: the neutral colour's routes (two players),
    finished or impossible pending decisions, and the end of a turn when the active
    player has no actions and no usable marker left."""
    while True:
        if s.end_reason is not None:
            for f in s.pending:  # a displaced piece still in hand goes to the stock
                if f[0] in ("relocate", "relocate_neutral") and f[3] >= 0:
                    to_stock(s, _relocating(s, f), f[3])
            s.pending = ()
            return
        if (
            s.neutral_pool >= 0
            and not (s.pending and s.pending[-1][0] == "relocate_neutral")
            and neutral.settle(s)
        ):
            continue
        if s.pending:
            f = s.pending[-1]
            if _SETTLE[f[0]](s, f):
                continue
            return
        if s.actions_left <= 0 and not _has_usable_marker(s, s.active):
            _end_turn(s)
            continue
        return


def _settle_relocate(s: State, f: tuple) -> bool:
    kind, decider, origin, piece, extras = f
    v = _relocating(s, f)
    if piece >= 0 and not relocation_routes(s, origin, piece, v):
        # nowhere on the board to go: the piece returns to the general stock
        to_stock(s, v, piece)
        piece = -1
    if extras > 0:
        opts: list[Action] = []
        _relocate_extra_options(s, v, origin, opts)
        if not opts:
            extras = 0
    if piece < 0 and extras == 0:
        s.pending = s.pending[:-1]
        return True
    set_frame(s, (kind, decider, origin, piece, extras))
    return False


def _settle_place_marker(s: State, f: tuple) -> bool:
    if not s.drawn:
        s.pending = s.pending[:-1]
        _next_player(s)
        return True
    if not marker_routes(s):
        log(s, "marker_discarded", s.active, s.drawn[0])
        s.discarded = (*s.discarded, s.drawn[0])
        s.drawn = s.drawn[1:]
        return True
    return False


def _settle_used_up(s: State, f: tuple) -> bool:
    """A Move / move-3 / remove-3 with nothing left to do ends by itself."""
    if f[2] <= 0:
        s.pending = s.pending[:-1]
        return True
    return False


def _settle_permanent(s: State, f: tuple) -> bool:
    if f[3] <= 0 or permanent.legal(s, f) == [STOP]:
        permanent.finish(s)
        return True
    return False


def _settle_nothing(s: State, f: tuple) -> bool:
    return False


_SETTLE: dict[str, Callable[[State, tuple], bool]] = {
    "relocate": _settle_relocate,
    "relocate_neutral": _settle_relocate,
    "place_marker": _settle_place_marker,
    "move": _settle_used_up,
    "move3": _settle_used_up,
    "remove3": _settle_used_up,
    "permanent": _settle_permanent,
    "favour_income": _settle_nothing,
}

_HANDLERS: dict[str, Callable[[State, Action], None]] = {
    "income": _do_income,
    "place": _do_place,
    "displace": _do_displace,
    "move": _do_move,
    "move_piece": _do_move_piece,
    "swap": _do_swap,
    "shift": _do_move_piece,
    "remove": _do_remove,
    "stop": _do_stop,
    "relocate": _do_relocate,
    "relocate_extra": _do_relocate_extra,
    "decline": _do_decline,
    "establish": _do_establish,
    "marker": _do_marker,
    "place_marker": _do_place_marker,
    "favour": _do_favour,
    "favour_take": favour.do_take,
    "end": _do_end,
    **permanent.HANDLERS,
}

_CONTEXT = {
    "relocate": ("relocate", "relocate_extra", "decline"),
    "relocate_neutral": ("relocate", "relocate_extra"),
    "move": ("move_piece", "swap", "stop"),
    "move3": ("shift", "stop"),
    "remove3": ("remove", "stop"),
    "place_marker": ("place_marker",),
    "permanent": (*permanent.HANDLERS, "stop"),
    "favour_income": ("favour_take", "decline"),
}
_TURN_KINDS = ("income", "place", "displace", "move", "establish", "marker", "favour", "end")


def explain_illegal(state: State, action: Action) -> str:
    """A sentence saying why ``action`` is not legal in ``state``."""
    try:
        text = format_action(state.board, action)
    except (ValueError, IndexError, KeyError, TypeError):
        text = repr(action)
    where = (
        f"{state.board.name} seed {state.config.seed}, round {state.round}, "
        f"turn {state.turn}, action {state.n_actions + 1}"
    )
    head = f"illegal action {text!r} ({where}): "
    if state.end_reason is not None:
        return head + f"the game is over ({state.end_reason})"
    if action.kind not in _HANDLERS:
        return head + f"unknown action kind {action.kind!r}"
    p = state.current_player
    if state.pending:
        frame = state.pending[-1]
        allowed = _CONTEXT[frame[0]]
        if action.kind not in allowed:
            return head + (
                f"player {p} must first resolve a pending {frame[0]!r} decision "
                f"(allowed: {', '.join(allowed)})"
            )
    elif action.kind not in _TURN_KINDS:
        return head + f"{action.kind!r} is only a sub-decision; nothing is pending"
    reason = _specific_reason(state, p, action)
    return head + (reason or "not among the legal actions of this position")


def _specific_reason(s: State, p: int, a: Action) -> str | None:
    b = s.board
    k = a.kind
    reason = _variant_reason(s, p, a)
    if reason:
        return reason
    needs_action = k in ("income", "place", "displace", "move", "establish")
    if needs_action and s.actions_left <= 0:
        return f"player {p} has no actions left this turn"
    if k == "income":
        limit = income_limit(s, p)
        if a.a < 0 or a.b < 0 or a.a + a.b == 0:
            return "income must take at least one tradesman"
        if a.a > s.stock_t[p] or a.b > s.stock_m[p]:
            return f"general stock holds only {s.stock_t[p]} traders, {s.stock_m[p]} merchants"
        if limit is not None and a.a + a.b > limit:
            return f"income is limited to {limit} tradesmen (Bank)"
    if k in ("place", "displace"):
        supply = (s.supply_t[p], s.supply_m[p])
        piece = a.b
        if piece not in (TRADER, MERCHANT) or supply[piece] == 0:
            return "no such piece in the personal supply"
    if k == "place" and (not 0 <= a.a < b.n_routes or free_post(s, a.a, a.b) < 0):
        return "that route has no free post for this piece"
    if k == "displace":
        if not 0 <= a.a < b.n_posts or s.posts[a.a] == EMPTY:
            return "that post is empty: nothing to displace"
        if s.posts[a.a] >> 1 == p:
            return "you cannot displace your own piece"
        return "the personal supply cannot pay the displacement in full"
    if k == "move" and not any(o != EMPTY and o >> 1 == p for o in s.posts):
        return f"player {p} has no tradesmen on the board to move"
    if k in ("move_piece", "shift", "swap", "remove"):
        own = k in ("move_piece", "swap")
        posts = [a.a, a.b] if k == "swap" else [a.a]
        for i in posts:
            if not 0 <= i < b.n_posts or s.posts[i] == EMPTY:
                return "that post is empty"
            if (s.posts[i] >> 1 == p) != own:
                return "that piece is not yours" if own else "that piece is not an opponent's"
        if k in ("move_piece", "shift"):
            if not 0 <= a.b < b.n_routes or free_post(s, a.b, s.posts[a.a] & 1) < 0:
                return f"route r{a.b} has no free post for that piece (moving never displaces)"
            if b.post_route[a.a] == a.b:
                return "the piece is already on that route"
        if k == "swap":
            frame = s.pending[-1]
            if frame[2] < 2:
                return "a trader/merchant swap needs two moves left"
            if s.posts[a.a] & 1 == s.posts[a.b] & 1:
                return "a swap exchanges one own trader with one own merchant"
    if k == "establish":
        if not 0 <= a.a < b.n_routes:
            return "no such route"
        occ = s.route_occupants(a.a)
        if any(o == EMPTY or o >> 1 != p for o in occ):
            return f"route r{a.a} is not fully occupied by player {p}'s tradesmen"
        if a.b == EXTRA and "extra" not in s.markers[p]:
            return "an extra Kontor needs an unused extra-Kontor marker"
        return "that reward is not available (office colour/shape, Privilege, ability level)"
    if k == "marker":
        if not 0 <= a.a < len(USABLE_MARKERS) or USABLE_MARKERS[a.a] not in s.markers[p]:
            return "player does not hold an unused marker of that kind"
        if a.a == M_DEVELOP and (
            not 0 <= a.b < len(ABILITIES) or s.levels[p][a.b] >= TRACK_MAX[a.b]
        ):
            return "that ability is already fully developed"
        if a.a == M_SWAP:
            return "swap needs two adjacent occupied offices of one city, one of them yours"
        if a.a in (M_MOVE3, M_REMOVE3):
            return "there is no opponent's piece on the board (or no free post) to use it on"
    if k == "place_marker":
        if not 0 <= a.a < b.n_routes:
            return "no such route"
        if s.route_marker[a.a] is not None:
            return f"route r{a.a} already has a bonus marker"
        if any(o != EMPTY for o in s.route_occupants(a.a)):
            return f"route r{a.a} has tradesmen on it"
        return f"neither city of route r{a.a} has a vacant office (or the route takes no marker)"
    if k == "relocate" and s.pending and s.pending[-1][3] < 0:
        return "the displaced piece has already been placed"
    if k == "relocate_extra":
        frame = s.pending[-1]
        v = _relocating(s, frame)
        if frame[4] <= 0:
            return "no extra pieces are left to place"
        if v == s.neutral and (a.b != TRADER or a.c >= 0):
            return "the extra neutral trader comes from the neutral pool (a trader)"
        if a.c < 0 and s.stock_t[v] + s.stock_m[v] and (s.stock_t[v], s.stock_m[v])[a.b] == 0:
            return (
                "extra pieces come from the general stock first: it holds no "
                f"{('trader', 'merchant')[a.b]}"
            )
        if a.c < 0 and not s.stock_t[v] + s.stock_m[v] and (
            (s.supply_t[v], s.supply_m[v])[a.b] == 0
        ):
            return "the general stock is empty and the personal supply has no such piece"
        if a.c >= 0 and (s.stock_t[v] + s.stock_m[v] + s.supply_t[v] + s.supply_m[v]):
            return "pieces are moved from own posts only when stock and supply are empty"
    if k in ("relocate", "relocate_extra"):
        where = " of the origin's country or England" if b.has_regions else ""
        return (
            f"relocation must use the nearest routes{where} with a free post (adjacent first)"
        )
    return None


def _variant_reason(s: State, p: int, a: Action) -> str | None:
    """Reasons that come from the board or a variant: Britannia's permissions and
    countries, permanent markers, Emperor's Favour."""
    b = s.board
    k = a.kind
    if b.has_regions and s.actions_left > 0 and not s.pending and k in ("place", "displace"):
        r = a.a if k == "place" else (b.post_route[a.a] if 0 <= a.a < b.n_posts else -1)
        if 0 <= r < b.n_routes and b.route_country[r] not in permitted_countries(s, p):
            country = b.route_country[r]
            cities = " or ".join(
                b.city_names[c] for c, cs in b.permission_cities if country in cs
            )
            return (
                f"placing or displacing in {b.countries[country]} needs a permission: the "
                f"rightmost Kontor in {cities}, each usable once per turn"
            )
    if b.has_regions and k in ("move_piece", "shift", "perm_move") and (
        0 <= a.a < b.n_posts and 0 <= a.b < b.n_routes
    ):
        strict = k != "move_piece"
        src = b.post_route[a.a]
        if not may_go(b, src, a.b, strict):
            home = "" if strict else f" or to {b.countries[0]}"
            return (
                f"a piece in {b.countries[b.route_country[src]]} may move only within its "
                f"country{home}"
            )
    if k == "favour":
        if not s.config.option("emperor"):
            return "Emperor's Favour is not in this game (rule option emperor)"
        if s.n_actions != s.turn_start:
            return "an Emperor's Favour tile is taken only at the start of the turn"
        if not 0 <= a.a < len(FAVOUR_TILES) or FAVOUR_TILES[a.a] not in s.favour_display:
            return "that Emperor's Favour tile is not available"
        return "taking a tile needs two unused collected markers of the kinds named"
    if k == "favour_take":
        return "the general stock holds no such piece"
    if k.startswith("perm_"):
        frame = s.pending[-1]
        if frame[3] <= 0:
            return "the permanent marker is used up"
        return (
            f"not what the permanent marker {frame[2]!r} allows here (see "
            "hansa_lab.engine.variants.permanent)"
        )
    return None
