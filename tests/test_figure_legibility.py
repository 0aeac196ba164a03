"""Every figure reads at notebook width (issue 41): each plotting function, called as the
notebooks and the report call it, makes an image at most 850 px wide at the 100 dpi a
notebook shows it at, with every text at 8 pt or more and no two texts on top of each
other; grids of panels wrap evenly."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from hansa_lab import stats
from hansa_lab.stats import plot_skill, plot_style, plot_variants, plots, plots_mechanism
from hansa_lab.stats.best import MostBalanced, most_balanced_of
from hansa_lab.stats.mechanism import FirstSeatMechanism
from hansa_lab.stats.population_answers import PopulationAnswer, answers_table
from hansa_lab.stats.synthetic import synthetic_tables

ROOT = Path(__file__).resolve().parents[1]

#: the smallest text a figure may show, in points at notebook width
MIN_PT = 8.0
#: how far two texts' boxes may run into each other, in pixels (antialiasing)
SLACK_PX = 2.0

#: the line-ups of notebook 04 (the longest strategy names side by side)
LINEUPS = {3: ["greedy", "network_keys", "random"],
           4: ["greedy", "network_keys", "random", "blocker"],
           5: ["greedy", "network_keys", "random", "blocker", "actions_first"]}
SKILL = {"greedy": 6.0, "network_keys": 4.0, "random": -20.0, "blocker": 7.0,
         "actions_first": 3.0}


def _score_tables() -> dict[str, pd.DataFrame]:
    """Players (with ``n_players``), events, turns and games of 3-, 4- and 5-player
    line-ups, as notebook 04 concatenates its runs."""
    parts = [synthetic_tables(lineup, n_deals=3, n_players=n, skill=SKILL,
                              game_id_start=10_000 * n, wander=5.0)
             for n, lineup in LINEUPS.items()]
    out = {k: pd.concat([p[k] for p in parts], ignore_index=True)
           for k in ("events", "turns", "games")}
    out["players"] = pd.concat([stats.with_games(p["players"], p["games"]) for p in parts],
                               ignore_index=True)
    return out


def _seat_table() -> pd.DataFrame:
    """Notebook 03's seat study: two arms × two editions (four populations) × 3–5
    players."""
    players, games = [], []
    for n in (3, 4, 5):
        for arm, edition in itertools.product(("greedy", "random"), ("bigbox", "original")):
            t = synthetic_tables(["base"], n_deals=15, n_players=n, detail=False,
                                 seed=n, edition=edition, seat_bonus=[3] + [0] * (n - 1),
                                 game_id_start=len(games) * 1000)
            players.append(t["players"].assign(arm=arm))
            games.append(t["games"].assign(arm=arm))
    return stats.seat_advantage(pd.concat(players, ignore_index=True),
                                pd.concat(games, ignore_index=True))


def _mechanism() -> FirstSeatMechanism:
    """A first-seat study of 4-player games, routes to the ability cities included."""
    t = synthetic_tables(["base"] * 4, n_deals=30, n_players=4, wander=5.0)
    m = stats.first_seat_mechanism(t["games"], t["players"], t["events"], t["turns"])
    cities = {"actions": "Göttingen", "bank": "Lübeck", "privilege": "Stade",
              "book": "Halle", "keys": "Groningen"}
    routes = m.development_shares.assign(city=m.development_shares["ability"].map(cities))
    return dataclasses.replace(m, route_shares=routes)


def _answers() -> pd.DataFrame:
    """Notebook 02's answers per population: the seats and three tips."""
    rows = []
    for k, pop in enumerate(("greedy", "planner", "mixed")):
        rows.append(PopulationAnswer(pop, "seats", 0.3 + 0.05 * k, 0.25 + 0.05 * k,
                                     0.35 + 0.05 * k, "win share of seat 0", "Wilson",
                                     "balanced", 300))
        rows += [PopulationAnswer(pop, f"tip {tip}", 1.0 + k, -0.5 + k, 2.5 + k,
                                  "points (focal seat)", "t", "no clear effect", 300)
                 for tip in ("actions_first", "keep_supply", "network_keys")]
    table = answers_table(rows)
    table.attrs["seats"] = 4
    return table


