"""Timelines, play-on (what-if), the widget viewer and the exported HTML replay (without
a browser; the browser tests are in test_browser.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from hansa_lab.engine.scoring import final_scores
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.play import play_game, play_on, states_of
from hansa_lab.sim.logs import record_game, to_frame
from hansa_lab.tools import cli
from hansa_lab.viz.export import export_replay, replay_data, replay_html
from hansa_lab.viz.timeline import Timeline, compare_outcomes
from hansa_lab.viz.viewer import GameViewer, config_from_row, find_game

CONFIG = GameConfig(n_players=3, seed=11)


@pytest.fixture(scope="module")
def timeline() -> Timeline:
    return Timeline.from_seed(CONFIG, "random")




# ---------------------------------------------------------------------- play_on
def test_play_on_from_setup_is_the_game() -> None:
    real = play_game(CONFIG, ["random"] * 3)
    again = play_on(new_game(CONFIG), ["random"] * 3)
    assert again.actions == real.actions
    assert final_scores(again.final) == final_scores(real.final)
    assert again.extra == {"start_action": 0, "seed": CONFIG.seed}


def test_play_on_from_a_position() -> None:
    real = play_game(CONFIG, ["random"] * 3)
    states = states_of(CONFIG, real.actions[:120])
    mid = states[-1]
    before = mid.clone()
    a = play_on(mid, ["random"] * 3, seed=5)
    b = play_on(mid, ["random"] * 3, seed=5)
    c = play_on(mid, ["random"] * 3, seed=6)
    assert mid == before  # the shown position is not touched
    assert a.actions == b.actions and a.final == b.final  # reproducible
    assert a.actions != c.actions  # the seed matters
    assert a.final.is_over and a.extra["start_action"] == 120
    with pytest.raises(ValueError, match="2 strategies cannot fill 3 seats"):
        play_on(mid, ["random", "random"])


def test_compare_outcomes() -> None:
    real = play_game(CONFIG, ["random"] * 3)
    mid = states_of(CONFIG, real.actions[:60])[-1]
    what_if = play_on(mid, ["greedy", "random", "random"], seed=1)
    table = compare_outcomes(real.final, what_if.final, real.strategies, what_if.strategies)
    assert list(table.columns) == ["seat", "real_strategy", "real_score", "real_rank",
                                   "what_if_strategy", "what_if_score", "what_if_rank",
                                   "score_change"]
    assert table.real_score.tolist() == final_scores(real.final)
    assert table.what_if_score.tolist() == final_scores(what_if.final)
    assert (table.score_change == table.what_if_score - table.real_score).all()
    assert table.what_if_strategy.tolist() == ["greedy", "random", "random"]


# ---------------------------------------------------------------------- timeline
def test_timeline_positions_and_turns(timeline: Timeline) -> None:
    tl = timeline
    assert tl.n_positions == len(tl.actions) + 1
    assert [s.n_actions for s in tl.states] == list(range(tl.n_positions))
    assert tl.final.is_over
    assert tl.n_turns == tl.final.turn
    for t in range(tl.n_turns + 1):
        i = tl.position_of_turn(t)
        assert tl.turns_done(i) == t
    assert tl.position_of_turn(tl.n_turns) == tl.n_positions - 1
    for i in range(0, tl.n_positions, 7):
        assert tl.position_of_turn(tl.turns_done(i)) <= i
        assert tl.turns_done(i) <= tl.turn_x(i) <= tl.turns_done(i) + 1
    xs = [tl.turn_x(i) for i in range(tl.n_positions)]
    assert xs == sorted(xs)  # the chart cursor moves forward only


def test_timeline_scores_and_log(timeline: Timeline) -> None:
    tl = timeline
    for i in (0, 50, tl.n_positions - 1):
        assert tl.projected[i] == final_scores(tl.states[i])
        assert tl.prestige[i] == tl.states[i].prestige
    establishes = [k for k, a in enumerate(tl.actions) if a.kind == "establish"]
    assert establishes
    k = establishes[0]
    route = tl.final.board.route_name(tl.actions[k].a)
    assert any(f"established {route}" in e for e in tl.events[k])
    assert tl.codes[k].startswith("establish r")
    assert tl.texts[k].startswith(f"Seat {tl.actor[k]} establishes {route}")
    log = tl.log_entries(k + 1, n=3)
    assert [e["index"] for e in log] == [k - 1, k, k + 1]
    assert log[-1]["seat"] == tl.actor[k] == tl.states[k].current_player
    assert f"#{k + 1} · turn" in tl.log_html(k + 1)
    assert "Game over" in " ".join(tl.events[-1])


def test_chart(timeline: Timeline) -> None:
    a = timeline.chart_svg(10)
    b = timeline.chart_svg(200)
    assert a != b and a == timeline.chart_svg(10)
    x = re.search(r'class="cursor" x1="([\d.]+)"', b)
    assert x and abs(float(x.group(1)) - timeline.chart_x(200)) < 0.11
    assert a.count('class="projected"') == 3 and a.count('class="track"') == 3


# ---------------------------------------------------------------------- export
def _frame(data: dict, i: int) -> str:
    """Rebuild frame ``i`` from the exported data as the page's script does."""
    frame = list(data["first"])
    for ch in data["changes"][:i]:
        if ch and ch[0] == -1:
            frame = ch[1:]
        else:
            for j in range(0, len(ch), 2):
                frame[ch[j]] = ch[j + 1]
    return "".join(data["parts"][k] for k in frame)


