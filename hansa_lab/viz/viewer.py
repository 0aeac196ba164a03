"""The game viewer for Jupyter and Voilà (ipywidgets).

Open a game from a results table by its id, or by replaying a seed and line-up; a
slider and play/pause move over its actions (or whole turns), and the board, the player
panels, the event log and the score chart follow. *What-if* lets another line-up play on
from the shown position, many times, and compares the distribution of outcomes with what
really happened; *move analysis* values each choice of the shown position by paired
continuations (:mod:`hansa_lab.studies.moves`) and lists the game's costliest decisions, each
one click away; *export* writes the replay as one offline HTML file.

>>> from hansa_lab.engine.state import GameConfig
>>> v = GameViewer.from_seed(GameConfig(n_players=3, seed=4), "random")
>>> v.goto(50)
>>> v.position, v.slider.value, 'data-actions="50"' in v.board.value
(50, 50, True)

In a notebook::

    from hansa_lab.viz.viewer import GameViewer
    from hansa_lab.sim.runner import open_results
    res = open_results("results/strategy_tips")
    GameViewer.from_results(res, game_id=12)          # a logged game, by id
    GameViewer.from_seed(GameConfig(n_players=4, seed=7), "greedy,random,random,random")

The last expression of a cell shows the viewer (or ``display(viewer)``).
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import tempfile
import warnings
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pandas as pd

from hansa_lab.engine.narrate import END_REASONS, describe_action
from hansa_lab.engine.scoring import final_scores
from hansa_lab.engine.state import GameConfig
from hansa_lab.play import DEFAULT_ENGINE, GameRecord, play_game
from hansa_lab.strategies import Strategy
from hansa_lab.strategies.lineup import parse_lineup
from hansa_lab.studies.moves import (
    analyse_moves,
    continuation_summary,
    continuations,
    costly_decisions,
)
from hansa_lab.viz.export import export_replay
from hansa_lab.viz.render import (
    MIN_TEXT_PX,
    fit_width,
    readable_width,
    render_legend_svg,
    render_side_svgs,
    render_svg,
    view_box_size,
)
from hansa_lab.viz.timeline import Timeline

CHART_WIDTH = 560
#: The board's height (CSS px) in its default view: it is drawn as wide as keeps it this
#: tall (never narrower than its labels allow), so that the whole viewer — controls,
#: board and tabs — is about one screen tall.
BOARD_HEIGHT = 660
#: Height (CSS px) of a tab's page under the board; beside the board (a wide output),
#: pages are as tall as the board.
PAGE_HEIGHT = 200
#: The board's height (CSS px) when the output is wide enough for the tabs beside a
#: board this tall (a 1920 px window).
WIDE_BOARD_HEIGHT = 800
#: The narrowest tabs (CSS px) beside the board.
TABS_WIDTH = 400
#: The board views: value → (button label, tooltip).
ZOOMS = {
    "fit": ("whole board", f"the whole board, every label at least {MIN_TEXT_PX:g} px"),
    "1.5": ("zoom ×1.5", "the board half as big again; scroll it to pan"),
    "2": ("zoom ×2", "the board twice as big; scroll it to pan"),
}
#: The tabs beside or below the board.
TABS = ("players", "log", "chart", "legend", "what-if", "moves", "export")
#: Widths (CSS px) that decide whether the tabs fit beside the board.
_WIDE = BOARD_HEIGHT * 1000 // 879 + 400
_STYLE = f"""<style>
.hansa-viewer {{container: hansa-viewer / inline-size}}
.hansa-viewer .hansa-page {{max-height: {PAGE_HEIGHT}px; overflow: auto}}
@container hansa-viewer (min-width: {_WIDE}px) {{
  .hansa-viewer .hansa-page {{max-height: {BOARD_HEIGHT - 40}px}}
}}
.hansa-viewer .hansa-board-view .widget-html-content {{min-width: 0}}
.hansa-viewer .hansa-side-list {{display: flex; flex-wrap: wrap; gap: 4px 8px}}
.hansa-viewer .hansa-side-list svg, .hansa-viewer .hansa-legend-view svg,
.hansa-viewer .hansa-chart-view svg {{max-width: none !important; flex: 0 0 auto}}
.hansa-viewer .hansa-tabs .lm-TabBar-tab {{min-width: fit-content}}
</style>"""
#: Files bigger than this are not offered as an in-page download link (only the path).
DOWNLOAD_LIMIT = 40_000_000


def default_export_dir() -> Path:
    """Where the viewer's export button writes replays: ``$HANSA_LAB_EXPORT_DIR`` or
    the system's temporary folder (``hansa_lab_replays`` in it) — never the repository;
    the page also offers the file as a download."""
    env = os.environ.get("HANSA_LAB_EXPORT_DIR")
    return Path(env).expanduser().resolve() if env else (
        Path(tempfile.gettempdir()) / "hansa_lab_replays")


#: Column names of the what-if table as the viewer shows them.
WHAT_IF_LABELS = {
    "seat": "seat", "real_strategy": "strategy", "real_score": "final score",
    "real_rank": "rank", "what_if_strategy": "what-if strategy",
    "what_if_score": "what-if final score", "what_if_rank": "what-if rank",
    "score_change": "change",
}


def config_from_row(row: pd.Series | dict[str, Any]) -> GameConfig:
    """The :class:`GameConfig` of a ``games`` table row (seed, board, edition,
    n_players, options as JSON)."""
    raw = row["options"]
    options = json.loads(raw) if isinstance(raw, str) and raw else {}
    opts = tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                        for k, v in options.items()))
    return GameConfig(n_players=int(row["n_players"]), board=str(row["board"]),
                      edition=str(row["edition"]), seed=int(row["seed"]), options=opts)


def find_game(results: Any, game_id: int, arm: str | None = None,
              experiment: str | None = None) -> pd.Series:
    """The ``games`` row of a game id in a :class:`~hansa_lab.sim.results.Results` or a
    ``games`` DataFrame (``arm``/``experiment`` narrow it down if ids repeat)."""
    games = results.games if hasattr(results, "games") else results
    if not isinstance(games, pd.DataFrame):
        raise TypeError("from_results needs a Results object or a games DataFrame")
    rows = games[games["game_id"] == game_id]
    if arm is not None and "arm" in rows:
        rows = rows[rows["arm"] == arm]
    if experiment is not None and "experiment" in rows:
        rows = rows[rows["experiment"] == experiment]
    if rows.empty:
        raise KeyError(f"no game with id {game_id}" + (f" in arm {arm!r}" if arm else ""))
    if len(rows) > 1:
        raise KeyError(f"{len(rows)} games have id {game_id}; give arm= or experiment=")
    return rows.iloc[0]


def record_from_results(results: Any, game_id: int, *, arm: str | None = None,
                        experiment: str | None = None) -> tuple[GameRecord, str]:
    """Replay a logged game of a run from its configuration, seed and line-up (strategies
    draw from seeded streams, so it is the same game): its record and a title. Warns when
    the replay's length differs from the table's (a strategy changed or is missing)."""
    row = find_game(results, game_id, arm, experiment)
    config = config_from_row(row)
    lineup = parse_lineup(str(row["lineup"]), config.n_players)
    record = play_game(config, lineup, engine=DEFAULT_ENGINE)
    if "actions" in row and int(row["actions"]) != len(record.actions):
        warnings.warn(f"game {game_id}: the replay has {len(record.actions)} actions, the "
                      f"table says {int(row['actions'])} (are the same strategies "
                      "registered?)", stacklevel=3)
    title = f"game {game_id}" + (f" ({row['arm']})" if row.get("arm") else "")
    return record, f"{title} — {row['board']} {config.n_players}p, seed {config.seed}"


class GameViewer:
    """Widgets showing one game (see the module doc). Build with :meth:`from_seed`,
    :meth:`from_results`, :meth:`from_record` or from a :class:`Timeline`.

    Attributes for scripting and tests: ``timeline``, ``slider`` (position in actions),
    ``turn_slider`` (turns done), ``play``, ``board`` (HTML with the board's SVG),
    ``side`` (the player panels' SVG: beside the board when the viewer is wide enough,
    below it otherwise), ``zoom_box`` ("readable": no text under :data:`MIN_TEXT_PX`,
    the board scrolling sideways in a narrow output; "fit": the whole board), ``log``,
    ``chart``, ``lineup_box``/``seed_box``/``what_if_button``/``what_if_result``,
    ``widget`` (the whole viewer)."""

    def __init__(self, timeline: Timeline, *, title: str | None = None,
                 interval_ms: int = 400) -> None:
        self.timeline = tl = timeline
        self.title = title or (f"{tl.final.board.title} — {tl.config.n_players} players, "
                               f"seed {tl.config.seed}")
        self.highlight_player: int | None = None
        self.last_what_if: GameRecord | None = None
        self.what_if_table: pd.DataFrame | None = None
        self._syncing = False
        self._uid = f"hansa-viewer-{id(self):x}"  # scopes this viewer's own style
        n = tl.n_positions - 1
        self.slider = widgets.IntSlider(value=0, min=0, max=n, step=1, description="action",
                                        continuous_update=True, layout=widgets.Layout(
                                            flex="1 1 260px", min_width="200px"),
                                        style={"description_width": "initial"})
        self.slider.add_class("hansa-action-slider")
        self.turn_slider = widgets.IntSlider(value=0, min=0, max=tl.n_turns, step=1,
                                             description="turns done",
                                             layout=widgets.Layout(flex="0 1 250px",
                                                                   min_width="180px"),
                                             style={"description_width": "initial"})
        self.turn_slider.add_class("hansa-turn-slider")
        self.play = widgets.Play(value=0, min=0, max=n, step=1, interval=interval_ms,
                                 description="play", layout=widgets.Layout(width="auto"))
        self.play.add_class("hansa-play")
        self.prev_button = _button("", "step-backward", "back one action (or turn)")
        self.next_button = _button("", "step-forward", "on one action (or turn)")
        self.prev_button.add_class("hansa-prev")
        self.next_button.add_class("hansa-next")
        self.step_by = widgets.ToggleButtons(
            options=[("by action", "actions"), ("by turn", "turns")], value="actions",
            tooltips=["play and step action by action", "play and step turn by turn"],
            style={"button_width": "auto"})
        self.step_by.add_class("hansa-step-by")
        self._link = widgets.jslink((self.play, "value"), (self.slider, "value"))
        seat_options: list[tuple[str, int]] = [("no seat", -1)]
        seat_options += [(f"seat {p}" + (f" · {s}" if s else ""), p)
                         for p, s in enumerate(tl.strategies)]
        self.player_box = widgets.Dropdown(options=seat_options, value=-1,
                                           description="highlight",
                                           layout=widgets.Layout(width="auto"),
                                           style={"description_width": "initial"})
        self.zoom_box = widgets.ToggleButtons(
            options=[(label, value) for value, (label, _) in ZOOMS.items()], value="fit",
            style={"button_width": "auto"},
            tooltips=[tip for _, tip in ZOOMS.values()])
        self.zoom_box.add_class("hansa-zoom")
        # the board (the whole of it, every label at least MIN_TEXT_PX) beside the tabs
        # of panels when the viewer is wide enough for both, above them otherwise
        self.board = widgets.HTML(layout=widgets.Layout(min_width="0"))
        self.board.add_class("hansa-board-view")
        self.side = widgets.HTML()
        self.side.add_class("hansa-side-view")
        self.log = widgets.HTML()
        self.log.add_class("hansa-log-view")
        self.chart = widgets.HTML()
        self.chart.add_class("hansa-chart-view")
        # every symbol the game shows (the final state holds every marker and favour)
        self.legend = widgets.HTML(render_legend_svg(tl.final.board, tl.final))
        self.legend.add_class("hansa-legend-view")
        # what-if
        self.lineup_box = widgets.Text(value=",".join(tl.strategies), description="line-up",
                                       layout=widgets.Layout(flex="1 1 260px",
                                                             min_width="220px"))
        self.seed_box = widgets.IntText(value=tl.config.seed, description="seed",
                                        layout=widgets.Layout(width="150px"),
                                        style={"description_width": "initial"})
        self.what_if_button = _button("play on from here", "forward", "let the line-up "
                                      "play on from the shown position", "info")
        self.runs_box = widgets.BoundedIntText(value=10, min=1, max=500,
                                               description="continuations",
                                               layout=widgets.Layout(width="170px"),
                                               style={"description_width": "initial"})
        self.what_if_result = widgets.HTML()
        self.what_if_distribution: pd.DataFrame | None = None
        # move analysis
        self.top_k_box = widgets.BoundedIntText(value=5, min=1, max=100, description="best",
                                                layout=widgets.Layout(width="110px"),
                                                style={"description_width": "initial"})
        self.analyse_button = _button("analyse this move", "search", "value each choice "
                                      "of the shown position", "info")
        self.analysis_result = widgets.HTML()
        self.analysis_table: pd.DataFrame | None = None
        self.every_box = widgets.BoundedIntText(value=5, min=1, max=1000,
                                                description="every",
                                                layout=widgets.Layout(width="110px"),
                                                style={"description_width": "initial"})
        self.costly_button = _button("find costly decisions", "exclamation-triangle",
                                     "the decisions that cost the most points")
        self.costly_list = widgets.Select(options=[], rows=6,
                                          layout=widgets.Layout(width="100%"))
        self.costly_list.add_class("hansa-costly-list")
        self.costly_table: pd.DataFrame | None = None
        self.export_button = _button("export replay", "download",
                                     "write the replay as one offline HTML file")
        self.export_button.add_class("hansa-export-button")
        self.export_path = widgets.Text(
            value=str(default_export_dir() / f"{tl.final.board.name}_{tl.config.n_players}p_"
                      f"seed{tl.config.seed}.html"),
            description="save as", layout=widgets.Layout(flex="1 1 300px", min_width="220px"))
        self.export_result = widgets.HTML()
        self.export_result.add_class("hansa-export-result")

        self.slider.observe(self._on_slider, names="value")
        self.turn_slider.observe(self._on_turn_slider, names="value")
        self.step_by.observe(self._on_step_by, names="value")
        self.player_box.observe(self._on_player, names="value")
        self.zoom_box.observe(lambda _: self._refresh(), names="value")
        self.prev_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(1))
        self.what_if_button.on_click(lambda _: self.run_what_if())
        self.analyse_button.on_click(lambda _: self.run_analysis())
        self.costly_button.on_click(lambda _: self.run_costly())
        self.costly_list.observe(self._on_costly, names="value")
        self.export_button.on_click(lambda _: self._on_export())

        reason = tl.final.end_reason or "cap"
        seats = ", ".join(f"seat {p}: {name}" for p, name in enumerate(tl.strategies) if name)
        # the board's own header says it (one line less above the board)
        self._heading = (f"{self.title} · {len(tl.actions)} actions, {tl.n_turns} turns · "
                         f"game over: {END_REASONS.get(reason, reason)}")
        style = widgets.HTML(_STYLE, layout=widgets.Layout(width="0", margin="0"))
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center", width="100%")
        controls = widgets.HBox([style, self.play, self.prev_button, self.next_button,
                                 self.slider, self.turn_slider], layout=wrap)
        controls.add_class("hansa-controls")
        options = widgets.HBox([self.player_box, self.step_by, self.zoom_box], layout=wrap)
        options.add_class("hansa-options")
        what_if = _page([
            widgets.HTML(f"<b>What-if</b>: from the shown position, let other players play "
                         "on, many times (one strategy per seat or one for all, separated "
                         "by commas, e.g. <i>greedy,random,random</i>; the seed fixes their "
                         f"luck; the hidden bonus markers are shuffled anew each time). "
                         f"This game: {escape(seats)}."),
            widgets.HBox([self.lineup_box, self.seed_box, self.runs_box,
                          self.what_if_button], layout=wrap),
            self.what_if_result,
        ])
        analysis = _page([
            widgets.HTML("<b>Move analysis</b>: what each choice of the shown position is "
                         "worth for the player deciding — the best choices by that player's "
                         "own evaluation and the move really played, each followed by the "
                         "same continuations with the what-if line-up"),
            widgets.HBox([self.top_k_box, self.analyse_button], layout=wrap),
            self.analysis_result,
            widgets.HTML("The decisions that cost the highlighted seat (or every seat) the "
                         "most, checking every n-th decision; pick one to go there"),
            widgets.HBox([self.every_box, self.costly_button], layout=wrap), self.costly_list,
        ])
        export = _page([
            widgets.HTML("<b>Export</b>: the whole replay as one HTML file that opens "
                         "offline in any browser"),
            widgets.HBox([self.export_path, self.export_button], layout=wrap),
            self.export_result])
        self.tabs = widgets.Tab(
            children=[_page([self.side]), _page([self.log]), _page([self.chart]),
                      _page([self.legend]), what_if, analysis, export],
            titles=list(TABS), layout=widgets.Layout(flex=f"1 1 {TABS_WIDTH}px",
                                                     min_width="300px",
                                                     margin="0 0 0 6px"))
        self.tabs.add_class("hansa-tabs")
        self.widget = widgets.VBox([
            controls, options,
            widgets.HBox([self.board, self.tabs], layout=widgets.Layout(
                width="100%", flex_flow="row wrap", align_items="flex-start")),
        ], layout=widgets.Layout(width="100%"))
        self.widget.add_class("hansa-viewer")
        self.widget.add_class(self._uid)
        self._refresh()

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_seed(cls, config: GameConfig, strategies: str | Sequence[str | Strategy],
                  **kwargs: Any) -> GameViewer:
        """Play ``config`` (its seed fixes the game) with a line-up and view it.
        ``strategies``: one per seat, one for all, or a comma-separated line-up."""
        return cls(Timeline.from_seed(config, strategies), **kwargs)

    @classmethod
    def from_record(cls, record: GameRecord, **kwargs: Any) -> GameViewer:
        return cls(Timeline.from_record(record), **kwargs)

    @classmethod
    def from_results(cls, results: Any, game_id: int, *, arm: str | None = None,
                     experiment: str | None = None, **kwargs: Any) -> GameViewer:
        """View a game of a run by its id: ``results`` is a
        :class:`~hansa_lab.sim.results.Results` (e.g. ``open_results(path)``) or its
        ``games`` DataFrame. The game is replayed from its configuration, seed and
        line-up (strategies draw from seeded streams, so it is the same game)."""
        record, title = record_from_results(results, game_id, arm=arm, experiment=experiment)
        kwargs.setdefault("title", title)
        return cls(Timeline.from_record(record), **kwargs)

    # ------------------------------------------------------------------ navigation
    @property
    def position(self) -> int:
        """The shown position (actions done)."""
        return int(self.slider.value)

    def goto(self, position: int) -> None:
        """Show the position after ``position`` actions."""
        self.slider.value = max(0, min(self.timeline.n_positions - 1, int(position)))

    def goto_turn(self, turns_done: int) -> None:
        """Show the position at the end of turn ``turns_done`` (0: the set-up)."""
        self.turn_slider.value = max(0, min(self.timeline.n_turns, int(turns_done)))

    def _on_slider(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._syncing = True
            try:
                self.turn_slider.value = self.timeline.turns_done(self.position)
            finally:
                self._syncing = False
        self._refresh()

    def _on_turn_slider(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            self.slider.value = self.timeline.position_of_turn(int(change["new"]))
        finally:
            self._syncing = False

    def _on_step_by(self, change: dict[str, Any]) -> None:
        self._link.unlink()
        target = self.turn_slider if change["new"] == "turns" else self.slider
        self.play.max = target.max
        self.play.value = target.value
        self._link = widgets.jslink((self.play, "value"), (target, "value"))

    def _on_player(self, change: dict[str, Any]) -> None:
        self.highlight_player = None if change["new"] < 0 else int(change["new"])
        self._refresh()

    def step(self, delta: int) -> None:
        """Move ``delta`` actions (or turns, when stepping by turns) on or back."""
        if self.step_by.value == "turns":
            self.goto_turn(int(self.turn_slider.value) + delta)
        else:
            self.goto(self.position + delta)

    def _refresh(self) -> None:
        i = self.position
        tl = self.timeline
        state = tl.states[i]
        board = render_svg(state, highlight_action=tl.actions[i - 1] if i > 0 else None,
                           highlight_player=self.highlight_player,
                           player_names=tl.strategies, caption=tl.caption(i), side=False,
                           legend=False, title=self._heading)
        width, html = board_box(board, self.zoom_box.value)
        # grows to its fit width (never beyond: the board stays one screen tall)
        self.board.layout.flex = f"1 1 {width}px"
        self.board.layout.max_width = f"min({width}px, 100%)"
        if self.zoom_box.value == "fit":  # taller beside the tabs in a wide output
            wide = board_box(board, height_px=WIDE_BOARD_HEIGHT)[0]
            scope = f".{self._uid} .hansa-board-view"
            html = (f"<style>@container hansa-viewer (min-width: {wide + TABS_WIDTH + 10}px)"
                    f" {{{scope} {{flex: 1 1 {wide}px !important; max-width: {wide}px "
                    f"!important}} .{self._uid} .hansa-page {{max-height: "
                    f"{WIDE_BOARD_HEIGHT - 40}px}}}}</style>{html}")
        self.board.value = html
        side = render_side_svgs(state, highlight_player=self.highlight_player,
                                player_names=tl.strategies)
        self.side.value = f'<div class="hansa-side-list">{"".join(side)}</div>'
        self.log.value = tl.log_html(i, height=PAGE_HEIGHT - 16)
        self.chart.value = tl.chart_svg(i, width=CHART_WIDTH, height=PAGE_HEIGHT - 20)

    # ------------------------------------------------------------------ what-if
    def what_if(self, strategies: str | Sequence[str], seed: int | None = None,
                position: int | None = None) -> pd.DataFrame:
        """Play on from ``position`` (default: the shown one) with a line-up; returns the
        comparison of final scores, real vs what-if (also kept in ``what_if_table``; the
        continuation is ``last_what_if``)."""
        i = self.position if position is None else position
        rec, table = self.timeline.what_if(i, strategies, seed)
        self.last_what_if, self.what_if_table = rec, table
        return table

    def what_if_many(self, strategies: str | Sequence[str], n: int = 10, seed: int | None = None,
                     position: int | None = None) -> pd.DataFrame:
        """Play on ``n`` times from ``position`` (default: the shown one): per seat the real
        final score next to the what-if's mean (t interval), median, range and win rate
        (Wilson interval); also kept in ``what_if_distribution``."""
        i = self.position if position is None else position
        state = self.timeline.states[i]
        dist = continuations(state, strategies, n,
                             seed=self.timeline.config.seed if seed is None else seed)
        table = continuation_summary(dist)
        real = final_scores(self.timeline.final)
        table.insert(1, "final score", [real[s] for s in table["seat"]])
        self.what_if_distribution = table
        return table

    def run_what_if(self) -> None:
        """The what-if button: line-up, seed and continuations from the boxes; the
        distribution of outcomes and one continuation as tables."""
        i = self.position
        self.what_if_result.value = f"<i>playing on from action {i} …</i>"
        try:
            table = self.what_if(self.lineup_box.value, int(self.seed_box.value), i)
            runs = int(self.runs_box.value)
            many = (self.what_if_many(self.lineup_box.value, runs, int(self.seed_box.value), i)
                    if runs > 1 else None)
        except ValueError as e:
            self.what_if_result.value = f"<span style='color:#b00'>{escape(str(e))}</span>"
            return
        rec = self.last_what_if
        assert rec is not None
        real = self.timeline.final
        spread = ""
        if many is not None:
            spread = (f"<p>Over {runs} continuations (the hidden bonus markers shuffled anew "
                      f"each time; 95% intervals):</p>{_distribution_html(many)}"
                      "<p>One of them in detail:</p>")
        self.what_if_result.value = (
            f"<div class='hansa-what-if'>From action {i} (turn {self.timeline.states[i].turn}):"
            f" the real game ended after {len(self.timeline.actions)} actions "
            f"({escape(_reason(real.end_reason))}).{spread}"
            f"<p>The what-if with seed {rec.extra['seed']} ended after {i + len(rec.actions)} "
            f"actions ({escape(_reason(rec.end_reason))}).</p>"
            f"{table.rename(columns=WHAT_IF_LABELS).to_html(index=False, border=0)}</div>")

    # ------------------------------------------------------------------ move analysis
    def analyse(self, position: int | None = None, *, strategies: str | None = None,
                n: int = 10, top_k: int = 5, seed: int | None = None) -> pd.DataFrame:
        """:func:`hansa_lab.studies.moves.analyse_moves` for the shown position (or
        ``position``): the ``top_k`` best choices by the deciding seat's own strategy and
        the move really played, each followed by ``n`` paired continuations of the
        line-up ``strategies`` (default: the what-if box); kept in ``analysis_table``."""
        i = self.position if position is None else position
        tl = self.timeline
        if i >= len(tl.actions):
            raise ValueError("the game is over at this position: nothing to decide")
        state = tl.states[i]
        lineup = strategies if strategies is not None else self.lineup_box.value
        table = analyse_moves(state, lineup, n, top_k=top_k, actual=tl.actions[i],
                              rank_by=tl.strategies[state.current_player] or None,
                              seed=tl.config.seed if seed is None else seed)
        self.analysis_table = table
        return table

    def run_analysis(self) -> None:
        """The analyse button: the table of candidates, the move played marked."""
        i = self.position
        self.analysis_result.value = f"<i>analysing the decision at action {i} …</i>"
        try:
            table = self.analyse(i, n=int(self.runs_box.value), top_k=int(self.top_k_box.value),
                                 seed=int(self.seed_box.value))
        except ValueError as e:
            self.analysis_result.value = f"<span style='color:#b00'>{escape(str(e))}</span>"
            return
        seat = self.timeline.states[i].current_player
        self.analysis_result.value = (
            f"<div class='hansa-analysis'>Seat {seat} decides at action {i}; expected final "
            f"score and win chance over {int(self.runs_box.value)} continuations each "
            f"(95% intervals), ★ = the move played:"
            f"{_analysis_html(table, self.timeline.states[i])}</div>")

    def find_costly(self, seat: int | None = None, *, strategies: str | None = None,
                    n: int = 6, top_k: int = 3, every: int = 5) -> pd.DataFrame:
        """:func:`hansa_lab.studies.moves.costly_decisions` of this game for ``seat`` (default:
        the highlighted seat, else every seat); kept in ``costly_table``."""
        tl = self.timeline
        table = costly_decisions(tl.config, tl.actions,
                                 strategies if strategies is not None else self.lineup_box.value,
                                 seat=seat, n=n, top_k=top_k, every=every,
                                 seed=tl.config.seed)
        self.costly_table = table
        return table

    def run_costly(self) -> None:
        """The costly-decisions button: fill the list; picking an entry goes there."""
        seat = self.highlight_player
        try:
            table = self.find_costly(seat, n=max(2, int(self.runs_box.value) // 2),
                                     top_k=min(3, int(self.top_k_box.value)),
                                     every=int(self.every_box.value))
        except ValueError as e:
            self.costly_list.options = [(f"error: {e}", -1)]
            return
        self.costly_list.options = [
            (f"action {r.position} (round {r['round']}, seat {r.seat}): cost {r.cost:.1f} "
             f"points [{r.cost_lo:.1f}, {r.cost_hi:.1f}] — played {r.actual}, best {r.best}",
             int(r.position))
            for _, r in table.head(20).iterrows()] or [("no decision to check", -1)]

    def _on_costly(self, change: dict[str, Any]) -> None:
        if isinstance(change["new"], int) and change["new"] >= 0:
            self.goto(change["new"])

    # ------------------------------------------------------------------ export
    def export_html(self, path: str | os.PathLike[str], *, title: str | None = None) -> Path:
        """Write the replay as one self-contained offline HTML file (own slider)."""
        return export_replay(path, self.timeline, title=title or self.title)

    def _on_export(self) -> None:
        """The export button: write the file (an absolute path; a bare name goes to
        :func:`default_export_dir`), say where, and offer it as a download."""
        target = Path(self.export_path.value).expanduser()
        if not target.is_absolute():
            target = default_export_dir() / target
        try:
            out = self.export_html(target).resolve()
        except OSError as e:
            self.export_result.value = (f"<span style='color:#b00'>could not write "
                                        f"{escape(str(target))}: {escape(str(e))}</span>")
            return
        size = out.stat().st_size
        link = ""
        if size <= DOWNLOAD_LIMIT:
            data = base64.b64encode(out.read_bytes()).decode("ascii")
            link = (f" · <a class='hansa-download' download='{escape(out.name)}' "
                    f"href='data:text/html;base64,{data}'>download it</a>")
        self.export_result.value = (f"Saved the replay ({size / 1e6:.1f} MB) to "
                                    f"<code class='hansa-export-path'>{escape(str(out))}</code>"
                                    f"{link}")

    # ------------------------------------------------------------------ display
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        tl = self.timeline
        return (f"<GameViewer {tl.final.board.name} {tl.config.n_players}p seed "
                f"{tl.config.seed}: position {self.position}/{tl.n_positions - 1}>")


def _button(label: str, icon: str, tooltip: str, style: str = "") -> widgets.Button:
    """A button as wide as its whole label (ipywidgets' default width cuts long ones)."""
    return widgets.Button(description=label, icon=icon, tooltip=tooltip, button_style=style,
                          layout=widgets.Layout(width="auto", min_width="fit-content"
                                                if label else "36px"))


def _page(children: list[Any]) -> widgets.VBox:
    """A tab's page: scrolls inside its own height (so the controls stay in view)."""
    page = widgets.VBox(children, layout=widgets.Layout(width="100%"))
    page.add_class("hansa-page")
    return page


def board_box(svg: str, zoom: str = "fit", *, height_px: int = BOARD_HEIGHT) -> tuple[int, str]:
    """The board picture for the viewer: (box width in px, HTML). ``fit``: the whole board
    ``height_px`` tall, but never narrower than :func:`readable_width` (it scrolls sideways
    in a narrower output instead); ``"1.5"``/``"2"``: that much bigger inside the same box,
    which scrolls both ways to pan.

    >>> svg = '<svg width="1000" height="500" viewBox="0 0 1000 500"><text font-size="12"/></svg>'
    >>> board_box(svg, height_px=300)[0], board_box(svg, height_px=400)[0]
    (750, 800)
    """
    vb_w, vb_h = view_box_size(svg)
    readable = readable_width(svg)
    fit_w = fit_width(svg, height_px)
    if zoom == "fit":
        style = f"width:100%;min-width:{readable}px;height:auto;display:block"
        scroll = "overflow-x:auto"
    else:
        style = f"width:{round(fit_w * float(zoom))}px;max-width:none;height:auto;display:block"
        scroll = f"overflow:auto;max-height:{math.ceil(fit_w * vb_h / vb_w)}px"
    head, sep, rest = svg.partition(">")
    head = re.sub(r' width="[^"]*" height="[^"]*"( style="[^"]*")?',
                  f' width="100%" style="{style}"', head, count=1)
    return fit_w, (f'<div class="hansa-board-scroll" style="{scroll}">'
                   f"{head}{sep}{rest}</div>")


def _interval(mean: float, lo: float, hi: float, pct: bool = False) -> str:
    if pct:
        return f"{100 * mean:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]"
    return f"{mean:.1f} [{lo:.1f}, {hi:.1f}]"


def _distribution_html(table: pd.DataFrame) -> str:
    rows = "".join(
        f"<tr><td>seat {int(r.seat)}</td><td>{r['final score']}</td>"
        f"<td>{_interval(r.mean_score, r.score_lo, r.score_hi)}</td>"
        f"<td>{r['median']:.0f} ({r['min']:.0f}–{r['max']:.0f})</td>"
        f"<td>{_interval(r.win_rate, r.win_lo, r.win_hi, pct=True)}</td></tr>"
        for _, r in table.iterrows())
    return ("<table><tr><th>seat</th><th>real final score</th><th>what-if mean</th>"
            "<th>median (range)</th><th>what-if wins</th></tr>" + rows + "</table>")


def _analysis_html(table: pd.DataFrame, state: Any) -> str:
    seat = state.current_player
    rows = "".join(
        f"<tr{' class=played' if r.actual else ''}><td>{'★ ' if r.actual else ''}"
        f"{escape(describe_action(state.board, r.move, seat, state))}</td>"
        f"<td>{_interval(r.mean_score, r.score_lo, r.score_hi)}</td>"
        f"<td>{_interval(r.win_rate, r.win_lo, r.win_hi, pct=True)}</td>"
        f"<td>{_interval(r.vs_best, r.vs_best_lo, r.vs_best_hi)}</td></tr>"
        for _, r in table.iterrows())
    return ("<table><tr><th>move</th><th>expected final score</th><th>win chance</th>"
            "<th>vs the best</th></tr>" + rows + "</table>")


def _reason(reason: str | None) -> str:
    return END_REASONS.get(reason or "cap", reason or "cap")


__all__ = ["BOARD_HEIGHT", "MIN_TEXT_PX", "GameViewer", "board_box", "config_from_row",
           "default_export_dir", "find_game", "readable_width", "record_from_results"]
