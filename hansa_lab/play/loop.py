"""The game loop every rules engine shares: the :class:`Game` protocol an engine's game
implements, :func:`run_game` (each decision asked through one isolation, time limit and
failure record), the per-decision :class:`DecisionClock`, the line-up's seats
(:func:`seat_players`) and the finished game's :class:`GameRecord`.

The engines' games are in :mod:`hansa_lab.play.python_game` and
:mod:`hansa_lab.play.core_game`; :mod:`hansa_lab.play.engines` names them.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hansa_lab.engine.actions import Action, format_action
from hansa_lab.engine.observe import HiddenBag, observe
from hansa_lab.engine.rng import Rng, check_seed, seat_stream
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.scoring import ranking, score_breakdown
from hansa_lab.engine.state import GameConfig, State
from hansa_lab.errors import (
    DecisionTimeout,
    EngineError,
    IllegalActionError,
    StateModified,
    StrategyError,
)
from hansa_lab.strategies import Strategy, make_strategy
from hansa_lab.strategies.base import is_trusted
from hansa_lab.strategies.lineup import parse_lineup

#: Games that reach this many actions are stopped and reported with end reason "cap".
DEFAULT_MAX_ACTIONS = 20_000
#: Seconds a strategy may take for one decision (no shipped strategy comes near it).
DEFAULT_DECISION_TIME_LIMIT = 60.0


@dataclass
class GameRecord:
    """A finished (or capped) game: enough to replay it and to report it."""

    config: GameConfig
    strategies: list[str]
    actions: list[Action]
    final: State
    wall_time: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def end_reason(self) -> str:
        return self.final.end_reason or "cap"

    def result(self) -> dict[str, Any]:
        """The summary printed by ``hansa-lab play --json``."""
        s = self.final
        bd = score_breakdown(s)
        ranks = ranking(s)
        return {
            "board": s.board.name,
            "edition": self.config.edition,
            "seed": self.config.seed,
            "end_reason": self.end_reason,
            "n_actions": len(self.actions),
            "n_turns": s.turn,
            "n_rounds": s.round,
            "winners": [p for p, r in enumerate(ranks) if r == 1],
            "players": [
                {
                    "seat": p,
                    "strategy": self.strategies[p],
                    "total": sum(bd[p].values()),
                    "rank": ranks[p],
                    "breakdown": bd[p],
                }
                for p in range(s.n_players)
            ],
        }

    def action_texts(self) -> list[str]:
        return [format_action(self.final.board, a) for a in self.actions]


def checked_seed(seed: Any) -> int:
    """``seed`` as an int if it is a seed a game can have (0 … 2**63 - 1, as
    :class:`GameConfig` and the command line take; numpy integers too), else
    ``ValueError`` saying so."""
    return check_seed(seed)


def seat_players(
    config: GameConfig, strategies: str | Sequence[str | Strategy], seed: int
) -> tuple[list[Strategy], list[Rng]]:
    """One strategy and one random stream per seat (streams from ``seed``); the line-up
    as :func:`~hansa_lab.strategies.lineup.parse_lineup` reads it; seat ``p`` draws from
    :func:`~hansa_lab.engine.rng.seat_stream` ``(seed, p)``, the same in the Rust core."""
    seed = checked_seed(seed)
    players = [make_strategy(s) for s in parse_lineup(strategies, config.n_players)]
    return players, [seat_stream(seed, p) for p in range(config.n_players)]


class DecisionClock:
    """The per-decision time limit of one game: a daemon thread that, when a strategy has
    been deciding for more than ``limit`` seconds, raises :class:`DecisionTimeout` in the
    thread running it (``PyThreadState_SetAsyncExc``: works in any thread, at the
    strategy's next Python instruction; a strategy blocked inside one long C call is
    stopped when that call returns).

    Per decision it costs two clock reads and a lock; the thread polls at most every
    quarter second. The game loop brackets each ``choose`` with :meth:`start` and
    :meth:`stop`; :meth:`stop` also turns a timeout that fired just as the strategy
    returned into the same :class:`DecisionTimeout` (never one raised later elsewhere)."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.poll = min(0.25, limit / 4)
        self.target = threading.get_ident()
        self.lock = threading.Lock()
        self.deadline: float | None = None
        self.fired = False
        self.closed = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._watch, name="hansa-lab-decision-clock",
                                           daemon=True)
            self.thread.start()
        with self.lock:
            self.deadline = time.monotonic() + self.limit

    def stop(self) -> None:
        with self.lock:
            self.deadline = None
            fired, self.fired = self.fired, False
        if fired:
            _raise_in(self.target, None)  # cancel it if it has not been raised yet
            raise DecisionTimeout(self.message)

    def close(self) -> None:
        self.closed.set()
        with self.lock:
            self.deadline = None
            if self.fired:
                _raise_in(self.target, None)
            self.fired = False

    @property
    def message(self) -> str:
        return f"took more than {self.limit:g} s to decide (the per-decision time limit)"

    def _watch(self) -> None:
        while not self.closed.wait(self.poll):
            with self.lock:
                if self.deadline is not None and not self.fired and \
                        time.monotonic() > self.deadline:
                    self.fired = True
                    _raise_in(self.target, DecisionTimeout)


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` asynchronously in a thread (None: cancel a pending one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc is not None else None)


class Game(Protocol):
    """A game in progress in one rules engine: what the game loop (:func:`run_game`)
    needs. :class:`~hansa_lab.play.python_game.PythonGame` is the Python engine's; the
    compiled core's are in :mod:`hansa_lab.play.core_game` (its fast inner step is
    :meth:`advance`: the seats the core plays itself decide there, without a call per
    decision)."""

    config: GameConfig

    def advance(self) -> int | None:
        """Play the seats the engine decides itself; the seat whose strategy must be
        asked now, or None when the game is over (or capped)."""

    def position(self) -> State:
        """The current position as a Python :class:`State` (the whole of it: never
        shown to a strategy as it is; the loop shows :func:`observe`'s view)."""

    def observe(self, seat: int) -> State:
        """What ``seat`` may know of the current position (:func:`observe`)."""
        return observe(self.position(), seat)

    def legal_actions(self) -> list[Action]:
        """The legal actions of the current position, in the engines' order."""
        return legal_actions(self.position())

    def apply(self, action: Action) -> None:
        """Play ``action`` (one of :meth:`legal_actions`) for the deciding seat."""

    def finish(self) -> None:
        """The game is done: close what the engine keeps (logs); nothing by default."""
        return None

    def actions(self) -> list[Action]:
        """The actions played so far."""

    def final(self) -> State:
        """The last position as a Python :class:`State` (by default the current one)."""
        return self.position()


class _Decider:
    """Asks the strategies of one game for their decisions, isolated from the game: the
    one place of the time limit (:class:`DecisionClock`), the seat's view
    (:func:`~hansa_lab.engine.observe.observe`: the bag order hidden) and the failure
    record (:class:`StrategyError`)."""

    def __init__(self, game: Game, players: Sequence[Strategy], rngs: Sequence[Rng],
                 decision_time_limit: float | None) -> None:
        self.game = game
        self.players = list(players)
        self.rngs = list(rngs)
        self.trusted = [is_trusted(pl) for pl in self.players]
        self.clock = (DecisionClock(decision_time_limit)
                      if decision_time_limit is not None else None)
        #: the last real bag a trusted strategy was shown hidden, and its hidden form
        self.bag_seen: object = None
        self.bag_view = HiddenBag(())

    def failed(self, seat: int, error: BaseException) -> StrategyError:
        done = list(self.game.actions())
        return StrategyError(self.game.config, seat, self.players[seat], len(done), error,
                             done)

    def decide(self, p: int) -> Action:
        """The action of seat ``p``: its strategy is shown the seat's view and a copy of
        the legal list, within the time limit; the legal action equal to its answer is
        returned (so a look-alike — a plain tuple, float fields — is that legal action).
        Anything else becomes a :class:`StrategyError` carrying the game so far: an
        exception (``SystemExit`` and a timeout included; only ``KeyboardInterrupt``
        passes through, as the user's own interruption), an answer equal to no legal
        action, a change to the view it was shown. The package's own strategies (which
        never change what they are shown) see the position itself with its bag hidden
        for the decision, not a copy."""
        game, clock = self.game, self.clock
        legal = game.legal_actions()
        player = self.players[p]
        if self.trusted[p]:
            shown = game.position()
            real = shown.bag
            if real is not self.bag_seen:  # the bag changes a few times a game
                self.bag_seen, self.bag_view = real, HiddenBag(real)
            shown.bag = self.bag_view  # type: ignore[assignment]
        else:
            real = None
            shown = game.observe(p)
        try:
            if clock is None:
                action = player.choose(shown, list(legal), self.rngs[p])
            else:
                clock.start()
                try:
                    action = player.choose(shown, list(legal), self.rngs[p])
                finally:
                    clock.stop()
        except KeyboardInterrupt:
            raise
        except DecisionTimeout as e:
            raise self.failed(p, DecisionTimeout(clock.message if clock else str(e))) \
                from None
        except BaseException as e:  # SystemExit too: a strategy must not end the run
            raise self.failed(p, e) from e
        finally:
            if real is not None:
                shown.bag = real
        if real is None:
            seen = game.observe(p)
            if shown != seen:
                changed = sorted(k for k, v in shown.__getstate__().items()
                                 if v != seen.__getstate__()[k])
                raise self.failed(p, StateModified(
                    f"strategy changed the state it was shown ({', '.join(changed)}); "
                    "strategies must not modify it"))
        try:
            return legal[legal.index(action)]
        except Exception:  # not equal to any legal action (or not comparable at all)
            raise self.failed(p, IllegalActionError(
                f"strategy returned an illegal action {action!r}")) from None

    def close(self) -> None:
        if self.clock is not None:
            self.clock.close()


def run_game(
    game: Game,
    players: Sequence[Strategy],
    rngs: Sequence[Rng],
    *,
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT,
) -> None:
    """The game loop of every engine: play ``game`` to its end, asking the seats the
    engine does not decide itself (:meth:`Game.advance`) through one isolation, time
    limit and failure record (:class:`_Decider`). A strategy that fails raises
    :class:`StrategyError` with the game so far (game seed, action, seat, strategy); a
    failure of the engine (or of an observer) raises :class:`EngineError`; the clock is
    stopped either way."""
    decider = _Decider(game, players, rngs, decision_time_limit)
    action: Action | None = None  # chosen, not yet fully applied and observed
    try:
        while (p := game.advance()) is not None:
            action = decider.decide(p)
            game.apply(action)
            action = None
        game.finish()
    except StrategyError:
        raise
    except Exception as e:  # the engine (or an observer) failed, not a strategy
        raise EngineError(game.config, list(game.actions()), action, e) from e
    finally:
        decider.close()
