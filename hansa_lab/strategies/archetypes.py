"""Expert archetypes: ``greedy`` with one plan of the evaluation switched on.

Each archetype is the greedy player (the same look-ahead and evaluation,
:mod:`~hansa_lab.strategies.evaluation`) whose evaluation also values one long-term plan,
the way experienced players describe their games. The plan terms are documented in the
evaluation's table; every weight stays a parameter (``make_strategy("bank:plan_bank=2")``)
and ``plan_…=0`` gives back plain ``greedy`` (the archetype's ablation).

====================  ===========================================  ==========================
archetype             plan                                         source idea
====================  ===========================================  ==========================
``actions_rush``      ``plan_actions``: the third action within    seed 000 "improve your
                      the first rounds, then on to 5 actions       action technology at least
                                                                   once"; seed 001 "aim for
                                                                   three actions quickly"
``keys_network``      ``plan_keys``: City Keys developed and one   seed 000 "try getting a
                      large connected network of Kontors (the      large network"; seed 001
                      network scores × the Keys value)             "think of the City Keys,
                                                                   which raise your network"
``coellen``           ``plan_coellen``: Privilege raised and the   seed 001 scoring: 7, 8, 9
                      special route (Coellen–Warburg, or the       or 11 points per special
                      board's equivalent) established with a       space (Königsberg on East,
                      merchant to take a special-prestige space    Plymouth on Britannia)
``ability_control``   ``plan_control``: Kontors in the cities      seed 001: every route
                      that offer abilities, and control of them    established next to a city
                      (everyone establishing there pays the        pays its controller a
                      controller a point; 2 points each at the     point; 2 points per
                      end)                                         controlled city at the end
``bank``              ``plan_bank``: the Bank (income of 3, 5, 7   seed 001: Bank "recruit 3,
                      or all pieces per action) developed early    5, 7 or all"; "keep pieces
                      and to the full                              in your personal supply"
====================  ===========================================  ==========================

They play in the compiled core as ``greedy`` with their parameters (the core's greedy
reads every plan weight), so they are as fast as ``greedy``.

>>> make_strategy("actions_rush").params["plan_actions"]
2.0
>>> make_strategy("bank:plan_bank=0").params["plan_bank"]  # the ablation: plain greedy
0.0
"""

from __future__ import annotations

from typing import Any, ClassVar

from hansa_lab.strategies.base import make_strategy, register
from hansa_lab.strategies.greedy import Greedy

__all__ = ["ARCHETYPES", "AbilityControl", "ActionsRush", "BankPlan", "CoellenPlan",
           "KeysNetwork", "make_strategy"]


class Archetype(Greedy):
    """Greedy with a plan weight set (see the module doc); plays as ``greedy`` in the core."""

    core_name: ClassVar[str] = "greedy"


@register("actions_rush")
class ActionsRush(Archetype):
    defaults: ClassVar[dict[str, Any]] = {**Greedy.defaults, "plan_actions": 2.0}


@register("keys_network")
class KeysNetwork(Archetype):
    defaults: ClassVar[dict[str, Any]] = {**Greedy.defaults, "plan_keys": 1.0}


@register("coellen")
class CoellenPlan(Archetype):
    defaults: ClassVar[dict[str, Any]] = {**Greedy.defaults, "plan_coellen": 2.0}


@register("ability_control")
class AbilityControl(Archetype):
    defaults: ClassVar[dict[str, Any]] = {**Greedy.defaults, "plan_control": 1.0}


@register("bank")
class BankPlan(Archetype):
    defaults: ClassVar[dict[str, Any]] = {**Greedy.defaults, "plan_bank": 1.0}


#: the archetypes by name, in the order of the module doc
ARCHETYPES: dict[str, type[Archetype]] = {
    cls.name: cls for cls in (ActionsRush, KeysNetwork, CoellenPlan, AbilityControl, BankPlan)}
