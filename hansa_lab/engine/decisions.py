"""Pending decisions: what the game waits for inside a turn, as small typed records.

A state keeps a stack of them (``state.pending``); whoever decides is the ``player`` of
the top one (:attr:`State.current_player`). Each kind of decision knows

* the actions it allows (:meth:`Decision.legal`; :attr:`Decision.ALLOWED` names their
  kinds, for explaining an illegal action),
* how it resolves by itself when nothing is left to decide (:meth:`Decision.settle`,
  called by the rules after every action; True when it changed the state),
* what ``stop`` and ``decline`` do to it.

=====================  ===========================================================
decision               waits for
=====================  ===========================================================
:class:`Relocate`       a displaced player to place the piece and its extras
:class:`RelocateNeutral`  two players: the non-displacing player to place the neutral
                        trader and one more from the pool (:mod:`.variants.neutral`)
:class:`Move`           the pieces of a Move action (own pieces, Book moves)
:class:`MoveOpponents`  the move-3 bonus marker (opponents' pieces)
:class:`RemoveOpponents`  the remove-3 bonus marker
:class:`PlaceMarkers`   replacement bonus markers at the end of a turn
=====================  ===========================================================

The variants add their own: ``PermanentMarker`` (East and Britannia's maritime routes,
:mod:`.variants.permanent`) and ``FavourIncome`` (Emperor's Favour,
:mod:`.variants.favour`). Decisions are frozen: a change makes a new record
(:func:`replace_top`). ``str()`` gives the compact form used in text dumps and goldens,
e.g. ``('move', 0, 2)``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, TypeVar

from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import MERCHANT, TRADER
from hansa_lab.engine.effects import (
    DECLINE,
    STOP,
    free_post,
    log,
    may_go,
    next_player,
    shift_options,
    stock_of,
    to_stock,
)
from hansa_lab.engine.events import Event
from hansa_lab.engine.state import EMPTY, State

__all__ = [
    "Decision",
    "Move",
    "MoveOpponents",
    "Moves",
    "PlaceMarkers",
    "Relocate",
    "RelocateNeutral",
    "Relocation",
    "RemoveOpponents",
    "marker_routes",
    "pop",
    "push",
    "relocation_routes",
    "replace_top",
    "top",
]


# --------------------------------------------------------------------------- the stack
def push(s: State, decision: Decision) -> None:
    s.pending = (*s.pending, decision)


def pop(s: State) -> None:
    s.pending = s.pending[:-1]


D = TypeVar("D", bound="Decision")


def top(s: State, kind: type[D]) -> D:
    """The top pending decision, which must be a ``kind``."""
    f = s.pending[-1] if s.pending else None
    if not isinstance(f, kind):
        raise TypeError(f"expected a pending {kind.__name__} decision, found {f}")
    return f


def replace_top(s: State, **changes: Any) -> None:
    """Replace the top decision by a copy with ``changes`` (field = new value)."""
    s.pending = (*s.pending[:-1], replace(s.pending[-1], **changes))


# --------------------------------------------------------------------------- base
@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the game waits for; ``player`` decides it."""

    player: int

    KIND: ClassVar[str] = ""
    #: the action kinds this decision accepts
    ALLOWED: ClassVar[tuple[str, ...]] = ()

    def legal(self, s: State) -> list[Action]:
        raise NotImplementedError

    def settle(self, s: State) -> bool:
        """Resolve without a decision if nothing is left to decide; True if it did."""
        return False

    def stop(self, s: State) -> None:
        pop(s)

    def decline(self, s: State) -> None:
        pop(s)

    def __str__(self) -> str:
        return str((self.KIND, *(getattr(self, f.name) for f in fields(self))))


# --------------------------------------------------------------------------- relocation
def relocation_routes(state: State, origin: int, piece: int, colour: int = -1) -> list[int]:
    """Routes a displaced piece of ``colour`` may use: the nearest ring of routes around
    ``origin`` that has a free post for ``piece`` (adjacent routes first, then one step
    further). On Britannia only routes of the origin's country or England count. With
    the Emperor's Favour tile ``relocate_anywhere`` every route with a free post counts."""
    b = state.board
    regions = b.has_regions
    if colour >= 0 and state.has_favour(colour, "relocate_anywhere"):
        return [
            r
            for r in range(b.n_routes)
            if free_post(state, r, piece) >= 0 and (not regions or may_go(b, origin, r, False))
        ]
    for ring in b.route_rings[origin]:
        if regions:
            found = [
                r for r in ring if may_go(b, origin, r, False) and free_post(state, r, piece) >= 0
            ]
        else:
            found = [r for r in ring if free_post(state, r, piece) >= 0]
        if found:
            return found
    return []