def test_replay_data_rebuilds_every_frame(timeline: Timeline) -> None:
    data = replay_data(timeline)
    assert len(data["changes"]) == timeline.n_positions - 1
    for i in (0, 1, 2, 57, timeline.n_positions - 1):
        expected = "".join(timeline.frame_parts(i)).replace(
            'xmlns="http://www.w3.org/2000/svg" ', "")
        assert _frame(data, i) == expected
    assert len(data["cursor"]) == len(data["dots"]) == timeline.n_positions
    assert data["turn_ends"][-1] == timeline.n_positions - 1


def test_replay_html_is_self_contained(timeline: Timeline, tmp_path: Path) -> None:
    html = replay_html(timeline)
    assert "http" not in html and "//" not in re.sub(r"<script>.*?</script>", "", html,
                                                     flags=re.S).replace("<!DOCTYPE", "")
    assert "<script src" not in html and "<link" not in html
    payload = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                        html, re.S)
    assert payload
    data = json.loads(payload.group(1))
    assert data["texts"] == timeline.texts
    out = export_replay(tmp_path / "sub" / "r.html", timeline)
    assert out.read_text(encoding="utf-8") == html


def test_export_replay_from_config(tmp_path: Path) -> None:
    out = export_replay(tmp_path / "r.html", GameConfig(n_players=3, seed=2), "random")
    assert out.exists() and out.stat().st_size > 10_000
    with pytest.raises(ValueError, match="strategies"):
        export_replay(tmp_path / "x.html", GameConfig(n_players=3, seed=2))


def test_cli_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "replay.html"
    code = cli.main(["replay", "--players", "3", "--seed", "4", "--strategies",
                     "random,random,random", "--html", str(out)])
    assert code == 0 and out.exists()
    assert "wrote" in capsys.readouterr().out
    tl = Timeline.from_seed(GameConfig(n_players=3, seed=4), "random")
    assert out.read_text(encoding="utf-8") == replay_html(tl)
    bad = cli.main(["replay", "--players", "3", "--seed", "4", "--strategies", "nope",
                    "--html", str(tmp_path / "x.html")])
    assert bad == 2 and "--strategies" in capsys.readouterr().err


# ---------------------------------------------------------------------- viewer
def test_viewer_board_fills_the_width_and_log_shows_the_current_action() -> None:
    v = GameViewer.from_seed(CONFIG, "random")
    v.goto(60)
    head = v.board.value[v.board.value.index("<svg"):].split(">", 1)[0]
    assert 'width="100%"' in head and "height:auto" in head
    assert v.board.layout.flex.startswith("1 1 ")  # grows to fill its row
    log = v.log.value
    assert "column-reverse" in log  # a scroll box that starts at its end
    current = re.findall(r'class="log-entry current" data-index="(\d+)"', log)
    assert current == ["60"]
    assert log.rindex('class="log-entry') == log.index('class="log-entry current"')


def test_viewer_slider_moves_everything() -> None:
    v = GameViewer.from_seed(CONFIG, "random")
    tl = v.timeline
    start_board, start_log, start_chart = v.board.value, v.log.value, v.chart.value
    v.goto(40)
    assert v.position == 40 and 'data-actions="40"' in v.board.value
    assert v.board.value != start_board and v.log.value != start_log
    assert v.chart.value != start_chart
    assert v.turn_slider.value == tl.turns_done(40)
    v.goto_turn(10)
    assert v.position == tl.position_of_turn(10) and v.turn_slider.value == 10
    v.player_box.value = 1
    assert 'class="panel p1 highlighted' in v.side.value
    v.player_box.value = -1
    assert "highlighted" not in v.side.value
    v.step_by.value = "turns"
    assert v.play.max == v.turn_slider.max
    v.step_by.value = "actions"
    assert v.play.max == v.slider.max


