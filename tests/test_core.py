"""The compiled rules core (hansa_lab._core) against the Python engine: the shared
generator, set-up, whole random games, conversions both ways, illegal and garbage input,
every configuration covered, and the parity tiers (fast here, more games in ``slow``)."""

from __future__ import annotations

import dataclasses

import pytest
from tiers import sample, size

from hansa_lab import _core
from hansa_lab.compiled.bridge import CoreGame, play_random_game, state_fields
from hansa_lab.engine.actions import ACTION_KINDS, Action
from hansa_lab.engine.rng import Rng, seat_stream
from hansa_lab.engine.rules import apply, apply_in_place, legal_actions
from hansa_lab.engine.scoring import score_rows
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.errors import IllegalActionError
from hansa_lab.play import play_game, states_of
from hansa_lab.tools.parity import parity_configs, run_parity

CONFIGS = [parity_configs(seed) for seed in range(40)]


def test_generator_is_the_same_in_both_languages():
    for seed in (0, 1, 7, 2**63 + 5, (1 << 64) - 1):
        r = Rng(seed)
        assert [r.next_u64() for _ in range(50)] == _core.rng_outputs(seed & ((1 << 64) - 1), 50)
    r = seat_stream(3, 1)
    assert r.state != Rng(3).state


def test_generator_methods():
    r = Rng(11)
    xs = [r.below(6) for _ in range(600)]
    assert set(xs) == set(range(6))
    assert all(0 <= r.random() < 1 for _ in range(100))
    items = list(range(10))
    r.shuffle(items)
    assert sorted(items) == list(range(10))
    assert len(set(r.sample(range(20), 5))) == 5
    assert 3 <= r.randrange(3, 5) < 5
    with pytest.raises(IndexError):
        r.choice([])


@pytest.mark.parametrize("config", CONFIGS[:20], ids=lambda c: f"{c.n_players}p-{c.seed}")
def test_setup_is_the_same(config):
    assert CoreGame(config).to_state() == new_game(config)


@pytest.mark.parametrize("seed", range(20))
def test_whole_random_games_are_the_same(seed):
    config = parity_configs(seed)
    game, actions = play_random_game(config)
    rec = play_game(config, ["random"] * config.n_players)
    assert actions == rec.actions
    assert game.to_state() == rec.final
    assert game.score_rows() == score_rows(rec.final)


@pytest.mark.parametrize("seed", [5, 7, 9])
def test_conversion_both_ways_at_every_step(seed):
    config = parity_configs(seed)
    rec = play_game(config, ["random"] * config.n_players)
    for state in states_of(config, rec.actions)[::3]:
        core = CoreGame.from_state(state)
        assert core.to_state() == state
        assert core.legal_actions() == legal_actions(state)
        assert core.score_rows() == score_rows(state)


def test_every_configuration_is_covered():
    sides = {(c.side, c.n_players, c.option("east_alternative")) for c in
             map(parity_configs, range(200))}
    assert {s for s, _, _ in sides} == {"base_3p", "base_45p", "east", "britannia_3p",
                                         "britannia_45p"}
    assert ("east", 4, True) in sides and ("base_3p", 2, False) in sides
    assert CoreGame(GameConfig(4, "east", options=(("east_alternative", True),))).to_state() \
        == new_game(GameConfig(4, "east", options=(("east_alternative", True),)))


def _python_error(state, action):
    try:
        apply(state, action)
    except Exception as e:
        return type(e), str(e)
    return None


def _core_error(game, action):
    try:
        game.apply(action)
    except Exception as e:
        return type(e), str(e)
    return None


@pytest.mark.parametrize("seed", [3, 9])
def test_illegal_actions_raise_what_python_raises(seed):
    config = parity_configs(seed)
    rec = play_game(config, ["random"] * config.n_players)
    rng = Rng(1)
    checked = 0
    for state in states_of(config, rec.actions)[::5]:
        legal = legal_actions(state)
        for _ in range(6):
            kind = rng.choice(ACTION_KINDS)
            action = Action(kind, rng.randrange(-2, 120), rng.randrange(-2, 6),
                            rng.randrange(-2, 6))
            if action in legal:
                continue
            game = CoreGame.from_state(state)
            expected = _python_error(state, action)
            assert expected is not None and expected[0] is IllegalActionError
            assert _core_error(game, action) == expected
            assert game.to_state() == state  # unchanged
            checked += 1
    assert checked > 100