@dataclass(frozen=True, slots=True)
class Relocation(Decision):
    """A displaced piece from route ``origin`` (``piece`` = its kind, -1 once placed) and
    ``extras`` more pieces still to place (the displacement's compensation)."""

    origin: int
    piece: int
    extras: int

    ALLOWED: ClassVar[tuple[str, ...]] = ("relocate", "relocate_extra")

    def colour(self, s: State) -> int:
        """The colour whose pieces are relocated."""
        raise NotImplementedError

    def legal(self, s: State) -> list[Action]:
        v = self.colour(s)
        acts: list[Action] = []
        if self.piece >= 0:
            acts.extend(Action("relocate", r) for r in relocation_routes(s, self.origin,
                                                                         self.piece, v))
        if self.extras > 0:
            extra_relocations(s, v, self.origin, acts)
        return acts

    def settle(self, s: State) -> bool:
        v = self.colour(s)
        piece, extras = self.piece, self.extras
        if piece >= 0 and not relocation_routes(s, self.origin, piece, v):
            # nowhere on the board to go: the piece returns to the general stock
            to_stock(s, v, piece)
            piece = -1
        if extras > 0:
            opts: list[Action] = []
            extra_relocations(s, v, self.origin, opts)
            if not opts:
                extras = 0
        if piece < 0 and extras == 0:
            pop(s)
            return True
        if (piece, extras) != (self.piece, self.extras):
            replace_top(s, piece=piece, extras=extras)
        return False

    def decline(self, s: State) -> None:
        replace_top(s, extras=0)


def extra_relocations(s: State, v: int, origin: int, acts: list[Action]) -> None:
    """Append the ways to place one extra piece of colour ``v`` near ``origin``: from the
    general stock first, else from the personal supply, else moved from an own post."""
    kinds: list[int]
    stock_t, stock_m = stock_of(s, v)
    if stock_t + stock_m:
        kinds = [k for k, n in ((TRADER, stock_t), (MERCHANT, stock_m)) if n]
    elif v == s.neutral:
        return  # the neutral colour takes extras only from its pool
    elif s.supply_t[v] + s.supply_m[v]:
        kinds = [k for k, n in ((TRADER, s.supply_t[v]), (MERCHANT, s.supply_m[v])) if n]
    else:
        routes = {k: relocation_routes(s, origin, k, v) for k in (TRADER, MERCHANT)}
        pr = s.board.post_route
        for i, o in enumerate(s.posts):
            if o != EMPTY and o >> 1 == v:
                acts.extend(
                    Action("relocate_extra", r, -1, i) for r in routes[o & 1] if r != pr[i]
                )
        return
    for k in kinds:
        acts.extend(Action("relocate_extra", r, k) for r in relocation_routes(s, origin, k, v))


@dataclass(frozen=True, slots=True)
class Relocate(Relocation):
    """A displaced player places the piece and may place (or decline) the extras."""

    KIND: ClassVar[str] = "relocate"
    ALLOWED: ClassVar[tuple[str, ...]] = ("relocate", "relocate_extra", "decline")

    def colour(self, s: State) -> int:
        return self.player

    def legal(self, s: State) -> list[Action]:
        acts = Relocation.legal(self, s)
        if self.piece < 0:
            acts.append(DECLINE)
        return acts


@dataclass(frozen=True, slots=True)
class RelocateNeutral(Relocation):
    """Two players: the displaced neutral trader and one more from the pool, placed by
    ``player`` (the one who did not displace it); the extra is not optional."""

    KIND: ClassVar[str] = "relocate_neutral"

    def colour(self, s: State) -> int:
        return s.neutral


# --------------------------------------------------------------------------- moves
@dataclass(frozen=True, slots=True)
class Moves(Decision):
    """A decision with ``left`` moves (or removals) to make; ends by itself at zero."""

    left: int

    def spend(self, n: int) -> Moves:
        """The same decision with ``n`` fewer moves left (a hot path: no ``replace``)."""
        return type(self)(self.player, self.left - n)

    def settle(self, s: State) -> bool:
        if self.left <= 0:
            pop(s)
            return True
        return False


