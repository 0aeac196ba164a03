"""The skill ladder on small samples: the shipped rung list and its refusals, a ladder that
climbs (random below greedy) reported calibrated and a reversed one reported not, with the
failing step named, the realism table, and the command end to end with its refusals (exit
2, one line, nothing written)."""

from __future__ import annotations

import pandas as pd
import pytest
from run_helpers import run_cli

from hansa_lab.strategies import make_strategy
from hansa_lab.studies.skill import (
    PASS_LOWER,
    PASS_SHARE,
    Rung,
    Step,
    format_ladder,
    ladder_verdict,
    measure_ladder,
    resolve_rungs,
    skill_rungs,
)

RANDOM = Rung("random", "random", "uniformly random legal actions")
GREEDY = Rung("greedy", "greedy", "one-ply greedy")


@pytest.mark.parametrize(("board", "players"), [("base", 3), ("base", 4), ("base", 5),
                                                ("east", 4), ("britannia", 4)])
def test_the_shipped_ladder_has_six_playable_rungs(board, players):
    rungs = skill_rungs(board, players)
    assert len(rungs) >= 6 and len({r.label for r in rungs}) == len(rungs)
    assert rungs[0].label == "random" and rungs[1].label == "greedy"
    for r in rungs:
        make_strategy(r.spec)  # every rung is a strategy the lab plays
        assert r.about and len(r.label) <= 16


@pytest.mark.parametrize(("args", "message"), [
    (("moon", 4), "board: unknown board 'moon'"),
    (("east", 2), "players: 2 players cannot play on 'east'"),
    (("base", 7), "players: 7 players cannot play on 'base'"),
    (("base", "4"), "players: must be a whole number"),
])
def test_skill_rungs_names_the_bad_field(args, message):
    with pytest.raises(ValueError, match=message):
        skill_rungs(*args)


def test_resolve_rungs_takes_labels_and_specs():
    rungs = resolve_rungs(["greedy", "learned:reply=1", "strong"])
    assert [r.spec for r in rungs] == ["greedy", "learned:reply=1", "strong"]
    assert rungs[0] == skill_rungs()[1]
    with pytest.raises(ValueError, match=r"rung 2 \('nosuch'\) is neither a rung label"):
        resolve_rungs(["greedy", "nosuch"])
    with pytest.raises(ValueError, match="at least two rungs"):
        resolve_rungs(["greedy"])
    with pytest.raises(ValueError, match="rungs repeat"):
        resolve_rungs(["greedy", "greedy"])


def test_the_pass_rule_needs_the_share_and_the_lower_bound():
    def step(share: float, lo: float) -> Step:
        return Step(2, "a", "b", 200, share, lo, share + 0.05, 1.0, 1.0)

    assert step(PASS_SHARE, PASS_LOWER + 0.01).passed
    assert not step(PASS_SHARE - 0.001, 0.30).passed
    assert not step(0.40, PASS_LOWER).passed


def test_a_climbing_ladder_is_calibrated_and_a_reversed_one_is_not():
    up = measure_ladder([RANDOM, GREEDY], n_players=3, games=6, seed=910,
                        top_against="random", realism_games=3)
    assert [(s.challenger, s.below, s.games) for s in up.steps] == [("greedy", "random", 6)]
    assert up.steps[0].win_share > 0.8 and up.steps[0].passed
    assert ladder_verdict(up) == "calibrated: every rung beats the one below"
    assert up.top is not None and up.top.below == "random" and up.top.passed
    assert up.reference_cpu > 0 and up.steps[0].cost_ratio == pytest.approx(
        up.steps[0].cpu_per_game / up.reference_cpu)
    real = up.realism
    assert real is not None and list(real.rung) == ["random", "greedy"]
    assert {"place1", "place2", "place3", "rounds_median", "third_action_round_median",
            "five_actions", "keys_developed", "keys_level3", "coellen_games",
            "winner_main_source", "end_prestige"} <= set(real.columns)
    assert (real.place1 >= real.place2).all() and (real.place2 >= real.place3).all()
    text = format_ladder(up)
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "all-greedy table:" in text and "pass: win share >= 35%" in text
    assert "top rung greedy holds against random" in text

    down = measure_ladder([GREEDY, RANDOM], n_players=3, games=6, seed=910)
    assert down.steps[0].win_share < 0.2 and not down.steps[0].passed
    verdict = ladder_verdict(down)
    assert verdict.startswith("not calibrated: rung 2 (random) against greedy: ")
    text = format_ladder(down)
    assert verdict in " ".join(text.split()) and max(map(len, text.splitlines())) <= 100


