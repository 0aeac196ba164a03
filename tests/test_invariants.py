"""The invariant checker (:mod:`hansa_lab.engine.invariants`) catches each kind of broken
state it names: every conformance test leans on it, so each check here is shown to fail on
a state broken in that one way (a mid-game position of a real game, copied and changed)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hansa_lab.engine.board import A_ACTIONS
from hansa_lab.engine.invariants import check_state, check_transition, piece_counts
from hansa_lab.engine.scoring import TRACK_MAX
from hansa_lab.engine.state import EMPTY, GameConfig, State
from hansa_lab.errors import InvariantError
from hansa_lab.play import play_game


def _mid_game() -> State:
    """A 4-player position after 120 actions of random play, with Kontors on the board."""
    rec = play_game(GameConfig(4, seed=11), ["random"] * 4, max_actions=120)
    state = rec.final
    assert any(o != EMPTY for o in state.offices) and any(o != EMPTY for o in state.posts)
    return state


MID = _mid_game()


def _occupied_office(s: State) -> int:
    return next(i for i, o in enumerate(s.offices) if o != EMPTY)


def _a_trader_to_stock(s: State) -> None:
    s.stock_t[0] += 1


def _merchant_vanishes(s: State) -> None:
    if s.supply_m[1]:
        s.supply_m[1] -= 1
    else:
        s.stock_m[1] -= 1


def _level_too_high(s: State) -> None:
    # one development past the track's end, the trader it uncovers put in the supply so
    # that the pieces still add up: only the level check can see it
    s.supply_t[2] += TRACK_MAX[A_ACTIONS] + 1 - s.levels[2][A_ACTIONS]
    s.levels[2][A_ACTIONS] = TRACK_MAX[A_ACTIONS] + 1


def _invalid_post(s: State) -> None:
    s.posts[0] = 2 * s.n_players + 3


def _gap_in_a_city(s: State) -> None:
    b = s.board
    first, second = next(
        (offices[0], offices[1]) for offices in map(b.city_offices, range(b.n_cities))
        if len(offices) >= 2 and s.offices[offices[0]] != EMPTY
        and s.offices[offices[1]] == EMPTY)
    # the Kontor moves one office to the right: a vacant office left of an occupied one
    s.offices[first], s.offices[second] = EMPTY, s.offices[first]


def _completed_count(s: State) -> None:
    s.completed += 1


def _marker_lost(s: State) -> None:
    s.bag = s.bag[1:]


def _player_out_of_range(s: State) -> None:
    s.active, s.pending = s.n_players, ()


CASES: list[tuple[str, Callable[[State], None], str]] = [
    ("a trader too many", _a_trader_to_stock, "has 28 traders"),
    ("a merchant missing", _merchant_vanishes, "merchants, not 27 and 4"),
    ("an ability beyond its track", _level_too_high, "player 2 ability 0 at level"),
    ("an unknown occupant", _invalid_post, "hold invalid occupants"),
    ("a gap in a city's offices", _gap_in_a_city, "gap left of an occupied office"),
    ("a wrong count of complete cities", _completed_count, "cities are complete"),
    ("a bonus marker lost", _marker_lost, "bonus markers not conserved"),
    ("the current player out of range", _player_out_of_range, "out of range"),
]


def test_the_mid_game_state_passes() -> None:
    check_state(MID)


@pytest.mark.parametrize(("what", "breaks", "says"), CASES, ids=[c[0] for c in CASES])
def test_each_broken_invariant_is_caught(what: str, breaks: Callable[[State], None],
                                         says: str) -> None:
    broken = MID.clone()
    breaks(broken)
    with pytest.raises(InvariantError, match=says) as err:
        check_state(broken)
    assert f"seed 11, turn {MID.turn}" in str(err.value), what


def test_a_piece_counted_twice_over_extras_and_offices_is_caught() -> None:
    broken = MID.clone()
    i = _occupied_office(broken)
    c = next(c for c in range(broken.board.n_cities) if i in broken.board.city_offices(c))
    broken.extras[c] = (*broken.extras[c], broken.offices[i])
    with pytest.raises(InvariantError, match=r"traders and \d+ merchants, not 27"):
        check_state(broken)


def test_the_piece_counts_with_and_without_a_shared_count_agree() -> None:
    from hansa_lab.engine.invariants import Occupancy

    shared = Occupancy.of(MID)
    for p in range(MID.n_players):
        assert piece_counts(MID, p, shared) == piece_counts(MID, p)
        assert sum(t for t, _ in piece_counts(MID, p).values()) == 27


def test_prestige_that_falls_is_caught() -> None:
    after = MID.clone()
    after.n_actions += 1
    after.prestige[0] = MID.prestige[0] - 1
    with pytest.raises(InvariantError, match="prestige fell"):
        check_transition(MID, after)