def _comparison() -> pd.DataFrame:
    """Notebook 02's tips against the base arm, per player count (the longest labels)."""
    parts = [synthetic_tables({"actions_first": ["plus3", "base"],
                               "network_keys": ["plus1", "base"], "base": ["base"]},
                              n_deals=10, n_players=n, game_id_start=10_000 * n)
             for n in (3, 4)]
    players = pd.concat([p["players"] for p in parts], ignore_index=True)
    games = pd.concat([p["games"] for p in parts], ignore_index=True)
    return stats.compare_arms(players, games, base="base", focal=0, value="total")


def _best_variant() -> MostBalanced:
    """A two-option sweep of 9 variants with long names (compare's grid)."""
    names = [f"start_supply={a},control_points={b}" for a in (3, 5, 7) for b in (1, 2, 3)]
    table = pd.DataFrame({"options": names, "games": 400, "fair": 1 / 3,
                          "first_seat_wins": np.linspace(110, 190, len(names)),
                          "n_players": 3, "seat_gap": 0.1, "gap_lo": 0.0, "gap_hi": 0.2})
    return most_balanced_of(table, population="strong:tip=actions_first")


def _ladders() -> dict[int, tuple[pd.DataFrame, list[str]]]:
    """Notebook 03's ladder studies: six rungs at 3, 4 and 5 players."""
    rungs = ["greedy", "planner", "learned", "learned+reply", "strong", "strong x3"]
    out = {}
    for n in (3, 4, 5):
        rows = []
        for i, r in enumerate(rungs):
            shares = [1 / n + 0.02 * (i % 3) * (1 if s == 0 else -1 / (n - 1))
                      for s in range(n)]
            seats = tuple((s, x, x - 0.04, x + 0.04) for s, x in enumerate(shares))
            rows.append(PopulationAnswer(r, "seats", shares[0], shares[0] - 0.04,
                                         shares[0] + 0.04, "win share of seat 0", "m",
                                         "unbalanced", 400, seats=seats))
        out[n] = (answers_table(rows), rungs)
    return out


@pytest.fixture(scope="module")
def figures() -> dict[str, Callable[[], Figure]]:
    """Every figure, made as the notebooks and the report make it (name[case] → maker)."""
    t = _score_tables()
    p, ev, turns, games = t["players"], t["events"], t["turns"], t["games"]
    rng = np.random.default_rng(0)
    seq = stats.sequential_compare(
        (lambda n: (rng.normal(1.0, 5.0, n), rng.normal(0.0, 5.0, n))), effect=1.0,
        max_pairs=400, batch_size=100)
    return {
        # notebook 01 (one player count) and the report (defaults)
        "plot_score_breakdown[one panel]": lambda: plots.plot_score_breakdown(
            p[p["n_players"] == 5], by="strategy", split=None),
        # notebook 04
        "plot_score_breakdown": lambda: plots.plot_score_breakdown(
            p, by="strategy", split="n_players"),
        "plot_score_composition": lambda: plots.plot_score_composition(
            p, by="strategy", split="n_players"),
        "plot_ability_timing": lambda: plots.plot_ability_timing(ev, p),
        "plot_trajectories": lambda: plots.plot_trajectories(turns, p),
        "plot_ratings": lambda: plots.plot_ratings(
            stats.plackett_luce(p, by="strategy", n_boot=10)),
        # notebook 03 and the report
        "plot_seat_advantage": lambda: plots.plot_seat_advantage(_seat_table()),
        "plot_first_seat_mechanism": lambda: plots_mechanism.plot_first_seat_mechanism(
            _mechanism()),
        # notebook 02 and the report
        "plot_comparison": lambda: plots.plot_comparison(_comparison()),
        "plot_population_answers": lambda: plots_mechanism.plot_population_answers(
            _answers()),
        # the other public figures
        "plot_end_reasons": lambda: plots.plot_end_reasons(games),
        "plot_leader_wins": lambda: plots.plot_leader_wins(turns, p, games),
        "plot_sequential": lambda: plots.plot_sequential(seq),
        # the report's rule-variants section and `hansa-lab compare` (longest names)
        "plot_best_variant": lambda: plot_variants.plot_best_variant(_best_variant()),
        # notebook 03's balance by skill (the longest rung labels, three player counts)
        "plot_seats_by_rung": lambda: plot_skill.plot_seats_by_rung(_ladders()),
    }


