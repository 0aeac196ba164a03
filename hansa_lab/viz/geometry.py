"""Where things are drawn: the cities' positions of ``data/layout.json``, city box sizes,
the routes' paths around the boxes, the points of posts along a route and the anchors of
special spaces."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any

from hansa_lab.engine.board import Board
from hansa_lab.viz.svg_pieces import (
    BADGE_ROOM,
    BOX_H,
    MIN_BOX_W,
    ROUTE_CLEARANCE,
    SLOT,
    SPECIAL_PITCH,
)

_LAYOUT_KEYS = {"east": "east_expansion"}


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


class Geometry:
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
def board_geometry(board: Board) -> Geometry:
    return Geometry(board)
