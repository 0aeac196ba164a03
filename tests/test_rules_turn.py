"""Scenario tests for the turn rules of RULES.md on the base board (both sides): setup by
seat, the turn and its actions (Income, Place, Displace with relocation, Move), bonus-marker
use, the end of the turn, illegal actions and developing abilities.

Each test builds a position by hand (see ``helpers``), plays actions in their text form
and checks the exact outcome of one rule. The ``n`` fixture runs a test on the 3-player
side (3 players) and on the 4-5-player side (4 players).
"""

from __future__ import annotations

import pickle
from collections import Counter

import pytest
from helpers import (
    BASE_SIDES,
    act,
    acts,
    adjacent_routes,
    fill,
    free_posts,
    give_marker,
    illegal,
    is_legal,
    legal_texts,
    occ,
    occupants,
    occupy,
    office_occupants,
    park,
    place_extras,
    place_kontors,
    position,
    ready,
    route,
    second_ring,
    set_level,
    set_pool,
    set_route_marker,
)

from hansa_lab.engine.actions import parse_action
from hansa_lab.engine.board import ABILITIES, MERCHANT, TRADER
from hansa_lab.engine.decisions import Move, PlaceMarkers, Relocate
from hansa_lab.engine.invariants import piece_counts
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import score_breakdown
from hansa_lab.engine.state import EMPTY, State
from hansa_lab.errors import IllegalActionError

# Player-board values from RULES.md ("Pieces, boards, setup"), left to right.
ACTIONS = (2, 3, 3, 4, 4, 5)
BANK = (3, 5, 7, None)  # None = all
BOOK = (2, 3, 4, 5)

# Bonus-marker sets of RULES.md ("Bonus markers").
MARKER_SETS = {
    "bigbox": Counter(extra=4, swap=3, move3=2, develop=2, plus3=2, plus4=2),
    "original": Counter(extra=5, swap=2, develop=3, remove3=2, plus3=2, plus4=2),
}
START_MARKERS = {"bigbox": ("extra", "move3", "swap"), "original": ("extra", "remove3", "swap")}
TAVERNS = (("Bremen", "Osnabrück"), ("Lüneburg", "Perleberg"), ("Goslar", "Hildesheim"))

GENERIC = "not among the legal actions"


@pytest.fixture(params=[n for _, n in BASE_SIDES], ids=[s for s, _ in BASE_SIDES])
def n(request: pytest.FixtureRequest) -> int:
    """Player count selecting a side of the base board: 3 → base_3p, 4 → base_45p."""
    return int(request.param)


def hl(s: State) -> int:
    """Hamburg–Lübeck: 3 posts; its adjacent routes are the other Hamburg routes."""
    return route(s, "Hamburg", "Lübeck")


def post(s: State, r: int, i: int = 0) -> str:
    return f"r{r}.{i}"


def relocation_targets(s: State) -> set[int]:
    return {a.a for a in legal_actions(s) if a.kind == "relocate"}


def extra_targets(s: State) -> set[int]:
    return {a.a for a in legal_actions(s) if a.kind == "relocate_extra"}


# =============================================================================== setup
@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_setup_pieces_by_seat(n_players: int) -> None:
    s = position(n_players)
    for p in range(n_players):
        k = p + 1  # 1-based seat
        assert (s.supply_t[p], s.supply_m[p]) == (4 + k, 1)
        assert (s.stock_t[p], s.stock_m[p]) == (7 - k, 0)
        # 15 traders and 3 merchants cover the player board; nothing developed yet
        assert piece_counts(s, p)["tracks"] == (15, 3)
        assert s.levels[p] == [0, 0, 0, 0, 0]
        assert s.prestige[p] == 0
        assert s.markers[p] == () and s.markers_used[p] == ()
    assert set(s.posts) == {EMPTY} and set(s.offices) == {EMPTY}


@pytest.mark.parametrize(("n_players", "side"), [(3, "base_3p"), (4, "base_45p"), (5, "base_45p")])
def test_setup_board_side_follows_player_count(n_players: int, side: str) -> None:
    assert position(n_players).board.name == side


@pytest.mark.parametrize("edition", ["bigbox", "original"])
def test_setup_start_markers_on_the_three_tavern_routes(n: int, edition: str) -> None:
    for seed in range(6):
        s = position(n, seed, edition)
        taverns = {route(s, a, b) for a, b in TAVERNS}
        beside = {r: m for r, m in enumerate(s.route_marker) if m is not None}
        assert set(beside) == taverns
        assert tuple(sorted(beside.values())) == START_MARKERS[edition]
        # the rest form the face-down supply: 15 (bigbox) / 16 (original) in all
        assert Counter(s.bag) + Counter(beside.values()) == MARKER_SETS[edition]
        assert len(s.bag) + 3 == {"bigbox": 15, "original": 16}[edition]
        assert s.drawn == ()


@pytest.mark.parametrize("edition", ["bigbox", "original"])
def test_setup_marker_layout_comes_from_the_seed(n: int, edition: str) -> None:
    a, b = position(n, 11, edition), position(n, 11, edition)
    assert a.route_marker == b.route_marker and a.bag == b.bag
    layouts = {tuple(position(n, seed, edition).route_marker) for seed in range(20)}
    bags = {position(n, seed, edition).bag for seed in range(20)}
    assert len(layouts) > 1 and len(bags) > 1


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_setup_first_seat_starts_with_two_actions(n_players: int) -> None:
    s = position(n_players)
    assert (s.active, s.current_player, s.actions_left) == (0, 0, 2)
    assert (s.round, s.turn, s.pending) == (1, 1, ())


