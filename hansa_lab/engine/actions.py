"""Actions: small hashable values with a text form that parses back.

An :class:`Action` is a named tuple of a kind and up to three integer arguments. Routes
print as ``r<index>``, posts as ``r<route>.<position>``, cities by their ASCII name.

=====================================  ===============================================
text                                    meaning
=====================================  ===============================================
``income 2 1``                          take 2 traders and 1 merchant from the stock
``place r5 trader``                     put a trader from the supply on route 5
``displace r5.1 merchant pay 0``        displace the piece on post 1 of route 5 with a
                                        merchant, paying 0 merchants (the rest traders)
``move``                                start a Move action (then ``move r3.0 r7`` …)
``move r3.0 r7``                        move own piece from post r3.0 to route 7
``swap r3.0 r4.1``                      swap own trader and own merchant (two moves)
``stop``                                end a Move / move-3 / remove-3 early
``establish r5 kontor Hamburg``         establish route 5, Kontor in Hamburg
``establish r5 extra Hamburg trader``   … with an extra-Kontor marker, using a trader
``establish r5 develop actions``        … develop an ability of an endpoint city
``establish r5 special 2``              … merchant onto special-prestige space 2
``establish r5 none``                   … no reward (pieces return to the stock)
``relocate r7``                         displaced piece onto route 7
``relocate r7 trader``                  extra piece (from stock, else supply) onto route 7
``relocate r7 from r2.0``               extra piece moved from own post r2.0 to route 7
``decline``                             decline the remaining extra pieces
``marker plus3`` / ``marker plus4``     use an actions marker
``marker develop keys``                 use a develop marker
``marker swap Hamburg 0``               swap Kontors 0 and 1 of Hamburg
``marker move3`` / ``marker remove3``   start moving / removing opponents' pieces
``shift r3.0 r7``                       move an opponent's piece (move-3 marker)
``remove r3.0``                         remove an opponent's piece (remove-3 marker)
``place_marker r9``                     place a drawn replacement marker beside route 9
``end``                                 end the turn
``perm move r3.0 r7``                   permanent marker: move any piece to route 7
``perm swap r3.0 r4.1``                 … exchange the places of two pieces (two moves)
``perm develop privilege``              … develop Privilege
``perm kontor Belgard trader``          … Kontor from the supply in a yellow/green city
``perm place r7 trader``                … place a tradesman on route 7
``perm place r7 from r2.0``             … move an own piece from post r2.0 to route 7
``favour extra_action plus3 swap``      take an Emperor's Favour tile, turning two
                                        unused markers face down
``favour take trader``                  ``income_share`` tile: a tradesman from the
                                        general stock to the personal supply
=====================================  ===============================================
"""

from __future__ import annotations

from typing import NamedTuple

from hansa_lab.engine.board import ABILITIES, PIECE_NAMES, Board
from hansa_lab.engine.state import FAVOUR_TILES
from hansa_lab.engine.vocabulary import ACTION_KINDS as ACTION_KINDS  # re-exported
from hansa_lab.engine.vocabulary import DECISION_KINDS as DECISION_KINDS
from hansa_lab.engine.vocabulary import MARKER_KINDS as MARKER_KINDS
from hansa_lab.engine.vocabulary import TURN_KINDS as TURN_KINDS
from hansa_lab.engine.vocabulary import USABLE_MARKERS
from hansa_lab.errors import ActionParseError


