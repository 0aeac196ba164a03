"""Game logs: the one place that declares the tables' columns, and the recorder that
turns a played game into flat rows.

Tables (one module, one schema; workers return rows, the parent builds the DataFrames or,
for a run on disk, the Arrow tables written as parquet):

``games``     one row per game
``players``   one row per player per game (final score by category, rank, tie-breaks)
``turns``     one row per player per turn (state at the end of every turn; a game cut short
              by ``max_actions`` also logs its last, partial turn)
``events``    one row per notable event (see :data:`EVENT_KINDS`), stamped with the round and
              turn of the action that caused it
``failures``  one row per game that failed (a strategy raised or returned an illegal
              action); the run goes on

>>> from hansa_lab.engine.state import GameConfig
>>> rows = record_game(GameConfig(3, seed=1), ["random"] * 3, game_id=0)
>>> sorted(rows)
['events', 'games', 'players', 'turns']
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from hansa_lab.compiled.bridge import turn_columns
from hansa_lab.engine.actions import USES_AN_ACTION, format_action
from hansa_lab.engine.board import A_KEYS, ABILITIES, Board
from hansa_lab.engine.decisions import Relocate
from hansa_lab.engine.events import EVENT_KINDS as ENGINE_EVENTS
from hansa_lab.engine.events import Event
from hansa_lab.engine.invariants import MERCHANTS, TRADERS
from hansa_lab.engine.options import Tuning
from hansa_lab.engine.rng import seat_stream
from hansa_lab.engine.scoring import (
    CATEGORIES,
    SCORED_TRACKS,
    TRACK_MAX,
    KontorCache,
    board_terms,
    ranking,
    score_breakdown,
    tie_break_key,
)
from hansa_lab.engine.state import EMPTY, GameConfig, State, new_game
from hansa_lab.errors import StrategyError
from hansa_lab.play import (
    DEFAULT_DECISION_TIME_LIMIT,
    DEFAULT_ENGINE,
    DEFAULT_MAX_ACTIONS,
    PythonGame,
    engine_named,
    per_engine,
    run_game,
)
from hansa_lab.play.core_game import CoreMatchGame, MatchResult
from hansa_lab.strategies import Strategy, make_strategy

if TYPE_CHECKING:
    import pyarrow as pa

#: A game with more whole rounds than this without any prestige or Kontor change is flagged
#: as ``stalled`` in the ``games`` table.
DEFAULT_STALL_ROUNDS = 20

#: action kinds that use up one of the turn's actions
_USES_AN_ACTION = frozenset(USES_AN_ACTION)

GAME_KEYS: dict[str, str] = {
    "experiment": "string",
    "arm": "string",
    "game_id": "int64",
}

SCHEMA: dict[str, dict[str, str]] = {
    "games": {
        **GAME_KEYS,
        "seed": "int64",
        "rotation": "int16",
        "board": "string",
        "side": "string",
        "edition": "string",
        "n_players": "int8",
        "options": "string",
        "lineup": "string",
        "end_reason": "string",
        "rounds": "int32",
        "turns": "int32",
        "actions": "int32",
        "winners": "string",
        "n_winners": "int8",
        "wall_time": "float64",
        "cpu_time": "float64",
        "quiet_rounds": "int32",
        "stalled": "bool",
    },
    "players": {
        **GAME_KEYS,
        "seat": "int8",
        "strategy": "string",
        "strategy_name": "string",
        "strategy_params": "string",
        "total": "int32",
        **{c: "int32" for c in CATEGORIES},
        "rank": "int8",
        "win": "bool",
        "win_share": "float64",
        "tb_actions_developed": "int8",
        "tb_network": "int32",
    },
    "turns": {
        **GAME_KEYS,
        "round": "int32",
        "turn": "int32",
        "acting_seat": "int8",
        "seat": "int8",
        "is_acting": "bool",
        "actions_used": "int16",
        "prestige": "int32",
        "projected": "int32",
        **{f"proj_{c}": "int32" for c in CATEGORIES},
        **{f"lv_{a}": "int8" for a in ABILITIES},
        "supply_t": "int16",
        "supply_m": "int16",
        "stock_t": "int16",
        "stock_m": "int16",
        "posts": "int16",
        "kontors": "int16",
        "markers_held": "int8",
        "markers_used": "int8",
    },
    "events": {
        **GAME_KEYS,
        "action_index": "int32",
        "round": "int32",
        "turn": "int32",
        "seat": "int8",
        "kind": "string",
        "other_seat": "int8",
        "route": "int16",
        "city": "string",
        "detail": "string",
        "value": "int32",
    },
    "failures": {
        **GAME_KEYS,
        "seed": "int64",
        "rotation": "int16",
        "seat": "int8",
        "strategy": "string",
        "action_index": "int32",
        "error": "string",
        "actions": "string",
        "config": "string",
    },
}

_KEYS_DOC = {
    "experiment": "experiment name (the run's name)",
    "arm": "arm of the experiment (a plain simulate line-up is the arm 'main')",
    "game_id": "game number within the run (unique per run)",
}
_CATEGORY_DOC = {
    "track": "prestige track points",
    "abilities": "4 per fully developed ability except City Keys (7 with the abilities_7 "
                 "favour tile)",
    "markers": "points for the collected bonus markers, used or not (1, 3, 6, 10, 15, 21)",
    "special": "special-prestige spaces held (Coellen and others)",
    "control": "2 per city controlled (4 with the control_4 favour tile)",
    "network": "Kontors in the largest connected network × the City Keys value",
    "regions": "Britannia: Wales and Scotland majorities (7 / 4 / 2); 0 elsewhere",
}

#: What every column means, per table (same keys and order as :data:`SCHEMA`).
COLUMNS: dict[str, dict[str, str]] = {
    "games": {
        **_KEYS_DOC,
        "seed": "the game's seed: set-up, bonus-marker draws and the seats' random streams",
        "rotation": "seat rotation r: line-up position 0 sits in seat r",
        "board": "board as asked (base, east, britannia, or a side name)",
        "side": "board side played (base_3p, base_45p, east, britannia_3p, britannia_45p)",
        "edition": "bonus-marker edition (bigbox or original)",
        "n_players": "number of players (a two-player game adds the neutral colour)",
        "options": "rule options that differ from the defaults, as JSON",
        "lineup": "strategies in seat order, comma-separated",
        "end_reason": "prestige, cities or markers (the rule that ended it), or cap "
                      "(stopped at max_actions)",
        "rounds": "round in which the game ended (1-based)",
        "turns": "turn in which the game ended (turns counted over all players, 1-based)",
        "actions": "decisions applied, sub-decisions (relocations, marker placements) "
                   "included",
        "winners": "winning seats after the tie-breaks, comma-separated (ties share)",
        "n_winners": "number of winning seats",
        "wall_time": "seconds to play and log the game",
        "cpu_time": "CPU seconds of the playing process to play and log the game (NaN in "
                    "runs written before the column existed)",
        "quiet_rounds": "longest run of whole rounds in which no prestige and no Kontor "
                        "changed (a stalled table: players waiting for each other)",
        "stalled": "quiet_rounds exceeded the run's stall_rounds (default "
                   f"{DEFAULT_STALL_ROUNDS}): a game to look at",
    },
    "players": {
        **_KEYS_DOC,
        "seat": "seat, 0-based (seat 0 moves first)",
        "strategy": "strategy with its parameters, e.g. greedy:depth=2",
        "strategy_name": "strategy name without parameters",
        "strategy_params": "the strategy's parameters as JSON",
        "total": "final score (sum of the categories)",
        **{c: f"final score: {d}" for c, d in _CATEGORY_DOC.items()},
        "rank": "1 = winner; players still tied after the tie-breaks share a rank",
        "win": "the player won (alone or tied)",
        "win_share": "1 / number of winners for a winner, else 0 (sums to 1 per game)",
        "tb_actions_developed": "first tie-break: Actions developments (fewer is better)",
        "tb_network": "second tie-break: Kontors in the largest network (more is better)",
    },
    "turns": {
        **_KEYS_DOC,
        "round": "round of the turn (1-based)",
        "turn": "turn number over all players (1-based); the row is the position at its end",
        "acting_seat": "seat whose turn it was",
        "seat": "seat this row describes",
        "is_acting": "seat == acting_seat",
        "actions_used": "actions the acting seat used this turn (0 on the other rows)",
        "prestige": "prestige track",
        "projected": "score if the game ended now (sum of the proj_ columns)",
        **{f"proj_{c}": f"projected: {d}" for c, d in _CATEGORY_DOC.items()},
        **{f"lv_{a}": f"{a} developments taken (0 = start of the track)" for a in ABILITIES},
        "supply_t": "traders in the personal supply",
        "supply_m": "merchants in the personal supply",
        "stock_t": "traders in the general stock",
        "stock_m": "merchants in the general stock",
        "posts": "pieces on trading posts (routes)",
        "kontors": "Kontors in cities (extra Kontors included)",
        "markers_held": "bonus markers collected and not yet used",
        "markers_used": "bonus markers collected and used",
    },
    "events": {
        **_KEYS_DOC,
        "action_index": "0-based index of the action that caused it in the game's actions",
        "round": "round of that action",
        "turn": "turn of that action (joins the turns table)",
        "seat": "seat concerned (<NA>: none; -1 in the parquet files)",
        "kind": "what happened: see EVENT_KINDS",
        "other_seat": "the other seat (displacements; <NA>: none)",
        "route": "route index (<NA>: none)",
        "city": "city name (empty: none); for develop the ability city it came from "
                "(empty: a bonus marker or printed bonus)",
        "detail": "ability, bonus marker, piece, end reason ... by kind (empty: none)",
        "value": "number by kind: new level, points, office slot (-1: extra Kontor); "
                 "<NA>: none",
    },
    "failures": {
        **_KEYS_DOC,
        "seed": "the game's seed",
        "rotation": "seat rotation of the game",
        "seat": "seat whose strategy failed (-1: the engine failed)",
        "strategy": "the failing strategy ('(engine)' for an engine error)",
        "action_index": "actions applied before the failure",
        "error": "exception type and message",
        "actions": "the actions so far as text, ' ; '-separated (replayable)",
        "config": "the game's configuration as JSON",
    },
}


def describe(table: str) -> pd.DataFrame:
    """The columns of a log table: name, dtype and meaning.

    >>> describe("turns").set_index("column").loc["posts", "meaning"]
    'pieces on trading posts (routes)'
    """
    if table not in SCHEMA:
        raise ValueError(f"unknown table {table!r}; tables: {', '.join(SCHEMA)}")
    return pd.DataFrame({"column": list(SCHEMA[table]), "dtype": list(SCHEMA[table].values()),
                         "meaning": [COLUMNS[table][c] for c in SCHEMA[table]]})


#: What each event kind fills in (other columns are -1 or empty).
EVENT_KINDS: dict[str, str] = {kind: k.meaning for kind, k in ENGINE_EVENTS.items()}


def _event_row(key: tuple, idx: int, rnd: int, turn: int, b: Board, ev: Event) -> tuple:
    """One ``events`` row: ``ev`` of action ``idx``, taken in (``rnd``, ``turn``)."""
    city = b.city_names[ev.city] if ev.city >= 0 else ""
    return (*key, idx, rnd, turn, ev.seat, ev.kind, ev.other, ev.route, city, ev.detail,
            ev.value)


def score_columns(
    prestige: np.ndarray,
    levels: np.ndarray,
    n_markers: np.ndarray,
    board: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    abilities_7: np.ndarray,
    control_4: np.ndarray,
    tuning: Tuning,
) -> np.ndarray:
    """:func:`score_rows` for many (position, player) pairs at once: one entry per pair
    in every array (``levels``: pairs × abilities; ``board``: the four lists of
    :func:`board_terms` as arrays; ``abilities_7``/``control_4``: the favour tiles held).
    ``tuning``: the game's scoring numbers (``config.tuning``: rule options).
    Returns pairs × :data:`CATEGORIES`. The logs score every turn with it."""
    controlled, networks, special, regions = board
    t = tuning
    full = sum((levels[:, a] >= TRACK_MAX[a]).astype(np.int64) for a in SCORED_TRACKS)
    points = np.asarray(t.marker_table)
    return np.stack(
        [
            prestige,
            (t.ability_points + t.favour_abilities_bonus * abilities_7) * full,
            points[np.minimum(n_markers, len(points) - 1)],
            special,
            (t.control_points + t.favour_control_bonus * control_4) * controlled,
            networks * np.asarray(t.keys)[levels[:, A_KEYS]],
            regions,
        ],
        axis=1,
    )


class GameRecorder:
    """Collects the rows of one game while it is played (an ``observer`` of play_game).

    At every turn end it appends one fixed-width run of integers to a flat list (see
    :meth:`turn_columns` for the layout); the ``turns`` columns are cut from one array at
    the end and every turn is scored there in one pass (:func:`score_columns`).
    What depends on the Kontors, special-prestige spaces and favour tiles is computed
    only when one of them changed (most turns only move posts) and kept once as a
    "board block" that turns refer to by number; posts come from piece conservation
    rather than a count of the routes."""

    def __init__(self, key: tuple) -> None:
        self.key = key
        self.events: list[tuple] = []
        self.cache = KontorCache()
        self._meta: list[int] = []  # per turn: round, turn, acting seat, actions used, block
        self._flat: list[int] = []  # per turn: the players' values (small, non-negative)
        self._turn = 1
        self._round = 1
        self._acting = 0
        self._used = 0
        self._n_snaps = 0
        self._snapped_at = 0  # n_actions of the last snapshot
        self._board: tuple | None = None  # inputs of the last board block, as copies
        self._blocks: list[list[int]] = []
        self._in_hand: dict[int, list[int]] = {}  # snapshot → displaced pieces in hand

    def observe(self, state: State, action_index: int, kind: str, acting: int) -> None:
        if state.events:  # logged in the turn the action was taken in, not the next one
            key, rnd, turn, board = self.key, self._round, self._turn, state.board
            self.events += [_event_row(key, action_index, rnd, turn, board, ev)
                            for ev in state.events]
        if kind in _USES_AN_ACTION:
            self._used += 1
        if state.turn != self._turn:
            self.snapshot(state)
            self._turn, self._round, self._acting, self._used = (
                state.turn, state.round, state.active, 0
            )

    def finish(self, final: State) -> None:
        """Log the last turn: the game ended during it (by rule, or cut short by
        ``max_actions``)."""
        if final.n_actions != self._snapped_at:
            self.snapshot(final)

    def snapshot(self, s: State) -> None:
        """Append the position at a turn end."""
        board = (s.offices, s.extras, s.special, s.favours)
        if board != self._board:
            self._board = (s.offices[:], s.extras[:], s.special[:], s.favours)
            self._blocks.append(self._board_block(s))
        if s.pending:  # only a game cut short ends with a decision open
            self._in_hand[self._n_snaps] = _in_hand(s)
        self._meta += (self._round, self._turn, self._acting, self._used, len(self._blocks) - 1)
        flat = self._flat
        flat += s.prestige
        flat += s.supply_t
        flat += s.supply_m
        flat += s.stock_t
        flat += s.stock_m
        flat += map(len, s.markers)
        flat += map(len, s.markers_used)
        for lv in s.levels:
            flat += lv
        self._n_snaps += 1
        self._snapped_at = s.n_actions

    def _board_block(self, s: State) -> list[int]:
        """Per player (8 blocks of ``n``): Kontors, special-prestige spaces held,
        :func:`scoring.board_terms` (cities controlled, network, special points, region
        points), favour tiles abilities_7 and control_4 held."""
        n = len(s.prestige)
        occupants = [*s.offices, *chain.from_iterable(s.extras)]
        block = [occupants.count(2 * p) + occupants.count(2 * p + 1) for p in range(n)]
        block += [s.special.count(2 * p) + s.special.count(2 * p + 1) for p in range(n)]
        for values in board_terms(s, self.cache):
            block += values
        favours = s.favours[:n] if s.favours else [()] * n
        block += ["abilities_7" in f for f in favours]
        block += ["control_4" in f for f in favours]
        return block

    def turn_columns(self, n: int, tuning: Tuning) -> dict[str, np.ndarray]:
        """The ``turns`` table of this game as columns (one row per player per turn).

        One snapshot: 5 meta values (round, turn, acting seat, actions used, board
        block); 7 blocks of ``n`` (prestige, supply and stock by piece, markers held and
        used); the levels player by player (``n`` × abilities). Board blocks: see
        :meth:`_board_block`."""
        na = len(ABILITIES)
        a = np.array(self._meta, dtype=np.int64).reshape(-1, 5)
        t = len(a)
        own, levels = np.split(_small_ints(self._flat).reshape(t, n * (7 + na)), [7 * n], axis=1)
        own = own.reshape(t, 7, n).transpose(1, 0, 2).reshape(7, -1)
        levels = levels.reshape(t * n, na)
        blocks = np.array(self._blocks, dtype=np.int64)[a[:, 4]]
        board = blocks.reshape(t, 8, n).transpose(1, 0, 2).reshape(8, -1)
        prestige, supply_t, supply_m, stock_t, stock_m, markers, markers_used = own
        kontors, special = board[0], board[1]
        scores = score_columns(prestige, levels, markers + markers_used,
                               (board[2], board[3], board[4], board[5]), board[6], board[7],
                               tuning)
        in_hand = np.zeros((t, n), dtype=np.int64)
        for i, pieces in self._in_hand.items():
            in_hand[i] = pieces
        seat = np.tile(np.arange(n), t)
        acting = np.repeat(a[:, 2], n)
        cols: dict[str, np.ndarray] = {
            "round": np.repeat(a[:, 0], n),
            "turn": np.repeat(a[:, 1], n),
            "acting_seat": acting,
            "seat": seat,
            "is_acting": seat == acting,
            "actions_used": np.where(seat == acting, np.repeat(a[:, 3], n), 0),
            "prestige": prestige,
            "projected": scores.sum(axis=1),
        }
        for i, c in enumerate(CATEGORIES):
            cols[f"proj_{c}"] = scores[:, i]
        for i, ab in enumerate(ABILITIES):
            cols[f"lv_{ab}"] = levels[:, i]
        cols.update(supply_t=supply_t, supply_m=supply_m, stock_t=stock_t, stock_m=stock_m)
        # every colour owns TRADERS + MERCHANTS pieces (see invariants.piece_counts): the
        # ones not in supply, stock, Kontors, on the ability tracks, as the prestige marker,
        # on special spaces or in hand are the posts on the routes
        covered = (np.array(TRACK_MAX, dtype=np.int64) - levels).sum(axis=1)
        cols["posts"] = (TRADERS + MERCHANTS - supply_t - supply_m - stock_t - stock_m
                         - kontors - covered - 1 - special - in_hand.reshape(-1))
        cols["kontors"] = kontors
        cols["markers_held"] = markers
        cols["markers_used"] = markers_used
        cols["experiment"] = np.full(t * n, self.key[0], dtype=object)
        cols["arm"] = np.full(t * n, self.key[1], dtype=object)
        cols["game_id"] = np.full(t * n, self.key[2], dtype=np.int64)
        return cols


class StallWatch:
    """Follows a game round by round (an ``observer`` of play_game): the longest run of
    whole rounds in which no player's prestige and no Kontor changed. Costs one integer
    comparison per action and a look at the board once per round."""

    def __init__(self) -> None:
        self.round = 1
        self.last: tuple[tuple[int, ...], int, int] | None = None
        self.quiet = 0
        self.longest = 0

    def observe(self, state: State, action_index: int, kind: str, acting: int) -> None:
        if state.round == self.round:
            return
        self.round = state.round
        now = (tuple(state.prestige), state.offices.count(EMPTY), sum(map(len, state.extras)))
        self.quiet = self.quiet + 1 if now == self.last else 0
        self.last = now
        self.longest = max(self.longest, self.quiet)


def _small_ints(values: list[int]) -> np.ndarray:
    """A list of integers as int64 — via bytes when all fit in 0..255 (the usual case
    for the players' values; several times faster than a plain conversion)."""
    try:
        return np.frombuffer(bytearray(values), dtype=np.uint8).astype(np.int64)
    except ValueError:
        return np.array(values, dtype=np.int64)


def _in_hand(s: State) -> list[int]:
    """Displaced pieces each player still holds (a game cut mid-relocation)."""
    out = [0] * len(s.prestige)
    for f in s.pending:
        if isinstance(f, Relocate) and f.piece >= 0:
            out[f.player] += 1
    return out


class _CoreLogs:
    """A game in the compiled core, which builds the ``turns`` and ``events`` rows itself
    (seats whose strategy has no core twin are asked in Python by the game loop)."""

    def __init__(self, config: GameConfig, players: list[Strategy], limit: int, key: tuple,
                 full: bool) -> None:
        self.key, self.full = key, full
        self.game = CoreMatchGame(config, players, max_actions=limit, log=full)

    def rows(self) -> tuple[State, int, int, Rows, Rows]:
        """The final position, the actions, the longest quiet stretch, turns, events."""
        match = MatchResult(self.game.config, self.game.match)
        final = match.final()
        board = final.board
        turns: Rows = _core_turn_columns(match.turn_rows(), self.key) if self.full else []
        events = [(*self.key, i, rnd, turn, seat, kind, other, route,
                   board.city_names[city] if city >= 0 else "", detail, value)
                  for i, rnd, turn, seat, kind, other, route, city, detail, value
                  in match.events()]
        return final, match.n_actions, match.quiet_rounds, turns, events


class _PythonLogs:
    """A game in the Python engine, its rows built by observers of every action."""

    def __init__(self, config: GameConfig, players: list[Strategy], limit: int, key: tuple,
                 full: bool) -> None:
        self.config, self.full = config, full
        self.recorder = GameRecorder(key)
        self.stall = StallWatch()
        self.game = PythonGame(new_game(config), max_actions=limit, observer=self._observe)

    def _observe(self, state: State, index: int, kind: str, acting: int) -> None:
        self.stall.observe(state, index, kind, acting)
        if self.full:
            self.recorder.observe(state, index, kind, acting)

    def rows(self) -> tuple[State, int, int, Rows, Rows]:
        final = self.game.final()
        if not self.full:
            return final, len(self.game.actions()), self.stall.longest, [], []
        self.recorder.finish(final)
        turns = self.recorder.turn_columns(self.config.n_players, self.config.tuning)
        return (final, len(self.game.actions()), self.stall.longest, turns,
                self.recorder.events)


#: How each rules engine (:data:`hansa_lab.play.ENGINES`) builds its logs. Both give the
#: same game and the same rows.
_ENGINE_LOGS: dict[str, type[_CoreLogs] | type[_PythonLogs]] = per_engine(
    {"core": _CoreLogs, "python": _PythonLogs}, "the logs")


def record_game(
    config: GameConfig,
    strategies: Sequence[str | Strategy],
    game_id: int,
    *,
    experiment: str = "",
    arm: str = "",
    rotation: int = 0,
    full: bool = True,
    max_actions: int | None = None,
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT,
    stall_rounds: int = DEFAULT_STALL_ROUNDS,
    engine: str = DEFAULT_ENGINE,
) -> dict[str, Rows]:
    """Play one game and return its rows per table (``failures`` instead when a strategy
    fails; ``decision_time_limit`` as in :func:`hansa_lab.play.play_game`).

    ``engine`` chooses the rules engine (:data:`hansa_lab.play.ENGINES`); the game is
    played by the one game loop (:func:`hansa_lab.play.loop.run_game`).
    ``engine="core"``: the compiled core, which also builds the ``turns`` and ``events``
    rows; ``engine="python"``: the Python engine, logged by observers. The rows are the
    same."""
    name = engine_named(engine).name
    key = (experiment, arm, game_id)
    players = [make_strategy(s) for s in strategies]
    t0, c0 = time.perf_counter(), time.process_time()
    limit = DEFAULT_MAX_ACTIONS if max_actions is None else max_actions
    logs = _ENGINE_LOGS[name](config, players, limit, key, full)
    try:
        run_game(logs.game, players,
                 [seat_stream(config.seed, p) for p in range(len(players))],
                 decision_time_limit=decision_time_limit)
    except StrategyError as e:
        return {"failures": [_failure_row(key, config, rotation, e)]}
    final, n_actions, quiet, turns, events = logs.rows()
    games, players_rows = _result_rows(key, config, rotation, players, final, n_actions,
                                       quiet, stall_rounds, t0, c0)
    return {"games": games, "players": players_rows, "turns": turns, "events": events}


def _failure_row(key: tuple, config: GameConfig, rotation: int,
                 e: StrategyError) -> tuple[Any, ...]:
    board = config.load_board()
    return (
        *key, config.seed, rotation, e.seat, e.strategy, e.n_actions,
        f"{type(e.error).__name__}: {e.error}",
        " ; ".join(format_action(board, a) for a in e.actions),
        config_json(config),
    )


def _result_rows(key: tuple, config: GameConfig, rotation: int, players: list[Strategy],
                 s: State, n_actions: int, quiet: int, stall_rounds: int,
                 t0: float, c0: float) -> tuple[list[tuple], list[tuple]]:
    """The ``games`` row and the ``players`` rows of a finished (or capped) game."""
    bd = score_breakdown(s)
    ranks = ranking(s, bd)
    tb = tie_break_key(s, bd)
    winners = [p for p, r in enumerate(ranks) if r == 1]
    games = [
        (
            *key, config.seed, rotation, config.board, s.board.name, config.edition,
            config.n_players, json.dumps(dict(config.options), sort_keys=True),
            ",".join(p.spec for p in players), s.end_reason or "cap", s.round, s.turn,
            n_actions, ",".join(map(str, winners)), len(winners), time.perf_counter() - t0,
            time.process_time() - c0, quiet, quiet > stall_rounds,
        )
    ]
    prow = []
    for p, strat in enumerate(players):
        prow.append(
            (
                *key, p, strat.spec, strat.name, json.dumps(strat.params, sort_keys=True),
                sum(bd[p].values()), *bd[p].values(), ranks[p], ranks[p] == 1,
                (1 / len(winners)) if ranks[p] == 1 else 0.0, -tb[p][1], tb[p][2],
            )
        )
    return games, prow


def _core_turn_columns(raw: bytes, key: tuple) -> dict[str, np.ndarray]:
    """The ``turns`` columns from the rows the core built (:data:`TURN_COLUMNS` of
    ``hansa_lab._core``, little-endian int32)."""
    names = turn_columns()
    rows = np.frombuffer(raw, dtype="<i4").reshape(-1, len(names)).astype(np.int64)
    cols: dict[str, np.ndarray] = {name: rows[:, i] for i, name in enumerate(names)}
    cols["is_acting"] = cols["seat"] == cols["acting_seat"]
    cols["projected"] = np.stack([cols[f"proj_{c}"] for c in CATEGORIES]).sum(axis=0)
    n = len(rows)
    cols["experiment"] = np.full(n, key[0], dtype=object)
    cols["arm"] = np.full(n, key[1], dtype=object)
    cols["game_id"] = np.full(n, key[2], dtype=np.int64)
    return cols


def config_json(config: GameConfig) -> str:
    return json.dumps(
        {
            "n_players": config.n_players,
            "board": config.board,
            "edition": config.edition,
            "seed": config.seed,
            "options": dict(config.options),
        },
        sort_keys=True,
    )


Rows = list[tuple] | dict[str, Any]


def to_frame(table: str, rows: Rows, **constant: Any) -> pd.DataFrame:
    """Build a table's DataFrame with its declared columns and dtypes from row tuples
    (in schema order) or from columns (a dict; ``constant`` fills missing key columns).

    Each column is converted once, straight to its dtype (a value that does not fit the
    declared integer type raises instead of wrapping around)."""
    data = {c: pd.array(v, dtype="string") if dtype == "string" else v
            for c, dtype, v in _typed_columns(table, rows, constant)}
    return readable(table, pd.DataFrame(data, copy=False))


#: Columns of the ``events`` table where the stored -1 means "none", and the nullable
#: integer type the frames people read give them (``<NA>`` there). Parquet files keep
#: -1. ``value`` is "none" at -1 except in ``kontor`` events, where -1 is an extra Kontor.
NONE_COLUMNS: dict[str, dict[str, str]] = {
    "events": {"seat": "Int8", "other_seat": "Int8", "route": "Int16", "value": "Int32"},
}


def readable(table: str, df: pd.DataFrame) -> pd.DataFrame:
    """``df`` (a frame of ``table``) with the -1 "none" markers of :data:`NONE_COLUMNS`
    as ``<NA>`` in nullable integer columns; other tables and columns unchanged. Takes
    the stored form or an already readable frame.

    >>> f = pd.DataFrame({"kind": ["kontor", "develop", "game_end"], "seat": [0, 1, -1],
    ...                   "value": [-1, 2, -1]})
    >>> readable("events", f)
           kind  seat  value
    0    kontor     0     -1
    1   develop     1      2
    2  game_end  <NA>   <NA>
    """
    nullable = NONE_COLUMNS.get(table, {})
    if not any(c in df.columns for c in nullable):
        return df
    out = df.copy()
    for c, dtype in nullable.items():
        if c not in out.columns:
            continue
        col = out[c].astype(dtype)
        none = col == -1
        if c == "value" and "kind" in out.columns:
            none &= out["kind"] != "kontor"
        out[c] = col.mask(none.fillna(False))
    return out


def to_arrow(table: str, rows: Rows, **constant: Any) -> pa.Table:
    """The same table as :func:`to_frame`, as a pyarrow Table (what a run writes to
    parquet; no pandas objects on the way)."""
    import pyarrow as pa

    names, arrays = [], []
    for c, dtype, v in _typed_columns(table, rows, constant):
        names.append(c)
        arrays.append(pa.array(v, type=pa.string()) if dtype == "string" else pa.array(v))
    return pa.Table.from_arrays(arrays, names=names)


def _typed_columns(
    table: str, rows: Rows, constant: dict[str, Any]
) -> Iterator[tuple[str, str, Any]]:
    """(column, dtype, values) in schema order: numpy arrays of the declared dtype for
    numbers and flags, object arrays or lists of ``str`` for strings."""
    cols = SCHEMA[table]
    if not isinstance(rows, dict):
        rows = dict(zip(cols, map(list, zip(*rows, strict=True)), strict=True)) if rows else {}
    n = len(next(iter(rows.values()))) if rows else 0
    for c, dtype in cols.items():
        values = rows[c] if c in rows else constant.get(c, "")
        if isinstance(values, str) or n == 0:  # a constant (or an empty table)
            values = np.full(n, values if n else None, dtype=object)
        yield c, dtype, values if dtype == "string" else np.asarray(values, dtype=dtype)


def concat_rows(parts: list[Rows]) -> Rows:
    """Concatenate the rows of several games (tuples or column dicts)."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return []
    if isinstance(parts[0], dict):
        dicts = [p for p in parts if isinstance(p, dict)]
        keys = dicts[0].keys()
        return {k: np.concatenate([np.asarray(p[k]) for p in dicts]) for k in keys}
    out: list[tuple] = []
    for p in parts:
        out.extend(p)  # type: ignore[arg-type]
    return out


def empty_frame(table: str) -> pd.DataFrame:
    return to_frame(table, [])
