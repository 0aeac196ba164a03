"""Actions and game terms in plain words, for people reading a log.

:func:`~hansa_lab.engine.actions.format_action` gives an action's code (``place r5
trader``: short, and it parses back); :func:`describe_action` says the same in a sentence
with the game's names (cities, routes, abilities, bonus markers), for the viewers' logs,
the exported replays and the board's caption. The names are shared with the event texts
(:mod:`hansa_lab.engine.events`) and the board's legend.

>>> from hansa_lab.engine.actions import Action
>>> from hansa_lab.engine.board import load_board
>>> b = load_board("base_3p")
>>> describe_action(b, Action("place", 5, 0), 2)
'Seat 2 places a trader on Emden–Osnabrück'
>>> describe_action(b, Action("income", 2, 1), 0)
'Seat 0 takes income: 2 traders and 1 merchant from the stock to the supply'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import NamedTuple

from hansa_lab.engine.actions import (
    MARKER_KINDS,
SLOTS,
    USABLE_MARKERS,
    Action,
    ActionForm,
    action_form,
)
from hansa_lab.engine.board import ABILITIES, PIECE_NAMES, Board
from hansa_lab.engine.state import EMPTY, FAVOUR_TILES, State

__all__ = [
    "ABILITY_NAMES",
    "END_REASONS",
    "FAVOUR_NAMES",
    "MARKER_NAMES",
    "PERMANENT_NAMES",
    "WORD_TYPES",
    "describe_action",
    "post_name",
]

#: The abilities as the player board names them.
ABILITY_NAMES = {
    "actions": "Actions",
    "bank": "Bank",
    "book": "Book",
    "privilege": "Privilege",
    "keys": "City Keys",
}
#: The bonus markers in words.
MARKER_NAMES = {
    "extra": "extra Kontor",
    "swap": "swap Kontors",
    "move3": "move 3 opponents' pieces",
    "remove3": "remove 3 opponents' pieces",
    "develop": "develop an ability",
    "plus3": "+3 actions",
    "plus4": "+4 actions",
}
#: The printed (permanent) route bonuses of the East and Britannia boards in words.
PERMANENT_NAMES = {
    "place2_from_route": "place 2 pieces (from a route)",
    "move2": "move 2 pieces",
    "kontor_yellow_green": "Kontor in a yellow/green city",
    "privilege": "develop Privilege",
    "place2_regions": "place 2 pieces in Wales or Scotland",
}
#: Emperor's Favour tiles in words.
FAVOUR_NAMES = {
    "relocate_anywhere": "displaced pieces may go anywhere",
    "extra_action": "an extra action every turn",
    "income_share": "income share",
    "displaced_two": "a displaced trader brings two extra pieces",
    "control_4": "4 points per controlled city at the end",
    "abilities_7": "7 points per fully developed ability at the end",
}
#: Why a game ended, in words.
END_REASONS = {
    "prestige": "a player reached the prestige limit",
    "cities": "enough cities were completed",
    "markers": "no bonus marker was left to draw",
    "cap": "the action limit was reached",
}


def _pieces(n: int, piece: str) -> str:
    return f"{n} {piece}{'' if n == 1 else 's'}"


def post_name(board: Board, i: int) -> str:
    """A post in words: ``Arnheim–Münster (post 2)`` (posts counted from 1)."""
    r = board.post_route[i]
    return f"{board.route_name(r)} (post {i - board.post_start[r] + 1})"


def _owner(state: State | None, i: int, seat: int | None) -> str:
    """Whose piece is on post ``i`` ("its", "seat 1's", or "an opponent's")."""
    if state is None or state.posts[i] == EMPTY:
        return "a"
    owner = state.posts[i] >> 1
    piece = PIECE_NAMES[state.posts[i] & 1]
    if seat is not None and owner == seat:
        return f"its {piece}"
    who = "the neutral colour" if owner == getattr(state, "neutral", -1) else f"seat {owner}"
    return f"{who}'s {piece}"


def _special_space(board: Board, c: int) -> str:
    points = board.special_spaces[c][0] if 0 <= c < len(board.special_spaces) else c
    return f"{c + 1} in {board.city_names[board.special_city]} ({points} points)"


def _office_pair(board: Board, office: int) -> str:
    city = board.office_city[office]
    slot = office - board.office_start[city]
    return f"offices {slot + 1} and {slot + 2} of {board.city_names[city]}"


def _income(a: int, b: int) -> str:
    parts = [_pieces(a, "trader")] if a else []
    parts += [_pieces(b, "merchant")] if b else []
    return " and ".join(parts) or "nothing"


def _route_end(board: Board, act: Action, end: int) -> str:
    r = board.routes[act.a]
    return board.city_names[(r.a, r.b)[end]]


class _Said(NamedTuple):
    """What a word type sees: the board, the action, its values, the position and seat."""

    board: Board
    action: Action
    values: tuple[int, ...]
    state: State | None
    seat: int | None

    @property
    def v(self) -> int:
        return self.values[0]


def _victim(x: _Said) -> str:
    owner = _owner(x.state, x.v, x.seat)
    return "the piece" if owner == "a" else owner


def _any_piece(x: _Said) -> str:
    owner = _owner(x.state, x.v, x.seat)
    return "a piece" if owner == "a" else owner


#: The words of each argument type in :data:`~hansa_lab.engine.actions.ACTION_FORMS`'
#: sentences.
WORD_TYPES: dict[str, Callable[[_Said], str]] = {
    "route": lambda x: x.board.route_name(x.v),
    "post": lambda x: post_name(x.board, x.v),
    "piece": lambda x: PIECE_NAMES[x.v],
    "ability": lambda x: ABILITY_NAMES[ABILITIES[x.v]],
    "city": lambda x: x.board.city_names[x.v],
    "route_end": lambda x: _route_end(x.board, x.action, x.v),
    "extra_city": lambda x: _route_end(x.board, x.action, x.v >> 1),
    "extra_piece": lambda x: PIECE_NAMES[x.v & 1],
    "special_space": lambda x: _special_space(x.board, x.v),
    "usable_marker": lambda x: MARKER_NAMES[USABLE_MARKERS[x.v]],
    "office_pair": lambda x: _office_pair(x.board, x.v),
    "tile": lambda x: FAVOUR_NAMES[FAVOUR_TILES[x.v]],
    "marker": lambda x: MARKER_NAMES[MARKER_KINDS[x.v]],
    "income": lambda x: _income(*x.values),
    "payment": lambda x: (f"paying {_pieces(x.v, 'merchant')} and the rest in traders"
                          if x.v else "paying in traders"),
    "victim": _victim,
    "any_piece": _any_piece,
}
_PLACEHOLDER = re.compile(r"\{(\w+):(\w+)\}")


def describe_action(board: Board, action: Action, seat: int | None,
                    state: State | None = None) -> str:
    """An action in plain words, as done by ``seat`` (see the module doc; ``None``: "A
    player …"): the sentence of its form in
    :data:`~hansa_lab.engine.actions.ACTION_FORMS`.

    ``state``, the position the action is played in, when given, names the owners of
    the pieces it displaces or moves.

    >>> from hansa_lab.engine.board import load_board
    >>> b = load_board("base_3p")
    >>> from hansa_lab.engine.actions import KONTOR
    >>> describe_action(b, Action("establish", 5, KONTOR, 0), 1)
    'Seat 1 establishes Emden–Osnabrück and opens a Kontor in Emden'
    """
    if type(action) is not Action:
        action = Action(*action)
    who = "A player" if seat is None else f"Seat {seat}"
    parts = [who, " "]
    args = (action.a, action.b, action.c)
    for part in _sentence(action_form(action)):
        if isinstance(part, str):
            parts.append(part)
        else:
            word, slots = part
            values = tuple(args[i - 1] for i in slots)
            parts.append(word(_Said(board, action, values, state, seat)))
    return "".join(parts)


@functools.cache
def _sentence(form: ActionForm) -> tuple[str | tuple[Callable[[_Said], str], tuple[int, ...]],
                                         ...]:
    """A form's sentence as literal text and (word type, slot indices) parts."""
    out: list[str | tuple[Callable[[_Said], str], tuple[int, ...]]] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(form.words):
        out.append(form.words[pos:m.start()])
        out.append((WORD_TYPES[m.group(2)], tuple(SLOTS[x] for x in m.group(1))))
        pos = m.end()
    out.append(form.words[pos:])
    return tuple(p for p in out if p != "")
