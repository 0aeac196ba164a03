"""Permanent markers of maritime routes (East, Britannia), used right after establishing.

After the establish action (its reward and the East-West check), a route with a
permanent marker pushes the decision :class:`PermanentMarker` (player, kind, left,
traders, merchants) for the establishing player; ``left`` counts what may still be done,
``traders``/``merchants`` are the route's returned pieces that ``place2_from_route`` may
still place. ``stop`` declines the rest. The game-end check of the establish action runs
when the decision is resolved (a permanent Kontor can complete the last city).

======================  ==========================================  ========================
kind                    effect                                      actions
======================  ==========================================  ========================
``move2``               move any 2 tradesmen (any colours) to free  ``perm move r3.0 r7``,
                        posts; exchanging the places of two pieces  ``perm swap r3.0 r4.1``
                        uses both moves; on Britannia each piece
                        stays in its country
``privilege``           develop Privilege                           ``perm develop privilege``
``kontor_yellow_green`` a Kontor from the personal supply in a      ``perm kontor Belgard
                        yellow/green city, right of its Kontors     trader``
``place2_from_route``   2 of the route's returned tradesmen go to   ``perm place r7 trader``
                        free posts instead of the general stock
``place2_regions``      place 2 own tradesmen on free Wales /       ``perm place r7 trader``,
                        Scotland posts: from the general stock,     ``perm place r7 from
                        else the personal supply, else own posts    r2.0``
======================  ==========================================  ========================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import A_PRIVILEGE, MERCHANT, TRADER
from hansa_lab.engine.decisions import Decision, pop, push, replace_top, top
from hansa_lab.engine.effects import (
    STOP,
    add_extra,
    check_end,
    develop,
    free_routes,
    log,
    may_go,
    shift_options,
    take_from_stock,
    take_from_supply,
    take_loose,
    to_route,
)
from hansa_lab.engine.events import Event
from hansa_lab.engine.scoring import TRACK_MAX
from hansa_lab.engine.state import EMPTY, State

#: how many uses each permanent marker gives
USES = {"move2": 2, "privilege": 1, "kontor_yellow_green": 1, "place2_from_route": 2,
        "place2_regions": 2}


def start(s: State, p: int, r: int, kind: str, returned: list[int]) -> None:
    """Push the permanent-marker frame after establishing route ``r`` (``returned``: kinds
    of the route's pieces that went back to the general stock)."""
    n_m = sum(returned)
    log(s, Event("permanent", seat=p, detail=kind, route=r))
    push(s, PermanentMarker(p, kind=kind, left=USES[kind], traders=len(returned) - n_m,
                            merchants=n_m))


@dataclass(frozen=True, slots=True)
class PermanentMarker(Decision):
    """``player`` uses the permanent marker ``kind`` of the route just established:
    ``left`` uses remain; ``traders``/``merchants``: the route's returned pieces that
    ``place2_from_route`` may still place."""

    kind: str
    left: int
    traders: int
    merchants: int

    KIND: ClassVar[str] = "permanent"
    ALLOWED: ClassVar[tuple[str, ...]] = ("perm_move", "perm_swap", "perm_develop",
                                          "perm_kontor", "perm_place", "stop")

    def legal(self, s: State) -> list[Action]:
        acts: list[Action] = []
        if self.left > 0:
            _OPTIONS[self.kind](s, self, acts)
        acts.append(STOP)
        return acts

    def settle(self, s: State) -> bool:
        if self.left <= 0 or self.legal(s) == [STOP]:
            self.stop(s)
            return True
        return False

    def stop(self, s: State) -> None:
        """The establish action is over, so its end check runs now."""
        pop(s)
        check_end(s)


# --------------------------------------------------------------------------- options
def _move2(s: State, frame: PermanentMarker, acts: list[Action]) -> None:
    b = s.board
    posts = s.posts
    occupied = [i for i, o in enumerate(posts) if o != EMPTY]
    strict = True if b.has_regions else None
    shift_options(s, occupied, "perm_move", strict, acts)
    if frame.left < 2:
        return
    pr = b.post_route
    mo = b.post_merchant_only
    for n, x in enumerate(occupied):
        ox = posts[x]
        for y in occupied[n + 1 :]:
            oy = posts[y]
            if ox == oy or pr[x] == pr[y]:
                continue
            if (ox & 1 == TRADER and mo[y]) or (oy & 1 == TRADER and mo[x]):
                continue
            if strict and not may_go(b, pr[x], pr[y], True):
                continue
            acts.append(Action("perm_swap", x, y))


def _privilege(s: State, frame: PermanentMarker, acts: list[Action]) -> None:
    if s.levels[frame.player][A_PRIVILEGE] < TRACK_MAX[A_PRIVILEGE]:
        acts.append(Action("perm_develop", A_PRIVILEGE))


def _kontor_yellow_green(s: State, frame: PermanentMarker, acts: list[Action]) -> None:
    p = frame.player
    for c in s.board.yellow_green:
        for k, n in ((TRADER, s.supply_t[p]), (MERCHANT, s.supply_m[p])):
            if n:
                acts.append(Action("perm_kontor", c, k))


def _place2_from_route(s: State, frame: PermanentMarker, acts: list[Action]) -> None:
    dest = free_routes(s)
    for k, n in ((TRADER, frame.traders), (MERCHANT, frame.merchants)):
        if n:
            acts.extend(Action("perm_place", r, k) for r in dest[k])


def _place2_regions(s: State, frame: PermanentMarker, acts: list[Action]) -> None:
    p = frame.player
    b = s.board
    country = b.route_country
    dest = [[r for r in rs if country[r]] for rs in free_routes(s)]
    pools = ((s.stock_t[p], s.stock_m[p]), (s.supply_t[p], s.supply_m[p]))
    for pool in pools:
        if sum(pool):
            for k in (TRADER, MERCHANT):
                if pool[k]:
                    acts.extend(Action("perm_place", r, k) for r in dest[k])
            return
    pr = b.post_route
    for i, o in enumerate(s.posts):
        if o != EMPTY and o >> 1 == p:
            acts.extend(Action("perm_place", r, -1, i) for r in dest[o & 1] if r != pr[i])


_OPTIONS: dict[str, Callable[[State, PermanentMarker, list[Action]], None]] = {
    "move2": _move2,
    "privilege": _privilege,
    "kontor_yellow_green": _kontor_yellow_green,
    "place2_from_route": _place2_from_route,
    "place2_regions": _place2_regions,
}


# --------------------------------------------------------------------------- apply
def _spend(s: State, n: int = 1) -> None:
    replace_top(s, left=top(s, PermanentMarker).left - n)


def do_move(s: State, a: Action) -> None:
    o = s.posts[a.a]
    s.posts[a.a] = EMPTY
    to_route(s, a.b, o)
    _spend(s)


def do_swap(s: State, a: Action) -> None:
    s.posts[a.a], s.posts[a.b] = s.posts[a.b], s.posts[a.a]
    _spend(s, 2)


def do_develop(s: State, a: Action) -> None:
    develop(s, top(s, PermanentMarker).player, a.a)
    _spend(s)


def do_kontor(s: State, a: Action) -> None:
    p = top(s, PermanentMarker).player
    take_from_supply(s, p, a.b)
    add_extra(s, p, a.a, a.b, right=True)
    _spend(s)


def do_place(s: State, a: Action) -> None:
    f = top(s, PermanentMarker)
    p, kind, t, m = f.player, f.kind, f.traders, f.merchants
    if a.c >= 0:  # place2_regions with stock and supply empty: moved from an own post
        k = s.posts[a.c] & 1
        s.posts[a.c] = EMPTY
    else:
        k = a.b
        if kind == "place2_from_route":  # the route's pieces wait in the stock
            take_from_stock(s, p, k)
            t, m = (t - 1, m) if k == TRADER else (t, m - 1)
        else:
            take_loose(s, p, k)
    to_route(s, a.a, p * 2 + k)
    replace_top(s, left=f.left - 1, traders=t, merchants=m)


HANDLERS: dict[str, Callable[[State, Action], None]] = {
    "perm_move": do_move,
    "perm_swap": do_swap,
    "perm_develop": do_develop,
    "perm_kontor": do_kontor,
    "perm_place": do_place,
}
