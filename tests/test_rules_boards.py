"""Scenario tests for the other boards and variants: East, Britannia (both sides), the
two-player neutral colour (seed 001) and Emperor's Favour.

Positions are constructed with the placing helpers of ``helpers`` (every edit is checked by
the invariant checker in :func:`ready`); actions are given in their text forms.
"""

from __future__ import annotations

import pytest
from helpers import (
    act,
    acts,
    city,
    fill,
    give_marker,
    illegal,
    is_legal,
    legal_texts,
    occ,
    occupy,
    place_extras,
    place_kontors,
    position,
    ready,
    route,
    rt,
    set_level,
    set_pool,
)

from hansa_lab.engine.board import TRADER, load_board
from hansa_lab.engine.decisions import (
    Decision,
    PlaceMarkers,
    Relocate,
    RelocateNeutral,
    marker_routes,
    relocation_routes,
)
from hansa_lab.engine.events import Event
from hansa_lab.engine.invariants import check_state
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.scoring import score_breakdown, winners
from hansa_lab.engine.state import EMPTY, GameConfig, State, neutral_start_routes, new_game
from hansa_lab.engine.variants.favour import FavourIncome
from hansa_lab.engine.variants.permanent import PermanentMarker


def east(n: int = 3, **options: object) -> State:
    s = position(n, board="east", **options)
    s.route_marker = [None] * s.board.n_routes  # no bonus markers in the way
    s.bag = (*s.bag, "extra", "swap", "move3")
    return ready(s)


def britannia(n: int = 3, **options: object) -> State:
    s = position(n, board="britannia", **options)
    s.route_marker = [None] * s.board.n_routes
    s.bag = (*s.bag, "extra", "swap", "move3")
    return ready(s)


def kontors(s: State, name: str) -> list[int]:
    return list(s.city_occupants(city(s, name)))


def frame(s: State) -> Decision:
    return s.pending[-1]


# ===================================================================== East
def test_east_board_for_three_to_five_players() -> None:
    for n in (3, 4, 5):
        assert GameConfig(n, "east").side == "east"
    with pytest.raises(ValueError, match="3-5 players"):
        GameConfig(2, "east")
    b = load_board("east")
    assert [b.city_names[c] for c in b.east_west] == ["Lübeck", "Danzig"]
    assert b.city_names[b.special_city] == "Königsberg" and b.special_route == -1
    assert {b.city_names[c] for c in b.yellow_green} == {"Belgard", "Waren", "Dresden"}
    maritime = {b.route_name(r.index): r.permanent_marker for r in b.routes if r.merchant_only}
    assert maritime == {
        "Danzig–Malmö": "place2_from_route",
        "Wismar–Stralsund": "move2",
        "Malmö–Visby": "kontor_yellow_green",
        "Stralsund–Malmö": "privilege",
    }


def test_east_alternative_values_are_a_board_option() -> None:
    primary = new_game(GameConfig(3, "east")).board
    alt = new_game(GameConfig(3, "east", options=(("east_alternative", True),))).board
    assert alt.variant == "alternative" and primary.variant == "primary"
    assert len(primary.cities[primary.city("Königsberg")].offices) == 2
    assert len(alt.cities[alt.city("Königsberg")].offices) == 3
    assert alt.cities[alt.city("Kulm")].abilities and not primary.cities[
        primary.city("Kulm")
    ].abilities
    with pytest.raises(ValueError, match="only to the East board"):
        GameConfig(3, "base", options=(("east_alternative", True),))


def test_east_west_connection_is_luebeck_to_danzig() -> None:
    s = east()
    for name in ("Lübeck", "Wismar", "Stralsund", "Malmö"):
        place_kontors(s, name, [0])
    fill(s, route(s, "Braunsberg", "Danzig"), 0)
    s = act(ready(s), f"establish {rt(s, 'Braunsberg', 'Danzig')} kontor Danzig")
    assert s.east_west == (0,) and s.prestige[0] == 7
    assert Event("east_west", seat=0, value=1) in s.events


def test_koenigsberg_special_prestige_on_every_route_to_it() -> None:
    s = east()
    set_level(s, 0, "book", 1)  # a second merchant
    r = route(s, "Danzig", "Königsberg")
    occupy(s, r, 0, ["merchant", "trader", "trader", "trader"])
    s = ready(s)
    assert legal_texts(s, f"establish r{r} special") == {f"establish r{r} special 0"}
    s = act(s, f"establish r{r} special 0")
    assert s.special[0] == occ(0, "merchant")
    assert score_breakdown(s)[0]["special"] == 7


def test_waren_develops_actions_or_bank_and_takes_kontors_like_a_yellow_green_city() -> None:
    s = east()
    r = route(s, "Waren", "Wismar")
    fill(s, r, 0)
    s = ready(s)
    est = legal_texts(s, f"establish r{r}")
    assert est == {
        f"establish r{r} none",
        f"establish r{r} develop actions",
        f"establish r{r} develop bank",
    }  # no printed office in Waren; Wismar's orange office needs Privilege
    give_marker(s, 0, "extra")
    s = ready(s)
    assert f"establish r{r} extra Waren trader" in legal_texts(s)
    assert f"establish r{r} extra Wismar trader" not in legal_texts(s)  # Wismar empty
    s = act(s, f"establish r{r} extra Waren trader")
    assert kontors(s, "Waren") == [occ(0)]
    assert s.completed == 1 and Event("city_completed", city=city(s, "Waren")) in s.events


