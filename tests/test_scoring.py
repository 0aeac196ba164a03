"""Final scoring (RULES.md, "End of game and final scoring"): categories, the worked example
of seed 001 (Léa, 82 points), tie-breaks and the live projected score."""

from __future__ import annotations

import random

import core_check
import pytest
from helpers import (
    SIDES,
    city,
    give_markers,
    merchant,
    set_extras,
    set_kontors,
    set_level,
    settle,
    trader,
)

from hansa_lab.engine.actions import Action
from hansa_lab.engine.invariants import check_state
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import (
    CATEGORIES,
    city_controller,
    final_scores,
    largest_network,
    ranking,
    winners,
)
from hansa_lab.engine.scoring import score_breakdown as _score_breakdown
from hansa_lab.engine.state import EMPTY, GameConfig, State, new_game


def score_breakdown(s: State, *args: object) -> list[dict[str, int]]:
    """The Python engine's breakdown, after checking that the compiled core agrees (its
    breakdown and ranking of the same position)."""
    core_check.check_scores(s)
    return _score_breakdown(s, *args)  # type: ignore[arg-type]


ZERO = dict.fromkeys(CATEGORIES, 0)


def base(n: int = 3) -> State:
    """A fresh game on the base board: 3p side for 3 players, 4-5p side for 4."""
    return new_game(GameConfig(n_players=n, board="base", seed=5))


def totals(s: State) -> list[int]:
    return [sum(x.values()) for x in score_breakdown(s)]


# --------------------------------------------------------------------------- seed 001
def lea_position() -> State:
    """Seed 001's worked example for Léa (player 0) on the 3-player base board:
    18 track, Actions and Privilege fully developed, 7 markers (some used), a merchant on
    Coellen's 9-point space, control of 5 cities, a 9-Kontor network, City Keys at 3."""
    s = base(3)
    s.prestige[0] = 18
    set_level(s, 0, "actions", 5)
    set_level(s, 0, "privilege", 3)
    set_level(s, 0, "book", 2)  # not full; frees the merchants used below
    set_level(s, 0, "keys", 3)  # keys value 3
    give_markers(
        s, 0, unused=["extra", "swap", "plus3"], used=["plus4", "develop", "move3", "plus4"]
    )
    s.special[2] = merchant(0)  # pink space, 9 points
    # a network Lübeck–Hamburg–{Stade, Bremen, Lüneburg}, Bremen/Lüneburg–Hannover
    set_kontors(s, "Hamburg", [0, 0, 0])
    set_kontors(s, "Lübeck", [0, 0])
    set_kontors(s, "Stade", [0])
    set_kontors(s, "Bremen", [0])
    set_kontors(s, "Lüneburg", [0])
    set_kontors(s, "Hannover", [0, 1])  # 1-1 tie, player 1 rightmost: not Léa's city
    return settle(s)


def test_seed_001_lea_scores_82() -> None:
    s = lea_position()
    assert score_breakdown(s)[0] == {
        "track": 18,
        "abilities": 8,
        "markers": 10,
        "special": 9,
        "control": 10,
        "network": 27,
        "regions": 0,
    }
    assert final_scores(s)[0] == 82


def test_seed_001_other_player_and_winner() -> None:
    s = lea_position()
    assert score_breakdown(s)[1] == {**ZERO, "control": 2, "network": 1}
    assert winners(s) == [0]
    assert ranking(s) == [1, 2, 3]


# --------------------------------------------------------------------------- categories
@SIDES
def test_new_game_scores_zero(side: str, n: int) -> None:
    s = base(n)
    assert s.board.name == side
    assert score_breakdown(s) == [ZERO] * n
    assert final_scores(s) == [0] * n


def test_track_counts_as_it_stands() -> None:
    s = base()
    s.prestige[:] = [13, 0, 4]
    assert [x["track"] for x in score_breakdown(s)] == [13, 0, 4]


@pytest.mark.parametrize(
    ("ability", "full"), [("actions", 5), ("bank", 3), ("book", 3), ("privilege", 3)]
)
def test_four_points_per_fully_developed_ability(ability: str, full: int) -> None:
    s = base()
    set_level(s, 0, ability, full)
    set_level(s, 1, ability, full - 1)
    settle(s)
    got = [x["abilities"] for x in score_breakdown(s)]
    assert got == [4, 0, 0]


def test_all_four_abilities_full_score_sixteen_city_keys_excluded() -> None:
    s = base()
    for ability, full in (("actions", 5), ("bank", 3), ("book", 3), ("privilege", 3), ("keys", 4)):
        set_level(s, 0, ability, full)
    set_level(s, 1, "keys", 4)
    settle(s)
    br = score_breakdown(s)
    assert br[0]["abilities"] == 16
    assert br[1] == ZERO  # fully developed City Keys alone score nothing