@dataclass(frozen=True)
class DrawnText:
    """A text as the figure draws it: its words, size and box in pixels."""

    text: str
    points: float
    box: tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Drawing:
    """What a notebook shows of a figure: the image's width and every text drawn."""

    width_px: int
    texts: list[DrawnText]


@contextmanager
def _recording_texts() -> Iterator[list[DrawnText]]:
    """Every text matplotlib draws meanwhile (tick labels, titles, legend entries and
    titles, axis labels, annotations), with its box in pixels."""
    drawn: list[DrawnText] = []
    draw = Text.draw

    def recording(self: Text, renderer) -> None:  # type: ignore[no-untyped-def]
        draw(self, renderer)
        if self.get_visible() and self.get_text().strip() and self.get_alpha() != 0:
            e = self.get_window_extent(renderer)
            drawn.append(DrawnText(self.get_text(), float(self.get_fontsize()),
                                   (e.x0, e.y0, e.x1, e.y1)))

    Text.draw = recording  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        Text.draw = draw  # type: ignore[method-assign]


_made: dict[str, Figure] = {}
_drawings: dict[str, Drawing] = {}


def _figure(figures: dict[str, Callable[[], Figure]], name: str) -> Figure:
    """The figure ``name``, made once per module."""
    if name not in _made:
        _made[name] = figures[name]()
    return _made[name]


def _drawing(figures: dict[str, Callable[[], Figure]], name: str) -> Drawing:
    """The figure drawn as Jupyter's inline backend shows it: at the figure's dpi, cut
    to its tight box plus matplotlib's margin (``savefig.pad_inches``) on each side."""
    if name not in _drawings:
        fig = _figure(figures, name)
        assert fig.dpi == plot_style.NOTEBOOK_DPI
        canvas = FigureCanvasAgg(fig)
        with _recording_texts() as texts:
            canvas.draw()
        tight = fig.get_tightbbox(canvas.get_renderer())
        pad = float(mpl.rcParams["savefig.pad_inches"])
        width = math.ceil((tight.width + 2 * pad) * fig.dpi)
        _drawings[name] = Drawing(width, texts)
    return _drawings[name]


NAMES = ["plot_score_breakdown[one panel]", "plot_score_breakdown", "plot_score_composition",
         "plot_ability_timing", "plot_trajectories", "plot_ratings", "plot_seat_advantage",
         "plot_first_seat_mechanism", "plot_comparison", "plot_population_answers",
         "plot_end_reasons", "plot_leader_wins", "plot_sequential", "plot_best_variant",
         "plot_seats_by_rung"]


def _function(name: str) -> str:
    return name.split("[")[0]


def test_every_public_figure_is_checked(figures) -> None:
    public = ({n for n in plots.__all__ if n.startswith("plot_")}
              | set(plots_mechanism.__all__) | set(plot_variants.__all__)
              | set(plot_skill.__all__))
    assert set(NAMES) == set(figures)
    assert {_function(n) for n in NAMES} == public


