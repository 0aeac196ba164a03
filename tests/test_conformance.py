"""Random-play conformance: invariants after every action, every listed legal action
applies, same seed same game, states survive pickling, games end by a rule.

The base board: the fast tier runs a few dozen games; the ``slow`` tier runs 2,000 (still
in CI). The other boards and variants (:data:`VARIANTS`: East, Britannia's two sides,
two players with the neutral colour, Emperor's Favour) get the same checks: a few games
in the fast tier, every legal action of a whole game and 100 games each (at least 99%
ending by a rule) in the ``slow`` tier.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest
from tiers import full_only, sample, size

from hansa_lab.engine.invariants import check_state, check_transition
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.play import play_game, replay

COMBOS = [(n, ed) for n in (3, 4, 5) for ed in ("bigbox", "original")]
END_REASONS = ("prestige", "markers", "cities")
_EMPEROR = (("emperor", True),)
#: the other boards and variants: (name, configuration; the seed is set per game)
VARIANTS: list[tuple[str, GameConfig]] = [
    ("east3", GameConfig(3, "east")),
    ("east4_original_alternative", GameConfig(
        4, "east", "original", options=(("east_alternative", True),))),
    ("east5", GameConfig(5, "east")),
    ("britannia3", GameConfig(3, "britannia")),
    ("britannia4_original", GameConfig(4, "britannia", "original")),
    ("britannia5", GameConfig(5, "britannia")),
    ("two_players", GameConfig(2, "base")),
    ("two_players_original", GameConfig(2, "base", "original")),
    ("emperor_base4", GameConfig(4, "base", options=_EMPEROR)),
    ("emperor_east3", GameConfig(3, "east", "original", options=_EMPEROR)),
    ("emperor_britannia5", GameConfig(5, "britannia", options=_EMPEROR)),
]
VARIANT_IDS = [v[0] for v in VARIANTS]


def _config(i: int, offset: int = 0) -> GameConfig:
    n, ed = COMBOS[i % len(COMBOS)]
    return GameConfig(n_players=n, edition=ed, seed=offset + i)


def _conformance_game(config: GameConfig, all_legal: bool, sample: int) -> str:
    """Play with the random policy; check invariants after every action, and that
    every (or a sample of) listed legal actions applies cleanly."""
    rng = random.Random(config.seed)
    steps: list = []

    def on_step(before, action, after):
        check_state(after)
        check_transition(before, after)
        legal = legal_actions(before)
        assert action in legal
        others = legal if all_legal else rng.sample(legal, min(sample, len(legal)))
        for a in others:
            nxt = apply(before, a)
            check_state(nxt)
            check_transition(before, nxt)
            if nxt.end_reason is None:
                assert legal_actions(nxt), f"no legal action after {a} but game not over"
        steps.append(action)

    rec = play_game(config, ["random"] * config.n_players, on_step=on_step)
    assert len(steps) == len(rec.actions)
    return rec.end_reason


@pytest.mark.parametrize(
    "i", [0, 1, *(pytest.param(i, marks=pytest.mark.slow) for i in range(2, 6)),
          # games 6 and 7 repeat the first two combinations: the full tier only
          *(pytest.param(i, marks=[pytest.mark.slow, full_only]) for i in (6, 7))]
)
def test_every_legal_action_applies(i):
    """One whole game per player count and edition (:data:`COMBOS`), every listed legal
    action applied at every step."""
    assert _conformance_game(_config(i, 100), all_legal=True, sample=0) in (
        "prestige", "markers", "cities"
    )


@pytest.mark.parametrize("i", range(24))
def test_random_play_invariants(i):
    assert _conformance_game(_config(i, 1000), all_legal=False, sample=3) != "cap"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", sample(range(20), keep=1))
def test_random_play_2000_games(chunk):
    """2,000 seeded games over 3-5 players and both editions (100 per chunk; the bounded
    tier plays the first chunk); at least 99% of each chunk must end by a rule end
    condition; capped games are counted, not dropped."""
    reasons: Counter[str] = Counter()
    for i in range(100):
        cfg = _config(chunk * 100 + i, 10_000)
        reasons[_conformance_game(cfg, all_legal=False, sample=1)] += 1
    assert sum(reasons.values()) == 100
    assert reasons["cap"] <= 1, reasons


def test_same_seed_same_game():
    for i in range(6):
        cfg = _config(i, 50)
        a = play_game(cfg, ["random"] * cfg.n_players)
        b = play_game(cfg, ["random"] * cfg.n_players)
        assert a.actions == b.actions
        assert a.final == b.final
        assert replay(cfg, a.actions) == a.final
        assert replay(cfg, a.action_texts()) == a.final


def test_different_seeds_differ():
    a = play_game(GameConfig(3, seed=1), ["random"] * 3)
    b = play_game(GameConfig(3, seed=2), ["random"] * 3)
    assert a.actions != b.actions


def test_setup_is_a_function_of_the_seed():
    assert new_game(GameConfig(4, seed=9)) == new_game(GameConfig(4, seed=9))
    layouts = {tuple(new_game(GameConfig(4, seed=s)).route_marker) for s in range(30)}
    assert len(layouts) == 6  # 3 start markers on 3 taverns: every permutation occurs
    bags = {new_game(GameConfig(4, seed=s)).bag for s in range(30)}
    assert len(bags) > 20


def test_states_survive_pickling_and_are_small():
    cfg = GameConfig(5, seed=77)
    sizes = []

    def on_step(before, action, after):
        if after.n_actions % 25 == 0 or after.is_over:
            blob = pickle.dumps(after)
            sizes.append(len(blob))
            back = pickle.loads(blob)
            assert back == after
            assert legal_actions(back) == legal_actions(after)
            check_state(back)

    play_game(cfg, ["random"] * 5, on_step=on_step)
    assert sizes and max(sizes) < 20_000


def test_apply_never_mutates_its_input():
    cfg = GameConfig(4, seed=3)
    rec = play_game(cfg, ["random"] * 4, max_actions=150)
    state = new_game(cfg)
    for a in rec.actions:
        before = pickle.dumps(state)
        nxt = apply(state, a)
        assert pickle.dumps(state) == before
        state = nxt


# ------------------------------------------------------------------ other boards, variants
@pytest.mark.parametrize("name,config", VARIANTS, ids=VARIANT_IDS)
@pytest.mark.parametrize("game", range(2))
def test_variant_random_play_invariants(name, config, game):
    cfg = config.replace(seed=2000 + game)
    assert _conformance_game(cfg, all_legal=False, sample=3) in END_REASONS


@pytest.mark.slow
@pytest.mark.parametrize("name,config", VARIANTS, ids=VARIANT_IDS)
def test_variant_every_legal_action_applies(name, config):
    assert _conformance_game(config.replace(seed=300), all_legal=True, sample=0) in END_REASONS


@pytest.mark.slow
@pytest.mark.parametrize("name,config", VARIANTS, ids=VARIANT_IDS)
def test_variant_random_play_100_games(name, config):
    """100 seeded games per board/variant (the bounded tier: 20); at least 99% end by a
    rule end condition."""
    reasons: Counter[str] = Counter()
    for i in range(size(100, 20)):
        reasons[_conformance_game(config.replace(seed=20_000 + i), all_legal=False, sample=1)] += 1
    assert reasons["cap"] <= 1, reasons


@pytest.mark.parametrize("name,config", VARIANTS, ids=VARIANT_IDS)
def test_variant_same_seed_same_game_and_pickling(name, config):
    cfg = config.replace(seed=51)
    a = play_game(cfg, ["random"] * cfg.n_players)
    b = play_game(cfg, ["random"] * cfg.n_players)
    assert a.actions == b.actions and a.final == b.final
    assert replay(cfg, a.action_texts()) == a.final
    back = pickle.loads(pickle.dumps(a.final))
    assert back == a.final and len(pickle.dumps(a.final)) < 20_000

