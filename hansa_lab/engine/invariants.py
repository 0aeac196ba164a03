"""Invariant checker: conservation of pieces and markers, consistent posts and Kontors.

Tests call :func:`check_state` after every action and :func:`check_transition` on every
step; users can switch checking on in the game loop (``play_game(..., check=True)``).

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> check_state(new_game(GameConfig(n_players=4, seed=3)))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain

from hansa_lab.engine.board import A_ACTIONS, A_BANK, A_BOOK, A_KEYS, A_PRIVILEGE
from hansa_lab.engine.decisions import PlaceMarkers, Relocation
from hansa_lab.engine.scoring import TRACK_MAX
from hansa_lab.engine.state import EMPTY, FAVOUR_TILES, NEUTRAL_TRADERS, State
from hansa_lab.engine.variants.permanent import PermanentMarker
from hansa_lab.errors import InvariantError

TRADERS, MERCHANTS = 27, 4


@dataclass(frozen=True)
class Occupancy:
    """How many pieces of each occupant code (colour × 2 + 1 for a merchant) stand in
    each kind of place, counted once for all colours; ``in_hand`` is keyed by
    (colour, piece) for displaced pieces not yet relocated."""

    posts: Counter[int]
    kontors: Counter[int]
    special: Counter[int]
    in_hand: Counter[tuple[int, int]]

    @classmethod
    def of(cls, state: State) -> Occupancy:
        kontors = Counter(chain(state.offices, *state.extras))
        in_hand = Counter((f.colour(state), f.piece) for f in state.pending
                          if isinstance(f, Relocation) and f.piece >= 0)
        return cls(Counter(state.posts), kontors, Counter(state.special), in_hand)


def piece_counts(state: State, player: int,
                 occupancy: Occupancy | None = None) -> dict[str, tuple[int, int]]:
    """Where a colour's (traders, merchants) are: supply, stock, posts, kontors, board
    tracks, prestige marker, special-prestige spaces, and a displaced piece in hand (the
    neutral colour of a two-player game: pool, posts, Kontors, in hand). ``occupancy``:
    the state's :class:`Occupancy` when already counted (checking every colour)."""
    occ = occupancy if occupancy is not None else Occupancy.of(state)
    trader, merchant = player * 2, player * 2 + 1

    def count(where: Counter[int]) -> tuple[int, int]:
        return where[trader], where[merchant]

    in_hand = (occ.in_hand[(player, 0)], occ.in_hand[(player, 1)])
    if player == state.neutral:
        return {
            "pool": (state.neutral_pool, 0),
            "posts": count(occ.posts),
            "kontors": count(occ.kontors),
            "in_hand": in_hand,
        }
    lv = state.levels[player]
    covered_t = sum(TRACK_MAX[a] - lv[a] for a in (A_ACTIONS, A_BANK, A_PRIVILEGE, A_KEYS))
    return {
        "supply": (state.supply_t[player], state.supply_m[player]),
        "stock": (state.stock_t[player], state.stock_m[player]),
        "posts": count(occ.posts),
        "kontors": count(occ.kontors),
        "tracks": (covered_t, TRACK_MAX[A_BOOK] - lv[A_BOOK]),
        "prestige_marker": (1, 0),
        "special": count(occ.special),
        "in_hand": in_hand,  # displaced, not yet relocated
    }