class Action(NamedTuple):
    """A kind and up to three integer arguments; :data:`ARGUMENTS` names them per kind.

    The repr names the arguments and pastes back as code:

    >>> Action("displace", 18, 1, 0)
    Action.of('displace', post=18, piece=1, pay_merchants=0)
    >>> Action.of("place", route=5, piece=1) == Action("place", 5, 1)
    True
    """

    kind: str
    a: int = -1
    b: int = -1
    c: int = -1

    @classmethod
    def of(cls, kind: str, **args: int) -> Action:
        """An action from its kind and named arguments (:data:`ARGUMENTS`)."""
        names = ARGUMENTS.get(kind)
        if names is None:
            raise ValueError(f"unknown action kind {kind!r}")
        unknown = set(args) - set(names)
        if unknown:
            raise ValueError(f"action {kind!r} has no argument {sorted(unknown)[0]!r} "
                             f"(arguments: {', '.join(names) or 'none'})")
        return cls(kind, *(args.get(n, -1) for n in names))

    def args(self) -> dict[str, int]:
        """The arguments by name (those the kind uses)."""
        return dict(zip(ARGUMENTS.get(self.kind, ()), (self.a, self.b, self.c), strict=False))

    def __repr__(self) -> str:
        if self.kind not in ARGUMENTS:
            return f"Action({self.kind!r}, {self.a}, {self.b}, {self.c})"
        named = ", ".join(f"{k}={v}" for k, v in self.args().items() if v != -1)
        return f"Action.of({self.kind!r}{', ' if named else ''}{named})"


#: The names of ``Action.a``, ``.b`` and ``.c`` per kind: ``post``/``route``/``city``
#: are indices, ``piece`` 0 = trader and 1 = merchant, ``reward`` one of NONE … SPECIAL,
#: ``marker`` an index into USABLE_MARKERS, ``tile`` into FAVOUR_TILES, ``ability`` into
#: ABILITIES, ``from_post`` -1 unless a piece moves from an own post.
ARGUMENTS: dict[str, tuple[str, ...]] = {
    "income": ("traders", "merchants"),
    "place": ("route", "piece"),
    "displace": ("post", "piece", "pay_merchants"),
    "move": (),
    "establish": ("route", "reward", "reward_arg"),
    "marker": ("marker", "marker_arg"),
    "favour": ("tile", "marker_1", "marker_2"),
    "end": (),
    "move_piece": ("post", "route"),
    "swap": ("post", "other_post"),
    "shift": ("post", "route"),
    "remove": ("post",),
    "stop": (),
    "relocate": ("route",),
    "relocate_extra": ("route", "piece", "from_post"),
    "decline": (),
    "place_marker": ("route",),
    "favour_take": ("piece",),
    "perm_move": ("post", "route"),
    "perm_swap": ("post", "other_post"),
    "perm_develop": ("ability",),
    "perm_kontor": ("city", "piece"),
    "perm_place": ("route", "piece", "from_post"),
}


# establish reward codes (Action.b) and their text
NONE, KONTOR, EXTRA, DEVELOP, SPECIAL = range(5)
# MARKER_KINDS, USABLE_MARKERS (the marker uses: Action.a for kind "marker"), TURN_KINDS
# (the action kinds that start from the turn itself), DECISION_KINDS (those that answer a
# pending decision) and ACTION_KINDS (both) come from the shared vocabulary.
#: ``Action("marker", M_…)``: the index of the marker kind in :data:`USABLE_MARKERS`
M_PLUS3, M_PLUS4, M_DEVELOP, M_SWAP, M_MOVE3, M_REMOVE3 = range(len(USABLE_MARKERS))

#: the action kinds that spend one of the turn's actions
USES_AN_ACTION = ("income", "place", "displace", "move", "establish")


def _post(board: Board, i: int) -> str:
    return board.post_label(i)


