"""play_style: the style measures agree with the logs they are read from."""

from __future__ import annotations

import pytest

from hansa_lab.sim.runner import simulate
from hansa_lab.stats import play_style
from hansa_lab.stats.play_style import POINT_SOURCES


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
    players = pd.DataFrame([{**keys, "seat": s, "total": 10 + s, "win": s == 2,
                             "rank": 3 - s, **dict.fromkeys(POINT_SOURCES, 0)}
                            for s in range(3)])
    turns = pd.DataFrame([{**keys, "seat": s, "round": 9, "turn": 20 + s,
                           "lv_actions": lv, "lv_keys": 0, "lv_bank": 0}
                          for s, lv in enumerate((3, 4, 5))])
    events = pd.DataFrame({"experiment": [], "arm": [], "game_id": [], "kind": [],
                           "value": []})
    row = play_style(games.assign(side="base"), players, turns, events).iloc[0]
    assert row.five_actions == pytest.approx(1 / 3)


def test_realism_measures_on_games_whose_answers_are_known():
    """Three 3-player games: City Keys developed 0/1/3/4 times, Coellen's 8- and 11-point
    spaces taken in one game each, winners by network, network and control, and the last
    players' scores."""
    import pandas as pd

    games, players, turns = [], [], []
    keys_levels = [(0, 3, 1), (4, 0, 0), (0, 0, 2)]
    winners = [("network", 0), ("network", 1), ("control", 2)]
    ranks = [(1, 2, 3), (3, 1, 2), (2, 3, 1)]
    for g in range(3):
        keys = {"experiment": "x", "arm": "a", "game_id": g}
        games.append({**keys, "rounds": 12, "side": "base"})
        source, win_seat = winners[g]
        for s in range(3):
            parts = dict.fromkeys(POINT_SOURCES, 1)
            if s == win_seat:
                parts[source] = 30
            players.append({**keys, "seat": s, "win": s == win_seat, "rank": ranks[g][s],
                            "total": 50 if s == win_seat else 20 + 5 * s, **parts})
            turns.append({**keys, "seat": s, "round": 12, "turn": 30 + s, "lv_actions": 1,
                          "lv_keys": keys_levels[g][s], "lv_bank": 0})
    events = [{"experiment": "x", "arm": "a", "game_id": 0, "kind": "special", "value": 8},
              {"experiment": "x", "arm": "a", "game_id": 1, "kind": "special", "value": 11},
              {"experiment": "x", "arm": "a", "game_id": 1, "kind": "develop", "value": 2}]
    row = play_style(pd.DataFrame(games), pd.DataFrame(players), pd.DataFrame(turns),
                     pd.DataFrame(events)).iloc[0]
    assert row.keys_developed == pytest.approx(4 / 9)
    assert row.keys_level3 == pytest.approx(2 / 9)  # levels 3 and 4
    assert row.coellen_games == pytest.approx(2 / 3)
    assert row.coellen_top_games == pytest.approx(1 / 3)  # only the 11 is a top space
    assert (row.winner_main_source, row.winner_main_share) == ("network", pytest.approx(2 / 3))
    assert row.last_score_mean == pytest.approx((30 + 20 + 25) / 3)  # the rank-3 seats
