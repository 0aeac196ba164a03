"""The forward model: legal actions and applying them. It holds no state of its own.

* :func:`legal_actions` lists every choice of whoever must decide now
  (``state.current_player``), sub-decisions included: a displaced player's relocation,
  the pieces of a Move, moving/removing opponents with a marker, placing replacement
  markers at the end of a turn.
* :func:`apply` returns a new state; an illegal action raises
  :class:`~hansa_lab.errors.IllegalActionError` saying why, and the given state is
  untouched.

Pending decisions are a stack of typed records inside the state (``state.pending``), each
with its own legal actions and settle step: :mod:`hansa_lab.engine.decisions` (relocation
after a displacement, Move, move-3, remove-3, replacement markers) and the variants'
(permanent markers, Emperor's Favour income).

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
    M_DEVELOP,
    M_MOVE3,
    M_PLUS3,
    M_PLUS4,
    M_REMOVE3,
    M_SWAP,
    NONE,
    SPECIAL,
    USABLE_MARKERS,
    Action,
)
from hansa_lab.engine.board import (
    A_ACTIONS,
    A_BANK,
    A_BOOK,
    A_KEYS,
    A_PRIVILEGE,
    ABILITIES,
    MERCHANT,
    PIECE_NAMES,
    TRADER,
    Board,
)
from hansa_lab.engine.decisions import (
    Move,
    MoveOpponents,
    Moves,
    PlaceMarkers,
    Relocate,
    RelocateNeutral,
    Relocation,
    RemoveOpponents,
    marker_routes,
    push,
    relocation_routes,
    replace_top,
    top,
)
from hansa_lab.engine.effects import (
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
    income_limit,
    log,
    next_player,
    score_control,
    take_from_supply,
    take_loose,
    to_route,
    to_stock,
)
from hansa_lab.engine.events import Event
from hansa_lab.engine.explain import explain_illegal
from hansa_lab.engine.scoring import TRACK_MAX
from hansa_lab.engine.state import EMPTY, State
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

END = Action("end")
MOVE = Action("move")


# --------------------------------------------------------------------------- queries
# --------------------------------------------------------------------------- legal
def legal_actions(state: State) -> list[Action]:
    """Every legal action of ``state.current_player`` (empty once the game is over)."""
    if state.end_reason is not None:
        return []
    if state.pending:
        return state.pending[-1].legal(state)
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


def ability_city(b: Board, ends: tuple[int, int], ability: int) -> int:
    """The end of an established route that offers ``ability`` (the first if both do)."""
    return next(c for c in ends if ability in b.cities[c].abilities)


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


def check_types(action: object) -> None:
    """Refuse what is not an :class:`Action` of a ``str`` kind and ``int`` arguments: a
    look-alike (float or numpy fields) equals a legal action but would corrupt the state
    it is applied to, so it is refused before anything changes."""
    if not isinstance(action, Action):
        raise IllegalActionError(f"not an Action: {action!r}")
    if type(action.kind) is not str or any(type(x) is not int for x in action[1:]):
        raise IllegalActionError(f"an Action's kind is a str and its arguments ints: {action!r}")


def validate(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` with the reason unless ``action`` is legal."""
    check_types(action)
    if action not in legal_actions(state):
        raise IllegalActionError(explain_illegal(state, action))


def _apply_in_place(s: State, action: Action) -> None:
    _HANDLERS[action.kind](s, action)
    s.n_actions += 1
    _settle(s)


def _do_income(s: State, a: Action) -> None:
    p = s.active
    traders, merchants = a.a, a.b
    s.stock_t[p] -= traders
    s.stock_m[p] -= merchants
    s.supply_t[p] += traders
    s.supply_m[p] += merchants
    s.actions_left -= 1
    if s.favours:
        favour.after_income(s, p)


def _do_place(s: State, a: Action) -> None:
    p = s.active
    route, piece = a.a, a.b
    take_from_supply(s, p, piece)
    to_route(s, route, p * 2 + piece)
    s.actions_left -= 1
    country = s.board.route_country[route]
    if country:
        use_permit(s, p, country)


def _do_displace(s: State, a: Action) -> None:
    p = s.active
    i, k, pay_m = a.a, a.b, a.c  # post, piece placed, merchants paid
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
    log(s, Event("displace", seat=p, other=v, route=r, detail=PIECE_NAMES[victim & 1]))
    if v == s.neutral:
        # two players: the neutral trader comes back with one more, placed by the other
        push(s, RelocateNeutral(1 - p, origin=r, piece=TRADER, extras=1))
        return
    extras = cost + (victim & 1 == TRADER and s.has_favour(v, "displaced_two"))
    push(s, Relocate(v, origin=r, piece=victim & 1, extras=extras))


def _do_move(s: State, a: Action) -> None:
    s.actions_left -= 1
    push(s, Move(s.active, left=s.config.tuning.book[s.levels[s.active][A_BOOK]]))


def _spend(s: State, n: int) -> None:
    s.pending = (*s.pending[:-1], top(s, Moves).spend(n))


def _do_move_piece(s: State, a: Action) -> None:
    post, route = a.a, a.b
    o = s.posts[post]
    s.posts[post] = EMPTY
    to_route(s, route, o)
    _spend(s, 1)