def test_yellow_green_city_is_complete_with_its_first_kontor_only() -> None:
    s = east()
    place_extras(s, "Belgard", [(1, "trader")])
    r = route(s, "Danzig", "Belgard")
    fill(s, r, 0)
    give_marker(s, 0, "extra")
    s = ready(s)
    assert s.completed == 1
    assert f"establish r{r} kontor Belgard" not in legal_texts(s)
    s = act(s, f"establish r{r} extra Belgard trader")
    # an extra Kontor goes left of the others and completes nothing more
    assert kontors(s, "Belgard") == [occ(0), occ(1)] and s.completed == 1
    # 1-1: the rightmost Kontor (player 1's, the first one) controls Belgard
    assert score_breakdown(s)[1]["control"] == 2 and score_breakdown(s)[0]["control"] == 0


def test_maritime_boat_posts_take_merchants_only() -> None:
    s = east()
    r = route(s, "Wismar", "Stralsund")  # 3 posts, the last two boats
    assert is_legal(s, f"place r{r} trader")
    s = act(s, f"place r{r} trader")
    assert not is_legal(s, f"place r{r} trader")
    illegal(s, f"place r{r} trader", "no free post for this piece")
    assert is_legal(s, f"place r{r} merchant")


def test_no_replacement_markers_on_maritime_routes() -> None:
    s = new_game(GameConfig(4, "east", seed=3))
    maritime = {r.index for r in s.board.routes if r.permanent_marker}
    assert maritime and not maritime & set(marker_routes(s))


def test_permanent_privilege_right_after_establishing() -> None:
    s = east()
    set_level(s, 0, "book", 1)
    r = route(s, "Stralsund", "Malmö")
    occupy(s, r, 0, ["trader", "merchant", "merchant"])
    s = act(ready(s), f"establish r{r} none")
    # the route returned 1 trader, 2 merchants
    assert frame(s) == PermanentMarker(0, "privilege", left=1, traders=1, merchants=2)
    assert s.current_player == 0
    assert legal_texts(s) == {"perm develop privilege", "stop"}
    s = act(s, "perm develop privilege")
    assert s.level(0, "privilege") == 1 and not s.pending
    assert s.actions_left == 1  # the action goes on as usual


def test_permanent_kontor_in_a_yellow_green_city_goes_right() -> None:
    s = east()
    place_extras(s, "Dresden", [(1, "trader")])
    r = route(s, "Malmö", "Visby")
    occupy(s, r, 0, ["trader", "merchant", "trader"])
    s = act(ready(s), f"establish r{r} none")
    # the player's only merchant is on the route: Kontors from the supply are traders
    assert legal_texts(s) == {"perm kontor Belgard trader", "perm kontor Waren trader",
                              "perm kontor Dresden trader", "stop"}
    supply = s.supply_t[0]
    s = act(s, "perm kontor Dresden trader")
    assert kontors(s, "Dresden") == [occ(1), occ(0)]  # right of the earlier Kontor
    assert s.supply_t[0] == supply - 1 and s.completed == 1  # Dresden was complete already
    assert score_breakdown(s)[0]["control"] == 2  # rightmost wins the 1-1 tie
    # a merchant from the supply may be used too, and completes a fresh city
    s2 = east()
    set_level(s2, 0, "book", 1)
    occupy(s2, r, 0, ["trader", "merchant", "trader"])
    s2 = acts(ready(s2), f"establish r{r} none", "perm kontor Belgard merchant")
    assert s2.completed == 1 and kontors(s2, "Belgard") == [occ(0, "merchant")]
    assert Event("city_completed", city=city(s2, "Belgard")) in s2.events


def test_permanent_move_two_any_tradesmen_and_swap_counts_as_both() -> None:
    s = east()
    set_level(s, 0, "book", 1)
    r = route(s, "Wismar", "Stralsund")
    occupy(s, r, 0, ["trader", "merchant", "merchant"])
    a, z = route(s, "Krakau", "Thorn"), route(s, "Halle", "Wittenberg")
    occupy(s, a, 1, ["trader"])
    occupy(s, z, 2, ["trader"])
    s = act(ready(s), f"establish r{r} none")
    pa, pz = s.board.post_label(s.board.post_start[a]), s.board.post_label(s.board.post_start[z])
    assert f"perm swap {pa} {pz}" in legal_texts(s)
    assert f"perm move {pa} r{z}" in legal_texts(s)
    s2 = act(s, f"perm swap {pa} {pz}")
    assert s2.route_occupants(a)[0] == occ(2) and s2.route_occupants(z)[0] == occ(1)
    assert not s2.pending  # a swap uses both moves
    s3 = act(s, f"perm move {pa} r{z}")
    assert isinstance(f := frame(s3), PermanentMarker) and f.left == 1
    assert not legal_texts(s3, "perm swap")
    s3 = act(s3, f"perm move {s3.board.post_label(s3.board.post_start[z])} r{a}")
    assert not s3.pending and s3.route_occupants(a)[:2] == [occ(2), EMPTY]


