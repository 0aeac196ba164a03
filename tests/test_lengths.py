"""Game lengths per board side and player count (issue 13's game-end sense)."""

from __future__ import annotations

import pandas as pd
import pytest

from hansa_lab.errors import ExperimentError
from hansa_lab.stats.play_style import game_lengths
from hansa_lab.studies.lengths import TABLES, run_lengths
from hansa_lab.tools import cli


def test_game_lengths_counts_rounds_and_end_reasons_per_table():
    games = pd.DataFrame({
        "side": ["base_3p"] * 4 + ["east"] * 2, "n_players": [3] * 4 + [4] * 2,
        "rounds": [20, 30, 61, 100, 25, 25], "stalled": [False, False, False, True, False, False],
        "end_reason": ["prestige", "cities", "prestige", None, "markers", "prestige"]})
    t = game_lengths(games).set_index("side")
    assert t.loc["base_3p", "games"] == 4 and t.loc["base_3p", "rounds_max"] == 100
    assert t.loc["base_3p", "over_limit"] == 2 and t.loc["base_3p", "stalled"] == 1
    assert t.loc["base_3p", "end_cap"] == 0.25 and t.loc["base_3p", "end_prestige"] == 0.5
    assert t.loc["east", "over_limit"] == 0 and t.loc["east", "over_lo"] == 0.0
    assert 0.3 < t.loc["east", "over_hi"] < 0.9  # two games cannot rule much out
    assert game_lengths(games, limit=99).set_index("side").loc["base_3p", "over_limit"] == 1


def test_every_table_is_played_and_the_command_prints_it(tmp_path, capsys):
    out = tmp_path / "lengths"
    assert cli.main(["lengths", "--strategies", "greedy", "--games", "1", "--jobs", "1",
                     "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "hansa-lab lengths --strategies greedy --games 1" in text
    saved = pd.read_csv(out / "lengths.csv")
    assert len(saved) == len(TABLES) and saved.games.eq(1).all()
    assert "rounds_max" in (out / "lengths.md").read_text()


def test_bad_lengths_arguments_name_the_field():
    with pytest.raises(ExperimentError, match="games"):
        run_lengths(["greedy"], games=0, progress=False)
    with pytest.raises(ExperimentError, match="line-up"):
        run_lengths({}, progress=False)
