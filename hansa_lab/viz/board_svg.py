"""The board of a picture: routes with their posts and bonus markers, cities with their
offices, Kontore and abilities, the special-prestige spaces, and what an action touched
marked."""

from __future__ import annotations

from functools import lru_cache

from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import ABILITIES, COLOURS, Board
from hansa_lab.engine.scoring import city_controller
from hansa_lab.engine.state import EMPTY, State
from hansa_lab.viz.geometry import Geometry, board_geometry
from hansa_lab.viz.svg_pieces import (
    ABILITY_LABELS,
    ABILITY_TITLES,
    BOX_H,
    HEADER,
    HIGHLIGHT,
    OFFICE,
    POST,
    PRIVILEGE_FILL,
    PRIVILEGE_TEXT,
    ROAD,
    SLOT,
    SPECIAL_PITCH,
    cls_of,
    esc,
    hint,
    marker_badge,
    neutral_of,
    num,
    piece_at,
    seat_colours,
    who_is,
)


# --------------------------------------------------------------------------- highlights
def _highlight_targets(board: Board, action: Action | None) -> tuple[set[int], set[int], set[int]]:
    """(routes, posts, cities) touched by an action, to highlight."""
    routes: set[int] = set()
    posts: set[int] = set()
    cities: set[int] = set()
    if action is None:
        return routes, posts, cities
    k, a, b, c = action
    if k in ("place", "relocate", "relocate_extra", "place_marker") and a >= 0:
        routes.add(a)
        if k == "relocate_extra" and c >= 0:
            posts.add(c)
    elif k in ("displace", "remove") and a >= 0:
        posts.add(a)
    elif k in ("move_piece", "shift"):
        posts.add(a)
        routes.add(b)
    elif k == "swap":
        posts.update((a, b))
    elif k == "establish":
        routes.add(a)
        cities.update(board.route_cities[a])
    elif k == "marker" and a == 3 and b >= 0:  # swap Kontors
        cities.add(board.office_city[b])
    return routes, posts, cities