# =============================================================================== turn
@pytest.mark.parametrize(("level", "expected"), list(enumerate(ACTIONS)))
def test_turn_has_as_many_actions_as_the_actions_value(n: int, level: int, expected: int) -> None:
    s = position(n)
    set_level(s, 1, "actions", level)
    ready(s)
    s = act(s, "end")
    assert (s.active, s.actions_left) == (1, expected)
    for k in range(expected):
        assert (s.active, s.actions_left) == (1, expected - k)
        s = act(s, "income 1 0")
    assert s.active == 2  # used up: the next seat plays


def test_turn_passes_when_the_actions_are_used_up(n: int) -> None:
    s = act(position(n), "income 1 0")
    assert (s.active, s.actions_left, s.turn) == (0, 1, 1)
    s = act(s, "income 1 0")
    assert (s.active, s.actions_left, s.turn, s.round) == (1, 2, 2, 1)


def test_round_increments_after_the_last_seat(n: int) -> None:
    s = position(n)
    for p in range(n):
        assert (s.active, s.round) == (p, 1)
        s = act(s, "end")
    assert (s.active, s.round, s.turn, s.actions_left) == (0, 2, n + 1, 2)


def test_end_forfeits_the_remaining_actions(n: int) -> None:
    s = act(position(n), "income 1 0")
    s = act(s, "end")
    assert (s.active, s.actions_left) == (1, 2)
    for _ in range(n - 1):
        s = act(s, "end")
    assert (s.active, s.actions_left) == (0, 2)  # the forfeited action is not carried over


# =============================================================================== income
@pytest.mark.parametrize(("level", "limit"), list(enumerate(BANK)))
def test_income_takes_up_to_the_bank_value(n: int, level: int, limit: int | None) -> None:
    s = position(n)
    set_level(s, 0, "bank", level)
    set_pool(s, 0, supply=(0, 0))  # everything loose in the general stock
    ready(s)
    stock_t, stock_m = s.stock_t[0], s.stock_m[0]
    if limit is None:  # "all"
        s2 = act(s, f"income {stock_t} {stock_m}")
        assert (s2.supply_t[0], s2.supply_m[0]) == (stock_t, stock_m)
        assert (s2.stock_t[0], s2.stock_m[0]) == (0, 0)
        return
    s2 = act(s, f"income {limit - 1} 1")
    assert (s2.supply_t[0], s2.supply_m[0]) == (limit - 1, 1)
    assert (s2.stock_t[0], s2.stock_m[0]) == (stock_t - limit + 1, 0)
    assert s2.actions_left == 1
    illegal(s, f"income {limit} 1", f"limited to {limit}")
    illegal(s, f"income {limit + 1} 0", f"limited to {limit}")


def test_income_any_mix_and_fewer_allowed(n: int) -> None:
    s = position(n)
    set_pool(s, 0, stock=(4, 1))
    ready(s)
    expected = {f"income {t} {m}" for t in range(5) for m in range(2) if 1 <= t + m <= 3}
    assert legal_texts(s, "income") == expected
    s2 = act(s, "income 0 1")
    assert (s2.supply_m[0], s2.stock_m[0]) == (1, 0)  # the merchant was in the stock
    s3 = act(s, "income 2 1")
    assert (s3.supply_t[0], s3.stock_t[0], s3.stock_m[0]) == (7 + 2, 2, 0)


def test_income_beyond_the_general_stock_is_illegal(n: int) -> None:
    s = position(n)
    set_pool(s, 0, stock=(2, 0))
    ready(s)
    illegal(s, "income 3 0", "general stock")
    illegal(s, "income 0 1", "general stock")
    s2 = act(s, "income 2 0")
    assert (s2.stock_t[0], s2.stock_m[0]) == (0, 0)
    assert legal_texts(s2, "income") == set()
    illegal(s2, "income 1 0", "general stock")


# =============================================================================== place
def test_place_puts_a_supply_piece_on_a_free_post(n: int) -> None:
    s = position(n)
    r = hl(s)
    occupy(s, r, 1)
    ready(s)
    s = act(s, f"place r{r} trader")
    assert occupants(s, r) == [occ(1), occ(0), EMPTY]
    assert (s.supply_t[0], s.stock_t[0], s.actions_left) == (4, 6, 1)
    s = act(s, f"place r{r} merchant")
    assert occupants(s, r) == [occ(1), occ(0), occ(0, "merchant")]
    assert s.supply_m[0] == 0


def test_place_on_a_full_route_is_illegal(n: int) -> None:
    s = position(n)
    r = hl(s)
    occupy(s, r, 1, ["trader", "merchant", "trader"])
    ready(s)
    illegal(s, f"place r{r} trader", "no free post")
    illegal(s, f"place r{r} merchant", "no free post")


def test_place_needs_the_piece_in_the_personal_supply(n: int) -> None:
    s = position(n)
    set_pool(s, 0, supply=(0, 1))
    ready(s)
    r = hl(s)
    illegal(s, f"place r{r} trader", "personal supply")
    assert is_legal(s, f"place r{r} merchant")
    set_pool(s, 0, supply=(0, 0))
    ready(s)
    illegal(s, f"place r{r} merchant", "personal supply")
    assert legal_texts(s, "place") == set()


# =============================================================================== displace
def displaced(n: int, piece: str = "trader") -> State:
    """Player 1's ``piece`` on Hamburg–Lübeck post 0; player 0 to act with 2 actions."""
    s = position(n)
    occupy(s, hl(s), 1, piece)
    return ready(s)


