"""Rule options for the printed numbers (hansa_lab/engine/options.py): validation, the
option table and its generated document, and for every option a constructed position whose
result changes with it — checked in the Python engine and in the compiled core (the
helpers ask the core too; set-up positions are compared with the core's own set-up)."""

from __future__ import annotations

import json
from pathlib import Path

import core_check
import pytest
from helpers import (
    act,
    city,
    give_markers,
    illegal,
    own_route,
    place_kontors,
    play,
    position,
    ready,
    rt,
    set_level,
    set_offices,
    set_pool,
    settle,
    trader,
)

from hansa_lab.compiled.bridge import CoreGame
from hansa_lab.engine.decisions import Move
from hansa_lab.engine.options import (
    OPTIONS,
    RULE_OPTIONS,
    options_markdown,
    options_text,
)
from hansa_lab.engine.scoring import score_breakdown
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.tools.cli import main
from hansa_lab.tools.parity import parity_game, random_tuning

DOC = Path(__file__).resolve().parents[1] / "docs" / "rule_options.md"


def breakdown(s: State) -> list[dict[str, int]]:
    """The Python engine's final breakdown, after checking the core's on the position."""
    core_check.check_scores(s)
    return score_breakdown(s)


def set_up(n: int = 3, **options: object) -> State:
    """A new game in Python, checked equal to the core's set-up of the same configuration."""
    config = GameConfig(n, seed=3, options=tuple(options.items()))
    s = new_game(config)
    assert CoreGame(config).to_state() == s
    return s


# --------------------------------------------------------------------------- the table
def test_the_document_is_generated_from_the_table() -> None:
    assert DOC.read_text("utf-8") == options_markdown(), (
        "docs/rule_options.md is out of date: hansa-lab options --markdown > "
        "docs/rule_options.md")
    for o in OPTIONS:
        assert f"| `{o.name}` |" in DOC.read_text("utf-8")


def test_options_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["options"]) == 0
    out = capsys.readouterr().out
    assert out == options_text()
    assert all(name in out for name in RULE_OPTIONS)
    assert main(["options", "--markdown"]) == 0
    assert capsys.readouterr().out == options_markdown()


def test_defaults_given_explicitly_are_the_printed_game() -> None:
    every = {name: value for name, value in RULE_OPTIONS.items()}
    plain, explicit = GameConfig(4, seed=9), GameConfig(4, seed=9, options=every)
    assert plain.tuning == explicit.tuning
    a, b = new_game(plain), new_game(explicit)
    assert a.__getstate__() | {"config": None} == b.__getstate__() | {"config": None}


@pytest.mark.parametrize(("options", "message"), [
    ({"east_west_points": [7, 4, 2, 1, 1, 1]}, "east_west_points must be None (the board's) "
                                               "or a list of 0-5 integers 0-50"),
    ({"control_points": 2.5}, "control_points must be an integer 0-20, got 2.5"),
    ({"control_points": True}, "control_points must be an integer 0-20, got True"),
    ({"ability_points": 31}, "ability_points must be an integer 0-30"),
    ({"favour_control_bonus": -1}, "favour_control_bonus must be an integer 0-20"),
    ({"favour_abilities_bonus": "3"}, "favour_abilities_bonus must be an integer 0-30"),
    ({"marker_points": []}, "marker_points must be a list of 1-20 integers 0-99"),
    ({"region_points": [7, -4]}, "region_points must be a list of 0-5 integers 0-50"),
    ({"cities_to_end": 0}, "cities_to_end must be None (the board's number) or an integer 1-27"),
    ({"actions_track": [2, 3, 3, 4, 4]}, "actions_track must be a list of 6 integers 1-15, "
                                         "never decreasing"),
    ({"actions_track": [3, 2, 3, 4, 4, 5]}, "never decreasing"),
    ({"bank_track": [3, 5, "all", 7]}, "bank_track must be a list of 4 entries"),
    ({"bank_track": [3, 5, 7, "any"]}, "each an integer 1-30 or \"all\""),
    ({"book_track": [0, 3, 4, 5]}, "book_track must be a list of 4 integers 1-15"),
    ({"keys_track": [1, 2, 2, 3]}, "keys_track must be a list of 5 integers 0-15"),
    ({"start_supply_seats": [5, 6]}, "start_supply_seats must be None or a list of 3-5 "
                                     "integers 0-11"),
    ({"start_supply_seats": [5, 6, 12]}, "start_supply_seats must be"),
    ({"start_supply": 4, "start_supply_seats": [5, 6, 7]}, "exclude each other"),
    ({"start_merchants": 2}, "start_merchants must be an integer 0-1"),
    ({"marker_set": {"extra": 4, "gold": 1}}, "marker_set must be None (the edition's) or a "
                                              "table of counts 0-9 by kind"),
    ({"marker_set": {"extra": 1, "swap": 1}}, "marker_set must hold the start markers "
                                              "(extra, swap, move3)"),
    ({"start_markers": 4}, "start_markers must be an integer 0-3"),
])
def test_bad_values_name_the_option_and_the_allowed_values(options: dict[str, object],
                                                          message: str) -> None:
    with pytest.raises(ValueError, match="rule option") as info:
        GameConfig(3, options=options)
    assert message in str(info.value)


