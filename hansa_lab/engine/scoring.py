"""Control of cities, networks and final scoring (also "score if the game ended now").

Categories of the final score, in order: ``track`` (prestige track), ``abilities``
(4 per fully developed ability except City Keys), ``markers`` (collected bonus markers,
used or not), ``special`` (special-prestige spaces held), ``control`` (2 per controlled
city), ``network`` (Kontors in the largest network × City Keys value), ``regions``
(Britannia: the Wales and Scotland majorities, 7 / 4 / 2; 0 on other boards).

With the Emperor's Favour module, the ``control_4`` tile pays 4 per controlled city and
``abilities_7`` pays 7 per fully developed ability. Every number here is the printed one
by default and a rule option otherwise (``control_points``, ``ability_points``,
``favour_control_bonus``, ``favour_abilities_bonus``, ``marker_points``, ``keys_track``,
``region_points``: :mod:`hansa_lab.engine.options`), read from ``state.config.tuning``.
In a two-player game the neutral colour's Kontors count for control (a city it controls
scores for nobody) but the neutral colour itself is never scored or ranked.
"""

from __future__ import annotations

from itertools import compress
from operator import ne

from hansa_lab.engine.board import (
    A_ACTIONS,
    A_KEYS,
    ABILITIES,
    marker_score_table,
    player_board,
)
from hansa_lab.engine.state import EMPTY, State

CATEGORIES = ("track", "abilities", "markers", "special", "control", "network", "regions")
_PB = player_board()
TRACK_MAX = tuple(len(_PB[a]) - 1 for a in ABILITIES)  # max development per ability
KEYS_VALUES = tuple(_PB["keys"])
#: the abilities whose full development scores at the end (all but City Keys)
SCORED_TRACKS = tuple(a for a in range(len(ABILITIES)) if a != A_KEYS)
_MARKER_TABLE = marker_score_table()
MARKER_POINTS = [max((p for lo, p in _MARKER_TABLE if n >= lo), default=0) for n in range(32)]


def marker_points(n: int) -> int:
    """Points for ``n`` collected bonus markers (1→1, 2–3→3, 4–5→6, 6–7→10, 8–9→15, 10+→21).

    >>> [marker_points(n) for n in (0, 1, 3, 7, 12)]
    [0, 1, 3, 10, 21]
    """
    return MARKER_POINTS[n] if n < len(MARKER_POINTS) else MARKER_POINTS[-1]


def city_controller(state: State, c: int) -> int:
    """The player controlling city ``c`` (-1 if nobody has a Kontor there).

    Most Kontors (extra Kontors count); a tie goes to the tied player owning the
    rightmost Kontor."""
    b = state.board
    occ = state.offices[b.office_start[c] : b.office_start[c + 1]]
    extras = state.extras[c]
    if not extras and (not occ or occ[0] == EMPTY):
        return -1  # offices fill from the left: the first is taken before any other
    row = (*extras, *occ)  # extra Kontors stand left of the printed offices
    kontors: dict[int, int] = {}
    for o in row:
        if o != EMPTY:
            kontors[o >> 1] = kontors.get(o >> 1, 0) + 1
    best_n = max(kontors.values())
    leaders = [p for p, k in kontors.items() if k == best_n]
    if len(leaders) == 1:
        return leaders[0]
    for o in reversed(row):  # rightmost Kontor of a tied player
        if o != EMPTY and (o >> 1) in leaders:
            return o >> 1
    return -1  # pragma: no cover - unreachable


def kontors_by_city(state: State, player: int) -> dict[int, int]:
    """Number of Kontors (printed and extra) the player holds in each city."""
    offices = state.offices
    office_city = state.board.office_city
    out: dict[int, int] = {}
    for code in (2 * player, 2 * player + 1):  # trader, merchant: found by C-level search
        i = -1
        for _ in range(offices.count(code)):
            i = offices.index(code, i + 1)
            c = office_city[i]
            out[c] = out.get(c, 0) + 1
    for c, ex in enumerate(state.extras):
        for o in ex:
            if o >> 1 == player:
                out[c] = out.get(c, 0) + 1
    return out


def largest_network(state: State, player: int) -> int:
    """Kontors in the player's largest group of connected cities holding own Kontors."""
    kc = kontors_by_city(state, player)
    nbrs = state.board.city_neighbours
    seen: set[int] = set()
    best = 0
    for start in kc:
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        total = 0
        while stack:
            c = stack.pop()
            total += kc[c]
            for d in nbrs[c]:
                if d in kc and d not in seen:
                    seen.add(d)
                    stack.append(d)
        best = max(best, total)
    return best


def connects(state: State, player: int, a: int, b: int) -> bool:
    """Whether a chain of adjacent cities each holding a Kontor of the player joins a and b."""
    kc = kontors_by_city(state, player)
    if a not in kc or b not in kc:
        return False
    nbrs = state.board.city_neighbours
    seen = {a}
    stack = [a]
    while stack:
        c = stack.pop()
        if c == b:
            return True
        for d in nbrs[c]:
            if d in kc and d not in seen:
                seen.add(d)
                stack.append(d)
    return False


