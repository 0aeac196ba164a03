"""SVG pictures of boards and game states (pure functions: state in, SVG text out).

The picture is the board drawn at its cities' real geography (``data/layout.json``) with a
panel per player beside it. It is deterministic — the same state always gives the same
string, with no random ids — so it can be diffed, cached and tested. Elements carry
classes and ``data-`` attributes so tests and scripts can find them:

=============================================  ==========================================
element                                         selector
=============================================  ==========================================
the picture                                     ``svg.hansa-board`` (``data-board``,
                                                ``data-actions``, ``data-turn``)
a route / one of its posts                      ``.route[data-route]`` /
                                                ``.post[data-route][data-post]``
a piece (on a post, office, special space)      ``.piece.trader.p0`` / ``.piece.merchant.p2``
a city / a printed office / an extra Kontor     ``.city[data-city]`` / ``.office`` /
                                                ``.kontor`` (``.kontor.extra`` for extras)
a bonus marker beside a route / held by a       ``.marker[data-route][data-kind]`` /
player                                          ``.marker.held`` / ``.marker.used``
ability icon of a city                          ``.ability[data-ability]``
special-prestige space                          ``.special-space[data-index]``
East-West cities and their scoring track        ``.city.east-west`` / ``.east-west-track``
completed city                                  ``.city.completed``
a player's panel, ability track                 ``.panel[data-player]``, ``.track[data-ability]``
highlights                                      ``.highlight``, ``.panel.highlighted``
=============================================  ==========================================

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> svg = render_svg(new_game(GameConfig(n_players=3, seed=1)))
>>> svg.startswith("<svg") and svg.count('class="marker"') == 3
True
>>> svg == render_svg(new_game(GameConfig(n_players=3, seed=1)))
True

In Jupyter a :class:`~hansa_lab.engine.state.State` shows itself through :func:`render_svg`;
``IPython.display.SVG(render_svg(s, highlight_player=1, width=900))`` gives options.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from html import escape
from importlib import resources
from itertools import pairwise
from typing import Any

from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import ABILITIES, COLOURS, Board, player_board
from hansa_lab.engine.narrate import (
    ABILITY_NAMES,
    END_REASONS,
    FAVOUR_NAMES,
    MARKER_NAMES,
    PERMANENT_NAMES,
    describe_action,
)
from hansa_lab.engine.scoring import CATEGORIES, city_controller, score_breakdown, winners
from hansa_lab.engine.state import EMPTY, State

#: Player colours by seat (Okabe–Ito palette: distinguishable with colour-blindness).
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#F0E442", "#56B4E9")
#: Text colour that reads on each player colour (the seat digit on pieces).
PLAYER_TEXT = ("#ffffff", "#ffffff", "#ffffff", "#000000", "#000000")
#: The neutral colour of the two-player variant.
NEUTRAL_COLOUR = "#7f7f7f"
#: Privilege colours of offices (white, orange, pink, black), light enough to tell from
#: the player colours of the pieces sitting on them.
PRIVILEGE_FILL = ("#fbfbf7", "#f6b26b", "#f2a7c8", "#3b3b3b")
PRIVILEGE_TEXT = ("#333333", "#333333", "#333333", "#ffffff")

#: Short labels of the bonus markers (full names are in tooltips).
MARKER_LABELS = {
    "extra": "K+",
    "swap": "Sw",
    "move3": "M3",
    "remove3": "R3",
    "develop": "Up",
    "plus3": "+3",
    "plus4": "+4",
}
#: Printed (permanent) route bonuses of the East and Britannia boards.
PERMANENT_LABELS = {
    "place2_from_route": "P2",
    "move2": "M2",
    "kontor_yellow_green": "YG",
    "privilege": "Pr",
    "place2_regions": "P2",
}
ABILITY_LABELS = {"actions": "A", "bank": "$", "book": "B", "privilege": "P", "keys": "K"}
ABILITY_TITLES = ABILITY_NAMES

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
HEADER = 62  # height of the status bar above the board (title, status, last action)
BOX_H = 40  # city box height
MIN_BOX_W = 90
SLOT = 20  # office pitch inside a city box
OFFICE = 16  # office size
POST = 14  # post size
SPECIAL_PITCH = 22  # spacing of the special-prestige spaces
PANEL_W = 340
PANEL_H = 160
PANEL_GAP = 8
ROAD = "#9c8a6a"
#: Highlights (what the last action touched): magenta, a colour no seat uses.
HIGHLIGHT = "#e040fb"
#: A route keeps this far from other cities' boxes (half a post and a little more), and
#: BADGE_ROOM more above a box (its ability and East-West badges).
ROUTE_CLEARANCE = POST / 2 + 3
BADGE_ROOM = 8

_LAYOUT_KEYS = {"east": "east_expansion"}


# --------------------------------------------------------------------------- helpers
def _n(v: float) -> str:
    """A coordinate as short, deterministic text (one decimal, none if it is 0)."""
    text = f"{v:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
        return "0" if text == "-0" else text
    return text


def _t(text: object) -> str:
    return escape(str(text), quote=True)


def _title(text: str) -> str:
    return f"<title>{_t(text)}</title>"


def _cls(*names: str) -> str:
    return " ".join(n for n in names if n)


@cache
def _layout_data() -> dict[str, Any]:
    text = resources.files("hansa_lab.viz").joinpath("data/layout.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def board_layout(side: str) -> tuple[int, int, dict[str, tuple[int, int]]]:
    """(width, height, city name → centre) of a board side, from ``data/layout.json``."""
    data = _layout_data()
    raw = data[_LAYOUT_KEYS.get(side, side)]
    cities = {name: (int(x), int(y)) for name, (x, y) in raw["cities"].items()}
    return int(raw["width"]), int(raw["height"]), cities


def segment_hits_rect(p: tuple[float, float], q: tuple[float, float],
                      rect: tuple[float, float, float, float]) -> bool:
    """Whether the segment p–q meets the rectangle (left, top, right, bottom)
    (Liang–Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    left, top, right, bottom = rect
    for pk, qk in ((-dx, p[0] - left), (dx, right - p[0]), (-dy, p[1] - top),
                   (dy, bottom - p[1])):
        if pk == 0:
            if qk < 0:
                return False
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def box_width(n_offices: int) -> int:
    """Width of a city box holding ``n_offices`` printed offices."""
    return max(MIN_BOX_W, 12 + n_offices * SLOT)


class _Geometry:
    """Positions of the board's elements (city boxes, route paths, posts).

    A route is drawn straight between its cities' boxes unless that line would come
    closer than :data:`ROUTE_CLEARANCE` to another city's box (or its badges above it):
    then it bends once, at the first point beside the straight line's middle from
    which both legs keep clear (:meth:`clear`)."""

    def __init__(self, board: Board) -> None:
        self.width, self.height, names = board_layout(board.name)
        self.centre = [names[c.name] for c in board.cities]
        self.box_w = [box_width(len(c.offices)) for c in board.cities]
        self.paths: list[list[tuple[float, float]]] = []
        self.posts: list[tuple[float, float]] = [(0.0, 0.0)] * board.n_posts
        for r, (a, b) in enumerate(board.route_cities):
            path = self._route_path(a, b)
            self.paths.append(path)
            n = board.routes[r].n_posts
            for k, i in enumerate(board.route_posts(r)):
                self.posts[i] = self.point_at(r, (k + 0.5) / n)[:2]
        self.special = self.special_anchor(board, board.special_city,
                                           len(board.special_spaces), SPECIAL_PITCH)

    @property
    def segments(self) -> list[tuple[float, float, float, float]]:
        """Each route's first and last point (x0, y0, x1, y1)."""
        return [(p[0][0], p[0][1], p[-1][0], p[-1][1]) for p in self.paths]

    def padded_box(self, c: int) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of city ``c``'s box grown by the clearance a route
        keeps from it (more above, where the ability and East-West badges sit)."""
        cx, cy = self.centre[c]
        hw = self.box_w[c] / 2 + ROUTE_CLEARANCE
        return (cx - hw, cy - BOX_H / 2 - ROUTE_CLEARANCE - BADGE_ROOM, cx + hw,
                cy + BOX_H / 2 + ROUTE_CLEARANCE)

    def clear(self, p: tuple[float, float], q: tuple[float, float], skip: Sequence[int]) -> bool:
        """Whether the segment p–q keeps clear of every city's padded box but ``skip``'s."""
        return not any(segment_hits_rect(p, q, self.padded_box(c))
                       for c in range(len(self.centre)) if c not in skip)

    def _route_path(self, a: int, b: int) -> list[tuple[float, float]]:
        (ax, ay), (bx, by) = self.centre[a], self.centre[b]

        def ends(wx: float, wy: float) -> tuple[tuple[float, float], tuple[float, float]]:
            ta = self._exit(ax, ay, wx, wy, self.box_w[a])
            tb = self._exit(bx, by, wx, wy, self.box_w[b])
            return ((ax + (wx - ax) * ta, ay + (wy - ay) * ta),
                    (bx + (wx - bx) * tb, by + (wy - by) * tb))

        p, q = self._straight(a, b)
        if self.clear(p, q, (a, b)):
            return [p, q]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / length, (bx - ax) / length
        for d in range(10, 161, 6):
            for s in (1, -1):
                w = (mx + s * d * nx, my + s * d * ny)
                p, q = ends(*w)
                if self.clear(p, w, (a, b)) and self.clear(w, q, (a, b)):
                    return [p, w, q]
        return list(self._straight(a, b))

    def _straight(self, a: int, b: int) -> tuple[tuple[float, float], tuple[float, float]]:
        (ax, ay), (bx, by) = self.centre[a], self.centre[b]
        ta = self._exit(ax, ay, bx, by, self.box_w[a])
        tb = self._exit(bx, by, ax, ay, self.box_w[b])
        return (ax + (bx - ax) * ta, ay + (by - ay) * ta), (bx + (ax - bx) * tb,
                                                             by + (ay - by) * tb)

    def point_at(self, r: int, f: float) -> tuple[float, float, int]:
        """(x, y, leg) of the point a fraction ``f`` along route ``r``'s path."""
        path = self.paths[r]
        legs = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in pairwise(path)]
        target = f * sum(legs)
        for k, length in enumerate(legs):
            if target <= length or k == len(legs) - 1:
                t = target / length if length else 0.0
                (x0, y0), (x1, y1) = path[k], path[k + 1]
                return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, k
            target -= length
        raise AssertionError("unreachable")

    @staticmethod
    def _exit(ax: float, ay: float, bx: float, by: float, w: int) -> float:
        """Fraction of A→B at which the line leaves A's box (plus a little clearance)."""
        dx, dy = abs(bx - ax), abs(by - ay)
        hw, hh = w / 2 + 3, BOX_H / 2 + 3
        tx = hw / dx if dx else math.inf
        ty = hh / dy if dy else math.inf
        return min(tx, ty, 0.45)

    def normal(self, r: int, leg: int = 0) -> tuple[float, float]:
        """Unit normal of leg ``leg`` of route ``r`` (pointing up, or right when the leg
        is vertical)."""
        (x0, y0), (x1, y1) = self.paths[r][leg], self.paths[r][leg + 1]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        if ny > 0 or (ny == 0 and nx < 0):
            nx, ny = -nx, -ny
        return nx, ny

    def special_anchor(self, board: Board, c: int, n: int, pitch: int) -> tuple[float, float]:
        """(x of the first space, y) of a row of ``n`` special-prestige spaces next to
        city ``c``: below, above, right or left of its box, whichever overlaps the
        fewest other cities and posts."""
        cx, cy = self.centre[c]
        w = self.box_w[c]
        row_w = (n - 1) * pitch + 28
        candidates = [
            (cx - row_w / 2, cy + BOX_H / 2 + 2),  # below
            (cx - row_w / 2, cy - BOX_H / 2 - 36),  # above (clear of the badges)
            (cx + w / 2 + 6, cy - 11),  # right
            (cx - w / 2 - 6 - row_w, cy - 11),  # left
        ]

        def cost(left: float, top: float) -> float:
            right, bottom = left + row_w, top + 22
            total = 0.0
            if left < 0 or top < 0 or right > self.width or bottom > self.height:
                total += 1e6
            for d, (dx, dy) in enumerate(self.centre):
                if d == c:
                    continue
                hw = self.box_w[d] / 2 + 4
                ox = min(right, dx + hw) - max(left, dx - hw)
                oy = min(bottom, dy + BOX_H / 2 + 4) - max(top, dy - BOX_H / 2 - 4)
                if ox > 0 and oy > 0:
                    total += ox * oy
            for px, py in self.posts:
                if left - 8 < px < right + 8 and top - 8 < py < bottom + 8:
                    total += 200
            return total

        left, top = min(candidates, key=lambda xy: cost(*xy))
        return left + 14, top + 11


