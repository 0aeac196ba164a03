"""The fuzz tier of the compiled core's bindings: hypothesis throws random arguments at
every binding of ``hansa_lab._core`` (``tests/core_fuzz_child.py``) in a child process,
so that an abort is observed, not fatal. The contract: 0 aborts, 0 exceptions that are
not ``Exception`` subclasses (pyo3's ``PanicException`` is a ``BaseException``), every
binding called. Bounded: a few seconds of CPU here, more examples in the ``slow`` tier.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hansa_lab.compiled import bridge
from hansa_lab.compiled.bridge import core_module

pytestmark = pytest.mark.skipif(not bridge.available(), reason="compiled core not built")

CHILD = Path(__file__).with_name("core_fuzz_child.py")
#: every binding of the extension module, by the name the child counts its calls under
BINDINGS = {
    "rng_outputs", "timings", "play_random_games", "play_random_game",
    "CoreConfig", "CoreConfig.with_seed", "CoreState", "CoreState.legal_actions",
    "CoreState.score_rows", "CoreState.ranking", "CoreState.to_dict", "CoreState.events",
    "CoreState.copy", "CoreState.set_fields", "CoreState.try_apply", "CorePolicy",
    "CorePolicy.choose", "CorePolicy.search", "CoreMatch", "CoreMatch.advance",
    "CoreMatch.apply", "CoreMatch.finish", "CoreMatch.state", "CoreMatch.actions",
    "CoreMatch.turn_rows", "CoreMatch.events", "CoreMatch.is_done",
    # the environment for learning agents (core/src/python/env.rs)
    "CoreActionIndex", "CoreActionIndex.size", "CoreActionIndex.ranges",
    "CoreActionIndex.index", "CoreActionIndex.action", "observation_fields", "env_observe",
    "env_legal_indices", "env_mask", "env_apply_index", "env_rank_rewards", "CoreVectorEnv",
    "CoreVectorEnv.n_envs", "CoreVectorEnv.n_players", "CoreVectorEnv.obs_size",
    "CoreVectorEnv.n_actions", "CoreVectorEnv.game_seeds", "CoreVectorEnv.games",
    "CoreVectorEnv.reset", "CoreVectorEnv.step",
    # the learned evaluation (core/src/python/learned.rs)
    "position_features", "sample_games", "model_forward", "learned_policy",
    "learned_rollout_policy",
    # position text and perft (core/src/python/text.rs)
    "position_from_text", "position_to_text", "position_perft", "position_divide",
}


def public_callables() -> set[str]:
    """Every public callable of the extension module: its functions, its classes and
    each public method of a class (``Class.method``); constants and properties are not
    callables."""
    found = set()
    for name, obj in inspect.getmembers(core_module()):
        if name.startswith("_"):
            continue
        if inspect.isclass(obj):
            found.add(name)
            found |= {f"{name}.{m}" for m, attr in vars(obj).items()
                      if not m.startswith("_") and callable(attr)}
        elif callable(obj):
            found.add(name)
    return found


def _fuzz(examples: int) -> dict[str, dict[str, int]]:
    env = {**os.environ, "PYTHONPATH": str(CHILD.parent.parent)}
    run = subprocess.run([sys.executable, str(CHILD), str(examples)], capture_output=True,
                         text=True, env=env, timeout=900, check=False)
    assert run.returncode >= 0, f"the core aborted the child (signal {-run.returncode}): " \
                                f"{run.stderr[-2000:]}"
    assert run.returncode == 0, f"a binding raised a BaseException: {run.stderr[-4000:]}"
    out: dict[str, dict[str, int]] = json.loads(run.stdout.strip().splitlines()[-1])
    return out


def _check(out: dict[str, dict[str, int]]) -> None:
    missing = BINDINGS - set(out["calls"])
    assert not missing, f"bindings never called: {sorted(missing)}"
    bugs = {k: v for k, v in out["raised"].items() if k.endswith(": CoreError")}
    assert not bugs, f"the core panicked (caught at the boundary) in {bugs}"


def test_random_arguments_to_every_binding_neither_abort_nor_escape_exception() -> None:
    _check(_fuzz(40))


@pytest.mark.slow
def test_the_larger_fuzz_tier() -> None:
    _check(_fuzz(400))


def test_every_public_callable_of_the_core_is_fuzzed() -> None:
    """A new binding (function, class or method) must join BINDINGS and the child, so
    that the fuzz tier cannot silently leave it out."""
    found = public_callables()
    assert {"CoreState", "CoreState.try_apply", "rng_outputs"} <= found  # introspection works
    missing = found - BINDINGS
    assert not missing, f"bindings of hansa_lab._core the fuzz tier does not cover " \
                        f"(add them to BINDINGS and tests/core_fuzz_child.py): {sorted(missing)}"


def test_the_child_reports_a_base_exception_as_a_failure(tmp_path: Path) -> None:
    """The harness itself: a BaseException in a call ends the child with code 3, and an
    abort gives a negative return code (both reach the assertions above)."""
    script = tmp_path / "probe.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(CHILD.parent)!r})\nimport core_fuzz_child as c\n"
        "def boom():\n    raise KeyboardInterrupt\n"
        "c.call('x', boom)\n", "utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 3 and "BaseException" in run.stderr
    abort = subprocess.run([sys.executable, "-c", "import os; os.abort()"],
                           capture_output=True, timeout=60, check=False)
    assert abort.returncode < 0
