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

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
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


# --------------------------------------------------------------------------- text
# An action's text comes from one table, :data:`ACTION_FORMS`: per kind (and, where a
# kind has several shapes, per fixed argument) the code that :func:`format_action`
# writes and :func:`parse_action` reads, ``{slot:type}`` standing for arguments of the
# types of :data:`ARG_TYPES`, and the sentence :func:`~hansa_lab.engine.narrate.
# describe_action` says, ``{slot:type}`` there standing for the word types of narrate.


@dataclass(frozen=True)
class ArgType:
    """How ``words`` words of an action's code stand for argument values: ``write``
    gives the words of the values (the action at hand for context), ``read`` the values
    of the words (the arguments read so far for context; ActionParseError otherwise)."""

    words: int
    write: Callable[[Board, Action, tuple[int, ...]], str]
    read: Callable[[Board, dict[str, int], list[str]], tuple[int, ...]]


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


def _ends(board: Board, route: int) -> tuple[int, int]:
    r = board.routes[route]
    return r.a, r.b


def _office_pair(board: Board, words: list[str]) -> tuple[int]:
    city = board.city(words[0])
    slot = int(words[1])
    if not 0 <= slot < len(board.cities[city].offices) - 1:
        raise ActionParseError(f"{words[0]} has no adjacent offices {slot} and {slot + 1}")
    return (board.office_start[city] + slot,)


def _tile(w: str) -> int:
    if w not in FAVOUR_TILES:
        raise ActionParseError(f"unknown Emperor's Favour tile {w!r}")
    return FAVOUR_TILES.index(w)


def _city_text(board: Board, c: int) -> str:
    return board.cities[c].ascii


def _one(read: Callable[[Board, str], int]) -> Callable[[Board, dict[str, int], list[str]],
                                                          tuple[int, ...]]:
    return lambda board, _known, w: (read(board, w[0]),)


#: The argument types of action codes, by the name used in :data:`ACTION_FORMS`.
ARG_TYPES: dict[str, ArgType] = {
    "int": ArgType(1, lambda _b, _a, v: str(v[0]), _one(lambda _b, w: int(w))),
    "route": ArgType(1, lambda _b, _a, v: f"r{v[0]}", _one(_route)),
    "post": ArgType(1, lambda b, _a, v: b.post_label(v[0]), _one(_post_of)),
    "piece": ArgType(1, lambda _b, _a, v: PIECE_NAMES[v[0]], _one(lambda _b, w: _piece(w))),
    "ability": ArgType(1, lambda _b, _a, v: ABILITIES[v[0]],
                       _one(lambda _b, w: ABILITIES.index(w))),
    "city": ArgType(1, lambda b, _a, v: _city_text(b, v[0]), _one(lambda b, w: b.city(w))),
    # an endpoint of the action's route (0 or 1)
    "route_end": ArgType(1, lambda b, a, v: _city_text(b, _ends(b, a.a)[v[0]]),
                         lambda b, k, w: (_ends(b, k["a"]).index(b.city(w[0])),)),
    # an endpoint of the action's route and a piece: endpoint * 2 + piece
    "route_end_piece": ArgType(
        2, lambda b, a, v: f"{_city_text(b, _ends(b, a.a)[v[0] >> 1])} {PIECE_NAMES[v[0] & 1]}",
        lambda b, k, w: (_ends(b, k["a"]).index(b.city(w[0])) * 2 + _piece(w[1]),)),
    # the first of two adjacent offices: city and slot
    "office_pair": ArgType(
        2, lambda b, _a, v: f"{_city_text(b, b.office_city[v[0]])} "
                            f"{v[0] - b.office_start[b.office_city[v[0]]]}",
        lambda b, _k, w: _office_pair(b, w)),
    "tile": ArgType(1, lambda _b, _a, v: FAVOUR_TILES[v[0]], _one(lambda _b, w: _tile(w))),
    # two bonus-marker kinds, read in either order (stored sorted)
    "marker_pair": ArgType(
        2, lambda _b, _a, v: f"{MARKER_KINDS[v[0]]} {MARKER_KINDS[v[1]]}",
        lambda _b, _k, w: tuple(sorted(MARKER_KINDS.index(x) for x in w))),
}


