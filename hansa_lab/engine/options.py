"""Rule options: every printed number a designer may tune, in one table.

:data:`OPTIONS` is the single source: each :class:`RuleOption` has its name, its default
(the printed game), the values it allows and what it changes. :class:`GameConfig
<hansa_lab.engine.state.GameConfig>` validates a configuration's options with it (a
clear error names the option and the allowed values), ``hansa-lab options`` prints it,
and ``docs/rule_options.md`` is generated from it (:func:`options_markdown`; a test keeps
the file in step).

The numeric ranges (each number of a list or table option) come from the table both
engines share, ``data/limits.json`` (:mod:`hansa_lab.engine.limits`): the core refuses
the same values on its own. Integers may be numpy integers (stored as ints).

The rules read the numbers through :class:`Tuning`, the configuration's options resolved
against its board and edition (``config.tuning``), never from the option dict itself.
The compiled core receives :class:`Tuning` itself, resolved here (by option name:
:func:`hansa_lab.compiled.bridge.core_options`), and mirrors it in ``core/src/state.rs``; it
resolves nothing again. The option names and their plain defaults come from the
vocabulary both engines share (:mod:`hansa_lab.engine.vocabulary`).

>>> from hansa_lab.engine.state import GameConfig
>>> t = GameConfig(3, options={"control_points": 3}).tuning
>>> t.control_points, t.east_west_points, t.bank
(3, (7, 4, 2), (3, 5, 7, None))
>>> GameConfig(3, options={"control_points": -1})
Traceback (most recent call last):
...
ValueError: rule option control_points must be an integer 0-20, got -1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, NamedTuple

from hansa_lab.engine.board import load_board, marker_score_table, player_board
from hansa_lab.engine.limits import as_int, option_limit
from hansa_lab.engine.vocabulary import (
    MARKER_KINDS,
    MARKER_SETS,
    PLAIN_INT_OPTIONS,
    RULE_OPTION_NAMES,
    rule_option_default,
    vocabulary,
)

# MARKER_KINDS (every bonus-marker kind, in the order a replacement bag is filled before
# its shuffle) and MARKER_SETS (each edition's set and start markers) come from the
# vocabulary both engines share, as do the option names and their plain defaults.
_default = rule_option_default

#: How the ``bank_track`` option writes the Bank's last space ("take all").
ALL = "all"
#: Pieces of a colour: every start supply must leave the rest for the general stock.
_LOOSE_TRADERS = 27 - 16  # 27 traders: 15 cover the player board, 1 marks the prestige track
_PB = player_board()


def _printed_marker_points() -> tuple[int, ...]:
    """Points for 1, 2, … 10 collected markers, from the board file's score table."""
    table = marker_score_table()
    top = max(lo for lo, _ in table)
    return tuple(max(p for lo, p in table if n >= lo) for n in range(1, top + 1))


class Where(NamedTuple):
    """What an option's allowed values may depend on."""

    n_players: int
    side: str
    edition: str


class HashableTable(dict[str, int]):
    """A table option's value (``marker_set``): a dict that a frozen configuration can
    hash; it reads and writes as a JSON object."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))


@dataclass(frozen=True)
class RuleOption:
    """One rule option: its name, default, allowed values and effect (the documentation),
    and ``check(value, where)``, which returns the value normalised (lists as tuples) or
    raises ``ValueError`` naming the option and the allowed values."""

    name: str
    default: Any
    allowed: str
    changes: str
    check: Callable[[Any, Where], Any]
    #: the printed value, for options whose default (None) means "as printed"
    printed: str = ""


def _is_int(x: Any) -> bool:
    """An integer (a numpy integer too), not a bool."""
    return as_int(x) is not None


def _span(name: str) -> str:
    """The range of each number of option ``name``, from the shared table
    (``data/limits.json``): ``"0-20"``."""
    lim = option_limit(name)
    return f"{lim.low:g}-{lim.high:g}"


def _within(name: str, x: Any, high: int | None = None) -> bool:
    """``x`` is an integer within option ``name``'s range of the shared table (and at most
    ``high``, where the board or player count allows less)."""
    lim = option_limit(name)
    top = lim.high if high is None else min(lim.high, high)
    return _is_int(x) and lim.low <= x <= top


class _Invalid(Exception):
    """A value outside the option's allowed values: :func:`validate_options` says which,
    with the table's own wording."""