def test_displacing_a_trader_costs_one_more_tradesman(n: int) -> None:
    s = displaced(n)
    r = hl(s)
    s = act(s, f"displace r{r}.0 trader pay 0")
    assert occupants(s, r) == [occ(0), EMPTY, EMPTY]
    assert (s.supply_t[0], s.supply_m[0]) == (5 - 2, 1)
    assert (s.stock_t[0], s.stock_m[0]) == (6 + 1, 0)
    assert s.actions_left == 1
    # the trader, then up to 1 extra
    assert s.pending == (Relocate(1, origin=r, piece=TRADER, extras=1),)


def test_displacing_a_merchant_costs_two_more_tradesmen(n: int) -> None:
    s = displaced(n, "merchant")
    r = hl(s)
    s = act(s, f"displace r{r}.0 trader pay 0")
    assert occupants(s, r) == [occ(0), EMPTY, EMPTY]
    assert (s.supply_t[0], s.supply_m[0]) == (5 - 3, 1)
    assert (s.stock_t[0], s.stock_m[0]) == (6 + 2, 0)
    # the merchant, then up to 2 extras
    assert s.pending == (Relocate(1, origin=r, piece=MERCHANT, extras=2),)


@pytest.mark.parametrize("pay", [0, 1, 2])
def test_displacement_payment_mix_is_chosen_by_pay(n: int, pay: int) -> None:
    s = displaced(n, "merchant")
    set_level(s, 0, "book", 1)  # a second merchant for player 0
    set_pool(s, 0, supply=(3, 2))
    ready(s)
    r = hl(s)
    assert legal_texts(s, "displace") == {
        f"displace r{r}.0 trader pay 0",
        f"displace r{r}.0 trader pay 1",
        f"displace r{r}.0 trader pay 2",
        f"displace r{r}.0 merchant pay 0",
        f"displace r{r}.0 merchant pay 1",
    }
    stock_t = s.stock_t[0]
    s = act(s, f"displace r{r}.0 trader pay {pay}")
    assert (s.supply_t[0], s.supply_m[0]) == (3 - 1 - (2 - pay), 2 - pay)
    assert (s.stock_t[0], s.stock_m[0]) == (stock_t + 2 - pay, pay)


def test_displacement_must_be_paid_in_full(n: int) -> None:
    s = displaced(n)
    r = hl(s)
    set_pool(s, 0, supply=(1, 0))  # the displacing trader but nothing to pay with
    ready(s)
    illegal(s, f"displace r{r}.0 trader pay 0", "cannot pay")
    s = displaced(n, "merchant")
    set_pool(s, 0, supply=(2, 0))  # pays only 1 of 2
    ready(s)
    illegal(s, f"displace r{r}.0 trader pay 0", "cannot pay")
    set_pool(s, 0, supply=(3, 0))
    ready(s)
    illegal(s, f"displace r{r}.0 trader pay 1", "cannot pay")  # no merchant to pay with
    assert is_legal(s, f"displace r{r}.0 trader pay 0")


def test_cannot_displace_own_piece_or_an_empty_post(n: int) -> None:
    s = position(n)
    r = hl(s)
    occupy(s, r, 0)
    ready(s)
    illegal(s, f"displace r{r}.0 trader pay 0", "own piece")
    illegal(s, f"displace r{r}.1 trader pay 0", "empty")


# =============================================================================== relocation
def test_relocation_is_the_displaced_players_decision(n: int) -> None:
    s = act(displaced(n), f"displace r{hl(displaced(n))}.0 trader pay 0")
    a, b = sorted(adjacent_routes(s.board, hl(s)))[:2]
    assert (s.active, s.current_player, s.actions_left) == (0, 1, 1)
    # RULES.md does not say whether extras may be placed before the displaced piece, so
    # only "the choices are relocation choices" is asserted here
    kinds = {x.kind for x in legal_actions(s)}
    assert "relocate" in kinds and kinds <= {"relocate", "relocate_extra"}
    illegal(s, "income 1 0", "pending")  # the active player waits
    illegal(s, "end", "pending")
    s = act(s, f"relocate r{a}")
    assert (s.active, s.current_player, s.actions_left) == (0, 1, 1)
    s = act(s, f"relocate r{b} trader")
    assert occupants(s, a)[0] == occ(1) and occupants(s, b)[0] == occ(1)
    # done: the active player continues with the actions they had left
    assert (s.active, s.current_player, s.actions_left, s.pending) == (0, 0, 1, ())


def test_relocation_only_onto_routes_adjacent_to_the_origin(n: int) -> None:
    s = displaced(n)
    origin = hl(s)
    s = act(s, f"displace r{origin}.0 trader pay 0")
    adjacent = adjacent_routes(s.board, origin)
    assert relocation_targets(s) == adjacent
    far = route(s, "Goslar", "Hildesheim")
    assert far not in adjacent
    illegal(s, f"relocate r{far}")
    # the origin route itself is not allowed, although it has free posts
    assert free_posts(s, origin) == 2
    illegal(s, f"relocate r{origin}")
    s = act(s, f"relocate r{min(adjacent)}")
    assert extra_targets(s) == adjacent  # the extra too
    illegal(s, f"relocate r{far} trader")
    illegal(s, f"relocate r{origin} trader")


def test_relocation_goes_one_step_further_only_when_adjacent_routes_are_full(n: int) -> None:
    s = position(n)
    origin = route(s, "Emden", "Groningen")
    for r in adjacent_routes(s.board, origin):
        fill(s, r, 2)
    occupy(s, origin, 1)
    ready(s)
    s = act(s, f"displace r{origin}.0 trader pay 0")
    ring2 = second_ring(s.board, origin)
    assert ring2 and relocation_targets(s) == ring2
    for r in adjacent_routes(s.board, origin):
        illegal(s, f"relocate r{r}")
    illegal(s, f"relocate r{origin}")
    s = act(s, f"relocate r{min(ring2)}")
    assert occupants(s, min(ring2))[0] == occ(1)
    assert extra_targets(s) == ring2


