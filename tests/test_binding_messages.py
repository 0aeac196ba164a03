"""The compiled core's argument errors, word for word: the length check of a caller's
buffer and the refusals that carry the core's reason after the call and the argument
(one helper each in ``core/src/python/boundary.rs``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from hansa_lab.compiled.bridge import CoreGame, core_module
from hansa_lab.engine.state import GameConfig
from hansa_lab.strategies.learned import find_model, load_model

core = core_module()


def _state():  # the core position of a fresh 3-player game
    return CoreGame(GameConfig(3))._s


def test_a_buffer_of_the_wrong_length_names_both_lengths() -> None:
    s = _state()
    obs = core.observation_fields("base_3p", 3)
    size = sum(n for _, n in obs)
    with pytest.raises(ValueError, match=re.escape(
            f"buffer out has {size + 1} items, the observation {size}")):
        core.env_observe(s, 0, np.zeros(size + 1, np.float32))
    n_actions = core.CoreActionIndex("base_3p").size
    with pytest.raises(ValueError, match=re.escape(
            f"buffer mask has 3 items, the action index {n_actions}")):
        core.env_mask(s, np.zeros(3, np.uint8))
    # the right lengths are taken
    core.env_observe(s, 0, np.zeros(size, np.float32))
    assert core.env_mask(s, np.zeros(n_actions, np.uint8)) > 0


def test_a_refused_learned_argument_names_the_call_the_argument_and_the_reason() -> None:
    m = load_model(find_model("learned_base4p"))
    with pytest.raises(ValueError, match=r"^learned_policy: tip: .*no_such_tip"):
        core.learned_policy(*m.core_args(), tip="no_such_tip")
    with pytest.raises(ValueError, match=r"^learned_policy: evaluation: .*no_such_weight"):
        core.learned_policy(*m.core_args(), evaluation=[("no_such_weight", 1.0)])
    with pytest.raises(ValueError, match=r"^model_forward: model hidden "):
        core.model_forward(*m.core_args(), [], hidden=([0.5], [0.0], [1.0, 2.0]))
