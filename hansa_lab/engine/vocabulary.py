"""The names both engines share, from one data file compiled into the core too.

``data/vocabulary.json`` lists, in their order, the bonus-marker kinds and the editions'
marker sets, the action kinds, the Emperor's Favour tiles, the end reasons, the event
kinds, the rule options with their defaults, the greedy evaluation weights with their
defaults and the strategies the core plays. The Python engine takes its constants from
it (:data:`MARKER_KINDS`, :data:`ACTION_KINDS` …); the core includes the same file at
compile time (``core/src/vocabulary.rs``) and its tests check its enums against it, so
an index means the same thing on both sides. ``tests/test_vocabulary.py`` fails when
either engine has a name the file lacks (or lacks one it has).

>>> MARKER_KINDS[:3]
('extra', 'swap', 'move3')
>>> ACTION_KINDS.index("end") == len(TURN_KINDS) - 1
True
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["ACTION_KINDS", "CORE_POLICIES", "DECISION_KINDS", "EDITIONS", "END_REASONS",
           "EVENT_KINDS", "FAVOUR_TILES", "GREEDY_WEIGHTS", "MARKER_KINDS", "MARKER_SETS",
           "MATCH_END_REASONS", "PLAIN_INT_OPTIONS", "RULE_OPTION_NAMES", "TURN_KINDS",
           "USABLE_MARKERS", "VOCABULARY_FILE", "rule_option_default", "vocabulary"]

#: The shared file (the core includes the same file at compile time).
VOCABULARY_FILE = Path(__file__).parent / "data" / "vocabulary.json"


def _interned(value: Any) -> Any:
    """``value`` with every string interned, as the literals of a module are: a name
    from the file is then the same object as the same name written in the code (fast
    comparisons, and a pickled state stores it once)."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, list):
        return [_interned(x) for x in value]
    if isinstance(value, dict):
        return {sys.intern(k): _interned(x) for k, x in value.items()}
    return value


@cache
def vocabulary() -> dict[str, Any]:
    """The whole file as read (JSON; strings interned)."""
    data: dict[str, Any] = _interned(json.loads(VOCABULARY_FILE.read_text(encoding="utf-8")))
    return data


def _names(key: str) -> tuple[str, ...]:
    return tuple(vocabulary()[key])


#: The editions, in the order of the core's edition codes.
EDITIONS = _names("editions")
#: Every bonus-marker kind, in the order a replacement bag is filled before its shuffle.
MARKER_KINDS = _names("marker_kinds")
#: The marker kinds a ``marker`` action may use (``Action.a`` indexes this).
USABLE_MARKERS = _names("usable_markers")
#: Bonus-marker sets per edition: (kind, count) and the three start markers on the taverns.
MARKER_SETS: dict[str, tuple[dict[str, int], tuple[str, str, str]]] = {
    edition: (dict(entry["counts"]), (entry["start"][0], entry["start"][1], entry["start"][2]))
    for edition, entry in vocabulary()["marker_sets"].items()
}
#: The action kinds that start from the turn itself (no decision pending).
TURN_KINDS = _names("turn_kinds")
#: The action kinds that answer a pending decision.
DECISION_KINDS = _names("decision_kinds")
#: Every action kind: the turn kinds, then the decision kinds.
ACTION_KINDS = TURN_KINDS + DECISION_KINDS
#: Emperor's Favour tiles: four effects during the game, two in the final scoring.
FAVOUR_TILES = _names("favour_tiles")
#: Why a game ends by the rules (``State.end_reason``).
END_REASONS = _names("end_reasons")
#: Why a match stops without a rule's end (the action cap).
MATCH_END_REASONS = _names("match_end_reasons")
#: Every event kind, in the order of the core's event codes.
EVENT_KINDS = _names("event_kinds")
#: Every rule option, in the documentation's order.
RULE_OPTION_NAMES = tuple(e["name"] for e in vocabulary()["rule_options"])
#: The plain integer rule options: option name → the field of ``Tuning`` it fills as given
#: (``"tuning"``: both engines validate, resolve and pass these from their entry alone).
PLAIN_INT_OPTIONS: dict[str, str] = {e["name"]: e["tuning"]
                                     for e in vocabulary()["rule_options"] if "tuning" in e}
#: The greedy evaluation's weights with their defaults, in their order.
GREEDY_WEIGHTS: dict[str, float] = {name: value for name, value in vocabulary()["greedy_weights"]}
#: The strategies the core plays by name (``CorePolicy``).
CORE_POLICIES = _names("core_policies")


def rule_option_default(name: str) -> Any:
    """The default of rule option ``name`` as the file gives it (lists as tuples);
    ``KeyError`` for an option whose default is the board file's printed value
    (``"printed"``: the option table computes it from ``boards.json``)."""
    entry = next(e for e in vocabulary()["rule_options"] if e["name"] == name)
    value = entry["default"]
    return tuple(value) if isinstance(value, list) else value