def test_relocation_stays_adjacent_while_one_adjacent_post_is_free(n: int) -> None:
    s = position(n)
    origin = route(s, "Emden", "Groningen")
    eo = route(s, "Emden", "Osnabrück")
    for r in adjacent_routes(s.board, origin):
        fill(s, r, 2)
    s.posts[s.board.post_start[eo]] = EMPTY  # one free adjacent post
    s.stock_t[2] += 1
    occupy(s, origin, 1)
    ready(s)
    s = act(s, f"displace r{origin}.0 trader pay 0")
    assert relocation_targets(s) == {eo}
    s = act(s, f"relocate r{eo}")
    # Reading of RULES.md: "only if every post of every adjacent route is taken" is judged
    # piece by piece, so once the displaced piece took the last adjacent post the extra
    # goes one step further out (what a player placing the pieces one by one would do).
    assert extra_targets(s) == second_ring(s.board, origin)


def test_relocation_extras_come_from_the_general_stock_first(n: int) -> None:
    s = displaced(n)
    r = hl(s)
    a, b = sorted(adjacent_routes(s.board, r))[:2]
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}")
    stock, supply = (s.stock_t[1], s.stock_m[1]), (s.supply_t[1], s.supply_m[1])
    assert stock == (5 - 1, 0)  # seat 2: 5 in stock, one went on Hamburg–Lübeck
    # the merchant is only in the personal supply: not allowed while the stock has pieces
    illegal(s, f"relocate r{b} merchant")
    s = act(s, f"relocate r{b} trader")
    assert (s.stock_t[1], s.stock_m[1]) == (stock[0] - 1, 0)
    assert (s.supply_t[1], s.supply_m[1]) == supply


def test_relocation_extras_come_from_the_supply_when_the_stock_is_empty(n: int) -> None:
    s = displaced(n)
    r = hl(s)
    set_pool(s, 1, stock=(0, 0))
    ready(s)
    a, b = sorted(adjacent_routes(s.board, r))[:2]
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}")
    supply = (s.supply_t[1], s.supply_m[1])
    assert {f"relocate r{b} trader", f"relocate r{b} merchant"} <= legal_texts(s, "relocate")
    s = act(s, f"relocate r{b} merchant")
    assert (s.supply_t[1], s.supply_m[1]) == (supply[0], supply[1] - 1)
    assert occupants(s, b)[0] == occ(1, "merchant")


def test_relocation_extras_move_own_posts_when_stock_and_supply_are_empty(n: int) -> None:
    s = position(n)
    r = hl(s)
    occupy(s, r, 1)
    parked = park(s, 1, s.supply_t[1] + s.stock_t[1], s.supply_m[1] + s.stock_m[1])
    ready(s)
    assert (s.supply_t[1], s.supply_m[1], s.stock_t[1], s.stock_m[1]) == (0, 0, 0, 0)
    a, b = sorted(adjacent_routes(s.board, r))[:2]
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}")
    extras = legal_texts(s, "relocate")
    assert extras and all(" from " in t for t in extras)
    illegal(s, f"relocate r{b} trader")
    src = s.board.post_label(parked[-1])
    s = act(s, f"relocate r{b} from {src}")
    assert s.posts[parked[-1]] == EMPTY
    assert occupants(s, b)[0] == occ(1)
    assert s.pending == () and s.current_player == 0


def test_relocation_extras_switch_to_the_supply_when_the_stock_runs_out(n: int) -> None:
    s = displaced(n, "merchant")
    r = hl(s)
    set_pool(s, 1, stock=(1, 0))
    ready(s)
    a, b, c = sorted(adjacent_routes(s.board, r))[:3]
    supply_t = s.supply_t[1]
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}", f"relocate r{b} trader")
    assert (s.stock_t[1], s.supply_t[1]) == (0, supply_t)  # first extra: the stock
    s = act(s, f"relocate r{c} trader")
    assert (s.stock_t[1], s.supply_t[1]) == (0, supply_t - 1)  # second: the supply
    assert s.pending == ()


def test_displaced_trader_brings_at_most_one_extra(n: int) -> None:
    s = displaced(n)
    r = hl(s)
    a, b, c = sorted(adjacent_routes(s.board, r))[:3]
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}", f"relocate r{b} trader")
    assert s.pending == () and s.current_player == 0
    assert not is_legal(s, f"relocate r{c} trader")
    on_board = sum(o == occ(1) for o in s.posts)
    assert on_board == 2


def test_displaced_merchant_brings_up_to_two_extras_split_among_routes(n: int) -> None:
    s = displaced(n, "merchant")
    r = hl(s)
    a, b, c = sorted(adjacent_routes(s.board, r))[:3]
    stock_t = s.stock_t[1]
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}", f"relocate r{b} trader")
    assert s.current_player == 1  # one extra still allowed
    s = act(s, f"relocate r{c} trader")
    assert s.pending == () and s.current_player == 0 and s.actions_left == 1
    assert occupants(s, a)[0] == occ(1, "merchant")
    assert occupants(s, b)[0] == occ(1) and occupants(s, c)[0] == occ(1)
    assert s.stock_t[1] == stock_t - 2


def test_relocation_extras_may_be_declined(n: int) -> None:
    s = displaced(n, "merchant")
    r = hl(s)
    a = min(adjacent_routes(s.board, r))
    stock = (s.stock_t[1], s.stock_m[1])
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}", "decline")
    assert s.pending == () and s.current_player == 0
    assert (s.stock_t[1], s.stock_m[1]) == stock
    assert [o for o in s.posts if o >> 1 == 1 and o != EMPTY] == [occ(1, "merchant")]