def test_garbage_input_never_crashes():
    config = parity_configs(2)
    game = CoreGame(config)
    state = game.to_state()
    rng = Rng(5)
    garbage = [None, "x", 1.5, -(10**30), 10**30, b"\x00", (), [], {}, "place", -1, 2**31]
    for _ in range(300):
        action = Action(rng.choice([*ACTION_KINDS, "nope", ""]),
                        *(rng.choice(garbage) for _ in range(3)))
        expected = _python_error(state, action)
        assert _core_error(game, action) == expected
        assert game.to_state() == state
        # the raw binding never raises for garbage: it says "not applied"
        assert game._s.try_apply(*(rng.choice(garbage) for _ in range(4))) is False
    for bad in ("place r0 trader", ("place", 0, 0, -1), None):
        assert _core_error(game, bad) == (IllegalActionError, f"not an Action: {bad!r}")


def test_malformed_states_raise_value_errors():
    config = parity_configs(3)
    state = new_game(config)
    fields = state_fields(state)
    rng = Rng(8)
    junk = [None, -5, 999, [1, 2], [[-7]], "abc", [300], [[0, 0, 0, 0, 9]], 2**40]
    game = CoreGame(config)
    for _ in range(400):
        broken = dict(fields)
        key = rng.choice(sorted(fields))
        broken[key] = rng.choice(junk)
        try:
            game._s.set_fields(broken)
        except ValueError:
            continue
        # accepted: then it must still be playable without a crash
        game.legal_actions()
        game.score_rows()
    for bad in ([("relocate", 0, 99, 0, 1)], [("move", 7, 2)], [("nothing", 0)],
                [("relocate_neutral", 0, 1, 0, 1)]):
        with pytest.raises(ValueError, match="pending"):
            game._s.set_fields({**fields, "pending": bad})
    with pytest.raises(ValueError, match="posts"):
        CoreGame.from_state(dataclasses.replace(state, posts=[0] * 5))


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_one_step_at_a_time_matches_with_events(seed):
    config = parity_configs(seed)
    state = new_game(config)
    game = CoreGame(config)
    rng = Rng(3)
    kinds = set()
    for _ in range(600):
        legal = legal_actions(state)
        if not legal:
            break
        a = rng.choice(legal)
        apply_in_place(state, a)
        game.apply(a)
        assert game.events() == state.events
        kinds.update(e.kind for e in state.events)
    assert game.to_state() == state
    assert "establish" in kinds


# ----------------------------------------------------------------------- parity tiers
#: the fast tier: 4 chunks of games over every covered configuration, about 200,000
#: actions compared in all (each chunk asserts its share)
FAST_CHUNKS = 4
FAST_GAMES = 90


@pytest.mark.parametrize("chunk", range(FAST_CHUNKS))
def test_parity_fast_tier(chunk):
    out = run_parity(FAST_GAMES, first_seed=chunk * FAST_GAMES)
    assert out["mismatches"] == 0, out["first_mismatch"]
    assert out["games"] == FAST_GAMES
    assert out["actions_compared"] >= 45_000


@pytest.mark.slow
@pytest.mark.parametrize("chunk", sample(range(16), keep=2))
def test_parity_slow_tier(chunk):
    """16 x 500 games: about 5 million actions compared (the bounded tier: 2 x 100 games
    on the same seeds as the full tier's first two chunks; about 100 s of CPU instead of
    about 70 minutes)."""
    games = size(500, 100)
    out = run_parity(games, first_seed=100_000 + chunk * 500)
    assert out["mismatches"] == 0, out["first_mismatch"]
    assert out["games"] == games
    assert out["actions_compared"] >= 500 * games


@pytest.mark.parametrize(("seed", "lineup"), [(0, ["greedy", "random"]),
                                              (2, ["random:establish=false", "random"]),
                                              (7, ["random"])])
def test_core_play_game_is_play_game(seed, lineup):
    config = parity_configs(seed)
    a = play_game(config, lineup)
    b = play_game(config, lineup, check=seed == 2, engine="core")
    assert b.actions == a.actions
    assert b.final == a.final
    assert b.result() == a.result()


def test_cli_play_prints_the_same_with_both_engines(capsys):
    from hansa_lab.tools.cli import main

    out = []
    for engine in ("core", "python"):
        assert main(["play", "--players", "3", "--board", "britannia", "--seed", "2",
                     "--strategies", "random,greedy,random", "--json", "--actions",
                     "--engine", engine]) == 0
        out.append(capsys.readouterr().out)
    assert out[0] == out[1] and '"actions"' in out[0]
