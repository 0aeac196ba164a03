"""What a seat may know, and one way to fill in what it may not.

The only hidden information of the game is the draw order of the face-down bonus markers
(the replacement bag): every player knows which markers are still in it, nobody knows
the order. :func:`observe` gives a seat its view of a position — the state with the bag
as a :class:`HiddenBag`, a multiset whose order cannot be read — and :func:`determinise`
turns a view back into a playable :class:`State` by dealing the bag in an order drawn
from a random stream (a *determinisation*). The compiled core has the same function
(``determinise`` in ``core/src/determinise.rs``): the bag is put in its canonical order
(:data:`~hansa_lab.engine.actions.MARKER_KINDS` order) and then shuffled with
:meth:`Rng.shuffle <hansa_lab.engine.rng.Rng.shuffle>`, so the result depends on the
multiset and the stream only, never on the real order, and both engines deal alike.

A view can still be played on (look-aheads apply actions to it): a marker drawn from a
hidden bag comes in the canonical order, which says nothing about the real one.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> from hansa_lab.engine.rng import Rng
>>> s = new_game(GameConfig(3, seed=1))
>>> view = observe(s, 0)
>>> len(view.bag) == len(s.bag), view.bag.count("plus3") == s.bag.count("plus3")
(True, True)
>>> view.bag[0]  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hansa_lab.engine.observe.HiddenInformationError: the draw order of ... is hidden ...
>>> sorted(determinise(view, Rng(7)).bag) == sorted(s.bag)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn

from hansa_lab.engine.actions import MARKER_KINDS
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import State

__all__ = ["HiddenBag", "HiddenInformationError", "canonical", "determinise", "draw_order",
           "observe", "playable"]

_RANK = {k: i for i, k in enumerate(MARKER_KINDS)}


class HiddenInformationError(LookupError):
    """Raised when a strategy reads what its seat cannot know (the bag's draw order)."""


def canonical(markers: Iterable[str]) -> tuple[str, ...]:
    """``markers`` in the canonical order (:data:`MARKER_KINDS` order): the order a
    determinisation starts from, in both engines."""
    return tuple(sorted(markers, key=_RANK.__getitem__))


class HiddenBag:
    """The replacement bag as a seat sees it: how many markers of each kind, not their
    order. ``len``, truth, :meth:`count`, :meth:`counts` and comparison with another
    hidden bag work; indexing, slicing and iteration (which would reveal the draw order)
    raise :class:`HiddenInformationError`."""

    __slots__ = ("_markers",)

    def __init__(self, markers: Iterable[str]) -> None:
        self._markers = canonical(markers)

    def __len__(self) -> int:
        return len(self._markers)

    def __bool__(self) -> bool:
        return bool(self._markers)

    def count(self, kind: str) -> int:
        """How many markers of ``kind`` are in the bag."""
        return self._markers.count(kind)

    def counts(self) -> dict[str, int]:
        """Every kind in the bag with its number (canonical order)."""
        out: dict[str, int] = {}
        for k in self._markers:
            out[k] = out.get(k, 0) + 1
        return out

    def draw(self) -> tuple[str, HiddenBag]:
        """A marker and the bag without it, for a look-ahead on a view: the first in the
        canonical order (an arbitrary choice that reveals nothing)."""
        if not self._markers:
            raise IndexError("draw from an empty bag")
        rest = HiddenBag.__new__(HiddenBag)
        rest._markers = self._markers[1:]
        return self._markers[0], rest

    def _hidden(self) -> NoReturn:
        raise HiddenInformationError(
            "the draw order of the bonus-marker bag is hidden from the seat (its view "
            "has only the markers' kinds and numbers: bag.counts()); "
            "hansa_lab.engine.observe.determinise(view, rng) deals a possible order")

    def __getitem__(self, index: object) -> NoReturn:
        self._hidden()

    def __iter__(self) -> NoReturn:
        self._hidden()

    def index(self, kind: str) -> NoReturn:
        self._hidden()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HiddenBag):
            return NotImplemented
        return self._markers == other._markers

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inside = ", ".join(f"{k}={n}" for k, n in self.counts().items())
        return f"HiddenBag({inside})"


def _checked_seat(state: State, seat: int) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not \
            0 <= seat < state.n_players:
        raise ValueError(f"seat must be an integer 0-{state.n_players - 1}, got {seat!r}")
    return seat


def observe(state: State, seat: int) -> State:
    """What ``seat`` may know of ``state``: a copy whose bag is a :class:`HiddenBag`
    (the markers' kinds and numbers, not their draw order); everything else on the
    table, the face-up favour tiles and the markers drawn this turn are public.
    ``state`` is not changed. A seat outside the game raises ``ValueError``."""
    _checked_seat(state, seat)
    view = state.clone()
    if not isinstance(view.bag, HiddenBag):
        view.bag = HiddenBag(view.bag)  # type: ignore[assignment]
    return view


def draw_order(bag: tuple[str, ...] | HiddenBag) -> tuple[str, ...]:
    """The order a look-ahead draws ``bag`` in: a plain bag's own, a hidden bag's
    canonical order (how a view is converted for the core)."""
    return bag._markers if isinstance(bag, HiddenBag) else bag


def playable(view: State) -> State:
    """``view`` as a plain :class:`State` with its bag in the canonical order (what a
    view's look-ahead draws; for handing a view to code that needs a whole state, such as
    the core's searches, which determinise it themselves). A state whose bag is not
    hidden is returned unchanged."""
    if not isinstance(view.bag, HiddenBag):
        return view
    out = view.clone()
    out.bag = draw_order(view.bag)
    return out


def determinise(view: State, rng: Rng) -> State:
    """A playable copy of ``view`` (a seat's view or a whole state) with the bag dealt in
    an order drawn from ``rng``: the canonical order shuffled by ``rng``, as the core's
    ``determinise``. The real order, if ``view`` has it, plays no part."""
    out = view.clone()
    bag = list(view.bag._markers if isinstance(view.bag, HiddenBag) else canonical(view.bag))
    rng.shuffle(bag)
    out.bag = tuple(bag)
    return out