@pytest.mark.parametrize(
    ("n_markers", "points"),
    [
        (0, 0),
        (1, 1),
        (2, 3),
        (3, 3),
        (4, 6),
        (5, 6),
        (6, 10),
        (7, 10),
        (8, 15),
        (9, 15),
        (10, 21),
        (12, 21),
    ],
)
def test_marker_table(n_markers: int, points: int) -> None:
    s = base()
    kinds = [m for m in s.bag][:n_markers]
    kinds += [m for m in s.route_marker if m is not None][: n_markers - len(kinds)]
    give_markers(s, 0, unused=kinds)
    settle(s)
    assert score_breakdown(s)[0]["markers"] == points


def test_used_and_unused_markers_both_count() -> None:
    s = base()
    give_markers(s, 0, unused=["plus3", "swap"], used=["extra", "develop"])
    give_markers(s, 1, used=["plus4", "plus4", "extra", "swap"])
    give_markers(s, 2, unused=["plus3", "extra", "develop", "swap"])
    settle(s)
    assert [x["markers"] for x in score_breakdown(s)] == [6, 6, 6]


@pytest.mark.parametrize(("space", "points"), [(0, 7), (1, 8), (2, 9), (3, 11)])
def test_special_prestige_space_points(space: int, points: int) -> None:
    s = base()
    s.special[space] = merchant(1)
    settle(s)
    assert [x["special"] for x in score_breakdown(s)] == [0, points, 0]


def test_special_prestige_several_spaces_add_up() -> None:
    s = base()
    set_level(s, 0, "book", 1)
    s.special[0] = merchant(0)
    s.special[3] = merchant(0)
    s.special[1] = merchant(2)
    settle(s)
    assert [x["special"] for x in score_breakdown(s)] == [18, 0, 8]


def test_two_points_per_controlled_city() -> None:
    s = base()
    set_kontors(s, "Hamburg", [1, 1, 2])  # majority: player 1
    set_kontors(s, "Minden", [1, 2])  # tie: rightmost, player 2
    set_kontors(s, "Osnabrück", [0])
    set_kontors(s, "Goslar", [0])
    settle(s)
    assert [x["control"] for x in score_breakdown(s)] == [4, 2, 2]


def test_extra_kontors_count_for_control_in_final_scoring() -> None:
    s = base()
    set_kontors(s, "Lübeck", [1, 2])
    set_extras(s, "Lübeck", [trader(2)])
    set_kontors(s, "Minden", [1])
    set_extras(s, "Minden", [trader(2)])  # 1-1: the extra Kontor is leftmost, so it loses
    settle(s)
    assert city_controller(s, city(s, "Lübeck")) == 2
    assert city_controller(s, city(s, "Minden")) == 1
    assert [x["control"] for x in score_breakdown(s)] == [0, 2, 2]


# --------------------------------------------------------------------------- network
def test_network_counts_kontors_not_cities() -> None:
    s = base()
    set_level(s, 0, "privilege", 3)
    set_kontors(s, "Hamburg", [0, 0, 0])
    set_kontors(s, "Lübeck", [0])
    settle(s)
    assert largest_network(s, 0) == 4
    assert score_breakdown(s)[0]["network"] == 4  # keys value 1


def test_only_the_largest_network_scores() -> None:
    s = base()
    set_kontors(s, "Hamburg", [0])
    set_kontors(s, "Lübeck", [0])  # network of 2
    set_kontors(s, "Arnheim", [0])
    set_kontors(s, "Duisburg", [0])
    set_kontors(s, "Dortmund", [0])  # network of 3 (Arnheim–Duisburg–Dortmund)
    settle(s)
    assert largest_network(s, 0) == 3
    assert score_breakdown(s)[0]["network"] == 3


def test_network_is_broken_by_a_city_without_own_kontor() -> None:
    s = base()
    set_kontors(s, "Hamburg", [0, 0])
    set_kontors(s, "Bremen", [1])  # Hamburg–Bremen–Hannover: Bremen is not player 0's
    set_kontors(s, "Hannover", [0, 0])
    settle(s)
    assert largest_network(s, 0) == 2
    set_kontors(s, "Bremen", [0])
    settle(s)
    assert largest_network(s, 0) == 5


def test_extra_kontors_count_in_the_network() -> None:
    s = base()
    set_kontors(s, "Hamburg", [1, 1, 1])
    set_extras(s, "Hamburg", [trader(0), merchant(0)])
    set_kontors(s, "Lübeck", [0])
    settle(s)
    assert largest_network(s, 0) == 3
    assert largest_network(s, 1) == 3


@pytest.mark.parametrize(("keys", "value"), [(0, 1), (1, 2), (2, 2), (3, 3), (4, 4)])
def test_network_times_highest_uncovered_city_keys(keys: int, value: int) -> None:
    s = base()
    set_level(s, 0, "keys", keys)
    set_kontors(s, "Hamburg", [0])
    set_kontors(s, "Lübeck", [0])
    set_kontors(s, "Stade", [0])
    settle(s)
    assert score_breakdown(s)[0]["network"] == 3 * value