def test_option_values_are_normalised_hashable_and_json() -> None:
    c = GameConfig(3, options={"bank_track": [3, 5, 7, "all"], "marker_set": {
        "plus4": 2, "extra": 3, "swap": 1, "move3": 1, "remove3": 0}})
    assert dict(c.options)["bank_track"] == (3, 5, 7, "all")
    assert hash(c) == hash(GameConfig(3, options=dict(c.options)))
    text = json.dumps(dict(c.options), sort_keys=True)
    assert GameConfig(3, options=json.loads(text)) == c  # a games-table row reads back


def test_parity_draws_random_non_default_values() -> None:
    drawn = [dict(random_tuning(GameConfig(n, seed=s))) for s in range(60) for n in (3, 4)]
    names = {k for d in drawn for k in d}
    assert names >= set(RULE_OPTIONS) - {"special_points", "start_supply", "prestige_to_end",
                                         "east_alternative", "emperor"}
    for d in drawn:
        assert all(v != RULE_OPTIONS[k] for k, v in d.items() if k != "start_markers")
    for seed in (3, 4, 5):
        config = GameConfig(3, seed=seed, options=random_tuning(GameConfig(3, seed=seed)))
        steps, bad = parity_game(config, max_actions=3000)
        assert bad is None and steps > 0


# --------------------------------------------------------------------------- scoring
CHAIN = ("Stendal", "Brunswick", "Minden", "Münster", "Arnheim")


def east_west(holders: tuple[int, ...], **options: object) -> State:
    """Player 0 holds a Kontor in every East-West chain city but Arnheim and owns
    Münster–Arnheim; ``holders`` connected before."""
    s = position(4, seed=11, **options)
    s.east_west = holders
    for name in CHAIN[:-1]:
        shape = s.board.office_shape[s.board.office_start[city(s, name)]]
        set_offices(s, name, [trader(0) + shape])
    own_route(s, "Münster", "Arnheim", 0)
    return settle(s)


@pytest.mark.parametrize(("holders", "points"), [((), 5), ((1,), 1), ((1, 2), 0)])
def test_east_west_points(holders: tuple[int, ...], points: int) -> None:
    s = east_west(holders, east_west_points=(5, 1))
    s2 = play(s, f"establish {rt(s, 'Münster', 'Arnheim')} kontor Arnheim")
    assert s2.prestige[0] == 1 + points  # Münster's control point, then the award
    assert s2.east_west == (holders if points == 0 else (*holders, 0))
    printed = play(east_west(holders), f"establish {rt(s, 'Münster', 'Arnheim')} kontor Arnheim")
    assert printed.prestige[0] == 1 + (7, 4, 2)[len(holders)]


def controls(**options: object) -> State:
    s = position(3, seed=5, **options)
    place_kontors(s, "Hamburg", [0, 0, 1])
    place_kontors(s, "Osnabrück", [0])
    return ready(s)


def test_control_points() -> None:
    assert [b["control"] for b in breakdown(controls(control_points=5))] == [10, 0, 0]
    assert [b["control"] for b in breakdown(controls())] == [4, 0, 0]


def with_tile(s: State, tile: str) -> State:
    """Player 0 holds the Emperor's Favour ``tile``."""
    s.favour_display = tuple(t for t in s.favour_display if t != tile)[: s.n_players - 1]
    s.favours = tuple((tile,) if p == 0 else () for p in range(s.n_players))
    return ready(s)


def test_favour_control_bonus() -> None:
    s = with_tile(controls(emperor=True, favour_control_bonus=5), "control_4")
    assert breakdown(s)[0]["control"] == (2 + 5) * 2
    s = with_tile(controls(emperor=True, control_points=3), "control_4")
    assert breakdown(s)[0]["control"] == (3 + 2) * 2  # the tile keeps its printed +2


