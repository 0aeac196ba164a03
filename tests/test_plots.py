"""The figures read at a glance: one shared scale, game terms, n per group, explained
marks, one colour per meaning in every figure, no legend that drops a group, no
degenerate axes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from hansa_lab.stats import plots
from hansa_lab.stats.synthetic import synthetic_tables


def _players(n_deals: int = 8) -> dict[str, pd.DataFrame]:
    """Synthetic 3- and 4-player tables whose strategies carry real strategy names."""
    names = {"plus5": "greedy", "base": "random", "plus2": "blocker"}
    out: dict[str, list[pd.DataFrame]] = {"players": [], "events": [], "turns": []}
    for n, lineup, start in ((3, ["plus5", "base", "plus2"], 0),
                             (4, ["plus5", "base", "plus2", "base"], 10_000)):
        t = synthetic_tables(lineup, n_deals=n_deals, n_players=n, game_id_start=start)
        for key in out:
            df = t[key]
            if "strategy" in df.columns:
                df = df.assign(strategy=df["strategy"].astype(str).map(names))
            out[key].append(df)
    return {k: pd.concat(v, ignore_index=True) for k, v in out.items()}


@pytest.fixture(scope="module")
def tables() -> dict[str, pd.DataFrame]:
    return _players()


def test_breakdown_one_shared_scale_facets_by_player_count(tables) -> None:
    players = tables["players"]
    fig = plots.plot_score_breakdown(players)
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["3 players", "4 players"]
    assert axes[0].get_shared_y_axes().joined(axes[0], axes[1])
    # long names wrapped onto lines, so that neighbours never run together
    labels = [t.get_text().replace("\n", " ") for t in axes[0].get_xticklabels()]
    assert labels[0] == "total" and "prestige track" in labels and "city control" in labels
    assert "Coellen / special prestige" in labels and "bonus markers" in labels
    assert not {"track", "control", "markers", "special"} & set(labels)
    # the total fits on the same axis as the categories
    assert axes[0].get_ylim()[1] >= players["total"].quantile(0.75)
    # colours mean strategies (the same in both panels), not player counts
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    n = players.groupby("strategy").size()
    for s in ("greedy", "random", "blocker"):
        assert f"{s} (n = {n[s]})" in texts
    assert "mean" in texts and "median" in texts and any("quartiles" in t for t in texts)
    faces = {to_hex(p.get_facecolor(), keep_alpha=False) for ax in axes for p in ax.patches}
    assert faces == {plots.STRATEGY_COLOURS[s].lower() for s in ("greedy", "random", "blocker")}
    # n per group in each panel
    three = players[players.groupby(["experiment", "arm", "game_id"])["seat"]
                    .transform("size") == 3]
    note = " ".join(t.get_text() for t in axes[0].texts)
    assert f"greedy {int((three.strategy == 'greedy').sum())}" in note


def test_breakdown_keeps_the_data_column_names(tables) -> None:
    players = tables["players"]
    before = list(players.columns)
    plots.plot_score_breakdown(players, split=None)
    assert list(players.columns) == before


def test_composition_stacks_mean_points_per_category(tables) -> None:
    players = tables["players"]
    fig = plots.plot_score_composition(players)
    ax = fig.axes[0]  # horizontal bars: the names need no rotating or squeezing
    assert ax.get_title(loc="left") == "3 players" and len(fig.axes) == 2
    assert fig.axes[0].get_shared_x_axes().joined(fig.axes[0], fig.axes[1])
    three = players[players.groupby(["experiment", "arm", "game_id"])["seat"]
                    .transform("size") == 3]
    cats = [c for c in ("track", "abilities", "markers", "special", "control", "network")]
    means = three.groupby("strategy")[cats].mean()
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    n = three.groupby("strategy").size()
    assert ticks == [f"{s} (n = {n[s]})" for s in ("blocker", "greedy", "random")]
    # the stacked bars of a strategy add up to its mean total over the categories
    lengths: dict[float, float] = {}
    for bar in ax.patches:
        y = round(bar.get_y() + bar.get_height() / 2, 3)
        lengths[y] = lengths.get(y, 0.0) + bar.get_width()
    order = sorted(means.index)
    for k, s in enumerate(order):
        assert lengths[float(k)] == pytest.approx(means.loc[s].sum())
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # the first strategy on top
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "prestige track" in legend and "city control" in legend
    colours = {to_hex(b.get_facecolor(), keep_alpha=False) for b in ax.patches}
    assert to_hex(plots.CATEGORY_COLOURS["track"]) in colours


def test_one_colour_per_strategy_in_every_figure(tables) -> None:
    want = {s: plots.STRATEGY_COLOURS[s].lower() for s in ("greedy", "random", "blocker")}
    traj = plots.plot_trajectories(tables["turns"], tables["players"])
    lines = {ln.get_label(): to_hex(ln.get_color()) for ln in traj.axes[0].get_lines()}
    assert {s: lines[s] for s in want} == want
    timing = plots.plot_ability_timing(tables["events"], tables["players"])
    handles = {t.get_text().split(" (")[0]: to_hex(h.get_color())
               for t, h in zip(timing.legends[0].get_texts(),
                               timing.legends[0].legend_handles, strict=True)}
    assert handles == want
    # an unknown group takes a colour no listed strategy uses
    extra = plots.group_colours("strategy", ["greedy", "my_bot"])
    assert extra["greedy"] == plots.STRATEGY_COLOURS["greedy"]
    assert extra["my_bot"] not in plots.STRATEGY_COLOURS.values()


def test_ability_timing_legend_keeps_every_group_and_axes_are_not_degenerate(
        tables) -> None:
    players, events = tables["players"], tables["events"]
    keys = ["experiment", "arm", "game_id", "seat"]
    # random never develops anything; every greedy/blocker player-game reaches only
    # City Keys level 1, on turn 3
    dev = events.merge(players[[*keys, "strategy"]], on=keys)
    dev = dev[dev["strategy"] != "random"].drop(columns="strategy")
    dev = dev.drop_duplicates(keys).assign(detail="keys", value=1, turn=3, round=1)
    fig = plots.plot_ability_timing(dev, players)
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(t.startswith("random (n = ") for t in texts)
    assert len(texts) == 3
    top, bottom = fig.axes[0], fig.axes[1]
    assert top.get_title() == "City Keys"
    lo, hi = bottom.get_xlim()
    assert lo <= 1 and hi >= 4  # the whole track, not 0.945–1.050
    ylo, yhi = top.get_ylim()
    assert yhi - ylo >= 2
    assert all(float(t).is_integer() for t in top.get_yticks())


def test_end_reasons_use_their_palette() -> None:
    g = pd.DataFrame({"n_players": [3, 3, 4], "arm": "a",
                      "end_reason": ["prestige", "cities", "prestige"]})
    fig = plots.plot_end_reasons(g)
    faces = {to_hex(b.get_facecolor(), keep_alpha=False) for b in fig.axes[0].patches}
    assert faces == {plots.END_REASON_COLOURS["prestige"].lower(),
                     plots.END_REASON_COLOURS["cities"].lower()}
    assert np.isfinite(fig.axes[0].get_xlim()).all()


def test_ratings_use_the_strategy_colours() -> None:
    r = pd.DataFrame({"strategy": ["greedy", "random"], "n": [10, 10],
                      "log_strength": [0.5, -0.5], "lo": [0.2, -0.8], "hi": [0.8, -0.2]})
    fig = plots.plot_ratings(r)
    colours = {to_hex(ln.get_color()) for ln in fig.axes[0].get_lines()}
    assert {plots.STRATEGY_COLOURS["greedy"].lower(),
            plots.STRATEGY_COLOURS["random"].lower()} <= colours


# (legible at notebook width, no overlapping texts, even grids: test_figure_legibility.py)


def test_seat_advantage_is_a_grid_of_player_counts_by_population() -> None:
    """The issue's case: notebook 03 drew 12 panels in one row, each on its own scale."""
    from hansa_lab import stats

    parts = []
    for n in (2, 3, 4):
        for arm in ("greedy", "random", "mixed"):
            t = synthetic_tables(["base"], n_deals=30, n_players=n, seed=n, detail=False,
                                 seat_bonus=[20 if n == 2 else 2] + [0] * (n - 1))
            parts.append({k: t[k].assign(arm=arm, experiment=f"seats{n}")
                          for k in ("players", "games")})
    players = pd.concat([p["players"] for p in parts], ignore_index=True)
    games = pd.concat([p["games"] for p in parts], ignore_index=True)
    seats = stats.seat_advantage(players, games)
    fig = plots.plot_seat_advantage(seats)
    fig.canvas.draw()  # lay the panels out
    axes = np.array(fig.axes).reshape(3, 3)
    assert [ax.get_ylabel() for ax in axes[:, 0]] == [
        "2 players, base_3p\nwin rate", "3 players, base_3p\nwin rate",
        "4 players, base_45p\nwin rate"]
    assert [ax.get_title().splitlines()[0] for ax in axes[0]] == ["greedy", "mixed", "random"]
    assert all(axes[0, 0].get_shared_y_axes().joined(axes[0, 0], ax) for ax in axes.ravel())
    for ax, fair in zip(axes[:, 0], (1 / 2, 1 / 3, 1 / 4), strict=True):
        assert any(np.allclose(line.get_ydata(), fair) for line in ax.get_lines())
        assert ax.yaxis.get_major_formatter()(0.5, 0) == "50%"
    for ax in axes.ravel():  # at the report's 100 dpi: four fit side by side in 850 px
        assert ax.get_position().width * fig.get_figwidth() * 100 >= 150
    # more populations than fit side by side wrap onto further rows, still legible
    five = pd.concat([players.assign(arm=players["arm"] + s) for s in ("", "_b")])
    five_games = pd.concat([games.assign(arm=games["arm"] + s) for s in ("", "_b")])
    wide = plots.plot_seat_advantage(stats.seat_advantage(
        five[five.arm != "random_b"], five_games[five_games.arm != "random_b"]))
    wide.canvas.draw()
    shown = [ax for ax in wide.axes if ax.get_visible()]
    assert len(shown) == 15 and wide.get_figwidth() <= 8.5
    # five populations per player count: 3 + 2, not 4 + 1
    lefts = sorted({round(ax.get_position().x0, 2) for ax in shown})
    assert len(lefts) == 3
    assert min(ax.get_position().width for ax in shown) * wide.get_figwidth() * 100 >= 150
    # filled only where the panel's own (Holm) test rejects and the seat is off its share
    two = axes[0, 0].collections[-1].get_facecolors()
    four = seats[(seats.n_players == 4) & (seats.arm == "greedy")]
    assert float(seats[seats.n_players == 2]["p_wins_holm"].iloc[0]) <= 0.05
    assert to_hex(two[0], keep_alpha=False) != "#ffffff"
    if float(four["p_wins_holm"].iloc[0]) > 0.05:
        faces = axes[2, 0].collections[-1].get_facecolors()
        assert {to_hex(f, keep_alpha=False) for f in faces} == {"#ffffff"}