def test_permanent_place_two_of_the_routes_returning_tradesmen() -> None:
    s = east()
    r = route(s, "Danzig", "Malmö")  # 4 posts, the last a boat
    occupy(s, r, 0, ["trader", "trader", "trader", "merchant"])
    s = ready(s)
    stock = (s.stock_t[0], s.stock_m[0])
    s = act(s, f"establish r{r} kontor Danzig")
    assert frame(s) == PermanentMarker(0, "place2_from_route", left=2, traders=2, merchants=1)
    assert (s.stock_t[0], s.stock_m[0]) == (stock[0] + 2, stock[1] + 1)
    # any free post, the route just established included
    assert {f"perm place r{r} trader", f"perm place r{r} merchant"} <= legal_texts(s)
    s = act(s, f"perm place r{r} merchant")
    assert frame(s) == PermanentMarker(0, "place2_from_route", left=1, traders=2, merchants=0)
    assert not legal_texts(s, "perm place r0 merchant")
    s = act(s, "perm place r0 trader")
    assert not s.pending
    # of the 3 returned pieces (the 4th became the Kontor) 2 left the stock again
    assert (s.stock_t[0], s.stock_m[0]) == (stock[0] + 1, stock[1])


def test_game_end_waits_for_the_permanent_marker() -> None:
    s = east()
    place_kontors(s, "Danzig", [0])
    s.prestige[0] = 19
    r = route(s, "Danzig", "Malmö")
    occupy(s, r, 0, ["trader", "trader", "trader", "merchant"])
    s = act(ready(s), f"establish r{r} none")
    assert s.prestige[0] == 20 and s.end_reason is None
    assert isinstance(s.pending[-1], PermanentMarker)
    s = act(s, "stop")
    assert s.end_reason == "prestige" and not s.pending


def test_a_permanent_marker_with_nothing_to_do_passes_by_itself() -> None:
    s = east()
    set_level(s, 0, "book", 1)
    set_level(s, 0, "privilege", 3)
    r = route(s, "Stralsund", "Malmö")
    occupy(s, r, 0, ["trader", "merchant", "merchant"])
    s = act(ready(s), f"establish r{r} none")
    assert not s.pending and Event("permanent", seat=0, detail="privilege", route=r) in s.events


# ===================================================================== Britannia
def test_britannia_sides_and_eight_cities_end_the_game() -> None:
    assert GameConfig(3, "britannia").side == "britannia_3p"
    assert GameConfig(5, "britannia").side == "britannia_45p"
    s = britannia()
    assert s.board.completed_cities_to_end == 8
    for name, owners in (("Lancaster", [1]), ("Durham", [1]), ("Bristol", [2]),
                         ("Ipswich", [2]), ("Coventry", [1, 2]), ("Nottingham", [2, 1]),
                         ("Salisbury", [1, 1])):
        place_kontors(s, name, owners)
    fill(s, route(s, "Richmond", "Carlisle"), 0)
    s = ready(s)
    assert s.completed == 7
    s = act(s, f"establish {rt(s, 'Richmond', 'Carlisle')} kontor Richmond")
    assert s.completed == 8 and s.end_reason == "cities"


def test_wales_needs_a_permission_for_place_and_displace() -> None:
    s = britannia()
    wales = route(s, "Montgomery", "Pembroke")
    msg = illegal(s, f"place r{wales} trader", "needs a permission", "Cardiff or London")
    assert "Wales" in msg
    place_kontors(s, "Cardiff", [0])
    s = ready(s)
    s = act(s, f"place r{wales} trader")
    assert s.permits_used == (city(s, "Cardiff"),)
    illegal(s, f"place r{wales} trader", "needs a permission")  # once per turn
    # a player owning a Kontor further right in Cardiff takes the permission over
    s2 = britannia()
    place_kontors(s2, "Cardiff", [0, 1])
    s2 = ready(s2)
    assert not is_legal(s2, f"place r{wales} trader")


def test_cardiff_and_london_give_two_permissions_and_reset_each_turn() -> None:
    s = britannia()
    place_kontors(s, "Cardiff", [0])
    place_kontors(s, "London", [0])
    w1, w2 = route(s, "Montgomery", "Pembroke"), route(s, "Cardiff", "Pembroke")
    s.actions_left = 3
    s = acts(ready(s), f"place r{w1} trader", f"place r{w2} trader")
    assert set(s.permits_used) == {city(s, "Cardiff"), city(s, "London")}
    illegal(s, f"place r{w1} trader", "needs a permission")
    s = act(s, "income 1 0")
    assert s.active == 1 and s.permits_used == ()  # the next turn starts afresh


