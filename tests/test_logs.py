"""The logs' ``turns`` and ``events`` tables against the engine's own states.

The recorder keeps compact per-turn snapshots and derives several columns at the end of
the game (posts from piece conservation, score categories in bulk); these tests rebuild
every row the slow, obvious way from the replayed states and compare the whole table."""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np
import pandas as pd
import pytest

from hansa_lab.engine.actions import USES_AN_ACTION
from hansa_lab.engine.board import ABILITIES
from hansa_lab.engine.decisions import Relocate
from hansa_lab.engine.events import Event
from hansa_lab.engine.scoring import CATEGORIES, score_breakdown
from hansa_lab.engine.state import GameConfig, State
from hansa_lab.play import play_game, states_of
from hansa_lab.sim.logs import SCHEMA, _event_row, record_game, to_frame

CONFIGS = [
    GameConfig(3, seed=11),
    GameConfig(4, edition="original", seed=12),
    GameConfig(5, seed=13),
    GameConfig(2, seed=14),  # neutral colour: not a player, its pieces are not counted
    GameConfig(4, "east", seed=15),
    GameConfig(3, "britannia", seed=16),
    GameConfig(5, "britannia", seed=17),  # regions, Isle of Man in two regions
    GameConfig(4, seed=18, options={"emperor": True}),  # favour tiles change the scores
    GameConfig(3, seed=19, options={"start_supply": 3, "special_points": (1, 2, 3, 4)}),
]


def _pieces(s: State, p: int, occupants: list[int]) -> int:
    return occupants.count(2 * p) + occupants.count(2 * p + 1)


def expected_turns(config: GameConfig, max_actions: int | None = None) -> pd.DataFrame:
    """One row per player per turn, straight from the states (and a last partial turn
    when the game was cut by ``max_actions``)."""
    kwargs = {} if max_actions is None else {"max_actions": max_actions}
    rec = play_game(config, ["random"] * config.n_players, **kwargs)
    states = states_of(config, rec.actions)
    rows = []
    start, used = states[0], 0
    for i, action in enumerate(rec.actions):
        used += action.kind in USES_AN_ACTION
        s = states[i + 1]
        last = i == len(rec.actions) - 1
        if s.turn == start.turn and s.end_reason is None and not last:
            continue
        bd = score_breakdown(s)
        kontors = [o for c in range(s.board.n_cities) for o in s.city_occupants(c)]
        for p in range(config.n_players):
            rows.append({
                "experiment": "x", "arm": "a", "game_id": 7,
                "round": start.round, "turn": start.turn, "acting_seat": start.active,
                "seat": p, "is_acting": p == start.active,
                "actions_used": used if p == start.active else 0,
                "prestige": s.prestige[p], "projected": sum(bd[p].values()),
                **{f"proj_{c}": bd[p][c] for c in CATEGORIES},
                **{f"lv_{a}": s.levels[p][k] for k, a in enumerate(ABILITIES)},
                "supply_t": s.supply_t[p], "supply_m": s.supply_m[p],
                "stock_t": s.stock_t[p], "stock_m": s.stock_m[p],
                "posts": _pieces(s, p, s.posts), "kontors": _pieces(s, p, kontors),
                "markers_held": len(s.markers[p]), "markers_used": len(s.markers_used[p]),
            })
        start, used = s, 0
    return to_frame("turns", rows_to_tuples(rows))


def rows_to_tuples(rows: list[dict]) -> list[tuple]:
    return [tuple(r[c] for c in SCHEMA["turns"]) for r in rows]


def logged(config: GameConfig, max_actions: int | None = None) -> dict:
    return record_game(config, ["random"] * config.n_players, 7, experiment="x", arm="a",
                       max_actions=max_actions)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.side}-{c.n_players}p-{c.seed}")
def test_turns_table_matches_the_states(config):
    got = to_frame("turns", logged(config)["turns"])
    want = expected_turns(config)
    assert len(got) > 20 * config.n_players
    pd.testing.assert_frame_equal(got, want)


