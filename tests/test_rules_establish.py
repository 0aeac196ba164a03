"""Scenario tests for the Establish-a-trade-route action (RULES.md, "A turn") and the end of
the game it can trigger. Each test builds a position by hand and checks one rule."""

from __future__ import annotations

import pytest
from helpers import (
    SIDES,
    act_of,
    city,
    empty_bag_into_player,
    fill_route,
    give_markers,
    is_legal,
    legal_texts,
    merchant,
    office_occupants,
    own_route,
    play,
    rt,
    set_extras,
    set_level,
    set_offices,
    set_route_marker,
    settle,
    to_supply,
    trader,
)

from hansa_lab.engine.rules import ACTIONS_VALUES, apply, legal_actions
from hansa_lab.engine.scoring import city_controller, score_breakdown
from hansa_lab.engine.state import EMPTY, GameConfig, State, new_game
from hansa_lab.errors import IllegalActionError


def establish_hl(s: State, choice: str = "none") -> State:
    """Player 0 fills Hamburg–Lübeck with traders, the position is settled, and player 0
    establishes the route with ``choice`` (``none``, ``kontor Hamburg``, ...)."""
    own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    return play(s, f"establish {rt(s, 'Hamburg', 'Lübeck')} {choice}")


def base(n: int = 3) -> State:
    """A fresh game on the base board: 3p side for 3 players, 4-5p side for 4."""
    return new_game(GameConfig(n_players=n, board="base", seed=11))


# --------------------------------------------------------------------------- who may
@pytest.mark.parametrize(
    "occupants",
    [
        [trader(0), trader(0)],  # one post empty
        [trader(0), trader(1), trader(0)],  # an opponent's piece
        [trader(0), merchant(2), trader(0)],  # an opponent's merchant
    ],
    ids=["post-empty", "opponent-trader", "opponent-merchant"],
)
def test_establish_needs_every_post_held_by_own_tradesmen(occupants: list[int]) -> None:
    s = base()
    fill_route(s, "Hamburg", "Lübeck", occupants)
    settle(s)
    r = rt(s, "Hamburg", "Lübeck")
    assert not legal_texts(s, f"establish {r} ")
    with pytest.raises(IllegalActionError):
        apply(s, act_of(s, f"establish {r} none"))


def test_establish_allowed_with_own_traders_and_merchants() -> None:
    s = base()
    fill_route(s, "Hamburg", "Lübeck", [trader(0), merchant(0), trader(0)])
    settle(s)
    assert is_legal(s, f"establish {rt(s, 'Hamburg', 'Lübeck')} none")


def test_opponent_cannot_establish_my_route() -> None:
    s = base()
    own_route(s, "Hamburg", "Lübeck", 1)
    settle(s)
    assert s.active == 0
    assert not legal_texts(s, "establish")


def test_establish_costs_one_action() -> None:
    s = base()
    own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    assert s.actions_left == 2
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Lübeck')} none")
    assert (s2.active, s2.actions_left) == (0, 1)


def test_establish_as_last_action_ends_the_turn() -> None:
    s = base()
    own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    s.actions_left = 1
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Lübeck')} none")
    assert s2.active == 1


def test_no_establish_without_an_action_left() -> None:
    s = base()
    own_route(s, "Hamburg", "Lübeck", 0)
    give_markers(s, 0, unused=["plus3"])
    settle(s)
    s.actions_left = 0  # turn kept alive only by the unused +3 marker
    assert legal_texts(s) == {"marker plus3", "end"}


# --------------------------------------------------------------------------- step 1
@SIDES
def test_endpoint_controllers_score_even_if_not_the_establishing_player(side: str, n: int) -> None:
    s = base(n)
    assert s.board.name == side
    set_offices(s, "Hamburg", [trader(1)])
    set_offices(s, "Lübeck", [trader(2)])
    s2 = establish_hl(s)
    assert s2.prestige[:3] == [0, 1, 1]


def test_establishing_player_controlling_both_ends_scores_two() -> None:
    s = base()
    set_offices(s, "Hamburg", [trader(0)])
    set_offices(s, "Lübeck", [trader(0)])
    s2 = establish_hl(s)
    assert s2.prestige == [2, 0, 0]