def test_the_displaced_piece_itself_cannot_be_declined(n: int) -> None:
    s = displaced(n)
    s = act(s, f"displace r{hl(s)}.0 trader pay 0")
    illegal(s, "decline")


def test_displacing_with_the_last_action_passes_the_turn_after_relocation(n: int) -> None:
    s = displaced(n)
    s.actions_left = 1
    r = hl(s)
    a = min(adjacent_routes(s.board, r))
    s = act(s, f"displace r{r}.0 trader pay 0")
    assert (s.active, s.current_player, s.actions_left) == (0, 1, 0)
    s = acts(s, f"relocate r{a}", "decline")
    assert (s.active, s.current_player, s.actions_left) == (1, 1, 2)


# =============================================================================== move
def with_pieces(n: int, book: int = 0) -> State:
    """Player 0: 4 traders on Hamburg–Bremen, 2 on Hamburg–Lüneburg."""
    s = position(n)
    set_level(s, 0, "book", book)
    fill(s, route(s, "Hamburg", "Bremen"), 0)
    occupy(s, route(s, "Hamburg", "Lüneburg"), 0, ["trader", "trader"])
    return ready(s)


@pytest.mark.parametrize(("level", "moves"), list(enumerate(BOOK)))
def test_move_up_to_the_book_value(n: int, level: int, moves: int) -> None:
    s = with_pieces(n, level)
    sources = [i for i, o in enumerate(s.posts) if o == occ(0)]
    dests = [route(s, "Quedlinburg", "Halle"), route(s, "Quedlinburg", "Goslar")]
    s = act(s, "move")
    assert (s.actions_left, s.current_player) == (1, 0)
    for k in range(moves):
        assert s.pending == (Move(0, left=moves - k),)
        s = act(s, f"move {s.board.post_label(sources[k])} r{dests[k % 2]}")
    assert s.pending == ()
    moved = sum(o == occ(0) for r in dests for o in occupants(s, r))
    assert moved == moves
    illegal(s, f"move {s.board.post_label(sources[moves])} r{dests[0]}", "nothing is pending")
    assert (s.active, s.actions_left) == (0, 1)  # the Move was one action


def test_move_can_stop_early(n: int) -> None:
    s = with_pieces(n)
    hb = route(s, "Hamburg", "Bremen")
    dest = route(s, "Quedlinburg", "Halle")
    s = acts(s, "move", f"move r{hb}.0 r{dest}", "stop")
    assert s.pending == () and (s.active, s.actions_left) == (0, 1)
    assert occupants(s, hb)[0] == EMPTY and occupants(s, dest)[0] == occ(0)


def test_move_swap_of_trader_and_merchant_costs_two_moves(n: int) -> None:
    s = position(n)
    a, b = hl(s), route(s, "Emden", "Groningen")
    occupy(s, a, 0, "trader")
    occupy(s, b, 0, "merchant")
    ready(s)
    s = acts(s, "move", f"swap r{a}.0 r{b}.0")
    assert occupants(s, a)[0] == occ(0, "merchant")
    assert occupants(s, b)[0] == occ(0, "trader")
    assert s.pending == ()  # Book 2: the swap used both moves


def test_move_swap_needs_two_moves_left(n: int) -> None:
    s = position(n)
    a, b, c = hl(s), route(s, "Emden", "Groningen"), route(s, "Hamburg", "Stade")
    occupy(s, a, 0, "trader")
    occupy(s, b, 0, "merchant")
    occupy(s, c, 0, "trader")
    ready(s)
    dest = route(s, "Quedlinburg", "Halle")
    s = acts(s, "move", f"move r{c}.0 r{dest}")
    assert s.pending == (Move(0, left=1),)
    illegal(s, f"swap r{a}.0 r{b}.0")


def test_move_cannot_displace_or_move_opponents(n: int) -> None:
    s = with_pieces(n)
    full = hl(s)
    fill(s, full, 1)
    ready(s)
    hb = route(s, "Hamburg", "Bremen")
    s = act(s, "move")
    illegal(s, f"move r{hb}.0 r{full}")  # full of opponents: no displacing
    illegal(s, f"move r{full}.0 r{route(s, 'Quedlinburg', 'Halle')}")  # not own piece
    own_full = route(s, "Hamburg", "Bremen")
    illegal(s, f"move r{route(s, 'Hamburg', 'Lüneburg')}.0 r{own_full}")  # full of own pieces


# =============================================================================== markers
@pytest.mark.parametrize(("kind", "extra"), [("plus3", 3), ("plus4", 4)])
def test_actions_marker_adds_actions_this_turn(n: int, kind: str, extra: int) -> None:
    s = position(n)
    give_marker(s, 0, kind)
    ready(s)
    s = act(s, f"marker {kind}")
    assert (s.active, s.actions_left) == (0, 2 + extra)
    assert s.markers[0] == () and s.markers_used[0] == (kind,)


def test_actions_marker_usable_with_no_actions_left(n: int) -> None:
    s = position(n)
    give_marker(s, 0, "plus3")
    s.actions_left = 1
    ready(s)
    s = act(s, "income 1 0")
    assert (s.active, s.current_player, s.actions_left) == (0, 0, 0)
    assert legal_texts(s) == {"marker plus3", "end"}
    illegal(s, "income 1 0", "no actions left")
    s = act(s, "marker plus3")
    assert (s.active, s.actions_left) == (0, 3)