def _bad(name: str, allowed: str, value: Any) -> ValueError:
    return ValueError(f"rule option {name} must be {allowed}, got {value!r}")


def _int(name: str) -> Callable[[Any, Where], int]:
    def check(v: Any, where: Where) -> int:
        if not _within(name, v):
            raise _Invalid
        return int(v)

    return check


def _ints(name: str, min_len: int, max_len: int, *,
          ascending: bool = False) -> Callable[[Any, Where], tuple[int, ...]]:
    def check(v: Any, where: Where) -> tuple[int, ...]:
        if (not isinstance(v, Sequence) or isinstance(v, str)
                or not min_len <= len(v) <= max_len
                or not all(_within(name, x) for x in v)
                or (ascending and any(a > b for a, b in pairwise(v)))):
            raise _Invalid
        return tuple(int(x) for x in v)

    return check


def _bool(name: str) -> Callable[[Any, Where], bool]:
    def check(v: Any, where: Where) -> bool:
        if not isinstance(v, bool):
            raise ValueError(f"rule option {name} must be true or false, got {v!r}")
        return v

    return check


def _or_none(check: Callable[[Any, Where], Any]) -> Callable[[Any, Where], Any]:
    def inner(v: Any, where: Where) -> Any:
        return None if v is None else check(v, where)

    return inner


def _special_points(v: Any, where: Where) -> tuple[int, ...] | None:
    if v is None:
        return None
    if (not isinstance(v, Sequence) or isinstance(v, str) or len(v) != 4
            or not all(_within("special_points", x) for x in v)):
        raise ValueError(f"rule option special_points needs 4 integers "
                         f"{_span('special_points')}, got {v!r}")
    return tuple(int(x) for x in v)


def _start_supply(v: Any, where: Where) -> int:
    hi = min(_LOOSE_TRADERS - where.n_players, int(option_limit("start_supply").high))
    if not _within("start_supply", v, hi):
        raise ValueError(f"rule option start_supply must be 1-{hi}, got {v!r}")
    return int(v)


def _east_alternative(v: Any, where: Where) -> bool:
    v = _bool("east_alternative")(v, where)
    if v and where.side != "east":
        raise ValueError("rule option east_alternative applies only to the East board")
    return v


def _cities_to_end(v: Any, where: Where) -> int | None:
    if v is None:
        return None
    hi = min(load_board(where.side).n_cities, int(option_limit("cities_to_end").high))
    if not _within("cities_to_end", v, hi):
        raise _bad("cities_to_end", f"None (the board's number) or an integer 1-{hi} "
                                    f"(the cities of {where.side})", v)
    return int(v)


def _bank_track(v: Any, where: Where) -> tuple[int | str, ...]:
    if not isinstance(v, Sequence) or isinstance(v, str) or len(v) != len(_PB["bank"]):
        raise _Invalid
    rank = []
    for x in v:
        if x == ALL:
            rank.append(31)
        elif _within("bank_track", x):
            rank.append(int(x))
        else:
            raise _Invalid
    if any(a > b for a, b in pairwise(rank)):
        raise _Invalid
    return tuple(ALL if x == ALL else int(x) for x in v)


def _start_supply_seats(v: Any, where: Where) -> tuple[int, ...] | None:
    if v is None:
        return None
    allowed = (f"None or a list of {where.n_players}-5 integers {_span('start_supply_seats')} "
               "(seat 0 first; entries beyond the player count are ignored)")
    if (not isinstance(v, Sequence) or isinstance(v, str)
            or not where.n_players <= len(v) <= 5
            or not all(_within("start_supply_seats", x) for x in v)):
        raise _bad("start_supply_seats", allowed, v)
    return tuple(int(x) for x in v)


