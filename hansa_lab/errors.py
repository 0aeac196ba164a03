"""The error classes shared across the layers of hansa_lab.

Each names what was wrong and where (board, seed, turn, action, field, file). This module
imports nothing from the package at run time, so every layer may import it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any, Protocol


class _Config(Protocol):
    """What an error needs of a game's configuration (a ``GameConfig``)."""

    @property
    def seed(self) -> int: ...
    @property
    def n_players(self) -> int: ...
    @property
    def edition(self) -> str: ...
    @property
    def side(self) -> str: ...


class _Named(Protocol):
    """What an error needs of a strategy (a ``Strategy``)."""

    @property
    def spec(self) -> str: ...


class ActionParseError(ValueError):
    """Text that is not an action on this board."""


class IllegalActionError(ValueError):
    """An action that is not legal in the given state (the state is unchanged)."""


class BoardDataError(ValueError):
    """The packaged board data is inconsistent (names the board and the field)."""


class ModelFileError(ValueError):
    """A learned model file that cannot be played (``hansa_lab.strategies.model_file``):
    not a readable file, not JSON, or an entry the core would refuse or trip over.

    ``path`` is the file, ``field`` the entry that is wrong (``"weights[3]"``,
    ``"features[5]"``, ``"hidden.bias"``; ``""`` for the file as a whole) and ``message``
    what is wrong with it; ``str()`` gives ``"model file PATH: FIELD: message"`` (a path
    longer than 120 characters shortened in the middle)."""

    def __init__(self, path: Any, field: str, message: str) -> None:
        self.path = path
        self.field = field
        self.message = message
        shown = str(path)
        if len(shown) > 120:
            shown = f"{shown[:60]}...{shown[-40:]}"
        super().__init__(f"model file {shown}: {field}: {message}" if field
                         else f"model file {shown}: {message}")


class CoreError(RuntimeError):
    """The compiled core (``hansa_lab._core``) failed inside a call: a bug in the core
    (a panic), caught at the binding boundary so that it never takes the interpreter down.
    The message names the call (``"hansa_lab._core.CoreState.legal_actions: ..."``); the
    object the call was made on is unchanged. Bad arguments to the core raise
    ``ValueError``/``TypeError``/``OverflowError`` instead, before anything runs."""


class InvariantError(AssertionError):
    """A state that breaks a rule of conservation or consistency."""


class EngineError(RuntimeError):
    """Playing a game failed outside the strategies (a bug in the engine or in an
    observer); carries the actions applied so far and the one being applied, if any."""

    def __init__(
        self, config: _Config, actions: list[Any], in_flight: Any,
        error: BaseException,
    ) -> None:
        self.config = config
        self.actions = [*actions, *([in_flight] if in_flight is not None else [])]
        self.error = error
        super().__init__(
            f"engine error in game seed {config.seed} ({config.side}, {config.n_players}p, "
            f"{config.edition}) after {len(actions)} actions: {type(error).__name__}: {error}"
        )


class StrategyError(RuntimeError):
    """A strategy raised or returned an illegal action; carries the game so far."""

    def __init__(
        self,
        config: _Config,
        seat: int,
        strategy: _Named,
        n_actions: int,
        error: BaseException,
        actions: list[Any],
    ) -> None:
        self.config = config
        self.seat = seat
        self.strategy = strategy.spec
        self.n_actions = n_actions
        self.error = error
        self.actions = list(actions)
        super().__init__(
            f"strategy {strategy.spec!r} in seat {seat} failed at action {n_actions + 1} "
            f"of game seed {config.seed} ({config.side}, {config.n_players}p, "
            f"{config.edition}): {type(error).__name__}: {error}"
        )


class DecisionTimeout(BaseException):
    """Raised inside a strategy that took longer than the per-decision time limit (a
    BaseException, so a strategy's own ``except Exception`` does not swallow it)."""


class StateModified(RuntimeError):
    """A strategy changed the state it was shown (it got a copy; the game is unharmed)."""


