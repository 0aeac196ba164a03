"""Games played through the compiled rules core (``hansa_lab._core``, Rust, in ``core/``).

The Python engine (:mod:`hansa_lab.engine`) is the readable reference; the core is its
twin, module by module (``core/src/board.rs`` … ``variants/``), and the parity harness
(:mod:`hansa_lab.tools.parity`, ``hansa-lab parity``) checks the two step by step. A
single core position and its conversion to and from a Python :class:`State` are in
:mod:`hansa_lab.compiled.bridge` (:class:`~hansa_lab.compiled.bridge.CoreGame`).

The core plays every configuration of the Python engine: the five board sides, both
editions, every rule option. Here: the core's games behind the game loop's
:class:`~hansa_lab.play.loop.Game` protocol (:class:`CoreMatchGame`,
:class:`CheckedCoreGame`), :func:`play_match` with the logs built in the core, the core
twins of the package's strategies (:data:`CORE_STRATEGIES`, :func:`core_policy`) and the
benchmarks' batch of random games. A whole game in either engine is
:func:`hansa_lab.play.play_game` ``(..., engine="core")``.

>>> from hansa_lab.engine.state import GameConfig
>>> from hansa_lab.play import play_game
>>> rec = play_game(GameConfig(n_players=3, seed=7), ["greedy", "random", "random"],
...                 engine="core")
>>> rec.end_reason in ("prestige", "markers", "cities")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hansa_lab.compiled.bridge import (
    CoreGame,
    core_match,
    core_policy_named,
    core_random_games,
)
from hansa_lab.engine.actions import Action
from hansa_lab.engine.invariants import check_state, check_transition
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import GameConfig, State
from hansa_lab.engine.vocabulary import CORE_POLICIES
from hansa_lab.errors import IllegalActionError
from hansa_lab.play.loop import (
    DEFAULT_DECISION_TIME_LIMIT,
    DEFAULT_MAX_ACTIONS,
    Game,
    checked_seed,
    run_game,
)
from hansa_lab.strategies import (
    ARCHETYPES,
    Learned,
    LearnedRollout,
    Strategy,
    Strong,
    StrongV1,
    StrongV2,
    registry,
)

if TYPE_CHECKING:
    from hansa_lab.compiled.bridge import CoreMatch, CorePolicy

__all__ = [
    "CORE_STRATEGIES",
    "CheckedCoreGame",
    "CoreMatchGame",
    "MatchResult",
    "core_policy",
    "play_match",
    "play_random_games",
]

#: The strategies the core plays, by name (exactly these classes: see :func:`core_policy`):
#: the registered classes of the names the shared vocabulary declares the core's
#: (``core_policies``, the core's ``POLICY_NAMES``), then the classes that reach a core
#: policy under another name (``core_name``) or through a twin built from a model file.
CORE_STRATEGIES: dict[str, type[Strategy]] = {
    **{name: registry()[name] for name in CORE_POLICIES},
    "strong_v1": StrongV1,
    "learned": Learned,
    "learned_rollout": LearnedRollout,
    "strong": Strong,
    "strong_v2": StrongV2,
    **ARCHETYPES,
}
def play_random_games(config: GameConfig, seeds: list[int],
                      max_actions: int = 20_000) -> tuple[int, int, int]:
    """Random games for ``seeds`` (the configuration's own seed is ignored), all in the
    core: (games, actions, capped games). A seed outside 0 … 2**63 - 1 raises
    ``ValueError``, as :class:`GameConfig` does."""
    return core_random_games(config, [checked_seed(s) for s in seeds], max_actions)


def core_policy(strategy: Strategy, config: GameConfig | None = None) -> CorePolicy | None:
    """The core's twin of ``strategy`` (a ``CorePolicy`` with the same parameters) for
    games of ``config``, or None when the core does not play it: only the package's own
    classes of :data:`CORE_STRATEGIES` have a twin (a subclass defined elsewhere is called
    back). A strategy built from a strategy file is its base's class with other values,
    so it has its base's twin. ``config`` decides the model of a learned player whose
    ``model`` is ``auto`` (without it: the newest generation of ``learned_base4p``)."""
    cls = type(strategy)
    if cls is not CORE_STRATEGIES.get(cls.name):
        return None
    twin = getattr(strategy, "core_twin", None)
    if twin is not None:  # built from more than numbers (learned: its model file)
        built: CorePolicy = twin(config)
        return built
    params = [(k, float(v)) for k, v in strategy.params.items()]
    return core_policy_named(getattr(strategy, "core_name", cls.name), params)


@dataclass
class MatchResult:
    """A game played through the core (:func:`play_match`): the raw match (its logs as
    the core built them) and its final position."""

    config: GameConfig
    match: CoreMatch

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

    def events(self) -> list[tuple[int, int, int, int, str, int, int, int, str, int]]:
        """The ``events`` rows: (action index, round, turn, seat, kind, other seat, route,
        city index or -1, detail, value)."""
        return self.match.events()


class CoreMatchGame(Game):
    """A game in the core's match loop behind the :class:`~hansa_lab.play.loop.Game`
    protocol: :meth:`advance` plays every seat with a core twin (:func:`core_policy`)
    inside the core without a Python call (a whole game, when every seat has one), and
    stops for the others; ``log``: the core builds the ``turns`` and ``events`` rows."""

    def __init__(self, config: GameConfig, players: Sequence[Strategy], *,
                 start: State | None = None, seed: int | None = None,
                 max_actions: int = DEFAULT_MAX_ACTIONS, log: bool = False) -> None:
        seats = [core_policy(pl, config) for pl in players]
        stream = checked_seed(config.seed if seed is None else seed)
        begin = CoreGame(config) if start is None else CoreGame.from_state(start)
        self.config = config
        self.match = core_match(begin, seats, stream, max_actions, log)
        self._shown: State | None = None  # the position converted for the asked seat

    def advance(self) -> int | None:
        self._shown = None
        seat: int | None = self.match.advance()
        return seat

    def position(self) -> State:
        if self._shown is None:
            self._shown = CoreGame(self.config, self.match.state()).to_state()
        return self._shown

    def apply(self, action: Action) -> None:
        self._shown = None
        if not self.match.apply(*action):
            raise IllegalActionError(
                f"the core refused {action!r}, legal in the Python engine")

    def finish(self) -> None:
        self.match.finish()

    def actions(self) -> list[Action]:
        return [Action(*t) for t in self.match.actions()]

    def final(self) -> State:
        return CoreGame(self.config, self.match.state()).to_state()


class CheckedCoreGame(Game):
    """A game in the core one action at a time behind the
    :class:`~hansa_lab.play.loop.Game` protocol, every position converted and checked by the
    invariant checker (``check=True``); the seats with a core twin choose through it
    (:meth:`advance`), drawing from their own ``rngs``."""

    def __init__(self, config: GameConfig, players: Sequence[Strategy],
                 rngs: Sequence[Rng], *, max_actions: int = DEFAULT_MAX_ACTIONS) -> None:
        self.config = config
        self.game = CoreGame(config)
        self.policies = [core_policy(pl, config) for pl in players]
        self.rngs = list(rngs)
        self.max_actions = max_actions
        self.played: list[Action] = []
        self.before = self.game.to_state()

    def advance(self) -> int | None:
        while not self.game.is_over and len(self.played) < self.max_actions:
            p = self.game.current_player
            policy = self.policies[p]
            if policy is None:
                return p
            choice = self.game.choice_of(policy, self.rngs[p].state)
            if choice is None:  # pragma: no cover - only after the end, checked above
                raise RuntimeError("the core's policy found no decision")
            action, self.rngs[p].state = choice
            self.apply(action)
        return None

    def position(self) -> State:
        return self.before

    def apply(self, action: Action) -> None:
        self.game.apply(action)
        after = self.game.to_state()
        check_state(after)
        check_transition(self.before, after)
        self.before = after
        self.played.append(action)

    def actions(self) -> list[Action]:
        return self.played


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
    in Python by the one game loop (:func:`hansa_lab.play.loop.run_game`: isolated and
    timed as in :func:`hansa_lab.play.play_game`), with their own ``rngs``. ``log``: the core
    builds the ``turns`` and ``events`` rows.

    A strategy that fails raises :class:`StrategyError` with the game so far; an error of
    the core raises :class:`EngineError`. Bad arguments raise before the game starts:
    ``ValueError`` for a seed outside 0 … 2**63 - 1 or an inconsistent ``start``
    (:meth:`CoreGame.from_state`)."""
    game = CoreMatchGame(config, players, start=start, seed=seed, max_actions=max_actions,
                         log=log)
    run_game(game, players, rngs, decision_time_limit=decision_time_limit)
    return MatchResult(config, game.match)