def _marker_set(v: Any, where: Where) -> HashableTable | None:
    if v is None:
        return None
    pairs = v.items() if isinstance(v, Mapping) else v
    try:
        table = {str(k): c for k, c in pairs}
    except (TypeError, ValueError):
        raise _Invalid from None
    if not all(k in MARKER_KINDS and _within("marker_set", c) for k, c in table.items()):
        raise _Invalid
    return HashableTable({k: int(table[k]) for k in MARKER_KINDS if table.get(k)})


def _plain_int(name: str) -> RuleOption:
    """A plain integer option (``"tuning"`` in its entry of the shared vocabulary): its
    default, range and effect are the entry's, it fills that field of :class:`Tuning`."""
    entry = next(e for e in vocabulary()["rule_options"] if e["name"] == name)
    return RuleOption(name, entry["default"], f"an integer {_span(name)}", entry["changes"],
                      _int(name))


#: The options with their own shapes or checks (the plain integer ones come from the
#: vocabulary alone: :data:`PLAIN_INT_OPTIONS`).
_SHAPED: tuple[RuleOption, ...] = (
    RuleOption("special_points", _default("special_points"),
               f"None (the board's) or 4 integers {_span('special_points')} (white, orange, "
               "pink, black)",
               "points of the four special-prestige spaces (Coellen, Königsberg, Plymouth)",
               _special_points, printed="7, 8, 9, 11"),
    RuleOption("start_supply", _default("start_supply"), "an integer 1-(11 - players)",
               "traders in seat 0's personal supply at the start (seats count from 0); "
               "seat k gets this + k (the general stock gets the rest of the 11 loose "
               "traders)", _start_supply),
    RuleOption("prestige_to_end", _default("prestige_to_end"),
               f"an integer {_span('prestige_to_end')}",
               "prestige on the track that ends the game (after that establish action)",
               _int("prestige_to_end")),
    RuleOption("east_alternative", _default("east_alternative"), "true or false (East board only)",
               "East board: the alternative source's values for the disputed cities",
               _east_alternative),
    RuleOption("emperor", _default("emperor"), "true or false",
               "the Emperor's Favour module: as many random tiles face up as players",
               _bool("emperor")),
    RuleOption("east_west_points", _default("east_west_points"),
               f"None (the board's) or a list of 0-5 integers {_span('east_west_points')}",
               "prestige for the 1st, 2nd, 3rd … player to connect the East-West cities "
               "(the list's length is the number of awards)",
               _or_none(_ints("east_west_points", 0, 5)), printed="7, 4, 2"),
    RuleOption("marker_points", _printed_marker_points(),
               f"a list of 1-20 integers {_span('marker_points')}",
               "final scoring: points for 1, 2, 3 … collected bonus markers (the last entry "
               "counts for that many markers or more)", _ints("marker_points", 1, 20)),
    RuleOption("region_points", _default("region_points"),
               f"a list of 0-5 integers {_span('region_points')}",
               "final scoring (Britannia): the Wales and Scotland majorities, 1st, 2nd, "
               "3rd … place (tied players share the places' sum, rounded down)",
               _ints("region_points", 0, 5)),
    RuleOption("cities_to_end", _default("cities_to_end"),
               "None (the board's) or an integer 1-(cities of the board)",
               "completed cities that end the game (after that establish action)",
               _cities_to_end, printed="10; Britannia 8"),
    RuleOption("actions_track", tuple(_PB["actions"]),
               f"a list of 6 integers {_span('actions_track')}, never decreasing",
               "Actions per turn at each development of the Actions track",
               _ints("actions_track", 6, 6, ascending=True)),
    RuleOption("bank_track", tuple(ALL if x is None else x for x in _PB["bank"]),
               f"a list of 4 entries, each an integer {_span('bank_track')} or \"all\", never "
               "decreasing",
               "tradesmen one Income action takes at each development of the Bank track "
               "(\"all\": the whole general stock)", _bank_track),
    RuleOption("book_track", tuple(_PB["book"]),
               f"a list of 4 integers {_span('book_track')}, never decreasing",
               "tradesmen one Move action moves at each development of the Liber Sophiae",
               _ints("book_track", 4, 4, ascending=True)),
    RuleOption("keys_track", tuple(_PB["keys"]),
               f"a list of 5 integers {_span('keys_track')}, never decreasing",
               "final scoring: points per Kontor of the largest network at each development "
               "of the City Keys track", _ints("keys_track", 5, 5, ascending=True)),
    RuleOption("start_supply_seats", _default("start_supply_seats"),
               f"None or a list of (players)-5 integers {_span('start_supply_seats')} (seat 0 "
               "first)",
               "traders in each seat's personal supply at the start, instead of "
               "start_supply's staircase (the general stock gets the rest of the 11); "
               "entries beyond the player count are ignored",
               _start_supply_seats, printed="start_supply + seat"),
    RuleOption("marker_set", _default("marker_set"),
               f"None (the edition's) or a table of counts {_span('marker_set')} by kind "
               f"({', '.join(MARKER_KINDS)})",
               "the whole bonus-marker set: the start markers are taken out of it, the rest "
               "is the face-down replacement bag (it must hold the start markers)",
               _marker_set, printed="bigbox: extra 4, swap 3, move3 2, develop 2, plus3 2, "
                                    "plus4 2; original: extra 5, swap 2, remove3 2, develop 3, "
                                    "plus3 2, plus4 2"),
    RuleOption("start_markers", _default("start_markers"), f"an integer {_span('start_markers')}",
               "start bonus markers on the taverns: the first N of the edition's three "
               "(extra, swap, move3 / remove3), shuffled onto the three tavern routes (the "
               "others stay empty); the rest of the set is the replacement bag",
               _int("start_markers")),
)

