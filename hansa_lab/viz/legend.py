"""The legend below a picture: every kind of mark the picture can show on a board, each
with its symbol and what it means."""

from __future__ import annotations

from hansa_lab.engine.board import ABILITIES, Board
from hansa_lab.engine.narrate import (
    FAVOUR_NAMES,
    MARKER_NAMES,
    PERMANENT_NAMES,
)
from hansa_lab.engine.state import State
from hansa_lab.viz.board_svg import office_shape
from hansa_lab.viz.svg_pieces import (
    ABILITY_LABELS,
    ABILITY_TITLES,
    HIGHLIGHT,
    ROAD,
    esc,
    favour_badge,
    marker_badge,
    num,
    piece_at,
    seat_colours,
)


# --------------------------------------------------------------------------- legend
def _legend_items(board: Board, state: State | None) -> list[tuple[str, str, str]]:
    """(symbol key, SVG of the symbol centred at 0,0, explanation) of every kind of mark
    the picture can show on this board (and, given a state, for its markers)."""
    items: list[tuple[str, str, str]] = []

    def add(key: str, svg: str, text: str) -> None:
        items.append((key, svg, text))

    seat1 = seat_colours(1)[0]
    add("trader", piece_at(0, 0, 0, 12, title="trader"),
        "trader (square; colour and digit: its seat)")
    add("merchant", piece_at(3, 0, 0, 12, title="merchant"), "merchant (circle)")
    add("post", '<rect x="-7" y="-7" width="14" height="14" rx="2" fill="#ffffff" '
        'stroke="#6b5d45" stroke-width="1.2"/>', "post on a route (any piece)")
    if any(board.post_merchant_only):
        add("merchant-only", '<circle r="7" fill="#ffffff" stroke="#6b5d45" '
            'stroke-width="1.2"/>', "round post: merchants only")
    add("office", office_shape(-6, 0, 0, 0) + office_shape(10, 0, 1, 0),
        "office for a trader (square) or merchant (round)")
    add("privilege", "".join(office_shape(-13.5 + 9 * k, 0, 0, k) for k in range(4)),
        "office colour: Privilege level needed")
    add("coin", '<circle r="6.5" fill="#e8c547" stroke="#8a6d1d" stroke-width="0.8"/>'
        '<text y="4.3" font-size="12" font-weight="bold" text-anchor="middle" '
        'fill="#3b2f0b">1</text>', "prestige for the Kontor on this office")
    add("kontor", office_shape(0, 0, 0, 0) + piece_at(0, 0, 0, 10), "Kontor (piece on an office)")
    add("extra-kontor", '<rect x="-7.5" y="-7.5" width="15" height="15" rx="3" '
        'fill="#fffaf0" stroke="#7a6a50" stroke-dasharray="2 1.5"/>' + piece_at(0, 0, 0, 10),
        "extra Kontor (left of the offices)")
    add("control", f'<rect x="-15" y="-3" width="30" height="6" rx="3" fill="{seat1}"/>',
        "stripe over a city: the seat controlling it")
    add("completed", '<circle r="7" fill="#8a6d1d"/><path d="M-3.5 0 l2.5 3 l4.5 -6" '
        'fill="none" stroke="#ffffff" stroke-width="2"/>', "completed city (all offices full)")
    for name in ABILITIES:
        if any(ABILITIES.index(name) in c.abilities for c in board.cities):
            add(f"ability-{name}", f'<circle r="9" fill="#3d5a80" stroke="#ffffff" '
                f'stroke-width="1.2"/><text y="4.3" font-size="12" font-weight="bold" '
                f'text-anchor="middle" fill="#ffffff">{ABILITY_LABELS[name]}</text>',
                f"establishing here may develop {ABILITY_TITLES[name]}")
    add("east-west", '<rect x="-16" y="-8" width="32" height="16" rx="4" fill="#7b3294"/>'
        '<text y="4.2" font-size="12" font-weight="bold" text-anchor="middle" '
        'fill="#ffffff">E-W</text>', "East–West city (connect both: 7/4/2 prestige)")
    if board.special_route >= 0:
        add("special-route", '<line x1="-15" y1="0" x2="15" y2="0" stroke="#c9a227" '
            f'stroke-width="11" opacity="0.55"/><line x1="-15" y1="0" x2="15" y2="0" '
            f'stroke="{ROAD}" stroke-width="4"/>',
            f"route to {board.city_names[board.special_city]}: special prestige spaces")
    if board.special_spaces:
        where = board.city_names[board.special_city]
        add("special-spaces", '<rect x="-20" y="-9" width="40" height="18" rx="5" '
            'fill="#fff4c2" stroke="#8a6d1d"/><circle cx="-8" r="6.5" fill="#fbfbf7" '
            'stroke="#444444"/><text x="-8" y="3.2" font-size="9" font-weight="bold" '
            'text-anchor="middle">7</text><circle cx="8" r="6.5" fill="#f6b26b" '
            'stroke="#444444"/><text x="8" y="3.2" font-size="9" font-weight="bold" '
            'text-anchor="middle">8</text>',
            f"{where}'s special prestige spaces (points)")
    add("route-label", '<text y="4" font-size="12" text-anchor="middle" '
        'fill="#6b5d45">r5</text>', "route number (as in the action codes: r5)")
    if any(r.region for r in board.routes):
        add("region-route", '<line x1="-15" y1="0" x2="15" y2="0" stroke="#6f8f4e" '
            'stroke-width="4" stroke-dasharray="6 3"/>', "route in Wales or Scotland")
    if any(c.yellow_green for c in board.cities):
        add("yellow-green", '<rect x="-4" y="-4" width="8" height="8" rx="1" fill="#b5d334" '
            'stroke="#6b7f1a"/>', "yellow/green city (Kontors without offices)")
    for kind in MARKER_NAMES:
        add(f"marker-{kind}", marker_badge(kind, 0, 0, cls="legend-marker"),
            f"bonus marker: {MARKER_NAMES[kind]}")
    for kind in sorted({r.permanent_marker for r in board.routes if r.permanent_marker}):
        add(f"permanent-{kind}", marker_badge(kind, 0, 0, cls="legend-marker",
                                              permanent=True),
            f"printed bonus: {PERMANENT_NAMES.get(kind, kind)}")
    favours = sorted({*getattr(state, "favour_display", ()),
                      *(f for held in getattr(state, "favours", ()) for f in held)})
    for tile in favours:
        add(f"favour-{tile}", favour_badge(tile, 0, 0, cls="legend-favour"),
            f"Emperor's Favour: {FAVOUR_NAMES.get(tile, tile)}")
    add("highlight", f'<rect x="-14" y="-8" width="28" height="16" rx="6" fill="{HIGHLIGHT}" '
        f'opacity="0.75"/>', "glow: what the last action touched")
    add("seat-outline", piece_at(0, 0, 0, 12, hl=True) + "",
        "thick outline: the chosen seat's pieces")
    return items


