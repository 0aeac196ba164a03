"""One vocabulary for both engines (``hansa_lab/engine/data/vocabulary.json``): every
name table of the Python engine and of the compiled core is the file's, in its order.

Each check fails both ways: a name one side has and the file lacks, and a name of the
file that side lacks (then the order). The core's own ``cargo test`` checks its enums
against the same file (``core/src/vocabulary.rs``); here the core is asked through the
tables the extension exports.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields

import pytest

from hansa_lab.compiled import bridge
from hansa_lab.engine import actions, events, narrate, options, state, vocabulary
from hansa_lab.engine.state import GameConfig
from hansa_lab.engine.vocabulary import vocabulary as file_table
from hansa_lab.strategies.evaluation import Weights


def same(what: str, side: Iterable[str], file: Iterable[str]) -> None:
    """``side`` holds the file's names in the file's order; the message names the
    difference."""
    got, want = list(side), list(file)
    lacks = [n for n in got if n not in want]
    missing = [n for n in want if n not in got]
    assert not lacks, f"{what}: the file lacks {lacks}"
    assert not missing, f"{what}: the file has {missing}, this side lacks them"
    assert got == want, f"{what}: another order than the file's"


def test_same_fails_both_ways() -> None:
    with pytest.raises(AssertionError, match="the file lacks"):
        same("x", ["a", "b"], ["a"])
    with pytest.raises(AssertionError, match="this side lacks"):
        same("x", ["a"], ["a", "b"])
    with pytest.raises(AssertionError, match="order"):
        same("x", ["b", "a"], ["a", "b"])


def test_the_python_engines_tables_are_the_files() -> None:
    v = file_table()
    same("marker kinds", actions.MARKER_KINDS, v["marker_kinds"])
    same("marker kinds (options)", options.MARKER_KINDS, v["marker_kinds"])
    same("usable markers", actions.USABLE_MARKERS, v["usable_markers"])
    same("action kinds", actions.ACTION_KINDS, v["turn_kinds"] + v["decision_kinds"])
    same("action arguments", actions.ARGUMENTS, actions.ACTION_KINDS)
    same("favour tiles", state.FAVOUR_TILES, v["favour_tiles"])
    same("favour names", narrate.FAVOUR_NAMES, v["favour_tiles"])
    same("marker names", narrate.MARKER_NAMES, v["marker_kinds"])
    same("editions", state.EDITIONS, v["editions"])
    same("marker sets", state.MARKER_SETS, v["editions"])
    for edition, (counts, start) in state.MARKER_SETS.items():
        entry = v["marker_sets"][edition]
        assert counts == entry["counts"] and list(start) == entry["start"], edition
    same("end reasons (words)", sorted(narrate.END_REASONS),
         sorted(v["end_reasons"] + v["match_end_reasons"]))
    same("event kinds", events.EVENT_KINDS, v["event_kinds"])
    same("rule options", options.RULE_OPTIONS, [e["name"] for e in v["rule_options"]])
    for entry in v["rule_options"]:
        if "default" in entry:
            default = options.RULE_OPTIONS[entry["name"]]
            want = entry["default"]
            assert (list(default) if isinstance(default, tuple) else default) == want, \
                entry["name"]
    same("greedy weights", Weights.names(), [name for name, _ in v["greedy_weights"]])
    assert {f.name: f.default for f in fields(Weights)} == dict(v["greedy_weights"])


@pytest.mark.skipif(not bridge.available(), reason="compiled core not built")
def test_the_cores_tables_are_the_files() -> None:
    core = bridge.core_module()
    v = file_table()
    same("core action kinds", core.ACTION_KINDS, v["turn_kinds"] + v["decision_kinds"])
    same("core event kinds", core.EVENT_KINDS, v["event_kinds"])
    same("core marker kinds", core.MARKER_KINDS, v["marker_kinds"])
    same("core favour tiles", core.FAVOUR_TILES, v["favour_tiles"])
    same("core end reasons", core.END_REASONS, v["end_reasons"])
    receives = [e["name"] for e in v["rule_options"] if "core_receives" not in e]
    same("core rule options", core.RULE_OPTION_NAMES, receives)
    same("resolved options", bridge.core_options(GameConfig(3)), receives)
    for e in v["rule_options"]:
        if "core_receives" in e:
            assert e["core_receives"] in receives, e["name"]
    same("core policies", core.POLICY_NAMES, v["core_policies"])
    same("bridge end reasons", bridge.END_REASONS, v["end_reasons"])


def test_the_core_strategies_map_to_the_files_policies() -> None:
    from hansa_lab.play.core_game import CORE_STRATEGIES  # the core's strategy classes
    from hansa_lab.strategies import Learned

    # the learned family (learned, learned_rollout, strong): their twins are built from a
    # model file, not by name
    names = {getattr(cls, "core_name", cls.name) for cls in CORE_STRATEGIES.values()
             if not issubclass(cls, Learned)}
    assert {"learned", "learned_rollout", "strong"} <= set(CORE_STRATEGIES) - names
    lacks = names - set(vocabulary.CORE_POLICIES)
    assert not lacks, f"core strategies the file lacks: {sorted(lacks)}"