# --------------------------------------------------------------------------- board parts
def _route_parts(board: Board, g: Geometry, r: int, state: State | None,
                 hl_routes: set[int], hl_posts: set[int], hl_player: int | None) -> list[str]:
    """A route as pieces: its line, labels and markers; each post; the closing tag."""
    route = board.routes[r]
    neutral = neutral_of(state)
    classes = cls_of("route", "tavern" if route.tavern else "",
                     "special-route" if r == board.special_route else "",
                     f"region-{route.region.lower()}" if route.region else "")
    out = [f'<g class="{classes}" data-route="{r}" '
           f'data-cities="{esc(board.route_name(r))}">'
           f'{hint(f"r{r}: {board.route_name(r)}" + (" (tavern)" if route.tavern else ""))}']
    path = g.paths[r]
    if len(path) == 2:
        (x0, y0), (x1, y1) = path
        tag, line = "line", f'x1="{num(x0)}" y1="{num(y0)}" x2="{num(x1)}" y2="{num(y1)}"'
    else:
        tag = "polyline"
        line = ('points="' + " ".join(f"{num(x)},{num(y)}" for x, y in path)
                + '" fill="none" stroke-linejoin="round"')
    if r in hl_routes:
        out.append(f'<{tag} class="highlight" data-route="{r}" {line} stroke="{HIGHLIGHT}" '
                   f'stroke-width="22" stroke-linecap="round" opacity="0.6"/>')
    if r == board.special_route:
        out.append(f'<{tag} {line} stroke="#c9a227" stroke-width="11" stroke-linecap="round" '
                   f'opacity="0.55"/>')
    colour = "#6f8f4e" if route.region else ROAD
    dash = ' stroke-dasharray="6 3"' if route.region else ""
    out.append(f'<{tag} {line} stroke="{colour}" stroke-width="4" stroke-linecap="round"{dash}/>')
    # route label (index) on one side, bonus marker on the other, both between two posts
    n_posts = route.n_posts
    f = (n_posts // 2) / n_posts if n_posts > 1 else 0.5
    gx, gy, leg = g.point_at(r, f)
    nx, ny = g.normal(r, leg)
    lx, ly = gx - nx * 14, gy - ny * 14
    out.append(f'<text class="route-label" x="{num(lx)}" y="{num(ly + 4)}" font-size="12" '
               f'text-anchor="middle" fill="#6b5d45">r{r}</text>')
    off = 16 if n_posts > 1 else 20
    bx, by = gx + nx * off, gy + ny * off
    if route.permanent_marker:
        out.append(marker_badge(route.permanent_marker, bx, by, cls="marker permanent",
                                attrs=f' data-route="{r}"', permanent=True))
    if state is not None and state.route_marker[r]:
        m = state.route_marker[r]
        assert m is not None
        off = 28 if route.permanent_marker else 0
        out.append(marker_badge(m, bx + nx * off, by + ny * off, cls="marker",
                                attrs=f' data-route="{r}"'))
    parts = ["".join(out)]
    for i in board.route_posts(r):
        occ = state.posts[i] if state is not None else EMPTY
        parts.append(_post_svg(board, i, occ, i in hl_posts,
                               occ != EMPTY and hl_player == occ >> 1, neutral))
    parts.append("</g>")
    return parts


@lru_cache(maxsize=16384)
def _post_svg(board: Board, i: int, occ: int, lit: bool, hl_piece: bool, neutral: int) -> str:
    """One post with its piece (cached: frames of a game repeat most posts)."""
    g = board_geometry(board)
    r = board.post_route[i]
    k = i - board.post_start[r]
    px, py = g.posts[i]
    mo = board.post_merchant_only[i]
    pcls = cls_of("post", "merchant-only" if mo else "", "empty" if occ == EMPTY else "")
    post = [f'<g class="{pcls}" data-route="{r}" data-post="{k}" data-index="{i}">']
    if lit:
        post.append(f'<circle class="highlight" data-post-index="{i}" cx="{num(px)}" '
                    f'cy="{num(py)}" r="13" fill="{HIGHLIGHT}" opacity="0.8"/>')
    h = POST / 2
    if mo:
        post.append(f'<circle cx="{num(px)}" cy="{num(py)}" r="{num(h)}" fill="#ffffff" '
                    f'stroke="#6b5d45" stroke-width="1.2"/>')
    else:
        post.append(f'<rect x="{num(px - h)}" y="{num(py - h)}" width="{POST}" '
                    f'height="{POST}" rx="2" fill="#ffffff" stroke="#6b5d45" '
                    f'stroke-width="1.2"/>')
    if occ != EMPTY:
        post.append(piece_at(occ, px, py, 13, hl=hl_piece, neutral=neutral,
                             title=f"r{r}.{k}: {who_is(occ >> 1, neutral)} "
                                   f"{('trader', 'merchant')[occ & 1]}"))
    post.append("</g>")
    return "".join(post)


def office_shape(x: float, y: float, shape: int, colour: int) -> str:
    h = OFFICE / 2
    fill = PRIVILEGE_FILL[colour]
    if shape == 0:
        return (f'<rect x="{num(x - h)}" y="{num(y - h)}" width="{OFFICE}" height="{OFFICE}" '
                f'rx="1.5" fill="{fill}" stroke="#444444" stroke-width="1"/>')
    return (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(h)}" fill="{fill}" stroke="#444444" '
            f'stroke-width="1"/>')


def _city_part(board: Board, c: int, state: State | None, hl_cities: set[int],
               hl_player: int | None) -> str:
    """A city: its box, offices and Kontors, badges (and the special-prestige spaces)."""
    lo, hi = board.office_start[c], board.office_start[c + 1]
    if state is None:
        return _city_svg(board, c, (EMPTY,) * (hi - lo), (), -1, c in hl_cities, hl_player,
                         -1, (EMPTY,) * len(board.special_spaces),
                         tuple(p for p, _ in board.special_spaces))
    special = tuple(state.special) if c == board.special_city else ()
    return _city_svg(board, c, tuple(state.offices[lo:hi]), tuple(state.extras[c]),
                     city_controller(state, c), c in hl_cities, hl_player, neutral_of(state),
                     special, tuple(state.special_points))


