"""The Gymnasium single-agent wrapper: Gymnasium's own checker, seeded resets, the
opponents' play, rewards and clear errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from hansa_lab.env.single_agent import SingleAgentEnv


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("opponents", "board", "seat"), [
    (("greedy", "strong"), "base", 0),
    (("greedy",), "base", None),
    (("greedy", "greedy", "random"), "east", 2),
    (("random", "random", "random", "random"), "britannia", 4),
])
def test_gymnasium_check_env_passes(opponents: tuple[str, ...], board: str,
                                    seat: int | None) -> None:
    check_env(SingleAgentEnv(opponents=opponents, board=board, seat=seat),
              skip_render_check=True)


def _episode(env: SingleAgentEnv, seed: int) -> tuple[list[int], float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    while True:
        assert env.game is not None and env.game.current_player == env.seat
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            return taken, reward, info


def test_an_episode_against_greedy_ends_with_the_rank_reward() -> None:
    env = SingleAgentEnv(opponents=("greedy", "greedy"), seat=1)
    taken, reward, info = _episode(env, 4)
    assert env.game is not None and env.game.is_over
    rank = env.game.ranking()[1]
    assert info["rank"] == rank and reward == (3 - rank) / 2
    assert info["score"] == env.game.score_breakdown()[1]
    again, reward_again, _ = _episode(env, 4)
    assert again == taken and reward_again == reward  # seeded: the same episode


def test_illegal_actions_lose_or_raise() -> None:
    env = SingleAgentEnv(opponents=("greedy", "greedy"))
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, bad)
    strict = SingleAgentEnv(opponents=("greedy", "greedy"), illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match=f"action {bad} is not legal now"):
        strict.step(bad)
    assert strict.game is not None and strict.game.n_actions == 0


def test_bad_parameters_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="list of strategy specs"):
        SingleAgentEnv(opponents="greedy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv(opponents=("greedy",), seat=2)
    with pytest.raises(ValueError, match="unknown"):
        SingleAgentEnv(opponents=("no_such_strategy",))
    with pytest.raises(RuntimeError, match="reset"):
        SingleAgentEnv().step(0)


def test_afterstates_are_the_observations_after_each_legal_action() -> None:
    env = SingleAgentEnv(opponents=("greedy", "greedy"))
    obs, _ = env.reset(seed=2)
    legal, after = env.afterstates()
    assert sorted(legal.tolist()) == np.flatnonzero(obs["action_mask"]).tolist()
    assert after.shape == (len(legal), obs["observation"].size)
    assert env.game is not None and env.game.n_actions == 0  # the position is untouched
    k = len(legal) // 2
    game = env.game.copy()
    from hansa_lab.compiled.bridge import core_module
    core = core_module()
    assert core.env_apply_index(game._s, int(legal[k]))
    want = np.zeros(after.shape[1], np.float32)
    core.env_observe(game._s, 0, want)
    np.testing.assert_array_equal(after[k], want)