def _do_swap(s: State, a: Action) -> None:
    x, y = a.a, a.b  # the two posts
    s.posts[x], s.posts[y] = s.posts[y], s.posts[x]
    _spend(s, 2)


def _do_remove(s: State, a: Action) -> None:
    post = a.a
    o = s.posts[post]
    s.posts[post] = EMPTY
    if o >> 1 == s.neutral:
        s.neutral_pool += 1
    elif o & 1:
        s.supply_m[o >> 1] += 1
    else:
        s.supply_t[o >> 1] += 1
    _spend(s, 1)


def _do_stop(s: State, a: Action) -> None:
    s.pending[-1].stop(s)


def _do_relocate(s: State, a: Action) -> None:
    f = top(s, Relocation)
    route = a.a
    to_route(s, route, f.colour(s) * 2 + f.piece)
    replace_top(s, piece=-1)


def _do_relocate_extra(s: State, a: Action) -> None:
    f = top(s, Relocation)
    v = f.colour(s)
    route, piece, from_post = a.a, a.b, a.c
    if from_post >= 0:  # stock and supply empty: moved from an own post
        k = s.posts[from_post] & 1
        s.posts[from_post] = EMPTY
    else:
        k = piece
        take_loose(s, v, k)
    to_route(s, route, v * 2 + k)
    replace_top(s, extras=f.extras - 1)


def _do_decline(s: State, a: Action) -> None:
    s.pending[-1].decline(s)


def _do_establish(s: State, a: Action) -> None:
    p = s.active
    b = s.board
    r, reward, arg = a.a, a.b, a.c
    route = b.routes[r]
    s.actions_left -= 1
    log(s, Event("establish", seat=p, route=r))
    # 1. control prestige for each endpoint city
    score_control(s, r)
    # 2. bonus marker and its replacement
    m = s.route_marker[r]
    if m is not None:
        s.route_marker[r] = None
        s.markers[p] = (*s.markers[p], m)
        log(s, Event("marker_taken", seat=p, detail=m, route=r))
        if s.bag:
            if isinstance(s.bag, tuple):
                drawn, s.bag = s.bag[0], s.bag[1:]
            else:  # a seat's view (engine/observe.HiddenBag): a look-ahead's draw
                drawn, s.bag = s.bag.draw()
            s.drawn = (*s.drawn, drawn)
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
        develop(s, p, arg, ability_city(b, (route.a, route.b), arg))
    elif reward == SPECIAL:
        pieces.remove(MERCHANT)
        s.special[arg] = p * 2 + MERCHANT
        log(s, Event("special", seat=p, detail=str(arg), value=s.special_points[arg]))
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
    log(s, Event("marker_used", seat=p, detail=kind))


def _do_marker(s: State, a: Action) -> None:
    p = s.active
    marker, arg = a.a, a.b
    _use_marker(s, p, USABLE_MARKERS[marker])
    if marker == M_PLUS3:
        s.actions_left += 3
    elif marker == M_PLUS4:
        s.actions_left += 4
    elif marker == M_DEVELOP:
        develop(s, p, arg)  # arg: the ability
    elif marker == M_SWAP:
        i = arg  # the left office of the two
        s.offices[i], s.offices[i + 1] = s.offices[i + 1], s.offices[i]
    elif marker == M_MOVE3:
        push(s, MoveOpponents(p, left=3))
    elif marker == M_REMOVE3:
        push(s, RemoveOpponents(p, left=3))


def _do_place_marker(s: State, a: Action) -> None:
    m = s.drawn[0]
    route = a.a
    s.route_marker[route] = m
    s.drawn = s.drawn[1:]
    log(s, Event("marker_placed", seat=s.active, detail=m, route=route))
    if s.neutral_pool >= 0:
        neutral.marker_placed(s, route)


def _do_favour(s: State, a: Action) -> None:
    favour.take(s, a)
    _end_turn(s)  # the whole turn is given up


def _do_end(s: State, a: Action) -> None:
    _end_turn(s)


def _end_turn(s: State) -> None:
    s.actions_left = 0
    if s.drawn:
        push(s, PlaceMarkers(s.active))
    else:
        next_player(s)


# --------------------------------------------------------------------------- settle
def _settle(s: State) -> None:
    """Resolve what needs no decision: the neutral colour's routes (two players),
    finished or impossible pending decisions, and the end of a turn when the active
    player has no actions and no usable marker left."""
    while True:
        if s.end_reason is not None:
            for f in s.pending:  # a displaced piece still in hand goes to the stock
                if isinstance(f, Relocation) and f.piece >= 0:
                    to_stock(s, f.colour(s), f.piece)
            s.pending = ()
            return
        if (
            s.neutral_pool >= 0
            and not (s.pending and isinstance(s.pending[-1], RelocateNeutral))
            and neutral.settle(s)
        ):
            continue
        if s.pending:
            if s.pending[-1].settle(s):
                continue
            return
        if s.actions_left <= 0 and not _has_usable_marker(s, s.active):
            _end_turn(s)
            continue
        return


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