def test_nobody_scores_for_a_city_without_kontors() -> None:
    s = base()
    s2 = establish_hl(s)
    assert s2.prestige == [0, 0, 0]


@SIDES
def test_control_is_evaluated_before_the_new_kontor(side: str, n: int) -> None:
    # Hamburg: player 1 holds the white office; player 0's new Kontor on the orange
    # office makes a 1-1 tie that player 0 (rightmost) wins — but only afterwards.
    s = base(n)
    set_offices(s, "Hamburg", [trader(1)])
    set_level(s, 0, "privilege", 1)
    s2 = establish_hl(s, "kontor Hamburg")
    assert s2.prestige[:2] == [0, 1]
    assert city_controller(s2, city(s2, "Hamburg")) == 0


def test_control_tie_goes_to_owner_of_rightmost_kontor() -> None:
    s = base()
    set_offices(s, "Hamburg", [trader(1), trader(2)])
    s2 = establish_hl(s)
    assert s2.prestige == [0, 0, 1]


def test_control_majority_beats_rightmost_kontor() -> None:
    s = base()
    set_offices(s, "Hamburg", [trader(1), trader(1), trader(2)])
    s2 = establish_hl(s)
    assert s2.prestige == [0, 1, 0]


def test_extra_kontor_counts_for_control_majority() -> None:
    s = base()
    set_offices(s, "Lübeck", [trader(1), trader(2)])
    set_extras(s, "Lübeck", [trader(1)])
    s2 = establish_hl(s)
    assert s2.prestige == [0, 1, 0]


def test_extra_kontor_is_leftmost_so_loses_a_control_tie() -> None:
    s = base()
    set_offices(s, "Lübeck", [trader(2)])
    set_extras(s, "Lübeck", [trader(1)])
    s2 = establish_hl(s)
    assert s2.prestige == [0, 0, 1]


# --------------------------------------------------------------------------- step 2
def test_bonus_marker_taken_and_replacement_drawn_at_once() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    set_route_marker(s, r, "plus4")
    settle(s)
    bag = s.bag
    s2 = play(s, f"establish r{r} none")
    assert s2.markers[0] == ("plus4",)
    assert s2.route_marker[r] is None
    assert s2.drawn == (bag[0],)
    assert s2.bag == bag[1:]
    assert s2.end_reason is None


def test_route_without_marker_draws_nothing() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    assert s.route_marker[r] is None
    s2 = play(s, f"establish r{r} none")
    assert (s2.markers[0], s2.drawn, s2.bag) == ((), (), s.bag)


def test_drawn_replacement_is_placed_at_end_of_turn() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    set_route_marker(s, r, "plus4")
    settle(s)
    s = play(s, f"establish r{r} none")
    s = play(s, "end")
    assert s.current_player == 0
    assert legal_texts(s) and all(t.startswith("place_marker") for t in legal_texts(s))


def test_empty_bag_ends_the_game_after_this_action() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    set_route_marker(s, r, "swap")
    empty_bag_into_player(s, 2)
    set_offices(s, "Lübeck", [trader(1)])
    set_level(s, 0, "privilege", 3)
    settle(s)
    s2 = play(s, f"establish r{r} kontor Hamburg")
    assert s2.end_reason == "markers"
    # the action still completes: marker taken, control point, Kontor
    assert s2.markers[0] == ("swap",)
    assert s2.prestige == [0, 1, 0]
    assert office_occupants(s2, "Hamburg")[0] == trader(0)
    assert s2.drawn == ()
    assert legal_actions(s2) == []


def test_empty_bag_does_not_end_the_game_if_no_marker_is_taken() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    empty_bag_into_player(s, 2)
    settle(s)
    assert s.route_marker[r] is None
    s2 = play(s, f"establish r{r} none")
    assert s2.end_reason is None


# --------------------------------------------------------------------------- step 3: Kontor
def test_kontor_offered_in_either_endpoint() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    kontors = legal_texts(s, f"establish r{r} kontor")
    assert kontors == {f"establish r{r} kontor Hamburg", f"establish r{r} kontor Lubeck"}


