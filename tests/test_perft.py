"""perft on the saved positions (tests/data/perft.txt): both engines count the same
action sequences to depth 3, and the counts are the saved ones, so a rules change that
alters any position's tree is noticed. Regenerate on purpose: scripts/make_goldens.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiers import FULL

from hansa_lab.compiled.bridge import core_divide, core_from_text, core_perft
from hansa_lab.engine.perft import divide, perft
from hansa_lab.engine.position import from_text
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.golden import read_perft_file

POSITIONS = read_perft_file((Path(__file__).parent / "data" / "perft.txt").read_text("utf-8"))
IDS = [p.name for p in POSITIONS]


def test_the_saved_positions_cover_every_board_count_and_decision():
    states = [from_text(p.text) for p in POSITIONS]
    assert {s.config.side for s in states} >= {"base_3p", "base_45p", "east", "britannia_3p",
                                               "britannia_45p"}
    assert {s.n_players for s in states} == {2, 3, 4, 5}
    assert {s.pending[-1].KIND for s in states if s.pending} == {
        "relocate", "relocate_neutral", "move", "move3", "remove3", "place_marker",
        "permanent", "favour_income"}
    assert {s.config.edition for s in states} == {"bigbox", "original"}
    options = {name for s in states for name, _ in s.config.options}
    assert {"emperor", "east_alternative"} <= options and len(options) > 2
    assert any(p.name.endswith("_coellen") for p in POSITIONS)
    assert all(len(p.counts) == 3 for p in POSITIONS)


@pytest.mark.parametrize("saved", POSITIONS, ids=IDS)
def test_the_core_counts_the_saved_perft(saved):
    game = core_from_text(saved.text)
    assert tuple(core_perft(game, d) for d in (1, 2, 3)) == saved.counts


#: the largest depth-3 count the Python engine checks in the bounded tier (about 10 s);
#: the larger ones (a move-3 marker's 35 million sequences) in the full tier only
BOUNDED_NODES = 1_000_000


@pytest.mark.parametrize("saved", POSITIONS, ids=IDS)
def test_the_python_engine_counts_the_saved_perft(saved):
    state = from_text(saved.text)
    depths = (1, 2, 3) if FULL or saved.counts[2] <= BOUNDED_NODES else (1, 2)
    assert tuple(perft(state, d) for d in depths) == saved.counts[:len(depths)]


def test_divide_sums_to_perft_in_both_engines():
    saved = POSITIONS[0]
    state, game = from_text(saved.text), core_from_text(saved.text)
    python, core = divide(state, 2), core_divide(game, 2)
    assert python == core
    assert sum(n for _, n in python) == saved.counts[1]


def test_perft_depth_zero_and_bad_depths():
    s = new_game(GameConfig(3, seed=1))
    assert perft(s, 0) == 1
    with pytest.raises(ValueError, match="depth"):
        perft(s, -1)
    with pytest.raises(ValueError, match="depth"):
        divide(s, 0)
    game = core_from_text(POSITIONS[0].text)
    with pytest.raises((ValueError, OverflowError)):
        core_perft(game, 99)


def test_the_perft_command_prints_both_engines_and_divides(capsys):
    from hansa_lab.tools import cli

    path = Path(__file__).parent / "data" / "perft.txt"
    saved = POSITIONS[1]
    assert cli.main(["perft", "--file", str(path), "--name", saved.name, "--depth", "2",
                     "--divide"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.split() and line.split()[0].isdigit()}
    assert rows["1"][1] == rows["1"][3] == str(saved.counts[0])
    assert rows["2"][1] == rows["2"][3] == str(saved.counts[1])
    assert "the engines agree" in out and "divide at depth 2" in out


def test_the_perft_command_refuses_bad_input(capsys):
    from hansa_lab.tools import cli

    assert cli.main(["perft", "--depth", "0"]) == 2
    assert "--depth" in capsys.readouterr().err
    assert cli.main(["perft", POSITIONS[0].text.replace("bag=", "bag=?")]) == 2
    assert "field 'bag'" in capsys.readouterr().err
    assert cli.main(["perft", "--file", "/nonexistent/perft.txt"]) == 2
    assert "--file" in capsys.readouterr().err
