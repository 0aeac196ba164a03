"""Primitives shared by the rules modules: small queries and in-place state changes.

:mod:`hansa_lab.engine.rules` (the turn) and the variants in :mod:`hansa_lab.engine.variants`
(``permanent``: maritime routes' permanent markers, ``neutral``: two players, ``favour``:
Emperor's Favour) all build on these. Nothing here checks legality: callers only pass
actions that :func:`hansa_lab.engine.rules.legal_actions` listed, on a state they own (a clone).

Colours: players 0 … n-1; with two players colour 2 is the neutral colour, which has no
prestige track, player board or personal supply (its loose traders are
``State.neutral_pool``) and never scores.
"""

from __future__ import annotations

from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import (
    A_ACTIONS,
    A_BANK,
    A_BOOK,
    ABILITIES,
    MERCHANT,
    TRADER,
    Board,
    player_board,
)
from hansa_lab.engine.events import Event
from hansa_lab.engine.scoring import city_controller, connects
from hansa_lab.engine.state import EMPTY, State

_PB = player_board()
#: The printed tracks (a game reads its own, ``state.config.tuning``: rule options).
ACTIONS_VALUES: tuple[int, ...] = tuple(_PB["actions"])
BANK_VALUES: tuple[int | None, ...] = tuple(_PB["bank"])
BOOK_VALUES: tuple[int, ...] = tuple(_PB["book"])

STOP = Action("stop")
DECLINE = Action("decline")


# --------------------------------------------------------------------------- queries
def income_limit(state: State, player: int) -> int | None:
    """Tradesmen one Income action may take (None = all)."""
    return state.config.tuning.bank[state.levels[player][A_BANK]]


def free_post(state: State, r: int, piece: int) -> int:
    """Index of the post a piece of kind ``piece`` would take on route ``r`` (-1 if none).

    A merchant prefers a merchant-only post so that it does not block a trader."""
    b = state.board
    posts = state.posts
    mo = b.post_merchant_only
    best = -1
    for i in range(b.post_start[r], b.post_start[r + 1]):
        if posts[i] == EMPTY:
            if mo[i]:
                if piece == MERCHANT:
                    return i
            elif best < 0:
                best = i
    return best


def free_routes(s: State) -> tuple[list[int], list[int]]:
    """Routes with a free post for a trader, and for a merchant (one pass over posts)."""
    b = s.board
    posts = s.posts
    mo = b.post_merchant_only
    pr = b.post_route
    for_t = [False] * b.n_routes
    for_m = [False] * b.n_routes
    for i, o in enumerate(posts):
        if o == EMPTY:
            for_m[pr[i]] = True
            if not mo[i]:
                for_t[pr[i]] = True
    return (
        [r for r, f in enumerate(for_t) if f],
        [r for r, f in enumerate(for_m) if f],
    )


def first_vacant_office(state: State, c: int) -> int:
    b = state.board
    offices = state.offices
    for i in range(b.office_start[c], b.office_start[c + 1]):
        if offices[i] == EMPTY:
            return i
    return -1


def may_go(b: Board, src: int, dst: int, strict: bool) -> bool:
    """Whether a piece on route ``src`` may go to route ``dst`` (Britannia's countries).

    ``strict``: it stays in its country (move-3 marker, permanent move marker); otherwise
    it may also go to the home country, England (Move action, displacement)."""
    a, z = b.route_country[src], b.route_country[dst]
    return a == z or (not strict and z == 0)


_TABLES: dict[tuple[str, str], list[list[Action]]] = {}


def action_table(b: Board, kind: str) -> list[list[Action]]:
    """Prebuilt ``Action(kind, post, route)`` values for every post and route (speed)."""
    key = (b.name + "/" + b.variant, kind)
    table = _TABLES.get(key)
    if table is None:
        table = [[Action(kind, i, r) for r in range(b.n_routes)] for i in range(b.n_posts)]
        _TABLES[key] = table
    return table


def shift_options(
    s: State, pieces: list[int], kind: str, strict: bool | None, acts: list[Action]
) -> None:
    """``Action(kind, post, route)`` for every piece on ``pieces`` (post indices) and every
    other route with a free post for it. ``strict`` is the country rule (None: no rule)."""
    b = s.board
    posts = s.posts
    dest = free_routes(s)
    table = action_table(b, kind)
    pr = b.post_route
    if strict is None or not b.has_regions:
        for i in pieces:
            row = table[i]
            here = pr[i]
            acts.extend([row[r] for r in dest[posts[i] & 1] if r != here])
        return
    for i in pieces:
        row = table[i]
        here = pr[i]
        acts.extend(
            [row[r] for r in dest[posts[i] & 1] if r != here and may_go(b, here, r, strict)]
        )


def stock_of(s: State, colour: int) -> tuple[int, int]:
    """A colour's (traders, merchants) in the general stock (the neutral pool for the
    neutral colour, which has traders only)."""
    if colour == s.neutral:
        return s.neutral_pool, 0
    return s.stock_t[colour], s.stock_m[colour]


# --------------------------------------------------------------------------- changes
def log(s: State, event: Event) -> None:
    s.events.append(event)


def to_route(s: State, r: int, occupant: int) -> None:
    i = free_post(s, r, occupant & 1)
    s.posts[i] = occupant


