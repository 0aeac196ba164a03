"""The compiled rules core (``hansa_lab._core``, Rust, in ``core/``) seen from Python.

The Python engine (:mod:`hansa_lab.engine`) is the readable reference; the core is its
twin, module by module (``core/src/board.rs`` … ``variants/``), and the parity harness
(:mod:`hansa_lab.tools.parity`, ``hansa-lab parity``) checks the two step by step.

What the core covers (:func:`covers`): every configuration of the Python engine — the five
board sides (``base_3p`` with 2 players and the neutral colour or 3 players, ``base_45p``,
``east``, ``britannia_3p``, ``britannia_45p``), both editions, every rule option of
:data:`~hansa_lab.engine.state.RULE_OPTIONS` (``special_points``, ``start_supply``,
``prestige_to_end``, ``east_alternative``, ``emperor``: the Emperor's Favour module).
A configuration it did not cover would raise :class:`NotImplementedError` (never a wrong
answer); a pending decision of a kind it does not know (none today) too.

:class:`CoreGame` is one position: legal actions as :class:`Action` values in the Python
engine's order, :meth:`CoreGame.apply` (an illegal action raises
:class:`~hansa_lab.errors.IllegalActionError` with the Python engine's message), the score
if the game ended now, the last action's events (:class:`~hansa_lab.engine.events.Event`
records, as the Python engine's ``state.events``), and conversion both ways with a Python
:class:`State`.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> g = CoreGame(GameConfig(n_players=3, seed=7))
>>> g.to_state() == new_game(GameConfig(n_players=3, seed=7))
True
>>> g.apply(g.legal_actions()[0]); g.n_actions
1
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from hansa_lab.engine.actions import MARKER_KINDS, Action
from hansa_lab.engine.board import BOARD_SIDES, PERMANENT_MARKERS
from hansa_lab.engine.decisions import (
    Decision,
    Move,
    MoveOpponents,
    PlaceMarkers,
    Relocate,
    RelocateNeutral,
    RemoveOpponents,
)
from hansa_lab.engine.events import Event
from hansa_lab.engine.explain import explain_illegal
from hansa_lab.engine.rng import MASK, Rng
from hansa_lab.engine.rules import check_types
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.engine.state import FAVOUR_TILES, RULE_OPTIONS, GameConfig, State
from hansa_lab.engine.variants.favour import FavourIncome
from hansa_lab.engine.variants.permanent import PermanentMarker
from hansa_lab.errors import EngineError, IllegalActionError, StrategyError
from hansa_lab.play import (
    DEFAULT_DECISION_TIME_LIMIT,
    DEFAULT_MAX_ACTIONS,
    DecisionClock,
    GameRecord,
    _next_action,
    _seat_players,
)
from hansa_lab.strategies import (
    ActionsFirst,
    Blocker,
    Greedy,
    KeepSupply,
    NetworkKeys,
    RandomStrategy,
    Strategy,
)

_core: Any
_IMPORT_ERROR: ImportError | None
try:  # the extension module is built by maturin (pip install -e . / maturin develop)
    _core = importlib.import_module("hansa_lab._core")
    _IMPORT_ERROR = None
except ImportError as e:  # pragma: no cover - only without a build
    _core = None
    _IMPORT_ERROR = e

__all__ = [
    "CORE_STRATEGIES",
    "COVERED_SIDES",
    "CoreGame",
    "MatchResult",
    "available",
    "core_policy",
    "covers",
    "play_game",
    "play_match",
    "play_on",
    "play_random_game",
    "play_random_games",
    "timings",
    "turn_columns",
]

#: The strategies the core plays, by name (exactly these classes: see :func:`core_policy`).
CORE_STRATEGIES: dict[str, type[Strategy]] = {
    "random": RandomStrategy,
    "greedy": Greedy,
    "actions_first": ActionsFirst,
    "blocker": Blocker,
    "network_keys": NetworkKeys,
    "keep_supply": KeepSupply,
}
#: Board sides the core covers (every player count, edition and rule option of them).
COVERED_SIDES = BOARD_SIDES
END_REASONS = ("prestige", "markers", "cities")
_DECISIONS: dict[str, type[Decision]] = {
    "relocate": Relocate,
    "relocate_neutral": RelocateNeutral,
    "move": Move,
    "move3": MoveOpponents,
    "remove3": RemoveOpponents,
    "place_marker": PlaceMarkers,
    "favour_income": FavourIncome,
    "permanent": PermanentMarker,
}


def available() -> bool:
    """Whether the compiled core is built and importable."""
    return _core is not None


def covers(config: GameConfig) -> bool:
    """Whether the core plays this configuration."""
    return config.side in COVERED_SIDES


def _module() -> Any:
    if _core is None:
        raise ImportError(
            "the compiled core hansa_lab._core is not built: run `make .venv/.installed` "
            "(needs a Rust toolchain) or `maturin develop --release`"
        ) from _IMPORT_ERROR
    return _core


def _core_config(config: GameConfig) -> Any:
    """The configuration as the core's ``CoreConfig`` (built once per call site)."""
    if not covers(config):
        raise NotImplementedError(
            f"the compiled core does not cover the board side {config.side!r} yet "
            f"(covered: {', '.join(COVERED_SIDES)}); use the Python engine"
        )
    options = {name: config.option(name) for name in RULE_OPTIONS}
    return _module().CoreConfig(config.n_players, config.side, config.edition,
                                int(config.seed) & MASK, options)