#: an argument's slot name → its index in the action tuple
SLOTS = {"a": 1, "b": 2, "c": 3}


@dataclass(frozen=True)
class ActionForm:
    """One shape of an action's text: the actions of ``kind`` with the ``fixed``
    arguments (slot → value) read and write as ``code`` and are said as ``words``
    (after "Seat 1 " or "A player ")."""

    kind: str
    code: str
    words: str
    fixed: tuple[tuple[str, int], ...] = ()

    @cached_property
    def parts(self) -> tuple[tuple[str, str, str], ...]:
        """The code's words: (literal, "", "") or ("", slots, type) per placeholder."""
        out = []
        for word in self.code.split():
            if word.startswith("{"):
                slots, _, kind = word[1:-1].partition(":")
                out.append(("", slots, kind))
            else:
                out.append((word, "", ""))
        return tuple(out)

    @cached_property
    def n_words(self) -> int:
        return sum(ARG_TYPES[t].words if not lit else 1 for lit, _, t in self.parts)

    @cached_property
    def fixed_at(self) -> tuple[tuple[int, int], ...]:
        """``fixed`` as (index into the action tuple, value)."""
        return tuple((SLOTS[slot], v) for slot, v in self.fixed)

    @cached_property
    def writers(self) -> tuple[str | tuple[ArgType, tuple[int, ...]], ...]:
        """The code's words: a literal, or an argument type and its slots' indices."""
        return tuple(lit or (ARG_TYPES[kind], tuple(SLOTS[x] for x in slots))
                     for lit, slots, kind in self.parts)

    def matches(self, action: Action) -> bool:
        if action[0] != self.kind:
            return False
        for i, v in self.fixed_at:  # noqa: SIM110 - a loop: all() of a generator is slower
            if action[i] != v:
                return False
        return True


def _forms() -> tuple[ActionForm, ...]:
    f = ActionForm
    marker = "uses the bonus marker '{a:usable_marker}'"
    return (
        f("income", "income {a:int} {b:int}", "takes income: {ab:income} from the stock to "
          "the supply"),
        f("place", "place {a:route} {b:piece}", "places a {b:piece} on {a:route}"),
        f("displace", "displace {a:post} {b:piece} pay {c:int}",
          "displaces {a:victim} on {a:post} with a {b:piece}, {c:payment}"),
        f("move", "move", "starts a Move action (moving up to its Book's number of pieces)"),
        f("move_piece", "move {a:post} {b:route}", "moves a piece from {a:post} to {b:route}"),
        f("swap", "swap {a:post} {b:post}", "swaps its pieces on {a:post} and {b:post}"),
        f("stop", "stop", "stops moving or removing pieces"),
        f("decline", "decline", "places no more extra pieces"),
        f("end", "end", "ends the turn"),
        f("establish", "establish {a:route} none", "establishes {a:route}, taking no reward",
          (("b", NONE),)),
        f("establish", "establish {a:route} kontor {c:route_end}",
          "establishes {a:route} and opens a Kontor in {c:route_end}", (("b", KONTOR),)),
        f("establish", "establish {a:route} extra {c:route_end_piece}",
          "establishes {a:route} and opens an extra Kontor in {c:extra_city} with a "
          "{c:extra_piece}", (("b", EXTRA),)),
        f("establish", "establish {a:route} develop {c:ability}",
          "establishes {a:route} and develops {c:ability}", (("b", DEVELOP),)),
        f("establish", "establish {a:route} special {c:int}",
          "establishes {a:route} and takes special-prestige space {c:special_space}",
          (("b", SPECIAL),)),
        f("relocate", "relocate {a:route}", "moves its displaced piece to {a:route}"),
        f("relocate_extra", "relocate {a:route} from {c:post}",
          "moves its piece from {c:post} to {a:route} (after being displaced)", (("b", -1),)),
        f("relocate_extra", "relocate {a:route} {b:piece}",
          "places an extra {b:piece} on {a:route} (after being displaced)"),
        *(f("marker", f"marker {name}", marker, (("a", USABLE_MARKERS.index(name)),))
          for name in ("plus3", "plus4", "move3", "remove3")),
        f("marker", "marker develop {b:ability}", marker + ": develops {b:ability}",
          (("a", USABLE_MARKERS.index("develop")),)),
        f("marker", "marker swap {b:office_pair}", marker + ": {b:office_pair}",
          (("a", USABLE_MARKERS.index("swap")),)),
        f("shift", "shift {a:post} {b:route}", "moves {a:any_piece} from {a:post} to {b:route}"),
        f("remove", "remove {a:post}", "removes {a:any_piece} from {a:post}"),
        f("place_marker", "place_marker {a:route}", "places a new bonus marker beside {a:route}"),
        f("perm_move", "perm move {a:post} {b:route}",
          "moves a piece from {a:post} to {b:route} (printed bonus)"),
        f("perm_swap", "perm swap {a:post} {b:post}",
          "exchanges the pieces on {a:post} and {b:post} (printed bonus)"),
        f("perm_develop", "perm develop {a:ability}", "develops {a:ability} (printed bonus)"),
        f("perm_kontor", "perm kontor {a:city} {b:piece}",
          "opens a Kontor in {a:city} with a {b:piece} (printed bonus)"),
        f("perm_place", "perm place {a:route} from {c:post}",
          "moves its piece from {c:post} to {a:route} (printed bonus)", (("b", -1),)),
        f("perm_place", "perm place {a:route} {b:piece}",
          "places a {b:piece} on {a:route} (printed bonus)"),
        f("favour", "favour {a:tile} {bc:marker_pair}",
          "takes the Emperor's Favour tile '{a:tile}', turning its markers '{b:marker}' and "
          "'{c:marker}' face down"),
        f("favour_take", "favour take {a:piece}",
          "moves a {a:piece} from the stock to the supply (income share)"),
    )


