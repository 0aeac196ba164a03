"""The position text format (hansa_lab/engine/position.py, core/src/position/): states
of games on every board and player count round-trip in each engine and across them,
and malformed text is refused naming the field and its column."""

from __future__ import annotations

import pytest

from hansa_lab.compiled.bridge import (
    CoreGame,
    core_config,
    core_from_text,
    core_module,
    core_to_text,
)
from hansa_lab.engine.position import FIELDS, VERSION, PositionError, from_text, to_text
from hansa_lab.engine.rules import apply
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.play import play_game

_EMPEROR = (("emperor", True),)
#: every board side and player count, both editions and the rule variants
GAMES = [
    GameConfig(2, "base", "bigbox", 21), GameConfig(3, "base", "original", 4),
    GameConfig(4, "base", "bigbox", 5), GameConfig(5, "base", "original", 6),
    GameConfig(3, "east", "bigbox", 7), GameConfig(4, "east", "original", 8,
                                                     (("east_alternative", True),)),
    GameConfig(5, "east", "bigbox", 9), GameConfig(3, "britannia", "bigbox", 98),
    GameConfig(4, "britannia", "original", 10), GameConfig(5, "britannia", "bigbox", 11),
    GameConfig(4, "base", "bigbox", 125, _EMPEROR),
    GameConfig(3, "base", "bigbox", 12, (("control_points", 3), ("start_supply", 4))),
]


def sampled_states(config: GameConfig, every: int = 23) -> list[State]:
    rec = play_game(config, ["random"] * config.n_players)
    state, out = new_game(config), []
    for i, action in enumerate(rec.actions):
        if i % every == 0:
            out.append(state)
        state = apply(state, action)
    return [*out, state]


@pytest.mark.parametrize("config", GAMES, ids=lambda c: f"{c.side}_{c.n_players}p_{c.seed}")
def test_positions_round_trip_in_both_engines_and_across(config):
    for state in sampled_states(config):
        text = to_text(state)
        assert "\n" not in text and text.startswith(VERSION + " ")
        back = from_text(text, config)
        assert back == state and to_text(back) == text  # Python → Python
        game = core_from_text(text, config)  # Python writes, the core reads and writes
        assert core_to_text(game) == text
        assert game.to_state() == state
        twin = CoreGame.from_state(state, check=False)  # the core writes, Python reads
        assert from_text(core_to_text(twin), config) == state


def test_a_text_names_its_own_configuration():
    config = GameConfig(4, "base", "original", 3, _EMPEROR)
    state = new_game(config)
    read = from_text(to_text(state))
    assert read.config == config.replace(board="base_45p")
    assert to_text(read) == to_text(state)
    with pytest.raises(PositionError, match="field 'board'"):
        from_text(to_text(state), GameConfig(4, "base", "original", 4, _EMPEROR))


def _column_of(text: str, field: str) -> int:
    return text.index(f" {field}=") + len(field) + 3


def _token(text: str, field: str) -> str:
    return next(t for t in text.split() if t.startswith(field + "="))


BASE = to_text(new_game(GameConfig(3, seed=1)))
#: (field, the token's new text): each makes the text malformed in that field
MALFORMED = [
    ("posts", "posts=..x/"), ("supply_t", "supply_t=5,6"), ("levels", "levels=0000/00000/00000"),
    ("bag", "bag=xyz"), ("players", "players=9"), ("pending", "pending=fly:0"),
    ("pending", "pending=move:0"), ("route_marker", "route_marker=..."),
    ("options", "options={nope"), ("end_reason", "end_reason=boredom"),
    ("active", "active=3"), ("offices", "offices=0x"), ("neutral_pool", "neutral_pool=4"),
    ("levels", "levels=00009/00000/00000"), ("pending", "pending=relocate:0:999:0:1"),
    ("extras", "extras=." + _token(BASE, "extras")[len("extras=-"):]),
    ("special_points", "special_points=1,2"),
]


@pytest.mark.parametrize("field,token", MALFORMED, ids=[f"{f}:{t}" for f, t in MALFORMED])
def test_malformed_text_names_the_field_and_column_in_both_engines(field, token):
    start = BASE.index(f" {field}=") + 1
    end = BASE.index(" ", start) if " " in BASE[start:] else len(BASE)
    bad = BASE[:start] + token + BASE[end:]
    where = f"field '{field}' at column {_column_of(bad, field)}"
    with pytest.raises(PositionError) as e:
        from_text(bad)
    assert where in str(e.value)
    with pytest.raises(PositionError) as e:
        core_from_text(bad)
    assert where in str(e.value)
    if field not in ("board", "players", "edition", "seed", "options"):
        # past the configuration (which Python reads first), the core's own parser
        with pytest.raises(ValueError) as e:
            core_module().position_from_text(core_config(GameConfig(3, seed=1)), bad)
        assert where in str(e.value)


@pytest.mark.parametrize("bad,message", [
    ("", "version tag"), ("hansa0 board=base_3p", "version tag"),
    (BASE.replace(" bag=", " bug="), "expected field 'bag'"),
    (BASE.rsplit(" ", 1)[0], "field 'options' is missing"),
    (BASE + " extra=1", "unexpected text after the last field"),
    (BASE.replace(" turn=", "\nturn="), "one line"),
])
def test_misplaced_fields_are_refused_with_their_column(bad, message):
    with pytest.raises(PositionError, match=message):
        from_text(bad)
    with pytest.raises(PositionError, match="column"):
        from_text(bad)


def test_the_field_table_is_the_cores():
    assert BASE.split()[1:] and [t.split("=")[0] for t in BASE.split()[1:]] == list(FIELDS)
    with pytest.raises(PositionError):
        from_text(123)  # type: ignore[arg-type]
