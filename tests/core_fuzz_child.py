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
import random
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hansa_lab import _core
from hansa_lab.compiled.bridge import core_config, core_options, state_fields
from hansa_lab.engine.state import GameConfig, new_game
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
                                    2**64 - 1, 2**64, -(2**63), 10**12, 2**62, -(10**12)]),
                   st.floats(allow_nan=True, allow_infinity=True))
#: sizes far beyond any valid one (a binding must refuse them before it allocates)
HUGE = st.sampled_from([0, -1, 10**12, 2**62, 2**64 - 1, 2**64])
SMALL = st.integers(0, 30)  # counts that are valid but keep a call fast
SEED = st.one_of(st.integers(0, 2**64 - 1), NUMBER)  # a valid u64 half of the time

CONFIG = GameConfig(3, seed=1)
OPTIONS = core_options(CONFIG)  # the resolved options, as the core receives them
GOOD_CONFIG = core_config(CONFIG)
FIELDS = state_fields(new_game(CONFIG))
POLICY_PARAMS = {name: [(k, float(v)) for k, v in make_strategy(name).params.items()]
                 for name in _core.POLICY_NAMES}


SIDES = ["base_3p", "base_45p", "east", "britannia3", "moon"]
FEATURES = list(_core.FEATURE_NAMES)
#: a linear model over the core's features (names, mean, scale, weights, bias)
MODEL = (FEATURES, [0.0] * len(FEATURES), [1.0] * len(FEATURES),
         [0.01] * len(FEATURES), 0.0)


def _finished() -> Any:
    """A core position whose game is over (random legal actions)."""
    s = _core.CoreState(GOOD_CONFIG)
    r = random.Random(1)
    for _ in range(50_000):
        if s.is_over:
            break
        _core.env_apply_index(s, r.choice(_core.env_legal_indices(s)))
    return s


FINISHED = _finished()
N_OBS = sum(n for _, n in _core.observation_fields("base_3p", 3))
N_ACT = _core.CoreActionIndex("base_3p").size