@SIDES
def test_kontor_takes_leftmost_vacant_office(side: str, n: int) -> None:
    s = base(n)
    set_offices(s, "Minden", [trader(1), trader(2)])
    set_level(s, 0, "privilege", 3)
    r = own_route(s, "Minden", "Hannover", 0)
    settle(s)
    s2 = play(s, f"establish r{r} kontor Minden")
    assert office_occupants(s2, "Minden") == [trader(1), trader(2), trader(0), EMPTY]


@pytest.mark.parametrize("privilege", range(4))
@pytest.mark.parametrize("filled", range(4))
def test_privilege_colour_must_allow_the_office(privilege: int, filled: int) -> None:
    # Minden's four trader offices are white, orange, pink, black (levels 0..3).
    s = base()
    set_offices(s, "Minden", [trader(1)] * filled)
    set_level(s, 0, "privilege", privilege)
    r = own_route(s, "Minden", "Hannover", 0)
    settle(s)
    assert is_legal(s, f"establish r{r} kontor Minden") == (filled <= privilege)


def test_merchant_circle_needs_a_merchant_from_the_route() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Stade", 0)  # Stade: one white circle
    settle(s)
    assert not is_legal(s, f"establish r{r} kontor Stade")
    s = base()
    r = own_route(s, "Hamburg", "Stade", 0, n_merchants=1)
    settle(s)
    stock_t = s.stock_t[0]
    s2 = play(s, f"establish r{r} kontor Stade")
    assert office_occupants(s2, "Stade") == [merchant(0)]
    assert s2.stock_t[0] == stock_t + 2 and s2.stock_m[0] == s.stock_m[0]


def test_trader_square_needs_a_trader_from_the_route() -> None:
    s = base()
    set_level(s, 0, "book", 1)  # frees a second merchant
    set_level(s, 0, "privilege", 1)
    r = own_route(s, "Kampen", "Osnabrück", 0, n_merchants=2)
    settle(s)
    assert not legal_texts(s, f"establish r{r} kontor")


@SIDES
def test_no_skipping_past_an_office_of_the_wrong_shape(side: str, n: int) -> None:
    # Dortmund: white circle, then orange square. Traders only: no Kontor in Dortmund
    # even with orange Privilege (no skipping); Duisburg's white square is fine.
    s = base(n)
    set_level(s, 0, "privilege", 1)
    r = own_route(s, "Duisburg", "Dortmund", 0)
    settle(s)
    assert not is_legal(s, f"establish r{r} kontor Dortmund")
    assert is_legal(s, f"establish r{r} kontor Duisburg")


def test_no_skipping_past_a_square_with_merchants_only() -> None:
    # Arnheim: white square, white circle, ... A route of merchants cannot reach the circle.
    s = base()
    set_level(s, 0, "book", 2)
    r = own_route(s, "Arnheim", "Kampen", 0, n_merchants=3)
    settle(s)
    assert not is_legal(s, f"establish r{r} kontor Arnheim")


def test_kontor_pieces_other_pieces_go_to_general_stock() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0, n_merchants=1)
    settle(s)
    to_supply(s, 0, traders=2)
    before = (s.stock_t[0], s.stock_m[0], s.supply_t[0], s.supply_m[0])
    s2 = play(s, f"establish r{r} kontor Hamburg")
    assert office_occupants(s2, "Hamburg")[0] == trader(0)
    assert s2.route_occupants(r) == [EMPTY] * 3
    assert (s2.stock_t[0], s2.stock_m[0], s2.supply_t[0], s2.supply_m[0]) == (
        before[0] + 1,
        before[1] + 1,
        before[2],
        before[3],
    )


@SIDES
def test_coin_office_gives_one_prestige(side: str, n: int) -> None:
    s = base(n)
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    s2 = play(s, f"establish r{r} kontor Lubeck")  # Lübeck's first office shows a coin
    assert s2.prestige[0] == 1


def test_office_without_coin_gives_no_prestige() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    s2 = play(s, f"establish r{r} kontor Hamburg")
    assert s2.prestige[0] == 0


def test_filling_last_office_completes_the_city() -> None:
    s = base()
    set_offices(s, "Lübeck", [trader(1)])
    set_level(s, 0, "privilege", 2)
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    assert s.completed == 0
    s2 = play(s, f"establish r{r} kontor Lubeck")
    assert s2.completed == 1
    assert not legal_texts(s2, f"establish r{r} kontor Lubeck")