@cache
def _geometry(board: Board) -> _Geometry:
    return _Geometry(board)


def _colour(p: int, neutral: int = -1) -> tuple[str, str]:
    """(fill, text colour) of colour ``p``; ``neutral`` is the neutral colour's index."""
    if p == neutral:
        return NEUTRAL_COLOUR, "#ffffff"
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)], PLAYER_TEXT[p % len(PLAYER_TEXT)]


def _neutral(state: State | None) -> int:
    """The neutral colour's index (two-player games), else -1."""
    return int(getattr(state, "neutral", -1)) if state is not None else -1


def _who(p: int, neutral: int = -1) -> str:
    return "neutral" if p == neutral else f"seat {p}"


def _piece(occ: int, x: float, y: float, size: float, *, extra_cls: str = "",
           hl: bool = False, title: str = "", neutral: int = -1) -> str:
    """A piece centred at (x, y): trader = square, merchant = circle, in the colour of
    its owner (``neutral``: the neutral colour of a two-player game, drawn grey "N")."""
    p, kind = occ >> 1, occ & 1
    is_neutral = p == neutral
    cls = _cls("piece", ("trader", "merchant")[kind], "neutral" if is_neutral else f"p{p}",
               extra_cls, "hl" if hl else "")
    fill, text_colour = _colour(p, neutral)
    stroke = "#000000" if hl else "#222222"
    sw = "2" if hl else "1"
    h = size / 2
    if kind == 0:
        shape = (f'<rect x="{_n(x - h)}" y="{_n(y - h)}" width="{_n(size)}" '
                 f'height="{_n(size)}" rx="1.5" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{sw}"/>')
    else:
        shape = (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(h)}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="{sw}"/>')
    label = (f'<text x="{_n(x)}" y="{_n(y + size * 0.28)}" font-size="{_n(size * 0.7)}" '
             f'text-anchor="middle" fill="{text_colour}">{"N" if is_neutral else p}</text>')
    tip = _title(title or f"{_who(p, neutral)} {('trader', 'merchant')[kind]}")
    return (f'<g class="{cls}" data-player="{p}" data-piece="{("trader", "merchant")[kind]}">'
            f"{tip}{shape}{label}</g>")


#: Emperor's Favour tiles: short labels (full names in tooltips).
FAVOUR_LABELS = {
    "relocate_anywhere": "Rel",
    "extra_action": "+1A",
    "income_share": "Inc",
    "displaced_two": "D2",
    "control_4": "C4",
    "abilities_7": "A7",
}


