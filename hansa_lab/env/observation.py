"""Observations: a fixed-size vector of what one seat can see, field by field.

:func:`observation_fields` lists the fields of a configuration (board side and player
count) in order; :func:`observe` is the readable reference of the encoding, which the
compiled core (``core/src/env/observation.rs``) produces fast and the tests compare.

Colours are relative to the observing seat: colour 0 is the seat itself, 1 the next seat
in turn order, …, ``n - 1`` the seat before it, and ``n`` the neutral colour of the
two-player game. Nothing hidden is encoded: the replacement markers' draw order is
secret, so only the *count per kind* of the markers not yet on the board is given (the
marker set and every marker taken out are public, so these counts are too); the markers
drawn this turn and not yet placed are known by kind only to the player who drew them.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> s = new_game(GameConfig(n_players=3, seed=7))
>>> fields = observation_fields(s.board, 3)
>>> [f.name for f in fields][:3], observation_size(s.board, 3)
(['posts', 'offices', 'extra_kontors'], 1439)
>>> len(observe(s, 0))
1439
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from hansa_lab.engine.actions import MARKER_KINDS
from hansa_lab.engine.board import ABILITIES, Board
from hansa_lab.engine.state import EMPTY, FAVOUR_TILES, State

#: the kinds of pending decision, in the order of the ``decision`` field (after "none")
DECISION_KINDS = ("relocate", "relocate_neutral", "move", "move3", "remove3",
                  "place_marker", "permanent", "favour_income")
#: the numbers of each seat's row of the ``players`` field
PLAYER_COLUMNS = (
    "prestige",
    *(f"level_{a}" for a in ABILITIES),
    "supply_traders", "supply_merchants", "stock_traders", "stock_merchants",
    *(f"markers_{m}" for m in MARKER_KINDS),
    *(f"used_{m}" for m in MARKER_KINDS),
    *(f"favour_{t}" for t in FAVOUR_TILES),
    "east_west",
)
TURN_COLUMNS = ("actions_left", "round", "completed_cities", "at_turn_start", "game_over")


@dataclass(frozen=True)
class ObsField:
    """One field of the observation: ``shape`` numbers from ``start`` on, row-major."""

    name: str
    shape: tuple[int, ...]
    start: int
    description: str

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def stop(self) -> int:
        return self.start + self.size


def n_colours(n_players: int) -> int:
    """Colours on the board: the seats, and the neutral colour with two players."""
    return n_players + (n_players == 2)


def observation_fields(board: Board, n_players: int) -> list[ObsField]:
    """The fields of the observation of a ``n_players`` game on ``board``, in order."""
    nc, n = n_colours(n_players), n_players
    k = len(MARKER_KINDS)
    spec: list[tuple[str, tuple[int, ...], str]] = [
        ("posts", (board.n_posts, 2 * nc),
         "per post (route by route): 1 in channel 2 * colour + piece (0 trader, 1 merchant) "
         "of the piece on it"),
        ("offices", (board.n_offices, 2 * nc),
         "per printed office (city by city): 1 in channel 2 * colour + piece of its Kontor"),
        ("extra_kontors", (board.n_cities, nc),
         "per city: extra Kontors (left of the printed offices) of each colour"),
        ("route_markers", (board.n_routes, k),
         "per route: 1 for the kind of bonus marker beside it (MARKER_KINDS order)"),
        ("special_spaces", (len(board.special_spaces), nc),
         "per special-prestige space: 1 for the colour of the merchant on it"),
        ("players", (n, len(PLAYER_COLUMNS)),
         "per seat (relative order): " + ", ".join(PLAYER_COLUMNS) +
         " (levels are developments, 0 = start; markers by kind)"),
        ("neutral_pool", (1,), "two players: the neutral colour's traders off the board"),
        ("unplaced_markers", (k,),
         "bonus markers by kind not yet on the board: the face-down supply plus those "
         "drawn this turn (public: the set is known, every marker out of it is seen)"),
        ("drawn_markers", (k,),
         "markers drawn this turn by kind, only for the seat that drew them (else 0)"),
        ("drawn_count", (1,), "how many markers were drawn this turn"),
        ("discarded_markers", (k,), "replacement markers discarded (no legal route), by kind"),
        ("favour_display", (len(FAVOUR_TILES),),
         "Emperor's Favour tiles face up and available"),
        ("turn", (len(TURN_COLUMNS),), ", ".join(TURN_COLUMNS)),
        ("active", (n,), "1 for the active seat (relative)"),
        ("to_act", (n,), "1 for the seat that decides now (relative)"),
        ("decision", (1 + len(DECISION_KINDS),),
         "the top pending decision: none, " + ", ".join(DECISION_KINDS)),
        ("decision_numbers", (2,),
         "the top decision's pieces or moves left, and how many decisions are pending"),
        ("permits_used", (board.n_cities,),
         "Britannia: 1 for each permission city the active seat used this turn"),
        ("seat", (n,), "1 for the observing seat's place in turn order (absolute)"),
    ]
    out: list[ObsField] = []
    start = 0
    for name, shape, text in spec:
        f = ObsField(name, shape, start, text)
        out.append(f)
        start = f.stop
    return out


def observation_size(board: Board, n_players: int) -> int:
    return observation_fields(board, n_players)[-1].stop


def _decision_numbers(state: State) -> tuple[int, float]:
    """(index into the decision field, the top decision's count)."""
    if not state.pending:
        return 0, 0.0
    top = state.pending[-1]
    kind = type(top).KIND
    left = getattr(top, "left", None)
    if left is None:
        extras = getattr(top, "extras", None)
        left = 0 if extras is None else extras + (top.piece >= 0)  # type: ignore[attr-defined]
    return 1 + DECISION_KINDS.index(kind), float(left)


def observe(state: State, seat: int) -> list[float]:
    """The observation of ``seat`` (the reference encoding; the core's is the same)."""
    b = state.board
    n = state.n_players
    nc = n_colours(n)
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not a seat of this {n}-player game")
    fields = {f.name: f for f in observation_fields(b, n)}
    out = [0.0] * observation_size(b, n)

    def rel(colour: int) -> int:
        return (colour - seat) % n if colour < n else n

    def one_hot_pieces(name: str, occupants: list[int]) -> None:
        base = fields[name].start
        for i, o in enumerate(occupants):
            if o != EMPTY:
                out[base + i * 2 * nc + 2 * rel(o >> 1) + (o & 1)] = 1.0

    one_hot_pieces("posts", state.posts)
    one_hot_pieces("offices", state.offices)
    base = fields["extra_kontors"].start
    for c, extra in enumerate(state.extras):
        for o in extra:
            out[base + c * nc + rel(o >> 1)] += 1.0
    base = fields["route_markers"].start
    for r, m in enumerate(state.route_marker):
        if m is not None:
            out[base + r * len(MARKER_KINDS) + MARKER_KINDS.index(m)] = 1.0
    base = fields["special_spaces"].start
    for j, o in enumerate(state.special):
        if o != EMPTY:
            out[base + j * nc + rel(o >> 1)] = 1.0
    base = fields["players"].start
    width = len(PLAYER_COLUMNS)
    k = len(MARKER_KINDS)
    for p in range(n):
        row = base + rel(p) * width
        values = [state.prestige[p], *state.levels[p], state.supply_t[p], state.supply_m[p],
                  state.stock_t[p], state.stock_m[p]]
        for j, v in enumerate(values):
            out[row + j] = float(v)
        j = len(values)
        for m in state.markers[p]:
            out[row + j + MARKER_KINDS.index(m)] += 1.0
        for m in state.markers_used[p]:
            out[row + j + k + MARKER_KINDS.index(m)] += 1.0
        if state.favours:
            for t in state.favours[p]:
                out[row + j + 2 * k + FAVOUR_TILES.index(t)] = 1.0
        out[row + width - 1] = 1.0 if p in state.east_west else 0.0
    out[fields["neutral_pool"].start] = float(max(state.neutral_pool, 0))
    base = fields["unplaced_markers"].start
    for m in (*state.bag, *state.drawn):
        out[base + MARKER_KINDS.index(m)] += 1.0
    if seat == state.active:
        base = fields["drawn_markers"].start
        for m in state.drawn:
            out[base + MARKER_KINDS.index(m)] += 1.0
    out[fields["drawn_count"].start] = float(len(state.drawn))
    base = fields["discarded_markers"].start
    for m in state.discarded:
        out[base + MARKER_KINDS.index(m)] += 1.0
    base = fields["favour_display"].start
    for t in state.favour_display:
        out[base + FAVOUR_TILES.index(t)] = 1.0
    base = fields["turn"].start
    out[base : base + len(TURN_COLUMNS)] = [
        float(state.actions_left), float(state.round), float(state.completed),
        1.0 if state.n_actions == state.turn_start else 0.0,
        1.0 if state.is_over else 0.0,
    ]
    out[fields["active"].start + rel(state.active)] = 1.0
    out[fields["to_act"].start + rel(state.current_player)] = 1.0
    kind, left = _decision_numbers(state)
    out[fields["decision"].start + kind] = 1.0
    base = fields["decision_numbers"].start
    out[base], out[base + 1] = left, float(len(state.pending))
    base = fields["permits_used"].start
    for c in state.permits_used:
        out[base + c] = 1.0
    out[fields["seat"].start + seat] = 1.0
    return out