def to_stock(s: State, colour: int, piece: int, n: int = 1) -> None:
    """Return ``n`` pieces of a colour to its general stock (the neutral pool)."""
    if colour == s.neutral:
        s.neutral_pool += n
    elif piece == MERCHANT:
        s.stock_m[colour] += n
    else:
        s.stock_t[colour] += n


def take_from_supply(s: State, p: int, k: int, n: int = 1) -> None:
    if k == TRADER:
        s.supply_t[p] -= n
    else:
        s.supply_m[p] -= n


def take_from_stock(s: State, colour: int, k: int, n: int = 1) -> None:
    if colour == s.neutral:
        s.neutral_pool -= n
    elif k == TRADER:
        s.stock_t[colour] -= n
    else:
        s.stock_m[colour] -= n


def take_loose(s: State, colour: int, k: int) -> None:
    """Take a piece for a displacement extra or a permanent placement: from the general
    stock while it holds any tradesman, else from the personal supply."""
    stock_t, stock_m = stock_of(s, colour)
    if stock_t + stock_m:
        take_from_stock(s, colour, k)
    else:
        take_from_supply(s, colour, k)


def develop(s: State, p: int, ability: int, city: int = -1) -> None:
    """Develop an ability: uncover the next space, its piece goes to the personal supply.

    ``city`` is the ability city the development came from (an establish reward); -1 for
    a development without one (a bonus marker, a printed permanent marker)."""
    old = s.levels[p][ability]
    s.levels[p][ability] = old + 1
    if ability == A_BOOK:
        s.supply_m[p] += 1
    else:
        s.supply_t[p] += 1
    if ability == A_ACTIONS and p == s.active:
        values = s.config.tuning.actions
        s.actions_left += values[old + 1] - values[old]
    log(s, Event("develop", seat=p, city=city, detail=ABILITIES[ability], value=old + 1))


def score(s: State, p: int, points: int, cause: str) -> None:
    """Prestige on the track (the neutral colour has no track and scores nothing)."""
    if points and p < len(s.prestige):
        s.prestige[p] += points
        log(s, Event("prestige", seat=p, value=points, detail=cause))


def score_control(s: State, r: int) -> None:
    """Establishing route ``r``: each endpoint city's controller scores prestige (printed
    1: the option ``control_prestige``)."""
    points = s.config.tuning.control_prestige
    for c in s.board.route_cities[r]:
        ctrl = city_controller(s, c)
        if ctrl >= 0:
            score(s, ctrl, points, "control")


def kontor_placed(s: State, p: int, c: int) -> None:
    """After a new Kontor of ``p`` in city ``c``: the East-West connection (7/4/2; rule
    option ``east_west_points``)."""
    b = s.board
    ew = s.east_west
    points = s.config.tuning.east_west_points
    if p < s.n_players and p not in ew and len(ew) < len(points):
        a, z = b.east_west
        if connects(s, p, a, z):
            score(s, p, points[len(ew)], "east_west")
            s.east_west = (*ew, p)
            log(s, Event("east_west", seat=p, value=len(ew) + 1))


def city_done(s: State, c: int) -> None:
    s.completed += 1
    log(s, Event("city_completed", city=c))


def fill_office(s: State, colour: int, i: int, piece: int) -> None:
    """A Kontor on printed office ``i``: coin prestige, completion, East-West."""
    b = s.board
    c = b.office_city[i]
    s.offices[i] = colour * 2 + piece
    log(s, Event("kontor", seat=colour, city=c, value=i - b.office_start[c]))
    score(s, colour, b.office_coin[i], "coin")
    if i == b.office_start[c + 1] - 1:
        city_done(s, c)
    kontor_placed(s, colour, c)


def add_extra(s: State, p: int, c: int, piece: int, right: bool = False) -> None:
    """A Kontor beside the printed offices: left of all Kontors (extra-Kontor marker), or
    in a yellow/green city right of all (the East's permanent Kontor marker). A
    yellow/green city is complete with its first Kontor; other extra Kontors never
    complete a city."""
    before = s.extras[c]
    o = p * 2 + piece
    s.extras[c] = (*before, o) if right else (o, *before)
    log(s, Event("kontor", seat=p, city=c, value=-1 if right else -len(s.extras[c])))
    if not before and s.board.cities[c].yellow_green:
        city_done(s, c)
    kontor_placed(s, p, c)


def check_end(s: State) -> None:
    """The end conditions, checked after an establish action (and its permanent marker):
    a player at the prestige limit, a replacement marker that could not be drawn, the
    board's number of completed cities (rule options ``prestige_to_end``,
    ``cities_to_end``)."""
    limit = s.config.option("prestige_to_end")
    reason = None
    if max(s.prestige) >= limit:
        reason = "prestige"
    elif s.end_after_action:
        reason = s.end_after_action
    elif s.completed >= s.config.tuning.cities_to_end:
        reason = "cities"
    if reason:
        s.end_reason = reason
        log(s, Event("game_end", detail=reason))


def next_player(s: State) -> None:
    """The next player's turn begins (a new round after the last seat)."""
    s.active = (s.active + 1) % s.n_players
    if s.active == 0:
        s.round += 1
    s.turn += 1
    s.actions_left = s.config.tuning.actions[s.levels[s.active][A_ACTIONS]]
    if s.favours and "extra_action" in s.favours[s.active]:
        s.actions_left += 1
    s.turn_start = s.n_actions
    s.permits_used = ()
