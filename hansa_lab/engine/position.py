"""Positions as text: one line that holds a whole game state (like chess's FEN).

:func:`to_text` writes a state, :func:`from_text` reads it back; the compiled core reads
and writes the same text (``core/src/position/``). The line is a version tag and then
``field=value`` tokens separated by single spaces, in a fixed order, named after the
:class:`~hansa_lab.engine.state.State` fields; docs/guides/positions.md documents every
field. A state holds no random generator (all chance is dealt at set-up, the bag's order
included), so the text is the whole position.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> s = new_game(GameConfig(n_players=3, seed=7))
>>> text = to_text(s)
>>> text.split()[:5]
['hansa1', 'board=base_3p', 'players=3', 'edition=bigbox', 'seed=7']
>>> from_text(text, s.config) == s
True

Malformed text raises :class:`PositionError` (a ``ValueError``) naming the field and
its column in the text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from hansa_lab.engine.board import ABILITIES, PERMANENT_MARKERS
from hansa_lab.engine.decisions import (
    Decision,
    Move,
    MoveOpponents,
    PlaceMarkers,
    Relocate,
    RelocateNeutral,
    RemoveOpponents,
)
from hansa_lab.engine.invariants import check_state
from hansa_lab.engine.options import MARKER_SETS
from hansa_lab.engine.scoring import TRACK_MAX
from hansa_lab.engine.state import EMPTY, FAVOUR_TILES, GameConfig, State
from hansa_lab.engine.variants.favour import FavourIncome
from hansa_lab.engine.variants.permanent import USES, PermanentMarker
from hansa_lab.engine.vocabulary import END_REASONS
from hansa_lab.errors import InvariantError

__all__ = ["FIELDS", "MARKER_LETTERS", "VERSION", "PositionError", "check_position", "from_text",
           "options_text", "read_config", "to_text"]

#: The first token of every position text (the format's version).
VERSION = "hansa1"
#: One letter per bonus-marker kind (bag, drawn, discarded, markers, route markers).
MARKER_LETTERS: dict[str, str] = {
    "extra": "x", "swap": "s", "move3": "m", "remove3": "r", "develop": "d",
    "plus3": "3", "plus4": "4",
}
_MARKER_OF = {v: k for k, v in MARKER_LETTERS.items()}
_PIECE_LETTERS = "tm"
#: Each kind of pending decision, by its name (the core and the text use these names).
DECISIONS: dict[str, type[Decision]] = {
    "relocate": Relocate,
    "relocate_neutral": RelocateNeutral,
    "move": Move,
    "move3": MoveOpponents,
    "remove3": RemoveOpponents,
    "place_marker": PlaceMarkers,
    "favour_income": FavourIncome,
    "permanent": PermanentMarker,
}
#: The fields of the text after the version tag, in order.
FIELDS = (
    "board", "players", "edition", "seed",
    "round", "turn", "active", "actions_left", "turn_start", "n_actions", "completed",
    "posts", "offices", "extras", "special",
    "supply_t", "supply_m", "stock_t", "stock_m", "prestige", "levels",
    "markers", "markers_used", "route_marker", "bag", "drawn", "discarded",
    "special_points", "east_west", "permits_used", "neutral_pool",
    "favour_display", "favours", "pending", "end_reason", "end_after_action", "options",
)
_EDITIONS = tuple(MARKER_SETS)
#: The longest integer (in digits) a field can hold: a seed below 2**63.
_MAX_DIGITS = 19
#: The longest position text read, in bytes (a real one is about 1,000; the core's limit).
MAX_TEXT = 1 << 16
#: The characters stripped from both ends of a text (both engines strip these).
_BLANKS = " \t\r\n"


class PositionError(ValueError):
    """Position text that is not a position: names the field and its column (1-based)."""


# --------------------------------------------------------------------------- writing
def _occupants(values: Any) -> str:
    return "".join("." if o == EMPTY else f"{o >> 1}{_PIECE_LETTERS[o & 1]}" for o in values)


def _groups(groups: Any, one: Callable[[Any], str]) -> str:
    """Groups separated by ``/``; an empty group is ``-``."""
    return "/".join(one(g) or "-" for g in groups)


def _ints(values: Any) -> str:
    return ",".join(str(v) for v in values) or "-"


def _letters(markers: Any) -> str:
    return "".join(MARKER_LETTERS[m] for m in markers)


def _decision_text(d: Decision) -> str:
    values = [getattr(d, f.name) for f in fields(d)]
    return ":".join([d.KIND, *(str(v) for v in values)])


def options_text(config: GameConfig) -> str:
    """The configuration's rule options (those not at their default) as compact JSON."""
    return json.dumps(dict(config.options), separators=(",", ":"), sort_keys=True)