def format_action(board: Board, act: Action) -> str:
    """The text form of an action.

    >>> from hansa_lab.engine.board import load_board
    >>> format_action(load_board("base_3p"), Action("place", 5, 0))
    'place r5 trader'
    """
    k, a, b, c = act
    names = board.cities
    if k == "income":
        return f"income {a} {b}"
    if k == "place":
        return f"place r{a} {PIECE_NAMES[b]}"
    if k == "displace":
        return f"displace {_post(board, a)} {PIECE_NAMES[b]} pay {c}"
    if k == "move":
        return "move"
    if k == "move_piece":
        return f"move {_post(board, a)} r{b}"
    if k == "swap":
        return f"swap {_post(board, a)} {_post(board, b)}"
    if k in ("stop", "decline", "end"):
        return k
    if k == "establish":
        r = board.routes[a]
        if b == NONE:
            return f"establish r{a} none"
        if b == KONTOR:
            return f"establish r{a} kontor {names[(r.a, r.b)[c]].ascii}"
        if b == EXTRA:
            return f"establish r{a} extra {names[(r.a, r.b)[c >> 1]].ascii} {PIECE_NAMES[c & 1]}"
        if b == DEVELOP:
            return f"establish r{a} develop {ABILITIES[c]}"
        if b == SPECIAL:
            return f"establish r{a} special {c}"
    if k == "relocate":
        return f"relocate r{a}"
    if k == "relocate_extra":
        if c >= 0:
            return f"relocate r{a} from {_post(board, c)}"
        return f"relocate r{a} {PIECE_NAMES[b]}"
    if k == "marker":
        name = USABLE_MARKERS[a]
        if name == "develop":
            return f"marker develop {ABILITIES[b]}"
        if name == "swap":
            city = board.office_city[b]
            return f"marker swap {names[city].ascii} {b - board.office_start[city]}"
        return f"marker {name}"
    if k == "shift":
        return f"shift {_post(board, a)} r{b}"
    if k == "remove":
        return f"remove {_post(board, a)}"
    if k == "place_marker":
        return f"place_marker r{a}"
    if k == "perm_move":
        return f"perm move {_post(board, a)} r{b}"
    if k == "perm_swap":
        return f"perm swap {_post(board, a)} {_post(board, b)}"
    if k == "perm_develop":
        return f"perm develop {ABILITIES[a]}"
    if k == "perm_kontor":
        return f"perm kontor {names[a].ascii} {PIECE_NAMES[b]}"
    if k == "perm_place":
        if c >= 0:
            return f"perm place r{a} from {_post(board, c)}"
        return f"perm place r{a} {PIECE_NAMES[b]}"
    if k == "favour":
        return f"favour {FAVOUR_TILES[a]} {MARKER_KINDS[b]} {MARKER_KINDS[c]}"
    if k == "favour_take":
        return f"favour take {PIECE_NAMES[a]}"
    raise ValueError(f"unknown action kind {k!r}")


def parse_action(board: Board, text: str) -> Action:
    """Parse the text form back into an :class:`Action` (inverse of :func:`format_action`).

    >>> from hansa_lab.engine.board import load_board
    >>> parse_action(load_board("base_3p"), "displace r5.1 merchant pay 0")
    Action.of('displace', post=18, piece=1, pay_merchants=0)

    Anything that is not the text of an action on ``board`` (not a ``str`` at all
    included) raises :class:`ActionParseError`, a ``ValueError``.
    """
    if not isinstance(text, str):
        raise ActionParseError(f"an action's text form is a str, got {type(text).__name__} "
                               f"{text!r}")
    words = text.split()
    if not words:
        raise ActionParseError("empty action text")
    try:
        return _parse(board, words)
    except ActionParseError:
        raise
    except (ValueError, IndexError, KeyError) as e:
        raise ActionParseError(f"cannot parse action {text!r}: {e}") from e


def _route(board: Board, w: str) -> int:
    if not w.startswith("r") or not w[1:].isdigit():
        raise ActionParseError(f"expected a route like r5, got {w!r}")
    r = int(w[1:])
    if not 0 <= r < board.n_routes:
        raise ActionParseError(f"route {w} does not exist on {board.name}")
    return r


def _post_of(board: Board, w: str) -> int:
    route, _, pos = w.partition(".")
    r = _route(board, route)
    if not pos.isdigit() or not 0 <= int(pos) < board.routes[r].n_posts:
        raise ActionParseError(f"post {w!r} does not exist on {board.name}")
    return board.post_start[r] + int(pos)


def _piece(w: str) -> int:
    if w not in PIECE_NAMES:
        raise ActionParseError(f"expected trader or merchant, got {w!r}")
    return PIECE_NAMES.index(w)


