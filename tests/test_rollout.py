"""The ``rollout`` search player (also ``strong_v1``): legal, reproducible, the same in both
engines, its budget respected (that it beats greedy: tests/test_strong.py)."""

from __future__ import annotations

import pytest

from hansa_lab.compiled.bridge import CoreGame, core_module
from hansa_lab.engine.rng import seat_stream
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game, states_of
from hansa_lab.strategies import make_strategy


@pytest.mark.parametrize(("board", "n"), [("base", 3), ("east", 4), ("britannia", 5)])
def test_rollout_plays_the_same_game_in_both_engines(board, n):
    config = GameConfig(n_players=n, board=board, seed=40 + n)
    lineup = ["strong_v1", "rollout:candidates=3,horizon=2", *["greedy"] * (n - 2)]
    py = play_game(config, lineup, max_actions=120)
    in_core = play_game(config, lineup, max_actions=120, engine="core")
    assert in_core.actions == py.actions and in_core.final == py.final


def test_every_choice_is_legal_and_reproducible_from_the_seed():
    config = GameConfig(n_players=4, seed=8)
    lineup = ["rollout:candidates=4,horizon=3", "greedy", "random", "greedy"]
    a = play_game(config, lineup, max_actions=400, engine="core")
    b = play_game(config, lineup, max_actions=400, engine="core")
    assert a.actions == b.actions
    state = states_of(config, [])[0]
    for action in a.actions:  # replayed with the legality check of the Python engine
        assert action in legal_actions(state)
        state = apply(state, action)
    c = play_game(GameConfig(n_players=4, seed=9), lineup, max_actions=400, engine="core")
    assert c.actions != a.actions


@pytest.mark.parametrize(("candidates", "samples", "horizon"), [(3, 2, 2), (5, 1, 4), (1, 3, 5)])
def test_the_budget_is_what_the_parameters_say(candidates, samples, horizon):
    config = GameConfig(n_players=4, seed=2)
    spec = f"rollout:candidates={candidates},samples={samples},horizon={horizon}"
    strategy = make_strategy(spec)
    policy = core_module().CorePolicy("rollout", strategy.core_params())
    states = states_of(config, play_game(config, ["greedy"] * 4, max_actions=150,
                                         engine="core").actions)
    seen = 0
    for state in states[::10]:
        if state.is_over:
            continue
        legal = legal_actions(state)
        rng = seat_stream(5, 0)
        out = policy.search(CoreGame.from_state(state)._s, rng.state)
        action, _, playouts, actions, max_turns = out
        tried = min(candidates, len(legal)) if len(legal) > 1 else 0
        assert playouts == (tried * samples if tried > 1 else 0)
        # the turn in progress after the candidate (maybe the next one) and horizon more
        assert max_turns <= horizon + 2 and actions >= 0
        seen += playouts
        # the Python strategy makes the same choice from the same stream
        assert strategy.choose(state, legal, seat_stream(5, 0)) == tuple(action)
    assert seen > 0 or candidates == 1  # one candidate: nothing to compare


def test_rollout_parameters_are_checked():
    with pytest.raises(ValueError, match="candidates"):
        make_strategy("rollout:candidates=0")
    with pytest.raises(ValueError, match="depth"):
        make_strategy("strong_v1:depth=3")
