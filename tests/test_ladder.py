"""The ladder: every combination of strategies at a table, seat-rotated, rated."""

from __future__ import annotations

import pandas as pd
import pytest

from hansa_lab.errors import ExperimentError
from hansa_lab.sim.ladder import run_ladder, tables_of
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