def to_text(state: State) -> str:
    """The position as one line of text (see the module docstring)."""
    s, b, c = state, state.board, state.config
    values = {
        "board": c.side, "players": c.n_players, "edition": c.edition, "seed": c.seed,
        "round": s.round, "turn": s.turn, "active": s.active, "actions_left": s.actions_left,
        "turn_start": s.turn_start, "n_actions": s.n_actions, "completed": s.completed,
        "posts": _groups((s.posts[b.post_start[r]:b.post_start[r + 1]]
                          for r in range(b.n_routes)), _occupants),
        "offices": _groups((s.offices[b.office_start[k]:b.office_start[k + 1]]
                            for k in range(b.n_cities)), _occupants),
        "extras": _groups(s.extras, _occupants),
        "special": _occupants(s.special) or "-",
        "supply_t": _ints(s.supply_t), "supply_m": _ints(s.supply_m),
        "stock_t": _ints(s.stock_t), "stock_m": _ints(s.stock_m),
        "prestige": _ints(s.prestige),
        "levels": _groups(s.levels, lambda lv: "".join(map(str, lv))),
        "markers": _groups(s.markers, _letters),
        "markers_used": _groups(s.markers_used, _letters),
        "route_marker": "".join("." if m is None else MARKER_LETTERS[m]
                                for m in s.route_marker),
        "bag": _letters(s.bag) or "-", "drawn": _letters(s.drawn) or "-",
        "discarded": _letters(s.discarded) or "-",
        "special_points": _ints(s.special_points), "east_west": _ints(s.east_west),
        "permits_used": _ints(s.permits_used), "neutral_pool": s.neutral_pool,
        "favour_display": ",".join(s.favour_display) or "-",
        "favours": _groups(s.favours, ",".join) if s.favours else "-",
        "pending": _groups(s.pending, _decision_text) if s.pending else "-",
        "end_reason": s.end_reason or "-", "end_after_action": s.end_after_action or "-",
        "options": options_text(c),
    }
    return " ".join([VERSION, *(f"{k}={values[k]}" for k in FIELDS)])


# --------------------------------------------------------------------------- reading
T = TypeVar("T")


@dataclass(frozen=True)
class _Token:
    """One ``field=value`` token and the column of its value in the text (1-based)."""

    name: str
    value: str
    column: int

    def fail(self, why: str) -> PositionError:
        return PositionError(f"position text: field {self.name!r} at column {self.column}: "
                             f"{why} (got {self.value[:60]!r})")


def _tokens(text: str) -> dict[str, _Token]:
    if not isinstance(text, str):
        raise PositionError(f"position text must be a str, got {type(text).__name__}")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_TEXT:
        raise PositionError(f"position text: {size} bytes, more than {MAX_TEXT}")
    line = text.strip(_BLANKS)
    if "\n" in line:
        raise PositionError("position text: one line expected, found a line break at column "
                            f"{line.index(chr(10)) + 1}")
    words = line.split(" ")
    if words[0] != VERSION:
        raise PositionError(f"position text: column 1: expected the version tag {VERSION!r}, "
                            f"got {words[0][:20]!r}")
    out: dict[str, _Token] = {}
    column = len(VERSION) + 2
    for i, word in enumerate(words[1:]):
        key, eq, value = word.partition("=")
        expected = FIELDS[i] if i < len(FIELDS) else None
        if expected is None:
            raise PositionError(f"position text: column {column}: unexpected text after the "
                                f"last field 'options': {word[:40]!r}")
        if not eq or key != expected:
            raise PositionError(f"position text: column {column}: expected field "
                                f"{expected!r} (as {expected}=…), got {word[:40]!r}")
        out[key] = _Token(key, value, column + len(key) + 1)
        column += len(word) + 1
    if len(out) < len(FIELDS):
        raise PositionError(f"position text: column {column}: field {FIELDS[len(out)]!r} is "
                            "missing")
    return out


