"""Helpers for the turn-rule scenario tests (tests/test_rules_turn.py).

A test builds a constructed position: :func:`position` returns a fresh ``new_game`` state,
the test edits its fields directly (with :func:`occupy`, :func:`set_pool`, :func:`set_level`,
:func:`give_marker` ...), then calls :func:`ready` which runs the invariant checker. Actions
are given in their text form: :func:`act` parses, applies and checks the result;
:func:`illegal` asserts that an action is refused with a reason and leaves the state as it was.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence

import core_check
import pytest

from hansa_lab.engine.actions import format_action, parse_action
from hansa_lab.engine.board import ABILITIES, MERCHANT, PIECE_NAMES, TRADER, Board
from hansa_lab.engine.invariants import check_state, completed_cities
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import EMPTY, GameConfig, State, new_game
from hansa_lab.errors import IllegalActionError

#: player counts that select the two sides of the base board
BASE_SIDES = (3, 4)
SIDE_IDS = ("base_3p", "base_45p")


def position(
    n_players: int = 3,
    seed: int = 0,
    edition: str = "bigbox",
    board: str = "base",
    **options: object,
) -> State:
    """A fresh game (base board by default: 3p side for 2-3 players, 4-5p side for 4-5)."""
    config = GameConfig(
        n_players=n_players, board=board, seed=seed, edition=edition,
        options=tuple(options.items()),
    )
    s = new_game(config)
    check_state(s)
    return s


def ready(s: State) -> State:
    """Check every invariant after direct edits; returns the state for chaining."""
    s.completed = completed_cities(s)
    check_state(s)
    return s


# ----------------------------------------------------------------------------- board names
def route(s: State, a: str, b: str) -> int:
    """Index of the route between two cities (names as printed or ASCII)."""
    return s.board.route_between(a, b)


def rt(s: State, a: str, b: str) -> str:
    """Text form of the route between two cities, e.g. ``r0``."""
    return f"r{route(s, a, b)}"


def adjacent_routes(board: Board, r: int) -> set[int]:
    """Routes sharing a city with route ``r`` (computed from route ends, not the ring table)."""
    ends = set(board.route_cities[r])
    return {q for q, (x, y) in enumerate(board.route_cities) if q != r and ends & {x, y}}


def second_ring(board: Board, r: int) -> set[int]:
    """Routes two steps from ``r``: adjacent to an adjacent route, not adjacent themselves."""
    ring1 = adjacent_routes(board, r)
    out: set[int] = set()
    for q in ring1:
        out |= adjacent_routes(board, q)
    return out - ring1 - {r}


def occ(player: int, piece: str = "trader") -> int:
    """Occupant code of a player's trader or merchant."""
    return player * 2 + PIECE_NAMES.index(piece)


def occupants(s: State, r: int) -> list[int]:
    return list(s.route_occupants(r))


def free_posts(s: State, r: int) -> int:
    return occupants(s, r).count(EMPTY)


# ----------------------------------------------------------------------------- editing
def _take(s: State, player: int, piece: int) -> None:
    """Take one loose piece of ``player`` (general stock first, else personal supply)."""
    stock = s.stock_t if piece == TRADER else s.stock_m
    supply = s.supply_t if piece == TRADER else s.supply_m
    if stock[player] > 0:
        stock[player] -= 1
    elif supply[player] > 0:
        supply[player] -= 1
    else:
        raise ValueError(f"player {player} has no loose {PIECE_NAMES[piece]} left")


def occupy(s: State, r: int, player: int, pieces: Sequence[str] | str = "trader") -> None:
    """Put pieces of ``player`` on the leftmost free posts of route ``r`` (taken from the
    general stock, else the personal supply)."""
    if isinstance(pieces, str):
        pieces = [pieces]
    for name in pieces:
        k = PIECE_NAMES.index(name)
        i = next((i for i in s.board.route_posts(r) if s.posts[i] == EMPTY), -1)
        if i < 0:
            raise ValueError(f"route r{r} has no free post left")
        _take(s, player, k)
        s.posts[i] = player * 2 + k


def fill(s: State, r: int, player: int, piece: str = "trader") -> None:
    """Occupy every free post of route ``r`` with ``player``'s pieces."""
    occupy(s, r, player, [piece] * free_posts(s, r))


def park(s: State, player: int, traders: int, merchants: int = 0) -> list[int]:
    """Put pieces of ``player`` on free posts, starting from the highest-numbered routes
    (far from Hamburg). Returns the post indices used."""
    used: list[int] = []
    wanted = [MERCHANT] * merchants + [TRADER] * traders
    for i in reversed(range(s.board.n_posts)):
        if not wanted:
            break
        if s.posts[i] == EMPTY:
            k = wanted.pop(0)
            _take(s, player, k)
            s.posts[i] = player * 2 + k
            used.append(i)
    if wanted:
        raise ValueError("not enough free posts to park the pieces")
    return used