def test_kontor_not_last_office_does_not_complete() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    s2 = play(s, f"establish r{r} kontor Lubeck")
    assert s2.completed == 0


def test_full_city_offers_no_kontor() -> None:
    s = base()
    set_offices(s, "Stade", [merchant(1)])
    r = own_route(s, "Hamburg", "Stade", 0, n_merchants=1)
    settle(s)
    assert not is_legal(s, f"establish r{r} kontor Stade")


# --------------------------------------------------------------------------- step 3: develop
def test_develop_only_the_ability_shown_by_an_endpoint() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)  # Lübeck shows the Bank
    settle(s)
    assert legal_texts(s, f"establish r{r} develop") == {f"establish r{r} develop bank"}


def test_develop_bank_moves_its_piece_to_the_personal_supply() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    stock_t = s.stock_t[0]
    s2 = play(s, f"establish r{r} develop bank")
    assert s2.level(0, "bank") == 1
    assert s2.supply_t[0] == s.supply_t[0] + 1
    assert s2.stock_t[0] == stock_t + 3  # the whole route returns


def test_develop_book_releases_a_merchant_to_the_supply() -> None:
    s = base()
    r = own_route(s, "Emden", "Gröningen", 0)
    settle(s)
    s2 = play(s, f"establish r{r} develop book")
    assert s2.level(0, "book") == 1
    assert (s2.supply_t[0], s2.supply_m[0]) == (s.supply_t[0], s.supply_m[0] + 1)


@pytest.mark.parametrize("level", range(5))
def test_develop_actions_applies_at_once(level: int) -> None:
    # Ambiguity: RULES.md says "a new action is usable this turn". The track is
    # 2,3,3,4,4,5, so we read it as: the new value applies at once — one more action
    # when the value rises (2->3, 3->4, 4->5), none for 3->3 and 4->4.
    s = base()
    set_level(s, 0, "actions", level)
    r = own_route(s, "Quedlinburg", "Göttingen", 0)
    settle(s)
    s.actions_left = ACTIONS_VALUES[level]
    s2 = play(s, f"establish r{r} develop actions")
    gain = ACTIONS_VALUES[level + 1] - ACTIONS_VALUES[level]
    assert s2.level(0, "actions") == level + 1
    assert s2.actions_left == ACTIONS_VALUES[level] - 1 + gain
    assert s2.supply_t[0] == s.supply_t[0] + 1  # the uncovered trader


def test_develop_actions_on_last_action_lets_the_turn_go_on() -> None:
    s = base()
    r = own_route(s, "Quedlinburg", "Göttingen", 0)
    settle(s)
    s.actions_left = 1
    s2 = play(s, f"establish r{r} develop actions")
    assert (s2.active, s2.actions_left) == (0, 1)


def test_developed_privilege_applies_in_the_same_turn() -> None:
    s = base()
    set_offices(s, "Hamburg", [trader(1)])  # next Hamburg office is orange
    r_stade = own_route(s, "Hamburg", "Stade", 0)
    r_lub = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    assert not is_legal(s, f"establish r{r_lub} kontor Hamburg")
    s = play(s, f"establish r{r_stade} develop privilege")
    assert s.level(0, "privilege") == 1
    s = play(s, f"establish r{r_lub} kontor Hamburg")
    assert office_occupants(s, "Hamburg")[1] == trader(0)


def test_no_develop_for_a_fully_developed_ability() -> None:
    s = base()
    set_level(s, 0, "privilege", 3)
    r = own_route(s, "Hamburg", "Stade", 0)
    settle(s)
    assert not legal_texts(s, f"establish r{r} develop")


# --------------------------------------------------------------------------- step 3: special
@SIDES
@pytest.mark.parametrize("privilege", range(4))
def test_special_prestige_spaces_allowed_by_privilege(side: str, n: int, privilege: int) -> None:
    s = base(n)
    set_level(s, 0, "privilege", privilege)
    r = own_route(s, "Warburg", "Coellen", 0, n_merchants=1)
    settle(s)
    offered = legal_texts(s, f"establish r{r} special")
    assert offered == {f"establish r{r} special {j}" for j in range(privilege + 1)}


