"""The viewer's layout (issues 22 and 41): the board — the whole of it, no label under
MIN_TEXT_PX — beside or above tabs (players, log, score chart, legend, what-if, move
analysis, export) whose pages scroll inside their own height, so the controls stay in
view; zoom buttons scale the board inside a box that scrolls to pan; buttons are as
wide as their labels; pictures outside the viewer shrink to their container.
tests/test_browser.py measures the same in a real browser."""

from __future__ import annotations

import re

import pytest

from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.viz.render import render_side_svg, render_side_svgs, render_svg
from hansa_lab.viz.viewer import (
    BOARD_HEIGHT,
    MIN_TEXT_PX,
    TABS,
    GameViewer,
    board_box,
    readable_width,
)


@pytest.fixture(scope="module")
def viewer() -> GameViewer:
    v = GameViewer.from_seed(GameConfig(n_players=4, seed=100), "random")
    v.goto(3)
    return v


def _font_sizes(svg: str) -> list[float]:
    return [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]


def _view_box(html: str) -> tuple[float, float]:
    found = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', html)
    assert found is not None
    return float(found.group(1)), float(found.group(2))


def test_board_beside_or_above_tabs(viewer: GameViewer) -> None:
    assert 'class="panel' not in viewer.board.value and 'class="route' in viewer.board.value
    assert 'class="legend' not in viewer.board.value  # the legend has its own tab
    assert viewer.side.value.count('class="panel') >= 4
    assert 'class="route' not in viewer.side.value
    assert 'data-actions="3"' in viewer.board.value  # what the browser tests wait for
    row = viewer.widget.children[-1]
    assert list(row.children) == [viewer.board, viewer.tabs]
    assert row.layout.flex_flow == "row wrap"  # tabs beside, or below when narrow
    assert viewer.tabs.titles == TABS
    pages = viewer.tabs.children
    assert viewer.side in pages[0].children and viewer.log in pages[1].children
    assert viewer.chart in pages[2].children and viewer.legend in pages[3].children
    assert all("hansa-page" in p._dom_classes for p in pages)
    assert 'class="legend-item"' in viewer.legend.value


def test_whole_board_keeps_every_label_at_least_9_px(viewer: GameViewer) -> None:
    """The default view: one screen tall, never narrower than its labels allow — on the
    default board that is narrow enough for a notebook beside JupyterLab's sidebar."""
    assert viewer.zoom_box.value == "fit"
    vb_w, vb_h = _view_box(viewer.board.value)
    width = int(re.search(r"min\((\d+)px, 100%\)", viewer.board.layout.max_width).group(1))
    assert min(_font_sizes(viewer.board.value)) * width / vb_w >= MIN_TEXT_PX
    found = re.search(r"min-width:(\d+)px", viewer.board.value)
    assert found is not None and int(found.group(1)) == readable_width(viewer.board.value)
    assert width <= 760 and width * vb_h / vb_w <= BOARD_HEIGHT + 1
    assert viewer.board.layout.flex == f"1 1 {width}px"
    # the player panels and the legend are drawn at their natural size: every text >= 9
    assert min(_font_sizes(viewer.side.value)) >= MIN_TEXT_PX
    assert min(_font_sizes(viewer.legend.value)) >= MIN_TEXT_PX


def test_zoom_scales_the_board_in_a_scrolling_box(viewer: GameViewer) -> None:
    fit = viewer.board.layout.max_width
    viewer.zoom_box.value = "2"
    try:
        assert viewer.board.layout.max_width == fit  # the box keeps its size
        svg_w = re.search(r'style="width:(\d+)px;max-width:none', viewer.board.value)
        box_w = int(re.search(r"min\((\d+)px", fit).group(1))
        assert svg_w is not None and int(svg_w.group(1)) == 2 * box_w
        assert "overflow:auto;max-height:" in viewer.board.value
    finally:
        viewer.zoom_box.value = "fit"
    assert "min-width:" in viewer.board.value


def test_board_box_sizes() -> None:
    svg = '<svg width="1000" height="500" viewBox="0 0 1000 500"><text font-size="12"/></svg>'
    assert board_box(svg, height_px=300)[0] == 750  # never narrower than readable
    assert board_box(svg, height_px=400)[0] == 800
    assert 'width:1200px' in board_box(svg, "1.5", height_px=400)[1]
    with pytest.raises(ValueError, match="no viewBox"):
        board_box("<svg></svg>")


def test_step_buttons_move_by_actions_or_turns(viewer: GameViewer) -> None:
    viewer.goto(3)
    viewer.next_button.click()
    assert viewer.position == 4
    viewer.prev_button.click()
    viewer.prev_button.click()
    assert viewer.position == 2
    viewer.step_by.value = "turns"
    try:
        before = viewer.turn_slider.value
        viewer.next_button.click()
        assert viewer.turn_slider.value == before + 1
        assert viewer.position == viewer.timeline.position_of_turn(before + 1)
    finally:
        viewer.step_by.value = "actions"
        viewer.goto(3)


def test_buttons_are_as_wide_as_their_labels(viewer: GameViewer) -> None:
    for button in (viewer.what_if_button, viewer.analyse_button, viewer.costly_button,
                   viewer.export_button):
        assert button.layout.width == "auto", button.description
    assert viewer.zoom_box.style.button_width == "auto"
    assert viewer.step_by.style.button_width == "auto"


def test_readable_width() -> None:
    svg = '<svg viewBox="0 0 300 50"><text font-size="10">x</text></svg>'
    assert readable_width(svg) == 270  # big text: narrower than its natural size reads
    assert readable_width(svg, min_text_px=15) == 450
    with pytest.raises(ValueError, match="no viewBox"):
        readable_width("<svg></svg>")


def test_board_text_is_big_enough_for_a_notebook() -> None:
    """Every label of the board (not its legend) is at least 12 units: 9 px on screen at
    750 px wide, which fits a notebook beside JupyterLab's sidebar in a 1280 px window."""
    s = new_game(GameConfig(n_players=4, seed=1))
    for board in ("base", "east", "britannia"):
        s2 = new_game(GameConfig(n_players=4, seed=1, board=board))
        assert min(_font_sizes(render_svg(s2, side=False, legend=False))) >= 12, board
    assert readable_width(render_svg(s, side=False, legend=False)) == 750


def test_side_pictures_wrap_by_width() -> None:
    s = new_game(GameConfig(n_players=3, seed=1))
    svgs = render_side_svgs(s, highlight_player=1, player_names=["a", "b", "c"])
    assert [re.search(r'data-block="(\w+)"', x).group(1) for x in svgs] == [
        "panel", "panel", "panel", "track"]
    assert 'class="panel p1 highlighted' in svgs[1] and "Seat 2 · c" in svgs[2]


def test_pictures_shrink_to_their_container() -> None:
    s = new_game(GameConfig(n_players=3, seed=1))
    for svg in (render_svg(s), render_side_svg(s), render_svg(s, side=False)):
        head = svg.split(">", 1)[0]
        assert 'style="max-width:100%;height:auto"' in head
        assert head.count("style=") == 1
