"""The rules engines' one table (:data:`hansa_lab.play.ENGINES`): every caller that lets a
user choose an engine names it through the table, an unknown engine is one clear error,
and every engine plays the same game."""

from __future__ import annotations

import argparse

import pytest

from hansa_lab import golden
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.play import (
    DEFAULT_ENGINE,
    ENGINES,
    REFERENCE_ENGINE,
    engine_named,
    per_engine,
    play_game,
    play_on,
    states_of,
)
from hansa_lab.sim import logs
from hansa_lab.tools import bench
from hansa_lab.tools.cli import build_parser

CONFIG = GameConfig(3, seed=11)


def test_the_defaults_are_engines_of_the_table() -> None:
    assert DEFAULT_ENGINE in ENGINES and REFERENCE_ENGINE in ENGINES
    assert all(name == engine.name for name, engine in ENGINES.items())


@pytest.mark.parametrize("name", ["rust", "Core", "", None, 3])
def test_an_unknown_engine_is_one_error_naming_the_engines(name: object) -> None:
    with pytest.raises(ValueError, match=r"unknown engine .*; engines: python, core"):
        engine_named(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [
    lambda: play_game(CONFIG, "random", engine="rust"),
    lambda: play_on(new_game(CONFIG), "random", engine="rust"),
    lambda: golden.golden_lines(CONFIG, ["random"] * 3, [], engine="rust"),
    lambda: logs.record_game(CONFIG, ["random"] * 3, 0, engine="rust"),
    lambda: bench.bench_engines("rust", seconds=0.01),
])
def test_every_caller_refuses_an_unknown_engine_the_same_way(call) -> None:
    with pytest.raises(ValueError, match=r"unknown engine 'rust'; engines: python, core"):
        call()


def test_a_table_per_engine_must_cover_every_engine() -> None:
    assert per_engine({"python": 1, "core": 2}, "x") == {"python": 1, "core": 2}
    with pytest.raises(RuntimeError, match=r"the logs covers engines \['python'\]"):
        per_engine({"python": 1}, "the logs")


def test_the_python_engines_hooks_are_refused_by_the_core() -> None:
    with pytest.raises(ValueError, match=r"engine 'core' takes no on_step or observer"):
        play_game(CONFIG, "random", engine="core", observer=lambda *a: None)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_every_engine_plays_the_same_game_and_continuation(engine: str) -> None:
    reference = play_game(CONFIG, "greedy,random,random")
    rec = play_game(CONFIG, "greedy,random,random", engine=engine)
    assert rec.actions == reference.actions and rec.final == reference.final
    mid = states_of(CONFIG, reference.actions[:60])[-1]
    on = play_on(mid, "random", seed=4, engine=engine)
    assert on.actions == play_on(mid, "random", seed=4).actions
    assert on.extra == {"start_action": 60, "seed": 4}


def test_the_command_lines_engine_choices_are_the_tables() -> None:
    """The command line names its choices without importing the engines (it starts
    light); they must be the table's."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("play", "simulate", "run"):
        engine = next(a for a in sub.choices[command]._actions if a.dest == "engine")
        assert set(engine.choices) == set(ENGINES), command
