"""Whole games in the compiled core: greedy, the four tips and random decide exactly as
their Python versions on every board side and player count (default and changed
parameters), Python strategies are called back isolated, the core's logs are the Python
recorder's rows, and the runner gives the same tables with either engine."""

from __future__ import annotations

import pandas as pd
import pytest

from hansa_lab import _core
from hansa_lab.engine.state import GameConfig
from hansa_lab.errors import StateModified, StrategyError
from hansa_lab.play import core_game, play_game
from hansa_lab.sim.logs import record_game, to_frame
from hansa_lab.sim.runner import simulate
from hansa_lab.strategies import Greedy, RandomStrategy, make_strategy
from hansa_lab.strategies.base import register, registry

#: every board side with every player count it takes
TABLES = [("base", 2), ("base", 3), ("base", 4), ("base", 5), ("east", 3), ("east", 4),
          ("east", 5), ("britannia", 3), ("britannia", 4), ("britannia", 5)]
#: the six strategies the core plays, cycled over the seats
SIX = ["greedy", "actions_first", "blocker", "network_keys", "keep_supply", "random"]


def _same_game(config: GameConfig, lineup: list[str], max_actions: int = 1500) -> int:
    py = play_game(config, lineup, max_actions=max_actions)
    in_core = play_game(config, lineup, max_actions=max_actions, engine="core")
    first = next((i for i, (a, b) in enumerate(zip(py.actions, in_core.actions,
                                                   strict=False)) if a != b), None)
    assert first is None, f"first different action: {first}"
    assert in_core.actions == py.actions
    assert in_core.final == py.final
    assert in_core.result() == py.result()
    return len(py.actions)


@pytest.mark.parametrize(("board", "n"), TABLES, ids=lambda x: str(x))
def test_the_core_strategies_decide_as_in_python(board, n):
    """Each table seats the six strategies in turn (a different start for every table)."""
    k = TABLES.index((board, n))
    lineup = [SIX[(k + i) % len(SIX)] for i in range(n)]
    options = {"emperor": True} if k % 3 == 1 else {}
    config = GameConfig(n_players=n, board=board, edition=("bigbox", "original")[k % 2],
                        seed=500 + k, options=options)
    assert _same_game(config, lineup) > 100


@pytest.mark.parametrize("lineup", [
    ["greedy:depth=2", "actions_first:tip=0", "blocker:tip=2.5"],
    ["greedy:explore=0.05,opponents=0,supply_cap=3", "keep_supply:threshold=6,tip=0.5",
     "network_keys:route=0.5,ability=2"],
    ["greedy:actions_left=1,reserve=0,stock=0.2", "random:establish=false,gather=false",
     "blocker:tip=0"],
    ["greedy:patience=2,fade=3", "blocker:patience=0,fade=1.5",
     "actions_rush:patience=4,fade=0.5"],
], ids=["depth2-tips", "weights", "actions-left", "intents-fade"])
def test_changed_parameters_decide_as_in_python(lineup):
    config = GameConfig(n_players=3, board="east", seed=77)
    depth2 = lineup[0].startswith("greedy:depth=2")  # ten times slower in Python
    assert _same_game(config, lineup, max_actions=250 if depth2 else 600) > 100


@pytest.mark.parametrize(("board", "n"), [("base", 4), ("east", 3), ("britannia", 5), ("base", 2)],
                         ids=lambda x: str(x))
def test_the_plan_weights_decide_as_in_python(board, n):
    """Each plan term of the evaluation (Actions, Bank, City Keys with the network, the
    special-prestige spaces, control of the ability cities) chooses alike in both engines."""
    plans = ["greedy:plan_actions=1.5,plan_coellen=0.7", "greedy:plan_keys=1.2,plan_bank=0.8",
             "network_keys:plan_control=1.1", "greedy:plan_coellen=2,plan_control=0.3",
             "actions_first:plan_actions=0.5,plan_keys=0.5,plan_bank=0.5"]
    config = GameConfig(n_players=n, board=board, seed=4242 + n)
    assert _same_game(config, plans[:n], max_actions=900) > 100


def test_the_core_strategy_is_reproducible_and_the_seat_stream_matters():
    config = GameConfig(n_players=4, seed=3)
    a = play_game(config, ["greedy"] * 4, engine="core")
    b = play_game(config, ["greedy"] * 4, engine="core")
    c = play_game(GameConfig(n_players=4, seed=4), ["greedy"] * 4, engine="core")
    assert a.actions == b.actions and a.actions != c.actions


def test_only_the_package_classes_have_a_core_twin():
    class Mine(Greedy):  # a user's subclass may decide differently: called back
        pass

    assert core_game.core_policy(make_strategy("greedy:depth=2")) is not None
    assert core_game.core_policy(make_strategy("random:gather=false")) is not None
    assert core_game.core_policy(make_strategy("mcts")) is None
    assert core_game.core_policy(Mine()) is None


def test_the_core_names_a_missing_or_unknown_parameter():
    params = [(k, float(v)) for k, v in make_strategy("greedy").params.items()]
    with pytest.raises(ValueError, match="parameter \"depth\" is missing"):
        _core.CorePolicy("greedy", [p for p in params if p[0] != "depth"])
    with pytest.raises(ValueError, match="no parameter \"speed\""):
        _core.CorePolicy("greedy", [*params, ("speed", 1.0)])
    with pytest.raises(ValueError, match="no strategy \"mcts\""):
        _core.CorePolicy("mcts", [])
    with pytest.raises(ValueError, match=r"parameter \"depth\" must be an integer 1-2"):
        _core.CorePolicy("greedy", [(k, 3.0 if k == "depth" else v) for k, v in params])