def check_state(state: State) -> None:
    """Raise :class:`InvariantError` naming the broken invariant."""
    b = state.board
    n = state.n_players
    where = f"(seed {state.config.seed}, turn {state.turn}, action {state.n_actions})"

    def fail(msg: str) -> None:
        raise InvariantError(f"{msg} {where}")

    if state.neutral >= 0 and n != 2:
        fail("a neutral colour outside a two-player game")

    occupancy = Occupancy.of(state)
    for p in range(n):
        counts = piece_counts(state, p, occupancy)
        t = sum(v[0] for v in counts.values())
        m = sum(v[1] for v in counts.values())
        if (t, m) != (TRADERS, MERCHANTS):
            fail(f"player {p} has {t} traders and {m} merchants, not 27 and 4: {counts}")
        if min(min(v) for v in counts.values()) < 0:
            fail(f"player {p} has a negative count: {counts}")
        for a, lv in enumerate(state.levels[p]):
            if not 0 <= lv <= TRACK_MAX[a]:
                fail(f"player {p} ability {a} at level {lv}")
    if state.neutral >= 0:
        counts = piece_counts(state, state.neutral, occupancy)
        t = sum(v[0] for v in counts.values())
        m = sum(v[1] for v in counts.values())
        if (t, m) != (NEUTRAL_TRADERS, 0) or min(min(v) for v in counts.values()) < 0:
            fail(f"the neutral colour has {t} traders and {m} merchants: {counts}")
    valid = set(range(2 * n)) | {EMPTY}
    if state.neutral >= 0:
        valid.add(2 * state.neutral)  # neutral traders (no neutral merchants)
    for name, occ in (("posts", state.posts), ("offices", state.offices)):
        if not valid.issuperset(occ):
            bad = [i for i, o in enumerate(occ) if o not in valid]
            fail(f"{name} {bad[:5]} hold invalid occupants")
    if len(state.posts) != b.n_posts or len(state.offices) != b.n_offices:
        fail("posts/offices do not match the board")
    bad = [i for i, o in enumerate(state.posts) if o != EMPTY and o & 1 == 0
           and b.post_merchant_only[i]]
    if bad:
        fail(f"traders on merchant-only posts {[b.post_label(i) for i in bad]}")
    for c, ex in enumerate(state.extras):
        if not ex:
            continue
        if any(o not in valid or o == EMPTY for o in ex):
            fail(f"extra Kontors of city {b.city_names[c]} are invalid: {ex}")
        if b.cities[c].offices and state.offices[b.office_start[c]] == EMPTY:
            fail(f"{b.city_names[c]} has an extra Kontor but its first office is vacant")
    if state.neutral >= 0 and any(o >> 1 == state.neutral for ex in state.extras for o in ex):
        fail("the neutral colour holds an extra Kontor")
    starts = b.office_start
    for c in range(b.n_cities):
        occ = state.offices[starts[c] : starts[c + 1]]
        if EMPTY in occ:
            rest = occ[occ.index(EMPTY) :]
            if rest.count(EMPTY) != len(rest):
                fail(f"{b.city_names[c]} has a gap left of an occupied office: {occ}")
    completed = completed_cities(state)
    if completed != state.completed:
        fail(f"{completed} cities are complete but the state counts {state.completed}")
    for j, o in enumerate(state.special):
        if o != EMPTY and o & 1 != 1:
            fail(f"special-prestige space {j} holds a trader")
    marker_set = dict(state.config.tuning.marker_counts)
    seen = Counter(chain(state.bag, state.drawn,
                         (m for m in state.route_marker if m is not None),
                         *state.markers[:n], *state.markers_used[:n], state.discarded))
    if seen != Counter(marker_set):
        fail(f"bonus markers not conserved: {dict(seen)} vs {marker_set}")
    if any(isinstance(f, PlaceMarkers) for f in state.pending) and not state.drawn:
        fail("a bonus-marker placement is pending but no marker is drawn")
    if state.end_reason is not None and state.pending:
        fail("the game is over but decisions are pending")
    if len(set(state.east_west)) != len(state.east_west) or len(state.east_west) > len(
        state.config.tuning.east_west_points
    ):
        fail(f"East-West awards are inconsistent: {state.east_west}")
    if not 0 <= state.current_player < n:
        fail(f"current player {state.current_player} out of range")
    if len(set(state.permits_used)) != len(state.permits_used) or not set(
        state.permits_used
    ) <= {c for c, _ in b.permission_cities}:
        fail(f"permissions used this turn are inconsistent: {state.permits_used}")
    _check_favours(state, fail)
    if state.end_reason is None and any(
        isinstance(f, PermanentMarker) for f in state.pending[:-1]
    ):
        fail("a permanent-marker decision is pending under another decision")


def completed_cities(state: State) -> int:
    """Cities whose printed offices are all taken, plus yellow/green cities (no printed
    offices) holding a Kontor."""
    b = state.board
    offices, starts = state.offices, b.office_start
    return sum(
        1
        for c, city in enumerate(b.cities)
        if (
            state.extras[c]
            if city.yellow_green
            else city.offices and EMPTY not in offices[starts[c] : starts[c + 1]]
        )
    )


def _check_favours(state: State, fail: Callable[[str], None]) -> None:
    """Emperor's Favour: the face-up tiles and the players' tiles are distinct tiles, as
    many as players (none without the module)."""
    tiles = [*state.favour_display, *(t for f in state.favours for t in f)]
    if not state.config.option("emperor"):
        if tiles or state.favours:
            fail("Emperor's Favour tiles in a game without the module")
        return
    if len(state.favours) != state.n_players or len(tiles) != state.n_players:
        fail(f"Emperor's Favour tiles are not conserved: {state.favour_display} {state.favours}")
    if len(set(tiles)) != len(tiles) or not set(tiles) <= set(FAVOUR_TILES):
        fail(f"Emperor's Favour tiles are invalid: {tiles}")


def check_transition(before: State, after: State) -> None:
    """Invariants between consecutive states: prestige never decreases, turns advance."""
    for p in range(before.n_players):
        if after.prestige[p] < before.prestige[p]:
            raise InvariantError(
                f"player {p} prestige fell from {before.prestige[p]} to {after.prestige[p]} "
                f"(seed {after.config.seed}, action {after.n_actions})"
            )
    if after.turn < before.turn or after.n_actions != before.n_actions + 1:
        raise InvariantError("turn or action counters went backwards")
