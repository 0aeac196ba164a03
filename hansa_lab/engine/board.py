"""Boards as data: the packaged board file loaded once into lookup tables.

A :class:`Board` is immutable and shared by every state of a game. Everything the rules
need to know about the map — which cities a route joins, which routes touch a city, the
rings of routes around a route (for displacement), office colours and shapes — is a
precomputed table here, so rules code never hard-codes board facts.

>>> b = load_board("base_3p")
>>> b.n_cities, b.n_routes, b.n_posts
(27, 32, 101)
>>> b.city_names[b.route_cities[0][0]], b.city_names[b.route_cities[0][1]]
('Hamburg', 'Lübeck')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from hansa_lab.errors import BoardDataError

COLOURS = ("white", "orange", "pink", "black")
ABILITIES = ("actions", "bank", "book", "privilege", "keys")
#: indices into ``ABILITIES`` (and a player's ``levels``)
A_ACTIONS, A_BANK, A_BOOK, A_PRIVILEGE, A_KEYS = range(len(ABILITIES))
TRADER, MERCHANT = 0, 1
PIECE_NAMES = ("trader", "merchant")

#: Board names a user may give, resolved to a side by player count.
BOARD_FAMILIES = {
    "base": {2: "base_3p", 3: "base_3p", 4: "base_45p", 5: "base_45p"},
    "east": {3: "east", 4: "east", 5: "east"},
    "britannia": {3: "britannia_3p", 4: "britannia_45p", 5: "britannia_45p"},
}
BOARD_SIDES = ("base_3p", "base_45p", "east", "britannia_3p", "britannia_45p")
#: every name a configuration accepts as its board: the families, then the sides
KNOWN_BOARDS = tuple(dict.fromkeys([*BOARD_FAMILIES, *BOARD_SIDES]))  # "east" is both
#: Country 0 of every board: routes and cities without a region (England on Britannia).
HOME_COUNTRY = "England"
#: Points of the regional majorities (Britannia: Wales, Scotland), first to third place.
REGION_POINTS = (7, 4, 2)
#: Permanent markers of maritime routes (East, Britannia), as named in boards.json.
PERMANENT_MARKERS = ("move2", "privilege", "kontor_yellow_green", "place2_from_route",
                     "place2_regions")


@cache
def _raw() -> dict[str, Any]:
    text = resources.files("hansa_lab.engine").joinpath("data/boards.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def player_board() -> dict[str, list[Any]]:
    """The player-board tracks, left to right (bank ``None`` means "all")."""
    pb: dict[str, list[Any]] = _raw()["player_board"]
    return pb


def marker_score_table() -> list[tuple[int, int]]:
    """(minimum markers, points) pairs for collected bonus markers."""
    return [(int(a), int(b)) for a, b in _raw()["marker_score"]]


def board_family(side: str) -> str:
    """The family a board side belongs to.

    >>> board_family("britannia_45p"), board_family("base_3p"), board_family("east")
    ('britannia', 'base', 'east')
    """
    for family, sides in BOARD_FAMILIES.items():
        if side in sides.values():
            return family
    raise ValueError(f"unknown board side {side!r}: the sides are {', '.join(BOARD_SIDES)}")


def resolve_side(board: str, n_players: int) -> str:
    """Map a board family (``base``, ``east``, ``britannia``) or side name to a side.

    >>> resolve_side("base", 4)
    'base_45p'
    """
    if board in BOARD_FAMILIES:
        sides = BOARD_FAMILIES[board]
        if n_players not in sides:
            raise ValueError(
                f"board {board!r} is for {min(sides)}-{max(sides)} players, not {n_players}"
            )
        return sides[n_players]
    if board in BOARD_SIDES:
        allowed = _raw()["boards"][board]["players"]
        if n_players not in allowed:
            raise ValueError(f"board side {board!r} is for {allowed} players, not {n_players}")
        return board
    raise ValueError(f"unknown board {board!r}; known boards: {', '.join(KNOWN_BOARDS)}")


@dataclass(frozen=True)
class City:
    index: int
    name: str
    ascii: str
    offices: tuple[tuple[int, int, int], ...]  # (colour 0-3, shape TRADER/MERCHANT, coin)
    abilities: tuple[int, ...]  # indices into ABILITIES
    special_prestige: bool
    regions: tuple[str, ...] = ()
    grants_permission_for: tuple[str, ...] = ()
    yellow_green: bool = False


@dataclass(frozen=True)
class Route:
    index: int
    a: int
    b: int
    n_posts: int
    tavern: bool
    merchant_only: tuple[int, ...] = ()  # post positions that take merchants only
    permanent_marker: str | None = None
    region: str | None = None


@dataclass(frozen=True, eq=False)
class Board:
    """One board side with its lookup tables (build with :func:`load_board`)."""

    name: str
    variant: str
    title: str
    players: tuple[int, ...]
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    east_west: tuple[int, int]
    east_west_points: tuple[int, ...]
    completed_cities_to_end: int
    special_city: int
    special_route: int  # -1 if the board has none
    special_spaces: tuple[tuple[int, int], ...]  # (points, privilege colour)
    tavern_routes: tuple[int, ...]
    #: ``(HOME_COUNTRY, *regions)``: country 0 is the home country, then the regions
    countries: tuple[str, ...]
    route_country: tuple[int, ...]  # per route, index into countries
    city_countries: tuple[frozenset[int], ...]  # per city, the regions it belongs to
    country_cities: tuple[tuple[int, ...], ...]  # per country > 0, its cities
    #: cities granting Place/Displace permission: (city, countries), fewest countries first
    permission_cities: tuple[tuple[int, frozenset[int]], ...]
    yellow_green: tuple[int, ...]  # cities without printed offices (East)
    # lookup tables
    city_index: dict[str, int] = field(repr=False)
    city_names: tuple[str, ...] = field(repr=False)
    route_cities: tuple[tuple[int, int], ...] = field(repr=False)
    city_routes: tuple[tuple[int, ...], ...] = field(repr=False)
    city_neighbours: tuple[frozenset[int], ...] = field(repr=False)
    route_rings: tuple[tuple[tuple[int, ...], ...], ...] = field(repr=False)
    post_start: tuple[int, ...] = field(repr=False)  # route r owns posts [start[r], start[r+1])
    post_route: tuple[int, ...] = field(repr=False)
    post_merchant_only: tuple[bool, ...] = field(repr=False)
    office_start: tuple[int, ...] = field(repr=False)  # city c owns offices [start[c], start[c+1])
    office_city: tuple[int, ...] = field(repr=False)
    office_colour: tuple[int, ...] = field(repr=False)
    office_shape: tuple[int, ...] = field(repr=False)
    office_coin: tuple[int, ...] = field(repr=False)
    ability_cities: dict[int, tuple[int, ...]] = field(repr=False)

    @property
    def has_regions(self) -> bool:
        return len(self.countries) > 1

    @property
    def n_cities(self) -> int:
        return len(self.cities)

    @property
    def n_routes(self) -> int:
        return len(self.routes)

    @property
    def n_posts(self) -> int:
        return len(self.post_route)

    @property
    def n_offices(self) -> int:
        return len(self.office_city)

    def route_posts(self, r: int) -> range:
        return range(self.post_start[r], self.post_start[r + 1])

    def city_offices(self, c: int) -> range:
        return range(self.office_start[c], self.office_start[c + 1])

    def route_name(self, r: int) -> str:
        a, b = self.route_cities[r]
        return f"{self.city_names[a]}–{self.city_names[b]}"

    def city(self, name: str) -> int:
        """Index of a city by its name or ASCII name (case-insensitive)."""
        key = name.casefold()
        for c in self.cities:
            if c.name.casefold() == key or c.ascii.casefold() == key:
                return c.index
        raise KeyError(f"board {self.name}: no city named {name!r}")

    def route_between(self, a: str, b: str) -> int:
        ia, ib = self.city(a), self.city(b)
        for r, (x, y) in enumerate(self.route_cities):
            if {x, y} == {ia, ib}:
                return r
        raise KeyError(f"board {self.name}: no route between {a!r} and {b!r}")

    def post_label(self, i: int) -> str:
        r = self.post_route[i]
        return f"r{r}.{i - self.post_start[r]}"

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # States pickle the board by name: it is rebuilt from the packaged data.
        return (load_board, (self.name, self.variant))


def _ability_index(name: str) -> int:
    return ABILITIES.index(name)


#: The player count a board family resolves with when :func:`load_board` is given none.
DEFAULT_PLAYERS = 4


def load_board(name: str, variant: str = "primary", n_players: int | None = None) -> Board:
    """Load a board by the names a :class:`~hansa_lab.engine.state.GameConfig` accepts:
    a side (``base_3p``, ``base_45p``, ``east``, ``britannia_3p``, ``britannia_45p``) or
    a family (``base``, ``east``, ``britannia``), which is resolved to its side for
    ``n_players`` (default :data:`DEFAULT_PLAYERS`, 4: ``base`` is ``base_45p``).
    ``variant="alternative"`` uses the other source's values for the disputed cities
    (East only). The same side gives the same (cached) board.

    >>> load_board("base").name, load_board("base", n_players=3).name
    ('base_45p', 'base_3p')
    """
    if (name in BOARD_FAMILIES and name not in BOARD_SIDES) or n_players is not None:
        name = resolve_side(name, DEFAULT_PLAYERS if n_players is None else n_players)
    return _load_side(name, variant)


@cache
def _load_side(name: str, variant: str = "primary") -> Board:
    boards = _raw()["boards"]
    if name not in boards:
        raise ValueError(f"unknown board {name!r}; known: {', '.join(KNOWN_BOARDS)}")
    if variant not in ("primary", "alternative"):
        raise ValueError(f"unknown board variant {variant!r} (primary or alternative)")
    raw = boards[name]
    alternatives = raw.get("alternatives", {}) if variant == "alternative" else {}
    if variant == "alternative" and not alternatives:
        raise ValueError(f"board {name!r} has no disputed cities, so no alternative variant")

    def where(field_: str) -> str:
        return f"boards.json: board {name!r}, {field_}"

    cities: list[City] = []
    for i, c in enumerate(raw["cities"]):
        alt = alternatives.get(c["name"], {})
        offices = alt.get("offices", c["offices"])
        try:
            off = tuple(
                (COLOURS.index(col), TRADER if shape == "trader" else MERCHANT, int(coin))
                for col, shape, coin in offices
            )
            abilities = tuple(
                sorted(
                    {_ability_index(a) for a in c["abilities"]}
                    | {_ability_index(a) for a in alt.get("abilities", [])}
                )
            )
        except (ValueError, TypeError) as e:
            raise BoardDataError(f"{where('city ' + repr(c['name']))}: {e}") from e
        cities.append(
            City(
                index=i,
                name=c["name"],
                ascii=c["ascii"],
                offices=off,
                abilities=abilities,
                special_prestige=bool(c.get("special_prestige")),
                regions=tuple(c.get("regions", ())),
                grants_permission_for=tuple(c.get("grants_permission_for", ())),
                yellow_green=bool(c.get("yellow_green")),
            )
        )
    city_index = {c.name: c.index for c in cities}
    if len(city_index) != len(cities):
        raise BoardDataError(f"{where('cities')}: duplicate city names")

    routes: list[Route] = []
    for i, r in enumerate(raw["routes"]):
        for end in ("a", "b"):
            if r[end] not in city_index:
                raise BoardDataError(
                    f"{where(f'route {i} field {end!r}')}: unknown city {r[end]!r}"
                )
        if not 1 <= r["posts"] <= 6:
            raise BoardDataError(f"{where(f'route {i} posts')}: {r['posts']} posts")
        pm = r.get("permanent_marker")
        if pm is not None and pm not in PERMANENT_MARKERS:
            raise BoardDataError(f"{where(f'route {i} permanent_marker')}: unknown {pm!r}")
        mo = tuple(r.get("merchant_only_posts", ()))
        if any(not 0 <= p < r["posts"] for p in mo):
            raise BoardDataError(f"{where(f'route {i} merchant_only_posts')}: out of range")
        routes.append(
            Route(
                index=i,
                a=city_index[r["a"]],
                b=city_index[r["b"]],
                n_posts=r["posts"],
                tavern=bool(r["tavern"]),
                merchant_only=mo,
                permanent_marker=pm,
                region=r.get("region"),
            )
        )

    n_c = len(cities)
    city_routes: list[list[int]] = [[] for _ in range(n_c)]
    neighbours: list[set[int]] = [set() for _ in range(n_c)]
    for r in routes:
        city_routes[r.a].append(r.index)
        city_routes[r.b].append(r.index)
        neighbours[r.a].add(r.b)
        neighbours[r.b].add(r.a)

    # Rings of routes by distance (routes are adjacent when they share a city).
    adjacent = [
        sorted((set(city_routes[r.a]) | set(city_routes[r.b])) - {r.index}) for r in routes
    ]
    rings: list[tuple[tuple[int, ...], ...]] = []
    for r in routes:
        seen = {r.index}
        frontier = [r.index]
        out: list[tuple[int, ...]] = []
        while frontier:
            nxt = sorted({q for f in frontier for q in adjacent[f]} - seen)
            if not nxt:
                break
            seen.update(nxt)
            out.append(tuple(nxt))
            frontier = nxt
        rings.append(tuple(out))

    post_start = [0]
    post_route: list[int] = []
    post_mo: list[bool] = []
    for r in routes:
        post_start.append(post_start[-1] + r.n_posts)
        post_route.extend([r.index] * r.n_posts)
        post_mo.extend(p in r.merchant_only for p in range(r.n_posts))
    office_start = [0]
    office_city: list[int] = []
    for c in cities:
        office_start.append(office_start[-1] + len(c.offices))
        office_city.extend([c.index] * len(c.offices))
    all_offices = [o for c in cities for o in c.offices]

    ability_cities: dict[int, list[int]] = {}
    for c in cities:
        for a in c.abilities:
            ability_cities.setdefault(a, []).append(c.index)

    def city_of(field_: str, value: str) -> int:
        if value not in city_index:
            raise BoardDataError(f"{where(field_)}: unknown city {value!r}")
        return city_index[value]

    ew = tuple(city_of("east_west", v) for v in raw["east_west"])
    special_city = city_of("special_prestige_city", raw["special_prestige_city"])
    special_route = -1
    if raw.get("special_prestige_route"):
        a, b = (city_of("special_prestige_route", v) for v in raw["special_prestige_route"])
        special_route = next(
            (r.index for r in routes if {r.a, r.b} == {a, b}), -1
        )
        if special_route < 0:
            raise BoardDataError(f"{where('special_prestige_route')}: no such route")
    taverns = []
    for t in raw["tavern_routes"]:
        a_name, b_name = _split_route_name(t, city_index)
        a, b = city_index[a_name], city_index[b_name]
        tr = next((r.index for r in routes if {r.a, r.b} == {a, b}), -1)
        if tr < 0 or not routes[tr].tavern:
            raise BoardDataError(f"{where('tavern_routes')}: {t!r} is not a tavern route")
        taverns.append(tr)
    if sorted(taverns) != sorted(r.index for r in routes if r.tavern):
        raise BoardDataError(f"{where('tavern_routes')}: disagrees with the routes' tavern flags")
    regions = sorted(
        {r.region for r in routes if r.region} | {g for c in cities for g in c.regions}
    )
    countries = (HOME_COUNTRY, *regions)
    permission = []
    for c in cities:
        if c.grants_permission_for:
            unknown = set(c.grants_permission_for) - set(regions)
            if unknown:
                raise BoardDataError(
                    f"{where('city ' + repr(c.name) + ' grants_permission_for')}: "
                    f"unknown regions {sorted(unknown)}"
                )
            permission.append(
                (c.index, frozenset(countries.index(g) for g in c.grants_permission_for))
            )
    permission.sort(key=lambda x: (len(x[1]), x[0]))
    for c in cities:
        if c.yellow_green and c.offices:
            raise BoardDataError(f"{where('city ' + repr(c.name))}: yellow/green with offices")
    summary = raw["summary"]
    if variant == "primary" and (
        summary["n_cities"] != n_c
        or summary["n_routes"] != len(routes)
        or summary["n_route_posts"] != len(post_route)
        or summary["n_printed_offices"] != len(all_offices)
    ):
        raise BoardDataError(f"{where('summary')}: counts disagree with the cities and routes")

    return Board(
        name=name,
        variant=variant,
        title=raw["title"],
        players=tuple(raw["players"]),
        cities=tuple(cities),
        routes=tuple(routes),
        east_west=(ew[0], ew[1]),
        east_west_points=tuple(raw["east_west_points"]),
        completed_cities_to_end=int(raw["completed_cities_to_end"]),
        special_city=special_city,
        special_route=special_route,
        special_spaces=tuple((int(p), COLOURS.index(c)) for p, c in raw["special_prestige_spaces"]),
        tavern_routes=tuple(taverns),
        countries=countries,
        route_country=tuple(countries.index(r.region) if r.region else 0 for r in routes),
        city_countries=tuple(frozenset(countries.index(g) for g in c.regions) for c in cities),
        country_cities=tuple(
            tuple(c.index for c in cities if g in c.regions) for g in countries
        ),
        permission_cities=tuple(permission),
        yellow_green=tuple(c.index for c in cities if c.yellow_green),
        city_index=city_index,
        city_names=tuple(c.name for c in cities),
        route_cities=tuple((r.a, r.b) for r in routes),
        city_routes=tuple(tuple(x) for x in city_routes),
        city_neighbours=tuple(frozenset(x) for x in neighbours),
        route_rings=tuple(rings),
        post_start=tuple(post_start),
        post_route=tuple(post_route),
        post_merchant_only=tuple(post_mo),
        office_start=tuple(office_start),
        office_city=tuple(office_city),
        office_colour=tuple(o[0] for o in all_offices),
        office_shape=tuple(o[1] for o in all_offices),
        office_coin=tuple(o[2] for o in all_offices),
        ability_cities={k: tuple(v) for k, v in ability_cities.items()},
    )


def _split_route_name(text: str, city_index: dict[str, int]) -> tuple[str, str]:
    """Split "A-B" where city names may themselves contain hyphens."""
    for i, ch in enumerate(text):
        if ch == "-" and text[:i] in city_index and text[i + 1 :] in city_index:
            return text[:i], text[i + 1 :]
    raise BoardDataError(f"boards.json: cannot split route name {text!r} into two cities")