def test_displace_in_wales_needs_a_permission_establish_does_not() -> None:
    s = britannia()
    wales = route(s, "Montgomery", "Cardiff")
    occupy(s, wales, 1)
    s = ready(s)
    post = s.board.post_label(s.board.post_start[wales])
    illegal(s, f"displace {post} trader pay 0", "needs a permission")
    own = route(s, "Conway", "Chester")
    fill(s, own, 0)
    s = ready(s)
    assert is_legal(s, f"establish r{own} kontor Chester")


def test_scotland_permission_from_carlisle_or_london_cardiff_used_first() -> None:
    s = britannia(4)
    place_kontors(s, "Cardiff", [0])
    place_kontors(s, "London", [0])
    wales, scot = route(s, "Montgomery", "Pembroke"), route(s, "Glasgow", "Falkirk")
    s.actions_left = 3
    s = act(ready(s), f"place r{wales} trader")
    assert s.permits_used == (city(s, "Cardiff"),)  # London is kept for either region
    s = act(s, f"place r{scot} trader")
    assert s.permits_used == (city(s, "Cardiff"), city(s, "London"))
    s2 = britannia(4)
    place_kontors(s2, "Cardiff", [0])
    s2 = ready(s2)
    illegal(s2, f"place r{scot} trader", "Carlisle or London")


def test_displaced_pieces_stay_in_their_country_or_england() -> None:
    s = britannia()
    b = s.board
    england = route(s, "Coventry", "Cardiff")
    occupy(s, england, 1)
    s = ready(s)
    s = act(s, f"displace {b.post_label(b.post_start[england])} trader pay 0")
    options = {int(t.split()[1][1:]) for t in legal_texts(s, "relocate r")}
    assert options == {route(s, *x) for x in (("Oxford", "Cardiff"), ("Coventry", "Hereford"),
                                              ("Coventry", "Cambridge"),
                                              ("Coventry", "Nottingham"))}
    s = britannia()
    place_kontors(s, "Cardiff", [0])
    wales = route(s, "Montgomery", "Cardiff")
    occupy(s, wales, 1)
    s = act(ready(s), f"displace {b.post_label(b.post_start[wales])} trader pay 0")
    options = {int(t.split()[1][1:]) for t in legal_texts(s, "relocate r")}
    adjacent = {q for q, ends in enumerate(b.route_cities) if q != wales and set(ends) & {
        city(s, "Montgomery"), city(s, "Cardiff")}}
    assert options == adjacent  # Wales and England routes around it


def test_move_action_england_stays_england_wales_may_go_to_england() -> None:
    s = britannia(4)
    b = s.board
    england, wales, scot = (route(s, "London", "Oxford"), route(s, "Montgomery", "Pembroke"),
                            route(s, "Glasgow", "Falkirk"))
    occupy(s, england, 0)
    occupy(s, wales, 0)
    s = act(ready(s), "move")
    pe, pw = b.post_label(b.post_start[england]), b.post_label(b.post_start[wales])
    assert not is_legal(s, f"move {pe} r{wales}")
    illegal(s, f"move {pe} r{scot}", "only within its country or to England")
    assert is_legal(s, f"move {pw} r{england}")
    assert is_legal(s, f"move {pw} {rt(s, 'Cardiff', 'Pembroke')}")
    assert not is_legal(s, f"move {pw} r{scot}")


def test_move3_marker_keeps_pieces_in_their_country() -> None:
    s = britannia()
    b = s.board
    england, wales = route(s, "London", "Oxford"), route(s, "Montgomery", "Pembroke")
    occupy(s, england, 1)
    occupy(s, wales, 2)
    give_marker(s, 0, "move3")
    s = act(ready(s), "marker move3")
    pe, pw = b.post_label(b.post_start[england]), b.post_label(b.post_start[wales])
    illegal(s, f"shift {pw} r{england}", "may move only within its country")
    assert not is_legal(s, f"shift {pe} r{wales}")
    assert is_legal(s, f"shift {pw} r{route(s, 'Cardiff', 'Pembroke')}")
    assert is_legal(s, f"shift {pe} r{route(s, 'London', 'Cambridge')}")


def test_no_replacement_markers_on_wales_scotland_or_permanent_marker_routes() -> None:
    s = new_game(GameConfig(4, "britannia", seed=2))
    b = s.board
    allowed = set(marker_routes(s))
    assert allowed
    for r in b.routes:
        if r.region or r.permanent_marker:
            assert r.index not in allowed
    assert route(s, "Chester", "Carlisle") in allowed  # maritime, but no permanent marker


def test_britannia_permanent_move_keeps_each_piece_in_its_country() -> None:
    s = britannia()
    b = s.board
    r = route(s, "Canterbury", "Calais")
    occupy(s, r, 0, ["trader", "merchant", "trader"])
    england, wales = route(s, "London", "Oxford"), route(s, "Montgomery", "Pembroke")
    occupy(s, england, 1)
    occupy(s, wales, 2)
    s = act(ready(s), f"establish r{r} none")
    assert isinstance(f := frame(s), PermanentMarker) and f.kind == "move2"
    pe, pw = b.post_label(b.post_start[england]), b.post_label(b.post_start[wales])
    assert not legal_texts(s, f"perm move {pe} r{wales}")
    assert not legal_texts(s, f"perm move {pw} r{england}")
    assert not legal_texts(s, f"perm swap {pe} {pw}")  # different countries
    assert f"perm move {pw} r{route(s, 'Cardiff', 'Pembroke')}" in legal_texts(s)


