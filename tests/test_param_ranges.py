"""The shared range table (``hansa_lab/engine/data/limits.json``): both engines play a
game at each end of each range and agree action for action; one step beyond either end
is refused by both (the Python validation and the core's own check), naming the
parameter, the value and the range.

Games are small (3 players, capped actions), so the whole file takes seconds. The high
ends of the search budgets (``rollout``'s candidates, samples and horizon, ``ismcts``'s
iterations) cost seconds per decision: one decision each, in the ``slow`` tier.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from hansa_lab.compiled import bridge
from hansa_lab.compiled.bridge import core_config, core_module, core_options
from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import load_board
from hansa_lab.engine.limits import (
    LIMITS_FILE,
    Limit,
    limits_markdown,
    option_limit,
    option_limits,
    parameter_groups,
    parameter_limits,
)
from hansa_lab.engine.options import MARKER_KINDS, RULE_OPTIONS
from hansa_lab.engine.rng import seat_stream
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.engine.vocabulary import vocabulary
from hansa_lab.play import core_game, play_game
from hansa_lab.strategies import make_strategy, registry

pytestmark = pytest.mark.skipif(not bridge.available(), reason="compiled core not built")

#: the core's strategies and the groups of the table their parameters come from (the
#: same list is in core/src/limits.rs, policy_groups; test_core_groups_match checks it)
CORE_GROUPS = {
    "random": ("random",),
    "greedy": ("greedy", "weights"),
    "actions_first": ("greedy", "weights", "tip"),
    "blocker": ("greedy", "weights", "tip"),
    "network_keys": ("greedy", "weights", "tip"),
    "keep_supply": ("greedy", "weights", "tip", "keep_supply"),
    "rollout": ("greedy", "weights", "rollout"),
    "ismcts": ("greedy", "weights", "ismcts"),
}
#: the budgets whose high end costs seconds per decision (one decision, slow tier)
COSTLY_HIGH = {("rollout", "candidates"), ("rollout", "samples"), ("rollout", "horizon"),
               ("ismcts", "iterations"), ("ismcts", "horizon")}


def _both_engines(config: GameConfig, lineup: list[Any], max_actions: int) -> None:
    py = play_game(config, lineup, max_actions=max_actions)
    co = play_game(config, lineup, max_actions=max_actions, engine="core")
    assert py.actions == co.actions
    assert py.final.prestige == co.final.prestige
    assert py.end_reason == co.end_reason


def _end_value(strategy: str, key: str, end: str) -> int | float:
    """The end of the parameter's range both engines take: the table's, narrowed by the
    Python class's ``ranges`` where it declares less (``explore >= 0.01``)."""
    cls = registry()[strategy]
    lim = cls.limits[key]
    lo, hi = cls.ranges.get(key, (lim.low, lim.high))
    v = max(lim.low, lo) if end == "low" else min(lim.high, hi)
    return int(v) if lim.kind == "int" else float(v)


# ------------------------------------------------------------------ the table itself
def test_every_numeric_parameter_of_every_strategy_has_a_declared_range() -> None:
    # the package's strategies (other test modules register their own in the same worker)
    shipped = {n: c for n, c in registry().items() if c.__module__.startswith("hansa_lab.")}
    assert {"greedy", "mcts", "learned"} <= set(shipped)
    for name, cls in shipped.items():
        for key, default in cls.defaults.items():
            if isinstance(default, bool) or not isinstance(default, int | float):
                continue
            assert key in cls.limits, f"{name}: parameter {key} has no range in limits.json"
            lim = cls.limits[key]
            assert lim.contains(default), f"{name}: default {key}={default} outside {lim}"
        for key, (lo, hi) in cls.ranges.items():
            lim = cls.limits[key]
            assert lim.low <= lo <= hi <= lim.high, f"{name}: ranges[{key}] beyond {lim}"


def test_every_numeric_rule_option_has_a_declared_range() -> None:
    bools = {"east_alternative", "emperor"}
    assert set(option_limits()) == set(RULE_OPTIONS) - bools
    assert LIMITS_FILE.is_file()


def test_core_groups_match_the_python_classes() -> None:
    for name, groups in CORE_GROUPS.items():
        assert registry()[name].limits == parameter_limits(*groups), name
    assert set(parameter_groups()) >= {g for gs in CORE_GROUPS.values() for g in gs}


# ------------------------------------------------------------------ strategy parameters
def _strategy_cases(fast: bool) -> list[Any]:
    cases = []
    for strategy, groups in CORE_GROUPS.items():
        own = parameter_limits(groups[-1]) if strategy not in ("greedy",) else \
            parameter_limits(*groups)
        if strategy in ("blocker", "network_keys"):
            continue  # the same groups as actions_first
        for key in own:
            for end in ("low", "high"):
                costly = end == "high" and (strategy, key) in COSTLY_HIGH
                if costly != fast:
                    cases.append(pytest.param(strategy, key, end, id=f"{strategy}-{key}-{end}"))
    return cases


@pytest.mark.parametrize(("strategy", "key", "end"), _strategy_cases(fast=True))
def test_both_engines_play_each_end_of_each_parameter(strategy: str, key: str,
                                                      end: str) -> None:
    value = _end_value(strategy, key, end)
    me = make_strategy(strategy, **{key: value})
    budget = {"rollout": 2, "ismcts": 2}.get(strategy)
    max_actions = 12 if budget else 40
    if budget and key not in ("candidates", "samples", "horizon", "iterations"):
        small = {"candidates": 2, "horizon": 1} if strategy == "rollout" else \
            {"iterations": 2, "horizon": 0}
        me = make_strategy(strategy, **{**small, key: value})
    config = GameConfig(n_players=3, seed=5)
    _both_engines(config, [me, "greedy", "random"], max_actions)


