"""The dense action index: every action of a board side as one integer in ``[0, size)``.

Learning agents choose among integers; :class:`ActionIndex` maps each
:class:`~hansa_lab.engine.actions.Action` of a board side to one integer and back, the same
way as the compiled core (``core/src/env/action_index.rs``). The index depends only on
the board side (every player count, edition and rule option of the side shares it): each
action kind owns one contiguous range, in :data:`~hansa_lab.engine.actions.ACTION_KINDS`
order, laid out as :data:`LAYOUT` says (``P`` posts, ``R`` routes, ``C`` cities, ``O``
offices, ``S`` special-prestige spaces of the board).

>>> from hansa_lab.engine.board import load_board
>>> index = ActionIndex(load_board("base_3p"))
>>> i = index.index(Action("place", 5, 1))
>>> i, index.action(i)
(151, Action.of('place', route=5, piece=1))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hansa_lab.engine.actions import (
    ACTION_KINDS,
    DEVELOP,
    EXTRA,
    KONTOR,
    M_DEVELOP,
    M_SWAP,
    MARKER_KINDS,
    NONE,
    SPECIAL,
    USABLE_MARKERS,
    Action,
)
from hansa_lab.engine.board import ABILITIES, Board
from hansa_lab.engine.limits import as_int
from hansa_lab.engine.state import FAVOUR_TILES

#: traders 0-27 and merchants 0-4 of an Income (a player owns 27 traders, 4 merchants)
INCOME_TRADERS = 28
INCOME_MERCHANTS = 5
#: merchants paid for a displacement: 0-2 (a displaced merchant costs 2 pieces)
PAY_CHOICES = 3
N_ABILITIES = len(ABILITIES)
N_MARKER_KINDS = len(MARKER_KINDS)
#: unordered pairs (with repeats) of marker kinds turned face down for a favour tile
N_MARKER_PAIRS = N_MARKER_KINDS * (N_MARKER_KINDS + 1) // 2

#: how each kind's range is laid out (the documentation's table is built from it)
LAYOUT: dict[str, str] = {
    "income": "merchants * 28 + traders (traders 0-27, merchants 0-4): 140",
    "place": "route * 2 + piece: 2R",
    "displace": "(post * 2 + piece) * 3 + pay_merchants: 6P",
    "move": "1",
    "establish": "route * (12 + S) + [none 0 | kontor 1 + end (0-1) | extra 3 + end * 2 + "
                 "piece | develop 7 + ability | special 12 + space]: R(12 + S)",
    "marker": "plus3 0 | plus4 1 | develop 2 + ability | swap 7 + office | move3 7 + O | "
              "remove3 8 + O: 9 + O",
    "favour": "tile * 28 + pair(marker_1 <= marker_2) (pairs of the 7 marker kinds, "
              "row by row): 168",
    "end": "1",
    "move_piece": "post * R + route: PR",
    "swap": "pair(post < other_post), row by row: P(P - 1)/2",
    "shift": "post * R + route: PR",
    "remove": "post: P",
    "stop": "1",
    "relocate": "route: R",
    "relocate_extra": "route * (2 + P) + [piece | 2 + from_post]: R(2 + P)",
    "decline": "1",
    "place_marker": "route: R",
    "favour_take": "piece: 2",
    "perm_move": "post * R + route: PR",
    "perm_swap": "pair(post < other_post), row by row: P(P - 1)/2",
    "perm_develop": "ability: 5",
    "perm_kontor": "city * 2 + piece: 2C",
    "perm_place": "route * (2 + P) + [piece | 2 + from_post]: R(2 + P)",
}


@dataclass(frozen=True)
class KindRange:
    """The integers ``[start, start + size)`` of one action kind."""

    kind: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        return self.start + self.size


def _pair(x: int, y: int, n: int) -> int:
    """Index of ``x < y`` among the pairs of ``range(n)``, row by row."""
    return x * (2 * n - x - 1) // 2 + (y - x - 1)


def _unpair(i: int, n: int) -> tuple[int, int]:
    x = 0
    while i >= n - 1 - x:
        i -= n - 1 - x
        x += 1
    return x, x + 1 + i


def _pair_eq(x: int, y: int, n: int) -> int:
    """Index of ``x <= y`` among the pairs with repeats of ``range(n)``, row by row."""
    return x * (2 * n - x + 1) // 2 + (y - x)


def _unpair_eq(i: int, n: int) -> tuple[int, int]:
    x = 0
    while i >= n - x:
        i -= n - x
        x += 1
    return x, x + i


class ActionIndex:
    """The dense integer index of every action on one board side.

    ``index(action)`` and ``action(i)`` are inverse; a ValueError names the action or the
    integer that has no place in the index.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        p, r, c, o = board.n_posts, board.n_routes, board.n_cities, board.n_offices
        self.n_posts, self.n_routes, self.n_offices = p, r, o
        self.n_special = len(board.special_spaces)
        self.establish_stride = 12 + self.n_special
        sizes = {
            "income": INCOME_TRADERS * INCOME_MERCHANTS,
            "place": 2 * r,
            "displace": 2 * PAY_CHOICES * p,
            "move": 1,
            "establish": r * self.establish_stride,
            "marker": 9 + o,
            "favour": len(FAVOUR_TILES) * N_MARKER_PAIRS,
            "end": 1,
            "move_piece": p * r,
            "swap": p * (p - 1) // 2,
            "shift": p * r,
            "remove": p,
            "stop": 1,
            "relocate": r,
            "relocate_extra": r * (2 + p),
            "decline": 1,
            "place_marker": r,
            "favour_take": 2,
            "perm_move": p * r,
            "perm_swap": p * (p - 1) // 2,
            "perm_develop": N_ABILITIES,
            "perm_kontor": 2 * c,
            "perm_place": r * (2 + p),
        }
        ranges: list[KindRange] = []
        start = 0
        for kind in ACTION_KINDS:
            ranges.append(KindRange(kind, start, sizes[kind]))
            start += sizes[kind]
        self.ranges: tuple[KindRange, ...] = tuple(ranges)
        self.start = {kr.kind: kr.start for kr in ranges}
        self.size = start

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<ActionIndex {self.board.name}: {self.size} actions>"

    # ------------------------------------------------------------------ action -> int
    def index(self, action: Action) -> int:
        """The integer of ``action``; ValueError if it has no place on this board."""
        offset = self._offset(action)
        if offset is None:
            raise ValueError(f"action {action!r} has no index on board {self.board.name} "
                             "(an argument is out of range)")
        return self.start[action.kind] + offset

    def _offset(self, act: Action) -> int | None:
        k, a, b, c = act
        p, r = self.n_posts, self.n_routes

        def within(*pairs: tuple[int, int]) -> bool:
            return all(0 <= v < n for v, n in pairs)

        if k in ("move", "end", "stop", "decline"):
            return 0
        if k == "income":
            return b * INCOME_TRADERS + a if within((a, INCOME_TRADERS),
                                                    (b, INCOME_MERCHANTS)) else None
        if k == "place":
            return a * 2 + b if within((a, r), (b, 2)) else None
        if k == "displace":
            return (a * 2 + b) * PAY_CHOICES + c if within((a, p), (b, 2),
                                                            (c, PAY_CHOICES)) else None
        if k == "establish":
            return self._establish_offset(a, b, c)
        if k == "marker":
            return self._marker_offset(a, b)
        if k == "favour":
            if not within((a, len(FAVOUR_TILES)), (b, N_MARKER_KINDS), (c, N_MARKER_KINDS)) \
                    or b > c:
                return None
            return a * N_MARKER_PAIRS + _pair_eq(b, c, N_MARKER_KINDS)
        if k in ("move_piece", "shift", "perm_move"):
            return a * r + b if within((a, p), (b, r)) else None
        if k in ("swap", "perm_swap"):
            return _pair(a, b, p) if within((a, p), (b, p)) and a < b else None
        if k == "remove":
            return a if within((a, p)) else None
        if k in ("relocate", "place_marker"):
            return a if within((a, r)) else None
        if k in ("relocate_extra", "perm_place"):
            if not within((a, r)):
                return None
            if c >= 0:
                return a * (2 + p) + 2 + c if c < p and b == -1 else None
            return a * (2 + p) + b if within((b, 2)) else None
        if k == "favour_take":
            return a if within((a, 2)) else None
        if k == "perm_develop":
            return a if within((a, N_ABILITIES)) else None
        if k == "perm_kontor":
            return a * 2 + b if within((a, self.board.n_cities), (b, 2)) else None
        return None

    def _establish_offset(self, route: int, reward: int, arg: int) -> int | None:
        if not 0 <= route < self.n_routes:
            return None
        base = route * self.establish_stride
        if reward == NONE:
            return base
        if reward == KONTOR and 0 <= arg < 2:
            return base + 1 + arg
        if reward == EXTRA and 0 <= arg < 4:
            return base + 3 + arg
        if reward == DEVELOP and 0 <= arg < N_ABILITIES:
            return base + 7 + arg
        if reward == SPECIAL and 0 <= arg < self.n_special:
            return base + 12 + arg
        return None

    def _marker_offset(self, marker: int, arg: int) -> int | None:
        o = self.n_offices
        if not 0 <= marker < len(USABLE_MARKERS):
            return None
        if marker == M_DEVELOP:
            return 2 + arg if 0 <= arg < N_ABILITIES else None
        if marker == M_SWAP:
            return 7 + arg if 0 <= arg < o else None
        if arg != -1:
            return None
        return {0: 0, 1: 1, 4: 7 + o, 5: 8 + o}[marker]

    # ------------------------------------------------------------------ int -> action
    def kind_of(self, i: int) -> KindRange:
        """The range holding integer ``i``; ValueError outside ``[0, size)``."""
        if not 0 <= i < self.size:
            raise ValueError(f"action index {i} is outside [0, {self.size}) "
                             f"on board {self.board.name}")
        for kr in self.ranges:
            if i < kr.stop:
                return kr
        raise AssertionError("unreachable")  # pragma: no cover

    def action(self, i: int) -> Action:
        """The action of integer ``i`` (inverse of :meth:`index`)."""
        integer = as_int(i)  # numpy integers too; not a bool, not a float such as 1.9
        if integer is None:
            raise ValueError(f"an action index is an integer, got {i!r}")
        i = integer
        kr = self.kind_of(i)
        k, x = kr.kind, i - kr.start
        p, r = self.n_posts, self.n_routes
        if k in ("move", "end", "stop", "decline"):
            return Action(k)
        if k == "income":
            return Action(k, x % INCOME_TRADERS, x // INCOME_TRADERS)
        if k == "place":
            return Action(k, x // 2, x % 2)
        if k == "displace":
            return Action(k, x // (2 * PAY_CHOICES), (x // PAY_CHOICES) % 2, x % PAY_CHOICES)
        if k == "establish":
            route, y = divmod(x, self.establish_stride)
            if y == 0:
                return Action(k, route, NONE)
            if y < 3:
                return Action(k, route, KONTOR, y - 1)
            if y < 7:
                return Action(k, route, EXTRA, y - 3)
            if y < 12:
                return Action(k, route, DEVELOP, y - 7)
            return Action(k, route, SPECIAL, y - 12)
        if k == "marker":
            o = self.n_offices
            if x < 2:
                return Action(k, x)
            if x < 7:
                return Action(k, M_DEVELOP, x - 2)
            if x < 7 + o:
                return Action(k, M_SWAP, x - 7)
            return Action(k, 4 if x == 7 + o else 5)
        if k == "favour":
            tile, y = divmod(x, N_MARKER_PAIRS)
            return Action(k, tile, *_unpair_eq(y, N_MARKER_KINDS))
        if k in ("move_piece", "shift", "perm_move"):
            return Action(k, x // r, x % r)
        if k in ("swap", "perm_swap"):
            return Action(k, *_unpair(x, p))
        if k in ("remove", "relocate", "place_marker", "favour_take", "perm_develop"):
            return Action(k, x)
        if k in ("relocate_extra", "perm_place"):
            route, y = divmod(x, 2 + p)
            return Action(k, route, y) if y < 2 else Action(k, route, -1, y - 2)
        if k == "perm_kontor":
            return Action(k, x // 2, x % 2)
        raise AssertionError(f"unhandled kind {k}")  # pragma: no cover

    # ------------------------------------------------------------------ masks
    def indices(self, actions: Iterable[Action]) -> list[int]:
        """The integers of ``actions`` (e.g. a legal list), in their order."""
        return [self.index(a) for a in actions]

    def mask(self, actions: Iterable[Action]) -> list[int]:
        """A 0/1 list of length :attr:`size` with a 1 at every action of ``actions``."""
        out = [0] * self.size
        for i in self.indices(actions):
            out[i] = 1
        return out