def _favour_badge(tile: str, x: float, y: float, *, cls: str = "favour", attrs: str = "") -> str:
    label = FAVOUR_LABELS.get(tile, tile[:3])
    tip = _title("Emperor's Favour: " + FAVOUR_NAMES.get(tile, tile.replace("_", " ")))
    return (f'<g class="{cls}" data-tile="{_t(tile)}"{attrs}>{tip}'
            f'<rect x="{_n(x - 11)}" y="{_n(y - 7)}" width="22" height="14" rx="1" '
            f'fill="#3d3427" stroke="#c9a227" stroke-width="1.5"/>'
            f'<text x="{_n(x)}" y="{_n(y + 3.5)}" font-size="8.5" font-weight="bold" '
            f'text-anchor="middle" fill="#f3d97a">{_t(label)}</text></g>')


def _marker_badge(kind: str, x: float, y: float, *, cls: str, attrs: str = "",
                  permanent: bool = False) -> str:
    label = (PERMANENT_LABELS if permanent else MARKER_LABELS).get(kind, kind[:2])
    name = (PERMANENT_NAMES.get(kind, kind.replace("_", " ")) if permanent
            else MARKER_NAMES.get(kind, kind))
    fill, text, stroke = ("#5b4a2f", "#ffffff", "#2d2416") if permanent else (
        "#fff4c2", "#5b4a2f", "#8a6d1d")
    return (f'<g class="{cls}" data-kind="{_t(kind)}"{attrs}>'
            f"{_title(('printed bonus: ' if permanent else 'bonus marker: ') + name)}"
            f'<rect x="{_n(x - 11)}" y="{_n(y - 7)}" width="22" height="14" rx="4" '
            f'fill="{fill}" stroke="{stroke}"/>'
            f'<text x="{_n(x)}" y="{_n(y + 3.5)}" font-size="9.5" font-weight="bold" '
            f'text-anchor="middle" fill="{text}">{_t(label)}</text></g>')


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
def _route_parts(board: Board, g: _Geometry, r: int, state: State | None,
                 hl_routes: set[int], hl_posts: set[int], hl_player: int | None) -> list[str]:
    """A route as pieces: its line, labels and markers; each post; the closing tag."""
    route = board.routes[r]
    neutral = _neutral(state)
    classes = _cls("route", "tavern" if route.tavern else "",
                   "special-route" if r == board.special_route else "",
                   f"region-{route.region.lower()}" if route.region else "")
    out = [f'<g class="{classes}" data-route="{r}" '
           f'data-cities="{_t(board.route_name(r))}">'
           f'{_title(f"r{r}: {board.route_name(r)}" + (" (tavern)" if route.tavern else ""))}']
    path = g.paths[r]
    if len(path) == 2:
        (x0, y0), (x1, y1) = path
        tag, line = "line", f'x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" y2="{_n(y1)}"'
    else:
        tag = "polyline"
        line = ('points="' + " ".join(f"{_n(x)},{_n(y)}" for x, y in path)
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
    lx, ly = gx - nx * 11, gy - ny * 11
    out.append(f'<text class="route-label" x="{_n(lx)}" y="{_n(ly + 3)}" font-size="8" '
               f'text-anchor="middle" fill="#6b5d45">r{r}</text>')
    off = 14 if n_posts > 1 else 18
    bx, by = gx + nx * off, gy + ny * off
    if route.permanent_marker:
        out.append(_marker_badge(route.permanent_marker, bx, by, cls="marker permanent",
                                 attrs=f' data-route="{r}"', permanent=True))
    if state is not None and state.route_marker[r]:
        m = state.route_marker[r]
        assert m is not None
        off = 24 if route.permanent_marker else 0
        out.append(_marker_badge(m, bx + nx * off, by + ny * off, cls="marker",
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
    g = _geometry(board)
    r = board.post_route[i]
    k = i - board.post_start[r]
    px, py = g.posts[i]
    mo = board.post_merchant_only[i]
    pcls = _cls("post", "merchant-only" if mo else "", "empty" if occ == EMPTY else "")
    post = [f'<g class="{pcls}" data-route="{r}" data-post="{k}" data-index="{i}">']
    if lit:
        post.append(f'<circle class="highlight" data-post-index="{i}" cx="{_n(px)}" '
                    f'cy="{_n(py)}" r="13" fill="{HIGHLIGHT}" opacity="0.8"/>')
    h = POST / 2
    if mo:
        post.append(f'<circle cx="{_n(px)}" cy="{_n(py)}" r="{_n(h)}" fill="#ffffff" '
                    f'stroke="#6b5d45" stroke-width="1.2"/>')
    else:
        post.append(f'<rect x="{_n(px - h)}" y="{_n(py - h)}" width="{POST}" '
                    f'height="{POST}" rx="2" fill="#ffffff" stroke="#6b5d45" '
                    f'stroke-width="1.2"/>')
    if occ != EMPTY:
        post.append(_piece(occ, px, py, 12, hl=hl_piece, neutral=neutral,
                           title=f"r{r}.{k}: {_who(occ >> 1, neutral)} "
                                 f"{('trader', 'merchant')[occ & 1]}"))
    post.append("</g>")
    return "".join(post)


def _office_shape(x: float, y: float, shape: int, colour: int) -> str:
    h = OFFICE / 2
    fill = PRIVILEGE_FILL[colour]
    if shape == 0:
        return (f'<rect x="{_n(x - h)}" y="{_n(y - h)}" width="{OFFICE}" height="{OFFICE}" '
                f'rx="1.5" fill="{fill}" stroke="#444444" stroke-width="1"/>')
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(h)}" fill="{fill}" stroke="#444444" '
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
                     city_controller(state, c), c in hl_cities, hl_player, _neutral(state),
                     special, tuple(state.special_points))


@lru_cache(maxsize=8192)
def _city_svg(board: Board, c: int, occs: tuple[int, ...], extras: tuple[int, ...],
              controller: int, lit: bool, hl_player: int | None, neutral: int,
              special_occ: tuple[int, ...], special_points: tuple[int, ...]) -> str:
    g = _geometry(board)
    city = board.cities[c]
    cx, cy = g.centre[c]
    w = g.box_w[c]
    x0, y0 = cx - w / 2, cy - BOX_H / 2
    n_off = len(city.offices)
    completed = n_off > 0 and all(o != EMPTY for o in occs)
    east_west = c in board.east_west
    special = c == board.special_city
    classes = _cls("city", "completed" if completed else "", "east-west" if east_west else "",
                   "special-city" if special else "", "yellow-green" if city.yellow_green else "")
    tip = [city.name]
    if city.abilities:
        tip.append("develops " + ", ".join(ABILITY_TITLES[ABILITIES[a]] for a in city.abilities))
    if east_west:
        tip.append("East-West city")
    if completed:
        tip.append("completed")
    if controller >= 0:
        tip.append(f"controlled by {_who(controller, neutral)}")
    if city.regions:
        tip.append("region " + "/".join(city.regions))
    out = [f'<g class="{classes}" data-city="{_t(city.name)}" data-index="{c}" '
           f'data-controller="{controller}">{_title("; ".join(tip))}']
    if lit:
        out.append(f'<rect class="highlight" x="{_n(x0 - 7)}" y="{_n(y0 - 7)}" '
                   f'width="{_n(w + 14)}" height="{BOX_H + 14}" rx="9" fill="{HIGHLIGHT}" '
                   f'opacity="0.8"/>')
    if east_west:
        out.append(f'<rect x="{_n(x0 - 4)}" y="{_n(y0 - 4)}" width="{_n(w + 8)}" '
                   f'height="{BOX_H + 8}" rx="8" fill="none" stroke="#7b3294" '
                   f'stroke-width="2" stroke-dasharray="5 3"/>')
    fill = "#efe3c2" if completed else "#fffaf0"
    stroke, sw = ("#8a6d1d", "3") if completed else ("#7a6a50", "1.2")
    if controller >= 0:
        out.append(f'<rect class="control" x="{_n(x0)}" y="{_n(y0 - 3)}" width="{_n(w)}" '
                   f'height="6" rx="3" fill="{_colour(controller, neutral)[0]}"/>')
    out.append(f'<rect class="city-box" x="{_n(x0)}" y="{_n(y0)}" width="{_n(w)}" '
               f'height="{BOX_H}" rx="6" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/>')
    if city.yellow_green:
        out.append(f'<rect x="{_n(x0 + 3)}" y="{_n(y0 + 3)}" width="8" height="8" rx="1" '
                   f'fill="#b5d334" stroke="#6b7f1a"/>')
    out.append(f'<text x="{_n(cx)}" y="{_n(y0 + 12)}" font-size="10.5" font-weight="bold" '
               f'text-anchor="middle" fill="#2b2418">{_t(city.name)}</text>')
    # printed offices left to right
    oy = y0 + 26
    first_x = cx - (n_off - 1) * SLOT / 2
    for k, (colour, shape, coin) in enumerate(city.offices):
        ox = first_x + k * SLOT
        occ = occs[k]
        ocls = _cls("office", ("trader", "merchant")[shape], COLOURS[colour],
                    "occupied" if occ != EMPTY else "")
        otip = (f"office {k}: {COLOURS[colour]} {('trader', 'merchant')[shape]}"
                + (f", {coin} prestige" if coin else "")
                + (f", Kontor of {_who(occ >> 1, neutral)}" if occ != EMPTY else ""))
        out.append(f'<g class="{ocls}" data-city="{_t(city.name)}" data-office="{k}" '
                   f'data-colour="{COLOURS[colour]}" data-shape="{("trader", "merchant")[shape]}"'
                   f' data-coin="{coin}">{_title(otip)}{_office_shape(ox, oy, shape, colour)}')
        if occ != EMPTY:
            out.append(f'<g class="kontor" data-player="{occ >> 1}">'
                       f'{_piece(occ, ox, oy, 10, hl=hl_player == occ >> 1, neutral=neutral)}'
                       "</g>")
        if coin:
            out.append(f'<g class="coin"><circle cx="{_n(ox + 6)}" cy="{_n(oy + 7)}" r="5" '
                       f'fill="#e8c547" stroke="#8a6d1d" stroke-width="0.8"/>'
                       f'<text x="{_n(ox + 6)}" y="{_n(oy + 9.6)}" font-size="7" '
                       f'font-weight="bold" text-anchor="middle" fill="#3b2f0b">{coin}</text></g>')
        out.append("</g>")
    # extra Kontors, left of the printed offices (outside the box); a city without
    # printed offices (East: yellow/green) holds its Kontors inside the box
    for k, occ in enumerate(extras):
        if n_off:
            ex = x0 - 9 - (len(extras) - 1 - k) * 15
        else:
            ex = cx - (len(extras) - 1) * SLOT / 2 + k * SLOT
        out.append(f'<g class="kontor extra" data-player="{occ >> 1}" data-city="{_t(city.name)}"'
                   f' data-extra="{k}">{_title(f"extra Kontor of {_who(occ >> 1, neutral)}")}'
                   f'<rect x="{_n(ex - 7.5)}" y="{_n(oy - 7.5)}" width="15" height="15" rx="3" '
                   f'fill="#fffaf0" stroke="#7a6a50" stroke-dasharray="2 1.5"/>'
                   f'{_piece(occ, ex, oy, 10, hl=hl_player == occ >> 1, neutral=neutral)}</g>')
    # badges above the box: abilities (right), East-West / completed / special (left)
    bx = x0 + w - 8
    for a in city.abilities:
        name = ABILITIES[a]
        out.append(f'<g class="ability" data-ability="{name}">'
                   f"{_title('develops ' + ABILITY_TITLES[name])}"
                   f'<circle cx="{_n(bx)}" cy="{_n(y0 - 2)}" r="7.5" fill="#3d5a80" '
                   f'stroke="#ffffff" stroke-width="1.2"/>'
                   f'<text x="{_n(bx)}" y="{_n(y0 + 1.5)}" font-size="9.5" font-weight="bold" '
                   f'text-anchor="middle" fill="#ffffff">{ABILITY_LABELS[name]}</text></g>')
        bx -= 17
    lx = x0 + 8
    if east_west:
        out.append(f'<g class="badge east-west-badge">{_title("East-West city")}'
                   f'<rect x="{_n(lx - 8)}" y="{_n(y0 - 9)}" width="24" height="13" rx="4" '
                   f'fill="#7b3294"/><text x="{_n(lx + 4)}" y="{_n(y0 + 1)}" font-size="8.5" '
                   f'font-weight="bold" text-anchor="middle" fill="#ffffff">E-W</text></g>')
        lx += 28
    if completed:
        out.append(f'<g class="badge completed-badge">{_title("completed city")}'
                   f'<circle cx="{_n(lx)}" cy="{_n(y0 - 2)}" r="7" fill="#8a6d1d"/>'
                   f'<path d="M{_n(lx - 3.5)} {_n(y0 - 2)} l2.5 3 l4.5 -6" fill="none" '
                   f'stroke="#ffffff" stroke-width="2"/></g>')
    out.append("</g>")
    if special:
        out.append(_special_part(board, g, c, special_occ, special_points, hl_player, neutral))
    return "".join(out)


def _special_part(board: Board, g: _Geometry, c: int, special_occ: tuple[int, ...],
                  points: tuple[int, ...], hl_player: int | None, neutral: int) -> str:
    """The special-prestige spaces, drawn next to the special city."""
    n = len(board.special_spaces)
    pitch = SPECIAL_PITCH
    x_first, y = g.special
    out = [f'<g class="special-spaces" data-city="{_t(board.city_names[c])}">'
           f'<rect x="{_n(x_first - 14)}" y="{_n(y - 11)}" width="{_n((n - 1) * pitch + 28)}" '
           f'height="22" rx="5" fill="#fff4c2" stroke="#8a6d1d"/>']
    for k, (_, colour) in enumerate(board.special_spaces):
        x = x_first + k * pitch
        occ = special_occ[k] if k < len(special_occ) else EMPTY
        out.append(f'<g class="special-space" data-index="{k}" data-points="{points[k]}" '
                   f'data-colour="{COLOURS[colour]}">'
                   f"{_title(f'special prestige {points[k]} ({COLOURS[colour]} privilege)')}"
                   f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8" fill="{PRIVILEGE_FILL[colour]}" '
                   f'stroke="#444444"/>')
        if occ != EMPTY:
            out.append(_piece(occ, x, y, 11, hl=hl_player == occ >> 1,
                              neutral=neutral))
        else:
            out.append(f'<text x="{_n(x)}" y="{_n(y + 3)}" font-size="8.5" font-weight="bold" '
                       f'text-anchor="middle" fill="{PRIVILEGE_TEXT[colour]}">{points[k]}</text>')
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


# --------------------------------------------------------------------------- panels
def _track_row(x: float, y: float, name: str, values: Sequence[Any], level: int,
               colour: str) -> str:
    cell = 22
    out = [f'<g class="track" data-ability="{name}" data-level="{level}" '
           f'data-value="{_t(values[level])}">'
           f"{_title(f'{ABILITY_TITLES[name]}: level {level}, value {values[level]}')}"
           f'<text x="{_n(x)}" y="{_n(y + 9)}" font-size="9.5" fill="#333333">'
           f"{ABILITY_TITLES[name]}</text>"]
    for k, v in enumerate(values):
        cx = x + 54 + k * cell
        current = k == level
        if name == "privilege":
            fill = PRIVILEGE_FILL[k]
            text = "" if not current else "●"
            tcol = PRIVILEGE_TEXT[k]
        else:
            fill = colour if current else ("#e9e4d8" if k < level else "#ffffff")
            text = "all" if v is None else str(v)
            tcol = "#000000" if not current else ("#000000" if colour in ("#F0E442", "#56B4E9")
                                                  else "#ffffff")
        stroke, sw = ("#000000", "2") if current else ("#999999", "0.8")
        out.append(f'<rect class="{_cls("cell", "current" if current else "")}" x="{_n(cx)}" '
                   f'y="{_n(y)}" width="{cell - 2}" height="12" rx="2" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="{sw}"/>'
                   f'<text x="{_n(cx + (cell - 2) / 2)}" y="{_n(y + 9.2)}" font-size="8.5" '
                   f'text-anchor="middle" fill="{tcol}">{_t(text)}</text>')
    out.append("</g>")
    return "".join(out)


def _panel_parts(state: State, p: int, x: float, y: float, breakdown: dict[str, int],
                 name: str | None, highlighted: bool, winner: bool = False) -> list[str]:
    """A player's panel as pieces (so that frames of a game share the unchanged ones)."""
    colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
    total = sum(breakdown.values())
    active = state.current_player == p and not state.is_over
    classes = _cls("panel", f"p{p}", "highlighted" if highlighted else "",
                   "active" if active else "")
    head = f'<g class="{classes}" data-player="{p}" data-prestige="{state.prestige[p]}" ' \
           f'data-projected="{total}">'
    out: list[str] = []
    if highlighted:
        out.append(f'<rect class="highlight" x="{_n(x - 5)}" y="{_n(y - 5)}" '
                   f'width="{PANEL_W + 10}" height="{PANEL_H + 10}" rx="10" fill="{HIGHLIGHT}" '
                   f'opacity="0.8"/>')
    out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{PANEL_W}" height="{PANEL_H}" rx="7" '
               f'fill="#ffffff" stroke="{colour}" stroke-width="{4 if highlighted else 2.5}"/>')
    # header: piece, seat, name, prestige, projected
    out.append(_piece(2 * p, x + 14, y + 14, 14))
    label = f"Seat {p}" + (f" · {name}" if name else "")
    out.append(f'<text x="{_n(x + 27)}" y="{_n(y + 18.5)}" font-size="12.5" font-weight="bold" '
               f'fill="#222222">{_t(label)}</text>')
    out = [head, "".join(out), ""]
    if winner:
        out[-1] = (f'<g class="winner-tag"><rect x="{_n(x + PANEL_W - 70)}" y="{_n(y + 6)}" '
                   f'width="62" height="17" rx="4" fill="#c9a227"/>'
                   f'<text x="{_n(x + PANEL_W - 39)}" y="{_n(y + 18.5)}" font-size="10.5" '
                   f'font-weight="bold" text-anchor="middle" fill="#3d3427">\u2605 winner'
                   f"</text></g>")
    if active:
        out[-1] = (f'<text class="to-act" x="{_n(x + PANEL_W - 8)}" y="{_n(y + 18.5)}" '
                   f'font-size="10.5" font-weight="bold" text-anchor="end" fill="#b03a00">'
                   f"▶ to act · {state.actions_left} left</text>")
    # ability tracks (left column): the game's values (rule options), privilege as printed
    t = state.config.tuning
    pb = {**player_board(), "actions": list(t.actions), "bank": list(t.bank),
          "book": list(t.book), "keys": list(t.keys)}
    ty = y + 30
    for a, ability in enumerate(ABILITIES):
        out.append(_track_row(x + 8, ty + a * 15, ability, pb[ability], state.levels[p][a],
                              colour))
    # supply, stock, markers (right column)
    rx = x + 208
    ry = y + 38
    for k, (label2, n_t, n_m) in enumerate((
        ("supply", state.supply_t[p], state.supply_m[p]),
        ("stock", state.stock_t[p], state.stock_m[p]),
    )):
        yy = ry + k * 17
        out.append(f'<g class="{label2}" data-traders="{n_t}" data-merchants="{n_m}">'
                   f'<text x="{_n(rx)}" y="{_n(yy + 4)}" font-size="9.5" fill="#333333">'
                   f'{"Supply" if k == 0 else "Stock"}</text>'
                   f'{_piece(2 * p, rx + 50, yy, 10)}'
                   f'<text x="{_n(rx + 58)}" y="{_n(yy + 4)}" font-size="10.5" '
                   f'font-weight="bold">{n_t}</text>'
                   f'{_piece(2 * p + 1, rx + 84, yy, 10)}'
                   f'<text x="{_n(rx + 92)}" y="{_n(yy + 4)}" font-size="10.5" '
                   f'font-weight="bold">{n_m}</text></g>')
    my = ry + 34
    favours = state.favours[p] if getattr(state, "favours", ()) else ()
    label3 = "Markers (faded: used)" + (" · favours" if favours else "")
    markers = [f'<g class="markers"><text x="{_n(rx)}" y="{_n(my + 3)}" font-size="8.5" '
               f'fill="#333333">{label3}</text>']
    held: list[tuple[str, str]] = [(m, "held") for m in state.markers[p]]
    held += [(m, "used") for m in state.markers_used[p]]
    held += [(f, "favour") for f in favours]
    for k, (m, how) in enumerate(held):
        mx = rx + 11 + (k % 5) * 24
        yy = my + 15 + (k // 5) * 16
        if how == "favour":
            markers.append(_favour_badge(m, mx, yy, attrs=f' data-player="{p}"'))
            continue
        badge = _marker_badge(m, mx, yy, cls=f"marker {how}", attrs=f' data-player="{p}"')
        if how == "used":
            badge = f'<g opacity="0.4">{badge}</g>'
        markers.append(badge)
    out.append("".join(markers) + "</g>")
    # prestige track and projected final score (bottom)
    limit = int(state.config.option("prestige_to_end"))
    cells = max(limit, state.prestige[p])
    py = y + PANEL_H - 44
    track = [f'<g class="prestige-track" data-prestige="{state.prestige[p]}" '
             f'data-limit="{limit}">{_title(f"prestige {state.prestige[p]} of {limit}")}'
             f'<text x="{_n(x + 8)}" y="{_n(py + 9)}" font-size="9.5" fill="#333333">'
             f"Prestige</text>"]
    cw = min(12.0, (PANEL_W - 96) / (cells + 1))
    for k in range(cells + 1):
        fill = colour if k <= state.prestige[p] and state.prestige[p] > 0 and k > 0 else (
            "#ffffff")
        stroke = "#b03a00" if k == limit else ("#555555" if k % 5 == 0 else "#aaaaaa")
        track.append(f'<rect x="{_n(x + 56 + k * cw)}" y="{_n(py + 1)}" '
                     f'width="{_n(cw - 1)}" height="10" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="{"1.2" if k % 5 == 0 else "0.6"}"/>')
    track.append(f'<text x="{_n(x + PANEL_W - 8)}" y="{_n(py + 10)}" font-size="11" '
                 f'font-weight="bold" text-anchor="end">{state.prestige[p]}</text></g>')
    out.append("".join(track))
    special = state.board.city_names[state.board.special_city]
    words = {**_SHORT, "special": special}
    parts = " + ".join(f"{breakdown[c]} {words.get(c, c)}" for c in CATEGORIES
                       if breakdown.get(c))
    over = state.is_over
    label = "Final score" if over else "If it ended now"
    tip = (("final score: " if over else "final score if the game ended now: ")
           + ", ".join(f"{words.get(c, c)} {v}" for c, v in breakdown.items()))
    fit = ' textLength="196" lengthAdjust="spacingAndGlyphs"' if len(parts) > 40 else ""
    out.append(f'<g class="{"final" if over else "projected"}" data-total="{total}">'
               f"{_title(tip)}"
               f'<text x="{_n(x + 8)}" y="{_n(py + 30)}" font-size="11" font-weight="bold" '
               f'fill="#222222">{label} {total}</text>'
               f'<text x="{_n(x + 136)}" y="{_n(py + 30)}" font-size="8.5" fill="#555555"{fit}>'
               f"{'= ' + _t(parts) if parts else ''}</text></g>")
    out.append("</g>")
    return out


#: Score categories in the panel's sum (the special one is named by the board's city).
_SHORT = {"track": "prestige", "abilities": "abilities", "markers": "markers",
          "control": "control", "network": "network", "regions": "regions"}


def _east_west_part(board: Board, state: State, x: float, y: float) -> str:
    a, b = (board.city_names[c] for c in board.east_west)
    awards = state.config.tuning.east_west_points  # the board's, or a rule option's
    points = ", ".join(map(str, awards))
    tip = f"East-West connection {a}–{b}: the first, second, third to connect score {points}"
    out = [f'<g class="east-west-track" data-connected="{",".join(map(str, state.east_west))}">'
           f"{_title(tip)}"
           f'<text x="{_n(x)}" y="{_n(y + 4)}" font-size="10" fill="#7b3294" font-weight="bold">'
           f"East–West {_t(a)}–{_t(b)}</text>"]
    for k, pts in enumerate(awards):
        sx = x + 190 + k * 34
        out.append(f'<rect x="{_n(sx - 12)}" y="{_n(y - 8)}" width="24" height="16" rx="4" '
                   f'fill="#f1e6f7" stroke="#7b3294"/>')
        if k < len(state.east_west):
            out.append(_piece(2 * state.east_west[k], sx, y, 11))
        else:
            out.append(f'<text x="{_n(sx)}" y="{_n(y + 3.5)}" font-size="9.5" '
                       f'text-anchor="middle" fill="#7b3294">{pts}</text>')
    out.append("</g>")
    return "".join(out)


def _side_extras_part(state: State, x: float, y: float) -> str:
    """Under the panels: the Emperor's Favour tiles on display and the neutral colour's
    pool (two players), when the game has them."""
    out = ['<g class="side-extras">']
    display = getattr(state, "favour_display", ())
    if display:
        out.append(f'<g class="favour-display"><text x="{_n(x)}" y="{_n(y + 4)}" '
                   f'font-size="10" font-weight="bold" fill="#3d3427">Emperor\'s Favour</text>')
        for k, tile in enumerate(display):
            out.append(_favour_badge(tile, x + 120 + k * 26, y, cls="favour available"))
        out.append("</g>")
        y += 22
    pool = getattr(state, "neutral_pool", -1)
    if pool >= 0:
        out.append(f'<g class="neutral-pool" data-traders="{pool}">'
                   f"{_piece(2 * _neutral(state), x + 5, y, 11, neutral=_neutral(state))}"
                   f'<text x="{_n(x + 16)}" y="{_n(y + 4)}" font-size="10" fill="#333333">'
                   f"neutral colour: {pool} traders in its pool</text></g>")
    out.append("</g>")
    return "".join(out)


# --------------------------------------------------------------------------- entry points
def _open_svg(width_px: float, height_px: float, width: int | None, attrs: str) -> str:
    if width is not None:
        w, h = width, round(width * height_px / width_px)
    else:
        w, h = int(width_px), int(height_px)
    # max-width: a picture never runs out of a narrower container (a notebook's output
    # area, a page); it shrinks to the container's width, its height following
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="hansa-board" width="{w}" '
            f'height="{h}" style="max-width:100%;height:auto" '
            f'viewBox="0 0 {_n(width_px)} {_n(height_px)}" font-family="{FONT}"{attrs}>')


