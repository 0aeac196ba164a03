"""Game configuration and game state (pure data; the rules live in :mod:`hansa_lab.engine.rules`).

Occupants of posts and offices are small integers: ``-1`` for empty, otherwise
``colour * 2 + piece`` with piece 0 = trader, 1 = merchant. Colours 0 … n-1 are the
players (seats); in a two-player game colour 2 is the neutral colour (traders only),
which owns no per-player entries (its loose traders are ``State.neutral_pool``).

>>> s = new_game(GameConfig(n_players=3, seed=7))
>>> s.current_player, s.actions_left
(0, 2)
>>> s.supply_t, s.stock_t
([5, 6, 7], [6, 5, 4])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from hansa_lab.engine.board import ABILITIES, Board, load_board, resolve_side
from hansa_lab.engine.limits import as_int
from hansa_lab.engine.options import RULE_OPTIONS, Tuning, Where, resolve, validate_options
from hansa_lab.engine.rng import MAX_SEED as MAX_SEED  # re-exported
from hansa_lab.engine.rng import Rng, check_seed
from hansa_lab.engine.vocabulary import EDITIONS as EDITIONS  # re-exported
from hansa_lab.engine.vocabulary import FAVOUR_TILES as FAVOUR_TILES
from hansa_lab.engine.vocabulary import MARKER_SETS as MARKER_SETS

if TYPE_CHECKING:
    from hansa_lab.engine.decisions import Decision
    from hansa_lab.engine.events import Event

EMPTY = -1

# MARKER_SETS (the bonus-marker set of each edition) and RULE_OPTIONS (every rule option
# with its default) live with the option table in hansa_lab.engine.options.
# FAVOUR_TILES (the Emperor's Favour tiles, in the shared vocabulary's order):
#   relocate_anywhere  your displaced pieces may go to any free posts
#   extra_action       +1 action every turn (may exceed 5)
#   income_share       an opponent's Income lets you move 1 tradesman stock -> supply
#   displaced_two      your displaced trader brings 2 extra tradesmen instead of 1
#   control_4          final scoring: 4 (not 2) per controlled city
#   abilities_7        final scoring: 7 (not 4) per fully developed ability
#: The neutral colour of the two-player variant (seed 001) has this many traders.
NEUTRAL_TRADERS = 27


@dataclass(frozen=True)
class GameConfig:
    """What defines a game besides its actions: board, players, edition, seed, options.

    ``board`` is a family (``base``, ``east``, ``britannia``) resolved to a side by the
    player count, or an explicit side (``base_3p`` …). ``n_players`` is 2-5 and ``seed``
    0 … 2**63 - 1 (numpy integers are accepted and stored as ints); anything else, or an
    option outside its range (:mod:`hansa_lab.engine.options`), raises ``ValueError``
    naming it.
    """

    n_players: int = 3
    board: str = "base"
    edition: str = "bigbox"
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        n_players = as_int(self.n_players)
        if n_players is None or not 2 <= n_players <= 5:
            raise ValueError(f"n_players must be 2-5, got {self.n_players!r}")
        object.__setattr__(self, "n_players", n_players)
        seed = check_seed(self.seed, note=" (seeds are stored as 64-bit integers, as on "
                                          "the command line)")
        object.__setattr__(self, "seed", seed)
        if self.edition not in EDITIONS:
            raise ValueError(f"edition must be one of {EDITIONS}, got {self.edition!r}")
        resolve_side(self.board, self.n_players)  # raises with a clear message
        opts = validate_options(dict(self.options), self._where)
        object.__setattr__(self, "options", tuple(sorted(opts.items())))

    @property
    def _where(self) -> Where:
        return Where(self.n_players, resolve_side(self.board, self.n_players), self.edition)

    @cached_property
    def tuning(self) -> Tuning:
        """The numbers the rules use (the options resolved against board and edition)."""
        return resolve(dict(self.options), self._where)

    def __getstate__(self) -> dict[str, Any]:
        """Pickles without the cached :attr:`tuning` (rebuilt on first use)."""
        d = self.__dict__.copy()
        d.pop("tuning", None)
        return d

    def option(self, name: str) -> Any:
        return dict(self.options).get(name, RULE_OPTIONS[name])

    @property
    def has_neutral(self) -> bool:
        """Two players: the neutral colour of seed 001 takes part."""
        return self.n_players == 2

    @property
    def side(self) -> str:
        return resolve_side(self.board, self.n_players)

    def load_board(self) -> Board:
        variant = "alternative" if self.option("east_alternative") else "primary"
        return load_board(self.side, variant)

    def replace(self, **changes: Any) -> GameConfig:
        d: dict[str, Any] = {
            "n_players": self.n_players,
            "board": self.board,
            "edition": self.edition,
            "seed": self.seed,
            "options": self.options,
        }
        d.update(changes)
        return GameConfig(**d)


@dataclass(eq=False)
class State:
    """Everything that changes during a game. Treat as immutable: :func:`rules.apply`
    returns a new state. Per-player lists are indexed by seat."""

    config: GameConfig
    board: Board
    posts: list[int]
    offices: list[int]
    extras: list[tuple[int, ...]]  # per city, extra Kontors left of the printed offices
    supply_t: list[int]
    supply_m: list[int]
    stock_t: list[int]
    stock_m: list[int]
    prestige: list[int]
    levels: list[list[int]]  # per player: developments of ABILITIES (0 = start)
    markers: list[tuple[str, ...]]  # per player, unused collected markers
    markers_used: list[tuple[str, ...]]  # per player, used collected markers
    route_marker: list[str | None]  # replacement/start bonus marker beside each route
    bag: tuple[str, ...]  # face-down replacement markers, drawn from the front
    drawn: tuple[str, ...]  # drawn this turn, placed at the end of the turn
    special: list[int]  # occupant of each special-prestige space
    special_points: tuple[int, ...]
    east_west: tuple[int, ...]  # players who connected the East-West cities, in order
    discarded: tuple[str, ...] = ()  # replacement markers that found no legal route
    #: permission cities (Britannia) already used by the active player this turn
    permits_used: tuple[int, ...] = ()
    #: two players: the neutral colour's traders not on the board (-1 without neutral)
    neutral_pool: int = -1
    #: Emperor's Favour: tiles face up and available, and the tiles each player holds
    favour_display: tuple[str, ...] = ()
    favours: tuple[tuple[str, ...], ...] = ()
    #: ``n_actions`` when the active player's turn began (Emperor's Favour: "at the start")
    turn_start: int = 0
    active: int = 0
    actions_left: int = 2
    round: int = 1
    turn: int = 1
    n_actions: int = 0
    completed: int = 0
    pending: tuple[Decision, ...] = ()
    end_reason: str | None = None
    end_after_action: str | None = field(default=None, repr=False)
    #: events of the last applied action, for logs (not part of the game's identity)
    events: list[Event] = field(default_factory=list, repr=False)

    @property
    def n_players(self) -> int:
        return self.config.n_players

    @property
    def neutral(self) -> int:
        """Colour index of the neutral colour (two players), else -1."""
        return self.config.n_players if self.neutral_pool >= 0 else -1

    @property
    def n_colours(self) -> int:
        """Colours on the board: the players, plus the neutral colour with two players."""
        return self.config.n_players + (self.neutral_pool >= 0)

    def has_favour(self, player: int, tile: str) -> bool:
        return bool(self.favours) and 0 <= player < len(self.favours) and (
            tile in self.favours[player]
        )

    @property
    def is_over(self) -> bool:
        return self.end_reason is not None

    @property
    def current_player(self) -> int:
        """Who must decide now: the top pending decision's player, else the active one."""
        if self.pending:
            return self.pending[-1].player
        return self.active

    def clone(self) -> State:
        s = State.__new__(State)
        d = self.__dict__.copy()
        for k in ("posts", "offices", "extras", "supply_t", "supply_m", "stock_t", "stock_m",
                  "prestige", "markers", "markers_used", "route_marker", "special"):
            d[k] = d[k][:]
        d["levels"] = [lv[:] for lv in self.levels]
        d["events"] = []
        s.__dict__ = d
        return s

    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["events"] = []
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__ = d

    # convenience views -------------------------------------------------
    def level(self, player: int, ability: str) -> int:
        return self.levels[player][ABILITIES.index(ability)]

    def route_occupants(self, r: int) -> list[int]:
        s = self.board.post_start
        return self.posts[s[r] : s[r + 1]]

    def city_occupants(self, c: int) -> list[int]:
        s = self.board.office_start
        return list(self.extras[c]) + self.offices[s[c] : s[c + 1]]

    def __repr__(self) -> str:
        status = self.end_reason or f"player {self.current_player} to act"
        return (
            f"<State {self.board.name} {self.n_players}p seed={self.config.seed} "
            f"round {self.round} turn {self.turn}, {self.n_actions} actions, {status}>"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        a, b = self.__getstate__(), other.__getstate__()
        return a == b

    __hash__ = None  # type: ignore[assignment]


def neutral_start_routes(board: Board) -> list[int]:
    """Two players (seed 001): the neutral colour starts with one trader on every route of
    an ability city, of the special-prestige city and of a start bonus marker (tavern)."""
    cities = [c.index for c in board.cities if c.abilities] + [board.special_city]
    routes = {r for c in cities for r in board.city_routes[c]} | set(board.tavern_routes)
    return sorted(routes)


def new_game(config: GameConfig) -> State:
    """Set up a game: pieces by seat, the start markers shuffled onto the taverns,
    the replacement markers shuffled face down (then, with the Emperor's Favour module,
    the tiles). All chance comes from ``config.seed`` through :class:`~hansa_lab.engine.rng.Rng`
    (Fisher–Yates shuffles, in this order: start markers, replacement bag, favour tiles)."""
    board = config.load_board()
    n = config.n_players
    rng = Rng(config.seed)  # SplitMix64, the same draws as the Rust core (engine/rng.py)
    tuning = config.tuning
    taverns = list(board.tavern_routes)
    # the start markers, and an empty place for each tavern without one
    slots: list[str | None] = [*tuning.start_markers]
    slots += [None] * (len(taverns) - len(slots))
    rng.shuffle(slots)
    route_marker: list[str | None] = [None] * board.n_routes
    for r, m in zip(taverns, slots, strict=True):
        route_marker[r] = m
    bag = [k for k, c in tuning.marker_counts for _ in range(c)]
    for m in tuning.start_markers:
        bag.remove(m)
    rng.shuffle(bag)
    supply_t = list(tuning.start_supply)
    # 27 traders = 15 on the player board + 1 prestige marker + supply + stock
    stock_t = [27 - 16 - t for t in supply_t]
    # 4 merchants = 3 on the Liber Sophiae + supply + stock
    supply_m = [tuning.start_merchants] * n
    sp = config.option("special_points")
    special_points = tuple(sp) if sp is not None else tuple(p for p, _ in board.special_spaces)
    posts = [EMPTY] * board.n_posts
    neutral_pool = -1
    if config.has_neutral:
        start_routes = neutral_start_routes(board)
        for r in start_routes:
            i = next(i for i in board.route_posts(r) if not board.post_merchant_only[i])
            posts[i] = 2 * n  # a neutral trader
        neutral_pool = NEUTRAL_TRADERS - len(start_routes)
    display: tuple[str, ...] = ()
    favours: tuple[tuple[str, ...], ...] = ()
    if config.option("emperor"):
        tiles = list(FAVOUR_TILES)
        rng.shuffle(tiles)
        display = tuple(sorted(tiles[:n], key=FAVOUR_TILES.index))
        favours = ((),) * n
    return State(
        config=config,
        board=board,
        posts=posts,
        offices=[EMPTY] * board.n_offices,
        extras=[()] * board.n_cities,
        supply_t=supply_t,
        supply_m=supply_m,
        stock_t=stock_t,
        stock_m=[1 - m for m in supply_m],
        prestige=[0] * n,
        levels=[[0] * len(ABILITIES) for _ in range(n)],
        markers=[()] * n,
        markers_used=[()] * n,
        route_marker=route_marker,
        bag=tuple(bag),
        drawn=(),
        special=[EMPTY] * len(board.special_spaces),
        special_points=special_points,
        east_west=(),
        neutral_pool=neutral_pool,
        favour_display=display,
        favours=favours,
        active=0,
        actions_left=tuning.actions[0],
    )
