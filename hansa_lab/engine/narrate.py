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

from hansa_lab.engine.actions import (
    DEVELOP,
    EXTRA,
    KONTOR,
    MARKER_KINDS,
    NONE,
    SPECIAL,
    USABLE_MARKERS,
    Action,
)
from hansa_lab.engine.board import ABILITIES, PIECE_NAMES, Board
from hansa_lab.engine.state import EMPTY, FAVOUR_TILES, State

__all__ = [
    "ABILITY_NAMES",
    "END_REASONS",
    "FAVOUR_NAMES",
    "MARKER_NAMES",
    "PERMANENT_NAMES",
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


def describe_action(board: Board, action: Action, seat: int | None,
                    state: State | None = None) -> str:
    """An action in plain words, as done by ``seat`` (see the module doc; ``None``: "A
    player …").

    ``state``, the position the action is played in, when given, names the owners of
    the pieces it displaces or moves.

    >>> from hansa_lab.engine.board import load_board
    >>> b = load_board("base_3p")
    >>> describe_action(b, Action("establish", 5, KONTOR, 0), 1)
    'Seat 1 establishes Emden–Osnabrück and opens a Kontor in Emden'
    """
    k, a, b, c = action
    who = "A player" if seat is None else f"Seat {seat}"
    names = board.city_names
    route = board.route_name
    if k == "income":
        parts = [_pieces(a, "trader")] if a else []
        parts += [_pieces(b, "merchant")] if b else []
        got = " and ".join(parts) or "nothing"
        return f"{who} takes income: {got} from the stock to the supply"
    if k == "place":
        return f"{who} places a {PIECE_NAMES[b]} on {route(a)}"
    if k == "displace":
        victim = _owner(state, a, seat)
        victim = "the piece" if victim == "a" else victim
        pay = f"paying {_pieces(c, 'merchant')} and the rest in traders" if c else (
            "paying in traders")
        return (f"{who} displaces {victim} on {post_name(board, a)} with a "
                f"{PIECE_NAMES[b]}, {pay}")
    if k == "move":
        return f"{who} starts a Move action (moving up to its Book's number of pieces)"
    if k == "move_piece":
        return f"{who} moves a piece from {post_name(board, a)} to {route(b)}"
    if k == "swap":
        return f"{who} swaps its pieces on {post_name(board, a)} and {post_name(board, b)}"
    if k == "stop":
        return f"{who} stops moving or removing pieces"
    if k == "decline":
        return f"{who} places no more extra pieces"
    if k == "end":
        return f"{who} ends the turn"
    if k == "establish":
        r = board.routes[a]
        ends = (r.a, r.b)
        head = f"{who} establishes {route(a)}"
        if b == NONE:
            return f"{head}, taking no reward"
        if b == KONTOR:
            return f"{head} and opens a Kontor in {names[ends[c]]}"
        if b == EXTRA:
            return (f"{head} and opens an extra Kontor in {names[ends[c >> 1]]} with a "
                    f"{PIECE_NAMES[c & 1]}")
        if b == DEVELOP:
            return f"{head} and develops {ABILITY_NAMES[ABILITIES[c]]}"
        if b == SPECIAL:
            points = board.special_spaces[c][0] if 0 <= c < len(board.special_spaces) else c
            return (f"{head} and takes special-prestige space {c + 1} in "
                    f"{names[board.special_city]} ({points} points)")
    if k == "relocate":
        return f"{who} moves its displaced piece to {route(a)}"
    if k == "relocate_extra":
        if c >= 0:
            return (f"{who} moves its piece from {post_name(board, c)} to {route(a)} "
                    "(after being displaced)")
        return f"{who} places an extra {PIECE_NAMES[b]} on {route(a)} (after being displaced)"
    if k == "marker":
        name = USABLE_MARKERS[a]
        head = f"{who} uses the bonus marker '{MARKER_NAMES[name]}'"
        if name == "develop":
            return f"{head}: develops {ABILITY_NAMES[ABILITIES[b]]}"
        if name == "swap":
            city = board.office_city[b]
            slot = b - board.office_start[city]
            return f"{head}: offices {slot + 1} and {slot + 2} of {names[city]}"
        return head
    if k == "shift":
        piece = _owner(state, a, seat)
        return (f"{who} moves {'a piece' if piece == 'a' else piece} from "
                f"{post_name(board, a)} to {route(b)}")
    if k == "remove":
        piece = _owner(state, a, seat)
        return f"{who} removes {'a piece' if piece == 'a' else piece} from {post_name(board, a)}"
    if k == "place_marker":
        return f"{who} places a new bonus marker beside {route(a)}"
    if k == "perm_move":
        return f"{who} moves a piece from {post_name(board, a)} to {route(b)} (printed bonus)"
    if k == "perm_swap":
        return (f"{who} exchanges the pieces on {post_name(board, a)} and "
                f"{post_name(board, b)} (printed bonus)")
    if k == "perm_develop":
        return f"{who} develops {ABILITY_NAMES[ABILITIES[a]]} (printed bonus)"
    if k == "perm_kontor":
        return f"{who} opens a Kontor in {names[a]} with a {PIECE_NAMES[b]} (printed bonus)"
    if k == "perm_place":
        if c >= 0:
            return (f"{who} moves its piece from {post_name(board, c)} to {route(a)} "
                    "(printed bonus)")
        return f"{who} places a {PIECE_NAMES[b]} on {route(a)} (printed bonus)"
    if k == "favour":
        return (f"{who} takes the Emperor's Favour tile '{FAVOUR_NAMES[FAVOUR_TILES[a]]}', "
                f"turning its markers '{MARKER_NAMES[MARKER_KINDS[b]]}' and "
                f"'{MARKER_NAMES[MARKER_KINDS[c]]}' face down")
    if k == "favour_take":
        return f"{who} moves a {PIECE_NAMES[a]} from the stock to the supply (income share)"
    raise ValueError(f"unknown action kind {k!r}")
