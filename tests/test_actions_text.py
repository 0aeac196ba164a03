"""Every action's text form parses back to the same action; bad text is rejected."""

from __future__ import annotations

import pytest

from hansa_lab.engine.actions import format_action, parse_action
from hansa_lab.engine.board import load_board
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.state import GameConfig
from hansa_lab.errors import ActionParseError
from hansa_lab.play import play_game


def round_trip_kinds(config: GameConfig) -> set[str]:
    """Play a random game; at every position each legal action's text parses back to
    the action. Returns the action kinds seen."""
    seen: set[str] = set()

    def on_step(before, action, after):
        for a in legal_actions(before):
            text = format_action(before.board, a)
            assert parse_action(before.board, text) == a, text
            seen.add(a.kind)

    play_game(config, ["random"] * config.n_players, on_step=on_step)
    return seen


@pytest.mark.parametrize("n,edition", [(3, "bigbox"), (4, "original"), (5, "bigbox")])
def test_every_legal_action_round_trips(n, edition):
    seen = round_trip_kinds(GameConfig(n, edition=edition, seed=n))
    assert {"income", "place", "displace", "move", "establish", "end"} <= seen


@pytest.mark.parametrize(
    "config",
    [GameConfig(4, "east", seed=47), GameConfig(3, "britannia", seed=98),
     GameConfig(2, "base", seed=21), GameConfig(4, seed=125, options=(("emperor", True),))],
    ids=["east", "britannia", "two_players", "emperor"],
)
def test_variant_actions_round_trip(config):
    """The golden games of the other boards and variants: permanent markers, neutral
    relocation, Emperor's Favour actions included."""
    seen = round_trip_kinds(config)
    assert seen & {"perm_move", "perm_place", "perm_kontor", "relocate", "favour", "favour_take"}


@pytest.mark.parametrize(
    "text,board",
    [("perm move r1.9 r2", "east"), ("perm kontor Atlantis trader", "east"),
     ("perm develop wisdom", "east"), ("favour golden_key plus3 swap", "base_3p"),
     ("favour take knight", "base_3p"), ("perm place r1 from r99.0", "britannia_3p")],
)
def test_bad_variant_text_is_rejected(text, board):
    with pytest.raises(ActionParseError):
        parse_action(load_board(board), text)


@pytest.mark.parametrize(
    "text",
    ["", "fly r1", "place r99 trader", "place r1 knight", "displace r1.9 trader pay 0",
     "establish r1 kontor Atlantis", "marker swap Hamburg 9", "income x 1"],
)
def test_bad_text_is_rejected_with_a_message(text):
    with pytest.raises(ActionParseError) as e:
        parse_action(load_board("base_3p"), text)
    assert str(e.value)


def test_every_action_kind_names_its_arguments():
    from hansa_lab.engine.actions import ACTION_KINDS, ARGUMENTS, Action

    assert set(ACTION_KINDS) == set(ARGUMENTS)
    assert Action("income", 2, 1).args() == {"traders": 2, "merchants": 1}
    assert Action.of("relocate_extra", route=4, from_post=9) == Action("relocate_extra", 4, -1, 9)
    with pytest.raises(ValueError, match="no argument 'post'"):
        Action.of("place", post=3)


def test_repr_is_pasteable():
    from hansa_lab.engine.actions import Action

    a = parse_action(load_board("base_3p"), "establish r5 develop keys")
    assert eval(repr(a), {"Action": Action}) == a
    assert repr(a).startswith("Action.of('establish', route=")


def test_every_legal_action_reads_as_a_plain_sentence():
    """describe_action: on the boards and variants, every legal action at every
    position is a sentence naming its seat and the game's places, without codes."""
    import re

    from hansa_lab.engine.narrate import describe_action

    code = re.compile(r"\br\d+|_|\{")
    seen: set[str] = set()
    configs = [GameConfig(3, seed=3), GameConfig(4, "east", seed=47),
               GameConfig(3, "britannia", seed=98), GameConfig(2, "base", seed=21),
               GameConfig(4, seed=18, options=(("emperor", True),))]  # a favour is offered
    for config in configs:
        def on_step(before, action, after):
            seat = before.current_player
            for a in legal_actions(before):
                text = describe_action(before.board, a, seat, before)
                assert text.startswith(f"Seat {seat} "), text
                assert not code.search(text), text
                seen.add(a.kind)

        play_game(config, ["random"] * config.n_players, on_step=on_step)
    assert {"income", "place", "displace", "move", "move_piece", "establish", "end",
            "marker", "relocate", "favour"} <= seen


def test_describe_action_example():
    from hansa_lab.engine.actions import Action
    from hansa_lab.engine.narrate import describe_action

    b = load_board("base_3p")
    r = next(r for r in range(b.n_routes) if b.route_name(r) == "Arnheim–Münster")
    assert describe_action(b, Action("place", r, 0), 2) == (
        "Seat 2 places a trader on Arnheim–Münster")
    assert format_action(b, Action("place", r, 0)) == f"place r{r} trader"  # unchanged
    assert describe_action(b, Action("end"), 1) == "Seat 1 ends the turn"


def test_describe_tells_what_the_last_action_caused_in_words():
    from hansa_lab.engine.text import describe

    rec = play_game(GameConfig(3, seed=7), ["random"] * 3)
    text = describe(rec.final)
    assert "last action caused:" in text and "Game over: " in text
    assert "game_end" not in text
