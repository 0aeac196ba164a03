"""Helpers for constructed positions in the establish and scoring scenario tests.

A test starts from a new game, edits fields of the state directly (posts, offices,
extras, levels, markers ...) with the helpers below, then calls :func:`settle` which puts
every colour's remaining pieces into the general stock (move some to the personal supply
with :func:`to_supply`) so that the position passes :func:`hansa_lab.engine.invariants.check_state`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import core_check
from helpers_turn import take_marker

from hansa_lab.engine.actions import Action, format_action, parse_action
from hansa_lab.engine.board import ABILITIES
from hansa_lab.engine.invariants import MERCHANTS, TRADERS, check_state, piece_counts
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import EMPTY, State

#: (board side, player count) of the two sides of the base board
BASE_SIDES = (("base_3p", 3), ("base_45p", 4))



def trader(p: int) -> int:
    """Occupant code of player ``p``'s trader."""
    return p * 2


def merchant(p: int) -> int:
    """Occupant code of player ``p``'s merchant."""
    return p * 2 + 1


def city(s: State, name: str) -> int:
    return s.board.city(name)


def route(s: State, a: str, b: str) -> int:
    return s.board.route_between(a, b)


def rname(s: State, a: str, b: str) -> str:
    """Text form of the route between two cities, e.g. ``r0``."""
    return f"r{route(s, a, b)}"


def fill_route(s: State, a: str, b: str, occupants: Sequence[int]) -> int:
    """Put ``occupants`` on the posts of the route between ``a`` and ``b`` (left to right,
    missing posts stay empty). Returns the route index."""
    r = route(s, a, b)
    posts = s.board.route_posts(r)
    assert len(occupants) <= len(posts), f"route {a}-{b} has only {len(posts)} posts"
    for i, o in zip(posts, [*occupants, *[EMPTY] * (len(posts) - len(occupants))], strict=True):
        s.posts[i] = o
    return r


def own_route(s: State, a: str, b: str, p: int, n_merchants: int = 0) -> int:
    """Fill every post of the route with player ``p``'s pieces: merchants first, then
    traders. Returns the route index."""
    r = route(s, a, b)
    n = len(s.board.route_posts(r))
    assert n_merchants <= n
    return fill_route(s, a, b, [merchant(p)] * n_merchants + [trader(p)] * (n - n_merchants))


def set_offices(s: State, name: str, occupants: Sequence[int]) -> None:
    """Occupy the leftmost printed offices of a city (the rest stay vacant)."""
    c = city(s, name)
    offices = s.board.city_offices(c)
    assert len(occupants) <= len(offices), f"{name} has only {len(offices)} offices"
    for i, o in zip(offices, [*occupants, *[EMPTY] * (len(offices) - len(occupants))], strict=True):
        s.offices[i] = o


def set_extras(s: State, name: str, occupants: Sequence[int]) -> None:
    """Extra Kontors of a city, left to right (all left of the printed offices)."""
    s.extras[city(s, name)] = tuple(occupants)


def office_occupants(s: State, name: str) -> list[int]:
    c = city(s, name)
    return [s.offices[i] for i in s.board.city_offices(c)]


def set_level(s: State, p: int, ability: str, level: int) -> None:
    s.levels[p][ABILITIES.index(ability)] = level


def give_markers(s: State, p: int, unused: Iterable[str] = (), used: Iterable[str] = ()) -> None:
    """Hand collected markers to player ``p``, taken from the bag (else the routes)."""
    unused, used = list(unused), list(used)
    for k in [*unused, *used]:
        take_marker(s, k)
    s.markers[p] = (*s.markers[p], *unused)
    s.markers_used[p] = (*s.markers_used[p], *used)


def put_marker_on_route(s: State, r: int, kind: str) -> None:
    """Place a bonus marker beside route ``r`` (taken from the bag or another route)."""
    if s.route_marker[r] == kind:
        return
    if s.route_marker[r] is not None:
        s.bag = (s.route_marker[r], *s.bag)
        s.route_marker[r] = None
    take_marker(s, kind)
    s.route_marker[r] = kind


def empty_bag_into_player(s: State, p: int) -> None:
    """Move every bag marker to ``p``'s used markers (keeps markers conserved)."""
    s.markers_used[p] = (*s.markers_used[p], *s.bag)
    s.bag = ()


def settle(s: State) -> State:
    """Make piece counts consistent after direct edits and check every invariant.

    Each colour's pieces not on the board, the player board or the prestige track go to
    the general stock; the personal supplies are left empty.
    ``completed`` is recomputed from the offices."""
    for p in range(s.n_players):
        s.supply_t[p] = s.stock_t[p] = s.supply_m[p] = s.stock_m[p] = 0
        counts = piece_counts(s, p)
        used_t = sum(v[0] for v in counts.values())
        used_m = sum(v[1] for v in counts.values())
        rest_t, rest_m = TRADERS - used_t, MERCHANTS - used_m
        if rest_t < 0 or rest_m < 0:
            raise ValueError(f"player {p} would need {-rest_t} traders / {-rest_m} merchants more")
        s.stock_t[p], s.stock_m[p] = rest_t, rest_m
    b = s.board
    s.completed = sum(
        1 for c in range(b.n_cities) if all(s.offices[i] != EMPTY for i in b.city_offices(c))
    )
    check_state(s)
    return s


def to_supply(s: State, p: int, traders: int = 0, merchants: int = 0) -> None:
    """Move pieces from the general stock to the personal supply (after :func:`settle`)."""
    assert s.stock_t[p] >= traders and s.stock_m[p] >= merchants
    s.stock_t[p] -= traders
    s.supply_t[p] += traders
    s.stock_m[p] -= merchants
    s.supply_m[p] += merchants
    check_state(s)


def act_of(s: State, text: str) -> Action:
    return parse_action(s.board, text)


def is_legal(s: State, text: str) -> bool:
    core_check.check_legal(s)
    return act_of(s, text) in legal_actions(s)


def legal_texts(s: State, prefix: str = "") -> set[str]:
    """Text forms of the legal actions that start with ``prefix``."""
    core_check.check_legal(s)
    out = {format_action(s.board, a) for a in legal_actions(s)}
    return {t for t in out if t.startswith(prefix)}


def play(s: State, text: str) -> State:
    """Apply a legal action given as text; check invariants on the result."""
    a = act_of(s, text)
    legal = legal_actions(s)
    assert a in legal, f"{text!r} is not legal; legal: {sorted(legal_texts(s))[:40]}"
    s2 = apply(s, a)
    check_state(s2)
    core_check.check_apply(s, a, s2)
    return s2
