"""What a caller hands an environment, checked once for every environment class: an
action, an array of actions (:class:`~hansa_lab.env.vector.VectorEnv`) and a seed.

An action is an integer of the action space ``[0, n_actions)``: a Python int or a numpy
integer (a 0-d integer array too). A float (even ``2.0``, even a numpy float), a string,
a bool, ``None`` or a list is refused, and so is an integer outside the action space:
both with ``ValueError`` naming the value, whatever the environment's ``illegal_action``
mode, which is about integers inside the space that are not legal now. A seed is an
integer ``0 … 2**63 - 1`` (the seeds a :class:`~hansa_lab.engine.state.GameConfig`
stores); anything else is a ``ValueError`` naming it, never wrapped into range.

>>> action_integer(3, 10)
3
>>> action_integer(1.9, 10)
Traceback (most recent call last):
ValueError: an action is an integer of the action space [0, 10), got 1.9
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from hansa_lab.engine.limits import as_int
from hansa_lab.engine.rng import check_seed

__all__ = ["action_array", "action_integer", "seed_integer"]

_INT64 = np.dtype(np.int64)
_BOOLS = frozenset((bool, np.bool_))


def _prefix(where: str) -> str:
    return f"{where}: " if where else ""


def action_integer(action: Any, n_actions: int, where: str = "") -> int:
    """``action`` as a Python int in ``[0, n_actions)``, else ``ValueError`` naming it
    (``where``, e.g. the agent, starts the message)."""
    space = f"the action space [0, {n_actions})"
    try:
        i = None if type(action) in _BOOLS else operator.index(action)
    except TypeError:
        i = None
    if i is None:
        raise ValueError(f"{_prefix(where)}an action is an integer of {space}, "
                         f"got {action!r}")
    if not 0 <= i < n_actions:
        raise ValueError(f"{_prefix(where)}action {i} is outside {space}")
    return i


def action_array(actions: Any, n_envs: int, n_actions: int) -> np.ndarray:
    """One action per environment as a C-contiguous int64 array, each in
    ``[-1, n_actions)`` (-1: a random legal action), else ``ValueError`` naming the
    environment. An int64 array passes as it is and a narrower integer array is
    converted (the core checks the range and legality of both); a uint64 array is
    range-checked here, before a conversion could wrap a value; bool, float, string and
    object arrays are refused."""
    acts = actions if isinstance(actions, np.ndarray) else _sequence_array(actions, n_actions)
    if acts.shape != (n_envs,):
        raise ValueError(f"step needs one action per environment: shape ({n_envs},), "
                         f"got {acts.shape}")
    if acts.dtype != _INT64:
        acts = _as_int64(acts, n_actions)
    return np.ascontiguousarray(acts)


def _sequence_array(actions: Any, n_actions: int) -> np.ndarray:
    """A list (or any sequence) of actions as an integer array. Numpy makes floats or
    objects of a list holding a float or a huge integer, and quietly makes ``True`` a 1
    among integers, so such a list is read item by item and its first bad item named."""
    try:
        acts = np.asarray(actions)
    except (TypeError, ValueError):  # ragged: numpy cannot make one array of it
        raise ValueError("actions must be one integer per environment, got "
                         f"{_short(actions)}") from None
    if acts.ndim != 1 or (acts.dtype.kind in "iu" and _BOOLS.isdisjoint(map(type, actions))):
        return acts
    for env, a in enumerate(actions):
        i = as_int(a)
        if i is None:
            raise ValueError(f"environment {env}: an action is an integer (an index, or "
                             f"-1 for a random legal action), got {a!r}")
        _check_range(env, i, n_actions)
    return np.array([int(a) for a in actions], np.int64)  # all checked integers


def _as_int64(acts: np.ndarray, n_actions: int) -> np.ndarray:
    """A non-int64 integer array of actions as int64. Every value of a narrower dtype
    converts exactly (the core then checks the range); a uint64 value above int64's
    range would wrap, so a uint64 array is range-checked first."""
    if acts.dtype.kind not in "iu":
        raise ValueError(f"actions must be an integer array (int8-int64, uint8-uint64), "
                         f"got dtype {acts.dtype}")
    if acts.dtype.itemsize == 8 and acts.size and int(acts.max()) >= n_actions:
        env = int(np.argmax(acts >= n_actions))
        _check_range(env, int(acts[env]), n_actions)
    return acts.astype(np.int64)


def _check_range(env: int, i: int, n_actions: int) -> None:
    if not -1 <= i < n_actions:
        raise ValueError(f"environment {env}: action {i} is not legal: it is outside the "
                         f"action index [-1, {n_actions}) (-1 = a random legal action)")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def seed_integer(seed: Any, where: str = "") -> int:
    """``seed`` as a Python int in ``0 … 2**63 - 1``, else ``ValueError`` naming it."""
    return check_seed(seed, where)
