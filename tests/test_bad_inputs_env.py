"""Bad input to the environments for learning agents: every action, action array and seed
a caller might hand them that they must refuse, with the documented error and nothing
changed; stepping before a reset and after the end, in every ``illegal_action`` mode."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from hansa_lab.engine.board import load_board
from hansa_lab.env.action_index import ActionIndex
from hansa_lab.env.aec import HansaEnv
from hansa_lab.env.single_agent import SingleAgentEnv
from hansa_lab.env.vector import VectorEnv

N_ACTIONS = ActionIndex(load_board("base_3p")).size

# ----------------------------------------------------------------------- environments
#: the scalar-action environments, each in both illegal_action modes
ENV_KINDS = ["single-lose", "single-raise", "aec-lose", "aec-raise"]


def make_env(kind: str, **kwargs: Any) -> SingleAgentEnv | HansaEnv:
    family, mode = kind.split("-")
    if family == "single":
        return SingleAgentEnv(opponents=("greedy", "greedy"), illegal_action=mode, **kwargs)
    return HansaEnv(n_players=3, illegal_action=mode, **kwargs)


def legal_action(env: SingleAgentEnv | HansaEnv) -> int:
    """A legal action of the seat to act (also once an episode is over)."""
    assert env.game is not None
    return env.game.legal_indices()[0]


def illegal_action(env: SingleAgentEnv | HansaEnv) -> int:
    """An integer of the action space that is not legal now."""
    game = env.game
    assert game is not None
    seat = env.seat if isinstance(env, SingleAgentEnv) else game.current_player
    mask = env.observe(f"player_{seat}") if isinstance(env, HansaEnv) else env._obs()
    return int(np.flatnonzero(mask["action_mask"] == 0)[0])


@pytest.fixture(scope="module")
def envs() -> dict[str, SingleAgentEnv | HansaEnv]:
    """One reset environment of each kind, shared: a refused action changes nothing."""
    made = {kind: make_env(kind) for kind in ENV_KINDS}
    for env in made.values():
        env.reset(seed=5)
    return made


# ----------------------------------------------------------------------- bad actions
#: (id, action or a function of the action space's size)
BAD_ACTIONS: list[tuple[str, Any]] = [
    ("float", 1.9),
    ("integral-float", 2.0),
    ("negative-float", -1.0),
    ("np-float32", np.float32(2.0)),
    ("np-float64", np.float64(0.0)),
    ("np-float16", np.float16(3.0)),
    ("digit-string", "3"),
    ("word", "place"),
    ("empty-string", ""),
    ("bytes", b"1"),
    ("true", True),
    ("false", False),
    ("np-bool", np.bool_(True)),
    ("np-bool-array", np.array(False)),
    ("2**63", 2**63),
    ("2**64", 2**64),
    ("2**64-1", 2**64 - 1),
    ("minus-one", -1),
    ("minus-2**63", -(2**63)),
    ("size", lambda n: n),
    ("size+1", lambda n: n + 1),
    ("np-uint64-max", np.uint64(2**64 - 1)),
    ("np-int64-negative", np.int64(-5)),
    ("np-int8-negative", np.int8(-1)),
    ("inf", math.inf),
    ("-inf", -math.inf),
    ("nan", math.nan),
    ("none", None),
    ("list", [1]),
    ("tuple", (1,)),
    ("array-1", np.array([1])),
    ("complex", 1 + 0j),
    ("fraction", Fraction(3, 1)),
    ("decimal", Decimal("3")),
    ("dict", {"action": 1}),
]


def _value(spec: Any) -> Any:
    return spec(N_ACTIONS) if callable(spec) else spec


@pytest.mark.parametrize("kind", ENV_KINDS)
@pytest.mark.parametrize("spec", [s for _, s in BAD_ACTIONS], ids=[i for i, _ in BAD_ACTIONS])
def test_bad_actions_are_refused_and_change_nothing(
        envs: dict[str, SingleAgentEnv | HansaEnv], kind: str, spec: Any) -> None:
    env = envs[kind]
    game = env.game
    assert game is not None
    before = game.n_actions
    with pytest.raises(ValueError, match=r"an action is an integer|is outside the action space"):
        env.step(_value(spec))
    assert game.n_actions == before
    if isinstance(env, HansaEnv):
        assert not any(env.terminations.values())  # not a loss, even in "lose" mode


@pytest.mark.parametrize("kind", ["single-lose", "aec-lose"])
@pytest.mark.parametrize("spec", [-1, 2**63, lambda n: n], ids=["-1", "2**63", "size"])
def test_outside_the_space_is_an_error_even_in_lose_mode(kind: str, spec: Any) -> None:
    env = make_env(kind)
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"action -?\d+ is outside the action space \[0, "):
        env.step(_value(spec))
    env.step(legal_action(env))  # still playable


@pytest.mark.parametrize("kind", ["single-raise", "aec-raise"])
@pytest.mark.parametrize("convert", [int, np.int64, np.int16, np.uint16, np.uint64, np.array],
                         ids=["int", "int64", "int16", "uint16", "uint64", "0-d-array"])
def test_integer_types_are_accepted(kind: str, convert: Callable[[int], Any]) -> None:
    env = make_env(kind)
    env.reset(seed=1)
    game = env.game
    assert game is not None
    action = legal_action(env)
    before = game.n_actions
    env.step(convert(action))
    assert game.n_actions > before


def test_action_index_refuses_floats_and_bools() -> None:
    ix = ActionIndex(load_board("base_3p"))
    for bad in (1.9, 1.0, np.float64(2.0), True, np.bool_(False), "1"):
        with pytest.raises(ValueError, match="an action index is an integer"):
            ix.action(bad)  # type: ignore[arg-type]
    assert ix.action(np.uint8(1)) == ix.action(1)


# ----------------------------------------------------------------------- bad seeds
BAD_SEEDS = [-1, -(2**63), 2**63, 2**64, 2**64 + 5, 1.5, 1.0, "1", True, False,
             np.float64(3.0), np.uint64(2**63), [1]]
SEED_IDS = ["-1", "-2**63", "2**63", "2**64", "2**64+5", "1.5", "1.0", "str", "True",
            "False", "np-float", "np-uint64-2**63", "list"]
SEEDED = {
    "single-reset": lambda s: SingleAgentEnv(opponents=("greedy", "greedy")).reset(seed=s),
    "aec-reset": lambda s: HansaEnv(n_players=3).reset(seed=s),
    "vector-init": lambda s: VectorEnv(n_envs=2, n_players=3, seed=s),
}


@pytest.mark.parametrize("where", list(SEEDED))
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=SEED_IDS)
def test_bad_seeds_are_refused_not_wrapped(where: str, seed: Any) -> None:
    with pytest.raises(ValueError, match=r"seed must be an integer 0-9223372036854775807, got "
                                         + re.escape(repr(seed))):
        SEEDED[where](seed)


def test_the_largest_seed_is_a_game_of_its_own() -> None:
    top = 2**63 - 1
    env = HansaEnv(n_players=3)
    env.reset(seed=top)
    assert env.game is not None and env.game.config.seed == top
    env.reset(seed=np.uint64(7))  # numpy integers are seeds too
    assert env.game.config.seed == 7
    single = SingleAgentEnv(opponents=("greedy", "greedy"))
    assert single.reset(seed=top)[1]["game_seed"] != single.reset(seed=0)[1]["game_seed"]
    a, b = VectorEnv(n_envs=2, seed=top), VectorEnv(n_envs=2, seed=0)
    a.reset()
    b.reset()
    assert a.game_seeds() != b.game_seeds()


# ----------------------------------------------------------------------- before reset
@pytest.mark.parametrize("kind", ENV_KINDS)
def test_step_before_reset_is_a_runtime_error(kind: str) -> None:
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        make_env(kind).step(0)


def test_vector_step_before_reset_is_a_runtime_error() -> None:
    venv = VectorEnv(n_envs=2, n_players=3)
    for call in (lambda: venv.step([-1, -1]), venv.step_random):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
            call()


# ----------------------------------------------------------------------- after the end
@pytest.mark.parametrize("mode", ["lose", "raise"])
def test_single_agent_step_after_truncation_is_refused(mode: str) -> None:
    env = make_env(f"single-{mode}", max_actions=3)
    assert isinstance(env, SingleAgentEnv)
    env.reset(seed=1)
    truncated = False
    while not truncated:
        _, _, terminated, truncated, _ = env.step(legal_action(env))
        assert not terminated
    with pytest.raises(RuntimeError, match=r"the episode is over: call reset\(\)"):
        env.step(0)
    env.reset(seed=1)  # a reset starts a new episode
    env.step(legal_action(env))


def test_single_agent_step_after_an_illegal_actions_loss_is_refused() -> None:
    env = make_env("single-lose")
    assert isinstance(env, SingleAgentEnv)
    env.reset(seed=1)
    legal = legal_action(env)
    _, reward, terminated, _, _ = env.step(illegal_action(env))
    assert (reward, terminated) == (-1.0, True)
    game = env.game
    assert game is not None
    before = game.n_actions
    for action in (legal, illegal_action(env)):
        with pytest.raises(RuntimeError, match=r"the episode is over: call reset\(\)"):
            env.step(action)
    with pytest.raises(RuntimeError, match="no afterstates"):
        env.afterstates()
    assert game.n_actions == before
    env.reset(seed=1)
    assert env.step(legal)[2] is False


def test_single_agent_step_after_a_finished_game_is_refused() -> None:
    env = SingleAgentEnv(opponents=("random",), illegal_action="raise")
    env.reset(seed=3)
    terminated = False
    while not terminated:
        _, _, terminated, truncated, _ = env.step(legal_action(env))
        assert not truncated
    with pytest.raises(RuntimeError, match=r"the episode is over"):
        env.step(0)


def _end_aec(env: HansaEnv, how: str) -> None:
    if how == "illegal":
        env.step(illegal_action(env))
    else:
        while not any(env.truncations.values()):
            env.step(legal_action(env))


@pytest.mark.parametrize(("mode", "how"), [("lose", "illegal"), ("lose", "truncated"),
                                           ("raise", "truncated")])
def test_aec_done_agents_follow_pettingzoo_then_step_is_refused(mode: str, how: str) -> None:
    env = make_env(f"aec-{mode}", max_actions=4)
    assert isinstance(env, HansaEnv)
    env.reset(seed=2)
    _end_aec(env, how)
    done = env.terminations if how == "illegal" else env.truncations
    assert all(done.values())
    agent = env.agent_selection
    with pytest.raises(ValueError, match=rf"{agent} is done .*only action is None, got 0"):
        env.step(0)
    assert env.agents == env.possible_agents  # the refused step removed nobody
    for _ in env.possible_agents:
        env.step(None)
    assert env.agents == []
    for action in (None, 0):
        with pytest.raises(RuntimeError, match=r"every agent has left: call reset\(\)"):
            env.step(action)
    env.reset(seed=2)
    env.step(legal_action(env))


# ----------------------------------------------------------------------- vector actions
@pytest.fixture(scope="module")
def venv() -> VectorEnv:
    env = VectorEnv(n_envs=3, n_players=3, seed=4)
    env.reset()
    return env


BAD_ARRAYS: list[tuple[str, Any, str]] = [
    ("uint64-max", np.array([2**64 - 1, 0, 0], np.uint64), "environment 0: action 18446"),
    ("uint64-2**63", np.array([0, 2**63, 0], np.uint64), "environment 1: action 9223"),
    ("int8-negative", np.array([-1, -1, -2], np.int8), "environment 2: action -2 is not legal: "
                                                       "it is outside"),
    ("int16-size", np.array([N_ACTIONS, -1, -1], np.int16), f"action {N_ACTIONS} is not legal:"),
    ("int64-size", np.array([-1, N_ACTIONS, -1], np.int64), f"environment 1: action {N_ACTIONS}"
                                                            " is not legal: it is outside"),
    ("int64-min", np.array([-(2**63), -1, -1], np.int64), "environment 0: .* is outside"),
    ("int32-negative", np.array([-1, -1, -7], np.int32), "environment 2: action -7"),
    ("float64", np.array([1.0, 2.0, 3.0]), "integer array .* got dtype float64"),
    ("float32", np.full(3, -1, np.float32), "got dtype float32"),
    ("float16", np.full(3, -1, np.float16), "got dtype float16"),
    ("bool", np.array([True, False, True]), "got dtype bool"),
    ("object", np.array([1, 2, 3], object), "got dtype object"),
    ("strings", np.array(["1", "2", "3"]), "got dtype <U1"),
    ("complex", np.zeros(3, complex), "got dtype complex128"),
    ("too-long", np.full(4, -1, np.int64), r"shape \(3,\), got \(4,\)"),
    ("too-short-uint64", np.full(2, 1, np.uint64), r"shape \(3,\), got \(2,\)"),
    ("column", np.full((3, 1), -1, np.int64), r"shape \(3,\), got \(3, 1\)"),
    ("scalar", np.int64(-1), r"shape \(3,\), got \(\)"),
    ("empty", np.zeros(0, np.int64), r"shape \(3,\), got \(0,\)"),
    ("list-2**64", [-1, 2**64, -1], "environment 1: action 18446744073709551616 is not legal"),
    ("list-2**63", [-1, -1, 2**63], "environment 2: action 9223372036854775808 is not legal"),
    ("list-bool", [True, -1, -1], "environment 0: an action is an integer .* got True"),
    ("list-np-bool", [-1, np.bool_(False), -1], "environment 1: an action is an integer"),
    ("list-float", [-1, -1, 1.9], "environment 2: an action is an integer .* got 1.9"),
    ("list-nan", [math.nan, -1, -1], "environment 0: an action is an integer .* got nan"),
    ("list-none", [-1, None, -1], "environment 1: an action is an integer .* got None"),
    ("list-str", ["3", -1, -1], "environment 0: an action is an integer .* got '3'"),
    ("list-ragged", [[1], -1, -1], "one integer per environment"),
    ("list-nested", [[1], [2], [3]], r"shape \(3,\), got \(3, 1\)"),
    ("list-empty", [], r"shape \(3,\), got \(0,\)"),
    ("list-too-long", [-1, -1, -1, -1], r"shape \(3,\), got \(4,\)"),
    ("none", None, r"shape \(3,\), got \(\)"),
    ("string", "abc", r"shape \(3,\), got \(\)"),
]


@pytest.mark.parametrize(("actions", "message"), [(a, m) for _, a, m in BAD_ARRAYS],
                         ids=[i for i, _, _ in BAD_ARRAYS])
def test_bad_action_arrays_are_refused_and_change_nothing(venv: VectorEnv, actions: Any,
                                                          message: str) -> None:
    seeds, games, obs = venv.game_seeds(), venv.games(), venv._obs.copy()
    with pytest.raises(ValueError, match=message):
        venv.step(actions)
    assert (venv.game_seeds(), venv.games()) == (seeds, games)
    np.testing.assert_array_equal(venv._obs, obs)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8,
                                   np.uint16, np.uint32, np.uint64])
def test_every_integer_dtype_steps_the_same_games(dtype: type) -> None:
    a, b = VectorEnv(n_envs=2, n_players=3, seed=9), VectorEnv(n_envs=2, n_players=3, seed=9)
    out = a.reset()
    b.reset()
    legal = np.array([int(np.flatnonzero(row)[0]) for row in out.mask])
    assert np.iinfo(dtype).max >= legal.max()  # small indices: the first places
    stepped = a.step(legal.astype(dtype)).copy()
    np.testing.assert_array_equal(stepped.obs, b.step(legal.astype(np.int64)).obs)
    assert a.game_seeds() == b.game_seeds()