@lru_cache(maxsize=8192)
def _city_svg(board: Board, c: int, occs: tuple[int, ...], extras: tuple[int, ...],
              controller: int, lit: bool, hl_player: int | None, neutral: int,
              special_occ: tuple[int, ...], special_points: tuple[int, ...]) -> str:
    g = board_geometry(board)
    city = board.cities[c]
    cx, cy = g.centre[c]
    w = g.box_w[c]
    x0, y0 = cx - w / 2, cy - BOX_H / 2
    n_off = len(city.offices)
    completed = n_off > 0 and all(o != EMPTY for o in occs)
    east_west = c in board.east_west
    special = c == board.special_city
    classes = cls_of("city", "completed" if completed else "", "east-west" if east_west else "",
                     "special-city" if special else "", "yellow-green" if city.yellow_green else "")
    tip = [city.name]
    if city.abilities:
        tip.append("develops " + ", ".join(ABILITY_TITLES[ABILITIES[a]] for a in city.abilities))
    if east_west:
        tip.append("East-West city")
    if completed:
        tip.append("completed")
    if controller >= 0:
        tip.append(f"controlled by {who_is(controller, neutral)}")
    if city.regions:
        tip.append("region " + "/".join(city.regions))
    out = [f'<g class="{classes}" data-city="{esc(city.name)}" data-index="{c}" '
           f'data-controller="{controller}">{hint("; ".join(tip))}']
    if lit:
        out.append(f'<rect class="highlight" x="{num(x0 - 7)}" y="{num(y0 - 7)}" '
                   f'width="{num(w + 14)}" height="{BOX_H + 14}" rx="9" fill="{HIGHLIGHT}" '
                   f'opacity="0.8"/>')
    if east_west:
        out.append(f'<rect x="{num(x0 - 4)}" y="{num(y0 - 4)}" width="{num(w + 8)}" '
                   f'height="{BOX_H + 8}" rx="8" fill="none" stroke="#7b3294" '
                   f'stroke-width="2" stroke-dasharray="5 3"/>')
    fill = "#efe3c2" if completed else "#fffaf0"
    stroke, sw = ("#8a6d1d", "3") if completed else ("#7a6a50", "1.2")
    if controller >= 0:
        out.append(f'<rect class="control" x="{num(x0)}" y="{num(y0 - 3)}" width="{num(w)}" '
                   f'height="6" rx="3" fill="{seat_colours(controller, neutral)[0]}"/>')
    out.append(f'<rect class="city-box" x="{num(x0)}" y="{num(y0)}" width="{num(w)}" '
               f'height="{BOX_H}" rx="6" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/>')
    if city.yellow_green:
        out.append(f'<rect x="{num(x0 + 3)}" y="{num(y0 + 3)}" width="8" height="8" rx="1" '
                   f'fill="#b5d334" stroke="#6b7f1a"/>')
    out.append(f'<text x="{num(cx)}" y="{num(y0 + 13)}" font-size="12" font-weight="bold" '
               f'text-anchor="middle" fill="#2b2418">{esc(city.name)}</text>')
    # printed offices left to right
    oy = y0 + 26
    first_x = cx - (n_off - 1) * SLOT / 2
    for k, (colour, shape, coin) in enumerate(city.offices):
        ox = first_x + k * SLOT
        occ = occs[k]
        ocls = cls_of("office", ("trader", "merchant")[shape], COLOURS[colour],
                      "occupied" if occ != EMPTY else "")
        otip = (f"office {k}: {COLOURS[colour]} {('trader', 'merchant')[shape]}"
                + (f", {coin} prestige" if coin else "")
                + (f", Kontor of {who_is(occ >> 1, neutral)}" if occ != EMPTY else ""))
        out.append(f'<g class="{ocls}" data-city="{esc(city.name)}" data-office="{k}" '
                   f'data-colour="{COLOURS[colour]}" data-shape="{("trader", "merchant")[shape]}"'
                   f' data-coin="{coin}">{hint(otip)}{office_shape(ox, oy, shape, colour)}')
        if occ != EMPTY:
            out.append(f'<g class="kontor" data-player="{occ >> 1}">'
                       f'{piece_at(occ, ox, oy, 13, hl=hl_player == occ >> 1, neutral=neutral)}'
                       "</g>")
        if coin:
            out.append(f'<g class="coin"><circle cx="{num(ox + 6)}" cy="{num(oy + 7)}" '
                       f'r="6.5" fill="#e8c547" stroke="#8a6d1d" stroke-width="0.8"/>'
                       f'<text x="{num(ox + 6)}" y="{num(oy + 11.3)}" font-size="12" '
                       f'font-weight="bold" text-anchor="middle" fill="#3b2f0b">{coin}</text></g>')
        out.append("</g>")
    # extra Kontors, left of the printed offices (outside the box); a city without
    # printed offices (East: yellow/green) holds its Kontors inside the box
    for k, occ in enumerate(extras):
        if n_off:
            ex = x0 - 10 - (len(extras) - 1 - k) * 17
        else:
            ex = cx - (len(extras) - 1) * SLOT / 2 + k * SLOT
        out.append(f'<g class="kontor extra" data-player="{occ >> 1}" data-city="{esc(city.name)}"'
                   f' data-extra="{k}">{hint(f"extra Kontor of {who_is(occ >> 1, neutral)}")}'
                   f'<rect x="{num(ex - 8)}" y="{num(oy - 8)}" width="16" height="16" rx="3" '
                   f'fill="#fffaf0" stroke="#7a6a50" stroke-dasharray="2 1.5"/>'
                   f'{piece_at(occ, ex, oy, 13, hl=hl_player == occ >> 1, neutral=neutral)}</g>')
    # badges above the box: abilities (right), East-West / completed / special (left)
    bx = x0 + w - 8
    for a in city.abilities:
        name = ABILITIES[a]
        out.append(f'<g class="ability" data-ability="{name}">'
                   f"{hint('develops ' + ABILITY_TITLES[name])}"
                   f'<circle cx="{num(bx)}" cy="{num(y0 - 4)}" r="9" fill="#3d5a80" '
                   f'stroke="#ffffff" stroke-width="1.2"/>'
                   f'<text x="{num(bx)}" y="{num(y0 + 0.3)}" font-size="12" font-weight="bold" '
                   f'text-anchor="middle" fill="#ffffff">{ABILITY_LABELS[name]}</text></g>')
        bx -= 20
    lx = x0 + 8
    if east_west:
        out.append(f'<g class="badge east-west-badge">{hint("East-West city")}'
                   f'<rect x="{num(lx - 8)}" y="{num(y0 - 14)}" width="32" height="16" rx="4" '
                   f'fill="#7b3294"/><text x="{num(lx + 8)}" y="{num(y0 - 1.6)}" font-size="12" '
                   f'font-weight="bold" text-anchor="middle" fill="#ffffff">E-W</text></g>')
        lx += 36
    if completed:
        out.append(f'<g class="badge completed-badge">{hint("completed city")}'
                   f'<circle cx="{num(lx)}" cy="{num(y0 - 2)}" r="7" fill="#8a6d1d"/>'
                   f'<path d="M{num(lx - 3.5)} {num(y0 - 2)} l2.5 3 l4.5 -6" fill="none" '
                   f'stroke="#ffffff" stroke-width="2"/></g>')
    out.append("</g>")
    if special:
        out.append(_special_part(board, g, c, special_occ, special_points, hl_player, neutral))
    return "".join(out)