def _int(t: _Token, lo: int, hi: int, text: str | None = None) -> int:
    """An integer as the writer writes it: digits with an optional ``-``, no leading zero,
    no ``-0``, and within ``lo``-``hi`` (so never more digits than ``hi`` has)."""
    v = t.value if text is None else text
    digits = v[1:] if v.startswith("-") else v
    if not (digits.isascii() and digits.isdigit()):
        raise t.fail("expected an integer")
    if len(digits) > _MAX_DIGITS:
        raise t.fail(f"{v[:_MAX_DIGITS]}… ({len(digits)} digits) is outside {lo}-{hi}")
    if (len(digits) > 1 and digits[0] == "0") or v == "-0":
        raise t.fail(f"{v!r} is not an integer as the writer writes it (no leading zero, "
                     "no sign on 0)")
    n = int(v)
    if not lo <= n <= hi:
        raise t.fail(f"{n} is outside {lo}-{hi}")
    return n


def _int_list(t: _Token, lo: int, hi: int, count: int | None = None) -> list[int]:
    out = [] if t.value == "-" else [_int(t, lo, hi, v) for v in t.value.split(",")]
    if count is not None and len(out) != count:
        raise t.fail(f"expected {count} comma-separated integers, found {len(out)}")
    return out


def _split(t: _Token, count: int | None) -> list[str]:
    """The ``/``-separated groups (``-`` = empty), ``count`` of them when given."""
    groups = t.value.split("/")
    if count is not None and len(groups) != count:
        raise t.fail(f"expected {count} groups separated by '/', found {len(groups)}")
    return ["" if g == "-" else g for g in groups]


def _occupant_list(t: _Token, text: str, colours: int, size: int | None) -> list[int]:
    out: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == ".":
            out.append(EMPTY)
            i += 1
            continue
        piece = text[i + 1:i + 2]
        if not ("0" <= ch <= "9") or piece not in ("t", "m") or int(ch) >= colours:
            raise t.fail(f"bad occupant {text[i:i + 2]!r} (expected '.' or a colour "
                         f"0-{colours - 1} and t/m)")
        out.append(int(ch) * 2 + _PIECE_LETTERS.index(piece))
        i += 2
    if size is not None and len(out) != size:
        raise t.fail(f"expected {size} occupants in {text!r}, found {len(out)}")
    return out


def _marker_list(t: _Token, text: str) -> tuple[str, ...]:
    bad = [ch for ch in text if ch not in _MARKER_OF]
    if bad:
        raise t.fail(f"unknown marker letter {bad[0]!r} (letters: "
                     f"{''.join(MARKER_LETTERS.values())})")
    return tuple(_MARKER_OF[ch] for ch in text)


def _maybe_empty(t: _Token) -> str:
    return "" if t.value == "-" else t.value


def _name(t: _Token, table: tuple[str, ...], text: str) -> str:
    if text not in table:
        raise t.fail(f"unknown name {text!r} (one of {', '.join(table)})")
    return text


def _config(tok: dict[str, _Token], config: GameConfig | None) -> GameConfig:
    board, edition = tok["board"].value, _name(tok["edition"], _EDITIONS, tok["edition"].value)
    n = _int(tok["players"], 2, 5)
    seed = _int(tok["seed"], 0, 2**63 - 1)
    t = tok["options"]
    try:
        options = json.loads(t.value)
    except json.JSONDecodeError as e:
        raise t.fail(f"not JSON: {e.msg} at character {e.pos + 1}") from None
    if not isinstance(options, dict):
        raise t.fail("expected a JSON object of rule options")
    try:
        read = GameConfig(n, board, edition, seed, tuple(options.items()))
    except ValueError as e:
        raise tok["board"].fail(f"not a configuration: {e}") from None
    if board != read.side:
        raise tok["board"].fail(f"expected the board side of {n} players ({read.side!r}), "
                                "as the writer writes it")
    if config is None:
        return read
    if read != config.replace(board=read.board):
        raise tok["board"].fail(f"the text's configuration {read!r} is not the given "
                                f"{config!r}")
    return config


