"""Why an action is illegal: one sentence naming the position and the reason.

:func:`explain_illegal` is what :class:`~hansa_lab.errors.IllegalActionError` says when
:func:`hansa_lab.engine.rules.apply` refuses an action. It only reads the state.
"""

from __future__ import annotations

from hansa_lab.engine.actions import (
    ACTION_KINDS,
    EXTRA,
    M_DEVELOP,
    M_MOVE3,
    M_REMOVE3,
    M_SWAP,
    TURN_KINDS,
    USABLE_MARKERS,
    USES_AN_ACTION,
    Action,
    format_action,
)
from hansa_lab.engine.board import ABILITIES, MERCHANT, TRADER
from hansa_lab.engine.decisions import Move, Relocation
from hansa_lab.engine.effects import free_post, income_limit, may_go
from hansa_lab.engine.scoring import TRACK_MAX
from hansa_lab.engine.state import EMPTY, FAVOUR_TILES, State
from hansa_lab.engine.variants.permanent import PermanentMarker
from hansa_lab.engine.variants.regions import permitted_countries


def explain_illegal(state: State, action: Action) -> str:
    """A sentence saying why ``action`` is not legal in ``state``."""
    try:
        text = format_action(state.board, action)
    except (ValueError, IndexError, KeyError, TypeError):
        text = repr(action)
    where = (
        f"{state.board.name} seed {state.config.seed}, round {state.round}, "
        f"turn {state.turn}, action {state.n_actions + 1}"
    )
    head = f"illegal action {text!r} ({where}): "
    if state.end_reason is not None:
        return head + f"the game is over ({state.end_reason})"
    if action.kind not in ACTION_KINDS:
        return head + f"unknown action kind {action.kind!r}"
    p = state.current_player
    if state.pending:
        frame = state.pending[-1]
        allowed = frame.ALLOWED
        if action.kind not in allowed:
            return head + (
                f"player {p} must first resolve a pending {frame.KIND!r} decision "
                f"(allowed: {', '.join(allowed)})"
            )
    elif action.kind not in TURN_KINDS:
        return head + f"{action.kind!r} is only a sub-decision; nothing is pending"
    reason = _specific_reason(state, p, action)
    return head + (reason or "not among the legal actions of this position")