def test_marker_is_used_once_and_still_scores(n: int) -> None:
    s = position(n)
    give_marker(s, 0, "plus4")
    give_marker(s, 0, "develop")
    ready(s)
    assert score_breakdown(s)[0]["markers"] == 3  # 2 markers
    s = act(s, "marker plus4")
    illegal(s, "marker plus4", "does not hold")
    assert s.markers[0] == ("develop",) and s.markers_used[0] == ("plus4",)
    assert score_breakdown(s)[0]["markers"] == 3  # used markers still count


@pytest.mark.parametrize("ability", ABILITIES)
def test_develop_marker_develops_any_one_ability(n: int, ability: str) -> None:
    s = position(n)
    give_marker(s, 0, "develop")
    ready(s)
    supply = (s.supply_t[0], s.supply_m[0])
    s = act(s, f"marker develop {ability}")
    a = ABILITIES.index(ability)
    assert s.levels[0] == [int(i == a) for i in range(len(ABILITIES))]
    if ability == "book":  # Book is covered by merchants
        assert (s.supply_t[0], s.supply_m[0]) == (supply[0], supply[1] + 1)
        assert piece_counts(s, 0)["tracks"] == (15, 2)
    else:
        assert (s.supply_t[0], s.supply_m[0]) == (supply[0] + 1, supply[1])
        assert piece_counts(s, 0)["tracks"] == (14, 3)
    assert s.markers_used[0] == ("develop",)
    assert s.actions_left == 2 + (ability == "actions")


def test_develop_marker_cannot_develop_a_full_ability(n: int) -> None:
    s = position(n)
    set_level(s, 0, "keys", 4)
    give_marker(s, 0, "develop")
    ready(s)
    illegal(s, "marker develop keys")
    assert is_legal(s, "marker develop privilege")


def test_swap_marker_exchanges_adjacent_kontors_without_coin_prestige(n: int) -> None:
    s = position(n)
    place_kontors(s, "Lübeck", [1, 0])  # office 0 carries a coin
    give_marker(s, 0, "swap")
    ready(s)
    s = act(s, "marker swap Lübeck 0")
    assert office_occupants(s, "Lübeck") == [occ(0), occ(1)]
    assert s.prestige == [0] * n
    assert s.actions_left == 2 and s.markers_used[0] == ("swap",)


def test_swap_marker_ignores_colour_shape_and_privilege(n: int) -> None:
    s = position(n)
    place_kontors(s, "Emden", [1, 0])  # white circle (merchant), pink square (trader)
    give_marker(s, 0, "swap")
    ready(s)
    s = act(s, "marker swap Emden 0")
    assert office_occupants(s, "Emden") == [occ(0), occ(1, "merchant")]


def test_swap_marker_needs_two_kontors_one_of_them_yours(n: int) -> None:
    s = position(n)
    place_kontors(s, "Hamburg", [1, 2, 0])
    place_kontors(s, "Lübeck", [0])
    give_marker(s, 0, "swap")
    ready(s)
    illegal(s, "marker swap Hamburg 0")  # both Kontors belong to opponents
    illegal(s, "marker swap Lübeck 0")  # office 1 of Lübeck is vacant
    assert legal_texts(s, "marker swap") == {"marker swap Hamburg 1"}


def test_swap_marker_cannot_swap_extra_kontors(n: int) -> None:
    s = position(n)
    place_kontors(s, "Hamburg", [1, 2])
    place_extras(s, "Hamburg", [(0, "trader")])
    give_marker(s, 0, "swap")
    ready(s)
    assert legal_texts(s, "marker swap") == set()
    illegal(s, "marker swap Hamburg 0")


def move3_position(n: int) -> State:
    """Player 1 fills Hamburg–Bremen, player 2 has a trader on Hamburg–Lübeck, player 0
    one on Hamburg–Stade; Kampen–Osnabrück is full (player 2); player 0 holds move-3."""
    s = position(n)
    fill(s, route(s, "Hamburg", "Bremen"), 1)
    occupy(s, hl(s), 2)
    occupy(s, route(s, "Hamburg", "Stade"), 0)
    fill(s, route(s, "Kampen", "Osnabrück"), 2)
    give_marker(s, 0, "move3")
    return ready(s)


def test_move3_marker_moves_up_to_three_opponent_pieces(n: int) -> None:
    s = move3_position(n)
    hb, hs = route(s, "Hamburg", "Bremen"), route(s, "Hamburg", "Stade")
    ko = route(s, "Kampen", "Osnabrück")
    dest = route(s, "Quedlinburg", "Halle")
    s = act(s, "marker move3")
    assert (s.current_player, s.actions_left) == (0, 2)
    illegal(s, f"shift r{hs}.0 r{dest}")  # own piece
    illegal(s, f"shift r{hb}.0 r{ko}")  # no free post: no displacing
    s = acts(s, f"shift r{hb}.0 r{dest}", f"shift r{hl(s)}.0 r{dest}", f"shift r{hb}.1 r{dest}")
    assert occupants(s, dest) == [occ(1), occ(2), occ(1), EMPTY]
    assert occupants(s, hb) == [EMPTY, EMPTY, occ(1), occ(1)]
    assert s.pending == () and s.markers_used[0] == ("move3",)
    illegal(s, f"shift r{hb}.2 r{dest}", "nothing is pending")
    assert (s.active, s.actions_left) == (0, 2)


def test_move3_marker_may_stop_early(n: int) -> None:
    s = move3_position(n)
    hb, dest = route(s, "Hamburg", "Bremen"), route(s, "Quedlinburg", "Halle")
    s = acts(s, "marker move3", f"shift r{hb}.0 r{dest}", "stop")
    assert s.pending == () and occupants(s, dest)[0] == occ(1)
    assert s.markers[0] == () and s.markers_used[0] == ("move3",)