# --------------------------------------------------------------------------- tie-breaks
def equalize(s: State, winner: int, other: int) -> None:
    """Adjust ``other``'s prestige track so both players have the same total."""
    t = totals(s)
    s.prestige[other] += t[winner] - t[other]
    assert s.prestige[other] >= 0
    assert totals(s)[winner] == totals(s)[other]


def test_higher_total_wins_regardless_of_actions() -> None:
    s = base()
    s.prestige[:] = [10, 11, 2]
    set_level(s, 1, "actions", 4)
    settle(s)
    assert winners(s) == [1]
    assert ranking(s) == [2, 1, 3]


def test_tie_fewest_actions_developments_wins() -> None:
    s = base()
    s.prestige[:] = [10, 10, 2]
    set_level(s, 0, "actions", 2)
    set_level(s, 1, "actions", 1)
    settle(s)
    assert totals(s)[0] == totals(s)[1]
    assert winners(s) == [1]
    assert ranking(s) == [2, 1, 3]


def test_tie_actions_before_network_points() -> None:
    s = base()
    set_level(s, 0, "actions", 0)
    set_level(s, 1, "actions", 1)
    set_kontors(s, "Hamburg", [1, 1, 1])  # player 1: much larger network
    set_kontors(s, "Lübeck", [0])
    s.prestige[1] = 3
    settle(s)
    equalize(s, 1, 0)
    assert score_breakdown(s)[1]["network"] > score_breakdown(s)[0]["network"]
    assert winners(s) == [0]


def test_tie_same_actions_most_network_points_wins() -> None:
    s = base()
    set_level(s, 0, "actions", 1)
    set_level(s, 1, "actions", 1)
    set_kontors(s, "Hamburg", [1, 1, 1])
    set_kontors(s, "Lübeck", [0])
    set_kontors(s, "Goslar", [0])
    s.prestige[0] = 1
    settle(s)
    equalize(s, 0, 1)
    br = score_breakdown(s)
    assert br[1]["network"] == 3 and br[0]["network"] == 1
    assert winners(s) == [1]


def test_tie_after_all_tie_breaks_is_a_shared_victory() -> None:
    s = base()
    s.prestige[:] = [7, 3, 7]
    set_level(s, 0, "actions", 1)
    set_level(s, 2, "actions", 1)
    set_kontors(s, "Lübeck", [0])
    set_kontors(s, "Hamburg", [2])
    settle(s)
    assert totals(s)[0] == totals(s)[2]
    assert winners(s) == [0, 2]
    assert ranking(s) == [1, 3, 1]


# --------------------------------------------------------------------------- live score
def builder_value(s: State, a: Action) -> int:
    """A crude builder: establish with a reward, else grow routes it already holds."""
    p = s.current_player
    if a.kind == "establish":
        return 100 if a.b != 0 else 0
    if a.kind == "place":
        occ = s.route_occupants(a.a)
        if any(o != EMPTY and o >> 1 != p for o in occ):
            return 1
        return 10 + occ.count(p * 2) + occ.count(p * 2 + 1)
    if a.kind == "income":
        return 5 + a.a + a.b
    return 2


def builder_midgame(seed: int, n: int, steps: int) -> State:
    """A reproducible game part-played by greedy builders (ties broken by a seeded rng)."""
    s = new_game(GameConfig(n_players=n, board="base", seed=seed))
    rng = random.Random(seed)
    for _ in range(steps):
        acts = legal_actions(s)
        if not acts:
            break
        best = max(builder_value(s, a) for a in acts)
        s = apply(s, rng.choice([a for a in acts if builder_value(s, a) == best]))
    check_state(s)
    return s


@pytest.mark.parametrize(("seed", "n"), [(1, 3), (2, 4), (3, 5)])
def test_live_projected_score_equals_breakdown_sum(seed: int, n: int) -> None:
    s = builder_midgame(seed, n, 150)
    assert s.end_reason is None
    assert any(final_scores(s))
    br = score_breakdown(s)
    assert final_scores(s) == [sum(x.values()) for x in br]
    assert [x["track"] for x in br] == s.prestige


def test_live_projected_score_of_a_constructed_midgame_state() -> None:
    s = base()
    s.prestige[:] = [5, 2, 0]
    set_level(s, 1, "keys", 1)
    set_kontors(s, "Hamburg", [1, 0])
    set_kontors(s, "Lübeck", [1])
    give_markers(s, 2, unused=["plus3"], used=["swap"])
    settle(s)
    assert s.end_reason is None
    # p0: 5 + control of Hamburg (tie, rightmost) 2 + network 1x1
    # p1: 2 + control of Lübeck 2 + network 2 x keys 2; p2: markers 3
    assert final_scores(s) == [8, 8, 3]
    assert s.offices.count(EMPTY) == len(s.offices) - 3
