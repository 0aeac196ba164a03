"""The ladder: every combination of strategies at a table, seat-rotated, rated."""

from __future__ import annotations

import itertools

import pandas as pd
import pytest

from hansa_lab.errors import ExperimentError
from hansa_lab.studies.ladder import run_ladder, tables_of
from hansa_lab.tools import cli


def test_every_table_plays_every_rotation_and_the_ratings_order_the_strengths(tmp_path):
    out = tmp_path / "ladder"
    ladder = run_ladder(["random", "greedy", "blocker"], n_players=3, deals=4, n_jobs=1,
                        out=out, progress=False, n_boot=200)
    games = ladder.results.games
    assert len(tables_of(["random", "greedy", "blocker"], 3)) == 1
    assert len(games) == 4 * 3 and sorted(games.rotation.unique()) == [0, 1, 2]
    seats = ladder.results.players.groupby(["strategy", "seat"]).size()
    assert (seats == 4).all()  # every strategy in every seat, equally often
    r = ladder.ratings.set_index("strategy")
    assert list(ladder.ratings.strategy)[-1] == "random"  # never wins against greedy play
    assert (r.elo_lo <= r.elo).all() and (r.elo <= r.elo_hi).all()
    assert r.games.tolist() == [12, 12, 12]
    saved = pd.read_csv(out / "ladder.csv")
    assert saved.strategy.tolist() == ladder.ratings.strategy.tolist()
    text = (out / "ladder.md").read_text()
    assert ladder.command in text and "blocker" in text
    assert (out / "ladder.png").stat().st_size > 1000


def test_a_ladder_needs_enough_strategies_and_deals():
    with pytest.raises(ExperimentError, match="at least 4 distinct"):
        run_ladder(["greedy", "greedy", "random", "blocker"], n_players=4, progress=False)
    with pytest.raises(ExperimentError, match="deals"):
        run_ladder(["greedy", "random"], n_players=2, deals=0, progress=False)


def test_the_ladder_command_prints_the_table(tmp_path, capsys):
    assert cli.main(["ladder", "--strategies", "random,greedy,keep_supply", "--players", "2",
                     "--deals", "2", "--jobs", "1", "--out", str(tmp_path / "l"),
                     "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "hansa-lab ladder --strategies random,greedy,keep_supply --players 2" in out
    assert "elo" in out and "keep_supply" in out


def test_a_subset_of_tables_is_balanced_over_strategies_and_pairs():
    from hansa_lab.studies.ladder import LADDER_STRATEGIES, balanced_tables
    names = list(LADDER_STRATEGIES)
    chosen = balanced_tables(names, 4, 60, seed=3)
    assert len(chosen) == len(set(chosen)) == 60
    assert all(len(set(t)) == 4 and set(t) <= set(names) for t in chosen)
    seats = pd.Series([x for t in chosen for x in t]).value_counts()
    assert len(seats) == len(names) and seats.max() - seats.min() <= 1  # 240 seats / 12
    pairs = pd.Series([p for t in chosen for p in itertools.combinations(
        sorted(t), 2)]).value_counts()
    assert len(pairs) == 66  # every pair of the 12 strategies meets at least once
    assert balanced_tables(names, 4, 60, seed=3) == chosen  # reproducible
    assert balanced_tables(names[:5], 4, 99) == tables_of(names[:5], 4)  # all when few
    with pytest.raises(ExperimentError, match="tables"):
        run_ladder(names[:4], n_players=2, tables=0, progress=False)


def test_a_ladder_on_a_subset_of_tables(tmp_path):
    ladder = run_ladder(["random", "greedy", "actions_rush", "bank"], n_players=2, deals=2,
                        tables=4, n_jobs=1, progress=False, n_boot=50)
    assert ladder.results.games.arm.nunique() == 4
    assert "--tables 4" in ladder.command