def test_remove3_marker_returns_opponent_pieces_to_their_supplies(n: int) -> None:
    s = position(n, edition="original")
    hb = route(s, "Hamburg", "Bremen")
    occupy(s, hb, 1, ["merchant", "trader", "trader", "trader"])
    occupy(s, hl(s), 2)
    occupy(s, route(s, "Hamburg", "Stade"), 0)
    give_marker(s, 0, "remove3")
    ready(s)
    sup1 = (s.supply_t[1], s.supply_m[1])
    sup2 = s.supply_t[2]
    s = act(s, "marker remove3")
    illegal(s, f"remove r{route(s, 'Hamburg', 'Stade')}.0")  # own piece
    s = acts(s, f"remove r{hb}.0", f"remove r{hl(s)}.0", f"remove r{hb}.1")
    assert (s.supply_t[1], s.supply_m[1]) == (sup1[0] + 1, sup1[1] + 1)
    assert s.supply_t[2] == sup2 + 1
    assert occupants(s, hb) == [EMPTY, EMPTY, occ(1), occ(1)]
    assert s.pending == () and s.markers_used[0] == ("remove3",)
    illegal(s, f"remove r{hb}.2", "nothing is pending")


def test_marker_taken_in_establish_is_usable_the_same_turn(n: int) -> None:
    s = position(n)
    r = hl(s)
    set_route_marker(s, r, "plus4")
    fill(s, r, 0)
    s.actions_left = 1
    ready(s)
    bag = s.bag
    s = act(s, f"establish r{r} none")
    assert s.markers[0] == ("plus4",) and s.route_marker[r] is None
    assert s.drawn == bag[:1] and s.bag == bag[1:]  # replacement drawn at once
    assert (s.active, s.current_player, s.actions_left) == (0, 0, 0)  # turn goes on
    s = act(s, "marker plus4")
    assert (s.active, s.actions_left) == (0, 4)


# =============================================================================== end of turn
def expected_marker_routes(s: State) -> set[int]:
    b = s.board
    out = set()
    for r in range(b.n_routes):
        x, y = b.route_cities[r]
        vacant = any(s.offices[i] == EMPTY for c in (x, y) for i in b.city_offices(c))
        if s.route_marker[r] is None and set(occupants(s, r)) == {EMPTY} and vacant:
            out.add(r)
    return out


def test_end_of_turn_replacement_marker_is_placed_by_the_active_player(n: int) -> None:
    s = position(n)
    r = hl(s)
    eg, hs = route(s, "Emden", "Groningen"), route(s, "Hamburg", "Stade")
    set_route_marker(s, r, "plus3")
    fill(s, r, 0)
    occupy(s, eg, 1)  # tradesmen on it
    place_kontors(s, "Hamburg", [1, 1, 1])
    place_kontors(s, "Stade", [1])  # Hamburg–Stade: no vacant office at either end
    ready(s)
    s = act(s, f"establish r{r} none")
    drawn = s.drawn[0]
    s = act(s, "end")
    assert (s.active, s.current_player) == (0, 0)
    targets = {a.a for a in legal_actions(s)}
    assert targets == expected_marker_routes(s) and r in targets
    assert eg not in targets and hs not in targets
    for a, b in TAVERNS:  # they have markers
        assert route(s, a, b) not in targets
    illegal(s, f"place_marker r{eg}")
    illegal(s, f"place_marker r{hs}")
    illegal(s, "income 1 0", "pending")
    s = act(s, f"place_marker r{r}")
    assert s.route_marker[r] == drawn and s.drawn == ()
    assert (s.active, s.current_player, s.actions_left, s.turn) == (1, 1, 2, 2)


def test_replacement_marker_placed_when_the_last_action_is_used(n: int) -> None:
    s = position(n)
    r = hl(s)
    set_route_marker(s, r, "extra")  # not usable outside an establish action
    fill(s, r, 0)
    s.actions_left = 1
    ready(s)
    s = act(s, f"establish r{r} none")
    assert s.pending == (PlaceMarkers(0),)
    assert (s.active, s.current_player, s.actions_left) == (0, 0, 0)
    target = min(expected_marker_routes(s))
    s = act(s, f"place_marker r{target}")
    assert s.route_marker[target] is not None
    assert (s.active, s.current_player) == (1, 1)


# =============================================================================== developing
def test_establish_develop_actions_gives_the_action_this_turn(n: int) -> None:
    s = position(n)
    r = route(s, "Quedlinburg", "Göttingen")
    fill(s, r, 0)
    ready(s)
    supply_t = s.supply_t[0]
    s = act(s, f"establish r{r} develop actions")
    assert s.levels[0][ABILITIES.index("actions")] == 1
    assert s.supply_t[0] == supply_t + 1  # the leftmost Actions trader
    assert piece_counts(s, 0)["tracks"] == (14, 3)
    assert (s.active, s.actions_left) == (0, 2)  # 2 - 1 (establish) + 1 (new value 3)
    s = acts(s, "income 1 0", "income 1 0")
    assert s.active == 1


def test_establish_develop_actions_with_the_last_action_continues_the_turn(n: int) -> None:
    s = position(n)
    r = route(s, "Quedlinburg", "Göttingen")
    fill(s, r, 0)
    s.actions_left = 1
    ready(s)
    s = act(s, f"establish r{r} develop actions")
    assert (s.active, s.actions_left) == (0, 1)
    s = act(s, "income 1 0")
    assert s.active == 1


