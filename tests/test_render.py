"""The SVG renderer: well-formed, deterministic pictures whose elements (pieces, offices,
Kontors, markers, special spaces, panels, highlights) can be found by class and data-
attributes, on every board side."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

import hansa_lab.viz.render as render_module
from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import ABILITIES, BOARD_SIDES, load_board
from hansa_lab.engine.rules import apply
from hansa_lab.engine.scoring import final_scores
from hansa_lab.engine.state import EMPTY, GameConfig, State, new_game
from hansa_lab.viz.render import (
    PLAYER_COLOURS,
    board_layout,
    render_board_svg,
    render_parts,
    render_svg,
)

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """Parse the SVG (fails on malformed XML)."""
    return ET.fromstring(svg)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find(root: ET.Element, *names: str, **data: object) -> list[ET.Element]:
    """Elements having all the classes ``names`` and the ``data-`` attributes given."""
    out = []
    for el in root.iter():
        if not set(names) <= classes(el):
            continue
        if all(el.get("data-" + k.replace("_", "-")) == str(v) for k, v in data.items()):
            out.append(el)
    return out


def state_on(side: str, n_players: int = 3) -> State:
    """An empty position on any board side, built by hand from a base-board game (the
    renderer only reads the state, so the state need not be reachable by the rules)."""
    s = new_game(GameConfig(n_players=n_players, seed=3))
    b = load_board(side)
    s.board = b
    s.posts = [EMPTY] * b.n_posts
    s.offices = [EMPTY] * b.n_offices
    s.extras = [()] * b.n_cities
    s.route_marker = [None] * b.n_routes
    for r, m in zip(b.tavern_routes, ("extra", "swap", "move3"), strict=True):
        s.route_marker[r] = m
    s.special = [EMPTY] * len(b.special_spaces)
    return s


@pytest.fixture
def base() -> State:
    return new_game(GameConfig(n_players=3, seed=1))




def test_a_state_displays_as_its_board_in_ipython(base: State) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    import hansa_lab

    shell = InteractiveShell.instance()
    try:
        assert hansa_lab.show_states_as_pictures()
        data, _ = shell.display_formatter.format(base)
        assert data["image/svg+xml"] == render_module.fluid_svg(render_module.render_svg(base))
        assert 'width="100%"' in data["image/svg+xml"].split(">", 1)[0]
    finally:
        InteractiveShell.clear_instance()


def test_deterministic(base: State) -> None:
    s = apply(apply(base, Action("place", 0, 0)), Action("place", 5, 1))
    a = render_svg(s, highlight_action=Action("place", 5, 1), highlight_player=0)
    b = render_svg(s.clone(), highlight_action=Action("place", 5, 1), highlight_player=0)
    assert a == b
    assert " id=" not in a  # no ids at all: frames can sit side by side in one page
    assert "".join(render_parts(s)) == render_svg(s)
    assert render_svg(s) != render_svg(base)


def test_base_board_elements(base: State) -> None:
    b = base.board
    root = parse(render_svg(base))
    assert root.tag == SVG + "svg" and "hansa-board" in classes(root)
    assert root.get("data-board") == "base_3p" and root.get("data-actions") == "0"
    assert len(find(root, "route")) == b.n_routes
    assert len(find(root, "post")) == b.n_posts
    assert len(find(root, "post", "empty")) == b.n_posts
    assert len(find(root, "office")) == b.n_offices
    assert len(find(root, "city")) == b.n_cities
    # start markers on the three taverns
    markers = find(root, "marker")
    assert sorted(int(m.get("data-route", -1)) for m in markers) == sorted(b.tavern_routes)
    assert {m.get("data-kind") for m in markers} == {"extra", "swap", "move3"}
    # ability icons, special-prestige spaces, East-West cities
    icons = {(el.get("data-ability")) for el in find(root, "ability")}
    assert icons == set(ABILITIES)
    spaces = find(root, "special-space")
    assert [int(x.get("data-points", 0)) for x in spaces] == list(base.special_points)
    ew = {el.get("data-city") for el in find(root, "city", "east-west")}
    assert ew == {b.city_names[c] for c in b.east_west}
    assert len(find(root, "east-west-track")) == 1
    # offices carry colour, shape and coin
    lubeck = b.city("Lübeck")
    first = find(root, "office", city="Lübeck", office=0)[0]
    colour, shape, coin = b.cities[lubeck].offices[0]
    assert first.get("data-colour") == ("white", "orange", "pink", "black")[colour]
    assert first.get("data-shape") == ("trader", "merchant")[shape]
    assert first.get("data-coin") == str(coin)


def test_player_panels(base: State) -> None:
    root = parse(render_svg(base, player_names=["greedy", "random", "blocker"]))
    panels = find(root, "panel")
    assert [p.get("data-player") for p in panels] == ["0", "1", "2"]
    projected = final_scores(base)
    for p, panel in enumerate(panels):
        assert panel.get("data-projected") == str(projected[p])
        tracks = find(panel, "track")
        assert [t.get("data-ability") for t in tracks] == list(ABILITIES)
        assert all(t.get("data-level") == "0" for t in tracks)
        supply = find(panel, "supply")[0]
        assert supply.get("data-traders") == str(base.supply_t[p])
        assert supply.get("data-merchants") == str(base.supply_m[p])
        stock = find(panel, "stock")[0]
        assert stock.get("data-traders") == str(base.stock_t[p])
        assert len(find(panel, "prestige-track")) == 1
    text = render_svg(base, player_names=["greedy", "random", "blocker"])
    assert "Seat 1 · random" in text
    # the player to act is marked
    assert find(root, "panel", "active")[0].get("data-player") == "0"


def test_pieces_on_posts(base: State) -> None:
    s = apply(base, Action("place", 4, 0))  # seat 0 trader on r4
    s = apply(s, Action("place", 9, 1))  # seat 0 merchant on r9
    root = parse(render_svg(s))
    on4 = [el for post in find(root, "post", route=4) for el in find(post, "piece")]
    assert len(on4) == 1 and {"trader", "p0"} <= classes(on4[0])
    on9 = [el for post in find(root, "post", route=9) for el in find(post, "piece")]
    assert len(on9) == 1 and {"merchant", "p0"} <= classes(on9[0])
    pieces_on_posts = [el for post in find(root, "post") for el in find(post, "piece")]
    assert len(pieces_on_posts) == sum(o != EMPTY for o in s.posts) == 2
    assert on4[0].get("data-player") == "0"


def test_kontors_extras_markers_completed(base: State) -> None:
    s = base.clone()
    b = s.board
    hamburg = b.city("Hamburg")
    lo, hi = b.office_start[hamburg], b.office_start[hamburg + 1]
    for k, i in enumerate(range(lo, hi)):
        s.offices[i] = 2 * (k % 3) + b.office_shape[i]  # completes Hamburg
    s.extras[hamburg] = (2 * 1 + 0,)
    kampen = b.city("Kampen")
    s.offices[b.office_start[kampen]] = 2 * 2 + 1
    s.markers[0] = ("plus3", "develop")
    s.markers_used[1] = ("swap",)
    s.special[1] = 2 * 1 + 1
    root = parse(render_svg(s))
    city_el = find(root, "city", city="Hamburg")[0]
    assert "completed" in classes(city_el)
    assert len(find(root, "city", "completed")) == 1
    occupied = find(city_el, "office", "occupied")
    assert len(occupied) == hi - lo
    assert len(find(city_el, "kontor")) == hi - lo + 1  # printed + 1 extra
    extra = find(city_el, "kontor", "extra")
    assert len(extra) == 1 and extra[0].get("data-player") == "1"
    assert find(extra[0], "piece", "trader", "p1")
    kampen_el = find(root, "city", city="Kampen")[0]
    assert find(kampen_el, "kontor")[0].get("data-player") == "2"
    assert find(find(kampen_el, "office", "occupied")[0], "piece", "merchant", "p2")
    held = find(root, "marker", "held", player=0)
    assert sorted(m.get("data-kind") for m in held) == ["develop", "plus3"]
    used = find(root, "marker", "used", player=1)
    assert [m.get("data-kind") for m in used] == ["swap"]
    space = find(root, "special-space", index=1)[0]
    assert find(space, "piece", "merchant", "p1")


def test_highlights(base: State) -> None:
    s = apply(base, Action("place", 5, 0))
    root = parse(render_svg(s, highlight_action=Action("place", 5, 0), highlight_player=0))
    hl = find(root, "highlight")
    assert [h.get("data-route") for h in hl if h.get("data-route")] == ["5"]
    panel = find(root, "panel", "highlighted")
    assert [p.get("data-player") for p in panel] == ["0"]
    on_posts = [el for post in find(root, "post") for el in find(post, "piece")]
    assert on_posts and all("hl" in classes(el) for el in on_posts)
    other = parse(render_svg(s, highlight_player=1))
    assert not [el for post in find(other, "post") for el in find(post, "piece", "hl")]
    text = render_svg(s, highlight_action=Action("place", 5, 0))
    route = s.board.route_name(5)
    assert f"Last action: A player places a trader on {route}" in text
    plain = parse(render_svg(s))
    assert not find(plain, "highlight") and not find(plain, "panel", "highlighted")
    # an establish highlights its route and both cities
    est = parse(render_svg(base, highlight_action=Action("establish", 3, 1, 0)))
    a, b = base.board.route_cities[3]
    lit = {(el.get("data-route"), el.get("data-city")) for el in find(est, "highlight")}
    assert len(find(est, "highlight")) == 3  # the route and both its cities
    assert ("3", None) in lit
    lit_cities = {c.get("data-city") for c in find(est, "city") if find(c, "highlight")}
    assert lit_cities == {base.board.city_names[a], base.board.city_names[b]}


def test_width_scales(base: State) -> None:
    root = parse(render_svg(base, width=700))
    assert root.get("width") == "700"
    vb = [float(x) for x in root.get("viewBox", "").split()]
    assert int(root.get("height", 0)) == round(700 * vb[3] / vb[2])


def test_player_colours_distinct() -> None:
    assert len(set(PLAYER_COLOURS)) == 5
    # the highlight glow is no seat's colour (nor the neutral colour's)
    used = {c.lower() for c in (*PLAYER_COLOURS, render_module.NEUTRAL_COLOUR)}
    assert render_module.HIGHLIGHT.lower() not in used


@pytest.mark.parametrize("side", BOARD_SIDES)
def test_every_board_side(side: str) -> None:
    b = load_board(side)
    svg = render_board_svg(b)
    root = parse(svg)
    assert root.get("data-board") == side
    assert len(find(root, "city")) == b.n_cities
    assert len(find(root, "post")) == b.n_posts
    assert len(find(root, "office")) == b.n_offices
    assert len(find(root, "special-space")) == len(b.special_spaces)
    assert len(find(root, "city", "east-west")) == 2
    permanent = [r.index for r in b.routes if r.permanent_marker]
    assert sorted(int(m.get("data-route", -1)) for m in find(root, "marker", "permanent")) == (
        permanent)
    merchant_only = sum(b.post_merchant_only)
    assert len(find(root, "post", "merchant-only")) == merchant_only
    assert svg == render_board_svg(b)
    width, height, centres = board_layout(side)
    assert set(centres) == set(b.city_names)
    assert all(0 <= x <= width and 0 <= y <= height for x, y in centres.values())
    assert render_board_svg(b, width=500).count('width="500"') == 1


@pytest.mark.parametrize("side", BOARD_SIDES)
def test_states_on_every_side(side: str) -> None:
    s = state_on(side, 4 if side.endswith("45p") or side == "east" else 3)
    b = s.board
    big = max(range(b.n_cities), key=lambda c: len(b.cities[c].offices))
    lo, hi = b.office_start[big], b.office_start[big + 1]
    for k, i in enumerate(range(lo, hi)):
        s.offices[i] = 2 * (k % s.n_players) + b.office_shape[i]
    s.extras[big] = (2 * 0 + 0, 2 * 1 + 1)
    r = b.n_routes - 1
    for k, i in enumerate(b.route_posts(r)):
        s.posts[i] = 2 * (k % s.n_players) + int(b.post_merchant_only[i])
    svg = render_svg(s)
    root = parse(svg)
    assert root.get("data-board") == side
    city_el = find(root, "city", city=b.city_names[big])[0]
    assert len(find(city_el, "office", "occupied")) == hi - lo
    assert len(find(city_el, "kontor", "extra")) == 2
    on_r = [el for post in find(root, "post", route=r) for el in find(post, "piece")]
    assert len(on_r) == b.routes[r].n_posts
    assert len(find(root, "marker")) - len(find(root, "marker", "permanent")) == 3
    assert svg == render_svg(s.clone())


def test_neutral_colour_pieces(base: State) -> None:
    """Two-player games have a neutral colour (index 2): drawn grey, labelled N."""
    s = base.clone()
    if not hasattr(s, "neutral_pool"):
        pytest.skip("this engine has no neutral colour")
    s.neutral_pool = 5
    s.posts[0] = 2 * s.neutral
    root = parse(render_svg(s))
    assert find(root, "piece", "neutral")
    assert find(root, "neutral-pool", traders=5)


def _segment_meets_box(p: tuple[float, float], q: tuple[float, float],
                       box: tuple[float, float, float, float]) -> bool:
    """Whether segment p–q meets the box (left, top, right, bottom): sample it densely
    (independent of the renderer's own clipping code)."""
    left, top, right, bottom = box
    steps = max(2, int(abs(q[0] - p[0]) + abs(q[1] - p[1])))
    for k in range(steps + 1):
        x = p[0] + (q[0] - p[0]) * k / steps
        y = p[1] + (q[1] - p[1]) * k / steps
        if left <= x <= right and top <= y <= bottom:
            return True
    return False


def _road_points(route: ET.Element) -> list[tuple[float, float]]:
    """The points of a route's road (its last line or polyline: drawn on top)."""
    shapes = [el for el in route if el.tag in (SVG + "line", SVG + "polyline")]
    road = shapes[-1]
    if road.tag == SVG + "line":
        return [(float(road.get("x1", 0)), float(road.get("y1", 0))),
                (float(road.get("x2", 0)), float(road.get("y2", 0)))]
    pts = road.get("points", "").split()
    return [(float(a), float(b)) for a, b in (pt.split(",") for pt in pts)]


@pytest.mark.parametrize("side", BOARD_SIDES)
def test_no_route_is_drawn_through_a_city(side: str) -> None:
    """Every route's drawn polyline keeps clear of every other city's box, by half a
    post on each side (so no post covers a box) and the badges' height above it."""
    b = load_board(side)
    root = parse(render_board_svg(b))
    boxes = {}
    for city in find(root, "city"):
        rect = next(el for el in city.iter() if "city-box" in classes(el))
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        w, h = float(rect.get("width", 0)), float(rect.get("height", 0))
        half_post = render_module.POST / 2
        boxes[int(city.get("data-index", -1))] = (x - half_post, y - half_post - 9.5,
                                                  x + w + half_post, y + h + half_post)
    assert len(boxes) == b.n_cities
    bad = []
    for route in find(root, "route"):
        r = int(route.get("data-route", -1))
        ends = b.route_cities[r]
        pts = _road_points(route)
        for c, box in boxes.items():
            if c in ends:
                continue
            if any(_segment_meets_box(p, q, box) for p, q in pairwise(pts)):
                bad.append(f"{b.route_name(r)} through {b.city_names[c]}")
    assert not bad, bad
    # the posts sit on the drawn road
    for route in find(root, "route")[:5]:
        assert len(find(route, "post")) == b.routes[int(route.get("data-route", -1))].n_posts


def _legend_symbols(root: ET.Element) -> set[str]:
    return {el.get("data-symbol", "") for el in find(root, "legend-item")}


@pytest.mark.parametrize("side", BOARD_SIDES)
def test_the_legend_explains_every_symbol_drawn(side: str) -> None:
    """Every kind of mark on the picture has its entry in the legend: pieces, posts,
    offices, coins, Kontors, control stripes, ability icons, East-West badges, the
    special route, printed bonuses, every bonus marker, the highlight."""
    s = state_on(side, 4 if side.endswith("45p") or side == "east" else 3)
    b = s.board
    c = next(c for c in range(b.n_cities) if b.cities[c].offices)
    s.offices[b.office_start[c]] = 0  # a Kontor of seat 0: it controls the city
    s.extras[c] = (2,)
    root = parse(render_svg(s, highlight_action=Action("place", 0, 0), highlight_player=0))
    legend = _legend_symbols(root)
    assert len(find(root, "legend")) == 1
    drawn = {"trader", "merchant", "post", "office", "privilege", "kontor", "extra-kontor",
             "control", "completed", "east-west", "highlight", "seat-outline"}
    drawn |= {f"ability-{a.get('data-ability')}" for a in find(root, "ability")}
    drawn |= {f"marker-{m}" for m in render_module.MARKER_LABELS}
    drawn |= {f"permanent-{m.get('data-kind')}" for m in find(root, "marker", "permanent")}
    if find(root, "post", "merchant-only"):
        drawn.add("merchant-only")
    if find(root, "coin"):
        drawn.add("coin")
    if b.special_route >= 0:
        drawn.add("special-route")
    if find(root, "special-space"):
        drawn.add("special-spaces")
    if find(root, "route-label"):
        drawn.add("route-label")
    if any(r.region for r in b.routes):
        drawn.add("region-route")
    assert drawn <= legend, drawn - legend
    assert find(root, "control")  # the stripe the legend explains is drawn
    # the empty board has the legend too
    assert _legend_symbols(parse(render_board_svg(b))) >= drawn - {"highlight"}
    assert not find(parse(render_svg(s, legend=False)), "legend")


def test_game_end_shows_the_winner_and_final_scores() -> None:
    from hansa_lab.engine.scoring import winners
    from hansa_lab.play import play_game

    rec = play_game(GameConfig(n_players=3, seed=5), ["random"] * 3)
    final = rec.final
    root = parse(render_svg(final, player_names=["random"] * 3))
    banner = find(root, "winner-banner")
    won = winners(final)
    assert len(banner) == 1 and banner[0].get("data-winners") == ",".join(map(str, won))
    text = "".join(banner[0].itertext())
    assert f"Seat {won[0]} (random)" in text and "GAME OVER · FINAL SCORE" in text
    assert len(find(root, "final")) == 3 and not find(root, "projected")
    svg = render_svg(final)
    assert "Final score" in svg and "Projected" not in svg and "If it ended now" not in svg
    assert len(find(root, "winner-tag")) == len(won)
    # during the game: no banner, the panels say what the score would be now
    mid = parse(render_svg(states_of_game(rec, 40)))
    assert not find(mid, "winner-banner") and len(find(mid, "projected")) == 3
    assert "If it ended now" in "".join(mid.itertext())


def states_of_game(rec, i: int) -> State:
    from hansa_lab.play import states_of

    return states_of(rec.config, rec.actions[:i])[-1]