def test_every_figure_the_notebooks_and_the_report_draw_is_checked() -> None:
    """The figures checked here are the ones the notebooks, the report and the run
    exports call."""
    called: dict[str, set[str]] = {}
    pattern = re.compile(r"\bplot(?:s|s_mechanism|_variants|_skill)\.(plot_\w+)\(")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        called[path.name] = set(pattern.findall(code))
    for path in sorted((ROOT / "hansa_lab").rglob("*.py")):  # the report, the exports
        called[str(path.relative_to(ROOT))] = set(pattern.findall(path.read_text()))
    assert called["04_score_breakdowns.ipynb"] >= {"plot_score_breakdown",
                                                   "plot_score_composition"}
    # the report's figures (drawn where the run exports make them)
    assert any("plot_seat_advantage" in v for k, v in called.items() if k.startswith("hansa"))
    missing = {k: v - {_function(n) for n in NAMES} for k, v in called.items()}
    assert not any(missing.values()), missing


@pytest.mark.parametrize("name", NAMES)
def test_fits_a_notebook_output(figures, name) -> None:
    """The issue's case: the composition chart was 2,179 px wide and the first-seat
    figure 1,511 px, so a notebook shrank their text to illegible."""
    width = _drawing(figures, name).width_px
    assert width <= plot_style.NOTEBOOK_WIDTH_PX, f"{name}: {width} px wide"


@pytest.mark.parametrize("name", NAMES)
def test_every_text_is_at_least_8_points(figures, name) -> None:
    small = [(t.text, t.points) for t in _drawing(figures, name).texts if t.points < MIN_PT]
    assert not small, f"{name}: {small[:5]}"


def _overlap(a: DrawnText, b: DrawnText) -> bool:
    width = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
    height = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    return width > SLACK_PX and height > SLACK_PX


@pytest.mark.parametrize("name", NAMES)
def test_no_two_texts_overlap(figures, name) -> None:
    """The issue's cases: "greedy network_keys random" run together under the
    composition bars; the ability-timing title ran into its legend's title."""
    texts = _drawing(figures, name).texts
    assert len(texts) > 5
    clashes = [(a.text, b.text) for a, b in itertools.combinations(texts, 2)
               if _overlap(a, b)]
    assert not clashes, f"{name}: {clashes[:5]}"


def test_the_overlap_check_sees_a_clash() -> None:
    """The check itself: labels crowded onto a narrow axis are caught."""
    fig = Figure(figsize=(2, 2))
    ax = fig.subplots()
    ax.set_xticks(range(3), ["greedy n = 60", "network_keys n = 60", "random n = 60"])
    with _recording_texts() as texts:
        FigureCanvasAgg(fig).draw()
    assert any(_overlap(a, b) for a, b in itertools.combinations(texts, 2))


@pytest.mark.parametrize(("panels", "max_columns", "shape"), [
    (1, 3, (1, 1)), (3, 3, (1, 3)), (4, 3, (2, 2)), (5, 3, (2, 3)), (6, 3, (2, 3)),
    (7, 3, (3, 3)), (4, 4, (1, 4)), (5, 4, (2, 3)), (8, 4, (2, 4)), (9, 4, (3, 3)),
])
def test_grids_wrap_evenly(panels, max_columns, shape) -> None:
    rows, columns = plot_style.grid_shape(panels, max_columns)
    assert (rows, columns) == shape
    last_row = panels - (rows - 1) * columns
    assert 0 < last_row <= columns and columns - last_row < rows  # no 3 + 1


def test_a_grid_needs_a_panel() -> None:
    with pytest.raises(ValueError, match="at least one panel"):
        plot_style.grid_shape(0, 3)


def test_the_seat_grid_puts_each_player_count_on_one_row_of_populations(figures) -> None:
    """The issue's case: four populations wrapped 3 + 1 under each player count."""
    fig = _figure(figures, "plot_seat_advantage")
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(shown) == len(fig.axes) == 12
    rows = sorted({round(ax.get_position().y0, 3) for ax in shown})
    assert len(rows) == 3 and all(
        sum(round(ax.get_position().y0, 3) == y for ax in shown) == 4 for y in rows)
