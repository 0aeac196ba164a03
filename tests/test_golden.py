"""Golden playthroughs, replayed from the actions their files record and diffed line by
line, in the Python engine and in the compiled core.

Regenerate only on purpose: ``python scripts/make_goldens.py``.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from hansa_lab.errors import IllegalActionError
from hansa_lab.golden import GOLDEN_GAMES, golden_lines, recorded_actions

DATA = Path(__file__).parent / "data"


def _expected(name: str) -> list[str]:
    return (DATA / "golden" / f"{name}.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("engine", ["python", "core"])
@pytest.mark.parametrize("name,config,strategies", GOLDEN_GAMES, ids=[g[0] for g in GOLDEN_GAMES])
def test_golden_playthrough(name, config, strategies, engine):
    expected = _expected(name)
    actions = recorded_actions(config.load_board(), expected)
    assert actions, f"{name} records no actions"
    actual = golden_lines(config, strategies, actions, engine)
    if actual != expected:
        diff = list(difflib.unified_diff(expected, actual, "golden", engine, lineterm="", n=2))
        pytest.fail(f"{name} replayed by the {engine} engine differs from its golden file:\n"
                    + "\n".join(diff[:60]))


def test_every_golden_file_is_listed():
    files = {p.stem for p in (DATA / "golden").glob("*.txt")}
    assert files == {g[0] for g in GOLDEN_GAMES}


def test_a_golden_replay_follows_the_recorded_actions_not_a_strategy():
    """Another strategy in the header changes the header only; a changed recorded action
    changes the replay from that step on."""
    name, config, strategies = GOLDEN_GAMES[0]
    expected = _expected(name)
    actions = recorded_actions(config.load_board(), expected)
    other = golden_lines(config, ["greedy"] * config.n_players, actions)
    assert other[1:] == expected[1:] and other[0] != expected[0]
    changed = [*actions[:5], *actions[6:]]  # one recorded action left out
    try:
        lines = golden_lines(config, strategies, changed)
    except IllegalActionError:
        return  # a later recorded action no longer fits the game
    assert lines != expected


def test_the_engine_name_is_checked():
    _name, config, strategies = GOLDEN_GAMES[0]
    with pytest.raises(ValueError, match="engine"):
        golden_lines(config, strategies, [], "java")