def _board_parts(board: Board, state: State | None, hl_action: Action | None,
                 hl_player: int | None) -> list[str]:
    g = _geometry(board)
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


def fluid_svg(svg: str) -> str:
    """The picture scaled to the width of its container (its height follows), for
    pages and widgets that should use the available width."""
    head, sep, rest = svg.partition(">")
    head = re.sub(r' width="[^"]*" height="[^"]*"( style="[^"]*")?', ' width="100%" '
                  'style="height:auto;display:block"', head, count=1)
    return head + sep + rest


def render_board_parts(board: Board) -> list[str]:
    """The pieces of :func:`render_board_svg` (joined, they are its output)."""
    g = _geometry(board)
    legend, legend_h = legend_svg(board, None, 0, HEADER + g.height + 8, g.width)
    height = HEADER + g.height + legend_h + 12
    head = (f'<g class="header"><rect x="0" y="0" width="{g.width}" height="{HEADER}" '
            f'fill="#3d3427"/><text x="12" y="36" font-size="16" font-weight="bold" '
            f'fill="#ffffff">{_t(board.title)} — {_t(board.name)}</text></g>')
    return [_open_svg(g.width, height, None, f' data-board="{board.name}"'),
            f'<rect class="background" x="0" y="0" width="{g.width}" height="{height}" '
            f'fill="#f7f3ea"/>', head, *_board_parts(board, None, None, None), legend,
            "</svg>"]