#: The option table, in the shared vocabulary's order (documentation order: the existing
#: options, then scoring, end, player board, set-up).
_SHAPED_BY_NAME = {o.name: o for o in _SHAPED}
OPTIONS: tuple[RuleOption, ...] = tuple(
    _plain_int(name) if name in PLAIN_INT_OPTIONS else _SHAPED_BY_NAME[name]
    for name in RULE_OPTION_NAMES)

#: Rule options a configuration may set, with their defaults (None: the board's printed value).
RULE_OPTIONS: dict[str, Any] = {o.name: o.default for o in OPTIONS}
_BY_NAME = {o.name: o for o in OPTIONS}


def validate_options(options: Mapping[str, Any], where: Where) -> dict[str, Any]:
    """Check a configuration's options; return them normalised (lists as tuples, tables
    as :class:`HashableTable`). ``ValueError`` names the option and the allowed values."""
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in _BY_NAME:
            raise ValueError(f"unknown rule option {name!r}; known: {', '.join(RULE_OPTIONS)}")
        option = _BY_NAME[name]
        try:
            out[name] = option.check(value, where)
        except _Invalid:
            raise _bad(name, option.allowed, value) from None
    if "start_supply" in out and out.get("start_supply_seats") is not None:
        raise ValueError("rule options start_supply and start_supply_seats exclude each other: "
                         "give one of them")
    start = MARKER_SETS[where.edition][1]
    chosen = out.get("marker_set")
    if chosen is not None:
        needed = start[: out.get("start_markers", RULE_OPTIONS["start_markers"])]
        short = [k for k in dict.fromkeys(needed) if chosen.get(k, 0) < needed.count(k)]
        if short:
            raise ValueError(f"rule option marker_set must hold the start markers "
                             f"({', '.join(needed)}), got {dict(chosen)!r}")
    return out


@dataclass(frozen=True)
class Tuning:
    """The numbers the rules use, resolved from a configuration's options, board and
    edition (``GameConfig.tuning``). Tracks are indexed by development (0 = start). The
    plain integer options (:data:`PLAIN_INT_OPTIONS`) fill their field as given, from
    their vocabulary entry: a new one is that entry, a field here and one in the core's
    ``Tuning`` (``core/src/state.rs``)."""

    east_west_points: tuple[int, ...]
    region_points: tuple[int, ...]
    control_prestige: int
    control_points: int
    favour_control_bonus: int
    ability_points: int
    favour_abilities_bonus: int
    #: points by number of collected markers, 0 … len - 1 (more: the last entry)
    marker_table: tuple[int, ...]
    cities_to_end: int
    actions: tuple[int, ...]
    bank: tuple[int | None, ...]  # None = all
    book: tuple[int, ...]
    keys: tuple[int, ...]
    start_supply: tuple[int, ...]  # traders per seat
    start_merchants: int
    marker_counts: tuple[tuple[str, int], ...]  # the whole set, in MARKER_KINDS order
    start_markers: tuple[str, ...]  # the kinds shuffled onto the taverns

    def marker_points(self, n: int) -> int:
        """Points for ``n`` collected bonus markers."""
        t = self.marker_table
        return t[n] if n < len(t) else t[-1]


