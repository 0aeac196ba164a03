"""Sweeps of rule options: ``[variants]`` and ``[sweep]`` in an experiment expand into one
condition per variant (crossed with the player counts), the manifest and the games table
record them, and the analysis compares every variant with the unchanged game, paired by
deal — checked on real small runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from hansa_lab.errors import ExperimentError
from hansa_lab.sim.experiment import Design, load_experiment, normalize_experiment
from hansa_lab.sim.runner import run_experiment
from hansa_lab.tools.cli import main

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def spec(**fields: object) -> dict[str, object]:
    return {"games": 3, "players": 3, "arms": {"r": ["random"]}, **fields}


def test_a_grid_is_every_combination_named_by_its_changes() -> None:
    exp = normalize_experiment(spec(players=[3, 4], sweep={
        "control_points": [2, 3], "east_west_points": [[7, 4, 2], [5, 3, 1]]}))
    names = ["default", "east_west_points=[5,3,1]", "control_points=3",
             "control_points=3,east_west_points=[5,3,1]"]
    assert [c.variant for c in exp.conditions] == names * 2
    assert [c.n_players for c in exp.conditions] == [3] * 4 + [4] * 4
    assert exp.base_variant == "default"
    by_name = {c.variant: dict(c.options) for c in exp.conditions[:4]}
    assert by_name["default"] == {}  # the printed values given explicitly change nothing
    assert by_name["control_points=3,east_west_points=[5,3,1]"] == {
        "control_points": 3, "east_west_points": (5, 3, 1)}


def test_a_grid_without_the_unchanged_game_gets_it() -> None:
    exp = normalize_experiment(spec(sweep={"control_points": [3, 4]}))
    assert [c.variant for c in exp.conditions] == ["default", "control_points=3",
                                                   "control_points=4"]


def test_named_variants_on_top_of_the_conditions_options() -> None:
    exp = normalize_experiment(spec(options={"prestige_to_end": 15}, variants={
        "city3": {"control_points": 3}, "long": {"prestige_to_end": 20}}))
    got = {c.variant: dict(c.options) for c in exp.conditions}
    assert got == {"default": {"prestige_to_end": 15},
                   "city3": {"control_points": 3, "prestige_to_end": 15},
                   "long": {}}  # the default value: no key
    assert exp.base_variant == "default"
    exp = normalize_experiment(spec(variants={"printed": {}, "city3": {"control_points": 3}}))
    assert [c.variant for c in exp.conditions] == ["printed", "city3"]
    assert exp.base_variant == "printed"
    assert exp.configuration()["base_variant"] == "printed"
    assert exp.configuration()["conditions"][1] == {
        "players": 3, "board": "base", "edition": "bigbox",
        "options": {"control_points": 3}, "variant": "city3"}


def test_no_sweep_changes_nothing() -> None:
    exp = normalize_experiment(spec(players=[3, 4]))
    assert [c.variant for c in exp.conditions] == ["", ""]
    assert "variant" not in exp.configuration()["conditions"][0]
    assert exp.base_variant is None


@pytest.mark.parametrize(("fields", "where", "message"), [
    ({"sweep": {"control_points": [3]}, "variants": {"a": {}}}, "sweep", "not both"),
    ({"sweep": {"control_points": 3}}, "sweep.control_points", "lists the values"),
    ({"sweep": {"speed": [3]}}, "sweep.speed", "unknown rule option"),
    ({"sweep": {"control_points": [3, 99]}}, "sweep",
     "rule option control_points must be an integer 0-20, got 99"),
    ({"variants": {"a": {"speed": 3}}}, "variants.a.speed", "unknown rule option"),
    ({"variants": {"a": 3}}, "variants.a", "must be a table of rule options"),
    ({"variants": {"a": {"bank_track": [3, 5]}}}, "variants.a", "bank_track must be"),
    ({"variants": {"a": {"control_points": 3}, "b": {"control_points": 3}}}, "variants",
     "variants 'a' and 'b' are the same game"),
    ({"variants": {"a": {"east_west_points": [7, 4, 2]}}}, "variants",
     "variants 'default' and 'a' are the same game"),
    ({"variants": {"default": {"control_points": 3}}}, "variants.default", "kept for the "
                                                                           "unchanged game"),
])
def test_bad_sweeps_name_the_field(fields: dict[str, object], where: str, message: str) -> None:
    with pytest.raises(ExperimentError) as info:
        normalize_experiment(spec(**fields))
    assert info.value.field == where
    assert message in info.value.message


def test_sweeps_read_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "knobs.toml"
    path.write_text('games = 2\nplayers = [3, 4]\n[arms]\nr = ["random"]\n[variants]\n'
                    'rich = {bank_track = [4, 6, 8, "all"], start_merchants = 0}\n'
                    'bag = {marker_set = {extra = 3, swap = 3, move3 = 3, plus4 = 6}}\n')
    exp = normalize_experiment(load_experiment(path))
    assert len(exp.conditions) == 6
    rich = dict(exp.conditions[1].options)
    assert rich == {"bank_track": (4, 6, 8, "all"), "start_merchants": 0}
    assert dict(exp.conditions[2].options)["marker_set"] == {"extra": 3, "swap": 3, "move3": 3,
                                                             "plus4": 6}
    shipped = normalize_experiment(load_experiment(EXPERIMENTS / "rule_knobs.toml"))
    assert shipped.base_variant == "printed" and len(shipped.conditions) == 8


def test_every_variant_plays_the_same_deals_and_rotations() -> None:
    exp = normalize_experiment(spec(games=4, arms={"mix": ["random:gather=false", "random",
                                                           "random"]},
                                    sweep={"control_points": [2, 3]}))
    design = Design(exp)
    per = {}
    for g in design:
        per.setdefault(g.config.tuning.control_points, []).append((g.seed, g.rotation,
                                                                    g.lineup))
    assert per[2] == per[3] and len(per[2]) == 6  # 2 deals x 3 rotations


def run(tmp_path: Path, **fields: object):  # type: ignore[no-untyped-def]
    return run_experiment(spec(**fields), out=tmp_path / "run", progress=False, n_jobs=1)


def test_a_small_sweep_run_compares_each_variant_with_the_unchanged_game(
        tmp_path: Path) -> None:
    res = run(tmp_path, name="knobs", games=10, log="summary", variants={
        # random players never take an Emperor's Favour tile: the bonus changes nothing
        "no_effect": {"favour_control_bonus": 9},
        "short": {"prestige_to_end": 10},
        "rich": {"control_points": 6}})
    manifest = res.manifest["configuration"]
    assert manifest["base_variant"] == "default"
    assert [c["variant"] for c in manifest["conditions"]] == ["default", "no_effect", "short",
                                                              "rich"]
    options = set(res.games["options"])
    assert options == {"{}", '{"favour_control_bonus": 9}', '{"prestige_to_end": 10}',
                       '{"control_points": 6}'}
    table = res.variants()
    assert set(table["variant"]) == {"no_effect", "short", "rich"}
    assert set(table["measure"]) == {"score", "first_seat_win", "rounds"}  # no mixed line-up
    row = table.set_index(["variant", "measure"])
    assert (row.loc[("no_effect", "score"), "diff"], row.loc[("no_effect", "rounds"), "diff"]) \
        == (0.0, 0.0)  # the very same games, deal by deal
    # the issue's case (notebook 06's East–West variants): identical games say so
    assert row.loc[("no_effect", "score"), "verdict"] == "never came into play"
    assert row.loc[("no_effect", "rounds"), "text"].startswith(
        "this rule never came into play in these games: all 10 paired games ended exactly")
    assert row.loc[("short", "rounds"), "verdict"] == "lowers"
    assert row.loc[("rich", "score"), "verdict"] == "raises"
    assert row.loc[("rich", "rounds"), "diff"] == 0.0  # control scores only at the end
    assert (table["deals"] == 10).all() and (table["n"] == 10).all()
    # the other summaries name the variant in their options column
    seats = res.seats()
    assert set(seats["options"]) == {"default", "no_effect", "short", "rich"}
    report = res.report()
    assert "Rule variants vs 'default'" in report
    # rounds is secondary to the first seat's advantage: shown, labelled, without a word
    assert "rounds, short: secondary, does not decide: -" in report
    assert "short: lowers" not in report
    assert "no_effect: this rule never came into play in these games" in report


def test_a_sweep_with_a_mixed_line_up_compares_the_focal_strategy(tmp_path: Path) -> None:
    res = run(tmp_path, games=6, players=[3], log="summary",
              arms={"mix": ["random:gather=false", "random", "random"]},
              sweep={"ability_points": [4, 12]})
    table = res.variants()
    assert set(table["measure"]) == {"score", "first_seat_win", "focal_win", "rounds"}
    assert (table["n"] == 6).all() and (table["deals"] == 2).all()  # 2 deals x 3 rotations
    assert set(table["variant"]) == {"ability_points=12"}
    assert set(res.summary()["options"]) == {"default", "ability_points=12"}


def test_hansa_lab_run_prints_the_variant_section(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sweep.toml"
    path.write_text('name = "sw"\ngames = 4\nplayers = 3\n'
                    'log = "summary"\n[arms]\nr = ["random"]\n[sweep]\ncontrol_points = [3]\n')
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Rule variants vs 'default'" in out and "control_points=3" in out


def test_balance_objective_per_variant_and_the_most_balanced_in_a_length_band(
        tmp_path: Path) -> None:
    res = run(tmp_path, games=8, log="full", arms={
        "mix": ["random:gather=false", "random", "random"]},
        sweep={"prestige_to_end": [10, 20]})
    table = res.balance(turns=True)
    assert list(table["options"]) == ["default", "prestige_to_end=10"]
    assert (table["games"] == 9).all()  # 3 deals x 3 rotations
    assert (table["fair"] == 1 / 3).all()
    ends = table[["end_prestige", "end_cities", "end_markers", "end_other"]].sum(axis=1)
    assert ends.round(9).eq(1.0).all()
    short, full = (table.set_index("options").loc[v] for v in ("prestige_to_end=10",
                                                                "default"))
    assert short["rounds"] < full["rounds"]
    assert 0 <= full["seat_gap"] <= 2 / 3 and full["strategy_spread"] >= 0
    assert full["adv_lo"] <= full["first_seat_adv"] <= full["adv_hi"]
    assert table["lead_changes"].notna().all()
    band = (short["rounds"] - 0.5, short["rounds"] + 0.5)
    # one variant in the band: nothing to compare it with
    assert res.most_balanced(rounds=band).empty
    assert res.most_balanced(rounds=band).outside_band == ("default",)
    assert res.most_balanced(rounds=(0, 1)).empty
    # 9 games per variant cannot tell two variants apart: the answer abstains
    both = res.most_balanced()
    assert both.answer.word == "cannot tell yet" and len(both.best_set) == 2
    assert "Balance per variant" in res.report()
