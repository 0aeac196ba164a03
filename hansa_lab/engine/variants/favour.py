"""Emperor's Favour (optional module, rule option ``emperor``).

At set-up as many random tiles as players lie face up (``State.favour_display``). At the
start of a turn (before any action or marker), the active player may give up the whole
turn to take one tile, turning two unused collected markers face down: they join the
used markers and still score (``favour <tile> <marker> <marker>``). Effects of the
tiles (``State.favours`` per player):

=====================  ======================================================================
``relocate_anywhere``  the holder's displaced pieces (and their extras) may go to any free
                       posts instead of the nearest routes (Britannia: still within their
                       country or England)
``extra_action``       +1 action every turn (may exceed 5)
``income_share``       whenever another player takes Income, the holder may move one
                       tradesman from the general stock to the personal supply (the decision
                       :class:`FavourIncome`: ``favour take trader|merchant`` or ``decline``)
``displaced_two``      a displaced trader of the holder brings 2 extra tradesmen, not 1
``control_4``          final scoring: 4 (not 2) per controlled city
``abilities_7``        final scoring: 7 (not 4) per fully developed ability
=====================  ======================================================================
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from hansa_lab.engine.actions import MARKER_KINDS, Action
from hansa_lab.engine.board import MERCHANT, PIECE_NAMES, TRADER
from hansa_lab.engine.decisions import Decision, pop, push, top
from hansa_lab.engine.effects import DECLINE, log
from hansa_lab.engine.events import Event
from hansa_lab.engine.state import FAVOUR_TILES, State


def options(s: State, p: int, acts: list[Action]) -> None:
    """``favour`` actions open to the active player ``p`` at the start of the turn."""
    if not s.favour_display or s.n_actions != s.turn_start or len(s.markers[p]) < 2:
        return
    held = Counter(MARKER_KINDS.index(m) for m in s.markers[p])
    kinds = sorted(held)
    pairs = [(x, y) for n, x in enumerate(kinds) for y in kinds[n:] if x != y or held[x] >= 2]
    for tile in s.favour_display:
        t = FAVOUR_TILES.index(tile)
        acts.extend(Action("favour", t, x, y) for x, y in pairs)


def take(s: State, a: Action) -> None:
    """Take tile ``a.a`` with markers ``a.b`` and ``a.c``; the caller ends the turn."""
    p = s.active
    tile = FAVOUR_TILES[a.a]
    held = list(s.markers[p])
    for k in (a.b, a.c):
        held.remove(MARKER_KINDS[k])
    s.markers[p] = tuple(held)
    s.markers_used[p] = (*s.markers_used[p], MARKER_KINDS[a.b], MARKER_KINDS[a.c])
    s.favour_display = tuple(t for t in s.favour_display if t != tile)
    s.favours = tuple((*f, tile) if q == p else f for q, f in enumerate(s.favours))
    log(s, Event("favour", seat=p, detail=tile))


def after_income(s: State, p: int) -> None:
    """Player ``p`` took Income: the ``income_share`` holder may take a tradesman."""
    for h, tiles in enumerate(s.favours):
        if h != p and "income_share" in tiles and s.stock_t[h] + s.stock_m[h]:
            push(s, FavourIncome(h))


@dataclass(frozen=True, slots=True)
class FavourIncome(Decision):
    """The ``income_share`` holder (``player``) may take a tradesman from the general
    stock into the personal supply, or decline."""

    KIND: ClassVar[str] = "favour_income"
    ALLOWED: ClassVar[tuple[str, ...]] = ("favour_take", "decline")

    def legal(self, s: State) -> list[Action]:
        h = self.player
        acts = [Action("favour_take", k) for k, n in ((TRADER, s.stock_t[h]), (MERCHANT,
                s.stock_m[h])) if n]
        acts.append(DECLINE)
        return acts


def do_take(s: State, a: Action) -> None:
    h = top(s, FavourIncome).player
    if a.a == TRADER:
        s.stock_t[h] -= 1
        s.supply_t[h] += 1
    else:
        s.stock_m[h] -= 1
        s.supply_m[h] += 1
    pop(s)
    log(s, Event("favour_income", seat=h, detail=PIECE_NAMES[a.a]))
