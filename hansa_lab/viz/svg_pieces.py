"""The drawing vocabulary of :mod:`hansa_lab.viz.render`: colours, labels and sizes, and the
small SVG pieces (numbers, text, a player's piece, a favour tile, a bonus marker) that
the board, the panels and the legend are made of."""

from __future__ import annotations

from html import escape

from hansa_lab.engine.narrate import (
    ABILITY_NAMES,
    FAVOUR_NAMES,
    MARKER_NAMES,
    PERMANENT_NAMES,
)
from hansa_lab.engine.state import State

#: Player colours by seat (Okabe–Ito palette: distinguishable with colour-blindness).
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#F0E442", "#56B4E9")


#: Text colour that reads on each player colour (the seat digit on pieces).
PLAYER_TEXT = ("#ffffff", "#ffffff", "#ffffff", "#000000", "#000000")


#: The neutral colour of the two-player variant.
NEUTRAL_COLOUR = "#7f7f7f"


#: Privilege colours of offices (white, orange, pink, black), light enough to tell from
#: the player colours of the pieces sitting on them.
PRIVILEGE_FILL = ("#fbfbf7", "#f6b26b", "#f2a7c8", "#3b3b3b")


PRIVILEGE_TEXT = ("#333333", "#333333", "#333333", "#ffffff")


#: Short labels of the bonus markers (full names are in tooltips).
MARKER_LABELS = {
    "extra": "K+",
    "swap": "Sw",
    "move3": "M3",
    "remove3": "R3",
    "develop": "Up",
    "plus3": "+3",
    "plus4": "+4",
}


#: Printed (permanent) route bonuses of the East and Britannia boards.
PERMANENT_LABELS = {
    "place2_from_route": "P2",
    "move2": "M2",
    "kontor_yellow_green": "YG",
    "privilege": "Pr",
    "place2_regions": "P2",
}


ABILITY_LABELS = {"actions": "A", "bank": "$", "book": "B", "privilege": "P", "keys": "K"}


ABILITY_TITLES = ABILITY_NAMES


FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


HEADER = 62  # height of the status bar above the board (title, status, last action)


BOX_H = 40  # city box height


MIN_BOX_W = 90


SLOT = 20  # office pitch inside a city box


OFFICE = 16  # office size


POST = 14  # post size


SPECIAL_PITCH = 22  # spacing of the special-prestige spaces


PANEL_W = 340


PANEL_H = 160


PANEL_GAP = 8


ROAD = "#9c8a6a"


#: Highlights (what the last action touched): magenta, a colour no seat uses.
HIGHLIGHT = "#e040fb"


#: A route keeps this far from other cities' boxes (half a post and a little more), and
#: BADGE_ROOM more above a box (its ability and East-West badges).
ROUTE_CLEARANCE = POST / 2 + 3


BADGE_ROOM = 8


# --------------------------------------------------------------------------- helpers
def num(v: float) -> str:
    """A coordinate as short, deterministic text (one decimal, none if it is 0)."""
    text = f"{v:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
        return "0" if text == "-0" else text
    return text


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def hint(text: str) -> str:
    return f"<title>{esc(text)}</title>"


def cls_of(*names: str) -> str:
    return " ".join(n for n in names if n)


def seat_colours(p: int, neutral: int = -1) -> tuple[str, str]:
    """(fill, text colour) of colour ``p``; ``neutral`` is the neutral colour's index."""
    if p == neutral:
        return NEUTRAL_COLOUR, "#ffffff"
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)], PLAYER_TEXT[p % len(PLAYER_TEXT)]


def neutral_of(state: State | None) -> int:
    """The neutral colour's index (two-player games), else -1."""
    return int(getattr(state, "neutral", -1)) if state is not None else -1


def who_is(p: int, neutral: int = -1) -> str:
    return "neutral" if p == neutral else f"seat {p}"