@pytest.mark.slow
@pytest.mark.parametrize(("strategy", "key", "end"), _strategy_cases(fast=False))
def test_one_decision_at_the_high_end_of_each_search_budget(strategy: str, key: str,
                                                            end: str) -> None:
    value = _end_value(strategy, key, end)
    cheap = {"horizon": 0} if (strategy, key) == ("ismcts", "iterations") else {}
    me = make_strategy(strategy, **{**cheap, key: value})
    state = new_game(GameConfig(n_players=3, seed=5))
    legal = legal_actions(state)
    in_python = me.choose(state, list(legal), seat_stream(5, 0))
    out = core_game.core_policy(me).choose(bridge.CoreGame.from_state(state)._s,
                                      seat_stream(5, 0).state)
    assert out is not None and Action(*out[0]) == in_python and in_python in legal


def _beyond(lim: Limit) -> list[float]:
    step = 1 if lim.kind == "int" else max(1e-6, (lim.high - lim.low) * 1e-6)
    return [lim.low - step, lim.high + step, math.inf, -math.inf, math.nan, 1e308]


@pytest.mark.parametrize("strategy", sorted(CORE_GROUPS))
def test_both_engines_refuse_a_step_beyond_each_end(strategy: str) -> None:
    cls = registry()[strategy]
    defaults = [(k, float(v)) for k, v in cls.defaults.items()]
    for key, lim in cls.limits.items():
        for bad in _beyond(lim):
            with pytest.raises(ValueError, match=f"parameter {key!r}"):
                make_strategy(strategy, **{key: bad})
            params = [(k, bad if k == key else v) for k, v in defaults]
            with pytest.raises(ValueError, match=f'parameter "{key}"'):
                core_module().CorePolicy(strategy, params)


# ------------------------------------------------------------------ rule options
def _option_value(name: str, end: str, config: GameConfig) -> Any:
    lim = option_limit(name)
    v = int(lim.low if end == "low" else lim.high)
    n = config.n_players
    lists = {"special_points": 4, "east_west_points": 5, "marker_points": 20,
             "region_points": 5, "actions_track": 6, "bank_track": 4, "book_track": 4,
             "keys_track": 5, "start_supply_seats": n}
    if name == "start_supply":
        return min(v, 11 - n)
    if name == "cities_to_end":
        return min(v, load_board(config.side).n_cities)
    if name == "marker_set":
        return dict.fromkeys(MARKER_KINDS, v)
    if name in lists:
        return [v] * lists[name]
    return v


@pytest.mark.parametrize("end", ["low", "high"])
@pytest.mark.parametrize("name", sorted(option_limits()))
def test_both_engines_play_each_end_of_each_rule_option(name: str, end: str) -> None:
    plain = GameConfig(n_players=3, seed=11)
    options = {name: _option_value(name, end, plain)}
    if name == "marker_set" and end == "low":
        options["start_markers"] = 0  # an empty set holds no start markers
    config = plain.replace(options=options)
    _both_engines(config, ["random"] * 3, 300)


@pytest.mark.parametrize("name", sorted(option_limits()))
def test_the_core_refuses_each_rule_option_beyond_its_range(name: str) -> None:
    lim = option_limit(name)
    plain = GameConfig(n_players=3, seed=1)
    base = core_options(plain)  # resolved, as the core receives them
    # an option the core receives resolved into another (start_supply: every seat's)
    key = next((e.get("core_receives", name) for e in vocabulary()["rule_options"]
                if e["name"] == name), name)
    for bad in (int(lim.low) - 1, int(lim.high) + 1, 2**31, 2**63):
        value = _option_value(name, "high", plain)
        if isinstance(value, list):
            value = [bad] * len(value)
        elif isinstance(value, dict):
            value = dict.fromkeys(value, bad)
        else:
            value = bad
        with pytest.raises(ValueError, match=name):
            GameConfig(3, options={name: value})
    core_lim = option_limit(key)
    for bad in (int(core_lim.low) - 1, int(core_lim.high) + 1, 2**31, 2**63):
        value = [bad] * len(base[key]) if isinstance(base[key], list) else bad
        if name == "special_points":
            value = [bad] * 4
        elif isinstance(base[key], dict):
            value = dict.fromkeys(base[key], bad)
        with pytest.raises(ValueError, match=f"rule option {key}"):
            core_module().CoreConfig(3, plain.side, "bigbox", 1, {**base, key: value})


def test_prestige_to_end_beyond_the_cores_integers_is_refused_before_the_core() -> None:
    with pytest.raises(ValueError, match=r"prestige_to_end must be an integer 1-1000, "
                                         r"got 2147483648"):
        GameConfig(3, options={"prestige_to_end": 2147483648})
    cfg = GameConfig(3, options={"prestige_to_end": 1000})
    assert core_config(cfg) is not None


def test_the_guide_shows_the_table() -> None:
    page = Path(__file__).parent.parent / "docs" / "guides" / "errors_and_limits.md"
    text = page.read_text("utf-8")
    begin, end = "<!-- limits:begin -->\n", "<!-- limits:end -->"
    shown = text[text.index(begin) + len(begin): text.index(end)]
    assert shown == limits_markdown(), (
        "docs/guides/errors_and_limits.md is out of date: paste "
        "hansa_lab.engine.limits.limits_markdown() between its limits markers")
