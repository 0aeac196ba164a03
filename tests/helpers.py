"""Position helpers for the rule and scoring scenario tests (test_rules_turn,
test_rules_boards, test_rules_establish, test_scoring).

A test starts from a fresh game (:func:`position`) and edits fields of the state directly.
There are two ways to keep the piece counts right, and a test uses one of them:

- **placing** — :func:`occupy`, :func:`fill`, :func:`park`, :func:`place_kontors`,
  :func:`place_extras`: every piece put on the board is taken from its owner's loose
  pieces (general stock first, else personal supply), so the position stays consistent;
  :func:`ready` then runs the invariant checker.
- **setting** — :func:`fill_route`, :func:`own_route`, :func:`set_offices`,
  :func:`set_extras`: occupant codes (:func:`trader`, :func:`merchant`, :func:`occ`) are
  written without touching the pools; :func:`settle` then puts every colour's remaining
  pieces into the general stock (move some to the personal supply with
  :func:`to_supply`) and runs the invariant checker.

Either way: :func:`set_level` moves the piece a development uncovers to (or from) the
personal supply, :func:`set_pool` splits the loose pieces between supply and stock, and
markers are handed out or laid beside routes from the bag (:func:`give_marker`,
:func:`give_markers`, :func:`set_route_marker`), so they stay conserved.

Actions are given in their text form: :func:`act` parses, applies and checks the result;
:func:`play` does the same after asserting that the action is among the legal ones;
:func:`illegal` asserts that an action is refused with a reason and leaves the state as
it was.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence

import core_check
import pytest

from hansa_lab.engine.actions import Action, format_action, parse_action
from hansa_lab.engine.board import ABILITIES, MERCHANT, PIECE_NAMES, TRADER, Board
from hansa_lab.engine.invariants import (
    MERCHANTS,
    TRADERS,
    check_state,
    completed_cities,
    piece_counts,
)
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import EMPTY, GameConfig, State, new_game
from hansa_lab.errors import IllegalActionError

#: (board side, player count) of the two sides of the base board
BASE_SIDES = (("base_3p", 3), ("base_45p", 4))
#: runs a test with ``side`` and ``n`` on both sides of the base board
SIDES = pytest.mark.parametrize(("side", "n"), BASE_SIDES, ids=[s for s, _ in BASE_SIDES])


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
    """Check every invariant after placing edits; returns the state for chaining."""
    s.completed = completed_cities(s)
    check_state(s)
    return s


def settle(s: State) -> State:
    """Make piece counts consistent after setting edits and check every invariant.

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
    return ready(s)


def to_supply(s: State, p: int, traders: int = 0, merchants: int = 0) -> None:
    """Move pieces from the general stock to the personal supply (after :func:`settle`)."""
    assert s.stock_t[p] >= traders and s.stock_m[p] >= merchants
    s.stock_t[p] -= traders
    s.supply_t[p] += traders
    s.stock_m[p] -= merchants
    s.supply_m[p] += merchants
    check_state(s)


# ----------------------------------------------------------------------------- board names
def city(s: State, name: str) -> int:
    return s.board.city(name)


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


def trader(p: int) -> int:
    """Occupant code of player ``p``'s trader."""
    return occ(p, "trader")


def merchant(p: int) -> int:
    """Occupant code of player ``p``'s merchant."""
    return occ(p, "merchant")


def occupants(s: State, r: int) -> list[int]:
    return list(s.route_occupants(r))


def free_posts(s: State, r: int) -> int:
    return occupants(s, r).count(EMPTY)


def office_occupants(s: State, name: str) -> list[int]:
    """The occupants of a city's printed offices, left to right."""
    return [s.offices[i] for i in s.board.city_offices(city(s, name))]


def kontor_codes(s: State, name: str, players: Sequence[int]) -> list[int]:
    """Occupant codes of ``players``' pieces on the leftmost printed offices of a city,
    each piece of its office's shape."""
    offices = list(s.board.city_offices(city(s, name)))
    assert len(players) <= len(offices), f"{name} has only {len(offices)} offices"
    return [p * 2 + s.board.office_shape[i] for i, p in zip(offices, players, strict=False)]


# ----------------------------------------------------------------------------- placing
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


