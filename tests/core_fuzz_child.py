"""The fuzz tier's child process (run by ``tests/test_core_fuzz.py``): hypothesis throws
random arguments at every binding of ``hansa_lab._core``, each call under
``except Exception``; anything else (a ``BaseException`` such as pyo3's
``PanicException``) ends the process with exit code 3 and the call on stderr, and an
abort kills it, which the parent sees as a negative return code.

``python tests/core_fuzz_child.py EXAMPLES`` prints one JSON line: the calls made per
binding and the exceptions they raised, by type (``CoreError`` counts the core's bugs
caught at the boundary). Deterministic (``derandomize``).
"""

from __future__ import annotations

import json
import math
import os
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hansa_lab import _core
from hansa_lab.bridge import core_config, state_fields
from hansa_lab.engine.state import RULE_OPTIONS, GameConfig, new_game
from hansa_lab.strategies import make_strategy

#: what :func:`call` returns when the call raised
FAILED = object()
CALLS: Counter[str] = Counter()
RAISED: Counter[str] = Counter()

#: anything at all (what a careless caller might pass)
ANY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
              st.binary(max_size=4)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=8)
#: numbers of every size, ends of the integer widths included
NUMBER = st.one_of(st.integers(-(2**65), 2**65),
                   st.sampled_from([0, 1, -1, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63,
                                    2**64 - 1, 2**64, -(2**63)]),
                   st.floats(allow_nan=True, allow_infinity=True))
SMALL = st.integers(0, 30)  # counts that are valid but keep a call fast
SEED = st.one_of(st.integers(0, 2**64 - 1), NUMBER)  # a valid u64 half of the time

CONFIG = GameConfig(3, seed=1)
OPTIONS = {k: CONFIG.option(k) for k in RULE_OPTIONS}
GOOD_CONFIG = core_config(CONFIG)
FIELDS = state_fields(new_game(CONFIG))
POLICY_PARAMS = {name: [(k, float(v)) for k, v in make_strategy(name).params.items()]
                 for name in _core.POLICY_NAMES}


def call(name: str, f: Callable[[], Any]) -> Any:
    """Run one binding call: an Exception is counted (and :data:`FAILED` returned),
    anything else ends the process."""
    CALLS[name] += 1
    try:
        return f()
    except Exception as e:  # the contract: every failure is an Exception
        RAISED[f"{name}: {type(e).__name__}"] += 1
        return FAILED
    except BaseException:
        sys.stderr.write(f"binding {name} raised a BaseException:\n{traceback.format_exc()}")
        sys.stderr.flush()
        os._exit(3)  # at once: hypothesis would catch SystemExit and go on


def _state() -> Any:
    return call("CoreState", lambda: _core.CoreState(GOOD_CONFIG))


