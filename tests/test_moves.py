"""Move analysis: paired, reproducible continuations per candidate, the actual move
marked, the hidden bag re-dealt, and a game's costliest decisions found."""

from __future__ import annotations

from collections import Counter

import pytest

from hansa_lab.engine.actions import Action
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game, states_of
from hansa_lab.studies.moves import analyse_moves, continuations, costly_decisions, redeal

CONFIG = GameConfig(3, seed=2)


@pytest.fixture(scope="module")
def game():
    return play_game(CONFIG, "greedy,random,random")


def test_candidates_are_valued_by_paired_reproducible_continuations(game) -> None:
    s = states_of(CONFIG, game.actions[:30])[-1]
    a = analyse_moves(s, "random", n=6, top_k=3, actual=game.actions[30])
    b = analyse_moves(s, "random", n=6, top_k=3, actual=game.actions[30])
    assert a.equals(b)  # same seeds, same numbers
    assert len(a) in (3, 4) and a["actual"].sum() == 1
    assert (a["mean_score"].diff().dropna() <= 0).all()  # best first
    assert a["vs_best"].iloc[0] == 0 and (a["vs_best"] <= 0).all()
    assert ((a["score_lo"] <= a["mean_score"]) & (a["mean_score"] <= a["score_hi"])).all()
    assert ((a["win_lo"] >= 0) & (a["win_hi"] <= 1)).all()
    c = analyse_moves(s, "random", n=6, top_k=3, seed=99)
    assert not c["mean_score"].equals(a["mean_score"].head(len(c)))


def test_top_k_follows_the_strategy_evaluation_and_rejects_illegal_moves(game) -> None:
    s = states_of(CONFIG, game.actions[:30])[-1]
    every = analyse_moves(s, "random", n=2)
    assert len(every) == len(legal_actions(s))
    with pytest.raises(ValueError, match="not legal"):
        analyse_moves(s, "random", n=2, candidates=[Action("relocate", 0)])
    with pytest.raises(ValueError, match="at least 2"):
        analyse_moves(s, "random", n=1)
    with pytest.raises(ValueError, match="game is over"):
        analyse_moves(game.final, "random", n=2)


def test_the_same_move_twice_gets_the_same_continuations(game) -> None:
    """Pairing: continuation j of every candidate shares its seeds and bag order, so a
    candidate listed twice differs from itself by exactly 0."""
    s = states_of(CONFIG, game.actions[:30])[-1]
    a = legal_actions(s)[0]
    table = analyse_moves(s, "random", n=5, candidates=[a, a])
    assert table["mean_score"].nunique() == 1
    assert (table[["vs_best", "vs_best_lo", "vs_best_hi"]] == 0).all().all()


def test_the_hidden_bag_is_redealt_per_continuation(game) -> None:
    s = states_of(CONFIG, game.actions[:10])[-1]
    other = redeal(s, "1")
    assert Counter(other.bag) == Counter(s.bag) and other.bag != s.bag
    assert redeal(s, "1").bag == other.bag  # keyed: the same for every candidate
    dist = continuations(s, "random", n=4)
    assert list(dist.columns) == ["continuation", "seat", "score", "win_share"]
    assert len(dist) == 12 and dist.groupby("continuation").win_share.sum().eq(1).all()
    fixed = continuations(s, "random", n=4, redeal_bag=False)
    assert not fixed.equals(dist)


def test_costly_decisions_of_a_game(game) -> None:
    worst = costly_decisions(CONFIG, game.actions[:24], "random", seat=0, n=4, top_k=2,
                             every=2, limit=3)
    assert 1 <= len(worst) <= 3 and (worst["seat"] == 0).all()
    assert (worst["cost"].diff().dropna() <= 0).all() and (worst["cost"] >= 0).all()
    assert (worst["position"] % 2 == 0).all() and (worst["position"] < 24).all()