def test_a_capped_game_logs_its_last_partial_turn():
    """Cut mid-turn (here while a displaced player still holds pieces in hand): the
    partial turn is a row too, and its piece counts leave the pieces in hand out."""
    config = GameConfig(4, seed=3)
    rec = play_game(config, ["random"] * 4)
    states = states_of(config, rec.actions)
    cut = next(i for i, s in enumerate(states) if i > 40 and s.pending
               and isinstance(s.pending[-1], Relocate))
    got = to_frame("turns", logged(config, max_actions=cut)["turns"])
    pd.testing.assert_frame_equal(got, expected_turns(config, max_actions=cut))
    assert got.turn.iloc[-1] == states[cut].turn


def test_turn_rows_sum_to_the_players_table():
    """The last turn's projection is the final score, category by category."""
    for config in CONFIGS[:4]:
        rows = logged(config)
        turns = to_frame("turns", rows["turns"])
        players = to_frame("players", rows["players"])
        last = turns[turns.turn == turns.turn.max()].reset_index(drop=True)
        for c in CATEGORIES:
            assert (last[f"proj_{c}"].to_numpy() == players[c].to_numpy()).all(), c
        assert (last.projected.to_numpy() == players.total.to_numpy()).all()


@pytest.mark.parametrize("config", CONFIGS[:1] + CONFIGS[4:8],
                         ids=lambda c: f"{c.side}-{c.n_players}p")
def test_events_table_matches_the_states(config):
    rec = play_game(config, ["random"] * config.n_players)
    states = states_of(config, rec.actions)
    want = [_event_row(("x", "a", 7), i, before.round, before.turn, s.board, ev)
            for i, (before, s) in enumerate(pairwise(states)) for ev in s.events]
    got = logged(config)["events"]
    assert got == want and len(want) > 50
    kinds = {r[7] for r in got}
    assert {"establish", "kontor", "prestige", "develop", "game_end"} <= kinds


def test_events_belong_to_the_turn_of_their_action():
    """An action that ends a turn (an establish, an end-of-turn marker placement) logs
    its events in that turn: establish events are the acting player's, and every event
    joins a row of the turns table."""
    for config in CONFIGS[:3]:
        rows = logged(config)
        events = to_frame("events", rows["events"])
        turns = to_frame("turns", rows["turns"])
        acting = turns[turns.is_acting].set_index(["round", "turn"]).acting_seat
        est = events[events.kind == "establish"]
        assert len(est) > 10
        assert (est.seat.to_numpy() == acting.loc[list(zip(est["round"], est.turn,
                                                           strict=True))].to_numpy()).all()
        keys = set(zip(turns["round"], turns.turn, strict=True))
        assert set(zip(events["round"], events.turn, strict=True)) <= keys


def test_event_rows_name_what_happened():
    from hansa_lab.engine.board import load_board

    b = load_board("base_3p")
    key = ("x", "a", 7)
    displace = Event("displace", seat=1, other=2, route=30, detail="merchant")
    assert _event_row(key, 5, 2, 9, b, displace) == (
        *key, 5, 2, 9, 1, "displace", 2, 30, "", "merchant", -1)
    assert _event_row(key, 6, 2, 9, b, Event("kontor", seat=0, city=3, value=-1)) == (
        *key, 6, 2, 9, 0, "kontor", -1, -1, b.city_names[3], "", -1)
    assert _event_row(key, 7, 3, 10, b, Event("develop", seat=2, detail="keys", value=3))[6:] == (
        2, "develop", -1, -1, "", "keys", 3)
    assert _event_row(key, 8, 3, 10, b, Event("game_end", detail="prestige"))[6:] == (
        -1, "game_end", -1, -1, "", "prestige", -1)


