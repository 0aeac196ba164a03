"""The dense action index and the observations: Python reference and core agree.

Parity games (every board side and player count, both editions, the rule options of
:func:`hansa_lab.tools.parity.parity_configs`) are played with random and with greedy
choices; at every step both engines must give the same integers for the legal list, the
mask must hold exactly those, and every seat's observation must be the same.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from hansa_lab.compiled.bridge import CoreGame, core_module
from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import BOARD_SIDES, load_board
from hansa_lab.engine.rules import apply_in_place, legal_actions
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.env.action_index import LAYOUT, ActionIndex
from hansa_lab.env.observation import observation_fields, observation_size, observe
from hansa_lab.play.core_game import core_policy
from hansa_lab.strategies import make_strategy
from hansa_lab.tools.parity import parity_configs

core = core_module()
SIDES = [(side, "primary") for side in BOARD_SIDES] + [("east", "alternative")]


@pytest.mark.parametrize(("side", "variant"), SIDES)
def test_every_index_round_trips_and_matches_the_core(side: str, variant: str) -> None:
    ix = ActionIndex(load_board(side, variant))
    cix = core.CoreActionIndex(side, variant == "alternative")
    assert cix.size == ix.size == len(ix)
    assert cix.ranges() == [(r.kind, r.start, r.size) for r in ix.ranges]
    for i in range(ix.size):
        act = ix.action(i)
        assert ix.index(act) == i
        assert cix.action(i) == tuple(act)
        assert cix.index(*act) == i
    assert cix.action(ix.size) is None


def test_layout_documents_every_kind() -> None:
    ix = ActionIndex(load_board("base_3p"))
    assert list(LAYOUT) == [r.kind for r in ix.ranges]


def test_actions_outside_the_index_are_clear_errors() -> None:
    ix = ActionIndex(load_board("base_3p"))
    with pytest.raises(ValueError, match=r"place.*no index on board base_3p"):
        ix.index(Action("place", 99, 0))
    with pytest.raises(ValueError, match=r"swap"):
        ix.index(Action("swap", 5, 3))  # posts of a swap are in increasing order
    with pytest.raises(ValueError, match=rf"outside \[0, {ix.size}\)"):
        ix.action(ix.size)
    with pytest.raises(ValueError, match="integer"):
        ix.action("place")  # type: ignore[arg-type]
    assert core.CoreActionIndex("base_3p").index("place", 99, 0, -1) is None
    with pytest.raises(ValueError, match="unknown board side"):
        core.CoreActionIndex("moon")


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_core_fields_match_the_python_fields(n_players: int) -> None:
    for side in BOARD_SIDES:
        board = load_board(side)
        if n_players not in board.players:
            continue
        py = [(f.name, f.size) for f in observation_fields(board, n_players)]
        assert core.observation_fields(side, n_players) == py


def _check_position(s, game: CoreGame, ix: ActionIndex, size: int, observe_now: bool) -> None:
    legal = legal_actions(s)
    want = ix.indices(legal)
    assert core.env_legal_indices(game._s) == want
    mask = np.zeros(ix.size, np.uint8)
    assert core.env_mask(game._s, mask) == len(legal)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(want)
    assert [ix.action(i) for i in want] == legal
    if observe_now:
        for seat in range(s.n_players):
            out = np.zeros(size, np.float32)
            core.env_observe(game._s, seat, out)
            np.testing.assert_array_equal(out, np.array(observe(s, seat), np.float32),
                                          err_msg=f"seat {seat}")


@pytest.mark.parametrize("chooser", ["random", "greedy"])
@pytest.mark.parametrize("seed", range(10))
def test_parity_games_give_the_same_indices_masks_and_observations(
        seed: int, chooser: str) -> None:
    config = parity_configs(seed + 10 * (chooser == "greedy"))
    s = new_game(config)
    game = CoreGame(config)
    ix = ActionIndex(s.board)
    size = observation_size(s.board, config.n_players)
    rng = random.Random(seed)
    policy = core_policy(make_strategy("greedy"))
    rng_state = seed + 1
    steps = 0
    limit = 250 if chooser == "random" else 120
    while not s.is_over and steps < limit:
        _check_position(s, game, ix, size, observe_now=steps % 4 == 0)
        if chooser == "random":
            act = rng.choice(legal_actions(s))
        else:
            t, rng_state = policy.choose(game._s, rng_state)
            act = Action(*t)
        apply_in_place(s, act)
        assert core.env_apply_index(game._s, ix.index(act))
        steps += 1
    _check_position(s, game, ix, size, observe_now=True)


def test_observation_hides_the_bag_order() -> None:
    s = new_game(GameConfig(n_players=3, seed=4))
    shuffled = s.clone()
    shuffled.bag = tuple(reversed(s.bag))
    assert s.bag != shuffled.bag
    for seat in range(3):
        assert observe(s, seat) == observe(shuffled, seat)


def test_drawn_markers_are_seen_by_kind_only_by_the_drawer() -> None:
    s = new_game(GameConfig(n_players=3, seed=4))
    s.bag, s.drawn = s.bag[1:], s.bag[:1]
    fields = {f.name: f for f in observation_fields(s.board, 3)}
    drawn = fields["drawn_markers"]
    mine = observe(s, s.active)[drawn.start:drawn.stop]
    other = observe(s, (s.active + 1) % 3)[drawn.start:drawn.stop]
    assert sum(mine) == 1 and sum(other) == 0
    count = fields["drawn_count"].start
    assert observe(s, (s.active + 1) % 3)[count] == 1


def test_observation_is_relative_to_the_seat() -> None:
    s = new_game(GameConfig(n_players=3, seed=4))
    apply_in_place(s, Action("place", 0, 0))  # seat 0 places a trader on route 0
    posts = observation_fields(s.board, 3)[0]
    nc = 3
    for seat in range(3):
        o = observe(s, seat)
        rel = (0 - seat) % 3
        assert o[posts.start + 2 * rel] == 1.0  # channel 2 * relative colour + trader
        assert sum(o[posts.start:posts.start + 2 * nc]) == 1.0
    with pytest.raises(ValueError, match="seat 3"):
        observe(s, 3)