def test_britannia_permanent_place_two_in_wales_stock_then_supply_then_posts() -> None:
    def established(supply: tuple[int, int], stock: tuple[int, int]) -> State:
        s = britannia()
        set_level(s, 0, "book", 1)
        r = route(s, "Calais", "Southampton")  # the last two posts are boats
        occupy(s, r, 0, ["trader", "merchant", "merchant"])
        park = route(s, "London", "Oxford")
        fill(s, park, 0)
        set_pool(s, 0, supply=(s.supply_t[0] + s.stock_t[0], s.supply_m[0] + s.stock_m[0]))
        s = ready(s)
        s = act(s, f"establish r{r} none")  # the route's 3 pieces go to the stock
        assert isinstance(f := frame(s), PermanentMarker) and f.kind == "place2_regions"
        # share the loose pieces as asked (the frame is already on the stack)
        loose_t, loose_m = s.supply_t[0] + s.stock_t[0], s.supply_m[0] + s.stock_m[0]
        s.supply_t[0], s.supply_m[0] = supply
        s.stock_t[0], s.stock_m[0] = stock
        extra = ["merchant"] * (loose_m - supply[1] - stock[1])
        extra += ["trader"] * (loose_t - supply[0] - stock[0])
        parking = (("Salisbury", "Plymouth"), ("Salisbury", "Bristol"), ("Salisbury", "Oxford"))
        posts = [i for a, z in parking for i in s.board.route_posts(route(s, a, z))]
        assert len(extra) <= len(posts)
        for i, piece in zip(posts, extra, strict=False):
            s.posts[i] = occ(0, piece)
        return ready(s)

    s = established(supply=(5, 0), stock=(2, 2))
    wales = {q.index for q in s.board.routes if q.region == "Wales"}
    texts = legal_texts(s, "perm place")
    assert {int(x.split()[2][1:]) for x in texts} == wales
    assert {x.split()[3] for x in texts} == {"trader", "merchant"}  # from the stock
    s = act(s, f"perm place {rt(s, 'Conway', 'Chester')} merchant")
    assert s.stock_m[0] == 1 and s.supply_m[0] == 0
    s = established(supply=(3, 0), stock=(0, 0))
    s = act(s, f"perm place {rt(s, 'Conway', 'Chester')} trader")
    assert s.supply_t[0] == 2  # stock empty: from the personal supply
    s = established(supply=(0, 0), stock=(0, 0))
    texts = legal_texts(s, "perm place")
    assert texts and all(" from " in x for x in texts)  # both empty: moved from own posts
    pick = sorted(texts)[0]
    s = act(s, pick)
    assert isinstance(f := frame(s), PermanentMarker) and f.left == 1


def test_regions_scoring_wales_three_player_side() -> None:
    s = britannia()
    place_kontors(s, "Cardiff", [0, 0, 1])
    place_kontors(s, "Pembroke", [0])
    place_kontors(s, "Conway", [1])
    place_kontors(s, "Montgomery", [2, 1])
    place_kontors(s, "Chester", [2])
    s = ready(s)
    # cities controlled / Kontors in Wales: p0 2/3, p1 2/3 (tie: (7+4)//2), p2 1/2 → 2
    assert [bd["regions"] for bd in score_breakdown(s)] == [5, 5, 2]


def test_regions_scoring_isle_of_man_counts_for_both_and_kontor_only_places() -> None:
    s = britannia(5)
    place_kontors(s, "Isle of Man", [0])  # Wales and Scotland
    place_kontors(s, "Glasgow", [1])
    place_kontors(s, "Falkirk", [3, 2, 2])
    place_kontors(s, "Edinburgh", [2])
    place_kontors(s, "Pembroke", [4, 4])
    place_kontors(s, "Conway", [1, 0])
    s = ready(s)
    # Scotland: p2 controls Falkirk + Edinburgh (2 cities) → 7; p0 (Isle of Man) and p1
    # (Glasgow) 1 city and 1 Kontor each → share (4+2)//2 = 3; p3 has a Kontor (Falkirk)
    # but no city: no place left → 0. Wales: p0 (Isle of Man, Conway by the rightmost
    # Kontor: 2 cities) → 7, p4 (Pembroke: 1 city) → 4, p1 (a Kontor in Conway) → 2.
    assert [bd["regions"] for bd in score_breakdown(s)] == [7 + 3, 3 + 2, 7, 0, 4]


# ===================================================================== two players
def two(seed: int = 0) -> State:
    return position(2, seed=seed)


def test_two_players_use_the_three_player_side_with_a_neutral_colour() -> None:
    s = two()
    assert s.board.name == "base_3p" and s.neutral == 2 and s.n_colours == 3
    start = neutral_start_routes(s.board)
    names = {s.board.route_name(r) for r in start}
    assert names == {"Hamburg–Lübeck", "Hamburg–Stade", "Emden–Gröningen", "Bremen–Osnabrück",
                     "Lüneburg–Perleberg", "Warburg–Coellen", "Quedlinburg–Göttingen",
                     "Quedlinburg–Halle", "Goslar–Hildesheim"}
    assert all(s.route_occupants(r).count(4) == 1 for r in start)
    assert s.neutral_pool == 27 - len(start)
    assert (s.supply_t, s.supply_m, s.stock_t) == ([5, 6], [1, 1], [6, 5])