class _Meddler(RandomStrategy):
    """``random`` that changes the state it is shown at its 40th decision."""

    name = "test_core_meddler"

    def setup(self) -> None:
        self.calls = 0

    def choose(self, state, legal, rng):
        self.calls += 1
        if self.calls == 40:
            state.prestige[0] += 3
        return super().choose(state, legal, rng)


if "test_core_meddler" not in registry():
    register("test_core_meddler")(_Meddler)


def test_a_python_strategy_beside_core_ones_plays_the_same_game():
    class Mine(RandomStrategy):  # not a core twin: asked in Python at each decision
        pass

    config = GameConfig(n_players=3, seed=12)
    lineup = [Mine(), make_strategy("greedy"), make_strategy("blocker")]
    py = play_game(config, lineup)
    in_core = play_game(config, [Mine(), "greedy", "blocker"], engine="core")
    assert in_core.actions == py.actions and in_core.final == py.final


def test_a_failing_python_strategy_fails_its_game_with_the_game_so_far():
    config = GameConfig(n_players=3, seed=5)
    lineup = ["greedy", "test_core_meddler", "random"]
    errors = []
    for engine in ("python", "core"):
        with pytest.raises(StrategyError) as e:
            play_game(config, lineup, engine=engine)
        errors.append(e.value)
    py, in_core = errors
    assert isinstance(in_core.error, StateModified) and "prestige" in str(in_core.error)
    assert (in_core.seat, in_core.n_actions) == (py.seat, py.n_actions) == (1, py.n_actions)
    assert in_core.actions == py.actions and len(py.actions) == py.n_actions
    rows = [record_game(config, lineup, 0, engine=e) for e in ("core", "python")]
    assert rows[0] == rows[1] and list(rows[0]) == ["failures"]


LOGGED = [
    (2, "base", {}, "bigbox", ["random", "keep_supply"]),
    (3, "base", {"emperor": True}, "original", ["greedy", "actions_first", "random"]),
    (4, "east", {"east_alternative": True}, "bigbox",
     ["blocker", "greedy", "random", "keep_supply"]),
    (5, "britannia", {"emperor": True}, "original", ["random"] * 5),
    (3, "britannia", {"start_supply": 2, "prestige_to_end": 14}, "bigbox",
     ["network_keys", "random", "greedy"]),
    (4, "base", {"special_points": (5, 6, 8, 12)}, "original", ["random", "greedy"] * 2),
]


@pytest.mark.parametrize("max_actions", [None, 173], ids=["whole", "capped"])
@pytest.mark.parametrize("case", LOGGED, ids=lambda c: f"{c[0]}p-{c[1]}")
def test_the_core_builds_the_same_log_rows(case, max_actions):
    n, board, options, edition, lineup = case
    config = GameConfig(n_players=n, board=board, edition=edition, seed=LOGGED.index(case),
                        options=options)
    rows = [record_game(config, lineup, 9, experiment="x", arm="a", rotation=1, engine=e,
                        max_actions=max_actions) for e in ("core", "python")]
    for table in ("games", "players", "turns", "events"):
        a, b = (to_frame(table, r[table]) for r in rows)
        if table == "games":
            a, b = (x.drop(columns=["wall_time", "cpu_time"]) for x in (a, b))
        pd.testing.assert_frame_equal(a, b, obj=table)
        assert len(a) > 0


def test_the_runner_gives_the_same_tables_with_either_engine(tmp_path):
    # the strategies' decisions are compared in the tests above: here the tables, two
    # chunks of each arm, with one searching player beside random ones (cheap in Python)
    kw = {"n_games": 4, "n_players": 3, "progress": False, "chunk_size": 2}
    runs = {e: simulate({"tip": ["blocker", "greedy", "random"], "base": ["random"]}, engine=e,
                        out=tmp_path / e, name="same", **kw) for e in ("core", "python")}
    for table in ("games", "players", "turns", "events"):
        a, b = (runs[e].read(table) for e in ("core", "python"))
        if table == "games":
            a, b = (x.drop(columns=["wall_time", "cpu_time"]) for x in (a, b))
        pd.testing.assert_frame_equal(a, b, obj=table)
    assert runs["core"].manifest["execution"]["engine"] == "core"
    with pytest.raises(ValueError, match="engine"):
        simulate(["random"], engine="rust", **kw)


def test_a_what_if_from_the_middle_of_a_game_is_the_same_in_the_core():
    from hansa_lab.play import play_on, states_of

    config = GameConfig(n_players=4, board="east", seed=21)
    real = play_game(config, ["greedy", "random", "blocker", "random"], engine="core")
    mid = states_of(config, real.actions[:150])[-1]
    for lineup, seed in ((["actions_first", "greedy", "random", "keep_supply"], 4),
                         (["greedy", "mcts:iterations=8", "random", "greedy"], None)):
        py, in_core = play_on(mid, lineup, seed), play_on(mid, lineup, seed, engine="core")
        assert in_core.actions == py.actions and in_core.final == py.final
        assert in_core.extra == py.extra == {"start_action": 150,
                                              "seed": 21 if seed is None else seed}
