"""The player column of a picture: a panel per player (score, supply, ability tracks,
held markers), the winner banner, the East–West track and the side extras."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hansa_lab.engine.board import ABILITIES, Board, player_board
from hansa_lab.engine.scoring import CATEGORIES, score_breakdown, winners
from hansa_lab.engine.state import State
from hansa_lab.viz.svg_pieces import (
    ABILITY_TITLES,
    BANNER_H,
    HIGHLIGHT,
    PANEL_GAP,
    PANEL_H,
    PANEL_W,
    PLAYER_COLOURS,
    PRIVILEGE_FILL,
    PRIVILEGE_TEXT,
    cls_of,
    esc,
    favour_badge,
    hint,
    marker_badge,
    neutral_of,
    num,
    piece_at,
)


# --------------------------------------------------------------------------- panels
def _track_row(x: float, y: float, name: str, values: Sequence[Any], level: int,
               colour: str) -> str:
    cell = 22
    out = [f'<g class="track" data-ability="{name}" data-level="{level}" '
           f'data-value="{esc(values[level])}">'
           f"{hint(f'{ABILITY_TITLES[name]}: level {level}, value {values[level]}')}"
           f'<text x="{num(x)}" y="{num(y + 9)}" font-size="9.5" fill="#333333">'
           f"{ABILITY_TITLES[name]}</text>"]
    for k, v in enumerate(values):
        cx = x + 54 + k * cell
        current = k == level
        if name == "privilege":
            fill = PRIVILEGE_FILL[k]
            text = "" if not current else "●"
            tcol = PRIVILEGE_TEXT[k]
        else:
            fill = colour if current else ("#e9e4d8" if k < level else "#ffffff")
            text = "all" if v is None else str(v)
            tcol = "#000000" if not current else ("#000000" if colour in ("#F0E442", "#56B4E9")
                                                  else "#ffffff")
        stroke, sw = ("#000000", "2") if current else ("#999999", "0.8")
        out.append(f'<rect class="{cls_of("cell", "current" if current else "")}" x="{num(cx)}" '
                   f'y="{num(y)}" width="{cell - 2}" height="12" rx="2" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="{sw}"/>'
                   f'<text x="{num(cx + (cell - 2) / 2)}" y="{num(y + 9.3)}" font-size="9" '
                   f'text-anchor="middle" fill="{tcol}">{esc(text)}</text>')
    out.append("</g>")
    return "".join(out)


def _panel_parts(state: State, p: int, x: float, y: float, breakdown: dict[str, int],
                 name: str | None, highlighted: bool, winner: bool = False) -> list[str]:
    """A player's panel as pieces (so that frames of a game share the unchanged ones)."""
    colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
    total = sum(breakdown.values())
    active = state.current_player == p and not state.is_over
    classes = cls_of("panel", f"p{p}", "highlighted" if highlighted else "",
                     "active" if active else "")
    head = f'<g class="{classes}" data-player="{p}" data-prestige="{state.prestige[p]}" ' \
           f'data-projected="{total}">'
    out: list[str] = []
    if highlighted:
        out.append(f'<rect class="highlight" x="{num(x - 5)}" y="{num(y - 5)}" '
                   f'width="{PANEL_W + 10}" height="{PANEL_H + 10}" rx="10" fill="{HIGHLIGHT}" '
                   f'opacity="0.8"/>')
    out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{PANEL_W}" height="{PANEL_H}" rx="7" '
               f'fill="#ffffff" stroke="{colour}" stroke-width="{4 if highlighted else 2.5}"/>')
    # header: piece, seat, name, prestige, projected
    out.append(piece_at(2 * p, x + 14, y + 14, 14))
    label = f"Seat {p}" + (f" · {name}" if name else "")
    out.append(f'<text x="{num(x + 27)}" y="{num(y + 18.5)}" font-size="12.5" font-weight="bold" '
               f'fill="#222222">{esc(label)}</text>')
    out = [head, "".join(out), ""]
    if winner:
        out[-1] = (f'<g class="winner-tag"><rect x="{num(x + PANEL_W - 70)}" y="{num(y + 6)}" '
                   f'width="62" height="17" rx="4" fill="#c9a227"/>'
                   f'<text x="{num(x + PANEL_W - 39)}" y="{num(y + 18.5)}" font-size="10.5" '
                   f'font-weight="bold" text-anchor="middle" fill="#3d3427">\u2605 winner'
                   f"</text></g>")
    if active:
        out[-1] = (f'<text class="to-act" x="{num(x + PANEL_W - 8)}" y="{num(y + 18.5)}" '
                   f'font-size="10.5" font-weight="bold" text-anchor="end" fill="#b03a00">'
                   f"▶ to act · {state.actions_left} left</text>")
    # ability tracks (left column): the game's values (rule options), privilege as printed
    t = state.config.tuning
    pb = {**player_board(), "actions": list(t.actions), "bank": list(t.bank),
          "book": list(t.book), "keys": list(t.keys)}
    ty = y + 30
    for a, ability in enumerate(ABILITIES):
        out.append(_track_row(x + 8, ty + a * 15, ability, pb[ability], state.levels[p][a],
                              colour))
    # supply, stock, markers (right column)
    rx = x + 208
    ry = y + 38
    for k, (label2, n_t, n_m) in enumerate((
        ("supply", state.supply_t[p], state.supply_m[p]),
        ("stock", state.stock_t[p], state.stock_m[p]),
    )):
        yy = ry + k * 17
        out.append(f'<g class="{label2}" data-traders="{n_t}" data-merchants="{n_m}">'
                   f'<text x="{num(rx)}" y="{num(yy + 4)}" font-size="9.5" fill="#333333">'
                   f'{"Supply" if k == 0 else "Stock"}</text>'
                   f'{piece_at(2 * p, rx + 50, yy, 10)}'
                   f'<text x="{num(rx + 58)}" y="{num(yy + 4)}" font-size="10.5" '
                   f'font-weight="bold">{n_t}</text>'
                   f'{piece_at(2 * p + 1, rx + 84, yy, 10)}'
                   f'<text x="{num(rx + 92)}" y="{num(yy + 4)}" font-size="10.5" '
                   f'font-weight="bold">{n_m}</text></g>')
    my = ry + 34
    favours = state.favours[p] if getattr(state, "favours", ()) else ()
    label3 = "Markers (faded: used)" + (" · favours" if favours else "")
    markers = [f'<g class="markers"><text x="{num(rx)}" y="{num(my + 3)}" font-size="9" '
               f'fill="#333333">{label3}</text>']
    held: list[tuple[str, str]] = [(m, "held") for m in state.markers[p]]
    held += [(m, "used") for m in state.markers_used[p]]
    held += [(f, "favour") for f in favours]
    for k, (m, how) in enumerate(held):
        mx = rx + 13 + (k % 5) * 26.5
        yy = my + 16 + (k // 5) * 18
        if how == "favour":
            markers.append(favour_badge(m, mx, yy, attrs=f' data-player="{p}"'))
            continue
        badge = marker_badge(m, mx, yy, cls=f"marker {how}", attrs=f' data-player="{p}"')
        if how == "used":
            badge = f'<g opacity="0.4">{badge}</g>'
        markers.append(badge)
    out.append("".join(markers) + "</g>")
    # prestige track and projected final score (bottom)
    limit = int(state.config.option("prestige_to_end"))
    cells = max(limit, state.prestige[p])
    py = y + PANEL_H - 44
    track = [f'<g class="prestige-track" data-prestige="{state.prestige[p]}" '
             f'data-limit="{limit}">{hint(f"prestige {state.prestige[p]} of {limit}")}'
             f'<text x="{num(x + 8)}" y="{num(py + 9)}" font-size="9.5" fill="#333333">'
             f"Prestige</text>"]
    cw = min(12.0, (PANEL_W - 96) / (cells + 1))
    for k in range(cells + 1):
        fill = colour if k <= state.prestige[p] and state.prestige[p] > 0 and k > 0 else (
            "#ffffff")
        stroke = "#b03a00" if k == limit else ("#555555" if k % 5 == 0 else "#aaaaaa")
        track.append(f'<rect x="{num(x + 56 + k * cw)}" y="{num(py + 1)}" '
                     f'width="{num(cw - 1)}" height="10" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="{"1.2" if k % 5 == 0 else "0.6"}"/>')
    track.append(f'<text x="{num(x + PANEL_W - 8)}" y="{num(py + 10)}" font-size="11" '
                 f'font-weight="bold" text-anchor="end">{state.prestige[p]}</text></g>')
    out.append("".join(track))
    special = state.board.city_names[state.board.special_city]
    words = {**_SHORT, "special": special}
    parts = " + ".join(f"{breakdown[c]} {words.get(c, c)}" for c in CATEGORIES
                       if breakdown.get(c))
    over = state.is_over
    label = "Final score" if over else "If it ended now"
    tip = (("final score: " if over else "final score if the game ended now: ")
           + ", ".join(f"{words.get(c, c)} {v}" for c, v in breakdown.items()))
    fit = ' textLength="196" lengthAdjust="spacingAndGlyphs"' if len(parts) > 40 else ""
    out.append(f'<g class="{"final" if over else "projected"}" data-total="{total}">'
               f"{hint(tip)}"
               f'<text x="{num(x + 8)}" y="{num(py + 30)}" font-size="11" font-weight="bold" '
               f'fill="#222222">{label} {total}</text>'
               f'<text x="{num(x + 136)}" y="{num(py + 30)}" font-size="9" fill="#555555"{fit}>'
               f"{'= ' + esc(parts) if parts else ''}</text></g>")
    out.append("</g>")
    return out


#: Score categories in the panel's sum (the special one is named by the board's city).
_SHORT = {"track": "prestige", "abilities": "abilities", "markers": "markers",
          "control": "control", "network": "network", "regions": "regions"}


def _east_west_part(board: Board, state: State, x: float, y: float) -> str:
    a, b = (board.city_names[c] for c in board.east_west)
    awards = state.config.tuning.east_west_points  # the board's, or a rule option's
    points = ", ".join(map(str, awards))
    tip = f"East-West connection {a}–{b}: the first, second, third to connect score {points}"
    out = [f'<g class="east-west-track" data-connected="{",".join(map(str, state.east_west))}">'
           f"{hint(tip)}"
           f'<text x="{num(x)}" y="{num(y + 4)}" font-size="10" fill="#7b3294" font-weight="bold">'
           f"East–West {esc(a)}–{esc(b)}</text>"]
    for k, pts in enumerate(awards):
        sx = x + 190 + k * 34
        out.append(f'<rect x="{num(sx - 12)}" y="{num(y - 8)}" width="24" height="16" rx="4" '
                   f'fill="#f1e6f7" stroke="#7b3294"/>')
        if k < len(state.east_west):
            out.append(piece_at(2 * state.east_west[k], sx, y, 11))
        else:
            out.append(f'<text x="{num(sx)}" y="{num(y + 3.5)}" font-size="9.5" '
                       f'text-anchor="middle" fill="#7b3294">{pts}</text>')
    out.append("</g>")
    return "".join(out)


def _side_extras_part(state: State, x: float, y: float) -> str:
    """Under the panels: the Emperor's Favour tiles on display and the neutral colour's
    pool (two players), when the game has them."""
    out = ['<g class="side-extras">']
    display = getattr(state, "favour_display", ())
    if display:
        out.append(f'<g class="favour-display"><text x="{num(x)}" y="{num(y + 4)}" '
                   f'font-size="10" font-weight="bold" fill="#3d3427">Emperor\'s Favour</text>')
        for k, tile in enumerate(display):
            out.append(favour_badge(tile, x + 120 + k * 26, y, cls="favour available"))
        out.append("</g>")
        y += 22
    pool = getattr(state, "neutral_pool", -1)
    if pool >= 0:
        out.append(f'<g class="neutral-pool" data-traders="{pool}">'
                   f"{piece_at(2 * neutral_of(state), x + 5, y, 11, neutral=neutral_of(state))}"
                   f'<text x="{num(x + 16)}" y="{num(y + 4)}" font-size="10" fill="#333333">'
                   f"neutral colour: {pool} traders in its pool</text></g>")
    out.append("</g>")
    return "".join(out)


def side_parts(state: State, px: float, y: float, highlight_player: int | None,
               player_names: Sequence[str] | None) -> list[str]:
    """The winner banner (at the end), a panel per player, the East–West track and the
    side extras, in a column from (px, y)."""
    bd = score_breakdown(state)
    won = set(winners(state)) if state.is_over else set()
    parts = []
    if won:
        parts.append(_winner_banner(state, won, bd, player_names, px, y + PANEL_GAP))
    top = y + PANEL_GAP + (BANNER_H + PANEL_GAP if won else 0)
    for p in range(state.n_players):
        name = player_names[p] if player_names is not None and p < len(player_names) else None
        py = top + p * (PANEL_H + PANEL_GAP)
        parts.extend(_panel_parts(state, p, px, py, bd[p], name, highlight_player == p,
                                  p in won))
    ey = top + state.n_players * (PANEL_H + PANEL_GAP) + 12
    parts.append(_east_west_part(state.board, state, px + 6, ey))
    parts.append(_side_extras_part(state, px + 6, ey + 26))
    return parts


def _winner_banner(state: State, won: set[int], bd: list[dict[str, int]],
                   names: Sequence[str] | None, x: float, y: float) -> str:
    """At the game's end, above the panels: who won, with what final score."""
    who = []
    for p in sorted(won):
        name = names[p] if names is not None and p < len(names) and names[p] else ""
        who.append(f"Seat {p}" + (f" ({name})" if name else ""))
    total = sum(bd[min(won)].values())
    verb = "wins" if len(who) == 1 else "share the win"
    text = f"{' and '.join(who)} {verb} with {total} points"
    return (f'<g class="winner-banner" data-winners="{",".join(map(str, sorted(won)))}">'
            f'<rect x="{num(x)}" y="{num(y)}" width="{PANEL_W}" height="{BANNER_H}" rx="7" '
            f'fill="#3d3427" stroke="#c9a227" stroke-width="2.5"/>'
            f'<text x="{num(x + 12)}" y="{num(y + 16)}" font-size="10.5" fill="#f3d97a">'
            f"GAME OVER · FINAL SCORE</text>"
            f'<text x="{num(x + 12)}" y="{num(y + 32)}" font-size="13" font-weight="bold" '
            f'fill="#ffffff">\u2605 {esc(text)}</text></g>')


def side_blocks(state: State, highlight_player: int | None,
                player_names: Sequence[str] | None) -> list[tuple[str, float, float, list[str]]]:
    """The player column cut into blocks that a page can wrap by its width: (kind, width,
    height, pieces drawn from the origin) for the winner banner (at the end), each
    player's panel, and the East–West track with the side extras."""
    bd = score_breakdown(state)
    won = set(winners(state)) if state.is_over else set()
    pad = 6.0
    blocks: list[tuple[str, float, float, list[str]]] = []
    if won:
        blocks.append(("banner", PANEL_W + 2 * pad, BANNER_H + 2 * pad,
                       [_winner_banner(state, won, bd, player_names, pad, pad)]))
    for p in range(state.n_players):
        name = player_names[p] if player_names is not None and p < len(player_names) else None
        blocks.append(("panel", PANEL_W + 2 * pad, PANEL_H + 2 * pad,
                       _panel_parts(state, p, pad, pad, bd[p], name, highlight_player == p,
                                    p in won)))
    extras_h = 22 * bool(getattr(state, "favour_display", ())) + 22 * (
        getattr(state, "neutral_pool", -1) >= 0)
    blocks.append(("track", PANEL_W + 2 * pad, 30 + extras_h,
                   [_east_west_part(state.board, state, pad + 6, 14),
                    _side_extras_part(state, pad + 6, 40)]))
    return blocks