def place_kontors(s: State, name: str, players: Sequence[int]) -> None:
    """Kontors of ``players`` on the leftmost printed offices of a city (vacant before;
    the piece matches each office's shape and is taken from its owner's loose pieces)."""
    offices = s.board.city_offices(city(s, name))
    for i, code in zip(offices, kontor_codes(s, name, players), strict=False):
        assert s.offices[i] == EMPTY
        _take(s, code // 2, code % 2)
        s.offices[i] = code


def place_extras(s: State, name: str, owners: Sequence[tuple[int, str]]) -> None:
    """Extra Kontors of a city, left to right, as (player, piece) pairs (taken from the
    owners' loose pieces)."""
    codes = [occ(p, piece) for p, piece in owners]
    for code in codes:
        _take(s, code // 2, code % 2)
    s.extras[city(s, name)] = tuple(codes)


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
    from) the personal supply, as a development would do (:func:`settle` redistributes
    them anyway)."""
    a = ABILITIES.index(ability)
    delta = level - s.levels[player][a]
    s.levels[player][a] = level
    if ability == "book":
        s.supply_m[player] += delta
    else:
        s.supply_t[player] += delta


# ----------------------------------------------------------------------------- setting
def fill_route(s: State, a: str, b: str, codes: Sequence[int]) -> int:
    """Put the occupant ``codes`` on the posts of the route between ``a`` and ``b`` (left
    to right, missing posts stay empty). Returns the route index."""
    r = route(s, a, b)
    posts = s.board.route_posts(r)
    assert len(codes) <= len(posts), f"route {a}-{b} has only {len(posts)} posts"
    for i, o in zip(posts, [*codes, *[EMPTY] * (len(posts) - len(codes))], strict=True):
        s.posts[i] = o
    return r


def own_route(s: State, a: str, b: str, p: int, n_merchants: int = 0) -> int:
    """Fill every post of the route with player ``p``'s pieces: merchants first, then
    traders. Returns the route index."""
    n = len(s.board.route_posts(route(s, a, b)))
    assert n_merchants <= n
    return fill_route(s, a, b, [merchant(p)] * n_merchants + [trader(p)] * (n - n_merchants))


def set_offices(s: State, name: str, codes: Sequence[int]) -> None:
    """Occupy the leftmost printed offices of a city with the occupant ``codes`` (the
    rest become vacant)."""
    offices = s.board.city_offices(city(s, name))
    assert len(codes) <= len(offices), f"{name} has only {len(offices)} offices"
    for i, o in zip(offices, [*codes, *[EMPTY] * (len(offices) - len(codes))], strict=True):
        s.offices[i] = o


def set_kontors(s: State, name: str, players: Sequence[int]) -> None:
    """:func:`set_offices` with ``players``' pieces, each of its office's shape."""
    set_offices(s, name, kontor_codes(s, name, players))


def set_extras(s: State, name: str, codes: Sequence[int]) -> None:
    """Extra Kontors of a city as occupant codes, left to right (all left of the printed
    offices)."""
    s.extras[city(s, name)] = tuple(codes)


# ----------------------------------------------------------------------------- markers
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


def give_markers(s: State, p: int, unused: Iterable[str] = (), used: Iterable[str] = ()) -> None:
    """Hand collected markers to player ``p``, taken from the bag (else the routes)."""
    unused, used = list(unused), list(used)
    for k in [*unused, *used]:
        take_marker(s, k)
    s.markers[p] = (*s.markers[p], *unused)
    s.markers_used[p] = (*s.markers_used[p], *used)


def give_marker(s: State, player: int, kind: str, used: bool = False) -> None:
    """Hand one collected bonus marker to ``player`` (from the bag, else from a route)."""
    give_markers(s, player, used=[kind]) if used else give_markers(s, player, [kind])


def set_route_marker(s: State, r: int, kind: str) -> None:
    """Put a bonus marker of ``kind`` beside route ``r`` (from the bag, else another
    route); a marker already there goes back to the front of the bag."""
    if s.route_marker[r] == kind:
        return
    old = s.route_marker[r]
    s.route_marker[r] = None
    take_marker(s, kind)
    if old is not None:
        s.bag = (old, *s.bag)
    s.route_marker[r] = kind


def empty_bag_into_player(s: State, p: int) -> None:
    """Move every bag marker to ``p``'s used markers (keeps markers conserved)."""
    s.markers_used[p] = (*s.markers_used[p], *s.bag)
    s.bag = ()


# ----------------------------------------------------------------------------- actions
def act_of(s: State, text: str) -> Action:
    """The action of a text form."""
    return parse_action(s.board, text)


def legal_texts(s: State, prefix: str = "") -> set[str]:
    """Text forms of the legal actions (optionally only those starting with ``prefix``)."""
    core_check.check_legal(s)
    out = {format_action(s.board, a) for a in legal_actions(s)}
    return {t for t in out if t.startswith(prefix)}


def is_legal(s: State, text: str) -> bool:
    core_check.check_legal(s)
    return act_of(s, text) in legal_actions(s)


def act(s: State, text: str) -> State:
    """Parse ``text``, apply it and check the invariants of the result."""
    a = act_of(s, text)
    s2 = apply(s, a)
    check_state(s2)
    core_check.check_apply(s, a, s2)
    return s2


def acts(s: State, *texts: str) -> State:
    for t in texts:
        s = act(s, t)
    return s


def play(s: State, text: str) -> State:
    """:func:`act` for an action that must be among the legal actions."""
    assert is_legal(s, text), f"{text!r} is not legal; legal: {sorted(legal_texts(s))[:40]}"
    return act(s, text)


def illegal(s: State, text: str, *reasons: str) -> str:
    """Assert that ``text`` is refused with :class:`IllegalActionError` whose message
    contains every fragment of ``reasons``, and that the state is unchanged (pickled copy
    before and after). Returns the message."""
    before = pickle.dumps(s)
    action = act_of(s, text)
    with pytest.raises(IllegalActionError) as info:
        apply(s, action)
    assert pickle.dumps(s) == before, f"refusing {text!r} changed the state"
    core_check.check_illegal(s, action, info.value)
    message = str(info.value)
    for fragment in reasons:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message
