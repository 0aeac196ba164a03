"""The first-seat study (stats.mechanism) on constructed tables with known answers, and
once on real games."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from hansa_lab.engine.board import load_board
from hansa_lab.stats.mechanism import (
    first_ability_routes,
    first_developments,
    first_seat_mechanism,
    first_shares,
    score_gap_by_round,
)

KEYS = {"experiment": "x", "arm": "a"}
BOARD = load_board("base", n_players=4)


def _route_to(city: str) -> int:
    c = BOARD.city_index[city]
    return next(r for r, ends in enumerate(BOARD.route_cities) if c in ends)


def _events(rows: list[tuple]) -> pd.DataFrame:
    """(game, action, round, seat, kind, detail, route) rows as an events table."""
    df = pd.DataFrame(rows, columns=["game_id", "action_index", "round", "seat", "kind",
                                     "detail", "route"])
    df["route"] = df["route"].astype("Int64")
    return df.assign(**KEYS, city="")


def _games(n: int) -> pd.DataFrame:
    return pd.DataFrame({**KEYS, "game_id": range(n), "board": "base", "n_players": 4})


def _players(winners: list[int]) -> pd.DataFrame:
    rows = [{**KEYS, "game_id": g, "seat": s, "win_share": float(s == w)}
            for g, w in enumerate(winners) for s in range(4)]
    return pd.DataFrame(rows)


GOT, LUB = _route_to("Göttingen"), _route_to("Lübeck")
OTHER = next(r for r, ends in enumerate(BOARD.route_cities)
             if not set(ends) & {c for v in BOARD.ability_cities.values() for c in v})
EVENTS = _events([
    # game 0: seat 1 develops Actions first (action 4) though seat 0 develops it in the
    # same round later; seat 2 is first to Bank in round 5
    (0, 9, 2, 0, "develop", "actions", None), (0, 4, 2, 1, "develop", "actions", None),
    (0, 30, 5, 2, "develop", "bank", None), (0, 2, 1, 3, "establish", "", OTHER),
    (0, 3, 1, 1, "establish", "", GOT), (0, 8, 2, 0, "establish", "", GOT),
    # game 1: seat 0 first to Actions; nobody develops Bank; seat 3 first to Lübeck
    (1, 5, 2, 0, "develop", "actions", None), (1, 7, 2, 2, "develop", "privilege", None),
    (1, 4, 2, 0, "establish", "", GOT), (1, 20, 4, 3, "establish", "", LUB),
    (1, 21, 4, 0, "establish", "", LUB),
])


def test_first_developments_take_the_earliest_action_not_the_lowest_seat():
    f = first_developments(EVENTS, abilities=("actions", "bank"))
    got = {(r.game_id, r.ability): (r.seat, r["round"]) for _, r in f.iterrows()}
    assert got == {(0, "actions"): (1, 2), (0, "bank"): (2, 5), (1, "actions"): (0, 2)}


def test_first_routes_touch_the_ability_city():
    r = first_ability_routes(EVENTS, _games(2), abilities=("actions", "bank"))
    got = {(x.game_id, x.city): (x.seat, x["round"]) for _, x in r.iterrows()}
    assert got == {(0, "Göttingen"): (1, 1), (1, "Göttingen"): (0, 2), (1, "Lübeck"): (3, 4)}
    assert set(r.loc[r.city == "Lübeck", "ability"]) == {"bank"}


def test_first_shares_count_games_with_a_first_and_the_first_seats_wins():
    f = first_developments(EVENTS, abilities=("actions", "bank"))
    s = first_shares(f, _players([1, 2]), "ability")
    actions = s[s.ability == "actions"].set_index("seat")
    assert actions.loc[0, "first"] == 1 and actions.loc[1, "first"] == 1
    assert actions.loc[1, "first_win_rate"] == 1.0 and actions.loc[0, "first_win_rate"] == 0.0
    assert actions["games"].eq(2).all() and actions["games_without"].eq(0).all()
    bank = s[s.ability == "bank"].set_index("seat")
    assert bank.loc[2, "share"] == 1.0 and bank["games_without"].eq(1).all()
    assert bank.loc[2, "share_lo"] < 1.0 and math.isnan(bank.loc[0, "median_round"])


def test_score_gap_uses_the_last_turn_of_each_round_and_the_games_still_running():
    rows = []
    # game 0: two rounds; round 1 has two turns (the second one counts)
    for turn, scores in ((1, [1, 0, 0, 0]), (2, [4, 0, 0, 0])):
        rows += [{**KEYS, "game_id": 0, "round": 1, "turn": turn, "seat": s,
                  "projected": v} for s, v in enumerate(scores)]
    rows += [{**KEYS, "game_id": 0, "round": 2, "turn": 3, "seat": s, "projected": v}
             for s, v in enumerate([0, 6, 0, 0])]
    # game 1: one round
    rows += [{**KEYS, "game_id": 1, "round": 1, "turn": 2, "seat": s, "projected": v}
             for s, v in enumerate([8, 0, 0, 4])]
    gap = score_gap_by_round(pd.DataFrame(rows)).set_index(["round", "seat"])
    # round 1: seat 0 leads by 4 - 0 = 4 (game 0) and 8 - 4/3 (game 1)
    assert gap.loc[(1, 0), "gap"] == pytest.approx((4 + 8 - 4 / 3) / 2)
    assert gap.loc[(1, 0), "games"] == 2 and gap.loc[(2, 1), "games"] == 1
    assert gap.loc[(2, 1), "gap"] == pytest.approx(6) and math.isnan(gap.loc[(2, 1), "gap_lo"])
    by_round = gap.groupby(level="round")["gap"].sum()
    assert np.allclose(by_round, 0)  # leads over the others' mean sum to zero


def test_the_study_refuses_mixed_tables_and_summary_logs():
    games = pd.concat([_games(1), _games(2).iloc[1:].assign(n_players=3)])
    with pytest.raises(ValueError, match="several n_players"):
        first_seat_mechanism(games, _players([0, 0]), EVENTS, pd.DataFrame())
    with pytest.raises(ValueError, match="log = \"full\""):
        first_developments(EVENTS.drop(columns="detail"))
    with pytest.raises(ValueError, match="unknown abilities"):
        first_developments(EVENTS, abilities=("coins",))


def test_real_games_trace_the_first_seat(tmp_path):
    from hansa_lab import run_experiment

    res = run_experiment({"name": "mech", "games": 6, "players": 4, "log": "full",
                          "arms": {"g": ["greedy"]}}, out=tmp_path, n_jobs=1, progress=False)
    m = first_seat_mechanism(res.games, res.players, res.events, res.turns)
    assert set(m.development_shares["ability"]) <= {"actions", "bank", "privilege"}
    per_item = m.development_shares.groupby("ability")["share"].sum()
    assert np.allclose(per_item, 1.0)  # one first seat per game and ability
    assert m.lines[0].startswith("seat 0 wins") and len(m.seats) == 4
    assert set(m.route_shares["city"]) <= {"Göttingen", "Lübeck", "Stade"}
    from hansa_lab.stats.plots_mechanism import plot_first_seat_mechanism

    fig = plot_first_seat_mechanism(m)
    assert [ax.get_title() for ax in fig.axes] == [
        "first to develop", "first route to the ability city", "score gap by round"]