#: Every shape of action text: the one table behind :func:`format_action`,
#: :func:`parse_action` and :func:`~hansa_lab.engine.narrate.describe_action`.
ACTION_FORMS: tuple[ActionForm, ...] = _forms()


#: the forms of each kind, in table order
_BY_KIND: dict[str, list[ActionForm]] = {}
for _form in ACTION_FORMS:
    _BY_KIND.setdefault(_form.kind, []).append(_form)


#: the forms by their first word and number of words (the candidates of a text)
_BY_START: dict[tuple[str, int], list[ActionForm]] = {}
for _form in ACTION_FORMS:
    _BY_START.setdefault((_form.parts[0][0], _form.n_words), []).append(_form)


def action_form(act: Action) -> ActionForm:
    """The shape of ``act``'s text (ValueError for an unknown kind)."""
    for form in _BY_KIND.get(act[0], ()):
        if form.matches(act):
            return form
    raise ValueError(f"unknown action kind {act[0]!r}")


def format_action(board: Board, act: Action) -> str:
    """The text form of an action.

    >>> from hansa_lab.engine.board import load_board
    >>> format_action(load_board("base_3p"), Action("place", 5, 0))
    'place r5 trader'
    """
    if type(act) is not Action:
        act = Action(*act)
    args = (act.a, act.b, act.c)
    out = []
    for w in action_form(act).writers:
        if isinstance(w, str):
            out.append(w)
        else:
            arg, slots = w
            out.append(arg.write(board, act, tuple(args[i - 1] for i in slots)))
    return " ".join(out)


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


def _literals_match(form: ActionForm, words: list[str]) -> bool:
    if form.n_words != len(words):
        return False
    i = 0
    for literal, _, kind in form.parts:
        if literal and words[i] != literal:
            return False
        i += 1 if literal else ARG_TYPES[kind].words
    return True


def _parse(board: Board, words: list[str]) -> Action:
    candidates = _BY_START.get((words[0], len(words)), ())
    form = next((f for f in candidates if _literals_match(f, words)), None)
    if form is None:
        raise ActionParseError(f"not an action: {' '.join(words)!r}")
    values = dict(form.fixed)
    i = 0
    for literal, slots, kind in form.parts:
        if literal:
            i += 1
            continue
        t = ARG_TYPES[kind]
        values.update(zip(slots, t.read(board, values, words[i:i + t.words]), strict=True))
        i += t.words
    return Action(form.kind, values.get("a", -1), values.get("b", -1), values.get("c", -1))