def test_the_command_end_to_end(tmp_path, capsys):
    from hansa_lab.tools.cli import main

    out = tmp_path / "ladder"
    argv = ["skill-ladder", "--players", "3", "--games", "3", "--seed", "11", "--rungs",
            "random,greedy", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "calibrated: every rung beats the one below" in text
    steps = pd.read_csv(out / "steps.csv")
    assert list(steps.challenger) == ["greedy"] and steps.games.iloc[0] == 3
    assert {"win_share", "lo", "hi", "passed", "cpu_per_game", "cost_ratio",
            "reference_cpu_per_game"} <= set(steps.columns)
    assert list(pd.read_csv(out / "rungs.csv").label) == ["random", "greedy"]
    assert main(argv) == 0  # resumed: the finished tables are read back, same answer
    assert pd.read_csv(out / "steps.csv").equals(steps)


@pytest.mark.parametrize(("argv", "message"), [
    (["--rungs", "greedy,nosuch"], "--rungs: rung 2 ('nosuch') is neither"),
    (["--rungs", "greedy"], "--rungs: a ladder needs at least two rungs"),
    (["--top-against", "nosuch"], "--top-against: unknown strategy 'nosuch'"),
    (["--board", "moon"], "--board: unknown board 'moon'"),
    (["--board", "east", "--players", "2"], "--players/--board:"),
    (["--games", "0"], "--games must be >= 1"),
    (["--realism", "0"], "--realism must be >= 1"),
])
def test_the_command_refuses_bad_inputs_in_one_line(tmp_path, capsys, argv, message):
    code, err = run_cli("skill-ladder", ["skill-ladder", *argv, "--out", str(tmp_path / "x")],
                        capsys)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_an_override_replaces_the_rungs_of_its_board_and_players(tmp_path, monkeypatch):
    import hansa_lab.studies.skill as skill

    rung = 'label = "{0}"\nspec = "{0}"\nabout = "the {0} player"\n'
    path = tmp_path / "ladder.toml"
    path.write_text("[[rung]]\n" + rung.format("greedy") + "[[rung]]\n" + rung.format("planner")
                    + '[[override]]\nboard = "east"\nplayers = [4]\n'
                    + "[[override.rung]]\n" + rung.format("random")
                    + "[[override.rung]]\n" + rung.format("greedy"))
    monkeypatch.setattr(skill, "LADDER_FILE", path)
    skill._declared.cache_clear()
    try:
        assert [r.label for r in skill_rungs("east", 4)] == ["random", "greedy"]
        assert [r.label for r in skill_rungs("east", 3)] == ["greedy", "planner"]
        assert [r.label for r in skill_rungs("base", 4)] == ["greedy", "planner"]
        path.write_text("[[rung]]\n" + rung.format("greedy") + '[[override]]\nboard = "moon"\n')
        skill._declared.cache_clear()
        with pytest.raises(ValueError, match="override 1: unknown board 'moon'"):
            skill_rungs()
        path.write_text('[[rung]]\nlabel = "greedy"\nspec = "greedy"\n')
        skill._declared.cache_clear()
        with pytest.raises(ValueError, match="needs exactly label, spec and about"):
            skill_rungs()
    finally:
        skill._declared.cache_clear()
