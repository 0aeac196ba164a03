"""Every variant and every rule option has a golden playthrough (tests/test_golden.py
replays each in both engines): each board side, edition and player count the boards
declare, and each rule option of the option table (``engine/options.py``) set away from
its default in some golden game. The lists come from the declarations, so a new board,
edition or option without a golden fails here until ``scripts/make_goldens.py --games``
writes one."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from hansa_lab.engine.board import BOARD_SIDES, load_board
from hansa_lab.engine.options import OPTIONS, RULE_OPTIONS
from hansa_lab.engine.state import GameConfig
from hansa_lab.engine.vocabulary import EDITIONS
from hansa_lab.golden import GOLDEN_GAMES

Games = list[tuple[str, GameConfig, list[str]]]


def _changed_options(config: GameConfig) -> set[str]:
    """The rule options ``config`` sets away from their defaults."""
    return {name for name, value in config.options if value != RULE_OPTIONS[name]}


def declared_variants() -> dict[str, set[Any]]:
    """What a golden must cover, from the declarations: board sides, editions, player
    counts (of every side) and rule options."""
    return {
        "board side": set(BOARD_SIDES),
        "edition": set(EDITIONS),
        "player count": {n for side in BOARD_SIDES for n in load_board(side).players},
        "rule option": {o.name for o in OPTIONS},
    }


def covered(games: Games) -> dict[str, set[Any]]:
    """What ``games`` cover, in the keys of :func:`declared_variants`."""
    configs = [config for _, config, _ in games]
    return {
        "board side": {c.side for c in configs},
        "edition": {c.edition for c in configs},
        "player count": {c.n_players for c in configs},
        "rule option": set().union(*(_changed_options(c) for c in configs)),
    }


def uncovered(games: Games) -> list[str]:
    """Each declared variant no golden game covers, as ``kind: value``."""
    have = covered(games)
    return [f"{kind}: {value}" for kind, values in declared_variants().items()
            for value in sorted(values - have[kind], key=str)]


def test_every_variant_and_rule_option_has_a_golden():
    missing = uncovered(GOLDEN_GAMES)
    assert not missing, ("no golden game covers " + ", ".join(missing) + " (add one to "
                         "GOLDEN_GAMES in hansa_lab/golden.py and write it with "
                         "scripts/make_goldens.py --games NAME)")


def test_the_declared_lists_are_the_whole_tables():
    declared = declared_variants()
    assert declared["board side"] == {"base_3p", "base_45p", "east", "britannia_3p",
                                      "britannia_45p"}
    assert declared["player count"] == {2, 3, 4, 5}
    assert declared["edition"] == {"bigbox", "original"}
    assert declared["rule option"] == set(RULE_OPTIONS)
    assert {"east_alternative", "emperor", "region_points", "start_supply"} <= set(RULE_OPTIONS)
    assert len(RULE_OPTIONS) >= 20


def test_a_golden_left_out_or_an_option_at_its_default_is_found():
    by_name = {game[0]: game for game in GOLDEN_GAMES}
    without = [g for g in GOLDEN_GAMES if g[0] != "east4_alternative_original_seed13"]
    assert uncovered(without) == ["rule option: east_alternative"]
    britannia = by_name["tuned_britannia4_original_seed6"]
    without = [g for g in GOLDEN_GAMES if g[0] != britannia[0]]
    assert uncovered(without) == ["rule option: region_points", "rule option: start_supply"]
    # an option written with its default value covers nothing
    name, config, strategies = britannia
    at_default = GameConfig(config.n_players, config.board, config.edition, config.seed,
                            (("region_points", RULE_OPTIONS["region_points"]),
                             ("start_supply", 4)))
    assert "rule option: region_points" in uncovered([*without, (name, at_default, strategies)])
    only_two = [by_name["two_players_bigbox_seed21"]]
    missing = uncovered(only_two)
    assert "board side: east" in missing and "player count: 5" in missing
    assert "edition: original" in missing and "rule option: emperor" in missing


def test_the_variant_goldens_use_their_variant():
    """The East alternative golden establishes in the disputed cities, the tuned ones
    play with tuned numbers the rules read (``config.tuning``)."""
    by_name = {name: config for name, config, _ in GOLDEN_GAMES}
    alternative = by_name["east4_alternative_original_seed13"]
    primary = GameConfig(4, "east", "original", 13)
    assert alternative.load_board() != primary.load_board()
    tuned = by_name["tuned3_bigbox_seed4"].tuning
    printed = GameConfig(3, "base", "bigbox", 4).tuning
    differing = {f.name for f in fields(tuned)
                 if getattr(tuned, f.name) != getattr(printed, f.name)}
    assert len(differing) >= 14, differing
    britannia = by_name["tuned_britannia4_original_seed6"].tuning
    assert britannia.region_points == (9, 5, 2, 1)
    assert britannia.start_supply == (4, 5, 6, 7)