def _specific_reason(s: State, p: int, a: Action) -> str | None:
    b = s.board
    k = a.kind
    reason = _variant_reason(s, p, a)
    if reason:
        return reason
    needs_action = k in USES_AN_ACTION
    if needs_action and s.actions_left <= 0:
        return f"player {p} has no actions left this turn"
    if k == "income":
        limit = income_limit(s, p)
        if a.a < 0 or a.b < 0 or a.a + a.b == 0:
            return "income must take at least one tradesman"
        if a.a > s.stock_t[p] or a.b > s.stock_m[p]:
            return f"general stock holds only {s.stock_t[p]} traders, {s.stock_m[p]} merchants"
        if limit is not None and a.a + a.b > limit:
            return f"income is limited to {limit} tradesmen (Bank)"
    if k in ("place", "displace"):
        supply = (s.supply_t[p], s.supply_m[p])
        piece = a.b
        if piece not in (TRADER, MERCHANT) or supply[piece] == 0:
            return "no such piece in the personal supply"
    if k == "place" and (not 0 <= a.a < b.n_routes or free_post(s, a.a, a.b) < 0):
        return "that route has no free post for this piece"
    if k == "displace":
        if not 0 <= a.a < b.n_posts or s.posts[a.a] == EMPTY:
            return "that post is empty: nothing to displace"
        if s.posts[a.a] >> 1 == p:
            return "you cannot displace your own piece"
        return "the personal supply cannot pay the displacement in full"
    if k == "move" and not any(o != EMPTY and o >> 1 == p for o in s.posts):
        return f"player {p} has no tradesmen on the board to move"
    if k in ("move_piece", "shift", "swap", "remove"):
        own = k in ("move_piece", "swap")
        posts = [a.a, a.b] if k == "swap" else [a.a]
        for i in posts:
            if not 0 <= i < b.n_posts or s.posts[i] == EMPTY:
                return "that post is empty"
            if (s.posts[i] >> 1 == p) != own:
                return "that piece is not yours" if own else "that piece is not an opponent's"
        if k in ("move_piece", "shift"):
            if not 0 <= a.b < b.n_routes or free_post(s, a.b, s.posts[a.a] & 1) < 0:
                return f"route r{a.b} has no free post for that piece (moving never displaces)"
            if b.post_route[a.a] == a.b:
                return "the piece is already on that route"
        if k == "swap":
            move = s.pending[-1]
            if isinstance(move, Move) and move.left < 2:
                return "a trader/merchant swap needs two moves left"
            if s.posts[a.a] & 1 == s.posts[a.b] & 1:
                return "a swap exchanges one own trader with one own merchant"
    if k == "establish":
        if not 0 <= a.a < b.n_routes:
            return "no such route"
        occ = s.route_occupants(a.a)
        if any(o == EMPTY or o >> 1 != p for o in occ):
            return f"route r{a.a} is not fully occupied by player {p}'s tradesmen"
        if a.b == EXTRA and "extra" not in s.markers[p]:
            return "an extra Kontor needs an unused extra-Kontor marker"
        return "that reward is not available (office colour/shape, Privilege, ability level)"
    if k == "marker":
        if not 0 <= a.a < len(USABLE_MARKERS) or USABLE_MARKERS[a.a] not in s.markers[p]:
            return "player does not hold an unused marker of that kind"
        if a.a == M_DEVELOP and (
            not 0 <= a.b < len(ABILITIES) or s.levels[p][a.b] >= TRACK_MAX[a.b]
        ):
            return "that ability is already fully developed"
        if a.a == M_SWAP:
            return "swap needs two adjacent occupied offices of one city, one of them yours"
        if a.a in (M_MOVE3, M_REMOVE3):
            return "there is no opponent's piece on the board (or no free post) to use it on"
    if k == "place_marker":
        if not 0 <= a.a < b.n_routes:
            return "no such route"
        if s.route_marker[a.a] is not None:
            return f"route r{a.a} already has a bonus marker"
        if any(o != EMPTY for o in s.route_occupants(a.a)):
            return f"route r{a.a} has tradesmen on it"
        return f"neither city of route r{a.a} has a vacant office (or the route takes no marker)"
    top = s.pending[-1] if s.pending else None
    if k == "relocate" and isinstance(top, Relocation) and top.piece < 0:
        return "the displaced piece has already been placed"
    if k == "relocate_extra" and isinstance(top, Relocation):
        frame = top
        v = frame.colour(s)
        if frame.extras <= 0:
            return "no extra pieces are left to place"
        if v == s.neutral and (a.b != TRADER or a.c >= 0):
            return "the extra neutral trader comes from the neutral pool (a trader)"
        if a.c < 0 and a.b not in (TRADER, MERCHANT):
            return "expected a trader or a merchant"
        if a.c < 0 and s.stock_t[v] + s.stock_m[v] and (s.stock_t[v], s.stock_m[v])[a.b] == 0:
            return (
                "extra pieces come from the general stock first: it holds no "
                f"{('trader', 'merchant')[a.b]}"
            )
        if a.c < 0 and not s.stock_t[v] + s.stock_m[v] and (
            (s.supply_t[v], s.supply_m[v])[a.b] == 0
        ):
            return "the general stock is empty and the personal supply has no such piece"
        if a.c >= 0 and (s.stock_t[v] + s.stock_m[v] + s.supply_t[v] + s.supply_m[v]):
            return "pieces are moved from own posts only when stock and supply are empty"
    if k in ("relocate", "relocate_extra"):
        where = " of the origin's country or England" if b.has_regions else ""
        return (
            f"relocation must use the nearest routes{where} with a free post (adjacent first)"
        )
    return None


def _variant_reason(s: State, p: int, a: Action) -> str | None:
    """Reasons that come from the board or a variant: Britannia's permissions and
    countries, permanent markers, Emperor's Favour."""
    b = s.board
    k = a.kind
    if b.has_regions and s.actions_left > 0 and not s.pending and k in ("place", "displace"):
        r = a.a if k == "place" else (b.post_route[a.a] if 0 <= a.a < b.n_posts else -1)
        if 0 <= r < b.n_routes and b.route_country[r] not in permitted_countries(s, p):
            country = b.route_country[r]
            cities = " or ".join(
                b.city_names[c] for c, cs in b.permission_cities if country in cs
            )
            return (
                f"placing or displacing in {b.countries[country]} needs a permission: the "
                f"rightmost Kontor in {cities}, each usable once per turn"
            )
    if b.has_regions and k in ("move_piece", "shift", "perm_move") and (
        0 <= a.a < b.n_posts and 0 <= a.b < b.n_routes
    ):
        strict = k != "move_piece"
        src = b.post_route[a.a]
        if not may_go(b, src, a.b, strict):
            home = "" if strict else f" or to {b.countries[0]}"
            return (
                f"a piece in {b.countries[b.route_country[src]]} may move only within its "
                f"country{home}"
            )
    if k == "favour":
        if not s.config.option("emperor"):
            return "Emperor's Favour is not in this game (rule option emperor)"
        if s.n_actions != s.turn_start:
            return "an Emperor's Favour tile is taken only at the start of the turn"
        if not 0 <= a.a < len(FAVOUR_TILES) or FAVOUR_TILES[a.a] not in s.favour_display:
            return "that Emperor's Favour tile is not available"
        return "taking a tile needs two unused collected markers of the kinds named"
    if k == "favour_take":
        return "the general stock holds no such piece"
    if k.startswith("perm_") and s.pending and isinstance(s.pending[-1], PermanentMarker):
        frame = s.pending[-1]
        if frame.left <= 0:
            return "the permanent marker is used up"
        return (
            f"not what the permanent marker {frame.kind!r} allows here (see "
            "hansa_lab.engine.variants.permanent)"
        )
    return None