class ExperimentError(ValueError):
    """An invalid experiment or run argument, found before any game starts.

    ``field`` names the offending field (``"arms.tip[1]"``, ``"n_players"``) and
    ``source`` the experiment file, if any; ``str()`` gives ``"source: field: message"``.
    """

    def __init__(self, field: str, message: str, source: str | None = None) -> None:
        self.field = field
        self.message = message
        self.source = source
        prefix = f"{source}: " if source else ""
        super().__init__(f"{prefix}{field}: {message}" if field else f"{prefix}{message}")


class SimulationFailed(RuntimeError):
    """Raised with ``fail_fast`` after a game failed; completed chunks are saved."""

    def __init__(self, failure: dict[str, Any], saved: str) -> None:
        self.failure = failure
        self.game_id: int = failure["game_id"]
        self.seed: int = failure["seed"]
        self.seat: int = failure["seat"]
        self.strategy: str = failure["strategy"]
        self.error: str = failure["error"]
        who = (
            f"strategy {self.strategy!r} in seat {self.seat}"
            if self.seat >= 0
            else "the engine"
        )
        super().__init__(
            f"game {self.game_id} (seed {self.seed}, arm {failure['arm']!r}, rotation "
            f"{failure['rotation']}) failed: {who}: {self.error} — stopped (fail_fast); {saved}"
        )



class RunTerminated(KeyboardInterrupt):
    """A run stopped by a signal other than Ctrl-C (SIGTERM): handled like an interruption
    (completed chunks saved, resumable); ``signum`` is the signal's number."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"terminated by signal {signum}")


#: Where in the import system an exception raised by a signal handler is dropped or
#: breaks its bookkeeping (qualified names' starts): the module locks (one raised while a
#: lock is taken leaves the lock table inconsistent: a ``KeyError`` from importlib later),
#: the weakref callback that drops a lock after each module loads (Python reports an
#: exception there as "ignored" and carries on), and a compiled module's initialisation
#: (which can clear an error it did not expect, e.g. registering a class with ``abc``).
IMPORT_SPOTS_THAT_LOSE_ERRORS = ("_ModuleLock", "_get_module_lock", "_lock_unlock_module",
                                 "ExtensionFileLoader.")


def lost_if_raised_in(frame: Any) -> bool:
    """Whether an exception raised asynchronously (by a signal handler) in ``frame`` could
    be lost: inside a finaliser (``__del__``; reported as "ignored"), or where the import
    system's own code nearest to ``frame`` is one of
    :data:`IMPORT_SPOTS_THAT_LOSE_ERRORS` (in a module's body, or elsewhere in the import
    system, it propagates as it should). A Ctrl-C during ``import pandas`` was lost about
    once in 60 starts at 0.3-0.4 s, and the command ran on."""
    import_checked = False
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__":
            return True
        if not import_checked and code.co_name == "<module>":
            import_checked = True  # a module's body: an exception ends its import
        elif not import_checked and code.co_filename.startswith("<frozen importlib"):
            if code.co_qualname.startswith(IMPORT_SPOTS_THAT_LOSE_ERRORS):
                return True
            import_checked = True
        frame = frame.f_back
    return False


def raise_unless_lost(error: BaseException, signum: int, frame: Any) -> None:
    """For a signal handler: raise ``error``, unless the handler runs where it could be
    lost (:func:`lost_if_raised_in`); then the signal comes again 20 ms later
    (``_thread.interrupt_main`` from a timer thread: not at once, which would run the
    handler again in the same place), until it lands where it is safe."""
    if lost_if_raised_in(frame):
        import _thread

        again = threading.Timer(0.02, _thread.interrupt_main, (signum,))
        again.daemon = True
        again.start()
        return
    raise error


def raise_terminated(signum: int, frame: Any) -> None:
    """The SIGTERM handler of the runs and the command line: :class:`RunTerminated`,
    raised where it cannot be lost (:func:`raise_unless_lost`)."""
    raise_unless_lost(RunTerminated(signum), signum, frame)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`RunTerminated` (a KeyboardInterrupt) in
    the main thread, so it ends like Ctrl-C: a run's manifest says "interrupted" and it
    resumes. Outside the main thread (where handlers cannot be set) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