def _decision(t: tuple[Any, ...]) -> Decision:
    kind, *values = t
    if kind == "permanent":
        values[1] = PERMANENT_MARKERS[values[1]]
    return _DECISIONS[kind](*values)


def _names(table: tuple[str, ...], codes: Any) -> tuple[str, ...]:
    return tuple(table[k] for k in codes)


class CoreGame:
    """A position of the compiled core, for one configuration."""

    __slots__ = ("_s", "config")

    def __init__(self, config: GameConfig, _state: Any = None) -> None:
        self.config = config
        self._s = _state if _state is not None else _module().CoreState(_core_config(config))

    # ----------------------------------------------------------------- queries
    @property
    def current_player(self) -> int:
        return int(self._s.current_player)

    @property
    def is_over(self) -> bool:
        return bool(self._s.is_over)

    @property
    def n_actions(self) -> int:
        return int(self._s.n_actions)

    def legal_actions(self) -> list[Action]:
        return [Action(*t) for t in self._s.legal_actions()]

    def legal_tuples(self) -> list[tuple[str, int, int, int]]:
        """Legal actions as plain tuples (equal to the :class:`Action` values)."""
        out: list[tuple[str, int, int, int]] = self._s.legal_actions()
        return out

    def events(self) -> list[Event]:
        """Events of the last applied action (as the Python engine's ``state.events``)."""
        return [Event(*t) for t in self._s.events()]

    def score_rows(self) -> list[tuple[int, ...]]:
        """Score if the game ended now, per player in :data:`CATEGORIES` order."""
        return [tuple(r) for r in self._s.score_rows()]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [dict(zip(CATEGORIES, r, strict=True)) for r in self._s.score_rows()]

    def ranking(self) -> list[int]:
        return list(self._s.ranking())

    def copy(self) -> CoreGame:
        return CoreGame(self.config, self._s.copy())

    # ----------------------------------------------------------------- apply
    def apply(self, action: Action) -> None:
        """Apply ``action`` in place; an illegal action (or any garbage) raises
        :class:`IllegalActionError` with the Python engine's message, the position
        unchanged."""
        check_types(action)  # what the Python engine refuses before looking at the rules
        if not self._s.try_apply(action.kind, action.a, action.b, action.c):
            raise IllegalActionError(explain_illegal(self.to_state(), action))

    def random_choice(self, rng_state: int) -> tuple[Action, int] | None:
        """The random strategy's choice with a SplitMix64 stream in state ``rng_state``:
        (action, the stream's state after), or None once the game is over."""
        out = _random_policy().choose(self._s, rng_state & MASK)
        if out is None:
            return None
        t, state = out
        return Action(*t), int(state)

    # ----------------------------------------------------------------- conversions
    def to_state(self) -> State:
        """The position as a Python :class:`State` (equal field by field to the Python
        engine's state after the same actions, with the last action's events)."""
        d = self._s.to_dict()
        config = self.config
        pending = tuple(_decision(t) for t in d["pending"])
        favours = tuple(_names(FAVOUR_TILES, f) for f in d["favours"])
        return State(
            config=config,
            board=config.load_board(),
            posts=list(d["posts"]),
            offices=list(d["offices"]),
            extras=[tuple(x) for x in d["extras"]],
            supply_t=list(d["supply_t"]),
            supply_m=list(d["supply_m"]),
            stock_t=list(d["stock_t"]),
            stock_m=list(d["stock_m"]),
            prestige=list(d["prestige"]),
            levels=[list(lv) for lv in d["levels"]],
            markers=[_names(MARKER_KINDS, m) for m in d["markers"]],
            markers_used=[_names(MARKER_KINDS, m) for m in d["markers_used"]],
            route_marker=[MARKER_KINDS[m] if m >= 0 else None for m in d["route_marker"]],
            bag=_names(MARKER_KINDS, d["bag"]),
            drawn=_names(MARKER_KINDS, d["drawn"]),
            special=list(d["special"]),
            special_points=tuple(d["special_points"]),
            east_west=tuple(d["east_west"]),
            discarded=_names(MARKER_KINDS, d["discarded"]),
            permits_used=tuple(d["permits_used"]),
            neutral_pool=int(d["neutral_pool"]),
            favour_display=_names(FAVOUR_TILES, d["favour_display"]),
            favours=favours,
            turn_start=int(d["turn_start"]),
            active=int(d["active"]),
            actions_left=int(d["actions_left"]),
            round=int(d["round"]),
            turn=int(d["turn"]),
            n_actions=int(d["n_actions"]),
            completed=int(d["completed"]),
            pending=pending,
            end_reason=None if d["end_reason"] is None else END_REASONS[d["end_reason"]],
            end_after_action=(
                None if d["end_after_action"] is None else END_REASONS[d["end_after_action"]]
            ),
            events=self.events(),
        )

    @classmethod
    def from_state(cls, state: State) -> CoreGame:
        """The core's twin of a Python :class:`State` (a ValueError names a malformed
        field; NotImplementedError for a configuration the core does not cover)."""
        game = cls(state.config)
        game._s.set_fields(state_fields(state))
        return game


