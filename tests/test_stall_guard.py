"""The stall guard: ``games.quiet_rounds`` (the longest run of whole rounds without any
prestige or Kontor change, recomputed here from the replayed states) and ``games.stalled``
(beyond the run's ``stall_rounds``), named by the report."""

from __future__ import annotations

import itertools

import pytest

from hansa_lab.engine.state import EMPTY, GameConfig
from hansa_lab.errors import ExperimentError
from hansa_lab.play import play_game, states_of
from hansa_lab.sim.runner import simulate


def _quiet_rounds(config: GameConfig, actions) -> int:
    """From every state of the game: the positions where a new round has begun, then the
    longest run of consecutive equal (prestige, Kontors) between them."""
    keys = []
    states = states_of(config, actions)
    for before, after in itertools.pairwise(states):
        if after.round != before.round:
            kontors = sum(o != EMPTY for o in after.offices) + sum(map(len, after.extras))
            keys.append((tuple(after.prestige), kontors))
    longest = run = 0
    for a, b in itertools.pairwise(keys):
        run = run + 1 if a == b else 0
        longest = max(longest, run)
    return longest


def test_quiet_rounds_match_the_replayed_game_and_stalled_games_are_reported():
    res = simulate(["random"], n_games=8, n_players=3, progress=False, stall_rounds=3)
    games = res.games
    for row in games.itertuples():
        cfg = GameConfig(3, seed=int(row.seed))
        rec = play_game(cfg, ["random"] * 3)
        assert row.quiet_rounds == _quiet_rounds(cfg, rec.actions), row.game_id
    assert (games.stalled == (games.quiet_rounds > 3)).all()
    assert games.stalled.any() and not games.stalled.all()  # some, as random play goes
    flagged = sorted(games.game_id[games.stalled])
    assert sorted(res.stalled().game_id) == flagged
    text = res.report()
    assert f"{len(flagged)} game(s) stalled (more than 3 rounds" in text
    assert str(flagged[0]) in text
    assert res.manifest["configuration"]["stall_rounds"] == 3


def test_default_and_validation():
    res = simulate(["random"], n_games=2, n_players=3, progress=False, log="summary")
    assert not res.games.stalled.any() and "stalled" not in res.report()
    assert res.manifest["configuration"]["stall_rounds"] == 20
    for bad in (0, -1, 2.5, "3"):
        with pytest.raises(ExperimentError, match="stall_rounds"):
            simulate(["random"], n_games=2, n_players=3, progress=False, stall_rounds=bad)