def piece_at(occ: int, x: float, y: float, size: float, *, extra_cls: str = "",
             hl: bool = False, title: str = "", neutral: int = -1) -> str:
    """A piece centred at (x, y): trader = square, merchant = circle, in the colour of
    its owner (``neutral``: the neutral colour of a two-player game, drawn grey "N")."""
    p, kind = occ >> 1, occ & 1
    is_neutral = p == neutral
    cls = cls_of("piece", ("trader", "merchant")[kind], "neutral" if is_neutral else f"p{p}",
                 extra_cls, "hl" if hl else "")
    fill, text_colour = seat_colours(p, neutral)
    stroke = "#000000" if hl else "#222222"
    sw = "2" if hl else "1"
    h = size / 2
    if kind == 0:
        shape = (f'<rect x="{num(x - h)}" y="{num(y - h)}" width="{num(size)}" '
                 f'height="{num(size)}" rx="1.5" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{sw}"/>')
    else:
        shape = (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(h)}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="{sw}"/>')
    # the seat digit: 12 on the board's pieces (13 wide), never under 9 elsewhere
    label = (f'<text x="{num(x)}" y="{num(y + size * 0.33)}" '
             f'font-size="{num(size * 12 / 13)}" '
             f'text-anchor="middle" fill="{text_colour}">{"N" if is_neutral else p}</text>')
    tip = hint(title or f"{who_is(p, neutral)} {('trader', 'merchant')[kind]}")
    return (f'<g class="{cls}" data-player="{p}" data-piece="{("trader", "merchant")[kind]}">'
            f"{tip}{shape}{label}</g>")


#: Emperor's Favour tiles: short labels (full names in tooltips).
FAVOUR_LABELS = {
    "relocate_anywhere": "Rel",
    "extra_action": "+1A",
    "income_share": "Inc",
    "displaced_two": "D2",
    "control_4": "C4",
    "abilities_7": "A7",
}


def favour_badge(tile: str, x: float, y: float, *, cls: str = "favour", attrs: str = "") -> str:
    label = FAVOUR_LABELS.get(tile, tile[:3])
    tip = hint("Emperor's Favour: " + FAVOUR_NAMES.get(tile, tile.replace("_", " ")))
    return (f'<g class="{cls}" data-tile="{esc(tile)}"{attrs}>{tip}'
            f'<rect x="{num(x - 12)}" y="{num(y - 7)}" width="24" height="14" rx="1" '
            f'fill="#3d3427" stroke="#c9a227" stroke-width="1.5"/>'
            f'<text x="{num(x)}" y="{num(y + 3.5)}" font-size="9.5" font-weight="bold" '
            f'text-anchor="middle" fill="#f3d97a">{esc(label)}</text></g>')


def marker_badge(kind: str, x: float, y: float, *, cls: str, attrs: str = "",
                 permanent: bool = False) -> str:
    label = (PERMANENT_LABELS if permanent else MARKER_LABELS).get(kind, kind[:2])
    name = (PERMANENT_NAMES.get(kind, kind.replace("_", " ")) if permanent
            else MARKER_NAMES.get(kind, kind))
    fill, text, stroke = ("#5b4a2f", "#ffffff", "#2d2416") if permanent else (
        "#fff4c2", "#5b4a2f", "#8a6d1d")
    return (f'<g class="{cls}" data-kind="{esc(kind)}"{attrs}>'
            f"{hint(('printed bonus: ' if permanent else 'bonus marker: ') + name)}"
            f'<rect x="{num(x - 13)}" y="{num(y - 8)}" width="26" height="16" rx="4" '
            f'fill="{fill}" stroke="{stroke}"/>'
            f'<text x="{num(x)}" y="{num(y + 4.2)}" font-size="12" font-weight="bold" '
            f'text-anchor="middle" fill="{text}">{esc(label)}</text></g>')


# --------------------------------------------------------------------------- entry points
def open_svg(width_px: float, height_px: float, width: int | None, attrs: str) -> str:
    if width is not None:
        w, h = width, round(width * height_px / width_px)
    else:
        w, h = int(width_px), int(height_px)
    # max-width: a picture never runs out of a narrower container (a notebook's output
    # area, a page); it shrinks to the container's width, its height following
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="hansa-board" width="{w}" '
            f'height="{h}" style="max-width:100%;height:auto" '
            f'viewBox="0 0 {num(width_px)} {num(height_px)}" font-family="{FONT}"{attrs}>')


BANNER_H = 40
