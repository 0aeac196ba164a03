"""Plain-text views of a state (golden playthrough files, logs, terminals).

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> print(summary_line(new_game(GameConfig(n_players=3, seed=2))))
round 1 turn 1 active 0 left 2 | decider 0 | completed 0 | prestige 0/0/0 | bag 12 drawn -
"""

from __future__ import annotations

from hansa_lab.engine.board import ABILITIES, PIECE_NAMES
from hansa_lab.engine.scoring import final_scores
from hansa_lab.engine.state import EMPTY, State

_PIECE = "tm"


def occupant(o: int) -> str:
    """``.`` for empty, else player digit + t/m (``0t`` = trader of seat 0)."""
    return "." if o == EMPTY else f"{o >> 1}{_PIECE[o & 1]}"


def summary_line(s: State) -> str:
    drawn = ",".join(s.drawn) or "-"
    return (
        f"round {s.round} turn {s.turn} active {s.active} left {s.actions_left} | "
        f"decider {s.current_player} | completed {s.completed} | "
        f"prestige {'/'.join(map(str, s.prestige))} | bag {len(s.bag)} drawn {drawn}"
    )


def board_lines(s: State) -> list[str]:
    """Routes with pieces or markers, cities with Kontors, then one line per player (and,
    when the game has them, the neutral pool, Emperor's Favour tiles, permissions used)."""
    b = s.board
    out = []
    routes = []
    for r in range(b.n_routes):
        occ = s.route_occupants(r)
        m = s.route_marker[r]
        if any(o != EMPTY for o in occ) or m:
            routes.append(f"r{r}[{' '.join(occupant(o) for o in occ)}]{'+' + m if m else ''}")
    out.append("routes: " + (" ".join(routes) or "-"))
    cities = []
    for c in range(b.n_cities):
        occ = s.city_occupants(c)
        if any(o != EMPTY for o in occ):
            ex = len(s.extras[c])
            marks = [("x" if i < ex else "") + occupant(o) for i, o in enumerate(occ)]
            cities.append(f"{b.cities[c].ascii}[{' '.join(marks)}]")
    out.append("kontors: " + (" ".join(cities) or "-"))
    if any(o != EMPTY for o in s.special):
        out.append("special: " + " ".join(occupant(o) for o in s.special))
    proj = final_scores(s)
    for p in range(s.n_players):
        lv = " ".join(f"{a[:2]}{v}" for a, v in zip(ABILITIES, s.levels[p], strict=True))
        out.append(
            f"p{p}: supply {s.supply_t[p]}t{s.supply_m[p]}m stock {s.stock_t[p]}t"
            f"{s.stock_m[p]}m | {lv} | markers {','.join(s.markers[p]) or '-'}"
            f" used {','.join(s.markers_used[p]) or '-'} | prestige {s.prestige[p]}"
            f" projected {proj[p]}"
        )
    if s.neutral >= 0:
        out.append(f"neutral: {s.neutral_pool} traders in the pool")
    if s.favours:
        held = " ".join(f"p{p} {','.join(f) or '-'}" for p, f in enumerate(s.favours))
        out.append(f"favours: available {','.join(s.favour_display) or '-'} | {held}")
    if s.permits_used:
        out.append("permits used: " + " ".join(b.cities[c].ascii for c in s.permits_used))
    if s.pending:
        out.append("pending: " + " ".join(str(f) for f in s.pending))
    return out


def event_lines(s: State) -> list[str]:
    """What the last action caused, in plain words (one line per event)."""
    from hansa_lab.engine.events import event_text

    return [event_text(s.board, ev, s.neutral) for ev in s.events]


def describe(s: State) -> str:
    """A multi-line text picture of the state, then what the last action caused in
    plain words (``Seat 1 established Hamburg–Lübeck``, ``Game over: …``)."""
    happened = event_lines(s)
    tail = ["last action caused:", *("  " + line for line in happened)] if happened else []
    return "\n".join([summary_line(s), *board_lines(s), *tail])


__all__ = ["PIECE_NAMES", "board_lines", "describe", "event_lines", "occupant", "summary_line"]
