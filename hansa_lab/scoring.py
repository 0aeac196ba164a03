"""Control of cities, networks and final scoring (also "score if the game ended now").

Categories of the final score, in order: ``track`` (prestige track), ``abilities``
(4 per fully developed ability except City Keys), ``markers`` (collected bonus markers,
used or not), ``special`` (special-prestige spaces held), ``control`` (2 per controlled
city), ``network`` (Kontors in the largest network × City Keys value).
"""

from __future__ import annotations

from .board import ABILITIES, marker_score_table, player_board
from .state import EMPTY, State

CATEGORIES = ("track", "abilities", "markers", "special", "control", "network")
_PB = player_board()
TRACK_MAX = tuple(len(_PB[a]) - 1 for a in ABILITIES)  # max development per ability
KEYS_VALUES = tuple(_PB["keys"])
_MARKER_TABLE = marker_score_table()


def marker_points(n: int) -> int:
    """Points for ``n`` collected bonus markers (1→1, 2–3→3, 4–5→6, 6–7→10, 8–9→15, 10+→21).

    >>> [marker_points(n) for n in (0, 1, 3, 7, 12)]
    [0, 1, 3, 10, 21]
    """
    pts = 0
    for lo, p in _MARKER_TABLE:
        if n >= lo:
            pts = p
    return pts


def city_controller(state: State, c: int) -> int:
    """The player controlling city ``c`` (-1 if nobody has a Kontor there).

    Most Kontors (extra Kontors count); a tie goes to the tied player owning the
    rightmost Kontor."""
    occ = state.city_occupants(c)  # left to right, extras first
    counts: dict[int, int] = {}
    for o in occ:
        if o != EMPTY:
            counts[o >> 1] = counts.get(o >> 1, 0) + 1
    if not counts:
        return -1
    best = max(counts.values())
    tied = [p for p, k in counts.items() if k == best]
    if len(tied) == 1:
        return tied[0]
    for o in reversed(occ):
        if o != EMPTY and (o >> 1) in tied:
            return o >> 1
    return -1  # pragma: no cover - unreachable


def kontors_by_city(state: State, player: int) -> dict[int, int]:
    """Number of Kontors (printed and extra) the player holds in each city."""
    b = state.board
    out: dict[int, int] = {}
    for i, o in enumerate(state.offices):
        if o != EMPTY and o >> 1 == player:
            c = b.office_city[i]
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


def score_breakdown(state: State) -> list[dict[str, int]]:
    """Final score by category for every player, as if the game ended now."""
    n = state.n_players
    controllers = [city_controller(state, c) for c in range(state.board.n_cities)]
    out = []
    for p in range(n):
        lv = state.levels[p]
        full = sum(1 for i in range(4) if lv[i] >= TRACK_MAX[i])  # keys (index 4) excluded
        special = sum(
            pts
            for occ, pts in zip(state.special, state.special_points, strict=True)
            if occ != EMPTY and occ >> 1 == p
        )
        out.append(
            {
                "track": state.prestige[p],
                "abilities": 4 * full,
                "markers": marker_points(len(state.markers[p]) + len(state.markers_used[p])),
                "special": special,
                "control": 2 * controllers.count(p),
                "network": largest_network(state, p) * KEYS_VALUES[lv[4]],
            }
        )
    return out


def final_scores(state: State) -> list[int]:
    """Projected final totals (the live "End Score")."""
    return [sum(b.values()) for b in score_breakdown(state)]


def tie_break_key(state: State, breakdown: list[dict[str, int]]) -> list[tuple[int, int, int]]:
    """Sort key per player: higher is better (total, fewer Actions developments, network)."""
    return [
        (sum(b.values()), -state.levels[p][0], b["network"]) for p, b in enumerate(breakdown)
    ]


def ranking(state: State) -> list[int]:
    """Rank of every player (1 = winner; players still tied after the tie-breaks share)."""
    keys = tie_break_key(state, score_breakdown(state))
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def winners(state: State) -> list[int]:
    return [p for p, r in enumerate(ranking(state)) if r == 1]
