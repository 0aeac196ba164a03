"""Strategies are isolated from the game and the run: a per-decision time limit,
SystemExit turned into a failed game (KeyboardInterrupt left to the user), look-alike
actions (float fields, plain tuples) taken as the equal legal action or refused, never a
crash or a corrupted state, and a strategy that changes the state it is shown reported."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import pytest

from hansa_lab.engine.actions import Action
from hansa_lab.engine.rules import apply, apply_in_place, legal_actions
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.errors import DecisionTimeout, IllegalActionError, StateModified, StrategyError
from hansa_lab.play import play_game
from hansa_lab.sim.runner import simulate
from hansa_lab.strategies import RandomStrategy, Strategy, make_strategy, register, registry


class Misbehaving(Strategy):
    """Plays like ``random`` until its decision number ``after``, then, in games whose seed
    is odd, does ``what``: loop (forever), nap (sleep in short naps, forever), exit
    (sys.exit(3)), interrupt (KeyboardInterrupt), mutate (changes the state it is shown),
    float (returns the random choice with float fields: a look-alike), tuple (a plain
    tuple), weird (an object that cannot even be compared)."""

    name = "test_misbehaving"
    defaults: ClassVar[dict[str, Any]] = {"what": "loop", "after": 5}
    what: str
    after: int

    def setup(self) -> None:
        self.calls = 0
        self.inner = RandomStrategy()

    def choose(self, state, legal, rng):
        self.calls += 1
        choice = self.inner.choose(state, legal, rng)
        if self.calls <= self.after or state.config.seed % 2 == 0:
            return choice
        if self.what == "loop":
            while True:
                pass
        if self.what == "nap":
            while True:
                time.sleep(0.01)
        if self.what == "exit":
            raise SystemExit(3)
        if self.what == "interrupt":
            raise KeyboardInterrupt
        if self.what == "mutate":
            state.supply_t[0] += 5
            return choice
        if self.what == "float":
            return Action(choice.kind, *(float(x) for x in choice[1:]))
        if self.what == "tuple":
            return tuple(choice)
        if self.what == "weird":
            return Uncomparable()
        raise AssertionError(self.what)


class Uncomparable:
    def __eq__(self, other):
        raise TypeError("no comparisons")

    __hash__ = None  # type: ignore[assignment]


if "test_misbehaving" not in registry():
    register("test_misbehaving")(Misbehaving)


def _play(what: str, seed: int = 1, **kw):
    cfg = GameConfig(3, seed=seed)
    return play_game(cfg, [f"test_misbehaving:what={what}", "random", "random"], **kw)


@pytest.mark.parametrize("what", ["loop", "nap"])
def test_a_strategy_over_the_time_limit_fails_its_game(what):
    t0 = time.monotonic()
    with pytest.raises(StrategyError) as e:
        _play(what, decision_time_limit=0.3)
    # the limit fired (a loop or a long nap would otherwise never end); the bound is only
    # a guard far above 0.3 s, so a loaded machine does not fail it
    assert time.monotonic() - t0 < 60
    assert isinstance(e.value.error, DecisionTimeout)
    assert "took more than 0.3 s to decide" in str(e.value)
    assert e.value.seat == 0 and e.value.n_actions >= 5


def test_the_time_limit_never_fires_after_the_game():
    for seed in range(4):  # even seeds: played normally, under a tight limit
        rec = _play("loop", seed=2 * seed, decision_time_limit=0.05)
        assert rec.final.is_over
    time.sleep(0.2)  # nothing pending fires later in this thread


def test_in_a_run_a_timeout_and_a_sys_exit_are_failure_rows_and_the_run_goes_on():
    res = simulate(["test_misbehaving:what=loop", "random", "random"], n_games=6,
                   n_players=3, progress=False, decision_time_limit=0.3)
    f = res.failures
    assert len(f) == 3 and set(f.seed) == {1}  # seed 1, every rotation
    assert f.error.str.startswith("DecisionTimeout: took more than 0.3 s").all()
    assert len(res.games) == 3
    res = simulate(["test_misbehaving:what=exit", "random", "random"], n_games=6,
                   n_players=3, progress=False)
    assert len(res.failures) == 3 and (res.failures.error == "SystemExit: 3").all()


def test_sys_exit_in_a_loky_worker_is_a_failure_row_too():
    res = simulate(["test_misbehaving:what=exit", "random", "random"], n_games=6,
                   n_players=3, progress=False, n_jobs=2, chunk_size=3)
    assert len(res.failures) == 3 and len(res.games) == 3


def test_keyboard_interrupt_in_a_strategy_is_the_users_and_passes_through():
    with pytest.raises(KeyboardInterrupt):
        _play("interrupt")


def test_a_strategy_that_changes_the_state_it_is_shown_is_reported():
    with pytest.raises(StrategyError) as e:
        _play("mutate")
    assert isinstance(e.value.error, StateModified) and "supply_t" in str(e.value.error)


@pytest.mark.parametrize("what", ["float", "tuple"])
def test_a_look_alike_action_is_the_equal_legal_action(what):
    plain = play_game(GameConfig(3, seed=1), ["random"] * 3)
    odd = _play(what)
    assert odd.actions == plain.actions and odd.final == plain.final
    assert all(type(a) is Action and all(type(x) is int for x in a[1:]) for a in odd.actions)
    res = simulate([f"test_misbehaving:what={what}", "random", "random"], n_games=3,
                   n_players=3, seed=1, progress=False)
    assert res.failures.empty and len(res.games) == 3


def test_an_uncomparable_answer_is_an_illegal_action():
    with pytest.raises(StrategyError) as e:
        _play("weird")
    assert isinstance(e.value.error, IllegalActionError)
    res = simulate(["test_misbehaving:what=weird", "random", "random"], n_games=3,
                   n_players=3, seed=1, progress=False)
    assert len(res.failures) == 3 and res.failures.error.str.contains("illegal").all()


def test_apply_refuses_a_look_alike_before_touching_the_state():
    state = new_game(GameConfig(3, seed=2))
    for a in legal_actions(state)[:3]:
        for fake in (Action(a.kind, *(float(x) for x in a[1:])),
                     Action(a.kind, *(x + 0.0 if i == 0 else x for i, x in enumerate(a[1:])))):
            assert fake == a  # equal to a legal action, yet not one
            before = state.clone()
            with pytest.raises(IllegalActionError, match="arguments ints"):
                apply_in_place(state, fake)
            assert state == before
            with pytest.raises(IllegalActionError):
                apply(state, fake)
        apply(state, a)  # the real one is fine


def test_the_package_strategies_never_change_the_state_they_are_shown(monkeypatch):
    """They are trusted (no defensive copy per decision); with trust switched off, games of
    every built-in strategy run through the copy-and-compare check without a complaint."""
    import hansa_lab.play.loop as play_module
    from hansa_lab.strategies.base import is_trusted

    assert is_trusted(RandomStrategy()) and is_trusted(make_strategy("mcts:iterations=2"))

    class Mine(RandomStrategy):  # a user's subclass is not trusted
        pass

    assert not is_trusted(Mine())
    monkeypatch.setattr(play_module, "is_trusted", lambda strategy: False)
    names = sorted(n for n in registry() if make_strategy(n).trusted)
    assert {"random", "greedy", "actions_first", "blocker", "network_keys", "keep_supply",
            "mcts"} <= set(names)
    for name in names:
        spec = "mcts:iterations=2" if name == "mcts" else name
        rec = play_game(GameConfig(3, seed=4), [spec, "random", "random"], max_actions=120)
        assert len(rec.actions) == 120, name