def developed(**options: object) -> State:
    s = position(3, seed=5, **options)
    set_level(s, 0, "book", 3)
    set_level(s, 0, "bank", 3)
    return ready(s)


def test_ability_points() -> None:
    assert breakdown(developed(ability_points=10))[0]["abilities"] == 20
    assert breakdown(developed())[0]["abilities"] == 8


def test_favour_abilities_bonus() -> None:
    s = with_tile(developed(emperor=True, favour_abilities_bonus=0), "abilities_7")
    assert breakdown(s)[0]["abilities"] == 8
    s = with_tile(developed(emperor=True), "abilities_7")
    assert breakdown(s)[0]["abilities"] == 14


@pytest.mark.parametrize(("n", "points", "printed"), [(1, 2, 1), (2, 5, 3), (4, 5, 6)])
def test_marker_points(n: int, points: int, printed: int) -> None:
    def markers(**options: object) -> State:
        s = position(3, seed=5, **options)
        give_markers(s, 1, unused=["plus3"] * min(n, 2), used=["extra"] * (n - min(n, 2)))
        return ready(s)

    assert breakdown(markers(marker_points=(2, 5)))[1]["markers"] == points
    assert breakdown(markers())[1]["markers"] == printed


def test_region_points() -> None:
    def wales(**options: object) -> State:
        s = position(3, board="britannia", seed=2, **options)
        place_kontors(s, "Cardiff", [0, 0, 1])
        place_kontors(s, "Pembroke", [0])
        place_kontors(s, "Conway", [1])
        place_kontors(s, "Montgomery", [2, 1])
        place_kontors(s, "Chester", [2])
        return ready(s)

    # p0 and p1 tie for 1st (2 cities, 3 Kontors), p2 is 3rd (1 city)
    assert [b["regions"] for b in breakdown(wales(region_points=(10, 5)))] == [7, 7, 0]
    assert [b["regions"] for b in breakdown(wales(region_points=(10, 6, 3, 1)))] == [8, 8, 3]
    assert [b["regions"] for b in breakdown(wales())] == [5, 5, 2]


def test_keys_track() -> None:
    def network(**options: object) -> State:
        s = position(3, seed=5, **options)
        place_kontors(s, "Hamburg", [0])
        place_kontors(s, "Lübeck", [0])
        set_level(s, 0, "keys", 2)
        return ready(s)

    assert breakdown(network(keys_track=(1, 1, 5, 6, 9)))[0]["network"] == 2 * 5
    assert breakdown(network())[0]["network"] == 2 * 2


# --------------------------------------------------------------------------- end
def test_cities_to_end() -> None:
    def stade(**options: object) -> State:
        s = position(3, seed=5, **options)
        own_route(s, "Hamburg", "Stade", 0, n_merchants=1)  # Stade: one circle office
        return settle(s)

    s = stade(cities_to_end=1)
    s2 = play(s, f"establish {rt(s, 'Hamburg', 'Stade')} kontor Stade")
    assert (s2.completed, s2.end_reason) == (1, "cities")
    s = stade()
    assert play(s, f"establish {rt(s, 'Hamburg', 'Stade')} kontor Stade").end_reason is None


# --------------------------------------------------------------------------- tracks
def test_actions_track() -> None:
    values = (1, 2, 2, 3, 3, 9)
    s = set_up(actions_track=values)
    assert s.actions_left == 1
    s = act(s, "income 1 0")  # the only action: the turn passes
    assert (s.active, s.actions_left) == (1, 1)
    s = position(3, seed=5, actions_track=values)
    set_level(s, 0, "actions", 4)
    r = own_route(s, "Quedlinburg", "Göttingen", 0)
    settle(s)
    s.actions_left = 3
    s2 = play(s, f"establish r{r} develop actions")
    assert s2.actions_left == 3 - 1 + (9 - 3)


def test_bank_track() -> None:
    s = position(3, seed=5, bank_track=(1, 2, "all", "all"))
    set_pool(s, 0, supply=(0, 0))
    ready(s)
    illegal(s, "income 2 0", "limited to 1")
    act(s, "income 1 0")
    set_level(s, 0, "bank", 2)
    set_pool(s, 0, supply=(0, 0))
    ready(s)
    everything = act(s, f"income {s.stock_t[0]} {s.stock_m[0]}")
    assert (everything.stock_t[0], everything.stock_m[0]) == (0, 0)


