"""All-``learned`` tables: they finish their games within the usual length on every board
and player count (they used to pass and shuffle pieces until the action cap), and the
player's fallback to greedy is reproducible from the seed."""

from __future__ import annotations

import pytest

from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game

#: a game of the usual length ends well before this round (`hansa-lab lengths`; the
#: issue's bound for any board and player count)
MAX_ROUNDS = 60


@pytest.mark.parametrize("n_players,board,seed", [
    (3, "base", 7_100_000), (4, "base", 7_100_001), (5, "base", 7_100_002),
    (4, "east", 7_100_003), (4, "britannia", 7_100_004),
])
def test_an_all_learned_table_ends_within_the_usual_length(n_players, board, seed):
    config = GameConfig(n_players, board=board, seed=seed)
    rec = play_game(config, ["learned"] * n_players, max_actions=5_000, engine="core")
    assert rec.final.end_reason is not None, f"no end after {len(rec.actions)} actions"
    assert rec.final.round <= MAX_ROUNDS
    # building, not only moving: the stalled tables spent 90% of their actions on Moves,
    # their steps, Stops and Ends (greedy tables on these deals: 20-47%)
    moves = sum(a.kind in ("move", "move_piece", "stop", "end") for a in rec.actions)
    assert moves < 0.6 * len(rec.actions)


def test_an_all_learned_table_is_reproducible_from_its_seed():
    config = GameConfig(4, seed=7_100_010)
    lineup = ["learned"] * 4
    a = play_game(config, lineup, engine="core")
    assert play_game(config, lineup, engine="core").actions == a.actions
    assert play_game(GameConfig(4, seed=7_100_011), lineup, engine="core").actions != a.actions


def test_without_exploration_the_fallback_still_ends_the_game():
    rec = play_game(GameConfig(4, seed=7_100_020), ["learned:explore=0"] * 4,
                    max_actions=5_000, engine="core")
    assert rec.final.end_reason is not None and rec.final.round <= MAX_ROUNDS


def test_the_generation_2_model_records_strongs_self_play_and_the_counter():
    """``learned_base4p_g2``: trained on ``strong``'s games (on generation 0) and on those of
    the counter tuned against it; ``auto`` plays it at 4 players on the base board."""
    from hansa_lab.strategies.learned import find_model, load_model, model_for

    m = load_model(find_model("learned_base4p_g2"))
    lineups = m.meta["training"]["data"]["lineups"]
    assert lineups[0] == ",".join(["strong:model=learned_base4p"] * 4)
    assert lineups[1].startswith("greedy:") and "ability=2.932" in lineups[1]
    assert m.meta["training"]["command"].startswith("hansa-lab learn")
    assert all(f"--lineup {x}" in m.meta["training"]["command"] for x in lineups)
    assert model_for(GameConfig(4, seed=1)) == "learned_base4p_g2"


def test_the_generation_1_model_is_shipped_and_records_its_self_play():
    from hansa_lab.strategies.learned import find_model, load_model, shipped_models

    assert "learned_base4p_g1" in shipped_models()
    m = load_model(find_model("learned_base4p_g1"))
    command = m.meta["training"]["command"]
    assert command.startswith("hansa-lab learn") and "--lineup learned" in command
    assert m.meta["training"]["data"]["lineups"][0] == "learned,learned,learned,learned"
    spec = "learned:model=learned_base4p_g1"
    rec = play_game(GameConfig(4, seed=7_100_030), [spec, "greedy", "greedy", spec], engine="core")
    assert rec.final.end_reason is not None


def test_the_rollout_with_learned_leaves_is_legal_and_reproducible():
    from hansa_lab.strategies import make_strategy

    spec = "learned_rollout:candidates=3,samples=1,horizon=1"
    config = GameConfig(3, seed=7_100_040)
    lineup = [spec, "greedy", "greedy"]
    a = play_game(config, lineup, check=True, engine="core")  # every action checked by the rules
    assert a.final.end_reason is not None
    assert play_game(config, lineup, engine="core").actions == a.actions
    assert play_game(config, lineup).actions == a.actions  # the Python engine
    assert play_game(GameConfig(3, seed=7_100_041), lineup, engine="core").actions != a.actions
    assert make_strategy("learned_rollout").params["samples"] == 2
    with pytest.raises(ValueError, match="candidates"):
        make_strategy("learned_rollout:candidates=0")


def test_the_searchs_gap_prunes_candidates_alike_in_both_engines():
    """``gap``: only candidates within it of the best one-ply value are played out (the
    core's unit test checks that a gap of 0 plays the one-ply choice at every unique best).
    A small gap changes the game, and both engines play the changed game alike."""

    config = GameConfig(4, seed=7_100_050)
    pruned = ["learned_rollout:samples=1,gap=0.02", "greedy", "learned", "greedy"]
    full = ["learned_rollout:samples=1", "greedy", "learned", "greedy"]
    a = play_game(config, pruned, check=True, engine="core")
    assert a.final.end_reason is not None
    assert play_game(config, pruned).actions == a.actions
    assert play_game(config, full, engine="core").actions != a.actions
