"""Every ability development records the city it came from, the same in both engines."""

from __future__ import annotations

import pytest

from hansa_lab.engine.board import ABILITIES
from hansa_lab.sim.runner import simulate


@pytest.mark.parametrize("board", ["base", "east"])
def test_develop_events_name_the_ability_city_in_both_engines(board):
    tables = {engine: simulate({"a": ["greedy", "network_keys", "actions_first"]},
                               n_games=2, n_players=3, board=board, seed=5,
                               progress=False, engine=engine)
              for engine in ("python", "core")}
    ev = {e: t.events[t.events.kind == "develop"].reset_index(drop=True)
          for e, t in tables.items()}
    assert ev["python"][["game_id", "seat", "city", "detail", "value"]].equals(
        ev["core"][["game_id", "seat", "city", "detail", "value"]])
    dev = ev["core"]
    from_city = dev[dev.city != ""]
    assert len(from_city) >= 5
    # each named city offers the ability developed there
    from hansa_lab.engine.state import GameConfig, new_game

    b = new_game(GameConfig(3, board=board)).board
    offers = {b.city_names[c]: {ABILITIES[a] for a in b.cities[c].abilities}
              for c in range(len(b.city_names))}
    assert all(row.detail in offers[row.city] for row in from_city.itertuples())
    # developments by bonus marker carry no city
    used = tables["core"].events
    marker_turns = used[(used.kind == "marker_used") & (used.detail == "develop")]
    if len(marker_turns):
        assert (dev.city == "").sum() >= 1