def test_special_prestige_merchant_goes_to_coellen_rest_to_stock() -> None:
    s = base()
    set_level(s, 0, "privilege", 2)
    r = own_route(s, "Warburg", "Coellen", 0, n_merchants=1)
    settle(s)
    s2 = play(s, f"establish r{r} special 2")
    assert s2.special == [EMPTY, EMPTY, merchant(0), EMPTY]
    assert s2.special_points == (7, 8, 9, 11)
    assert (s2.stock_t[0], s2.stock_m[0]) == (s.stock_t[0] + 3, s.stock_m[0])
    assert s2.prestige[0] == 0  # special points are scored only at the end
    assert score_breakdown(s2)[0]["special"] == 9


def test_special_prestige_space_must_be_vacant() -> None:
    s = base()
    s.special[0] = merchant(1)
    set_level(s, 0, "privilege", 1)
    r = own_route(s, "Warburg", "Coellen", 0, n_merchants=1)
    settle(s)
    assert legal_texts(s, f"establish r{r} special") == {f"establish r{r} special 1"}


def test_special_prestige_needs_a_merchant_on_the_route() -> None:
    s = base()
    set_level(s, 0, "privilege", 3)
    r = own_route(s, "Warburg", "Coellen", 0)
    settle(s)
    assert not legal_texts(s, f"establish r{r} special")


def test_special_prestige_only_on_coellen_warburg() -> None:
    s = base()
    set_level(s, 0, "privilege", 3)
    r = own_route(s, "Paderborn", "Warburg", 0, n_merchants=1)
    settle(s)
    assert not legal_texts(s, f"establish r{r} special")


# --------------------------------------------------------------------------- step 3: extra
def test_extra_kontor_needs_an_unused_extra_marker() -> None:
    s = base()
    set_offices(s, "Hamburg", [trader(1)])
    r = own_route(s, "Hamburg", "Lübeck", 0)
    give_markers(s, 0, unused=["swap"], used=["extra"])
    settle(s)
    assert not legal_texts(s, f"establish r{r} extra")
    give_markers(s, 0, unused=["extra"])
    settle(s)
    assert legal_texts(s, f"establish r{r} extra") == {f"establish r{r} extra Hamburg trader"}


def test_extra_kontor_needs_the_leftmost_printed_office_taken() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0)
    give_markers(s, 0, unused=["extra"])
    settle(s)
    assert not legal_texts(s, f"establish r{r} extra")


def test_marker_taken_in_this_establish_is_not_usable_for_its_extra_kontor() -> None:
    s = base()
    set_offices(s, "Hamburg", [trader(1), trader(1), trader(1)])
    r = own_route(s, "Hamburg", "Lübeck", 0)
    set_route_marker(s, r, "extra")
    settle(s)
    assert not legal_texts(s, f"establish r{r} extra")


def test_extra_kontor_goes_left_of_all_kontors_and_uses_the_marker() -> None:
    s = base()
    set_offices(s, "Hamburg", [trader(1), trader(1), trader(1)])  # full city
    set_extras(s, "Hamburg", [trader(2)])
    r = own_route(s, "Hamburg", "Lübeck", 0, n_merchants=1)
    give_markers(s, 0, unused=["extra", "extra"])
    settle(s)
    s2 = play(s, f"establish r{r} extra Hamburg merchant")
    assert s2.extras[city(s2, "Hamburg")] == (merchant(0), trader(2))
    assert s2.markers[0] == ("extra",)
    assert s2.markers_used[0] == ("extra",)
    assert (s2.stock_t[0], s2.stock_m[0]) == (s.stock_t[0] + 2, s.stock_m[0])
    assert s2.completed == s.completed  # an extra Kontor never completes a city


def test_extra_kontor_ignores_office_shape_and_privilege() -> None:
    s = base()
    set_offices(s, "Stade", [merchant(1)])  # Stade's only office: a white circle, taken
    r = own_route(s, "Hamburg", "Stade", 0)  # traders only
    give_markers(s, 0, unused=["extra"])
    settle(s)
    s2 = play(s, f"establish r{r} extra Stade trader")
    assert s2.extras[city(s2, "Stade")] == (trader(0),)
    # 1-1 tie: player 1's printed Kontor is the rightmost, so player 1 keeps control
    assert city_controller(s2, city(s2, "Stade")) == 1


