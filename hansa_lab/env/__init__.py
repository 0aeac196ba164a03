"""An environment for learning agents: the dense action index
(:mod:`~hansa_lab.env.action_index`), observation vectors
(:mod:`~hansa_lab.env.observation`), a PettingZoo AEC environment
(:class:`~hansa_lab.env.aec.HansaEnv`), a Gymnasium single-agent wrapper whose other seats
are shipped strategies (:class:`~hansa_lab.env.single_agent.SingleAgentEnv`) and the core's vector
environment (:class:`~hansa_lab.env.vector.VectorEnv`).

PettingZoo and Gymnasium come with the ``env`` extra (``pip install hansa-lab[env]``);
the action index and observations need neither.
"""

from __future__ import annotations

from typing import Any

from hansa_lab.env.action_index import ActionIndex, KindRange
from hansa_lab.env.observation import ObsField, observation_fields, observation_size, observe

__all__ = ["ActionIndex", "HansaEnv", "KindRange", "ObsField", "SingleAgentEnv", "VectorEnv",
           "observation_fields", "observation_size", "observe"]


def __getattr__(name: str) -> Any:
    """The environments on first use (PettingZoo and Gymnasium are the ``env`` extra)."""
    if name == "HansaEnv":
        from hansa_lab.env.aec import HansaEnv
        return HansaEnv
    if name == "SingleAgentEnv":
        from hansa_lab.env.single_agent import SingleAgentEnv
        return SingleAgentEnv
    if name == "VectorEnv":
        from hansa_lab.env.vector import VectorEnv
        return VectorEnv
    raise AttributeError(f"module 'hansa_lab.env' has no attribute {name!r}")
