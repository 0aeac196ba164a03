"""Observation and the one determinisation: a seat's view hides the bag's draw order
(reading it fails loudly, in every game loop), a view can still be played on, and
``determinise`` deals the same order in both engines whatever the real order was."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import pytest

from hansa_lab.engine.observe import (
    HiddenBag,
    HiddenInformationError,
    determinise,
    observe,
    playable,
)
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.errors import StrategyError
from hansa_lab.play import play_game, states_of
from hansa_lab.strategies import RandomStrategy, Strategy, register, registry

CONFIG = GameConfig(3, seed=3)


def test_the_view_has_the_bags_contents_but_not_its_order() -> None:
    s = new_game(CONFIG)
    view = observe(s, 1)
    assert isinstance(view.bag, HiddenBag) and isinstance(s.bag, tuple)  # s unchanged
    assert len(view.bag) == len(s.bag) and bool(view.bag)
    assert Counter(view.bag.counts()) == Counter(s.bag)
    for kind in set(s.bag):
        assert view.bag.count(kind) == s.bag.count(kind)
    for read in (lambda b: b[0], lambda b: b[1:], list, tuple, iter, lambda b: b.index("swap")):
        with pytest.raises(HiddenInformationError, match="draw order"):
            read(view.bag)
    assert view.posts == s.posts and view.route_marker == s.route_marker
    with pytest.raises(ValueError, match="seat must be an integer 0-2"):
        observe(s, 3)


def test_a_view_can_be_played_on_without_learning_the_order() -> None:
    """A look-ahead that establishes a route with a bonus marker draws from the hidden
    bag in the canonical order, the same whatever the real order."""
    s = new_game(CONFIG)
    reordered = s.clone()
    reordered.bag = tuple(reversed(s.bag))
    assert reordered.bag != s.bag
    assert observe(s, 0) == observe(reordered, 0)
    v = playable(observe(s, 0))
    assert isinstance(v.bag, tuple) and Counter(v.bag) == Counter(s.bag)
    assert v.bag == playable(observe(reordered, 0)).bag


def test_determinise_ignores_the_real_order_and_matches_the_core() -> None:
    s = states_of(CONFIG, play_game(CONFIG, ["random"] * 3).actions[:30])[-1]
    reordered = s.clone()
    reordered.bag = tuple(reversed(s.bag))
    a = determinise(observe(s, 0), Rng(11))
    assert a.bag == determinise(reordered, Rng(11)).bag == determinise(s, Rng(11)).bag
    assert Counter(a.bag) == Counter(s.bag)
    assert a.bag != determinise(s, Rng(12)).bag
    # every other field is the position's own
    a.bag = s.bag
    assert a == s


class BagReader(Strategy):
    """Reads the bag's first marker (hidden information) at its third decision."""

    name = "test_bag_reader"
    defaults: ClassVar[dict[str, Any]] = {}

    def setup(self) -> None:
        self.calls = 0

    def choose(self, state, legal, rng):
        self.calls += 1
        if self.calls == 3:
            state.bag[0]
        return RandomStrategy().choose(state, legal, rng)


if "test_bag_reader" not in registry():
    register("test_bag_reader")(BagReader)


@pytest.mark.parametrize("engine", ["python", "core"])
def test_reading_the_bag_order_in_a_game_is_a_failure_of_the_strategy(engine: str) -> None:
    with pytest.raises(StrategyError, match=r"HiddenInformationError.*draw order") as e:
        play_game(CONFIG, ["random", "test_bag_reader", "random"], engine=engine)
    assert e.value.seat == 1 and e.value.strategy == "test_bag_reader"
    assert e.value.n_actions == len(e.value.actions) > 0


def test_the_package_strategies_see_views_and_decide_as_before() -> None:
    """A greedy look-ahead on the view (it applies actions, some of which draw) decides
    like the core's greedy on the whole state, and ``rollout`` asked from Python with a
    view (converted in the canonical order) like the core's on the real order (the core's
    ``determinise`` ignores the order it is given): both engines play the same game."""
    lineup = ["greedy", "blocker", "rollout:candidates=3,horizon=2"]
    py = play_game(GameConfig(3, seed=8), lineup, max_actions=150)
    assert py.actions == play_game(GameConfig(3, seed=8), lineup,
                                        max_actions=150, engine="core").actions
    s = states_of(GameConfig(3, seed=8), py.actions)[-1]
    view = observe(s, s.current_player)
    for a in legal_actions(view)[:20]:
        apply(view, a, check=False)