def test_extra_kontor_counts_for_control_afterwards() -> None:
    s = base()
    set_offices(s, "Lübeck", [trader(1)])
    set_extras(s, "Lübeck", [trader(0)])
    r = own_route(s, "Hamburg", "Lübeck", 0)
    give_markers(s, 0, unused=["extra"])
    settle(s)
    assert city_controller(s, city(s, "Lübeck")) == 1
    s2 = play(s, f"establish r{r} extra Lubeck trader")
    assert city_controller(s2, city(s2, "Lübeck")) == 0


# --------------------------------------------------------------------------- step 3: none
def test_no_reward_returns_every_piece_to_the_general_stock() -> None:
    s = base()
    r = own_route(s, "Hamburg", "Lübeck", 0, n_merchants=1)
    settle(s)
    s2 = play(s, f"establish r{r} none")
    assert s2.route_occupants(r) == [EMPTY] * 3
    assert (s2.stock_t[0], s2.stock_m[0]) == (s.stock_t[0] + 2, s.stock_m[0] + 1)
    assert s2.offices == s.offices and s2.extras == s.extras


# --------------------------------------------------------------------------- step 4
CHAIN = ("Stendal", "Brunswick", "Minden", "Münster", "Arnheim")


def east_west_position(n: int, holders: tuple[int, ...], missing: str = "Arnheim") -> State:
    """Player 0 holds a Kontor in every chain city except ``missing`` and owns the route
    from ``missing`` to its neighbour towards Stendal (Münster–Arnheim by default)."""
    s = base(n)
    s.east_west = holders
    for name in CHAIN:
        if name == missing:
            continue
        shape = s.board.office_shape[s.board.office_start[city(s, name)]]
        set_offices(s, name, [trader(0) + shape])
    k = CHAIN.index(missing)
    own_route(s, CHAIN[k - 1], missing, 0)
    return settle(s)


@SIDES
def test_east_west_first_connection_scores_seven(side: str, n: int) -> None:
    s = east_west_position(n, ())
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} kontor Arnheim")
    assert s2.prestige[0] == 1 + 7  # Münster control point, then the connection
    assert s2.east_west == (0,)


@pytest.mark.parametrize(("holders", "points"), [((1,), 4), ((1, 2), 2), ((1, 2, 3), 0)])
def test_east_west_later_connections_score_four_then_two(
    holders: tuple[int, ...], points: int
) -> None:
    s = east_west_position(4, holders)
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} kontor Arnheim")
    assert s2.prestige[0] == 1 + points
    assert s2.east_west == (holders if points == 0 else (*holders, 0))


def test_east_west_never_scores_twice_for_a_player() -> None:
    s = east_west_position(3, (0,))
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} kontor Arnheim")
    assert s2.prestige[0] == 1
    assert s2.east_west == (0,)


def test_east_west_link_completed_in_the_middle_of_the_chain() -> None:
    s = east_west_position(3, (), missing="Minden")  # route Brunswick–Minden owned
    s2 = play(s, f"establish {rt(s, 'Brunswick', 'Minden')} kontor Minden")
    assert s2.prestige[0] == 1 + 7  # Brunswick control point, then the connection


def test_east_west_needs_own_kontor_in_every_city_of_the_chain() -> None:
    s = east_west_position(3, ())
    set_offices(s, "Minden", [trader(1)])  # an opponent's Kontor does not bridge the gap
    settle(s)
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} kontor Arnheim")
    assert s2.prestige[0] == 1
    assert s2.east_west == ()


def test_east_west_not_scored_without_a_new_kontor() -> None:
    s = east_west_position(3, ())
    set_offices(s, "Arnheim", [trader(0)])
    settle(s)
    # all five cities already hold a Kontor of player 0, but no new Kontor is placed
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} none")
    assert s2.east_west == ()


def test_east_west_completed_by_an_extra_kontor() -> None:
    s = east_west_position(3, ())
    set_offices(s, "Arnheim", [trader(1)])
    give_markers(s, 0, unused=["extra"])
    settle(s)
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} extra Arnheim trader")
    assert s2.prestige[:2] == [1 + 7, 1]
    assert s2.east_west == (0,)