def render_board_svg(board: Board, *, width: int | None = None) -> str:
    """The empty board of a side as SVG (any of the five sides, playable or not), with
    its legend below.

    >>> from hansa_lab.engine.board import load_board
    >>> svg = render_board_svg(load_board("britannia_45p"), width=600)
    >>> svg.count('<g class="city') == load_board("britannia_45p").n_cities
    True
    """
    parts = render_board_parts(board)
    if width is not None:
        vb = parts[0].split('viewBox="')[1].split('"')[0].split()
        parts[0] = _open_svg(float(vb[2]), float(vb[3]), width, f' data-board="{board.name}"')
    return "".join(parts)


def status_text(state: State) -> str:
    """One line: round, turn, who acts, completed cities, bag — or how the game ended."""
    head = f"Round {state.round} · turn {state.turn} · {state.n_actions} actions"
    if state.is_over:
        reason = state.end_reason or "cap"
        who = f"game over: {END_REASONS.get(reason, reason)}"
    else:
        who = f"seat {state.current_player} to act"
        if state.pending:
            kind = state.pending[-1].KIND
            who += f" ({_PENDING.get(kind, kind.replace('_', ' '))})"
        else:
            who += f", {state.actions_left} action{'s' if state.actions_left != 1 else ''} left"
    to_end = state.config.tuning.cities_to_end  # the board's, or a rule option's
    return (f"{head} · {who} · completed cities {state.completed}/{to_end}"
            f" · bonus markers in the bag {len(state.bag)}")