def own_moves(s: State, p: int, swaps: bool) -> list[Action]:
    """A Move action's choices: each own piece to another route with a free post (on
    Britannia within its country or to England), trader/merchant swaps, or stop."""
    acts = _shift(s, p, own=True, kind="move_piece")
    if swaps:
        b = s.board
        posts = s.posts
        pr = b.post_route
        mo = b.post_merchant_only
        country = b.route_country
        pieces = [i for i, o in enumerate(posts) if o != EMPTY and o >> 1 == p]
        for x in pieces:
            for y in pieces:
                if x < y and posts[x] & 1 != posts[y] & 1 and pr[x] != pr[y]:
                    t_post = y if posts[x] & 1 == TRADER else x
                    if not mo[t_post] and country[pr[x]] == country[pr[y]]:
                        acts.append(Action("swap", x, y))
    acts.append(STOP)
    return acts


def _shift(s: State, p: int, own: bool, kind: str) -> list[Action]:
    posts = s.posts
    pieces = [i for i, o in enumerate(posts) if o != EMPTY and ((o >> 1 == p) == own)]
    acts: list[Action] = []
    shift_options(s, pieces, kind, not own, acts)
    return acts


@dataclass(frozen=True, slots=True)
class Move(Moves):
    """A Move action in progress: ``left`` moves (a swap takes two)."""

    KIND: ClassVar[str] = "move"
    ALLOWED: ClassVar[tuple[str, ...]] = ("move_piece", "swap", "stop")

    def legal(self, s: State) -> list[Action]:
        return own_moves(s, self.player, swaps=self.left >= 2)


@dataclass(frozen=True, slots=True)
class MoveOpponents(Moves):
    """The move-3 bonus marker: ``left`` opponents' pieces still to move (within their
    country on Britannia)."""

    KIND: ClassVar[str] = "move3"
    ALLOWED: ClassVar[tuple[str, ...]] = ("shift", "stop")

    def legal(self, s: State) -> list[Action]:
        acts = _shift(s, self.player, own=False, kind="shift")
        acts.append(STOP)
        return acts


@dataclass(frozen=True, slots=True)
class RemoveOpponents(Moves):
    """The remove-3 bonus marker: ``left`` opponents' pieces still to remove."""

    KIND: ClassVar[str] = "remove3"
    ALLOWED: ClassVar[tuple[str, ...]] = ("remove", "stop")

    def legal(self, s: State) -> list[Action]:
        p = self.player
        acts = [Action("remove", i) for i, o in enumerate(s.posts) if o != EMPTY and o >> 1 != p]
        acts.append(STOP)
        return acts


# --------------------------------------------------------------------------- markers
def marker_routes(state: State) -> list[int]:
    """Routes that may receive a replacement marker: no marker, no tradesmen, an endpoint
    city with a vacant printed office (and not a permanent-marker or regional route)."""
    b = state.board
    posts, offices = state.posts, state.offices
    out = []
    for r, route in enumerate(b.routes):
        if state.route_marker[r] is not None or route.permanent_marker or route.region:
            continue
        if any(posts[i] != EMPTY for i in range(b.post_start[r], b.post_start[r + 1])):
            continue
        if any(
            offices[i] == EMPTY for c in (route.a, route.b) for i in b.city_offices(c)
        ):
            out.append(r)
    return out


@dataclass(frozen=True, slots=True)
class PlaceMarkers(Decision):
    """The end of ``player``'s turn: the drawn replacement markers go on the board one by
    one; a marker with no possible route is discarded; then the next player's turn."""

    KIND: ClassVar[str] = "place_marker"
    ALLOWED: ClassVar[tuple[str, ...]] = ("place_marker",)

    def legal(self, s: State) -> list[Action]:
        return [Action("place_marker", r) for r in marker_routes(s)]

    def settle(self, s: State) -> bool:
        if not s.drawn:
            pop(s)
            next_player(s)
            return True
        if not marker_routes(s):
            log(s, Event("marker_discarded", seat=s.active, detail=s.drawn[0]))
            s.discarded = (*s.discarded, s.drawn[0])
            s.drawn = s.drawn[1:]
            return True
        return False
