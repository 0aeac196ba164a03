"""A bad-input corpus for the Python API below the commands: rule options, strategy
parameters, strategy files, seeds and counts, actions, positions and the compiled core's
bindings. Each case names the call, the exception type it must raise and a pattern its
message must match (what was wrong and where); none may crash, none may raise anything
but that type. Table-driven and fast (no game is played).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hansa_lab.compiled import bridge
from hansa_lab.compiled.bridge import CoreGame, core_config, core_module, core_options, state_fields
from hansa_lab.engine.actions import Action, parse_action
from hansa_lab.engine.decisions import PlaceMarkers
from hansa_lab.engine.rules import apply
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.errors import ActionParseError, CoreError, ExperimentError, IllegalActionError
from hansa_lab.play import core_game, play_game, play_on, replay, states_of
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.greedy import Greedy
from hansa_lab.strategies.strategy_file import StrategyFileError, parse_strategy_file

pytestmark = pytest.mark.skipif(not bridge.available(), reason="compiled core not built")


@dataclass(frozen=True)
class Case:
    """One bad input: ``call()`` must raise ``error`` with a message matching ``says``."""

    id: str
    call: Callable[[], Any]
    error: type[BaseException]
    says: str


def _config(**options: Any) -> GameConfig:
    return GameConfig(3, seed=1, options=options)


def _options_cases() -> list[Case]:
    bad: list[tuple[str, Any, str]] = [
        ("prestige_to_end", 2147483648,
         r"prestige_to_end must be an integer 1-1000, got 2147483648"),
        ("prestige_to_end", 0, r"prestige_to_end .*got 0"),
        ("prestige_to_end", -5, r"prestige_to_end .*got -5"),
        ("prestige_to_end", 2**64, r"prestige_to_end .*got 18446744073709551616"),
        ("prestige_to_end", 20.0, r"prestige_to_end .*got 20\.0"),
        ("prestige_to_end", math.nan, r"prestige_to_end .*got nan"),
        ("prestige_to_end", True, r"prestige_to_end .*got True"),
        ("prestige_to_end", "20", r"prestige_to_end .*got '20'"),
        ("control_points", 21, r"control_points must be an integer 0-20, got 21"),
        ("control_points", -1, r"control_points must be an integer 0-20, got -1"),
        ("control_points", math.inf, r"control_points .*got inf"),
        ("control_points", np.float64(3.0), r"control_points .*got np\.float64\(3\.0\)"),
        ("ability_points", 31, r"ability_points must be an integer 0-30, got 31"),
        ("favour_control_bonus", 10**30, r"favour_control_bonus .*got 1000000000000000000"),
        ("favour_abilities_bonus", -1, r"favour_abilities_bonus .*got -1"),
        ("special_points", [7, 8, 9, 2**31], r"special_points needs 4 integers 0-50"),
        ("special_points", [7, 8, 9], r"special_points needs 4 integers"),
        ("special_points", [7, 8, 9, -1], r"special_points needs 4 integers 0-50"),
        ("east_west_points", [7, 4, 51], r"east_west_points must be .*0-50, got \[7, 4, 51\]"),
        ("east_west_points", [1] * 6, r"east_west_points .*list of 0-5 .*got \[1, 1, 1, 1, 1, 1\]"),
        ("marker_points", [], r"marker_points must be a list of 1-20 integers 0-99"),
        ("marker_points", [100], r"marker_points .*got \[100\]"),
        ("marker_points", [1] * 21, r"marker_points must be a list of 1-20"),
        ("region_points", [2**40], r"region_points .*got \[1099511627776\]"),
        ("cities_to_end", 0, r"cities_to_end must be .*got 0"),
        ("cities_to_end", 10**6, r"cities_to_end must be .*got 1000000"),
        ("actions_track", [2, 3, 3, 4, 4, 16],
         r"actions_track must be a list of 6 integers 1-15"),
        ("actions_track", [5, 4, 3, 3, 2, 2], r"actions_track .*never decreasing"),
        ("bank_track", [3, 5, 7, 31], r"bank_track must be .*1-30"),
        ("bank_track", [3, 5, 7, "most"], r"bank_track .*got \[3, 5, 7, 'most'\]"),
        ("book_track", [2, 3, 4, 0], r"book_track must be a list of 4 integers 1-15"),
        ("keys_track", [1, 2, 2, 3, 2**63], r"keys_track must be a list of 5 integers 0-15"),
        ("start_supply", 9, r"start_supply must be 1-8, got 9"),
        ("start_supply", 0, r"start_supply must be 1-8, got 0"),
        ("start_supply_seats", [12, 5, 5], r"start_supply_seats must be .*0-11"),
        ("start_supply_seats", [5, 5], r"start_supply_seats must be None or a list of 3-5"),
        ("start_merchants", 2, r"start_merchants must be an integer 0-1, got 2"),
        ("start_markers", 4, r"start_markers must be an integer 0-3, got 4"),
        ("marker_set", {"extra": 10, "swap": 3, "move3": 2}, r"marker_set must be .*0-9"),
        ("marker_set", {"gold": 1}, r"marker_set must be .*got \{'gold': 1\}"),
        ("emperor", 1, r"emperor must be true or false, got 1"),
        ("no_such_option", 1, r"unknown rule option 'no_such_option'"),
    ]
    return [Case(f"option-{name}-{i}", lambda n=name, v=value: _config(**{n: v}),
                 ValueError, says) for i, (name, value, says) in enumerate(bad)]


def _strategy_cases() -> list[Case]:
    specs: list[tuple[str, str]] = [
        ("greedy:route=1e308", r"'greedy' parameter 'route': must be within \[-1000, 1000\] "
                               r"\(the range both engines play\), got 1e\+308"),
        ("greedy:opponents=1e308", r"parameter 'opponents': must be within \[-1000, 1000\]"),
        ("greedy:route=nan", r"parameter 'route': must be a finite number, got nan"),
        ("greedy:score=inf", r"parameter 'score': must be a finite number, got inf"),
        ("greedy:score=-inf", r"parameter 'score': must be a finite number, got -inf"),
        ("greedy:supply_cap=61", r"parameter 'supply_cap': must be within \[0, 60\]"),
        ("greedy:supply_cap=-1", r"parameter 'supply_cap': must be within \[0, 60\]"),
        ("greedy:supply_cap=1.5", r"parameter 'supply_cap'"),
        ("greedy:patience=-1", r"parameter 'patience': must be within \[0, 10000\]"),
        ("greedy:fade=0", r"parameter 'fade': must be within \[0.1, 10000\]"),
        ("greedy:fade=1e9", r"parameter 'fade': must be within"),
        ("greedy:depth=3", r"parameter 'depth': must be within \[1, 2\]"),
        ("greedy:explore=2", r"parameter 'explore': must be within \[0, 1\]"),
        ("greedy:explore=0", r"parameter 'explore': must be within \[0.01, 1\]"),
        ("actions_first:tip=1e300", r"parameter 'tip': must be within \[-1000, 1000\]"),
        ("keep_supply:threshold=1000000", r"parameter 'threshold': must be within \[0, 60\]"),
        ("rollout:candidates=0", r"parameter 'candidates': must be within \[1, 64\]"),
        ("rollout:samples=65", r"parameter 'samples': must be within \[1, 64\]"),
        ("rollout:horizon=4294967296", r"parameter 'horizon': must be within \[1, 200\]"),
        ("ismcts:iterations=0", r"parameter 'iterations': must be within \[1, 100000\]"),
        ("ismcts:iterations=18446744073709551616", r"parameter 'iterations'"),
        ("ismcts:scale=0", r"parameter 'scale': must be within \[0.01, 1000\]"),
        ("ismcts:ucb_c=nan", r"parameter 'ucb_c': must be a finite number"),
        ("ismcts:widen_alpha=1.5", r"parameter 'widen_alpha': must be within \[0, 1\]"),
        ("ismcts:rival=-0.5", r"parameter 'rival': must be within \[0, 1\]"),
        ("mcts:top_k=0", r"parameter 'top_k': must be within \[1, 1000\]"),
        ("mcts:time_limit=1e9", r"parameter 'time_limit': must be within \[0, 3600\]"),
        ("strong_v1:route=1e308", r"'strong_v1' parameter 'route': must be within"),
        ("planner:route=1e308", r"'planner' parameter 'route': must be within"),
        ("random:establish=maybe", r"parameter 'establish': expected true/false"),
        ("greedy:nonsense=1", r"strategy 'greedy' has no parameter 'nonsense'"),
        ("greedy:route", r"parameter 'route' is not key=value"),
        ("no_such_strategy", r"unknown strategy 'no_such_strategy'"),
    ]
    out = [Case(f"spec-{spec}", lambda s=spec: make_strategy(s), ValueError, says)
           for spec, says in specs]
    kwargs: list[tuple[str, dict[str, Any], str]] = [
        ("greedy", {"route": 1e308}, r"parameter 'route': must be within"),
        ("greedy", {"route": np.float64("nan")}, r"parameter 'route': must be a finite"),
        ("greedy", {"supply_cap": np.int64(100)}, r"parameter 'supply_cap': must be within"),
        ("greedy", {"depth": True}, r"parameter 'depth': must be an integer, got True"),
        ("greedy", {"route": [1.0]}, r"parameter 'route': must be a number, got \[1\.0\]"),
        ("rollout", {"horizon": 2.0}, r"parameter 'horizon': must be an integer, got 2.0"),
    ]
    out += [Case(f"kwargs-{name}-{i}", lambda n=name, kw=kw: make_strategy(n, **kw),
                 ValueError, says) for i, (name, kw, says) in enumerate(kwargs)]
    # the class itself validates too (one path: Strategy.__init__)
    out += [Case("class-greedy-route", lambda: Greedy(route=1e308), ValueError,
                 r"'greedy' parameter 'route': must be within \[-1000, 1000\]"),
            Case("class-greedy-nan", lambda: Greedy(opponents=math.nan), ValueError,
                 r"parameter 'opponents': must be a finite number")]
    return out


def _file(text: str) -> Callable[[], Any]:
    return lambda: parse_strategy_file(text, "bad.toml")


def _strategy_file_cases() -> list[Case]:
    files: list[tuple[str, str, str]] = [
        ("huge-weight", 'name = "x1"\nbase = "greedy"\n[params]\nroute = 1e308\n',
         r"bad.toml: params.route: must be within \[-1000, 1000\]"),
        ("nan-weight", 'name = "x2"\nbase = "greedy"\n[params]\nroute = nan\n',
         r"bad.toml: params.route: must be a finite number"),
        ("inf-weight", 'name = "x3"\nbase = "greedy"\n[params]\nscore = -inf\n',
         r"bad.toml: params.score: must be a finite number"),
        ("int-too-big", 'name = "x4"\nbase = "rollout"\n[params]\nhorizon = 9223372036854775807\n',
         r"bad.toml: params.horizon: must be within \[1, 200\]"),
        ("string-value", 'name = "x5"\nbase = "greedy"\n[params]\nroute = "1.0"\n',
         r"bad.toml: params.route: must be a number"),
        ("unknown-base", 'name = "x6"\nbase = "plannerr"\n',
         r"bad.toml: base: unknown strategy 'plannerr'; known: a registered strategy .*"
         r"or a registered strategy file \(.*planner"),
        ("own-name-base", 'name = "planner2"\nbase = "planner2"\n',
         r"bad.toml: base: unknown strategy 'planner2'"),
        ("base-file-bad-param", 'name = "x7"\nbase = "planner"\n[params]\nroute = 1e9\n',
         r"bad.toml: params.route: must be within"),
        ("base-file-unknown-param", 'name = "x8"\nbase = "planner"\n[params]\nhorizon = 3\n',
         r"bad.toml: params.horizon: strategy 'greedy' has no parameter 'horizon'"),
        ("missing-base", 'name = "x9"\n', r"bad.toml: base: missing"),
        ("base-not-string", 'name = "x10"\nbase = 3\n', r"bad.toml: base: unknown strategy 3"),
        ("depth", 'name = "x11"\nbase = "greedy"\n[params]\ndepth = 5\n',
         r"bad.toml: params.depth: must be within \[1, 2\]"),
    ]
    return [Case(f"file-{cid}", _file(text), StrategyFileError, says)
            for cid, text, says in files]


def _api_cases() -> list[Case]:
    cfg = GameConfig(3, seed=1)
    s = new_game(cfg)
    return [
        Case("seed-negative", lambda: GameConfig(3, seed=-1), ValueError,
             r"seed must be an integer 0-9223372036854775807 .*got -1"),
        Case("seed-2**64+5", lambda: GameConfig(3, seed=2**64 + 5), ValueError,
             r"seed must be an integer 0-9223372036854775807 .*got 18446744073709551621"),
        Case("seed-2**63", lambda: GameConfig(3, seed=2**63), ValueError, r"seed must be"),
        Case("seed-float", lambda: GameConfig(3, seed=1.0), ValueError,
             r"seed must be .*got 1\.0"),
        Case("seed-str", lambda: GameConfig(3, seed="1"), ValueError, r"seed must be .*got '1'"),
        Case("players-np-6", lambda: GameConfig(np.int64(6)), ValueError,
             r"n_players must be 2-5, got np\.int64\(6\)"),
        Case("players-float", lambda: GameConfig(3.0), ValueError, r"n_players must be 2-5"),
        Case("play_on-seed", lambda: play_on(s, ["random"] * 3, seed=-1), ValueError,
             r"seed must be an integer 0-9223372036854775807, got -1"),
        Case("core-play_on-seed", lambda: play_on(s, ["random"] * 3, seed=2**64 + 5, engine="core"),
             ValueError, r"seed must be an integer 0-9223372036854775807"),
        Case("core-play_random_games-seed", lambda: core_game.play_random_games(cfg, [0, -1]),
             ValueError, r"seed must be an integer 0-9223372036854775807, got -1"),
        Case("core-play_match-seed", lambda: core_game.play_match(
            cfg, [make_strategy("random")] * 3, [], seed=2**64 + 5), ValueError,
            r"seed must be an integer 0-9223372036854775807, got 18446744073709551621"),
        Case("core-play_match-start", lambda: core_game.play_match(
            cfg, [make_strategy("random")] * 3, [], start=_extra_trader(s)), ValueError,
            r"inconsistent position"),
        Case("play_game-lineup-bad", lambda: play_game(cfg, ["greedy:route=1e308"] * 3),
             ValueError, r"parameter 'route': must be within"),
        Case("core-play_game-lineup-nan",
             lambda: play_game(cfg, ["greedy:route=nan"] * 3, engine="core"),
             ValueError, r"parameter 'route': must be a finite number"),
        Case("apply-int", lambda: apply(s, 123), IllegalActionError, r"not an Action: 123"),
        Case("apply-tuple", lambda: apply(s, ("income", 1, 0, 0)), IllegalActionError,
             r"not an Action: \('income', 1, 0, 0\)"),
        Case("apply-float-field", lambda: apply(s, Action("income", 1.5, 0, 0)),
             IllegalActionError, r"an Action's kind is a str and its arguments ints"),
        Case("apply-int-kind", lambda: apply(s, Action(5, 0, 0, 0)), IllegalActionError,
             r"an Action's kind is a str"),
        Case("replay-none", lambda: replay(cfg, [None]), IllegalActionError,
             r"replay step 1: not an Action: None"),
        Case("replay-nocheck-int", lambda: replay(cfg, [7], check=False), IllegalActionError,
             r"replay step 1: not an Action: 7"),
        Case("replay-bad-text", lambda: replay(cfg, ["fly to the moon"]), ActionParseError,
             r"fly"),
        Case("states_of-bytes", lambda: states_of(cfg, [b"end"]), IllegalActionError,
             r"action 1: not an Action: b'end'"),
        Case("parse-int", lambda: parse_action(s.board, 5), ActionParseError,
             r"an action's text form is a str, got int 5"),
        Case("parse-action", lambda: parse_action(s.board, Action("end")), ActionParseError,
             r"an action's text form is a str, got Action"),
        Case("coregame-apply-int", lambda: CoreGame(cfg).apply(123), IllegalActionError,
             r"not an Action: 123"),
        Case("coregame-apply-np", lambda: CoreGame(cfg).apply(Action("income", np.int64(1),
                                                                      0, 0)),
             IllegalActionError, r"arguments ints"),
        Case("from_state-not-state", lambda: CoreGame.from_state(cfg), TypeError,
             r"CoreGame.from_state needs a State, got GameConfig"),
        Case("from_state-marker-placement-empty-bag", lambda: CoreGame.from_state(
            _pending_placement(s)), ValueError,
            r"inconsistent position: a bonus-marker placement is pending but no marker is drawn"),
        Case("from_state-pieces", lambda: CoreGame.from_state(_extra_trader(s)), ValueError,
             r"inconsistent position: player 0 has 28 traders"),
        Case("from_state-short-posts", lambda: CoreGame.from_state(_short_posts(s)),
             ValueError, r"CoreGame.from_state: (inconsistent|malformed) position"),
        Case("simulate-out-int", lambda: _simulate(out=123), ExperimentError,
             r"out: must be a path \(a string\), got 123"),
        Case("simulate-seed-negative", lambda: _simulate(seed=-1), ExperimentError,
             r"seed: must be an integer >= 0, got -1"),
        Case("simulate-seed-huge", lambda: _simulate(seed=2**64 + 5), ExperimentError,
             r"seed: seed \+ games must stay within 2\*\*63"),
        Case("simulate-option-huge", lambda: _simulate(options={"prestige_to_end": 2**31}),
             ExperimentError, r"prestige_to_end must be an integer 1-1000, got 2147483648"),
        Case("simulate-weight-huge", lambda: _simulate(strategies=["greedy:route=1e308"]),
             ExperimentError, r"parameter 'route': must be within"),
    ]


def _simulate(**kw: Any) -> Any:
    from hansa_lab.sim.runner import simulate

    args: dict[str, Any] = {"strategies": ["random"], "n_games": 3, "n_players": 3,
                            "progress": False}
    return simulate(**{**args, **kw})


def _pending_placement(s: Any) -> Any:
    t = s.clone()
    t.pending = (PlaceMarkers(0),)
    return t


def _extra_trader(s: Any) -> Any:
    t = s.clone()
    t.supply_t = [t.supply_t[0] + 1, *t.supply_t[1:]]
    return t


def _short_posts(s: Any) -> Any:
    t = s.clone()
    t.posts = t.posts[:-1]
    return t


# ------------------------------------------------------------------ the core's bindings
def _fields(**changes: Any) -> dict[str, Any]:
    d = state_fields(new_game(GameConfig(3, seed=1)))
    d.update(changes)
    return d


def _set_fields(**changes: Any) -> Callable[[], Any]:
    def call() -> Any:
        g = CoreGame(GameConfig(3, seed=1))
        g._s.set_fields(_fields(**changes))

    return call


def _core_cases() -> list[Case]:
    c = core_module()
    cfg = GameConfig(3, seed=1)
    options = core_options(cfg)
    greedy = [(k, float(v)) for k, v in make_strategy("greedy").params.items()]

    def policy(**changes: float) -> Callable[[], Any]:
        return lambda: c.CorePolicy("greedy", [(k, changes.get(k, v)) for k, v in greedy])

    return [
        Case("rng_outputs-10**10", lambda: c.rng_outputs(0, 10**10), ValueError,
             r"rng_outputs: n must be 0-1048576, got 10000000000"),
        Case("rng_outputs-2**62", lambda: c.rng_outputs(0, 2**62), ValueError,
             r"rng_outputs: n must be 0-1048576, got 4611686018427387904"),
        Case("rng_outputs-negative", lambda: c.rng_outputs(0, -1), OverflowError,
             r"negative"),
        Case("rng_outputs-2**64", lambda: c.rng_outputs(0, 2**64), OverflowError, r"."),
        Case("rng_outputs-state-negative", lambda: c.rng_outputs(-1, 1), OverflowError,
             r"negative"),
        Case("rng_outputs-str", lambda: c.rng_outputs(0, "3"), TypeError, r"."),
        Case("timings-huge", lambda: c.timings(core_config(cfg), 10**9), ValueError,
             r"timings: games must be 0-200, got 1000000000"),
        Case("config-players", lambda: c.CoreConfig(7, "base_3p", "bigbox", 1, options),
             ValueError, r"board side \"base_3p\" is for"),
        Case("config-side", lambda: c.CoreConfig(3, "moon", "bigbox", 1, options),
             ValueError, r"unknown board side \"moon\""),
        Case("config-edition", lambda: c.CoreConfig(3, "base_3p", "gold", 1, options),
             ValueError, r"unknown edition \"gold\" \(known: bigbox, original\)"),
        Case("config-unresolved-start-supply", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "start_supply": 5}), ValueError,
            r"the compiled core has no rule option \"start_supply\""),
        Case("config-seats-short", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "start_supply_seats": [5, 6]}), ValueError,
            r"rule option start_supply_seats needs one value per seat \(3-5 values\)"),
        Case("config-start-marker-kind", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "start_markers": ["gold"]}), ValueError,
            r"rule option start_markers needs known marker kinds"),
        Case("config-cities-beyond-board", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "cities_to_end": 99}), ValueError,
            r"rule option cities_to_end must be 1-\d+ \(the cities of base_3p\)"),
        Case("config-prestige-2**31", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "prestige_to_end": 2**31}), ValueError,
            r"rule option prestige_to_end must be an integer 1-1000 .*got 2147483648"),
        Case("config-control-2**70", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "control_points": 2**70}), ValueError,
            r"rule option control_points must be an integer 0-20"),
        Case("config-marker-points", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "marker_points": [1, 2, -3]}), ValueError,
            r"rule option marker_points must be .*got \[1, 2, -3\]"),
        Case("config-marker-set", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "marker_set": {"extra": 300}}), ValueError,
            r"rule option marker_set must be an integer 0-9"),
        Case("config-special-float", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "special_points": [1.5, 2, 3, 4]}),
            ValueError, r"rule option special_points"),
        Case("config-marker-points-10**12", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "marker_points": range(10**12)}),
            ValueError, r"rule option marker_points must hold 0-64 items, got 1000000000000"),
        Case("config-actions-track-long", lambda: c.CoreConfig(
            3, "base_3p", "bigbox", 1, {**options, "actions_track": [1] * 65}),
            ValueError, r"rule option actions_track must hold 0-64 items, got 65"),
        Case("config-missing", lambda: c.CoreConfig(3, "base_3p", "bigbox", 1, {}),
             ValueError, r"rule option special_points is missing"),
        Case("config-unknown", lambda: c.CoreConfig(3, "base_3p", "bigbox", 1,
                                                    {**options, "gold": 1}),
             ValueError, r"the compiled core has no rule option \"gold\""),
        Case("policy-route-1e308", policy(route=1e308), ValueError,
             r"strategy \"greedy\": parameter \"route\" must be a number -1000-1000 "
             r"\(the range both engines play\), got 1e308"),
        Case("policy-nan", policy(opponents=math.nan), ValueError,
             r"parameter \"opponents\" must be a number -1000-1000 .*got NaN"),
        Case("policy-inf", policy(score=math.inf), ValueError, r"parameter \"score\""),
        Case("policy-depth-1.5", policy(depth=1.5), ValueError,
             r"parameter \"depth\" must be an integer 1-2"),
        Case("policy-supply-cap-huge", policy(supply_cap=1e19), ValueError,
             r"parameter \"supply_cap\" must be an integer 0-60"),
        Case("policy-unknown-name", lambda: c.CorePolicy("gready", []), ValueError,
             r"the compiled core has no strategy \"gready\""),
        Case("policy-missing-param", lambda: c.CorePolicy("greedy", greedy[1:]), ValueError,
             r"parameter \"depth\" is missing"),
        Case("policy-extra-param", lambda: c.CorePolicy("random", [
            ("establish", 1.0), ("gather", 1.0), ("gold", 1.0)]), ValueError,
            r"no parameter \"gold\""),
        Case("policy-random-nan", lambda: c.CorePolicy("random", [
            ("establish", math.nan), ("gather", 1.0)]), ValueError,
            r"parameter \"establish\" must be finite"),
        Case("policy-ismcts-iterations-huge", lambda: c.CorePolicy("ismcts", [
            (k, 1e18 if k == "iterations" else float(v))
            for k, v in make_strategy("ismcts").params.items()]), ValueError,
            r"parameter \"iterations\" must be an integer 1-100000"),
        Case("set_fields-pending-placement-empty-bag", _set_fields(
            pending=[("place_marker", 0)], drawn=[]), ValueError,
            r"state field pending: a bonus-marker placement with no drawn marker"),
        Case("set_fields-posts-short", _set_fields(posts=[-1] * 3), ValueError,
             r"state field posts: 3 entries"),
        Case("set_fields-active", _set_fields(active=9), ValueError,
             r"state field active: not a seat"),
        Case("set_fields-levels", _set_fields(levels=[[9, 0, 0, 0, 0]] * 3), ValueError,
             r"state field levels: beyond the player board"),
        Case("set_fields-pending-kind", _set_fields(pending=[("fly", 0)]), ValueError,
             r"state field pending: bad \"fly\" decision"),
        Case("set_fields-pending-player", _set_fields(pending=[("move", 2**40, 1)]),
             ValueError, r"state field pending"),
        Case("set_fields-missing", lambda: CoreGame(cfg)._s.set_fields({}), ValueError,
             r"state field posts is missing"),
        Case("set_fields-type", _set_fields(posts="abc"), ValueError, r"state field posts"),
        Case("set_fields-bag", _set_fields(bag=[99]), ValueError, r"unknown marker"),
        # sizes are checked before pyo3 converts a list (it reserves len() items up front)
        Case("set_fields-posts-10**12", _set_fields(posts=range(10**12)), ValueError,
             r"state field posts must hold 0-4096 items, got 1000000000000"),
        Case("set_fields-extras-inner-10**12", _set_fields(extras=[range(10**12)]),
             ValueError, r"state field extras must hold 0-4096 items, got 1000000000000"),
        Case("match-seats", lambda: c.CoreMatch(CoreGame(cfg)._s, [None], 1, 10, False),
             ValueError, r"1 strategies for 3 seats"),
        Case("match-state-type", lambda: c.CoreMatch(cfg, [None] * 3, 1, 10, False),
             TypeError, r"."),
        Case("match-seed-negative", lambda: c.CoreMatch(CoreGame(cfg)._s, [None] * 3, -1,
                                                        10, False),
             OverflowError, r"."),
        Case("try_apply-garbage", lambda: _false(CoreGame(cfg)._s.try_apply(None, 1.5, "x",
                                                                           2**70)),
             AssertionError, r"try_apply returned False"),
        Case("play_random_games-seed", lambda: c.play_random_games(core_config(cfg), [-1], 5),
             OverflowError, r"."),
    ]


def _false(result: bool) -> None:
    assert not result
    raise AssertionError("try_apply returned False (refused, state unchanged)")


CASES = [*_options_cases(), *_strategy_cases(), *_strategy_file_cases(), *_api_cases(),
         *_core_cases()]


def test_the_corpus_is_large_and_its_ids_unique() -> None:
    assert len(CASES) >= 80
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case) -> None:
    with pytest.raises(Exception) as info:
        case.call()
    assert type(info.value) is case.error or isinstance(info.value, case.error), (
        f"{case.id}: raised {type(info.value).__name__}: {info.value}, wanted "
        f"{case.error.__name__}")
    assert re.search(case.says, str(info.value)), (
        f"{case.id}: message {str(info.value)!r} does not match {case.says!r}")
    assert not isinstance(info.value, CoreError), f"{case.id}: reached the core as a bug"


def test_a_strategy_file_may_name_a_strategy_file_as_base(tmp_path: Path) -> None:
    text = 'name = "planner_cautious"\nbase = "planner"\n[params]\nreserve = 1.5\n'
    sf = parse_strategy_file(text, "planner_cautious.toml")
    planner = make_strategy("planner")
    assert sf.base == "greedy" and sf.based_on == "planner"
    assert sf.params == {**planner.source.params, "reserve": 1.5}  # type: ignore[union-attr]
    path = tmp_path / "planner_cautious.toml"
    path.write_text(text, "utf-8")
    s = make_strategy(str(path))
    assert type(s) is Greedy and s.params["reserve"] == 1.5
    assert s.params["plan_actions"] == planner.params["plan_actions"]
    assert core_game.core_policy(s) is not None  # plays in the core like its base


def test_numpy_integers_are_ints_everywhere() -> None:
    cfg = GameConfig(np.int64(3), seed=np.uint64(7),
                     options={"control_points": np.int32(3), "marker_points": [np.int64(1)],
                              "marker_set": {"extra": np.int8(4), "swap": 3, "move3": 2}})
    assert type(cfg.n_players) is int and type(cfg.seed) is int
    assert cfg.option("control_points") == 3 and type(cfg.option("control_points")) is int
    assert core_config(cfg) is not None
    s = make_strategy("greedy", supply_cap=np.int64(4), route=np.float32(0.5))
    assert type(s.params["supply_cap"]) is int and type(s.params["route"]) is float
    assert core_game.core_policy(s) is not None


# ------------------------------------------------------------------ the same rules on the CLI
CLI_CASES: list[tuple[list[str], str]] = [
    (["play", "--players", "3", "--strategies",
      "greedy:route=1e308,opponents=1e308,random,random"],
     "parameter 'route': must be within [-1000, 1000]"),
    (["play", "--players", "3", "--strategies", "greedy:route=nan"],
     "parameter 'route': must be a finite number"),
    (["play", "--players", "3", "--strategies", "greedy:supply_cap=9999999999"],
     "parameter 'supply_cap': must be within [0, 60]"),
    (["play", "--players", "3", "--strategies", "rollout:horizon=100000"],
     "parameter 'horizon': must be within [1, 200]"),
    (["play", "--players", "3", "--strategies", "ismcts:iterations=1e9"],
     "parameter 'iterations'"),
    (["play", "--players", "3", "--option", "prestige_to_end=2147483648"],
     "prestige_to_end must be an integer 1-1000, got 2147483648"),
    (["play", "--players", "3", "--option", "special_points=[7,8,9,4294967296]"],
     "special_points needs 4 integers 0-50"),
    (["play", "--players", "3", "--option", "marker_set={\"extra\": 1000}"],
     "marker_set must be"),
    (["play", "--players", "3", "--option", "control_points=1e308"], "control_points"),
    (["simulate", "--games", "3", "--players", "3", "--strategies", "greedy:fade=0",
      "--out", "results/x"], "fade"),
    (["simulate", "--games", "3", "--players", "3", "--option", "prestige_to_end=0",
      "--out", "results/x"], "prestige_to_end"),
    (["simulate", "--games", "3", "--players", "3", "--option",
      "east_west_points=[1,2,2147483648]", "--out", "results/x"], "east_west_points"),
]


@pytest.mark.parametrize(("argv", "text"), CLI_CASES, ids=[" ".join(a[3:]) for a, _ in
                                                          CLI_CASES])
def test_the_command_line_refuses_the_same(argv: list[str], text: str, capsys: Any,
                                           tmp_path: Path, monkeypatch: Any) -> None:
    from hansa_lab.tools import cli

    monkeypatch.chdir(tmp_path)
    try:
        code = cli.main(argv)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert text in err and "Traceback" not in err, (argv, err)
    assert not (tmp_path / "results").exists()