def resolve(options: Mapping[str, Any], where: Where) -> Tuning:
    """The :class:`Tuning` of validated ``options`` on ``where``'s board and edition."""

    def get(name: str) -> Any:
        return options.get(name, RULE_OPTIONS[name])

    board = load_board(where.side)
    counts, start = MARKER_SETS[where.edition]
    chosen = get("marker_set")
    table = dict(chosen) if chosen is not None else counts
    seats = get("start_supply_seats")
    first = get("start_supply")
    supply = (tuple(seats[: where.n_players]) if seats is not None
              else tuple(first + k for k in range(where.n_players)))
    ew = get("east_west_points")
    cities = get("cities_to_end")
    return Tuning(
        east_west_points=tuple(board.east_west_points) if ew is None else tuple(ew),
        region_points=tuple(get("region_points")),
        marker_table=(0, *get("marker_points")),
        cities_to_end=board.completed_cities_to_end if cities is None else cities,
        actions=tuple(get("actions_track")),
        bank=tuple(None if x == ALL else x for x in get("bank_track")),
        book=tuple(get("book_track")),
        keys=tuple(get("keys_track")),
        start_supply=supply,
        marker_counts=tuple((k, table[k]) for k in MARKER_KINDS if table.get(k)),
        start_markers=start[: get("start_markers")],
        **{field: get(name) for name, field in PLAIN_INT_OPTIONS.items()},
    )


# --------------------------------------------------------------------------- documentation
def _show(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(x) for x in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def options_rows() -> list[dict[str, str]]:
    """The option table as rows of text: name, default, allowed, changes."""
    rows = []
    for o in OPTIONS:
        default = _show(o.default)
        if o.printed:
            default += f" ({o.printed})"
        rows.append({"name": o.name, "default": default, "allowed": o.allowed,
                     "changes": o.changes})
    return rows


def options_text() -> str:
    """The option table as plain text (``hansa-lab options``)."""
    out = []
    for r in options_rows():
        out += [r["name"], f"    default:  {r['default']}", f"    allowed:  {r['allowed']}",
                f"    changes:  {r['changes']}", ""]
    return "\n".join(out).rstrip() + "\n"


_DOC_HEAD = """\
# Rule options

Generated from `hansa_lab/engine/options.py` (`OPTIONS`) by `hansa-lab options --markdown`;
`tests/test_options.py` fails when this file and the table differ. The defaults are the
printed game. Set options in Python (`GameConfig(options={"control_points": 3})`), on the
command line (`--option control_points=3`, values in JSON: `--option
'bank_track=[3,5,7,"all"]'`) or in an experiment file (`[options]`, or a sweep of
variants: see the README's experiment format). Both engines (the Python reference and the
compiled core) read every option; the parity harness (`hansa-lab parity`) plays random
non-default values.

Notes:
- The tracks keep their printed lengths (the pieces covering them are fixed: 15 traders
  and 3 merchants); only their values change.
- Emperor's Favour: the tiles `control_4` and `abilities_7` add `favour_control_bonus` and
  `favour_abilities_bonus` to `control_points` and `ability_points`, so a tile keeps its
  printed edge when the base value changes.
- `None` means the board's (or the edition's) printed value, shown in brackets.

"""


def options_markdown() -> str:
    """``docs/rule_options.md``: the option table as Markdown."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [_DOC_HEAD.rstrip("\n"), "", "| option | default | allowed | what it changes |",
             "|---|---|---|---|"]
    for r in options_rows():
        lines.append(f"| `{r['name']}` | {cell(r['default'])} | {cell(r['allowed'])} | "
                     f"{cell(r['changes'])} |")
    return "\n".join(lines) + "\n"