def test_viewer_what_if_button() -> None:
    v = GameViewer.from_seed(CONFIG, "random")
    v.goto(100)
    v.lineup_box.value = "greedy,random,random"
    v.seed_box.value = 3
    v.runs_box.value = 3
    v.run_what_if()
    table = v.what_if_table
    assert table is not None and len(table) == 3
    assert "<table" in v.what_if_result.value and "what-if final score" in v.what_if_result.value
    assert "what_if" not in v.what_if_result.value  # no code names in the app
    assert v.last_what_if is not None and v.last_what_if.extra["start_action"] == 100
    dist = v.what_if_distribution
    assert dist is not None and list(dist.seat) == [0, 1, 2] and (dist.n == 3).all()
    assert "Over 3 continuations" in v.what_if_result.value
    v.lineup_box.value = "greedy,random"
    v.run_what_if()
    assert "2 strategies cannot fill 3 seats" in v.what_if_result.value


def test_viewer_what_if_is_a_distribution() -> None:
    v = GameViewer.from_seed(CONFIG, "random")
    table = v.what_if_many("random", n=8, position=120)
    assert list(table.columns[:3]) == ["seat", "final score", "n"]
    assert (table["n"] == 8).all() and abs(table["win_rate"].sum() - 1) < 1e-9
    assert (table["min"] <= table["median"]).all() and (table["median"] <= table["max"]).all()
    assert ((table.score_lo <= table.mean_score) & (table.mean_score <= table.score_hi)).all()


def test_viewer_move_analysis_and_costly_decisions() -> None:
    v = GameViewer.from_seed(CONFIG, "random")
    v.goto(60)
    v.lineup_box.value = "random"
    v.runs_box.value = 4
    v.top_k_box.value = 3
    v.run_analysis()
    table = v.analysis_table
    assert table is not None and table["actual"].sum() == 1
    html = v.analysis_result.value
    assert "★" in html and "Seat " in html and "expected final score" in html
    assert " r0." not in html  # plain words, not action codes
    v.goto(len(v.timeline.actions))
    v.run_analysis()
    assert "game is over" in v.analysis_result.value
    v.every_box.value = 25
    v.player_box.value = 1
    v.run_costly()
    options = v.costly_list.options
    assert options and all("seat 1" in label for label, _ in options)
    label, position = options[0]
    v.costly_list.value = position
    assert v.position == position and "cost" in label


def test_viewer_from_results() -> None:
    lineup = ["greedy", "random", "random"]
    rows = record_game(GameConfig(n_players=3, seed=21), lineup, game_id=7, arm="a")
    other = record_game(GameConfig(n_players=3, seed=22), ["random"] * 3, game_id=8, arm="a")
    games = to_frame("games", rows["games"] + other["games"])
    players = to_frame("players", rows["players"])
    v = GameViewer.from_results(games, 7)
    assert v.timeline.strategies == lineup
    assert len(v.timeline.actions) == int(games.actions[0])
    assert final_scores(v.timeline.final) == players.sort_values("seat").total.tolist()
    assert config_from_row(games.iloc[0]) == GameConfig(n_players=3, seed=21)

    class FakeResults:
        def __init__(self, games: pd.DataFrame) -> None:
            self.games = games

    assert find_game(FakeResults(games), 8).seed == 22
    with pytest.raises(KeyError, match="no game with id 9"):
        GameViewer.from_results(games, 9)
    with pytest.raises(KeyError, match="give arm"):
        find_game(pd.concat([games, games]), 7)


def test_viewer_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = GameViewer.from_seed(CONFIG, "random")
    out = v.export_html(tmp_path / "v.html")
    assert out.exists() and "<svg" in out.read_text(encoding="utf-8")


def test_viewer_export_button_writes_outside_the_repository(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """By default the button writes to an absolute path outside the repository, says
    which, and offers the file as a download link."""
    from hansa_lab.viz.viewer import default_export_dir

    repo = Path(__file__).resolve().parents[1]
    monkeypatch.delenv("HANSA_LAB_EXPORT_DIR", raising=False)
    default = Path(GameViewer.from_seed(CONFIG, "random").export_path.value)
    assert default.is_absolute() and repo not in default.parents
    assert default.parent == default_export_dir()
    monkeypatch.setenv("HANSA_LAB_EXPORT_DIR", str(tmp_path))
    v = GameViewer.from_seed(CONFIG, "random")
    v.export_path.value = "mine.html"  # a bare name goes to the export folder
    v.export_button.click()
    written = tmp_path / "mine.html"
    assert written.exists()
    result = v.export_result.value
    assert str(written.resolve()) in result and "download=" in result
    assert "data:text/html;base64," in result