def _special_part(board: Board, g: Geometry, c: int, special_occ: tuple[int, ...],
                  points: tuple[int, ...], hl_player: int | None, neutral: int) -> str:
    """The special-prestige spaces, drawn next to the special city."""
    n = len(board.special_spaces)
    pitch = SPECIAL_PITCH
    x_first, y = g.special
    out = [f'<g class="special-spaces" data-city="{esc(board.city_names[c])}">'
           f'<rect x="{num(x_first - 14)}" y="{num(y - 12)}" width="{num((n - 1) * pitch + 28)}" '
           f'height="24" rx="5" fill="#fff4c2" stroke="#8a6d1d"/>']
    for k, (_, colour) in enumerate(board.special_spaces):
        x = x_first + k * pitch
        occ = special_occ[k] if k < len(special_occ) else EMPTY
        out.append(f'<g class="special-space" data-index="{k}" data-points="{points[k]}" '
                   f'data-colour="{COLOURS[colour]}">'
                   f"{hint(f'special prestige {points[k]} ({COLOURS[colour]} privilege)')}"
                   f'<circle cx="{num(x)}" cy="{num(y)}" r="9.5" fill="{PRIVILEGE_FILL[colour]}" '
                   f'stroke="#444444"/>')
        if occ != EMPTY:
            out.append(piece_at(occ, x, y, 13, hl=hl_player == occ >> 1,
                                neutral=neutral))
        else:
            out.append(f'<text x="{num(x)}" y="{num(y + 4.2)}" font-size="12" font-weight="bold" '
                       f'text-anchor="middle" fill="{PRIVILEGE_TEXT[colour]}">{points[k]}</text>')
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def board_parts(board: Board, state: State | None, hl_action: Action | None,
                hl_player: int | None) -> list[str]:
    g = board_geometry(board)
    hl_routes, hl_posts, hl_cities = _highlight_targets(board, hl_action)
    parts = [f'<g class="board" transform="translate(0,{HEADER})">'
             f'<rect class="sea" x="0" y="0" width="{g.width}" height="{g.height}" '
             f'fill="#e8eef0"/>']
    for r in range(board.n_routes):
        parts.extend(_route_parts(board, g, r, state, hl_routes, hl_posts, hl_player))
    parts.extend(_city_part(board, c, state, hl_cities, hl_player)
                 for c in range(board.n_cities))
    parts.append("</g>")
    return parts
