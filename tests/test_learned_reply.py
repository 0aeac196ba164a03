"""``learned``'s ``reply`` knob: how far its decision looks at the other seats' answers
(0, the default: the one-ply decision; 1: a displacement valued after the displaced seat
has placed its pieces; 2: also the best candidates played through the next seat's turn).
An experiment on the seat defect ``hansa-lab audit learned`` finds (docs/results.md,
"Player audits"); here: the knob's range, that ``learned_rollout`` and ``strong`` do not
have it, that it changes the play, and that both engines play it alike."""

from __future__ import annotations

import pytest

from hansa_lab.engine.state import GameConfig
from hansa_lab.play import play_game
from hansa_lab.strategies import make_strategy


def test_reply_is_off_by_default_and_only_learned_has_it():
    assert make_strategy("learned").params["reply"] == 0
    assert make_strategy("learned:reply=2").params["reply"] == 2
    with pytest.raises(ValueError, match="reply"):
        make_strategy("learned:reply=3")
    for searching in ("learned_rollout", "strong", "strong_v2"):
        assert "reply" not in make_strategy(searching).params
        with pytest.raises(ValueError, match="reply"):
            make_strategy(f"{searching}:reply=1")


@pytest.mark.parametrize("reply", [1, 2])
def test_looking_at_the_replies_changes_the_play_and_is_reproducible(reply):
    config = GameConfig(n_players=4, seed=23)
    one_ply = play_game(config, ["learned"] * 4, max_actions=160, engine="core")
    lineup = [f"learned:reply={reply}"] * 4
    looking = play_game(config, lineup, max_actions=160, engine="core")
    assert looking.actions != one_ply.actions
    assert play_game(config, lineup, max_actions=160, engine="core").actions == looking.actions


def test_both_engines_play_the_replies_alike():
    config = GameConfig(n_players=4, seed=29)
    lineup = ["learned:reply=1", "learned:reply=2", "learned", "greedy"]
    py = play_game(config, lineup, max_actions=80)
    in_core = play_game(config, lineup, max_actions=80, engine="core")
    assert in_core.actions == py.actions and in_core.final == py.final