def _codes(table: tuple[str, ...], names: Any, field: str) -> list[int]:
    try:
        return [table.index(x) for x in names]
    except (ValueError, TypeError) as e:
        raise ValueError(f"state field {field}: {e}") from e


def state_fields(state: State) -> dict[str, Any]:
    """A Python :class:`State`'s fields as the core reads them (indices for names)."""
    pending = []
    for f in state.pending:
        kind = getattr(f, "KIND", None)
        if kind not in _DECISIONS or type(f) is not _DECISIONS[kind]:
            raise NotImplementedError(
                f"the compiled core has no pending decision like {f!s} yet"
            )
        values = [getattr(f, x.name) for x in fields(f)]
        if kind == "permanent":  # the marker's name as its index
            values[1] = _codes(PERMANENT_MARKERS, [values[1]], "pending")[0]
        pending.append((kind, *values))
    end = state.end_reason
    eaa = state.end_after_action
    return {
        "posts": state.posts,
        "offices": state.offices,
        "extras": [list(x) for x in state.extras],
        "supply_t": state.supply_t,
        "supply_m": state.supply_m,
        "stock_t": state.stock_t,
        "stock_m": state.stock_m,
        "prestige": state.prestige,
        "levels": state.levels,
        "markers": [_codes(MARKER_KINDS, m, "markers") for m in state.markers],
        "markers_used": [_codes(MARKER_KINDS, m, "markers_used") for m in state.markers_used],
        "route_marker": [-1 if m is None else _codes(MARKER_KINDS, [m], "route_marker")[0]
                         for m in state.route_marker],
        "bag": _codes(MARKER_KINDS, state.bag, "bag"),
        "drawn": _codes(MARKER_KINDS, state.drawn, "drawn"),
        "special": state.special,
        "special_points": list(state.special_points),
        "east_west": list(state.east_west),
        "discarded": _codes(MARKER_KINDS, state.discarded, "discarded"),
        "permits_used": list(state.permits_used),
        "neutral_pool": state.neutral_pool,
        "favour_display": _codes(FAVOUR_TILES, state.favour_display, "favour_display"),
        "favours": [_codes(FAVOUR_TILES, f, "favours") for f in state.favours],
        "turn_start": state.turn_start,
        "active": state.active,
        "actions_left": state.actions_left,
        "round": state.round,
        "turn": state.turn,
        "n_actions": state.n_actions,
        "completed": state.completed,
        "pending": pending,
        "end_reason": None if end is None else _codes(END_REASONS, [end], "end_reason")[0],
        "end_after_action": None if eaa is None else _codes(END_REASONS, [eaa],
                                                            "end_after_action")[0],
    }