def test_establish_develop_book_uncovers_a_merchant(n: int) -> None:
    s = position(n)
    r = route(s, "Emden", "Groningen")
    fill(s, r, 0)
    occupy(s, hl(s), 0)
    ready(s)
    supply = (s.supply_t[0], s.supply_m[0])
    s = act(s, f"establish r{r} develop book")
    assert (s.supply_t[0], s.supply_m[0]) == (supply[0], supply[1] + 1)
    assert piece_counts(s, 0)["tracks"] == (15, 2)
    s = act(s, "move")
    assert s.pending == (Move(0, left=3),)  # Book 3 at once


@pytest.mark.parametrize("level", range(5))
def test_actions_development_applies_at_once(n: int, level: int) -> None:
    s = position(n)
    set_level(s, 0, "actions", level)
    s.actions_left = ACTIONS[level]
    give_marker(s, 0, "develop")
    ready(s)
    s = act(s, "marker develop actions")
    # Reading of "new value applies at once; a new action is usable this turn": the turn
    # gains the difference of the printed values (2,3,3,4,4,5), so 3 → 3 gains nothing.
    assert s.actions_left == ACTIONS[level + 1]


def test_bank_development_applies_at_once(n: int) -> None:
    s = position(n)
    give_marker(s, 0, "develop")
    ready(s)
    illegal(s, "income 5 0", "limited to 3")
    s = act(s, "marker develop bank")
    illegal(s, "income 6 0", "limited to 5")
    s = act(s, "income 5 0")
    assert s.supply_t[0] == 5 + 1 + 5


# =============================================================================== illegal actions
def test_apply_returns_a_new_state_and_leaves_the_given_one_unchanged(n: int) -> None:
    s = displaced(n)
    before = pickle.dumps(s)
    s2 = act(s, f"displace r{hl(s)}.0 trader pay 0")
    assert pickle.dumps(s) == before and s2 is not s and s2 != s


ILLEGAL_CASES = {
    "income over Bank": ("income 4 0", "income is limited to 3"),
    "income of nothing": ("income 0 0", "at least one"),
    "income beyond stock": ("income 0 1", "general stock holds only"),
    "establish foreign route": ("establish r0 none", "not fully occupied"),
    "marker not held": ("marker plus3", "does not hold"),
    "relocation with nothing pending": ("relocate r1", "nothing is pending"),
    "marker placement with nothing pending": ("place_marker r1", "nothing is pending"),
    "displace empty post": ("displace r0.0 trader pay 0", "empty"),
}


@pytest.mark.parametrize("case", list(ILLEGAL_CASES))
def test_illegal_action_raises_with_its_reason_and_changes_nothing(n: int, case: str) -> None:
    text, reason = ILLEGAL_CASES[case]
    message = illegal(position(n), text, reason)
    assert repr(text) in message  # names the action


def test_illegal_action_raises_when_no_actions_are_left(n: int) -> None:
    s = position(n)
    give_marker(s, 0, "plus3")
    s.actions_left = 0
    ready(s)
    illegal(s, f"place r{hl(s)} trader", "no actions left")


def test_illegal_action_during_a_pending_decision_names_it(n: int) -> None:
    s = displaced(n)
    s = act(s, f"displace r{hl(s)}.0 trader pay 0")
    illegal(s, "end", "player 1 must first resolve a pending 'relocate' decision")


def _move_onto_full_route(n: int) -> tuple[State, str]:
    s = with_pieces(n)
    fill(s, hl(s), 1)
    s = act(ready(s), "move")
    return s, f"move r{route(s, 'Hamburg', 'Bremen')}.0 r{hl(s)}"


def _marker_on_occupied_route(n: int) -> tuple[State, str]:
    s = position(n)
    r = hl(s)
    set_route_marker(s, r, "extra")
    fill(s, r, 0)
    occupy(s, route(s, "Emden", "Groningen"), 1)
    s.actions_left = 1
    s = act(ready(s), f"establish r{r} none")
    return s, f"place_marker r{route(s, 'Emden', 'Groningen')}"


def _develop_full_ability(n: int) -> tuple[State, str]:
    s = position(n)
    set_level(s, 0, "keys", 4)
    give_marker(s, 0, "develop")
    return ready(s), "marker develop keys"


def _move_without_pieces(n: int) -> tuple[State, str]:
    return position(n), "move"


SPECIFIC_REASONS = {
    "move onto a full route": _move_onto_full_route,
    "replacement marker beside a route with tradesmen": _marker_on_occupied_route,
    "develop a fully developed ability": _develop_full_ability,
    "Move without own pieces on the board": _move_without_pieces,
}


@pytest.mark.parametrize("case", list(SPECIFIC_REASONS))
def test_illegal_action_message_gives_a_specific_reason(n: int, case: str) -> None:
    # The engine promises "an illegal action raises IllegalActionError saying why"; the
    # generic fallback "not among the legal actions of this position" says no why.
    s, text = SPECIFIC_REASONS[case](n)
    message = illegal(s, text)
    assert GENERIC not in message, message


def test_illegal_relocation_source_is_explained(n: int) -> None:
    # Extras come from the general stock first: taking the merchant from the personal
    # supply while the stock holds traders is illegal, but the route itself is adjacent,
    # so the reason must be about where the piece comes from, not about the route.
    s = displaced(n)
    r = hl(s)
    a, b = sorted(adjacent_routes(s.board, r))[:2]
    s = acts(s, f"displace r{r}.0 trader pay 0", f"relocate r{a}")
    message = illegal(s, f"relocate r{b} merchant")
    assert "stock" in message, message


def test_parse_error_is_not_an_illegal_action() -> None:
    s = position(3)
    with pytest.raises(ValueError) as info:
        parse_action(s.board, "place r99 trader")
    assert not isinstance(info.value, IllegalActionError)
    with pytest.raises(IllegalActionError):
        apply(s, parse_action(s.board, "income 9 0"))
