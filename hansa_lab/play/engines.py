"""The rules engines a game can be played with, in one table (:data:`ENGINES`), and the
one :func:`play_game` / :func:`play_on` built from it.

``python`` is the readable reference engine (:mod:`hansa_lab.engine`), ``core`` its
compiled twin (:mod:`hansa_lab.play.core_game`): the same games, the same
:class:`~hansa_lab.play.loop.GameRecord`. Every caller that lets a user choose an engine
(the command line, runs, logs, goldens, benchmarks) names it through :func:`engine_named`
(one error for an unknown engine) and defaults to :data:`DEFAULT_ENGINE`.

>>> from hansa_lab.engine.state import GameConfig
>>> rec = play_game(GameConfig(n_players=3, seed=5), ["random"] * 3)
>>> rec.end_reason in ("prestige", "markers", "cities")
True
>>> play_game(rec.config, ["random"] * 3, engine="core").actions == rec.actions
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from hansa_lab.compiled.bridge import available as core_available
from hansa_lab.engine.actions import Action
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.play.core_game import CheckedCoreGame, CoreMatchGame
from hansa_lab.play.loop import (
    DEFAULT_DECISION_TIME_LIMIT,
    DEFAULT_MAX_ACTIONS,
    Game,
    GameRecord,
    run_game,
    seat_players,
)
from hansa_lab.play.python_game import PythonGame
from hansa_lab.strategies import Strategy

__all__ = ["DEFAULT_ENGINE", "ENGINES", "REFERENCE_ENGINE", "Engine", "GameStart",
           "engine_named", "per_engine", "play_game", "play_on"]

#: the engine of runs, logs, benchmarks and the command line: the compiled core
DEFAULT_ENGINE = "core"
#: the engine of :func:`play_game` and :func:`play_on` unless told: the readable
#: reference, which every other engine must match
REFERENCE_ENGINE = "python"

Step = Callable[[State, Action, State], None]
Observer = Callable[[State, int, str, int], None]


@dataclass(frozen=True)
class GameStart:
    """Everything an engine needs to start a game for the game loop: the seats' players
    and random streams, where it starts (``start``: None for the set-up), the seats'
    stream seed (``seed``), the action cap, and the Python engine's own hooks (``check``
    runs the invariant checker in either engine)."""

    config: GameConfig
    players: Sequence[Strategy]
    rngs: Sequence[Rng]
    start: State | None
    seed: int
    max_actions: int
    check: bool = False
    on_step: Step | None = None
    observer: Observer | None = None


#: how an engine starts its game for the game loop
GameMaker = Callable[[GameStart], Game]


@dataclass(frozen=True)
class Engine:
    """One rules engine: its ``name``, a line ``about`` it, how to start its game
    (``make_game``), whether it can run here (``available``) and whether it calls back
    ``on_step``/``observer`` hooks on every action (``hooks``)."""

    name: str
    about: str
    make_game: GameMaker
    available: Callable[[], bool]
    hooks: bool


def _python_game(g: GameStart) -> Game:
    state = new_game(g.config) if g.start is None else g.start.clone()
    return PythonGame(state, max_actions=g.max_actions, check=g.check, on_step=g.on_step,
                      observer=g.observer)


def _core_game(g: GameStart) -> Game:
    if g.check:
        if g.start is not None:
            raise ValueError("engine 'core': check=True plays from the set-up only")
        return CheckedCoreGame(g.config, g.players, g.rngs, max_actions=g.max_actions)
    return CoreMatchGame(g.config, g.players, start=g.start, seed=g.seed,
                         max_actions=g.max_actions)


#: The rules engines, by name.
ENGINES: dict[str, Engine] = {
    "python": Engine("python", "the readable reference engine", _python_game,
                     lambda: True, True),
    "core": Engine("core", "the compiled core: the core's own strategies decide without a "
                           "Python call per decision", _core_game, core_available, False),
}


def engine_named(name: str) -> Engine:
    """The engine called ``name``; ValueError naming the engines for any other name."""
    engine = ENGINES.get(name) if isinstance(name, str) else None
    if engine is None:
        raise ValueError(f"unknown engine {name!r}; engines: {', '.join(ENGINES)}")
    return engine


T = TypeVar("T")


def per_engine(table: Mapping[str, T], what: str) -> dict[str, T]:
    """``table`` (something per engine, ``what`` names it) checked to name exactly the
    engines of :data:`ENGINES`: a new engine without its entry fails at import."""
    if set(table) != set(ENGINES):
        raise RuntimeError(f"{what} covers engines {sorted(table)}, the engines are "
                           f"{sorted(ENGINES)}")
    return dict(table)


def _played(g: GameStart, engine: Engine, decision_time_limit: float | None,
            extra: dict[str, object] | None = None) -> GameRecord:
    t0 = time.perf_counter()
    game = engine.make_game(g)
    run_game(game, g.players, g.rngs, decision_time_limit=decision_time_limit)
    return GameRecord(config=g.config, strategies=[pl.spec for pl in g.players],
                      actions=game.actions(), final=game.final(),
                      wall_time=time.perf_counter() - t0, extra=dict(extra or {}))


def play_game(
    config: GameConfig,
    strategies: str | Sequence[str | Strategy],
    *,
    engine: str = REFERENCE_ENGINE,
    check: bool = False,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    on_step: Step | None = None,
    observer: Observer | None = None,
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT,
) -> GameRecord:
    """Play one game in ``engine`` (:data:`ENGINES`; every engine plays the same game).
    ``check=True`` runs the invariant checker after every action (in the Python engine
    it also validates every action); ``on_step(before, action, after)`` sees every step
    (the states are then kept immutable; without it the loop updates one state in
    place). ``observer(state, action_index, action_kind, player)`` is called after every
    action with the updated state (whose ``events`` are that action's events); it must
    not modify the state. The hooks are the Python engine's (ValueError in another).

    Strategies are isolated (see :func:`~hansa_lab.play.loop.run_game`): each decision
    sees the seat's view (:func:`~hansa_lab.engine.observe.observe`, the bag's draw
    order hidden), must return within ``decision_time_limit`` seconds (None: no limit),
    and a strategy that raises, exits, times out, changes its view or returns no legal
    action stops the game with a :class:`~hansa_lab.errors.StrategyError`. In the core,
    seats whose strategy has a core twin (:func:`~hansa_lab.play.core_game.core_policy`)
    choose inside the core; any other strategy is called back the same way."""
    eng = engine_named(engine)
    if not eng.hooks and (on_step is not None or observer is not None):
        raise ValueError(f"engine {eng.name!r} takes no on_step or observer; "
                         f"the engine {REFERENCE_ENGINE!r} does")
    players, rngs = seat_players(config, strategies, config.seed)
    start = GameStart(config, players, rngs, None, config.seed, max_actions, check,
                      on_step, observer)
    return _played(start, eng, decision_time_limit)


def play_on(
    state: State,
    strategies: str | Sequence[str | Strategy],
    seed: int | None = None,
    *,
    engine: str = REFERENCE_ENGINE,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT,
) -> GameRecord:
    """Let a line-up play a game on from ``state`` (left unchanged) until it ends, in
    ``engine``.

    The strategy in seat ``p`` draws from :func:`~hansa_lab.engine.rng.seat_stream`
    ``(seed, p)``, ``seed`` defaulting to the game's seed, so the continuation is
    reproducible; from the set-up, with the game's seed and line-up, it is exactly
    :func:`play_game`. The record's ``actions`` are the actions played on
    (``extra["start_action"]`` is where they start) and ``final`` is the end position.
    Used by the viewer's what-if.

    >>> from hansa_lab.play.python_game import states_of
    >>> cfg = GameConfig(n_players=3, seed=4)
    >>> real = play_game(cfg, ["random"] * 3)
    >>> mid = states_of(cfg, real.actions[:100])[-1]
    >>> what_if = play_on(mid, ["random"] * 3, seed=9)
    >>> what_if.extra["start_action"], what_if.final.is_over
    (100, True)
    >>> play_on(new_game(cfg), ["random"] * 3).actions == real.actions
    True
    >>> play_on(mid, ["random"] * 3, seed=9, engine="core").actions == what_if.actions
    True
    """
    eng = engine_named(engine)
    config = state.config
    base = config.seed if seed is None else seed
    players, rngs = seat_players(config, strategies, base)
    start = GameStart(config, players, rngs, state, base, max_actions)
    return _played(start, eng, decision_time_limit,
                   {"start_action": state.n_actions, "seed": base})