class KontorCache:
    """Remembers the Kontor-dependent terms (controllers, networks) of the last position
    seen; Kontors change only when a route is established, so a game log that scores every
    turn recomputes them rarely."""

    def __init__(self) -> None:
        self._key: tuple[list[int], list[tuple[int, ...]]] | None = None
        self._value: tuple[list[int], list[int]] = ([], [])

    def terms(self, state: State) -> tuple[list[int], list[int]]:
        key = self._key
        if key is None or len(key[0]) != len(state.offices) or len(key[1]) != len(state.extras):
            self._key = (state.offices[:], state.extras[:])
            self._value = kontor_terms(state)
        elif key[0] != state.offices or key[1] != state.extras:
            self._value = self._update(state, key[0], key[1])
            self._key = (state.offices[:], state.extras[:])
        return self._value

    def _update(
        self, state: State, offices: list[int], extras: list[tuple[int, ...]]
    ) -> tuple[list[int], list[int]]:
        """Recompute only the cities whose Kontors changed and the networks of the
        players whose Kontors changed."""
        b = state.board
        controllers = self._value[0][:]
        networks = self._value[1][:]
        now = state.offices
        moved = list(compress(range(len(now)), map(ne, offices, now)))
        changed = {b.office_city[i] for i in moved}
        # a network changes only for the players whose own Kontors changed
        players = {o >> 1 for i in moved for o in (offices[i], now[i]) if o >= 0}
        if extras != state.extras:
            for c, (x, y) in enumerate(zip(extras, state.extras, strict=True)):
                if x != y:
                    changed.add(c)
                    players.update(o >> 1 for o in (*x, *y) if o >= 0)
        for c in changed:
            controllers[c] = city_controller(state, c)
        for p in players:
            if p < len(networks):
                networks[p] = largest_network(state, p)
        return controllers, networks


def kontor_terms(state: State) -> tuple[list[int], list[int]]:
    """(controller of every city, largest network of every player)."""
    controllers = [city_controller(state, c) for c in range(state.board.n_cities)]
    networks = [largest_network(state, p) for p in range(state.n_players)]
    return controllers, networks


def board_terms(
    state: State, cache: KontorCache | None = None
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per player: cities controlled, Kontors in the largest network, special-prestige
    points, region points — the parts of the score that change only when a Kontor is
    placed or a special-prestige space taken."""
    n = state.n_players
    controllers, networks = cache.terms(state) if cache else kontor_terms(state)
    special = [0] * n
    for occ, pts in zip(state.special, state.special_points, strict=True):
        if occ != EMPTY:
            special[occ >> 1] += pts
    regions = region_points(state, controllers) if state.board.has_regions else [0] * n
    return [controllers.count(p) for p in range(n)], networks[:n], special, regions


def score_rows(state: State, cache: KontorCache | None = None) -> list[tuple[int, ...]]:
    """Final score by category (in :data:`CATEGORIES` order) per player, as tuples."""
    controlled, networks, special, regions = board_terms(state, cache)
    out: list[tuple[int, ...]] = []
    (a0, t0), (a1, t1), (a2, t2), (a3, t3) = ((a, TRACK_MAX[a]) for a in SCORED_TRACKS)
    t = state.config.tuning
    ability, control, keys = t.ability_points, t.control_points, t.keys
    for p in range(state.n_players):
        lv = state.levels[p]
        full = (lv[a0] >= t0) + (lv[a1] >= t1) + (lv[a2] >= t2) + (lv[a3] >= t3)
        favours = state.favours[p] if state.favours else ()
        out.append(
            (
                state.prestige[p],
                (ability + t.favour_abilities_bonus * ("abilities_7" in favours)) * full,
                t.marker_points(len(state.markers[p]) + len(state.markers_used[p])),
                special[p],
                (control + t.favour_control_bonus * ("control_4" in favours)) * controlled[p],
                networks[p] * keys[lv[A_KEYS]],
                regions[p],
            )
        )
    return out


def region_points(state: State, controllers: list[int]) -> list[int]:
    """Final regional majorities per player (Britannia; 0 on boards without regions).

    For each region: players ranked by cities controlled there, then by Kontors there;
    players without a controlled city come after, ranked by Kontors; a player without a
    Kontor in the region scores nothing. Places pay 7 / 4 / 2; players still tied share
    the points of the places they occupy (sum divided equally, rounded down). A city in
    two regions (Isle of Man on the 4–5-player side) counts for both. The places' points
    are the rule option ``region_points``."""
    n = state.n_players
    places = state.config.tuning.region_points
    out = [0] * n
    for cities in state.board.country_cities[1:]:
        ranked: list[tuple[tuple[int, int], int]] = []
        for p in range(n):
            kontors = sum(
                1 for c in cities for o in state.city_occupants(c) if o != EMPTY and o >> 1 == p
            )
            if kontors:
                ranked.append(((sum(controllers[c] == p for c in cities), kontors), p))
        ranked.sort(reverse=True)
        place = 0
        while place < len(ranked):
            key = ranked[place][0]
            group = [p for k, p in ranked[place:] if k == key]
            share = sum(places[place : place + len(group)]) // len(group)
            for p in group:
                out[p] += share
            place += len(group)
    return out


def score_breakdown(state: State, cache: KontorCache | None = None) -> list[dict[str, int]]:
    """Final score by category for every player, as if the game ended now."""
    return [dict(zip(CATEGORIES, row, strict=True)) for row in score_rows(state, cache)]


def final_scores(state: State) -> list[int]:
    """Projected final totals (the live "End Score")."""
    return [sum(b.values()) for b in score_breakdown(state)]


def tie_break_key(state: State, breakdown: list[dict[str, int]]) -> list[tuple[int, int, int]]:
    """Sort key per player: higher is better (total, fewer Actions developments, network)."""
    return [
        (sum(b.values()), -state.levels[p][A_ACTIONS], b["network"])
        for p, b in enumerate(breakdown)
    ]


def ranking(state: State, breakdown: list[dict[str, int]] | None = None) -> list[int]:
    """Rank of every player (1 = winner; players still tied after the tie-breaks share);
    ``breakdown``: the state's :func:`score_breakdown` when already computed."""
    keys = tie_break_key(state, breakdown or score_breakdown(state))
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def winners(state: State) -> list[int]:
    return [p for p, r in enumerate(ranking(state)) if r == 1]