def legend_svg(board: Board, state: State | None, x: float, y: float, width: float,
               ) -> tuple[str, int]:
    """The legend of every symbol (``g.legend``, one ``g.legend-item[data-symbol]`` per
    symbol) laid out in columns from (x, y) over ``width`` pixels; returns it and its
    height."""
    items = _legend_items(board, state)
    col_w = 300
    cols = max(1, int((width - 16) // col_w))
    rows = -(-len(items) // cols)
    row_h = 21
    height = 26 + rows * row_h
    out = [f'<g class="legend" transform="translate({num(x)},{num(y)})">'
           f'<rect x="4" y="0" width="{num(width - 8)}" height="{height}" rx="6" '
           f'fill="#ffffff" stroke="#c9bfa8"/>'
           f'<text x="14" y="16" font-size="11.5" font-weight="bold" fill="#3d3427">Legend'
           f"</text>"]
    for k, (key, symbol, text) in enumerate(items):
        col, row = divmod(k, rows)
        sx, sy = 14 + col * col_w + 22, 26 + row * row_h + row_h / 2
        out.append(f'<g class="legend-item" data-symbol="{esc(key)}">'
                   f'<g transform="translate({num(sx)},{num(sy)})">{symbol}</g>'
                   f'<text x="{num(sx + 30)}" y="{num(sy + 3.5)}" font-size="10" '
                   f'fill="#333333">{esc(text)}</text></g>')
    out.append("</g>")
    return "".join(out), height
