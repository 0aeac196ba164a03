"""The ``ismcts`` search player: legal over whole games, reproducible, its budget
respected, its parameters checked by name, and the same in both engines (small budgets)."""

from __future__ import annotations

import pytest

from hansa_lab import _core
from hansa_lab.compiled.bridge import CoreGame, core_module
from hansa_lab.engine.rng import seat_stream
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import GameConfig
from hansa_lab.play import core_game, play_game, states_of
from hansa_lab.strategies import Ismcts, make_strategy

SMALL = "ismcts:iterations=6,horizon=1"


def _policy(spec: str):
    return core_module().CorePolicy("ismcts", make_strategy(spec).core_params())


def _positions(config: GameConfig, every: int = 10, max_actions: int = 150):
    """Positions of a greedy game with a choice to make, every ``every`` actions."""
    actions = play_game(config, ["greedy"] * config.n_players,
                             max_actions=max_actions, engine="core").actions
    states = states_of(config, actions)[::every]
    return [s for s in states if not s.is_over and len(legal_actions(s)) > 1]


@pytest.mark.parametrize(("board", "n"), [("base", 2), ("base", 3), ("base", 4),
                                          ("east", 4), ("britannia", 5)])
def test_every_choice_is_legal_over_whole_games(board, n):
    config = GameConfig(n_players=n, board=board, seed=60 + n)
    lineup = [SMALL, "ismcts:iterations=3,horizon=0,paranoid=true", *["greedy"] * (n - 2)]
    rec = play_game(config, lineup, engine="core")
    assert rec.end_reason not in (None, "cap")
    state = states_of(config, [])[0]
    for action in rec.actions:  # replayed with the legality check of the Python engine
        assert action in legal_actions(state)
        state = apply(state, action)
    assert state.is_over


def test_the_same_seed_plays_the_same_game_and_the_seat_stream_matters():
    config = GameConfig(n_players=4, seed=8)
    lineup = [SMALL, "greedy", "random", "greedy"]
    a = play_game(config, lineup, max_actions=300, engine="core")
    assert play_game(config, lineup, max_actions=300, engine="core").actions == a.actions
    policy = _policy("ismcts:iterations=20,horizon=2")
    picks = {
        seat: [policy.choose(CoreGame.from_state(s)._s, seat_stream(8, seat).state)[0]
               for s in _positions(config, every=5)]
        for seat in (0, 1)
    }
    assert picks[0] != picks[1]  # another stream: another determinization somewhere


@pytest.mark.parametrize("iterations", [1, 5, 30])
def test_the_search_runs_exactly_its_iterations(iterations):
    config = GameConfig(n_players=4, seed=2)
    strategy = make_strategy(f"ismcts:iterations={iterations},horizon=1")
    policy, more = _policy(strategy.spec), _policy(f"ismcts:iterations={iterations + 10},horizon=1")
    for state in _positions(config, every=25):
        rng = seat_stream(5, 0)
        action, _, done, nodes, depth = policy.search(CoreGame.from_state(state)._s, rng.state)
        assert done == iterations and 2 <= nodes <= iterations + 1 and depth >= 1
        assert more.search(CoreGame.from_state(state)._s, rng.state)[3] > nodes
        # the Python strategy makes the same choice from the same stream
        assert strategy.choose(state, legal_actions(state), seat_stream(5, 0)) == tuple(action)


def test_a_single_legal_action_needs_no_search():
    config = GameConfig(n_players=3, seed=1)
    state = _positions(config)[1]
    only = legal_actions(state)[:1]
    rng = seat_stream(1, 0)
    assert make_strategy(SMALL).choose(state, only, rng) == only[0]
    assert rng.state == seat_stream(1, 0).state


def test_parameters_are_checked_by_name():
    params = make_strategy("ismcts").core_params()
    with pytest.raises(ValueError, match='parameter "widen_c" is missing'):
        _core.CorePolicy("ismcts", [p for p in params if p[0] != "widen_c"])
    with pytest.raises(ValueError, match='no parameter "speed"'):
        _core.CorePolicy("ismcts", [*params, ("speed", 1.0)])
    with pytest.raises(ValueError, match="speed"):
        make_strategy("ismcts:speed=1")
    with pytest.raises(ValueError, match="iterations"):
        make_strategy("ismcts:iterations=0")
    with pytest.raises(ValueError, match="depth"):
        make_strategy("ismcts:depth=3")
    assert core_game.CORE_STRATEGIES["ismcts"] is Ismcts
    assert core_game.core_policy(make_strategy("ismcts")) is not None


@pytest.mark.parametrize(("board", "n", "paranoid"), [("base", 3, False), ("east", 4, True)])
def test_ismcts_plays_the_same_game_in_both_engines(board, n, paranoid):
    config = GameConfig(n_players=n, board=board, seed=40 + n)
    lineup = [f"{SMALL},paranoid={paranoid}", "rollout:candidates=3,horizon=2",
              *["greedy"] * (n - 2)]
    py = play_game(config, lineup, max_actions=120)
    in_core = play_game(config, lineup, max_actions=120, engine="core")
    assert in_core.actions == py.actions and in_core.final == py.final