# --------------------------------------------------------------------------- end of game
def prestige_end_position(n: int = 3) -> State:
    """Player 0 at 19 prestige owns Hamburg–Lübeck (a marker beside it); Lübeck's first
    office shows a coin."""
    s = base(n)
    s.prestige[0] = 19
    r = own_route(s, "Hamburg", "Lübeck", 0)
    set_route_marker(s, r, "plus3")
    return settle(s)


@SIDES
def test_game_ends_after_establish_reaching_20_prestige(side: str, n: int) -> None:
    s = prestige_end_position(n)
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Lübeck')} kontor Lubeck")
    assert s2.prestige[0] == 20
    assert s2.end_reason == "prestige"
    assert s2.actions_left == 1  # the remaining action is lost
    assert legal_actions(s2) == []
    with pytest.raises(IllegalActionError):
        apply(s2, act_of(s2, "end"))


def test_game_goes_on_at_19_prestige() -> None:
    s = prestige_end_position()
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Lübeck')} kontor Hamburg")
    assert s2.prestige[0] == 19
    assert s2.end_reason is None
    assert legal_actions(s2)


def test_game_ends_when_another_player_reaches_20_by_control() -> None:
    s = base()
    s.prestige[1] = 19
    set_offices(s, "Hamburg", [trader(1)])
    r = own_route(s, "Hamburg", "Lübeck", 0)
    settle(s)
    s2 = play(s, f"establish r{r} none")
    assert s2.prestige == [0, 20, 0]
    assert s2.end_reason == "prestige"


def test_east_west_points_reaching_20_end_the_game() -> None:
    s = east_west_position(3, ())
    s.prestige[0] = 12
    settle(s)
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} kontor Arnheim")
    assert s2.prestige[0] == 12 + 1 + 7
    assert s2.end_reason == "prestige"


def test_special_points_do_not_count_towards_20() -> None:
    s = base()
    s.prestige[0] = 19
    set_level(s, 0, "privilege", 3)
    r = own_route(s, "Warburg", "Coellen", 0, n_merchants=1)
    settle(s)
    s2 = play(s, f"establish r{r} special 3")
    assert s2.prestige[0] == 19
    assert s2.end_reason is None


def test_replacement_marker_not_placed_does_not_score() -> None:
    s = prestige_end_position()
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Lübeck')} kontor Lubeck")
    assert s2.end_reason == "prestige"
    assert s2.markers[0] == ("plus3",)
    assert len(s2.drawn) == 1  # drawn, never placed
    assert s2.pending == ()
    assert score_breakdown(s2)[0]["markers"] == 1  # only the taken marker


def complete_cities_position(n: int, k: int) -> State:
    """``k`` cities with trader offices only completely filled by players 1 and 2;
    player 0 owns Hamburg–Stade with a merchant (Stade: a single circle office)."""
    s = base(n)
    b = s.board
    candidates = sorted(
        (
            c
            for c in b.cities
            if c.name not in ("Hamburg", "Stade") and all(shape == 0 for _, shape, _ in c.offices)
        ),
        key=lambda c: (len(c.offices), c.index),
    )
    for j, c in enumerate(candidates[:k]):
        set_offices(s, c.name, [trader(1 + (j % 2))] * len(c.offices))
    own_route(s, "Hamburg", "Stade", 0, n_merchants=1)
    return settle(s)


@SIDES
def test_tenth_completed_city_ends_the_game(side: str, n: int) -> None:
    s = complete_cities_position(n, 9)
    assert s.completed == 9
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Stade')} kontor Stade")
    assert s2.completed == 10
    assert s2.end_reason == "cities"
    assert legal_actions(s2) == []


def test_ninth_completed_city_does_not_end_the_game() -> None:
    s = complete_cities_position(3, 8)
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Stade')} kontor Stade")
    assert s2.completed == 9
    assert s2.end_reason is None


def test_game_over_means_nobody_plays_on() -> None:
    s = complete_cities_position(3, 9)
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Stade')} kontor Stade")
    assert s2.active == 0 and s2.current_player == 0
    assert legal_actions(s2) == []
    with pytest.raises(IllegalActionError):
        apply(s2, act_of(s2, "income 1 0"))
