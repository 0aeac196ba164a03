"""The neutral colour of the two-player variant (seed 001), on the Hanseatic 3-player side.

The neutral colour is colour 2 (occupant code 4: traders only). It never acts and cannot
win; its loose traders are ``State.neutral_pool``. Its set-up is
:func:`hansa_lab.engine.state.neutral_start_routes`. During the game:

* a displaced neutral trader comes back with one more neutral trader (from the pool, when
  it has one). Where they go follows the displacement rule (nearest routes with a free
  post) and is decided by the player who did *not* displace it, in the frame
  ``("relocate_neutral", decider, origin, piece, extras)``; the extra is not optional;
* a route whose posts are all neutral is established at once (:func:`settle`; once the
  neutral traders being relocated are all placed): the
  endpoint cities' controllers score as usual, a bonus marker beside the route stays
  there, and a neutral Kontor goes to an endpoint whose leftmost vacant office is a
  square (the neutral colour ignores Privilege; with two such endpoints, the one with
  more vacant offices, then the route's first city); the other traders return to the
  pool. The game-end check follows, as after any establish action;
* every replacement marker placed at the end of a turn receives a neutral trader
  (:func:`marker_placed`).
"""

from __future__ import annotations

from hansa_lab.engine.board import TRADER
from hansa_lab.engine.effects import (
    check_end,
    fill_office,
    first_vacant_office,
    log,
    score_control,
    to_route,
)
from hansa_lab.engine.events import Event
from hansa_lab.engine.state import EMPTY, State


def settle(s: State) -> bool:
    """Establish the first route whose posts are all neutral; True if one was."""
    b = s.board
    code = 2 * s.neutral
    ps = b.post_start
    posts = s.posts
    for r in range(b.n_routes):
        lo, hi = ps[r], ps[r + 1]
        if posts[lo] == code and posts[lo:hi].count(code) == hi - lo:
            _establish(s, r)
            return True
    return False


def kontor_city(s: State, r: int) -> int:
    """The endpoint city that receives the neutral Kontor of route ``r`` (-1: none)."""
    b = s.board
    best, best_vacant = -1, 0
    for c in b.route_cities[r]:
        i = first_vacant_office(s, c)
        if i >= 0 and b.office_shape[i] == TRADER:
            vacant = b.office_start[c + 1] - i
            if vacant > best_vacant:
                best, best_vacant = c, vacant
    return best


def _establish(s: State, r: int) -> None:
    b = s.board
    n = s.neutral
    log(s, Event("establish", seat=n, route=r))
    score_control(s, r)
    pieces = b.routes[r].n_posts
    for i in b.route_posts(r):
        s.posts[i] = EMPTY
    c = kontor_city(s, r)
    if c >= 0:
        fill_office(s, n, first_vacant_office(s, c), TRADER)
        pieces -= 1
    s.neutral_pool += pieces
    check_end(s)


def marker_placed(s: State, r: int) -> None:
    """A newly placed bonus marker receives a neutral trader (while the pool has one)."""
    if s.neutral_pool > 0:
        s.neutral_pool -= 1
        to_route(s, r, 2 * s.neutral + TRADER)
        log(s, Event("neutral_placed", seat=s.neutral, route=r))