def test_displaced_neutral_comes_back_with_one_more_placed_by_the_other_player() -> None:
    s = two()
    b = s.board
    r = route(s, "Hamburg", "Stade")
    post = next(i for i in b.route_posts(r) if s.posts[i] == 4)
    pool = s.neutral_pool
    s = act(s, f"displace {b.post_label(post)} trader pay 0")
    assert s.supply_t[0] == 5 - 2  # a trader placed and one paid
    assert frame(s) == RelocateNeutral(1, origin=r, piece=TRADER, extras=1)
    assert s.current_player == 1
    assert "decline" not in legal_texts(s)
    empty = [q for q in relocation_routes(s, r, 0, 2) if set(s.route_occupants(q)) == {EMPTY}]
    s = act(s, f"relocate r{empty[0]}")
    assert legal_texts(s) == {f"relocate r{q} trader" for q in relocation_routes(s, r, 0, 2)}
    s = act(s, f"relocate r{empty[1]} trader")  # the extra neutral is not optional
    assert not s.pending and s.neutral_pool == pool - 1 and s.current_player == 0
    assert s.route_occupants(empty[0]).count(4) == s.route_occupants(empty[1]).count(4) == 1


def neutral_on(s: State, r: int, n: int) -> None:
    """Put ``n`` neutral traders on the free posts of route ``r``."""
    for i in [i for i in s.board.route_posts(r) if s.posts[i] == EMPTY][:n]:
        s.posts[i] = 4
        s.neutral_pool -= 1


def test_a_route_filled_by_neutrals_is_established_at_once() -> None:
    s = two()
    b = s.board
    r = route(s, "Hamburg", "Stade")
    place_kontors(s, "Hamburg", [1])
    neutral_on(s, r, 1)  # 2 of its 3 posts neutral
    s = ready(s)
    other = route(s, "Hamburg", "Lübeck")
    n_post = next(i for i in b.route_posts(other) if s.posts[i] == 4)
    s = act(s, f"displace {b.post_label(n_post)} trader pay 0")
    s = act(s, f"relocate r{r}")  # player 1 fills Hamburg–Stade with the neutral piece
    assert all(o == 4 for o in s.route_occupants(r))  # established once relocation ends
    far = next(q for q in relocation_routes(s, other, 0, 2) if q != r)
    pool = s.neutral_pool
    s = act(s, f"relocate r{far} trader")
    assert Event("establish", seat=2, route=r) in s.events
    assert all(o == EMPTY for o in s.route_occupants(r))
    assert s.prestige == [0, 1]  # player 1 controls Hamburg: 1 prestige, as for any route
    # Stade's only office is a circle: the neutral trader takes Hamburg's next square
    assert kontors(s, "Hamburg")[:2] == [occ(1), 4]
    assert Event("kontor", seat=2, city=city(s, "Hamburg"), value=1) in s.events
    assert s.neutral_pool == pool - 1 + 2  # the other two traders return to the pool
    check_state(s)


def test_neutral_kontor_city_needs_a_square_office_and_prefers_more_vacant_offices() -> None:
    from hansa_lab.engine.variants.neutral import kontor_city

    s = two()
    b = s.board
    r = route(s, "Hamburg", "Stade")
    ham, sta = city(s, "Hamburg"), city(s, "Stade")
    vacant = {c: len(b.cities[c].offices) for c in (ham, sta)}
    assert kontor_city(s, r) == max(vacant, key=lambda c: (vacant[c], c == b.routes[r].a))
    # a circle office first in line does not take the neutral trader
    for c in (ham, sta):
        shapes = [o[1] for o in b.cities[c].offices]
        if 1 in shapes:
            s2 = two()
            place_kontors(s2, b.city_names[c], [0] * shapes.index(1))
            s2 = ready(s2)
            assert kontor_city(s2, r) != c


def test_new_bonus_markers_receive_a_neutral_trader() -> None:
    s = two()
    s.bag, s.drawn = s.bag[1:], (s.bag[0],)
    s.actions_left = 0
    s.pending = (PlaceMarkers(0),)
    s = ready(s)
    r = int(sorted(legal_texts(s))[0].split()[1][1:])
    pool = s.neutral_pool
    s = act(s, f"place_marker r{r}")
    assert s.route_occupants(r).count(4) == 1 and s.neutral_pool == pool - 1


def test_neutral_never_scores_or_wins_but_controls_cities() -> None:
    s = two()
    b = s.board
    ham = city(s, "Hamburg")
    place_kontors(s, "Hamburg", [0])
    for i in list(b.city_offices(ham))[1:3]:
        s.offices[i] = 4
        s.neutral_pool -= 1
    s.prestige[0] = 1
    s = ready(s)
    bd = score_breakdown(s)
    assert len(bd) == 2 and bd[0]["control"] == 0  # the neutral colour controls Hamburg
    assert winners(s) == [0]


