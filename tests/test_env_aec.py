"""The PettingZoo AEC environment: PettingZoo's own API test on every board side, seeded
resets, rewards and score breakdowns at the end, clear errors for bad input."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from hansa_lab.compiled.bridge import CoreGame
from hansa_lab.env.aec import HansaEnv

#: every board side, each player count the side takes at least once across the list
BOARDS = [("base_3p", 2), ("base_3p", 3), ("base_45p", 4), ("base_45p", 5), ("east", 3),
          ("east", 5), ("britannia_3p", 3), ("britannia_45p", 4), ("britannia_45p", 5)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("board", "n_players"), BOARDS)
def test_pettingzoo_api_test_passes(board: str, n_players: int) -> None:
    api_test(HansaEnv(n_players=n_players, board=board), num_cycles=200,
             verbose_progress=False)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test_passes_with_edition_and_rule_options() -> None:
    env = HansaEnv(n_players=4, board="east", edition="original",
                   options={"emperor": True, "east_alternative": True, "prestige_to_end": 12})
    api_test(env, num_cycles=200, verbose_progress=False)
    assert env.config.option("emperor") is True


def _play(env: HansaEnv, seed: int, limit: int = 100_000) -> list[int]:
    """Random legal play from reset(seed) to the end; the actions taken."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken: list[int] = []
    for _agent in env.agent_iter(limit):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(a)
        env.step(a)
    return taken


def test_a_game_ends_with_rank_rewards_and_the_score_breakdown() -> None:
    env = HansaEnv(n_players=3, board="base")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    final_infos = {}
    while env.agents:
        agent = env.agent_selection
        obs, _, terminated, truncated, info = env.last()
        totals[agent] = env._cumulative_rewards[agent]
        if terminated or truncated:
            final_infos[agent] = info
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game: CoreGame = env.game  # type: ignore[assignment]
    assert game.is_over
    ranks = game.ranking()
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx((3 - ranks[seat]) / 2)
        assert final_infos[agent]["score"] == game.score_breakdown()[seat]
        assert final_infos[agent]["rank"] == ranks[seat]


def test_the_same_seed_gives_the_same_game() -> None:
    env = HansaEnv(n_players=4, board="base")
    first = _play(env, 11, limit=300)
    again = _play(env, 11, limit=300)
    other = _play(env, 12, limit=300)
    assert first == again
    assert first != other
    env.reset(seed=5)
    o1 = env.observe(env.agent_selection)["observation"]
    env.reset(seed=5)
    np.testing.assert_array_equal(o1, env.observe(env.agent_selection)["observation"])


def test_only_the_agent_to_act_has_a_mask() -> None:
    env = HansaEnv(n_players=3)
    env.reset(seed=2)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == env.agent_selection)
    assert sorted(env.legal_actions()) == np.flatnonzero(
        env.observe(env.agent_selection)["action_mask"]).tolist()


def test_illegal_actions_are_clear_errors_or_a_loss() -> None:
    env = HansaEnv(n_players=3)
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=rf"player_0: action {bad} \(.*\) is not legal now"):
        env.step(bad)
    with pytest.raises(ValueError, match="outside"):
        env.step(10**9)
    with pytest.raises(ValueError, match="integer"):
        env.step("place")
    assert env.game is not None and env.game.n_actions == 0  # nothing was lost
    lose = HansaEnv(n_players=3, illegal_action="lose")
    lose.reset(seed=2)
    lose.step(bad)
    assert all(lose.terminations.values())
    assert lose.rewards["player_0"] == -1.0
    assert lose.infos["player_0"]["illegal_action"] == bad


def test_bad_parameters_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="n_players"):
        HansaEnv(n_players=7)
    with pytest.raises(ValueError, match="board"):
        HansaEnv(board="moon")
    with pytest.raises(ValueError, match="illegal_action"):
        HansaEnv(illegal_action="ignore")
    with pytest.raises(RuntimeError, match="reset"):
        HansaEnv().observe("player_0")


def test_truncation_at_max_actions() -> None:
    env = HansaEnv(n_players=3, max_actions=5)
    taken = _play(env, 1)
    assert len(taken) == 5
    assert all(env.truncations.values()) or not env.agents
