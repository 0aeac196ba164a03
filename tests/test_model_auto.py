"""``model=auto``, the learned players' default: in each game the newest shipped generation
of the model trained for the game's board family and player count, else of
``learned_base4p``."""

from __future__ import annotations

import pytest

from hansa_lab.engine.board import board_family
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.play import play_game
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.learned import (
    AUTO_MODEL,
    FALLBACK_MODEL,
    MODEL_FOLDER,
    model_for,
    shipped_models,
)

#: the per-configuration models the package ships (besides the base 4-player ones), each
#: configuration's newest generation: East and Britannia at 4 players have a generation 1
#: trained on ``strong``'s games of those boards
PER_CONFIG = {(4, "britannia"): "learned_britannia4p_g1", (3, "base"): "learned_base3p_g1",
              (5, "base"): "learned_base5p", (4, "east"): "learned_east4p_g1",
              (5, "britannia"): "learned_britannia5p"}


def test_the_learned_players_default_to_auto():
    for name in ("learned", "learned_rollout", "strong"):
        assert make_strategy(name).params["model"] == AUTO_MODEL


@pytest.mark.parametrize(("n", "board"), sorted(PER_CONFIG))
def test_auto_picks_the_model_trained_for_the_board_and_player_count(n, board):
    name = PER_CONFIG[(n, board)]
    assert name in shipped_models()
    assert model_for(GameConfig(n, board)) == name
    # a board given as its side, another edition or a rule option: the same model
    side = GameConfig(n, board).side
    assert model_for(GameConfig(n, side, "original", options={"prestige_to_end": 25})) == name


#: the newest self-play generation of the base 4-player model (trained on ``strong``'s games)
NEWEST_BASE = "learned_base4p_g2"


def test_auto_falls_back_to_the_base_four_player_models_newest_generation():
    assert FALLBACK_MODEL == "learned_base4p"
    assert model_for(GameConfig(4, "base")) == NEWEST_BASE
    assert model_for(None) == NEWEST_BASE
    for n, board in ((2, "base"), (3, "east"), (5, "east"), (3, "britannia")):
        name = f"learned_{board}{n}p"
        if not (MODEL_FOLDER / f"{name}.json").is_file():
            assert model_for(GameConfig(n, board)) == NEWEST_BASE


def test_the_newest_generation_is_the_largest_number_not_the_last_name(tmp_path, monkeypatch):
    from hansa_lab.strategies import learned

    for stem in ("learned_moon4p", "learned_moon4p_g2", "learned_moon4p_g10",
                 "learned_moon4p_gold", "learned_moon4p_g3x", "learned_sun4p"):
        (tmp_path / f"{stem}.json").write_text("{}")
    monkeypatch.setattr(learned, "MODEL_FOLDER", tmp_path)
    assert learned._newest("learned_moon4p") == "learned_moon4p_g10"
    assert learned._newest("learned_sun4p") == "learned_sun4p"


def test_board_family_of_every_side_and_a_clear_error():
    assert [board_family(s) for s in ("base_3p", "base_45p", "east", "britannia_3p",
                                      "britannia_45p")] == ["base", "base", "east",
                                                            "britannia", "britannia"]
    with pytest.raises(ValueError, match="unknown board side 'moon'"):
        board_family("moon")


def test_an_auto_player_plays_the_configurations_model_in_both_engines():
    """The same game as the player naming the model, in the core's loop and in the Python
    engine's (which builds one twin per model it meets), and not the base model's."""
    config = GameConfig(4, "britannia", seed=11)
    name = PER_CONFIG[(4, "britannia")]
    auto = play_game(config, ["learned"] * 4, max_actions=160, engine="core")
    named = play_game(config, [f"learned:model={name}"] * 4, max_actions=160, engine="core")
    base = play_game(config, [f"learned:model={FALLBACK_MODEL}"] * 4,
                              max_actions=160, engine="core")
    assert auto.actions == named.actions
    assert auto.actions != base.actions
    player = make_strategy("learned")
    assert player.learned_model_for(config).name == name
    assert player.learned_model_for(GameConfig(4, "base")).name == NEWEST_BASE
    py = play_game(config, ["learned"] * 4, max_actions=60)
    assert py.actions == auto.actions[:60]
    # one twin per model the player meets
    for cfg in (config, GameConfig(4, "base", seed=3), config):
        state = new_game(cfg)
        player.choose(state, legal_actions(state), Rng(1))
    assert set(player._twins) == {name, NEWEST_BASE}


def test_a_named_model_that_is_missing_fails_when_the_player_is_made():
    with pytest.raises(ValueError, match="no learned model 'learned_moon9p'"):
        make_strategy("learned:model=learned_moon9p")