def buffer(size: int, dtype: Any, junk: int) -> Any:
    """A numpy buffer of ``size`` items of ``dtype`` if ``junk`` is 0, else one that
    is wrong: another dtype, read-only, non-contiguous, too short or long, 2-d, a list."""
    good = np.zeros(size, dtype)
    k = junk % 9
    if k == 0:
        return good
    if k == 1:
        return np.zeros(size, np.float64 if dtype != np.float64 else np.int8)
    if k == 2:
        good.flags.writeable = False
        return good
    if k == 3:
        return np.zeros(2 * size + 1, dtype)[::2]
    if k == 4:
        return np.zeros(max(size - 1, 0), dtype)
    if k == 5:
        return np.zeros(size + 7, dtype)
    if k == 6:
        return np.zeros((1, size), dtype) if junk % 2 else np.zeros(0, dtype)
    if k == 7:
        return [0] * size
    return None


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

    @common
    @given(st.one_of(st.sampled_from(SIDES), ANY), st.one_of(st.booleans(), ANY),
           st.one_of(st.sampled_from([*_core.ACTION_KINDS, "nope"]), ANY),
           st.one_of(st.integers(-2, 40), NUMBER), st.one_of(st.integers(-2, 40), NUMBER),
           st.one_of(st.integers(0, 2000), NUMBER, ANY),
           st.one_of(st.integers(0, 6), HUGE, NUMBER, ANY))
    def action_index(side: Any, alt: Any, kind: Any, a: Any, b: Any, i: Any, n: Any) -> None:
        ix = call("CoreActionIndex", lambda: _core.CoreActionIndex(side, alt))
        if ix is FAILED:
            ix = _core.CoreActionIndex("base_3p")
        call("CoreActionIndex.size", lambda: ix.size)
        call("CoreActionIndex.ranges", ix.ranges)
        call("CoreActionIndex.index", lambda: ix.index(kind, a, b, a))
        call("CoreActionIndex.action", lambda: ix.action(i))
        call("observation_fields", lambda: _core.observation_fields(side, n, alt))
        call("observation_fields(n)", lambda: _core.observation_fields("base_3p", n))

    @common
    @given(st.one_of(st.integers(-1, 4), NUMBER, ANY), st.integers(0, 2**20),
           st.integers(0, 2**20), st.one_of(st.integers(-3, 2000), NUMBER, ANY),
           st.booleans())
    def env_positions(seat: Any, junk_obs: int, junk_mask: int, i: Any, over: bool) -> None:
        s = FINISHED.copy() if over else _state()
        call("env_observe", lambda: _core.env_observe(s, seat, buffer(N_OBS, np.float32,
                                                                      junk_obs)))
        call("env_observe(state)", lambda: _core.env_observe(junk_obs, 0, np.zeros(N_OBS,
                                                                                np.float32)))
        call("env_legal_indices", lambda: _core.env_legal_indices(s))
        call("env_legal_indices(junk)", lambda: _core.env_legal_indices(seat))
        call("env_mask", lambda: _core.env_mask(s, buffer(N_ACT, np.uint8, junk_mask)))
        call("env_apply_index", lambda: _core.env_apply_index(s, i))
        call("env_rank_rewards", lambda: _core.env_rank_rewards(s))
        call("env_rank_rewards(junk)", lambda: _core.env_rank_rewards(i))
        call("position_features", lambda: _core.position_features(s, seat))

    @common
    @given(st.one_of(st.integers(1, 4), HUGE, NUMBER, ANY), SEED,
           st.one_of(st.integers(1, 30), HUGE, NUMBER), st.one_of(st.integers(1, 3), HUGE, NUMBER),
           st.lists(st.integers(0, 2**20), min_size=7, max_size=7),
           st.one_of(st.integers(-1, 600), NUMBER), st.integers(0, 7))
    def vector_env(n: Any, seed: Any, cap: Any, threads: Any, junk: list[int], act: Any,
                   steps: int) -> None:
        v = call("CoreVectorEnv", lambda: _core.CoreVectorEnv(GOOD_CONFIG, n, seed, cap,
                                                             threads))
        if v is FAILED:
            v = _core.CoreVectorEnv(GOOD_CONFIG, 2, 1, 30, 1)
        for name in ("n_envs", "n_players", "obs_size", "n_actions"):
            call(f"CoreVectorEnv.{name}", lambda name=name: getattr(v, name))
        call("CoreVectorEnv.game_seeds", v.game_seeds)
        call("CoreVectorEnv.games", v.games)
        ne, no, na, npl = v.n_envs, v.obs_size, v.n_actions, v.n_players
        if ne > 64:
            return
        shapes = [(ne * no, np.float32), (ne * na, np.uint8), (ne * npl, np.float32),
                  (ne, np.uint8), (ne, np.uint8), (ne, np.int32)]
        bufs = [buffer(size, dt, j if j % 4 == 0 else 0)
                for (size, dt), j in zip(shapes, junk[1:], strict=True)]
        call("CoreVectorEnv.reset", lambda: v.reset(*bufs))
        good = [np.zeros(size, dt) for size, dt in shapes]
        if call("CoreVectorEnv.reset", lambda: v.reset(*good)) is FAILED:
            return
        for k in range(steps):
            acts = buffer(ne, np.int64, junk[0] if k == 0 else 0)
            if isinstance(acts, np.ndarray) and acts.dtype == np.int64 and acts.size \
                    and acts.flags.writeable:
                acts[:] = act if isinstance(act, int) and -(2**63) <= act < 2**63 else -1
            outs = bufs if k == 1 else good
            call("CoreVectorEnv.step", lambda acts=acts, outs=outs: v.step(acts, *outs))

    @common
    @given(st.one_of(st.just(FEATURES), st.lists(st.text(max_size=4), max_size=4), ANY),
           st.one_of(st.floats(allow_nan=True, allow_infinity=True), NUMBER, ANY),
           st.integers(0, 5), st.one_of(st.integers(0, 3), st.integers(0, 200), HUGE, ANY),
           st.one_of(st.floats(allow_nan=True, allow_infinity=True), NUMBER))
    def learned(names: Any, x: Any, which: int, nrows: Any, w: Any) -> None:
        nf = len(FEATURES)
        args = list(MODEL)
        if which == 1:
            args[0] = names
        elif which == 2:
            args[1] = [x] * nf
        elif which == 3:
            args[2] = [x] * (nf if isinstance(nrows, int) and nrows % 2 else nf - 1)
        elif which == 4:
            args[3] = [x] * nf
        elif which == 5:
            args[4] = x
        rows = ([[x if isinstance(x, float) else 0.5] * (nf if j % 3 else nf + 1)
                 for j in range(nrows % 4)] if isinstance(nrows, int) else nrows)
        call("model_forward", lambda: _core.model_forward(*args, rows))
        p = call("learned_policy", lambda: _core.learned_policy(*args, w, 0.5))
        if p is not FAILED:
            s = _state()
            call("CorePolicy.choose", lambda: p.choose(s, 1))
            if isinstance(nrows, int) and nrows < 2:  # a whole self-play game: slow
                call("sample_games(learned)", lambda: _core.sample_games(GOOD_CONFIG, [p] * 3,
                                                                [which], 0.05, 3000))
        rnd = call("CorePolicy", lambda: _core.CorePolicy("random", POLICY_PARAMS["random"]))
        if isinstance(nrows, int) and abs(nrows) >= 10**12:
            # huge sequences (a range: no memory on the Python side) must be refused by
            # their length, before the core reserves room for them
            huge = range(nrows)
            call("sample_games", lambda: _core.sample_games(GOOD_CONFIG, [rnd] * 3, huge,
                                                            0.5, nrows))
            call("model_forward", lambda: _core.model_forward(*MODEL, huge))
            call("model_forward", lambda: _core.model_forward(huge, *MODEL[1:], []))
            call("learned_policy", lambda: _core.learned_policy(
                MODEL[0], huge, *MODEL[2:]))
            call("play_random_games", lambda: _core.play_random_games(GOOD_CONFIG, huge, 10))
            call("sample_games", lambda: _core.sample_games(GOOD_CONFIG, huge, [1], 0.5, 9))
            call("CorePolicy", lambda: _core.CorePolicy("random", huge))
            call("CoreMatch", lambda: _core.CoreMatch(_state(), huge, 1, 10, False))
        seeds = [x] if not isinstance(nrows, int) else [which] * min(nrows, 2)
        call("sample_games", lambda: _core.sample_games(
            GOOD_CONFIG, [rnd] * (3 if which % 2 else which), seeds, w,
            x if which == 5 else 50))

    @common
    @given(st.one_of(st.text(max_size=300), st.binary(max_size=60).map(repr), ANY),
           st.integers(0, 400), st.one_of(st.integers(-3, 2), st.integers(9, 12), HUGE, ANY),
           st.one_of(st.text(max_size=40), ANY))
    def position_text(junk: Any, cut: int, depth: Any, options: Any) -> None:
        s = _state()
        good = call("position_to_text", lambda: _core.position_to_text(s, "{}"))
        call("position_to_text", lambda: _core.position_to_text(s, options))
        texts = [junk]
        if isinstance(good, str) and isinstance(junk, str):
            texts += [good[:cut] + junk + good[cut:], good[:cut], good.replace("=", junk, 1)]
        for text in texts:
            t = call("position_from_text",
                     lambda text=text: _core.position_from_text(GOOD_CONFIG, text))
            if t is not FAILED:
                call("position_to_text", lambda t=t: _core.position_to_text(t, "{}"))
        call("position_perft", lambda: _core.position_perft(s, depth if depth != 2 else 1))
        call("position_divide", lambda: _core.position_divide(s, depth if depth != 2 else 1))
        if isinstance(depth, int) and 0 <= depth <= 2:
            call("position_perft", lambda: _core.position_perft(s, depth))

    @common
    @given(st.integers(0, 4), st.one_of(st.floats(allow_nan=True, allow_infinity=True), NUMBER),
           st.one_of(st.floats(allow_nan=True, allow_infinity=True), NUMBER), SEED)
    def learned_rollout(which: int, x: Any, w: Any, rng: Any) -> None:
        knobs: list[Any] = [4.0, 2.0, 1.0, 1e9]  # candidates, samples, horizon, gap
        if which < 4:
            knobs[which] = x
        p = call("learned_rollout_policy",
                 lambda: _core.learned_rollout_policy(*MODEL, w, 1.0, 0.5, *knobs[:3],
                                                      gap=knobs[3]))
        if p is not FAILED:
            s = _state()
            call("CorePolicy.choose", lambda: p.choose(s, rng))

    for test in (module_functions, config, positions, actions, policies, action_index,
                 env_positions, vector_env, learned, position_text,
                 learned_rollout):
        test()


if __name__ == "__main__":
    run(int(sys.argv[1]))
    print(json.dumps({"calls": dict(CALLS), "raised": dict(RAISED)}, sort_keys=True))