def _parse(board: Board, w: list[str]) -> Action:
    k = w[0]
    n = len(w)
    if k == "income" and n == 3:
        return Action("income", int(w[1]), int(w[2]))
    if k == "place" and n == 3:
        return Action("place", _route(board, w[1]), _piece(w[2]))
    if k == "displace" and n == 5 and w[3] == "pay":
        return Action("displace", _post_of(board, w[1]), _piece(w[2]), int(w[4]))
    if k == "move" and n == 1:
        return Action("move")
    if k == "move" and n == 3:
        return Action("move_piece", _post_of(board, w[1]), _route(board, w[2]))
    if k == "swap" and n == 3:
        return Action("swap", _post_of(board, w[1]), _post_of(board, w[2]))
    if k in ("stop", "decline", "end") and n == 1:
        return Action(k)
    if k == "establish" and n >= 3:
        r = _route(board, w[1])
        route = board.routes[r]
        ends = (route.a, route.b)
        reward = w[2]
        if reward == "none" and n == 3:
            return Action("establish", r, NONE)
        if reward == "kontor" and n == 4:
            return Action("establish", r, KONTOR, ends.index(board.city(w[3])))
        if reward == "extra" and n == 5:
            return Action("establish", r, EXTRA, ends.index(board.city(w[3])) * 2 + _piece(w[4]))
        if reward == "develop" and n == 4:
            return Action("establish", r, DEVELOP, ABILITIES.index(w[3]))
        if reward == "special" and n == 4:
            return Action("establish", r, SPECIAL, int(w[3]))
    if k == "relocate" and n == 2:
        return Action("relocate", _route(board, w[1]))
    if k == "relocate" and n == 3:
        return Action("relocate_extra", _route(board, w[1]), _piece(w[2]))
    if k == "relocate" and n == 4 and w[2] == "from":
        return Action("relocate_extra", _route(board, w[1]), -1, _post_of(board, w[3]))
    if k == "marker" and n >= 2:
        name = w[1]
        if name in ("plus3", "plus4", "move3", "remove3") and n == 2:
            return Action("marker", USABLE_MARKERS.index(name))
        if name == "develop" and n == 3:
            return Action("marker", USABLE_MARKERS.index("develop"), ABILITIES.index(w[2]))
        if name == "swap" and n == 4:
            city = board.city(w[2])
            slot = int(w[3])
            if not 0 <= slot < len(board.cities[city].offices) - 1:
                raise ActionParseError(f"{w[2]} has no adjacent offices {slot} and {slot + 1}")
            return Action("marker", USABLE_MARKERS.index("swap"), board.office_start[city] + slot)
    if k == "shift" and n == 3:
        return Action("shift", _post_of(board, w[1]), _route(board, w[2]))
    if k == "remove" and n == 2:
        return Action("remove", _post_of(board, w[1]))
    if k == "place_marker" and n == 2:
        return Action("place_marker", _route(board, w[1]))
    if k == "perm" and n >= 3:
        return _parse_perm(board, w[1:])
    if k == "favour" and n == 3 and w[1] == "take":
        return Action("favour_take", _piece(w[2]))
    if k == "favour" and n == 4:
        if w[1] not in FAVOUR_TILES:
            raise ActionParseError(f"unknown Emperor's Favour tile {w[1]!r}")
        m1, m2 = sorted(MARKER_KINDS.index(x) for x in w[2:])
        return Action("favour", FAVOUR_TILES.index(w[1]), m1, m2)
    raise ActionParseError(f"not an action: {' '.join(w)!r}")


def _parse_perm(board: Board, w: list[str]) -> Action:
    k, n = w[0], len(w)
    if k == "move" and n == 3:
        return Action("perm_move", _post_of(board, w[1]), _route(board, w[2]))
    if k == "swap" and n == 3:
        return Action("perm_swap", _post_of(board, w[1]), _post_of(board, w[2]))
    if k == "develop" and n == 2:
        return Action("perm_develop", ABILITIES.index(w[1]))
    if k == "kontor" and n == 3:
        return Action("perm_kontor", board.city(w[1]), _piece(w[2]))
    if k == "place" and n == 3:
        return Action("perm_place", _route(board, w[1]), _piece(w[2]))
    if k == "place" and n == 4 and w[2] == "from":
        return Action("perm_place", _route(board, w[1]), -1, _post_of(board, w[3]))
    raise ActionParseError(f"not an action: {' '.join(['perm', *w])!r}")
