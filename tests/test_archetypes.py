"""The plan terms of the evaluation and the expert archetypes built on them: each term
counts what the evaluation's table says, each archetype plays its plan more than plain
greedy on the same deals, and they play in the compiled core exactly as greedy with the
same weights."""

from __future__ import annotations

import pytest

from hansa_lab.engine.board import A_ACTIONS, A_BANK, A_KEYS, A_PRIVILEGE
from hansa_lab.engine.state import EMPTY, GameConfig, new_game
from hansa_lab.play import core_game, play_game
from hansa_lab.sim.runner import simulate
from hansa_lab.strategies import ARCHETYPES, make_strategy
from hansa_lab.strategies.evaluation import (
    Weights,
    coellen_plan,
    control_plan,
    evaluate,
    track_plan,
)


def _fresh(n: int = 3, board: str = "base"):
    s = new_game(GameConfig(n_players=n, board=board, seed=5))
    s.posts = [EMPTY] * len(s.posts)  # no starting pieces: only what a test places
    return s


def _routes_next_to(s, cities):
    return [r for r, (x, y) in enumerate(s.board.route_cities) if x in cities or y in cities]


def test_a_track_plan_counts_levels_and_progress_towards_the_ability_city():
    s = _fresh()
    b = s.board
    assert track_plan(s, 0, A_ACTIONS) == 0.0
    s.levels[0][A_ACTIONS] = 2
    assert track_plan(s, 0, A_ACTIONS) == 8.0
    r = _routes_next_to(s, b.ability_cities[A_ACTIONS])[0]
    first = b.post_start[r]
    n = b.post_start[r + 1] - first
    s.posts[first] = 0  # one own trader on a route next to the Actions city
    assert track_plan(s, 0, A_ACTIONS) == pytest.approx(8.0 + 3.0 / n**2)
    s.posts[first + 1] = 2  # an opponent's piece there: no progress left
    assert track_plan(s, 0, A_ACTIONS) == 8.0
    s.levels[0][A_ACTIONS] = 5  # a full track: only the levels count
    s.posts[first + 1] = EMPTY
    assert track_plan(s, 0, A_ACTIONS) == 20.0
    assert track_plan(s, 0, A_BANK) == 0.0


def test_the_keys_plan_adds_the_largest_network():
    s = _fresh()
    b = s.board
    city = next(c for c in b.cities if len(c.offices) >= 2)
    s.offices[b.office_start[city.index]] = 0
    s.offices[b.office_start[city.index] + 1] = 1
    assert track_plan(s, 0, A_KEYS) == 2.0  # two Kontors, Keys undeveloped, no progress
    s.levels[0][A_KEYS] = 1
    assert track_plan(s, 0, A_KEYS) == 6.0


def test_the_coellen_plan_needs_a_free_space_and_counts_owned_ones():
    s = _fresh()
    b = s.board
    assert coellen_plan(s, 0) == 3.0  # the cheapest special space needs no Privilege
    lowest = min(colour for _, colour in b.special_spaces)
    assert lowest <= s.levels[0][A_PRIVILEGE]
    s.special = [1] * len(s.special)  # every space taken by player 0's merchants
    assert coellen_plan(s, 0) == 4.0 * len(s.special)
    assert coellen_plan(s, 1) == 0.0
    s.special[-1] = EMPTY
    s.levels[1][A_PRIVILEGE] = 0
    colour = b.special_spaces[-1][1]
    assert coellen_plan(s, 1) == (3.0 if colour <= 0 else 0.0)


def test_the_control_plan_counts_kontors_and_control_in_ability_cities_only():
    s = _fresh()
    b = s.board
    ability = next(c for c in b.cities if c.abilities)
    plain = next(c for c in b.cities if not c.abilities and not c.special_prestige)
    s.offices[b.office_start[plain.index]] = 0
    assert control_plan(s, 0) == 0.0
    s.offices[b.office_start[ability.index]] = 0
    assert control_plan(s, 0) == 2.5  # a Kontor and the control
    s.extras[ability.index] = [2, 3]  # two extra Kontors of player 1 take the control
    assert control_plan(s, 0) == 0.5
    assert control_plan(s, 1) == 3.0


def test_the_plan_weights_are_off_by_default():
    s = new_game(GameConfig(n_players=4, seed=3))
    w = Weights()
    assert all(getattr(w, k) == 0.0 for k in Weights.names() if k.startswith("plan_"))
    planned = Weights(plan_actions=1.0, plan_coellen=1.0)
    assert evaluate(s, 0, planned) == pytest.approx(evaluate(s, 0, w) + 3.0 + coellen_plan(s, 0)
                                                    + track_plan(s, 0, A_ACTIONS) - 3.0)


@pytest.mark.parametrize("name", list(ARCHETYPES))
def test_an_archetype_plays_in_the_core_as_greedy_with_its_weights(name):
    arch = make_strategy(name)
    assert core_game.core_policy(arch) is not None
    changed = {k: v for k, v in arch.params.items() if make_strategy("greedy").params[k] != v}
    assert changed and all(k.startswith("plan_") for k in changed)
    twin = "greedy:" + ",".join(f"{k}={v}" for k, v in changed.items())
    config = GameConfig(n_players=3, board="base", seed=808)
    a = play_game(config, [name, "greedy", "random"], max_actions=700, engine="core")
    b = play_game(config, [twin, "greedy", "random"], max_actions=700, engine="core")
    assert a.actions == b.actions
    # and the Python engine agrees (archetypes are greedy subclasses in both engines)
    py = play_game(config, [name, "greedy", "random"], max_actions=300).actions
    assert py == a.actions[:len(py)]


def _per_player(lineup, games=16):
    r = simulate(lineup, n_games=games, n_players=4, seed=31000, n_jobs=1, progress=False)
    last = r.turns.sort_values("turn").groupby(["game_id", "seat"]).tail(1)
    return r, last


def test_each_archetype_follows_its_plan_more_than_greedy():
    """One archetype seat against three greedy players, against an all-greedy table on
    the same deals: the archetype's seat shows its plan in the logs."""
    base, base_last = _per_player(["greedy"] * 4)
    for name, column, more in [("actions_rush", "lv_actions", 1.0), ("bank", "lv_bank", 1.0),
                               ("keys_network", "lv_keys", 0.5)]:
        r, last = _per_player([name, "greedy", "greedy", "greedy"])
        mine = last.merge(r.players[["game_id", "seat", "strategy"]], on=["game_id", "seat"])
        focal = mine[mine.strategy == name][column].mean()
        assert focal >= base_last[column].mean() + more, name
    r, _ = _per_player(["coellen", "greedy", "greedy", "greedy"])
    taken = r.events[(r.events.kind == "special")]
    seats = taken.merge(r.players[["game_id", "seat", "strategy"]], on=["game_id", "seat"])
    assert (seats.strategy == "coellen").sum() > len(base.events.query("kind == 'special'")) / 4
    r, _ = _per_player(["ability_control", "greedy", "greedy", "greedy"])
    focal = r.players[r.players.strategy == "ability_control"]["control"].mean()
    assert focal >= base.players["control"].mean() + 1.0


def test_strong_v1_searches_with_the_shipped_planners_weights():
    from hansa_lab.strategies.rollout import PLANNER_WEIGHTS
    planner = make_strategy("planner")
    strong = make_strategy("strong_v1")
    assert set(PLANNER_WEIGHTS) <= set(planner.params)
    for k, v in planner.params.items():
        assert strong.params[k] == v, k  # every evaluation weight, tuned or not
    assert core_game.core_policy(planner) is not None  # the planner plays in the core