def test_book_track() -> None:
    s = position(3, seed=5, book_track=(1, 1, 2, 9))
    own_route(s, "Hamburg", "Bremen", 0)
    settle(s)
    assert act(s, "move").pending == (Move(0, left=1),)
    set_level(s, 0, "book", 3)
    settle(s)
    assert act(s, "move").pending == (Move(0, left=9),)


# --------------------------------------------------------------------------- set-up
def test_start_supply_seats() -> None:
    s = set_up(start_supply_seats=(8, 0, 3, 11))
    assert (s.supply_t, s.stock_t) == ([8, 0, 3], [3, 11, 8])
    assert set_up().supply_t == [5, 6, 7]


def test_start_merchants() -> None:
    s = set_up(start_merchants=0)
    assert (s.supply_m, s.stock_m) == ([0, 0, 0], [1, 1, 1])
    illegal(s, "income 0 2", "general stock holds only 6 traders, 1 merchants")
    assert act(s, "income 0 1").supply_m[0] == 1


def test_marker_set() -> None:
    s = set_up(marker_set={"extra": 1, "swap": 1, "move3": 1, "plus4": 5, "remove3": 2})
    assert sorted(s.bag) == ["plus4"] * 5 + ["remove3"] * 2
    assert sorted(m for m in s.route_marker if m) == ["extra", "move3", "swap"]


def test_start_markers() -> None:
    s = set_up(start_markers=1)
    assert [m for m in s.route_marker if m] == ["extra"]
    assert sorted(s.bag).count("swap") == 3 and sorted(s.bag).count("move3") == 2
    assert len(s.bag) == 14
    s = set_up(start_markers=0, marker_set={"plus3": 1})
    assert (s.route_marker.count(None), s.bag) == (s.board.n_routes, ("plus3",))


# --------------------------------------------------------------------------- whole games
SIX = ["greedy", "actions_first", "blocker", "network_keys", "keep_supply", "random"]


@pytest.mark.parametrize("k", range(3))
def test_core_strategies_decide_as_in_python_with_tuned_numbers(k: int) -> None:
    from hansa_lab.play import play_game

    plain = GameConfig(3, board=("base", "east", "britannia")[k], seed=900 + k)
    config = plain.replace(options=random_tuning(plain))
    lineup = [SIX[(2 * k + i) % len(SIX)] for i in range(3)]
    py = play_game(config, lineup, max_actions=300)
    in_core = play_game(config, lineup, max_actions=300, engine="core")
    assert in_core.actions == py.actions and in_core.final == py.final


def test_the_turns_table_scores_with_the_games_numbers() -> None:
    import pandas as pd

    from hansa_lab.sim.logs import record_game, to_frame

    config = GameConfig(3, seed=4, options={"control_points": 6, "marker_points": [5],
                                            "keys_track": [2, 3, 3, 4, 9]})
    rows = [record_game(config, ["random"] * 3, 0, engine=e) for e in ("core", "python")]
    a, b = (to_frame("turns", r["turns"]) for r in rows)
    pd.testing.assert_frame_equal(a, b)


def test_play_takes_rule_options_in_both_engines(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for engine in ("core", "python"):
        assert main(["play", "--players", "3", "--seed", "2", "--engine", engine, "--json",
                     "--option", "control_points=5", "--option",
                     'bank_track=[3,5,7,"all"]']) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    controls = [p["breakdown"]["control"] for p in json.loads(outputs[0])["players"]]
    assert all(c % 5 == 0 for c in controls) and any(controls)
    assert main(["play", "--players", "3", "--option", "control_points=55"]) == 2
    assert "--option: rule option control_points must be an integer 0-20" in (
        capsys.readouterr().err)


def test_the_options_text_numbers_seats_from_0(capsys) -> None:
    """The issue's case: `hansa-lab options` said "seat 1 … seat k gets this + k − 1"
    while everything else numbers seats from 0 (seat 0 moves first)."""
    assert main(["options"]) == 0
    out = capsys.readouterr().out
    assert "seat 0's personal supply" in out and "seat k gets this + k " in out
    assert "seat 1" not in out and "k - 1" not in out
    config = GameConfig(4, seed=1, options={"start_supply": 4})
    assert list(new_game(config).supply_t[:4]) == [4, 5, 6, 7]  # seat k: 4 + k