def _decision(t: _Token, text: str, n: int, routes: int) -> Decision:
    kind, *values = text.split(":")
    cls = DECISIONS.get(kind)
    if cls is None:
        raise t.fail(f"unknown decision {kind!r} (one of {', '.join(DECISIONS)})")
    names = [f.name for f in fields(cls)]
    if len(values) != len(names):
        raise t.fail(f"decision {kind!r} takes {len(names)} values ({', '.join(names)}), "
                     f"found {len(values)} in {text!r}")
    args: list[Any] = []
    for name, v in zip(names, values, strict=True):
        if name == "kind":
            args.append(_name(t, PERMANENT_MARKERS, v))
        else:
            lo, hi = {"player": (0, n - 1), "origin": (0, routes - 1)}.get(name, (-1, 999))
            args.append(_int(t, lo, hi, v))
    return cls(*args)


# --------------------------------------------------------------------------- checking
def _decision_limits(d: Decision, config: GameConfig) -> dict[str, tuple[int, int]]:
    """The values a pending decision's fields take when the rules create it (displacement
    compensation at most 3, a Book move at most the Book track's best value, …)."""
    if isinstance(d, RelocateNeutral):  # the neutral colour has traders only
        return {"piece": (-1, 0), "extras": (0, 1)}
    if isinstance(d, Relocate):
        return {"piece": (-1, 1), "extras": (0, 3)}
    if isinstance(d, Move):
        return {"left": (1, max(config.tuning.book))}
    if isinstance(d, MoveOpponents | RemoveOpponents):
        return {"left": (1, 3)}
    if isinstance(d, PermanentMarker):
        return {"left": (0, USES.get(d.kind, 0)), "traders": (0, 6), "merchants": (0, 6)}
    return {}


def _decision_problem(d: Decision, state: State) -> str | None:
    """Why ``d`` is not a decision the rules can leave pending in ``state`` (None if it is)."""
    for name, (lo, hi) in _decision_limits(d, state.config).items():
        value = getattr(d, name)
        if not lo <= value <= hi:
            return f"its {name} {value} is outside {lo}-{hi}"
    if isinstance(d, RelocateNeutral) and state.neutral < 0:
        return "there is no neutral colour (two players only)"
    if isinstance(d, PlaceMarkers) and not state.drawn:
        return "no bonus marker is drawn (drawn=-)"
    if isinstance(d, FavourIncome) and not state.favours:
        return "the game has no Emperor's Favour"
    return None


def check_position(state: State, text: str | None = None) -> None:
    """Refuse a position the rules cannot reach, with :class:`PositionError`: each pending
    decision must be one the rules create, and the invariants of
    :func:`~hansa_lab.engine.invariants.check_state` must hold (pieces and markers
    conserved, …), as for ``CoreGame.from_state``. Both engines' readers call it, so they
    accept the same texts. ``text``: the position text, to name the columns."""
    for d in state.pending:
        why = _decision_problem(d, state)
        if why is not None:
            where = "position text: field 'pending'"
            if text is not None and " pending=" in text:
                where += f" at column {text.index(' pending=') + len(' pending=') + 1}"
            raise PositionError(f"{where}: decision {_decision_text(d)!r} cannot be pending: "
                                f"{why}")
    try:
        check_state(state)
    except InvariantError as e:
        raise PositionError(f"position text: not a position the rules can reach: {e}") from None


def read_config(text: str, config: GameConfig | None = None) -> GameConfig:
    """The configuration a position text names (``config`` when given and the same game;
    :class:`PositionError` otherwise)."""
    return _config(_tokens(text), config)


def from_text(text: str, config: GameConfig | None = None) -> State:
    """The state a position text describes. ``config``: the game's configuration, when
    known (it must describe the same game as the text, whose board names the side); by
    default the text's own. :class:`PositionError` names the first malformed field, or
    what makes the position one the rules cannot reach (:func:`check_position`)."""
    state = _parse(text, config)
    check_position(state, text)
    return state