#: What a seat is deciding, by pending decision kind, for the status line.
_PENDING = {
    "relocate": "placing displaced pieces",
    "relocate_neutral": "placing the neutral colour's displaced piece",
    "move": "moving pieces",
    "move3": "moving opponents' pieces",
    "remove3": "removing opponents' pieces",
    "place_marker": "placing a new bonus marker",
    "permanent": "using a printed bonus",
    "favour_income": "income share",
}


# --------------------------------------------------------------------------- legend
def _legend_items(board: Board, state: State | None) -> list[tuple[str, str, str]]:
    """(symbol key, SVG of the symbol centred at 0,0, explanation) of every kind of mark
    the picture can show on this board (and, given a state, for its markers)."""
    items: list[tuple[str, str, str]] = []

    def add(key: str, svg: str, text: str) -> None:
        items.append((key, svg, text))

    seat1 = _colour(1)[0]
    add("trader", _piece(0, 0, 0, 12, title="trader"),
        "trader (square; colour and digit: its seat)")
    add("merchant", _piece(3, 0, 0, 12, title="merchant"), "merchant (circle)")
    add("post", '<rect x="-7" y="-7" width="14" height="14" rx="2" fill="#ffffff" '
        'stroke="#6b5d45" stroke-width="1.2"/>', "post on a route (any piece)")
    if any(board.post_merchant_only):
        add("merchant-only", '<circle r="7" fill="#ffffff" stroke="#6b5d45" '
            'stroke-width="1.2"/>', "round post: merchants only")
    add("office", _office_shape(-6, 0, 0, 0) + _office_shape(10, 0, 1, 0),
        "office for a trader (square) or merchant (round)")
    add("privilege", "".join(_office_shape(-13.5 + 9 * k, 0, 0, k) for k in range(4)),
        "office colour: Privilege level needed")
    add("coin", '<circle r="5" fill="#e8c547" stroke="#8a6d1d" stroke-width="0.8"/>'
        '<text y="2.6" font-size="7" font-weight="bold" text-anchor="middle" '
        'fill="#3b2f0b">1</text>', "prestige for the Kontor on this office")
    add("kontor", _office_shape(0, 0, 0, 0) + _piece(0, 0, 0, 10), "Kontor (piece on an office)")
    add("extra-kontor", '<rect x="-7.5" y="-7.5" width="15" height="15" rx="3" '
        'fill="#fffaf0" stroke="#7a6a50" stroke-dasharray="2 1.5"/>' + _piece(0, 0, 0, 10),
        "extra Kontor (left of the offices)")
    add("control", f'<rect x="-15" y="-3" width="30" height="6" rx="3" fill="{seat1}"/>',
        "stripe over a city: the seat controlling it")
    add("completed", '<circle r="7" fill="#8a6d1d"/><path d="M-3.5 0 l2.5 3 l4.5 -6" '
        'fill="none" stroke="#ffffff" stroke-width="2"/>', "completed city (all offices full)")
    for name in ABILITIES:
        if any(ABILITIES.index(name) in c.abilities for c in board.cities):
            add(f"ability-{name}", f'<circle r="7.5" fill="#3d5a80" stroke="#ffffff" '
                f'stroke-width="1.2"/><text y="3.5" font-size="9.5" font-weight="bold" '
                f'text-anchor="middle" fill="#ffffff">{ABILITY_LABELS[name]}</text>',
                f"establishing here may develop {ABILITY_TITLES[name]}")
    add("east-west", '<rect x="-12" y="-6.5" width="24" height="13" rx="4" fill="#7b3294"/>'
        '<text y="3" font-size="8.5" font-weight="bold" text-anchor="middle" '
        'fill="#ffffff">E-W</text>', "East–West city (connect both: 7/4/2 prestige)")
    if board.special_route >= 0:
        add("special-route", '<line x1="-15" y1="0" x2="15" y2="0" stroke="#c9a227" '
            f'stroke-width="11" opacity="0.55"/><line x1="-15" y1="0" x2="15" y2="0" '
            f'stroke="{ROAD}" stroke-width="4"/>',
            f"route to {board.city_names[board.special_city]}: special prestige spaces")
    if board.special_spaces:
        where = board.city_names[board.special_city]
        add("special-spaces", '<rect x="-20" y="-9" width="40" height="18" rx="5" '
            'fill="#fff4c2" stroke="#8a6d1d"/><circle cx="-8" r="6.5" fill="#fbfbf7" '
            'stroke="#444444"/><text x="-8" y="3" font-size="7.5" font-weight="bold" '
            'text-anchor="middle">7</text><circle cx="8" r="6.5" fill="#f6b26b" '
            'stroke="#444444"/><text x="8" y="3" font-size="7.5" font-weight="bold" '
            'text-anchor="middle">8</text>',
            f"{where}'s special prestige spaces (points)")
    add("route-label", '<text y="3" font-size="9" text-anchor="middle" '
        'fill="#6b5d45">r5</text>', "route number (as in the action codes: r5)")
    if any(r.region for r in board.routes):
        add("region-route", '<line x1="-15" y1="0" x2="15" y2="0" stroke="#6f8f4e" '
            'stroke-width="4" stroke-dasharray="6 3"/>', "route in Wales or Scotland")
    if any(c.yellow_green for c in board.cities):
        add("yellow-green", '<rect x="-4" y="-4" width="8" height="8" rx="1" fill="#b5d334" '
            'stroke="#6b7f1a"/>', "yellow/green city (Kontors without offices)")
    for kind in MARKER_NAMES:
        add(f"marker-{kind}", _marker_badge(kind, 0, 0, cls="legend-marker"),
            f"bonus marker: {MARKER_NAMES[kind]}")
    for kind in sorted({r.permanent_marker for r in board.routes if r.permanent_marker}):
        add(f"permanent-{kind}", _marker_badge(kind, 0, 0, cls="legend-marker",
                                               permanent=True),
            f"printed bonus: {PERMANENT_NAMES.get(kind, kind)}")
    favours = sorted({*getattr(state, "favour_display", ()),
                      *(f for held in getattr(state, "favours", ()) for f in held)})
    for tile in favours:
        add(f"favour-{tile}", _favour_badge(tile, 0, 0, cls="legend-favour"),
            f"Emperor's Favour: {FAVOUR_NAMES.get(tile, tile)}")
    add("highlight", f'<rect x="-14" y="-8" width="28" height="16" rx="6" fill="{HIGHLIGHT}" '
        f'opacity="0.75"/>', "glow: what the last action touched")
    add("seat-outline", _piece(0, 0, 0, 12, hl=True) + "",
        "thick outline: the chosen seat's pieces")
    return items