def emperor(n: int = 3, seed: int = 0) -> State:
    return position(n, seed=seed, emperor=True)


def _with_tile(s: State, player: int, tile: str) -> State:
    display = [t for t in s.favour_display if t != tile]
    s.favour_display = tuple(display[: s.n_players - 1])
    s.favours = tuple((tile,) if p == player else () for p in range(s.n_players))
    return ready(s)




def test_favour_tiles_face_up_as_many_as_players_from_the_seed() -> None:
    displays = {new_game(GameConfig(4, seed=s, options=(("emperor", True),))).favour_display
                for s in range(20)}
    assert all(len(d) == 4 for d in displays) and len(displays) > 3
    assert new_game(GameConfig(4, seed=1)).favour_display == ()
    # the module does not change the rest of the set-up
    a = new_game(GameConfig(4, seed=1))
    b = new_game(GameConfig(4, seed=1, options=(("emperor", True),)))
    assert (a.bag, a.route_marker) == (b.bag, b.route_marker)


def test_take_a_favour_at_the_start_of_the_turn_with_two_unused_markers() -> None:
    s = emperor()
    tile = s.favour_display[0]
    give_marker(s, 0, "plus3")
    give_marker(s, 0, "develop")
    s = ready(s)
    text = f"favour {tile} develop plus3"
    assert legal_texts(s, "favour") == {f"favour {t} develop plus3" for t in s.favour_display}
    s = act(s, f"favour {tile} plus3 develop")  # markers in any order
    assert s.favours[0] == (tile,) and tile not in s.favour_display
    assert s.markers[0] == () and sorted(s.markers_used[0]) == ["develop", "plus3"]
    assert s.active == 1  # the whole turn was given up
    assert score_breakdown(s)[0]["markers"] == 3  # face-down markers still score
    s2 = emperor()
    give_marker(s2, 0, "plus3")
    give_marker(s2, 0, "develop")
    s2 = act(ready(s2), "income 1 0")
    assert not legal_texts(s2, "favour")
    illegal(s2, text, "only at the start of the turn")
    s3 = emperor()
    give_marker(s3, 0, "plus3")
    s3 = ready(s3)
    assert not legal_texts(s3, "favour")  # two unused markers needed


def test_favour_extra_action_every_turn_even_beyond_five() -> None:
    s = _with_tile(emperor(), 0, "extra_action")
    set_level(s, 0, "actions", 5)
    s = acts(ready(s), "end", "end", "end")
    assert s.active == 0 and s.actions_left == 6


def test_favour_income_share() -> None:
    s = _with_tile(emperor(), 1, "income_share")
    s = act(s, "income 2 0")
    assert frame(s) == FavourIncome(1) and s.current_player == 1
    assert legal_texts(s) == {"favour take trader", "decline"}
    supply = s.supply_t[1]
    s = act(s, "favour take trader")
    assert s.supply_t[1] == supply + 1 and not s.pending and s.current_player == 0


def _displaced_with_tile(tile: str) -> tuple[State, int]:
    """Player 1 holds the favour ``tile`` and has a trader on Hamburg–Stade, which
    player 0 displaces. Returns the state and the route."""
    s = _with_tile(emperor(), 1, tile)
    r = route(s, "Hamburg", "Stade")
    occupy(s, r, 1)
    s = ready(s)
    return act(s, f"displace {s.board.post_label(s.board.post_start[r])} trader pay 0"), r


def test_favour_displaced_trader_brings_two_extras() -> None:
    s, r = _displaced_with_tile("displaced_two")
    assert frame(s) == Relocate(1, origin=r, piece=TRADER, extras=2)


def test_favour_relocate_anywhere() -> None:
    s, _ = _displaced_with_tile("relocate_anywhere")
    assert len(legal_texts(s, "relocate r")) > 25  # every route with a free post


def test_favour_final_scoring_tiles() -> None:
    s = _with_tile(emperor(), 0, "control_4")
    place_kontors(s, "Hamburg", [0])
    s = ready(s)
    assert score_breakdown(s)[0]["control"] == 4
    s = _with_tile(emperor(), 0, "abilities_7")
    set_level(s, 0, "book", 3)
    s = ready(s)
    assert score_breakdown(s)[0]["abilities"] == 7


def test_every_listed_action_applies_in_variant_positions() -> None:
    for s in (east(), britannia(5), two(), emperor()):
        for a in legal_actions(s)[:50]:
            from hansa_lab.engine.rules import apply

            check_state(apply(s, a))


# ===================================================================== scoring examples
def _special(s: State, player: int, space: int) -> None:
    s.special[space] = occ(player, "merchant")
    s.supply_m[player] -= 1