def run(examples: int) -> None:
    common = settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))

    @common
    @given(NUMBER, NUMBER, ANY)
    def module_functions(a: Any, b: Any, junk: Any) -> None:
        call("rng_outputs", lambda: _core.rng_outputs(a, b))
        call("rng_outputs(junk)", lambda: _core.rng_outputs(junk, junk))
        call("timings", lambda: _core.timings(GOOD_CONFIG, b if isinstance(b, int) and
                                              b < 3 else junk))
        call("play_random_games", lambda: _core.play_random_games(
            GOOD_CONFIG, [a] if not isinstance(a, float) else junk, 40))
        call("play_random_game", lambda: _core.play_random_game(GOOD_CONFIG, b))
        call("covered_sides", _core.covered_sides)

    @common
    @given(st.one_of(st.sampled_from([2, 3, 4, 5]), NUMBER),
           st.sampled_from(["base_3p", "base_45p", "east", "britannia3", "moon"]),
           st.sampled_from(["bigbox", "original", "gold"]),
           SEED, st.sampled_from(sorted(OPTIONS)),
           st.one_of(ANY, NUMBER, st.lists(NUMBER, max_size=21)), st.booleans())
    def config(n: Any, side: str, edition: str, seed: Any, key: str, value: Any,
               keep: bool) -> None:
        options = OPTIONS if keep else {**OPTIONS, key: value}
        c = call("CoreConfig", lambda: _core.CoreConfig(n, side, edition, seed, options))
        call("CoreConfig.with_seed", lambda: GOOD_CONFIG.with_seed(seed))
        if c is not FAILED:
            call("CoreConfig.with_seed", lambda: c.with_seed(seed))
            s = call("CoreState", lambda: _core.CoreState(c))
            if s is not FAILED:
                call("CoreState.legal_actions", s.legal_actions)
                call("CoreState.score_rows", s.score_rows)

    @common
    @given(st.sampled_from(sorted(FIELDS)), st.one_of(
        ANY, NUMBER, st.lists(st.integers(-3, 300), max_size=60),
        st.lists(st.lists(st.integers(-2, 40), max_size=6), max_size=6),
        st.lists(st.tuples(st.sampled_from(["relocate", "move", "move3", "remove3",
                                            "place_marker", "favour_income", "permanent",
                                            "relocate_neutral"]),
                           st.integers(-2, 12), st.integers(-2, 12), st.integers(-2, 12),
                           st.integers(-2, 12), st.integers(-2, 12)), max_size=2)),
        NUMBER)
    def positions(key: str, value: Any, rng: Any) -> None:
        s = _state()
        pending = value
        if key == "pending" and isinstance(value, list):
            pending = [t[: 1 + (hash(t) % 6)] if isinstance(t, tuple) else t for t in value]
        if call("CoreState.set_fields",
                lambda: s.set_fields({**FIELDS, key: pending})) is not FAILED:
            for name, f in (("CoreState.legal_actions", s.legal_actions),
                            ("CoreState.score_rows", s.score_rows),
                            ("CoreState.ranking", s.ranking),
                            ("CoreState.to_dict", s.to_dict),
                            ("CoreState.events", s.events),
                            ("CoreState.copy", s.copy)):
                call(name, f)
            policy = _core.CorePolicy("random", POLICY_PARAMS["random"])
            call("CorePolicy.choose", lambda: policy.choose(s, rng))
            m = call("CoreMatch", lambda: _core.CoreMatch(s, [policy] * 3, 1, 60, True))
            if m is not FAILED:
                call("CoreMatch.advance", m.advance)
                call("CoreMatch.finish", m.finish)
                for name, f in (("CoreMatch.state", m.state), ("CoreMatch.actions", m.actions),
                                ("CoreMatch.turn_rows", m.turn_rows),
                                ("CoreMatch.events", m.events)):
                    call(name, f)

    @common
    @given(ANY, ANY, ANY, ANY, SEED, st.one_of(SMALL, ANY))
    def actions(kind: Any, a: Any, b: Any, c: Any, rng: Any, cap: Any) -> None:
        s = _state()
        call("CoreState.try_apply", lambda: s.try_apply(kind, a, b, c))
        call("CoreState.try_apply(kind)", lambda: s.try_apply(
            kind if isinstance(kind, str) else "income", a, b, c))
        m = call("CoreMatch", lambda: _core.CoreMatch(s, [None] * 3, rng, cap, b is None))
        if m is not FAILED:
            call("CoreMatch.advance", m.advance)
            call("CoreMatch.apply", lambda: m.apply(kind, a, b, c))
            call("CoreMatch.is_done", lambda: m.is_done)

    @common
    @given(st.sampled_from([*_core.POLICY_NAMES, "gready"]),
           st.integers(0, 40), NUMBER, ANY, SEED)
    def policies(name: str, which: int, value: Any, junk: Any, rng: Any) -> None:
        params = list(POLICY_PARAMS.get(name, POLICY_PARAMS["greedy"]))
        if params:
            i = which % len(params)
            v = value if isinstance(value, float) else float(value) \
                if abs(value) < 2**1000 else math.inf
            params[i] = (params[i][0], v)
        p = call("CorePolicy", lambda: _core.CorePolicy(name, params))
        call("CorePolicy(junk)", lambda: _core.CorePolicy(junk, junk))
        if p is not FAILED and name not in ("rollout", "ismcts"):
            s = _state()
            call("CorePolicy.choose", lambda: p.choose(s, rng))
            call("CorePolicy.search", lambda: p.search(s, rng))

    for test in (module_functions, config, positions, actions, policies):
        test()


if __name__ == "__main__":
    run(int(sys.argv[1]))
    print(json.dumps({"calls": dict(CALLS), "raised": dict(RAISED)}, sort_keys=True))