def test_comparison_markers_follow_the_answer_and_the_win_share_never_fills() -> None:
    """Issue 43: keep_supply read "no clear effect" (the score test) while its win-share
    marker was drawn filled (the win-share test). The score difference decides a tip's
    answer; the win share is secondary and never fills a marker."""
    row = pd.DataFrame({"arm_a": ["actions_first"], "arm_b": ["greedy"], "diff": [1.5],
                        "diff_lo": [-0.8], "diff_hi": [3.8], "n_deals": [30],
                        "se_paired": [1.12], "p_value": [0.2], "p_holm": [0.2],
                        "win_diff": [0.20], "win_diff_lo": [0.087], "win_diff_hi": [0.313],
                        "p_win": [0.003], "p_win_holm": [0.003]})
    fig = plots.plot_comparison(row)
    score, win = (ax.collections[-1].get_facecolors() for ax in fig.axes)
    [answer] = fig._hansa_answers
    assert answer.word == "no clear effect" and not answer.filled
    assert to_hex(score[0], keep_alpha=False) == "#ffffff"  # score test: no finding
    assert to_hex(win[0], keep_alpha=False) == "#ffffff"    # secondary: never filled
    assert "secondary" in fig.axes[1].get_xlabel()
    assert fig.axes[1].xaxis.get_major_formatter()(0.2, 0) == "20%"
    found = plots.plot_comparison(row.assign(diff=3.0, diff_lo=0.7, diff_hi=5.3,
                                             p_value=0.01, p_holm=0.01))
    assert [a.word for a in found._hansa_answers] == ["helps"]
    score = found.axes[0].collections[-1].get_facecolors()
    assert to_hex(score[0], keep_alpha=False) != "#ffffff"


def test_share_axes_read_as_percent_like_the_tables() -> None:
    from hansa_lab import stats

    t = synthetic_tables(["plus5", "base", "base"], n_deals=6, n_players=3)
    figures = {
        "ends": (plots.plot_end_reasons(t["games"]).axes[0], "x"),
        "leader": (plots.plot_leader_wins(t["turns"], t["players"], t["games"]).axes[0], "y"),
        "seats": (plots.plot_seat_advantage(stats.seat_advantage(t["players"], t["games"]))
                  .axes[0], "y"),
    }
    for name, (ax, axis) in figures.items():
        formatter = getattr(ax, f"{axis}axis").get_major_formatter()
        assert formatter(0.25, 0) == "25%", name
