"""Britannia's countries: Place/Displace permissions in Wales and Scotland.

Routes and cities carry a region in the board data (Wales; Scotland on the 4–5-player
side); a route without one is in the home country, England (country 0). A player may
Place or Displace on a Wales (Scotland) route only with a permission: owning the
rightmost Kontor of Cardiff (Carlisle), or of London for either region. Each permission
city can be used once per turn (``State.permits_used``, reset when the next turn
begins). Where displaced and moved pieces may go is :func:`hansa_lab.engine.effects.may_go`;
the regional majorities of the final scoring are :func:`hansa_lab.engine.scoring.region_points`.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> s = new_game(GameConfig(n_players=3, board="britannia", seed=1))
>>> permitted_countries(s, 0)
{0}
"""

from __future__ import annotations

from hansa_lab.engine.effects import log
from hansa_lab.engine.events import Event
from hansa_lab.engine.state import EMPTY, State


def rightmost_owner(s: State, c: int) -> int:
    """Colour owning the rightmost Kontor of city ``c`` (-1 if it has none)."""
    b = s.board
    for i in range(b.office_start[c + 1] - 1, b.office_start[c] - 1, -1):
        if s.offices[i] != EMPTY:
            return s.offices[i] >> 1
    ex = s.extras[c]
    return ex[-1] >> 1 if ex else -1


def open_permits(s: State, p: int) -> list[tuple[int, frozenset[int]]]:
    """Permission cities ``p`` may still use this turn, fewest countries first."""
    return [
        (c, countries)
        for c, countries in s.board.permission_cities
        if c not in s.permits_used and rightmost_owner(s, c) == p
    ]


def permitted_countries(s: State, p: int) -> set[int]:
    """Countries where ``p`` may Place/Displace now: England, plus the regions of the
    permissions still open to ``p`` this turn."""
    out = {0}
    for _, countries in open_permits(s, p):
        out |= countries
    return out


def use_permit(s: State, p: int, country: int) -> None:
    """Use one permission for an action in ``country``: the open permission city granting
    the fewest countries (Cardiff or Carlisle before London, which stays usable for
    either region)."""
    for c, countries in open_permits(s, p):
        if country in countries:
            s.permits_used = (*s.permits_used, c)
            log(s, Event("permit", seat=p, city=c))
            return
    raise AssertionError(f"player {p} has no permission for country {country}")