def legend_svg(board: Board, state: State | None, x: float, y: float, width: float,
               ) -> tuple[str, int]:
    """The legend of every symbol (``g.legend``, one ``g.legend-item[data-symbol]`` per
    symbol) laid out in columns from (x, y) over ``width`` pixels; returns it and its
    height."""
    items = _legend_items(board, state)
    col_w = 300
    cols = max(1, int((width - 16) // col_w))
    rows = -(-len(items) // cols)
    row_h = 21
    height = 26 + rows * row_h
    out = [f'<g class="legend" transform="translate({_n(x)},{_n(y)})">'
           f'<rect x="4" y="0" width="{_n(width - 8)}" height="{height}" rx="6" '
           f'fill="#ffffff" stroke="#c9bfa8"/>'
           f'<text x="14" y="16" font-size="11.5" font-weight="bold" fill="#3d3427">Legend'
           f"</text>"]
    for k, (key, symbol, text) in enumerate(items):
        col, row = divmod(k, rows)
        sx, sy = 14 + col * col_w + 22, 26 + row * row_h + row_h / 2
        out.append(f'<g class="legend-item" data-symbol="{_t(key)}">'
                   f'<g transform="translate({_n(sx)},{_n(sy)})">{symbol}</g>'
                   f'<text x="{_n(sx + 30)}" y="{_n(sy + 3.5)}" font-size="10" '
                   f'fill="#333333">{_t(text)}</text></g>')
    out.append("</g>")
    return "".join(out), height


def render_parts(
    state: State,
    *,
    highlight_action: Action | None = None,
    highlight_player: int | None = None,
    width: int | None = None,
    player_names: Sequence[str] | None = None,
    caption: str | None = None,
    legend: bool = True,
    side: bool = True,
) -> list[str]:
    """The pieces of :func:`render_svg` (``"".join(...)`` of them is its output).

    Pieces are whole elements (a route, a city, a panel …), so frames of a game share
    most of them — :mod:`hansa_lab.viz.export` stores each distinct piece once."""
    board = state.board
    g = _geometry(board)
    n = state.n_players
    panels_h = PANEL_GAP + n * (PANEL_H + PANEL_GAP) + 60
    total_w = g.width + (PANEL_W + 2 * 14 if side else 0)
    body_h = HEADER + (max(g.height, panels_h) if side else g.height)
    legend_part, legend_h = (legend_svg(board, state, 0, body_h + 6, total_w) if legend
                             else ("", 0))
    total_h = body_h + (legend_h + 12 if legend else 0)
    attrs = (f' data-board="{board.name}" data-actions="{state.n_actions}" '
             f'data-turn="{state.turn}" data-round="{state.round}"'
             f' data-current="{-1 if state.is_over else state.current_player}"')
    parts = [_open_svg(total_w, total_h, width, attrs)]
    parts.append(f'<rect class="background" x="0" y="0" width="{total_w}" height="{total_h}" '
                 f'fill="#f7f3ea"/>')
    if caption is None and highlight_action is not None:
        caption = "Last action: " + describe_action(board, highlight_action, None, None)
    cfg = state.config
    title = (f"{board.title} · {n} players · {cfg.edition} bonus markers · "
             f"seed {cfg.seed}")
    head = [f'<g class="header"><rect x="0" y="0" width="{total_w}" height="{HEADER}" '
            f'fill="#3d3427"/><text x="12" y="18" font-size="14" font-weight="bold" '
            f'fill="#ffffff">{_t(title)}</text>',
            f'<text class="status" x="12" y="36" font-size="11.5" fill="#f3e7c9">'
            f"{_t(status_text(state))}</text>", ""]
    if caption:
        head[-1] = (f'<text class="caption" x="12" y="54" font-size="12" '
                    f'font-weight="bold" fill="#ffd9fb">{_t(caption)}</text>')
    head.append("</g>")
    parts.extend(head)
    parts.extend(_board_parts(board, state, highlight_action, highlight_player))
    if side:
        parts.extend(_side_parts(state, g.width + 14, HEADER, highlight_player, player_names))
    parts.append(legend_part)
    parts.append("</svg>")
    return parts


def _side_parts(state: State, px: float, y: float, highlight_player: int | None,
                player_names: Sequence[str] | None) -> list[str]:
    """The winner banner (at the end), a panel per player, the East–West track and the
    side extras, in a column from (px, y)."""
    bd = score_breakdown(state)
    won = set(winners(state)) if state.is_over else set()
    parts = []
    if won:
        parts.append(_winner_banner(state, won, bd, player_names, px, y + PANEL_GAP))
    top = y + PANEL_GAP + (BANNER_H + PANEL_GAP if won else 0)
    for p in range(state.n_players):
        name = player_names[p] if player_names is not None and p < len(player_names) else None
        py = top + p * (PANEL_H + PANEL_GAP)
        parts.extend(_panel_parts(state, p, px, py, bd[p], name, highlight_player == p,
                                  p in won))
    ey = top + state.n_players * (PANEL_H + PANEL_GAP) + 12
    parts.append(_east_west_part(state.board, state, px + 6, ey))
    parts.append(_side_extras_part(state, px + 6, ey + 26))
    return parts


def render_side_svg(state: State, *, highlight_player: int | None = None,
                    player_names: Sequence[str] | None = None) -> str:
    """The player column of :func:`render_svg` on its own (winner banner, a panel per
    player, East–West track, side extras), for layouts that put it beside or below a
    board drawn with ``side=False``.

    >>> from hansa_lab.engine.state import GameConfig, new_game
    >>> svg = render_side_svg(new_game(GameConfig(n_players=3, seed=1)))
    >>> svg.count('class="panel') >= 3 and 'class="route' not in svg
    True
    """
    n = state.n_players
    banner = BANNER_H + PANEL_GAP if state.is_over else 0
    height = PANEL_GAP + banner + n * (PANEL_H + PANEL_GAP) + 70
    width = PANEL_W + 2 * 14
    attrs = (f' data-actions="{state.n_actions}" data-turn="{state.turn}"'
             f' data-current="{-1 if state.is_over else state.current_player}"')
    head = _open_svg(width, height, None, attrs).replace('class="hansa-board"',
                                                         'class="hansa-side"')
    return "".join([head, f'<rect class="background" x="0" y="0" width="{width}" '
                          f'height="{height}" fill="#f7f3ea"/>',
                    *_side_parts(state, 14, 0, highlight_player, player_names), "</svg>"])


BANNER_H = 40


def _winner_banner(state: State, won: set[int], bd: list[dict[str, int]],
                   names: Sequence[str] | None, x: float, y: float) -> str:
    """At the game's end, above the panels: who won, with what final score."""
    who = []
    for p in sorted(won):
        name = names[p] if names is not None and p < len(names) and names[p] else ""
        who.append(f"Seat {p}" + (f" ({name})" if name else ""))
    total = sum(bd[min(won)].values())
    verb = "wins" if len(who) == 1 else "share the win"
    text = f"{' and '.join(who)} {verb} with {total} points"
    return (f'<g class="winner-banner" data-winners="{",".join(map(str, sorted(won)))}">'
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{PANEL_W}" height="{BANNER_H}" rx="7" '
            f'fill="#3d3427" stroke="#c9a227" stroke-width="2.5"/>'
            f'<text x="{_n(x + 12)}" y="{_n(y + 16)}" font-size="10.5" fill="#f3d97a">'
            f"GAME OVER · FINAL SCORE</text>"
            f'<text x="{_n(x + 12)}" y="{_n(y + 32)}" font-size="13" font-weight="bold" '
            f'fill="#ffffff">\u2605 {_t(text)}</text></g>')


def render_svg(
    state: State,
    *,
    highlight_action: Action | None = None,
    highlight_player: int | None = None,
    width: int | None = None,
    player_names: Sequence[str] | None = None,
    caption: str | None = None,
    legend: bool = True,
    side: bool = True,
) -> str:
    """A state as an SVG string: the board, a panel per player (at the end of the game,
    a winner banner above them) and a legend of every symbol below (``legend=False``:
    none; ``side=False``: no player panels, see :func:`render_side_svg`).

    ``highlight_action`` marks what an action touched (its route, posts or cities) and
    shows its text in the status bar (``caption`` overrides the text);
    ``highlight_player`` marks a seat's panel and pieces; ``width`` scales the picture
    (pixels; the height follows); ``player_names`` label the panels (e.g. strategies).

    >>> from hansa_lab.engine.actions import Action
    >>> from hansa_lab.engine.rules import apply
    >>> from hansa_lab.engine.state import GameConfig, new_game
    >>> s = apply(new_game(GameConfig(n_players=3, seed=1)), Action("place", 0, 0))
    >>> svg = render_svg(s, highlight_action=Action("place", 0, 0), highlight_player=0)
    >>> svg.count('class="piece trader p0 hl"') >= 1, 'class="highlight"' in svg
    (True, True)
    """
    return "".join(render_parts(state, highlight_action=highlight_action,
                                highlight_player=highlight_player, width=width,
                                player_names=player_names, caption=caption,
                                legend=legend, side=side))


__all__ = [
    "PLAYER_COLOURS",
    "board_layout",
    "fluid_svg",
    "legend_svg",
    "render_board_svg",
    "render_parts",
    "render_side_svg",
    "render_svg",
    "status_text",
]