def set_pool(
    s: State,
    player: int,
    supply: tuple[int, int] | None = None,
    stock: tuple[int, int] | None = None,
) -> None:
    """Share a player's loose pieces between personal supply and general stock.

    ``supply`` / ``stock`` are (traders, merchants); the one not given gets the rest."""
    loose_t = s.supply_t[player] + s.stock_t[player]
    loose_m = s.supply_m[player] + s.stock_m[player]
    if supply is None and stock is None:
        raise ValueError("give supply or stock")
    if supply is None:
        assert stock is not None
        supply = (loose_t - stock[0], loose_m - stock[1])
    if stock is None:
        stock = (loose_t - supply[0], loose_m - supply[1])
    if (supply[0] + stock[0], supply[1] + stock[1]) != (loose_t, loose_m) or min(
        *supply, *stock
    ) < 0:
        raise ValueError(
            f"player {player} has {loose_t} traders and {loose_m} merchants loose, "
            f"cannot split them as supply {supply} / stock {stock}"
        )
    s.supply_t[player], s.supply_m[player] = supply
    s.stock_t[player], s.stock_m[player] = stock


def set_level(s: State, player: int, ability: str, level: int) -> None:
    """Develop (or undevelop) an ability directly; the uncovered pieces go to (or come
    from) the personal supply, as a development would do."""
    a = ABILITIES.index(ability)
    delta = level - s.levels[player][a]
    s.levels[player][a] = level
    if ability == "book":
        s.supply_m[player] += delta
    else:
        s.supply_t[player] += delta


def take_marker(s: State, kind: str) -> None:
    """Remove one marker of ``kind`` from the bag (else from a route) to hand it out."""
    if kind in s.bag:
        bag = list(s.bag)
        bag.remove(kind)
        s.bag = tuple(bag)
        return
    for r, m in enumerate(s.route_marker):
        if m == kind:
            s.route_marker[r] = None
            return
    raise ValueError(f"no {kind!r} marker left in the bag or beside a route")


def give_marker(s: State, player: int, kind: str, used: bool = False) -> None:
    """Hand a collected bonus marker to ``player`` (from the bag, else from a route)."""
    take_marker(s, kind)
    if used:
        s.markers_used[player] = (*s.markers_used[player], kind)
    else:
        s.markers[player] = (*s.markers[player], kind)


def set_route_marker(s: State, r: int, kind: str) -> None:
    """Put a bonus marker of ``kind`` beside route ``r``; a marker already there goes back
    to the front of the bag."""
    if s.route_marker[r] == kind:
        return
    old = s.route_marker[r]
    s.route_marker[r] = None
    take_marker(s, kind)
    if old is not None:
        s.bag = (old, *s.bag)
    s.route_marker[r] = kind


def clear_route_markers(s: State) -> None:
    """Move every marker beside a route to the back of the bag."""
    back = tuple(m for m in s.route_marker if m is not None)
    s.route_marker = [None] * s.board.n_routes
    s.bag = (*s.bag, *back)


def set_offices(s: State, city: str, owners: Sequence[int]) -> None:
    """Occupy the leftmost printed offices of a city with Kontors of the given players
    (the piece matches each office's shape; taken from the owners' loose pieces)."""
    c = s.board.city(city)
    offices = list(s.board.city_offices(c))
    assert len(owners) <= len(offices), f"{city} has only {len(offices)} offices"
    for i, p in zip(offices, owners, strict=False):
        assert s.offices[i] == EMPTY
        k = s.board.office_shape[i]
        _take(s, p, k)
        s.offices[i] = p * 2 + k


def set_extras(s: State, city: str, owners: Sequence[tuple[int, str]]) -> None:
    """Extra Kontors of a city, left to right, as (player, piece) pairs (taken from the
    owners' loose pieces)."""
    c = s.board.city(city)
    extras = []
    for p, name in owners:
        k = PIECE_NAMES.index(name)
        _take(s, p, k)
        extras.append(p * 2 + k)
    s.extras[c] = tuple(extras)


def city_kontors(s: State, city: str) -> list[int]:
    c = s.board.city(city)
    return [s.offices[i] for i in s.board.city_offices(c)]


# ----------------------------------------------------------------------------- actions
def act(s: State, text: str) -> State:
    """Parse ``text``, apply it and check the invariants of the result."""
    a = parse_action(s.board, text)
    s2 = apply(s, a)
    check_state(s2)
    core_check.check_apply(s, a, s2)
    return s2


def acts(s: State, *texts: str) -> State:
    for t in texts:
        s = act(s, t)
    return s


def legal_texts(s: State, prefix: str = "") -> set[str]:
    """Text forms of the legal actions (optionally only those starting with ``prefix``)."""
    core_check.check_legal(s)
    out = {format_action(s.board, a) for a in legal_actions(s)}
    return {t for t in out if t.startswith(prefix)}


def is_legal(s: State, text: str) -> bool:
    core_check.check_legal(s)
    return parse_action(s.board, text) in legal_actions(s)


def illegal(s: State, text: str, *reasons: str) -> str:
    """Assert that ``text`` is refused with :class:`IllegalActionError` whose message
    contains every fragment of ``reasons``, and that the state is unchanged (pickled copy
    before and after). Returns the message."""
    before = pickle.dumps(s)
    action = parse_action(s.board, text)
    with pytest.raises(IllegalActionError) as info:
        apply(s, action)
    assert pickle.dumps(s) == before, f"refusing {text!r} changed the state"
    core_check.check_illegal(s, action, info.value)
    message = str(info.value)
    for fragment in reasons:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message