def test_every_event_kind_is_documented_and_reads_as_text():
    """The variants' events (permits, permanent markers, favours, the neutral colour)
    name their seat in the table and read as sentences, like the base game's."""
    from hansa_lab.engine.events import EVENT_KINDS, event_text

    seen: dict[str, Event] = {}
    configs = [GameConfig(2, seed=3), GameConfig(4, board="east", seed=4),
               GameConfig(3, board="britannia", seed=5),
               GameConfig(4, seed=6, options={"emperor": True})]
    for config in configs:
        rec = play_game(config, ["random"] * config.n_players)
        for s in states_of(config, rec.actions):
            for ev in s.events:
                seen.setdefault(ev.kind, ev)
                assert ev.kind in EVENT_KINDS
                text = event_text(s.board, ev, s.neutral)
                assert "{" not in text and ev.kind not in text.split()[:1]
                # plain words: a capital first letter, no route codes or code names
                assert text[0].isupper() and not re.search(r"\br\d+|_", text), text
    assert {"permit", "permanent", "neutral_placed", "establish", "kontor"} <= set(seen)
    for kind in ("permit", "permanent", "neutral_placed"):
        assert seen[kind].seat >= 0, kind
    assert seen["permit"].city >= 0 and seen["permanent"].route >= 0


def test_posts_and_kontors_add_up_with_the_rest_of_the_pieces():
    """Every colour owns 27 traders and 4 merchants; at every turn end of a logged game
    the pieces on the board plus supply and stock never exceed them."""
    turns = to_frame("turns", logged(GameConfig(5, seed=21))["turns"])
    on_board = turns[["posts", "kontors", "supply_t", "supply_m", "stock_t", "stock_m"]]
    total = on_board.sum(axis=1).to_numpy()
    assert (total <= 31).all() and (total >= 31 - 1 - 20).all()
    assert np.diff(turns.groupby("seat").kontors.apply(list).iloc[0]).min() >= 0


def test_kontor_cache_agrees_with_a_full_recount_in_any_order():
    """The cache updates only the cities and networks that changed since the position it
    saw last — also when positions come out of order (a search jumping between lines)."""
    import random

    from hansa_lab.engine.scoring import KontorCache, kontor_terms

    states = []
    for config in (GameConfig(4, seed=31), GameConfig(5, "britannia", seed=32)):
        rec = play_game(config, ["random"] * config.n_players)
        states += [s for s in states_of(config, rec.actions)[::5]]
    cache = KontorCache()
    order = list(range(len(states)))
    random.Random(0).shuffle(order)
    for i in order[:400] + sorted(order)[:400]:
        assert cache.terms(states[i]) == kontor_terms(states[i])


def test_small_ints_fall_back_beyond_a_byte():
    from hansa_lab.sim.logs import _small_ints

    assert _small_ints([0, 7, 255]).tolist() == [0, 7, 255]
    assert _small_ints([3, 300, 2]).tolist() == [3, 300, 2]  # a very long game
    assert _small_ints([]).shape == (0,)


def test_every_column_is_documented():
    from hansa_lab.sim.logs import COLUMNS, describe

    for table, cols in SCHEMA.items():
        assert list(COLUMNS[table]) == list(cols), table
        assert all(len(text) > 8 for text in COLUMNS[table].values()), table
        assert describe(table)["column"].tolist() == list(cols)
    with pytest.raises(ValueError, match="unknown table 'turn'"):
        describe("turn")


def test_the_events_frame_shows_none_as_na_and_both_engines_agree():
    """The frame a person reads has <NA> where the stored table has -1 (no seat, no
    route, no value), in nullable integer columns; the Python and the core engine's rows
    give equal frames; an extra Kontor keeps its value -1."""
    config = GameConfig(4, seed=12)
    frames = {engine: to_frame("events", record_game(config, ["greedy"] * 4, game_id=3,
                                                     engine=engine)["events"])
              for engine in ("python", "core")}
    pd.testing.assert_frame_equal(frames["python"], frames["core"])
    ev = frames["core"]
    assert str(ev["seat"].dtype) == "Int8" and str(ev["route"].dtype) == "Int16"
    assert str(ev["value"].dtype) == "Int32" and str(ev["other_seat"].dtype) == "Int8"
    end = ev[ev["kind"] == "game_end"].iloc[0]
    assert pd.isna(end["route"]) and pd.isna(end["other_seat"])
    assert not (ev[["seat", "other_seat", "route"]] == -1).any().any()
    assert ev["other_seat"].isna().any() and "<NA>" in ev.to_string()
    kontor = ev[ev["kind"] == "kontor"]
    assert kontor["value"].notna().all()
    develop = ev[ev["kind"] == "develop"]
    assert develop["route"].isna().all() and develop["seat"].notna().all()
