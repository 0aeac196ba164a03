"""Names and numbers declared once, read by both engines (issue 42, item 2).

The rule options (name, default, range, which ``Tuning`` field a plain integer option
fills) are declared in ``hansa_lab/engine/data/vocabulary.json``; the groups of parameters
each strategy takes in ``hansa_lab/engine/data/limits.json``. Every table derived from
them (the option table, ``Tuning``, ``bridge.core_options``, the core's
``RULE_OPTION_NAMES``, the strategies' ``limits``) is checked against the declaration
here, so an edit by hand in one place fails.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest

from hansa_lab.compiled import bridge
from hansa_lab.engine import options, rng
from hansa_lab.engine.actions import Action
from hansa_lab.engine.limits import (
    LIMITS_FILE,
    option_limit,
    option_limits,
    parameter_limits,
    strategy_groups,
    strategy_limits,
)
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import GameConfig, State
from hansa_lab.engine.vocabulary import PLAIN_INT_OPTIONS, VOCABULARY_FILE
from hansa_lab.strategies.base import Strategy

_core = pytest.mark.skipif(not bridge.available(), reason="compiled core not built")


def declared() -> list[dict[str, Any]]:
    """The rule options as the file declares them (read here, not through the package)."""
    entries: list[dict[str, Any]] = json.loads(VOCABULARY_FILE.read_text())["rule_options"]
    return entries


def plain() -> list[dict[str, Any]]:
    return [e for e in declared() if "tuning" in e]


def core_receives() -> list[str]:
    return [e["name"] for e in declared() if "core_receives" not in e]


# --------------------------------------------------------------------------- rule options
def test_each_plain_integer_option_is_declared_whole() -> None:
    tuning = {f.name: f.type for f in dataclasses.fields(options.Tuning)}
    assert plain(), "no plain integer option declared"
    for e in plain():
        name = e["name"]
        assert isinstance(e["default"], int) and not isinstance(e["default"], bool), name
        low, high = e["range"]
        assert low <= e["default"] <= high, name
        assert e["changes"].strip(), name
        assert tuning.get(e["tuning"]) == "int", f"{name}: Tuning has no int {e['tuning']}"
    assert {e["name"]: e["tuning"] for e in plain()} == PLAIN_INT_OPTIONS


def test_the_option_table_follows_the_declaration() -> None:
    assert [o.name for o in options.OPTIONS] == [e["name"] for e in declared()]
    by_name = {o.name: o for o in options.OPTIONS}
    for e in plain():
        o = by_name[e["name"]]
        assert (o.default, o.changes) == (e["default"], e["changes"]), e["name"]
        assert o.allowed == f"an integer {e['range'][0]}-{e['range'][1]}", e["name"]
    for e in declared():
        if "default" in e:
            want = e["default"]
            got = options.RULE_OPTIONS[e["name"]]
            assert (list(got) if isinstance(got, tuple) else got) == want, e["name"]


def test_the_ranges_are_the_declared_ones_and_only_there() -> None:
    want = {e["name"]: (e["range"][0], e["range"][1]) for e in declared() if "range" in e}
    assert {k: (v.low, v.high) for k, v in option_limits().items()} == want
    assert list(option_limits()) == list(want)
    assert all(v.kind == "int" for v in option_limits().values())
    assert "rule_options" not in json.loads(LIMITS_FILE.read_text()), \
        "rule options' ranges belong to their entries in vocabulary.json"


@pytest.mark.parametrize("name", sorted(PLAIN_INT_OPTIONS))
def test_each_plain_option_is_validated_resolved_and_sent_from_its_entry(name: str) -> None:
    entry = next(e for e in plain() if e["name"] == name)
    field = entry["tuning"]
    low, high = entry["range"]
    for value in {low, high}:
        config = GameConfig(3, options={name: value})
        assert getattr(config.tuning, field) == value
        sent = bridge.core_options(config)
        assert sent[name] == value and type(sent[name]) is int
        printed = GameConfig(3).tuning
        others = {f.name for f in dataclasses.fields(options.Tuning)} - {field}
        assert all(getattr(config.tuning, f) == getattr(printed, f) for f in others)
    assert getattr(GameConfig(3).tuning, field) == entry["default"]
    for bad in (low - 1, high + 1, 1.5, True):
        with pytest.raises(ValueError, match=f"rule option {name} must be an integer"):
            GameConfig(3, options={name: bad})


def test_core_options_send_what_the_declaration_lists() -> None:
    for config in (GameConfig(3), GameConfig(5, board="east",
                                             options={"east_alternative": True,
                                                      "control_points": 7,
                                                      "start_supply": 3})):
        sent = bridge.core_options(config)
        assert list(sent) == core_receives()
        for name, field in PLAIN_INT_OPTIONS.items():
            assert sent[name] == getattr(config.tuning, field)
    for e in declared():
        if "core_receives" in e:
            assert e["core_receives"] in core_receives(), e["name"]


@_core
def test_the_cores_names_and_checks_follow_the_declaration() -> None:
    core = bridge.core_module()
    assert list(core.RULE_OPTION_NAMES) == core_receives()
    config = GameConfig(3)
    sent, side = bridge.core_options(config), config.side
    for name in PLAIN_INT_OPTIONS:
        lim = option_limit(name)
        core.CoreConfig(3, side, "bigbox", 0, {**sent, name: int(lim.high)})
        with pytest.raises(ValueError, match=f"rule option {name} must be an integer"):
            core.CoreConfig(3, side, "bigbox", 0, {**sent, name: int(lim.high) + 1})
        missing = {k: v for k, v in sent.items() if k != name}
        with pytest.raises(ValueError, match=f"rule option {name} is missing"):
            core.CoreConfig(3, side, "bigbox", 0, missing)


# --------------------------------------------------------------------------- strategies
def test_each_strategy_takes_its_declared_groups() -> None:
    from hansa_lab.strategies.base import _REGISTRY

    groups = strategy_groups()
    for name, gs in groups.items():
        assert name in _REGISTRY, f"strategy_groups names an unknown strategy {name!r}"
        assert _REGISTRY[name].limits == parameter_limits(*gs), name
        assert _REGISTRY[name].limits == strategy_limits(name)
    for name, cls in _REGISTRY.items():
        for key, (low, high) in cls.ranges.items():
            lim = cls.limits[key]
            assert lim.low <= low <= high <= lim.high, f"{name}: {key}"


def test_every_core_strategy_declares_its_groups() -> None:
    from hansa_lab.engine.vocabulary import CORE_POLICIES
    from hansa_lab.play.core_game import CORE_STRATEGIES

    groups = strategy_groups()
    assert set(CORE_POLICIES) <= set(groups)
    for cls in CORE_STRATEGIES.values():
        name = getattr(cls, "core_name", cls.name)
        if name in groups:
            assert cls.limits == strategy_limits(name), cls.__name__


# --------------------------------------------------------------------------- seeds
def _code_tokens(path: Path) -> list[str]:
    """The code of a module without its strings and comments, one string per line."""
    lines: dict[int, list[str]] = {}
    with path.open("rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type not in (tokenize.STRING, tokenize.COMMENT, tokenize.ENCODING):
                lines.setdefault(tok.start[0], []).append(tok.string)
    return ["".join(parts) for parts in lines.values()]


#: Code allowed to write the seed bound itself: the one check, and the position parser's
#: digit range (it reads a seed as written; the GameConfig it builds checks it again).
_SEED_BOUND_AT = {"engine/rng.py", "engine/position.py"}


def test_the_seed_range_is_written_and_checked_in_one_place() -> None:
    root = Path(rng.__file__).resolve().parents[1]
    bound = re.compile(r"2\*\*6[34]-1|1<<63|\(1<<63\)-1|2\*\*63")
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in _SEED_BOUND_AT:
            continue
        found += [f"{rel}: {line.strip()}" for line in _code_tokens(path) if bound.search(line)]
    assert not found, "the seed range belongs to engine/rng.py (MAX_SEED, check_seed):\n" + \
        "\n".join(found)


@pytest.mark.parametrize("seed", [-1, rng.MAX_SEED + 1, 1.0, "1", True])
def test_every_seed_door_refuses_with_the_one_check(seed: Any) -> None:
    from hansa_lab.env.inputs import seed_integer
    from hansa_lab.play import checked_seed

    with pytest.raises(ValueError) as want:
        rng.check_seed(seed)
    for door in (checked_seed, seed_integer, lambda s: GameConfig(3, seed=s)):
        with pytest.raises(ValueError) as got:
            door(seed)
        assert str(want.value).split(", got ")[0].split("seed must")[1] in str(got.value)
    assert rng.check_seed(rng.MAX_SEED) == GameConfig(3, seed=rng.MAX_SEED).seed


# --------------------------------------------------------------------------- final scoring
#: A sample covering the variants the logs score: every board and player count, the
#: East's alternative side, the Emperor's Favour (its two scoring tiles) and tuned scoring.
_SCORED = [
    GameConfig(3, seed=11),
    GameConfig(4, seed=12, options={"emperor": True}),
    GameConfig(5, seed=13),
    GameConfig(3, board="east", seed=14),
    GameConfig(4, board="east", seed=15, options={"east_alternative": True, "emperor": True}),
    GameConfig(5, board="britannia", seed=16),
    GameConfig(3, board="britannia", seed=17, options={"region_points": [9, 5, 1, 1]}),
    GameConfig(4, seed=18, edition="original", options={
        "control_points": 5, "favour_control_bonus": 1, "ability_points": 9,
        "favour_abilities_bonus": 0, "marker_points": [2, 4, 8], "keys_track": [1, 3, 5, 7, 9],
        "emperor": True}),
]


class _PlaysBack(Strategy):
    """Plays a recorded game's actions back, in order, whoever's turn it is."""

    name = "plays_back"

    def __init__(self, actions: list[Action]) -> None:
        super().__init__()
        self.actions = iter(actions)

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        return next(self.actions)


@_core
def test_the_logs_numpy_scoring_is_the_engines() -> None:
    """The logs score every turn in one numpy pass (``sim.logs.score_columns``): on every
    turn of every game of the sample it equals the engine's own ``score_breakdown`` of
    that turn; the sample scores every category and both scoring favour tiles."""
    from hansa_lab.engine.scoring import CATEGORIES, score_breakdown
    from hansa_lab.play import play_game
    from hansa_lab.sim.logs import GameRecorder

    class Checked(GameRecorder):
        breakdowns: list[list[dict[str, int]]]

        def snapshot(self, s: Any) -> None:
            super().snapshot(s)
            self.breakdowns.append(score_breakdown(s))

    scored: set[str] = set()
    tiles: set[str] = set()
    for config in _SCORED:
        recorder = Checked(("", "", 0))
        recorder.breakdowns = []
        # greedy's game, decided in the core (the same game: parity) and played back in
        # the Python engine, whose loop calls the recorder as the runner's logs do
        actions = play_game(config, ["greedy"] * config.n_players, engine="core").actions
        back = _PlaysBack(actions)
        record = play_game(config, [back] * config.n_players, observer=recorder.observe)
        assert record.actions == actions
        recorder.finish(record.final)
        assert record.final.end_reason, "the game ends by a rule"
        columns = recorder.turn_columns(config.n_players, config.tuning)
        want = [row for turn in recorder.breakdowns for row in turn]
        assert len(want) == len(columns["seat"]) > config.n_players
        for c in CATEGORIES:
            assert columns[f"proj_{c}"].tolist() == [row[c] for row in want], (config, c)
        scored |= {c for row in want for c in CATEGORIES if row[c]}
        # the Emperor's Favour tiles that change the final scoring, held (few games
        # take them): seat 0 abilities_7, seat 1 control_4, seat 2 both
        held = (("abilities_7",), ("control_4",), ("abilities_7", "control_4"))
        tiled = dataclasses.replace(record.final, favours=tuple(
            held[p] if p < len(held) else () for p in range(config.n_players)))
        recorder = Checked(("", "", 0))
        recorder.breakdowns = []
        recorder.finish(tiled)
        columns = recorder.turn_columns(config.n_players, config.tuning)
        for c in CATEGORIES:
            assert columns[f"proj_{c}"].tolist() == [row[c] for row in recorder.breakdowns[0]]
        tiles |= {c for row, base in zip(recorder.breakdowns[0], want[-config.n_players:],
                                         strict=True) for c in CATEGORIES if row[c] != base[c]}
    assert scored == set(CATEGORIES), f"the sample never scores {set(CATEGORIES) - scored}"
    assert {"abilities", "control"} <= tiles, "the favour tiles never changed a score"


def test_every_declared_strategy_is_registered_played_and_documented() -> None:
    """The strategy names: declared with their groups (``limits.json``) and, for the
    core's, in the vocabulary (``core_policies``, from which the core's ``POLICY_NAMES``
    and the first entries of ``CORE_STRATEGIES`` are derived; cargo test checks that the
    core builds each); the rest is checked here: the registry, the table of the core's
    strategy classes and the README's players table name each one."""
    from hansa_lab.engine.vocabulary import CORE_POLICIES
    from hansa_lab.play.core_game import CORE_STRATEGIES
    from hansa_lab.strategies.base import _REGISTRY

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for name in strategy_groups():
        assert name in _REGISTRY, name
        assert f"`{name}`" in readme, f"README's players table lacks {name}"
    for name in CORE_POLICIES:
        assert name in CORE_STRATEGIES, f"CORE_STRATEGIES lacks the core's {name}"
        assert CORE_STRATEGIES[name] is _REGISTRY[name], name


def test_the_example_plain_option_changes_its_rule_in_both_engines() -> None:
    """``control_prestige`` (added as the recipe shows: its vocabulary entry, a field of
    each ``Tuning``, the rule): its golden game (replayed by both engines in
    tests/test_golden.py, prestige shown at every step) scores each city's control with
    the option's value, not the printed 1."""
    from hansa_lab.engine.rules import apply
    from hansa_lab.engine.state import new_game
    from hansa_lab.golden import GOLDEN_GAMES, recorded_actions

    name, config, _ = next(g for g in GOLDEN_GAMES if dict(g[1].options).get("control_prestige"))
    value = dict(config.options)["control_prestige"]
    assert value != options.RULE_OPTIONS["control_prestige"]
    golden = Path(__file__).parent / "data" / "golden" / f"{name}.txt"
    state = new_game(config)
    awards = []
    for action in recorded_actions(config.load_board(), golden.read_text().splitlines()):
        state = apply(state, action)
        awards += [e.value for e in state.events if e.kind == "prestige" and e.detail == "control"]
    assert awards and set(awards) == {value}