def play_random_game(config: GameConfig, max_actions: int = 20_000) -> tuple[CoreGame,
                                                                               list[Action]]:
    """A whole game with the random strategy in every seat, played in the core (the same
    game as :func:`hansa_lab.play.play_game` ``(config, ["random"] * n)``)."""
    s, actions = _module().play_random_game(_core_config(config), max_actions)
    return CoreGame(config, s), [Action(*t) for t in actions]


def timings(config: GameConfig, games: int = 50) -> tuple[float, float, float]:
    """Nanoseconds per state copy, full legal-action list and score-if-ended-now in the
    core, averaged over the positions of ``games`` random games."""
    out: tuple[float, float, float] = _module().timings(_core_config(config), games)
    return out


def play_random_games(config: GameConfig, seeds: list[int],
                      max_actions: int = 20_000) -> tuple[int, int, int]:
    """Random games for ``seeds`` (the configuration's own seed is ignored), all in the
    core: (games, actions, capped games)."""
    seeds = [int(s) & MASK for s in seeds]
    out: tuple[int, int, int] = _module().play_random_games(_core_config(config), seeds,
                                                            max_actions)
    return out


def turn_columns() -> list[str]:
    """The columns of the ``turns`` rows the core builds, in their order."""
    return list(_module().TURN_COLUMNS)


@functools.cache
def _random_policy() -> Any:
    return core_policy(RandomStrategy())


def core_policy(strategy: Strategy) -> Any | None:
    """The core's twin of ``strategy`` (a ``CorePolicy`` with the same parameters), or
    None when the core does not play it: only the package's own classes of
    :data:`CORE_STRATEGIES` have a twin (a subclass defined elsewhere is called back)."""
    if type(strategy) is not CORE_STRATEGIES.get(strategy.name):
        return None
    params = [(k, float(v)) for k, v in strategy.params.items()]
    return _module().CorePolicy(strategy.name, params)


@dataclass
class MatchResult:
    """A game played through the core (:func:`play_match`): the raw match (its logs as
    the core built them) and its final position."""

    config: GameConfig
    match: Any

    @property
    def actions(self) -> list[Action]:
        return [Action(*t) for t in self.match.actions()]

    @property
    def n_actions(self) -> int:
        return int(self.match.n_actions)

    @property
    def quiet_rounds(self) -> int:
        return int(self.match.quiet_rounds)

    def final(self) -> State:
        return CoreGame(self.config, self.match.state()).to_state()

    def turn_rows(self) -> bytes:
        """The ``turns`` rows as little-endian int32 (rows × :data:`TURN_COLUMNS`)."""
        return bytes(self.match.turn_rows())

    def events(self) -> list[tuple[Any, ...]]:
        """The ``events`` rows: (action index, round, turn, seat, kind, other seat, route,
        city index or -1, detail, value)."""
        out: list[tuple[Any, ...]] = self.match.events()
        return out


def play_match(
    config: GameConfig,
    players: Sequence[Strategy],
    rngs: Sequence[Rng],
    *,
    start: State | None = None,
    seed: int | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    log: bool = False,
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT,
) -> MatchResult:
    """Play a game in the core from ``start`` (default: the set-up). Seats whose strategy
    has a core twin (:func:`core_policy`) play inside the core, drawing from
    ``seat_stream(seed, seat)`` (``seed`` defaults to the game's); the others are asked
    in Python, isolated and timed as in :func:`hansa_lab.play.play_game`, with their
    own ``rngs``. ``log``: the core builds the ``turns`` and ``events`` rows.

    A strategy that fails raises :class:`StrategyError` with the game so far; an error of
    the core raises :class:`EngineError`."""
    seats = [core_policy(pl) for pl in players]
    begin = CoreGame(config) if start is None else CoreGame.from_state(start)
    match = _module().CoreMatch(begin._s, seats, int(config.seed if seed is None else seed)
                                & MASK, max_actions, log)
    clock = (DecisionClock(decision_time_limit)
             if decision_time_limit is not None and None in seats else None)
    action: Action | None = None
    try:
        while (p := match.advance()) is not None:
            shown = CoreGame(config, match.state()).to_state()
            try:
                action = _next_action(config, list(players), list(rngs), shown, [], clock)
            except StrategyError as e:
                so_far = [Action(*t) for t in match.actions()]
                raise StrategyError(config, p, players[p], len(so_far), e.error,
                                    so_far) from e.error
            if not match.apply(*action):
                raise IllegalActionError(
                    f"the core refused {action!r}, legal in the Python engine")
            action = None
        match.finish()
    except StrategyError:
        raise
    except Exception as e:
        so_far = [Action(*t) for t in match.actions()]
        raise EngineError(config, so_far, action, e) from e
    finally:
        if clock is not None:
            clock.close()
    return MatchResult(config, match)


