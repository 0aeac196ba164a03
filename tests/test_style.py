"""play_style: the style measures agree with the logs they are read from."""

from __future__ import annotations

import pytest

from hansa_lab.sim.runner import simulate
from hansa_lab.stats import play_style


@pytest.fixture(scope="module")
def run():
    return simulate({"a": ["greedy", "network_keys", "actions_first"], "b": ["random"]},
                    n_games=6, n_players=3, board="east", seed=31, progress=False)


def test_style_measures_match_the_logs(run):
    table = play_style(run.games, run.players, run.turns, run.events, by="arm")
    assert table.arm.tolist() == ["a", "b"] and table.games.tolist() == [6, 6]
    for arm, row in table.set_index("arm").iterrows():
        games = run.games[run.games.arm == arm]
        turns = run.turns[run.turns.arm == arm]
        last = turns.sort_values("turn").groupby(["game_id", "seat"]).tail(1)
        assert row.keys_developed == pytest.approx((last.lv_keys >= 1).mean())
        third = turns[turns.lv_actions >= 1].groupby(["game_id", "seat"])["round"].min()
        assert row.third_action_round_median == pytest.approx(third.median())
        special = run.events[(run.events.arm == arm) & (run.events.kind == "special")]
        assert row.coellen_games == pytest.approx(special.game_id.nunique() / len(games))
        assert row.keys_lo <= row.keys_developed <= row.keys_hi
        assert row.rounds_max == games.rounds.max()
        players = run.players[run.players.arm == arm]
        assert row.winner_score_mean == pytest.approx(players[players.win].total.mean())


def test_five_actions_counts_the_fifth_action_not_the_fourth():
    """Actions track 2,3,3,4,4,5: level 3 or 4 is four actions, only level 5 is five."""
    import pandas as pd

    keys = {"experiment": "x", "arm": "a", "game_id": 0}
    games = pd.DataFrame([{**keys, "rounds": 9}])
    players = pd.DataFrame([{**keys, "seat": s, "total": 10 + s, "win": s == 2}
                            for s in range(3)])
    turns = pd.DataFrame([{**keys, "seat": s, "round": 9, "turn": 20 + s,
                           "lv_actions": lv, "lv_keys": 0, "lv_bank": 0}
                          for s, lv in enumerate((3, 4, 5))])
    events = pd.DataFrame({"experiment": [], "arm": [], "game_id": [], "kind": []})
    row = play_style(games, players, turns, events).iloc[0]
    assert row.five_actions == pytest.approx(1 / 3)