def _parse(text: str, config: GameConfig | None) -> State:
    """The state the text writes, each field's syntax and range checked (the core's
    ``core/src/position/read.rs`` reads the same grammar)."""
    tok = _tokens(text)
    c = _config(tok, config)
    b = c.load_board()
    n = c.n_players
    neutral_pool = _int(tok["neutral_pool"], -1, 99)
    if (neutral_pool >= 0) != c.has_neutral:
        raise tok["neutral_pool"].fail("-1 unless two players (then the neutral pool)")
    colours = n + (neutral_pool >= 0)

    def occupants_by(name: str, starts: tuple[int, ...]) -> list[int]:
        t = tok[name]
        groups = _split(t, len(starts) - 1)
        return [o for k, g in enumerate(groups)
                for o in _occupant_list(t, g, colours, starts[k + 1] - starts[k])]

    def per_player(name: str, read: Callable[[_Token, str], T]) -> list[T]:
        t = tok[name]
        return [read(t, g) for g in _split(t, n)]

    def levels(t: _Token, g: str) -> list[int]:
        if len(g) != len(ABILITIES) or not (g.isascii() and g.isdigit()):
            raise t.fail(f"expected {len(ABILITIES)} digits per player "
                         f"({', '.join(ABILITIES)}), got {g!r}")
        for ability, ch, most in zip(ABILITIES, g, TRACK_MAX, strict=True):
            if int(ch) > most:
                raise t.fail(f"{ability} developed {ch} times, beyond the player board "
                             f"(at most {most})")
        return [int(ch) for ch in g]

    ex = tok["extras"]
    extras = [tuple(_occupant_list(ex, g, colours, None)) for g in _split(ex, b.n_cities)]
    if any(o == EMPTY for x in extras for o in x):
        raise ex.fail("an extra Kontor always holds a piece ('.' is not one)")
    rm = tok["route_marker"]
    if len(rm.value) != b.n_routes:
        raise rm.fail(f"expected one character per route ({b.n_routes})")
    route_marker = [None if ch == "." else _marker_list(rm, ch)[0] for ch in rm.value]
    fav = tok["favours"]
    favours = () if fav.value == "-" else tuple(
        tuple(_name(fav, FAVOUR_TILES, x) for x in g.split(",") if g) for g in _split(fav, n))
    display = tok["favour_display"]
    pend = tok["pending"]
    ends = {k: tok[k] for k in ("end_reason", "end_after_action")}
    end = {k: None if t.value == "-" else _name(t, END_REASONS, t.value) for k, t in ends.items()}
    return State(
        config=c,
        board=b,
        posts=occupants_by("posts", b.post_start),
        offices=occupants_by("offices", b.office_start),
        extras=extras,
        supply_t=_int_list(tok["supply_t"], 0, 99, n),
        supply_m=_int_list(tok["supply_m"], 0, 99, n),
        stock_t=_int_list(tok["stock_t"], 0, 99, n),
        stock_m=_int_list(tok["stock_m"], 0, 99, n),
        prestige=_int_list(tok["prestige"], 0, 9999, n),
        levels=per_player("levels", levels),
        markers=per_player("markers", _marker_list),
        markers_used=per_player("markers_used", _marker_list),
        route_marker=route_marker,
        bag=_marker_list(tok["bag"], _maybe_empty(tok["bag"])),
        drawn=_marker_list(tok["drawn"], _maybe_empty(tok["drawn"])),
        special=_occupant_list(tok["special"], _maybe_empty(tok["special"]), colours,
                               len(b.special_spaces)),
        special_points=tuple(_int_list(tok["special_points"], -99, 99,
                                       len(b.special_spaces))),
        east_west=tuple(_int_list(tok["east_west"], 0, n - 1)),
        discarded=_marker_list(tok["discarded"], _maybe_empty(tok["discarded"])),
        permits_used=tuple(_int_list(tok["permits_used"], 0, b.n_cities - 1)),
        neutral_pool=neutral_pool,
        favour_display=() if display.value == "-" else tuple(
            _name(display, FAVOUR_TILES, x) for x in display.value.split(",")),
        favours=favours,
        turn_start=_int(tok["turn_start"], 0, 10**9),
        active=_int(tok["active"], 0, n - 1),
        actions_left=_int(tok["actions_left"], 0, 99),
        round=_int(tok["round"], 1, 10**9),
        turn=_int(tok["turn"], 1, 10**9),
        n_actions=_int(tok["n_actions"], 0, 10**9),
        completed=_int(tok["completed"], 0, 999),
        pending=() if pend.value == "-" else tuple(
            _decision(pend, g, n, b.n_routes) for g in _split(pend, None)),
        end_reason=end["end_reason"],
        end_after_action=end["end_after_action"],
    )