def play_game(config: GameConfig, strategies: Any, *, check: bool = False,
              max_actions: int = DEFAULT_MAX_ACTIONS,
              decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT) -> Any:
    """:func:`hansa_lab.play.play_game` with the compiled core as the rules engine: the
    same game, the same :class:`~hansa_lab.play.GameRecord` (its ``final`` state converted
    to a Python :class:`State`).

    Seats whose strategy has a core twin (random, greedy and the tips) choose inside the
    core (such a line-up plays the whole game there); any other strategy is called back
    with a Python :class:`State` and the legal actions, isolated as in the Python loop.
    ``check=True`` runs the invariant checker on every position (one step at a time)."""
    import time

    players, rngs = _seat_players(config, strategies, config.seed)
    t0 = time.perf_counter()
    specs = [pl.spec for pl in players]
    if check:
        actions, final = _play_checked(config, players, rngs, max_actions, decision_time_limit)
    else:
        run = play_match(config, players, rngs, max_actions=max_actions,
                         decision_time_limit=decision_time_limit)
        actions, final = run.actions, run.final()
    return GameRecord(config=config, strategies=specs, actions=actions, final=final,
                      wall_time=time.perf_counter() - t0)


def play_on(state: State, strategies: Any, seed: int | None = None, *,
            max_actions: int = DEFAULT_MAX_ACTIONS,
            decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT) -> GameRecord:
    """:func:`hansa_lab.play.play_on` in the core: the same continuation from ``state``
    (seat ``p`` draws from ``seat_stream(seed, p)``, ``seed`` defaulting to the game's),
    the same :class:`~hansa_lab.play.GameRecord`."""
    import time

    config = state.config
    base = config.seed if seed is None else seed
    players, rngs = _seat_players(config, strategies, base)
    t0 = time.perf_counter()
    run = play_match(config, players, rngs, start=state, seed=base, max_actions=max_actions,
                     decision_time_limit=decision_time_limit)
    return GameRecord(config=config, strategies=[pl.spec for pl in players],
                      actions=run.actions, final=run.final(),
                      wall_time=time.perf_counter() - t0,
                      extra={"start_action": state.n_actions, "seed": base})


def _play_checked(config: GameConfig, players: list[Strategy], rngs: list[Rng],
                  max_actions: int, decision_time_limit: float | None
                  ) -> tuple[list[Action], State]:
    """The game one action at a time, every position converted and checked."""
    from hansa_lab.engine.invariants import check_state, check_transition

    game = CoreGame(config)
    policies = [core_policy(pl) for pl in players]
    actions: list[Action] = []
    before = game.to_state()
    action: Action | None = None
    clock = DecisionClock(decision_time_limit) if decision_time_limit is not None else None
    try:
        while not game.is_over and len(actions) < max_actions:
            p = game.current_player
            policy = policies[p]
            if policy is not None:
                choice = policy.choose(game._s, rngs[p].state)
                assert choice is not None
                action, rngs[p].state = Action(*choice[0]), choice[1]
            else:
                action = _next_action(config, players, rngs, before, actions, clock)
            game.apply(action)
            after = game.to_state()
            check_state(after)
            check_transition(before, after)
            before = after
            actions.append(action)
            action = None
    except StrategyError:
        raise
    except Exception as e:
        raise EngineError(config, actions, action, e) from e
    finally:
        if clock is not None:
            clock.close()
    return actions, before
