"""The core's vector environment: the same positions, masks and observations as the
Python reference for the games it plays, auto-reset with rank rewards, the same results on
any thread count, and clear errors that change nothing."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from hansa_lab.compiled.bridge import core_config, core_module
from hansa_lab.engine.rules import apply_in_place, legal_actions
from hansa_lab.engine.scoring import ranking
from hansa_lab.engine.state import new_game
from hansa_lab.env.action_index import ActionIndex
from hansa_lab.env.observation import observe
from hansa_lab.env.vector import VectorEnv


@pytest.mark.parametrize(("board", "n_players"), [("base", 2), ("east", 4), ("britannia", 5)])
def test_vector_games_match_the_python_reference(board: str, n_players: int) -> None:
    venv = VectorEnv(n_envs=3, n_players=n_players, board=board, seed=9)
    out = venv.reset()
    states = [new_game(venv.config.replace(seed=s)) for s in venv.game_seeds()]
    ix = ActionIndex(states[0].board)
    rng = np.random.default_rng(0)
    for step in range(60):
        actions = []
        for e, s in enumerate(states):
            assert out.to_act[e] == s.current_player
            np.testing.assert_array_equal(out.obs[e], observe(s, s.current_player))
            legal = ix.indices(legal_actions(s))
            assert sorted(np.flatnonzero(out.mask[e]).tolist()) == sorted(legal)
            actions.append(int(rng.choice(legal)))
        if step % 2:  # mix chosen and core-random actions
            out = venv.step(actions)
            for s, a in zip(states, actions, strict=True):
                apply_in_place(s, ix.action(a))
        else:
            out = venv.step([-1] * 3)
            # the core's random choices are replayed from the observed successors: each
            # successor of the legal list is tried against the new observation
            for e, s in enumerate(states):
                for act in legal_actions(s):
                    t = s.clone()
                    apply_in_place(t, act)
                    if np.array_equal(out.obs[e], observe(t, t.current_player)):
                        states[e] = t
                        break
                else:
                    pytest.fail(f"env {e}: no legal action gives the core's position")
        assert not out.terminated.any() and not out.truncated.any()


def test_finished_games_give_rank_rewards_and_start_again() -> None:
    venv = VectorEnv(n_envs=8, n_players=3, seed=3)
    venv.reset()
    seen = 0
    for _ in range(3000):
        seeds = venv.game_seeds()
        out = venv.step_random()
        for e in np.flatnonzero(out.terminated):
            seen += 1
            rewards = out.rewards[e]
            assert set(rewards.tolist()) <= {0.0, 0.5, 1.0}
            assert rewards.max() == 1.0  # someone won
            assert venv.game_seeds()[e] != seeds[e]  # a new game began
        assert (out.rewards[~out.terminated] == 0).all()
        if seen >= 3:
            break
    assert seen >= 3
    assert max(venv.games()) >= 2


def test_rank_rewards_follow_the_engine_ranking() -> None:
    venv = VectorEnv(n_envs=1, n_players=3, seed=5)
    venv.reset()
    s = new_game(venv.config.replace(seed=venv.game_seeds()[0]))
    ix = ActionIndex(s.board)
    rng = np.random.default_rng(1)
    while True:
        a = int(rng.choice(ix.indices(legal_actions(s))))
        apply_in_place(s, ix.action(a))
        out = venv.step([a])
        if s.is_over:
            break
    assert out.terminated[0]
    ranks = ranking(s)
    np.testing.assert_allclose(out.rewards[0], [(3 - r) / 2 for r in ranks])


def test_truncation_restarts_the_game() -> None:
    venv = VectorEnv(n_envs=2, n_players=3, seed=1, max_actions=10)
    venv.reset()
    first = venv.game_seeds()
    for _ in range(9):
        assert not venv.step_random().truncated.any()
    out = venv.step_random()
    assert out.truncated.all() and not out.terminated.any()
    assert venv.game_seeds() != first
    assert out.obs[:, -3:].sum() == 2  # new games: seat 0 to act in both


def test_same_seed_same_games_on_any_thread_count() -> None:
    # 40 environments: several blocks of games, shared out between the threads
    runs = []
    for threads in (1, 2, 3):
        venv = VectorEnv(n_envs=40, n_players=4, seed=21, threads=threads)
        assert venv._env.threads == threads
        venv.reset()
        for _ in range(200):
            out = venv.step_random()
        runs.append((out.copy(), venv.game_seeds(), venv.games()))
    for out, seeds, games in runs[1:]:
        assert (seeds, games) == runs[0][1:]
        for name in ("obs", "mask", "rewards", "to_act"):
            np.testing.assert_array_equal(getattr(out, name), getattr(runs[0][0], name))


def test_fresh_buffers_each_call_give_the_same_rows() -> None:
    # the core rewrites only what changed when told the arrays are the last call's
    # (kept=True, as VectorEnv does); otherwise it writes them whole, so a caller passing
    # new arrays each call sees the same rows
    venv = VectorEnv(n_envs=20, n_players=3, seed=4, threads=2)
    raw = core_module().CoreVectorEnv(core_config(venv.config), 20, 4, 20_000, 2)
    venv.reset()
    raw.reset(*[np.zeros_like(b) for b in venv._buffers])
    for _ in range(150):
        out = venv.step_random()
        fresh = [np.full_like(b, 7) for b in venv._buffers]
        raw.step(np.full(20, -1, np.int64), *fresh)
        np.testing.assert_array_equal(fresh[0], out.obs)
        np.testing.assert_array_equal(fresh[1], out.mask)
        np.testing.assert_array_equal(fresh[5], out.to_act)


def test_step_releases_the_gil() -> None:
    # a Python thread records the time while long step calls run in another: with the
    # GIL held for the call, no record could fall inside one
    venv = VectorEnv(n_envs=4096, n_players=3, seed=8, threads=1)
    venv.reset()
    calls: list[tuple[float, float]] = []
    stamps: list[float] = []
    done = threading.Event()

    def stepping() -> None:
        for _ in range(4):
            t0 = time.perf_counter()
            venv.step_random()
            calls.append((t0, time.perf_counter()))
        done.set()

    def counting() -> None:
        while not done.is_set():
            stamps.append(time.perf_counter())

    threads = [threading.Thread(target=counting), threading.Thread(target=stepping)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    inside = [t for t in stamps for a, b in calls if a < t < b]
    longest = max(b - a for a, b in calls)
    assert longest > 0.005, "the calls are too short to tell"
    assert inside, f"no Python progress during {len(calls)} step calls of up to {longest:.3f}s"


def test_illegal_actions_are_errors_that_change_nothing() -> None:
    venv = VectorEnv(n_envs=3, n_players=3, seed=2)
    with pytest.raises(RuntimeError, match="reset"):
        venv.step([-1, -1, -1])
    out = venv.reset()
    before = out.copy()
    bad = int(np.flatnonzero(out.mask[1] == 0)[0])
    with pytest.raises(ValueError, match=rf"environment 1: action {bad} is not legal"):
        venv.step([-1, bad, -1])
    with pytest.raises(ValueError, match="environment 2: action -2 is not legal"):
        venv.step([-1, -1, -2])
    with pytest.raises(ValueError, match="one action per environment"):
        venv.step([-1, -1])
    np.testing.assert_array_equal(venv.step_random().obs.shape, before.obs.shape)
    # nothing had changed before this step: the same as stepping a fresh copy
    again = VectorEnv(n_envs=3, n_players=3, seed=2)
    again.reset()
    np.testing.assert_array_equal(again.step_random().obs, venv._obs)


def test_core_buffers_are_checked() -> None:
    venv = VectorEnv(n_envs=2, n_players=3)
    raw = core_module().CoreVectorEnv(core_config(venv.config), 2, 0)
    bufs = [np.zeros_like(b) for b in venv._buffers]
    with pytest.raises(ValueError, match="buffer obs has 3 items"):
        raw.reset(np.zeros(3, np.float32), *bufs[1:])
    with pytest.raises(ValueError, match="two arrays"):
        raw.reset(*bufs[:3], bufs[3], bufs[3], bufs[5])
    with pytest.raises(ValueError, match="n_envs"):
        VectorEnv(n_envs=0)