def test_scoring_example_east() -> None:
    s = east()
    s.prestige[:] = [9, 5, 0]
    set_level(s, 0, "privilege", 3)  # fully developed: 4
    set_level(s, 0, "book", 3)  # fully developed: 4
    set_level(s, 0, "keys", 2)  # network × 2
    give_marker(s, 0, "extra")
    give_marker(s, 0, "swap", used=True)
    give_marker(s, 0, "plus3", used=True)  # 3 markers: 3
    _special(s, 0, 1)  # Königsberg, orange space: 8
    place_kontors(s, "Danzig", [0, 0, 1])
    place_extras(s, "Belgard", [(1, "trader"), (0, "trader")])  # 1-1, rightmost: player 0
    place_kontors(s, "Braunsberg", [1])
    place_kontors(s, "Königsberg", [0])
    place_kontors(s, "Kulm", [2])
    place_kontors(s, "Anklam", [0])
    s = ready(s)
    bd = score_breakdown(s)
    # player 0 controls Danzig, Belgard, Königsberg, Anklam (8); network Danzig 2 +
    # Belgard + Anklam + Königsberg = 5 Kontors × 2
    assert bd[0] == {"track": 9, "abilities": 8, "markers": 3, "special": 8, "control": 8,
                     "network": 10, "regions": 0}
    # player 1: Braunsberg (2); network Braunsberg–Danzig–Belgard = 3 × 1
    assert bd[1] == {"track": 5, "abilities": 0, "markers": 0, "special": 0, "control": 2,
                     "network": 3, "regions": 0}
    assert sum(bd[2].values()) == 3 and winners(s) == [0]


def test_scoring_example_britannia_four_to_five_player_side() -> None:
    s = britannia(4)
    s.prestige[:] = [6, 3, 4, 10]
    place_kontors(s, "Cardiff", [0, 0, 1])
    place_kontors(s, "Pembroke", [1])
    place_kontors(s, "Isle of Man", [2])  # Wales and Scotland
    place_kontors(s, "Glasgow", [2])
    place_kontors(s, "Carlisle", [3, 3])
    place_kontors(s, "London", [0])
    s = ready(s)
    bd = score_breakdown(s)
    # Wales: p0 (Cardiff: 1 city, 2 Kontors) and p1 (Pembroke: 1 city, 2 Kontors) tie
    # → (7+4)//2 = 5 each; p2 (Isle of Man: 1 city, 1 Kontor) → 2.
    # Scotland: p2 (Isle of Man, Glasgow) → 7; p3 (Carlisle) → 4; nobody else there.
    assert [b["regions"] for b in bd] == [5, 5, 9, 4]
    assert [b["control"] for b in bd] == [4, 2, 4, 2]
    assert [b["network"] for b in bd] == [2, 2, 1, 2]  # London is not next to Cardiff
    assert [sum(b.values()) for b in bd] == [17, 12, 18, 18]
    assert winners(s) == [3]  # 18-18: equal Actions, more network points


def test_scoring_example_two_players() -> None:
    s = two()
    s.prestige[:] = [8, 10]
    b = s.board
    place_kontors(s, "Hamburg", [0])
    for i in list(b.city_offices(city(s, "Hamburg")))[1:]:
        s.offices[i] = 4  # two neutral Kontors: the neutral colour controls Hamburg
        s.neutral_pool -= 1
    place_kontors(s, "Lübeck", [0])
    place_kontors(s, "Bremen", [1])
    s = ready(s)
    bd = score_breakdown(s)
    assert len(bd) == 2
    assert (bd[0]["control"], bd[0]["network"]) == (2, 2)  # Lübeck; Hamburg–Lübeck
    assert (bd[1]["control"], bd[1]["network"]) == (2, 1)
    assert [sum(x.values()) for x in bd] == [12, 13] and winners(s) == [1]


def test_scoring_example_emperors_favour() -> None:
    s = _with_tile(emperor(), 0, "control_4")
    s.favours = (("control_4", "abilities_7"), (), ())
    s.favour_display = tuple(t for t in s.favour_display if t not in s.favours[0])[:1]
    give_marker(s, 0, "plus3", used=True)
    give_marker(s, 0, "swap", used=True)  # turned face down for a tile: still 3 points
    set_level(s, 0, "bank", 3)
    place_kontors(s, "Hamburg", [0])
    place_kontors(s, "Lübeck", [0])
    s = ready(s)
    bd = score_breakdown(s)[0]
    assert (bd["abilities"], bd["control"], bd["markers"], bd["network"]) == (7, 8, 3, 2)


def test_load_board_accepts_the_names_a_game_config_accepts():
    from hansa_lab.engine.board import BOARD_FAMILIES, KNOWN_BOARDS, load_board
    from hansa_lab.engine.state import GameConfig

    assert load_board("base").name == "base_45p"  # the documented default: 4 players
    assert load_board("base", n_players=3) is load_board("base_3p")
    for family, sides in BOARD_FAMILIES.items():
        for n in sides:
            assert load_board(family, n_players=n) is GameConfig(n, board=family).load_board()
    for name in KNOWN_BOARDS:
        assert load_board(name).name in {"base_45p", "east", "britannia_45p", "base_3p",
                                         "britannia_3p"}
    with pytest.raises(ValueError, match="known: base"):
        load_board("atlantis")
    with pytest.raises(ValueError, match="not 2"):
        load_board("east", n_players=2)
