"""An environment for learning agents: the dense action index
(:mod:`~hansa_lab.env.action_index`), observation vectors
(:mod:`~hansa_lab.env.observation`), a PettingZoo AEC environment
(:class:`~hansa_lab.env.aec.HansaEnv`), a Gymnasium single-agent wrapper whose other seats
are shipped strategies (:class:`~hansa_lab.env.gym.SingleAgentEnv`) and the core's vector
environment (:class:`~hansa_lab.env.vector.VectorEnv`).

PettingZoo and Gymnasium come with the ``env`` extra (``pip install hansa-lab[env]``);
the action index and observations need neither.
"""

from hansa_lab.env.action_index import ActionIndex, KindRange
from hansa_lab.env.observation import ObsField, observation_fields, observation_size, observe

__all__ = ["ActionIndex", "KindRange", "ObsField", "observation_fields", "observation_size",
           "observe"]
