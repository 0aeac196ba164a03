"""SVG pictures of boards and game states (pure functions: state in, SVG text out).

The picture is the board drawn at its cities' real geography (``data/layout.json``) with a
panel per player beside it. It is deterministic — the same state always gives the same
string, with no random ids — so it can be diffed, cached and tested. Elements carry
classes and ``data-`` attributes so tests and scripts can find them:

=============================================  ==========================================
element                                         selector
=============================================  ==========================================
the picture                                     ``svg.hansa-board`` (``data-board``,
                                                ``data-actions``, ``data-turn``)
a route / one of its posts                      ``.route[data-route]`` /
                                                ``.post[data-route][data-post]``
a piece (on a post, office, special space)      ``.piece.trader.p0`` / ``.piece.merchant.p2``
a city / a printed office / an extra Kontor     ``.city[data-city]`` / ``.office`` /
                                                ``.kontor`` (``.kontor.extra`` for extras)
a bonus marker beside a route / held by a       ``.marker[data-route][data-kind]`` /
player                                          ``.marker.held`` / ``.marker.used``
ability icon of a city                          ``.ability[data-ability]``
special-prestige space                          ``.special-space[data-index]``
East-West cities and their scoring track        ``.city.east-west`` / ``.east-west-track``
completed city                                  ``.city.completed``
a player's panel, ability track                 ``.panel[data-player]``, ``.track[data-ability]``
highlights                                      ``.highlight``, ``.panel.highlighted``
=============================================  ==========================================

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> svg = render_svg(new_game(GameConfig(n_players=3, seed=1)))
>>> svg.startswith("<svg") and svg.count('class="marker"') == 3
True
>>> svg == render_svg(new_game(GameConfig(n_players=3, seed=1)))
True

In Jupyter a :class:`~hansa_lab.engine.state.State` shows itself through :func:`render_svg`;
``IPython.display.SVG(render_svg(s, highlight_player=1, width=900))`` gives options.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import Board
from hansa_lab.engine.narrate import (
    END_REASONS,
    describe_action,
)
from hansa_lab.engine.state import State
from hansa_lab.viz.board_svg import board_parts
from hansa_lab.viz.geometry import board_geometry, board_layout
from hansa_lab.viz.legend import legend_svg
from hansa_lab.viz.panels import side_blocks, side_parts
from hansa_lab.viz.svg_pieces import (
    BANNER_H,
    HEADER,
    HIGHLIGHT,
    MARKER_LABELS,
    NEUTRAL_COLOUR,
    PANEL_GAP,
    PANEL_H,
    PANEL_W,
    PLAYER_COLOURS,
    POST,
    esc,
    open_svg,
)


def fluid_svg(svg: str) -> str:
    """The picture scaled to the width of its container (its height follows), for
    pages and widgets that should use the available width."""
    head, sep, rest = svg.partition(">")
    head = re.sub(r' width="[^"]*" height="[^"]*"( style="[^"]*")?', ' width="100%" '
                  'style="height:auto;display:block"', head, count=1)
    return head + sep + rest


#: Smallest size (CSS px) the viewer and the replay draw any text at.
MIN_TEXT_PX = 9.0


def view_box_size(svg: str) -> tuple[float, float]:
    """(width, height) of the viewBox of a picture."""
    box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    if box is None:
        raise ValueError("the picture has no viewBox")
    return float(box.group(1)), float(box.group(2))


def readable_width(svg: str, min_text_px: float = MIN_TEXT_PX) -> int:
    """The narrowest width (px) at which every text of ``svg`` renders at least
    ``min_text_px`` tall: its viewBox width scaled by the smallest font size in it
    (narrower than the picture's own size when all its text is bigger).

    >>> readable_width('<svg viewBox="0 0 400 100"><text font-size="8">a</text>'
    ...                '<text font-size="12">b</text></svg>')
    450
    >>> readable_width('<svg viewBox="0 0 1000 900"><text font-size="12">a</text></svg>')
    750
    """
    sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]
    smallest = min(sizes, default=min_text_px)
    return math.ceil(view_box_size(svg)[0] * min_text_px / smallest)



def fit_width(svg: str, height_px: float) -> int:
    """The width (px) that draws ``svg`` ``height_px`` tall — but never narrower than
    :func:`readable_width`.

    >>> fit_width('<svg viewBox="0 0 1000 500"><text font-size="12"/></svg>', 400)
    800
    """
    vb_w, vb_h = view_box_size(svg)
    return max(readable_width(svg), math.floor(height_px * vb_w / vb_h))


def render_board_parts(board: Board) -> list[str]:
    """The pieces of :func:`render_board_svg` (joined, they are its output)."""
    g = board_geometry(board)
    legend, legend_h = legend_svg(board, None, 0, HEADER + g.height + 8, g.width)
    height = HEADER + g.height + legend_h + 12
    head = (f'<g class="header"><rect x="0" y="0" width="{g.width}" height="{HEADER}" '
            f'fill="#3d3427"/><text x="12" y="36" font-size="16" font-weight="bold" '
            f'fill="#ffffff">{esc(board.title)} — {esc(board.name)}</text></g>')
    return [open_svg(g.width, height, None, f' data-board="{board.name}"'),
            f'<rect class="background" x="0" y="0" width="{g.width}" height="{height}" '
            f'fill="#f7f3ea"/>', head, *board_parts(board, None, None, None), legend,
            "</svg>"]


def render_board_svg(board: Board, *, width: int | None = None) -> str:
    """The empty board of a side as SVG (any of the five sides, playable or not), with
    its legend below.

    >>> from hansa_lab.engine.board import load_board
    >>> svg = render_board_svg(load_board("britannia_45p"), width=600)
    >>> svg.count('<g class="city') == load_board("britannia_45p").n_cities
    True
    """
    parts = render_board_parts(board)
    if width is not None:
        vb = parts[0].split('viewBox="')[1].split('"')[0].split()
        parts[0] = open_svg(float(vb[2]), float(vb[3]), width, f' data-board="{board.name}"')
    return "".join(parts)


def status_text(state: State) -> str:
    """One line: round, turn, who acts, completed cities, bag — or how the game ended."""
    head = f"Round {state.round} · turn {state.turn} · {state.n_actions} actions"
    if state.is_over:
        reason = state.end_reason or "cap"
        who = f"game over: {END_REASONS.get(reason, reason)}"
    else:
        who = f"seat {state.current_player} to act"
        if state.pending:
            kind = state.pending[-1].KIND
            who += f" ({_PENDING.get(kind, kind.replace('_', ' '))})"
        else:
            who += f", {state.actions_left} action{'s' if state.actions_left != 1 else ''} left"
    to_end = state.config.tuning.cities_to_end  # the board's, or a rule option's
    return (f"{head} · {who} · completed cities {state.completed}/{to_end}"
            f" · bonus markers in the bag {len(state.bag)}")


#: What a seat is deciding, by pending decision kind, for the status line.
_PENDING = {
    "relocate": "placing displaced pieces",
    "relocate_neutral": "placing the neutral colour's displaced piece",
    "move": "moving pieces",
    "move3": "moving opponents' pieces",
    "remove3": "removing opponents' pieces",
    "place_marker": "placing a new bonus marker",
    "permanent": "using a printed bonus",
    "favour_income": "income share",
}


def render_parts(
    state: State,
    *,
    highlight_action: Action | None = None,
    highlight_player: int | None = None,
    width: int | None = None,
    player_names: Sequence[str] | None = None,
    caption: str | None = None,
    legend: bool = True,
    side: bool = True,
    title: str | None = None,
) -> list[str]:
    """The pieces of :func:`render_svg` (``"".join(...)`` of them is its output).

    Pieces are whole elements (a route, a city, a panel …), so frames of a game share
    most of them — :mod:`hansa_lab.viz.export` stores each distinct piece once."""
    board = state.board
    g = board_geometry(board)
    n = state.n_players
    panels_h = PANEL_GAP + n * (PANEL_H + PANEL_GAP) + 60
    total_w = g.width + (PANEL_W + 2 * 14 if side else 0)
    body_h = HEADER + (max(g.height, panels_h) if side else g.height)
    legend_part, legend_h = (legend_svg(board, state, 0, body_h + 6, total_w) if legend
                             else ("", 0))
    total_h = body_h + (legend_h + 12 if legend else 0)
    attrs = (f' data-board="{board.name}" data-actions="{state.n_actions}" '
             f'data-turn="{state.turn}" data-round="{state.round}"'
             f' data-current="{-1 if state.is_over else state.current_player}"')
    parts = [open_svg(total_w, total_h, width, attrs)]
    parts.append(f'<rect class="background" x="0" y="0" width="{total_w}" height="{total_h}" '
                 f'fill="#f7f3ea"/>')
    if caption is None and highlight_action is not None:
        caption = "Last action: " + describe_action(board, highlight_action, None, None)
    cfg = state.config
    title = title or (f"{board.title} · {n} players · {cfg.edition} bonus markers · "
                      f"seed {cfg.seed}")
    head = [f'<g class="header"><rect x="0" y="0" width="{total_w}" height="{HEADER}" '
            f'fill="#3d3427"/><text x="12" y="19" font-size="14" font-weight="bold" '
            f'fill="#ffffff">{esc(title)}</text>',
            f'<text class="status" x="12" y="37" font-size="12" fill="#f3e7c9">'
            f"{esc(status_text(state))}</text>", ""]
    if caption:
        head[-1] = (f'<text class="caption" x="12" y="54" font-size="12" '
                    f'font-weight="bold" fill="#ffd9fb">{esc(caption)}</text>')
    head.append("</g>")
    parts.extend(head)
    parts.extend(board_parts(board, state, highlight_action, highlight_player))
    if side:
        parts.extend(side_parts(state, g.width + 14, HEADER, highlight_player, player_names))
    parts.append(legend_part)
    parts.append("</svg>")
    return parts


def render_side_svg(state: State, *, highlight_player: int | None = None,
                    player_names: Sequence[str] | None = None) -> str:
    """The player column of :func:`render_svg` on its own (winner banner, a panel per
    player, East–West track, side extras), for layouts that put it beside or below a
    board drawn with ``side=False``.

    >>> from hansa_lab.engine.state import GameConfig, new_game
    >>> svg = render_side_svg(new_game(GameConfig(n_players=3, seed=1)))
    >>> svg.count('class="panel') >= 3 and 'class="route' not in svg
    True
    """
    n = state.n_players
    banner = BANNER_H + PANEL_GAP if state.is_over else 0
    height = PANEL_GAP + banner + n * (PANEL_H + PANEL_GAP) + 70
    width = PANEL_W + 2 * 14
    attrs = (f' data-actions="{state.n_actions}" data-turn="{state.turn}"'
             f' data-current="{-1 if state.is_over else state.current_player}"')
    head = open_svg(width, height, None, attrs).replace('class="hansa-board"',
                                                        'class="hansa-side"')
    return "".join([head, f'<rect class="background" x="0" y="0" width="{width}" '
                          f'height="{height}" fill="#f7f3ea"/>',
                    *side_parts(state, 14, 0, highlight_player, player_names), "</svg>"])


def render_side_svgs(state: State, *, highlight_player: int | None = None,
                     player_names: Sequence[str] | None = None) -> list[str]:
    """The player column of :func:`render_svg` as separate small pictures (the winner
    banner at the end, one panel per player, the East–West track with the side extras),
    for pages that wrap them by the width they have (the viewer's *players* tab).

    >>> from hansa_lab.engine.state import GameConfig, new_game
    >>> svgs = render_side_svgs(new_game(GameConfig(n_players=3, seed=1)))
    >>> len(svgs), ['class="panel' in s for s in svgs]
    (4, [True, True, True, False])
    """
    attrs = (f' data-actions="{state.n_actions}"'
             f' data-current="{-1 if state.is_over else state.current_player}"')
    out = []
    for kind, width, height, parts in side_blocks(state, highlight_player, player_names):
        head = open_svg(width, height, None, attrs + f' data-block="{kind}"').replace(
            'class="hansa-board"', f'class="hansa-side {kind}"')
        out.append("".join([head, *parts, "</svg>"]))
    return out


def render_legend_svg(board: Board, state: State | None = None, *, width: int = 620) -> str:
    """The legend of :func:`render_svg` as a picture of its own, ``width`` wide (columns
    of 300), for layouts that show it apart from the board.

    >>> from hansa_lab.engine.board import load_board
    >>> 'class="legend-item"' in render_legend_svg(load_board("base_45p"))
    True
    """
    legend, height = legend_svg(board, state, 0, 0, width)
    head = open_svg(width, height, None, "").replace('class="hansa-board"',
                                                     'class="hansa-legend"')
    return f"{head}{legend}</svg>"


def render_svg(
    state: State,
    *,
    highlight_action: Action | None = None,
    highlight_player: int | None = None,
    width: int | None = None,
    player_names: Sequence[str] | None = None,
    caption: str | None = None,
    legend: bool = True,
    side: bool = True,
    title: str | None = None,
) -> str:
    """A state as an SVG string: the board, a panel per player (at the end of the game,
    a winner banner above them) and a legend of every symbol below (``legend=False``:
    none; ``side=False``: no player panels, see :func:`render_side_svg`; ``title``
    replaces the header's first line: board, players, markers, seed).

    ``highlight_action`` marks what an action touched (its route, posts or cities) and
    shows its text in the status bar (``caption`` overrides the text);
    ``highlight_player`` marks a seat's panel and pieces; ``width`` scales the picture
    (pixels; the height follows); ``player_names`` label the panels (e.g. strategies).

    >>> from hansa_lab.engine.actions import Action
    >>> from hansa_lab.engine.rules import apply
    >>> from hansa_lab.engine.state import GameConfig, new_game
    >>> s = apply(new_game(GameConfig(n_players=3, seed=1)), Action("place", 0, 0))
    >>> svg = render_svg(s, highlight_action=Action("place", 0, 0), highlight_player=0)
    >>> svg.count('class="piece trader p0 hl"') >= 1, 'class="highlight"' in svg
    (True, True)
    """
    return "".join(render_parts(state, highlight_action=highlight_action,
                                highlight_player=highlight_player, width=width,
                                player_names=player_names, caption=caption,
                                legend=legend, side=side, title=title))


#: The public names; the drawing constants tests and callers read come from
#: :mod:`hansa_lab.viz.svg_pieces`, the board layout from :mod:`hansa_lab.viz.geometry`.
__all__ = [
    "HIGHLIGHT",
    "MARKER_LABELS",
    "MIN_TEXT_PX",
    "NEUTRAL_COLOUR",
    "PLAYER_COLOURS",
    "POST",
    "board_layout",
    "fit_width",
    "fluid_svg",
    "legend_svg",
    "readable_width",
    "render_board_svg",
    "render_legend_svg",
    "render_parts",
    "render_side_svg",
    "render_side_svgs",
    "render_svg",
    "status_text",
    "view_box_size",
]
