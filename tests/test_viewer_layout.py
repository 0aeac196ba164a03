"""The viewer's layout (issue 22): the board and the player panels are two pictures that
sit side by side or one below the other by the width the viewer gets; in "readable" mode
no label is drawn under MIN_TEXT_PX, in "fit" mode the board fits any width; pictures
outside the viewer shrink to their container."""

from __future__ import annotations

import re

import pytest

from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.viz.render import render_side_svg, render_svg
from hansa_lab.viz.viewer import MIN_TEXT_PX, GameViewer, readable_width


@pytest.fixture(scope="module")
def viewer() -> GameViewer:
    v = GameViewer.from_seed(GameConfig(n_players=4, seed=100), "random")
    v.goto(3)
    return v


def _min_width(html: str) -> float | None:
    found = re.search(r"min-width:([\d.]+)px", html)
    return float(found.group(1)) if found else None


def test_board_and_panels_are_separate_pictures(viewer: GameViewer) -> None:
    assert 'class="panel' not in viewer.board.value and 'class="route' in viewer.board.value
    assert viewer.side.value.count('class="panel') >= 4
    assert 'class="route' not in viewer.side.value
    assert 'data-actions="3"' in viewer.board.value  # what the browser tests wait for
    row = viewer.widget.children[3]
    assert list(row.children) == [viewer.board, viewer.side]
    assert row.layout.flex_flow == "row wrap"  # panels beside, or below when narrow


def test_readable_mode_keeps_every_label_at_least_9_px(viewer: GameViewer) -> None:
    board_w = _min_width(viewer.board.value)
    assert board_w is not None
    box = re.search(r'viewBox="0 0 ([\d.]+) ', viewer.board.value)
    assert box is not None
    smallest = min(float(x) for x in re.findall(r'font-size="([\d.]+)"', viewer.board.value))
    assert smallest * board_w / float(box.group(1)) >= MIN_TEXT_PX
    side_w = re.search(r"width:(\d+)px", viewer.side.value)
    assert side_w is not None and int(side_w.group(1)) == readable_width(viewer.side.value)
    assert viewer.board.layout.flex == f"1 1 {int(board_w)}px"


def test_fit_mode_lets_the_board_shrink(viewer: GameViewer) -> None:
    viewer.zoom_box.value = "fit"
    try:
        assert _min_width(viewer.board.value) == 0
    finally:
        viewer.zoom_box.value = "readable"
    assert (_min_width(viewer.board.value) or 0) > 1000


def test_readable_width() -> None:
    svg = '<svg viewBox="0 0 300 50"><text font-size="10">x</text></svg>'
    assert readable_width(svg) == 300  # already readable at its natural size
    assert readable_width(svg, min_text_px=15) == 450
    with pytest.raises(ValueError, match="no viewBox"):
        readable_width("<svg></svg>")


def test_pictures_shrink_to_their_container() -> None:
    s = new_game(GameConfig(n_players=3, seed=1))
    for svg in (render_svg(s), render_side_svg(s), render_svg(s, side=False)):
        head = svg.split(">", 1)[0]
        assert 'style="max-width:100%;height:auto"' in head
        assert head.count("style=") == 1
