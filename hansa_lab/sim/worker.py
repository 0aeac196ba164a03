"""The worker side of a run: a chunk of games as a task, played in a worker process (or in
this one) to flat rows per table, and the worker's lifetime (it ends with the process
that started it)."""

from __future__ import annotations

import copy
import os
import socket
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from hansa_lab.engine.actions import Action, format_action
from hansa_lab.errors import EngineError
from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT, DEFAULT_ENGINE
from hansa_lab.sim.experiment import (
    GameSpec,
)
from hansa_lab.sim.logs import (
    DEFAULT_STALL_ROUNDS,
    Rows,
    concat_rows,
    config_json,
    record_game,
)
from hansa_lab.sim.store import (
    TABLES,
)
from hansa_lab.strategies import Strategy


@dataclass
class ChunkTask:
    """What a worker receives: a chunk of games and one prototype per strategy spec
    (deep-copied for every seat of every game, so strategies defined in a notebook
    work on any backend)."""

    chunk_id: int
    experiment: str
    games: list[GameSpec]
    prototypes: dict[str, Strategy]
    full: bool = True
    max_actions: int | None = None
    #: the process that started this worker: the worker ends itself when it goes away
    #: (None: not our process to watch, e.g. a worker of an existing dask cluster)
    parent_pid: int | None = None
    #: seconds a strategy may take for one decision (None: no limit)
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT
    #: quiet rounds beyond which a game is flagged as stalled
    stall_rounds: int = DEFAULT_STALL_ROUNDS
    #: rules engine (:data:`hansa_lab.play.ENGINES`)
    engine: str = DEFAULT_ENGINE


@dataclass
class ChunkResult:
    """What a worker returns: flat rows per table (see :mod:`hansa_lab.sim.logs`)."""

    chunk_id: int
    rows: dict[str, Rows]
    n_games: int
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    pid: int = 0
    host: str = ""


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play a chunk of games (in a worker) and return their rows per table.

    A strategy that raises or returns an illegal action gives a ``failures`` row (see
    :func:`hansa_lab.sim.logs.record_game`); so does an error of the engine itself (seat
    -1, strategy ``"(engine)"``, the actions chosen so far, the last one possibly the
    one whose application failed). Either way the chunk goes on with its next game."""
    if task.parent_pid is not None and task.parent_pid != os.getpid():
        _exit_with_parent()
    t0 = time.perf_counter()
    parts: dict[str, list[Rows]] = {t: [] for t in TABLES}
    failures: list[dict[str, Any]] = []
    for g in task.games:
        strategies = [copy.deepcopy(task.prototypes[s]) for s in g.lineup]
        try:
            rows = record_game(
                g.config, strategies, g.game_id, experiment=task.experiment, arm=g.arm,
                rotation=g.rotation, full=task.full, max_actions=task.max_actions,
                decision_time_limit=task.decision_time_limit, stall_rounds=task.stall_rounds,
                engine=task.engine,
            )
        except Exception as e:  # not a strategy's fault: an engine error
            rows = {"failures": [_engine_failure(task.experiment, g, e)]}
        for table, r in rows.items():
            parts[table].append(r)
        for f in rows.get("failures", []):
            assert isinstance(f, tuple)
            failures.append({
                "game_id": g.game_id, "arm": g.arm, "seed": g.seed, "rotation": g.rotation,
                "seat": int(f[5]), "strategy": f[6], "error": f[8],
            })
    return ChunkResult(
        chunk_id=task.chunk_id,
        rows={t: concat_rows(p) for t, p in parts.items()},
        n_games=len(task.games),
        failures=failures,
        seconds=time.perf_counter() - t0,
        pid=os.getpid(),
        host=socket.gethostname(),
    )


#: How often a worker checks that the process that started it is still there (seconds).
PARENT_POLL = 0.5


_parent_watch: threading.Thread | None = None


def _exit_with_parent() -> None:
    """In a worker process: start (once) a daemon thread that ends the process as soon as
    its parent is gone — reparented, whatever killed the parent (kill -9 included). The
    worker's pipes to a resource tracker close with it, so the trackers end too."""
    global _parent_watch
    if _parent_watch is not None:
        return
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)  # nobody is left to report to

    if parent == 1:  # already orphaned
        os._exit(1)
    _parent_watch = threading.Thread(target=watch, name="hansa-lab-parent-watch", daemon=True)
    _parent_watch.start()


def _engine_failure(experiment: str, g: GameSpec, error: BaseException) -> tuple[Any, ...]:
    """The ``failures`` row of a game stopped by an error outside the strategies (with
    the actions so far when play_game raised it as an :class:`EngineError`)."""
    chosen: list[Action] = []
    if isinstance(error, EngineError):
        chosen, error = error.actions, error.error
    tb = traceback.format_exception(type(error), error, error.__traceback__)
    where = "".join(tb[-3:-1]).strip().replace("\n", " | ")
    board = g.config.load_board()
    return (
        experiment, g.arm, g.game_id, g.seed, g.rotation, -1, "(engine)", len(chosen),
        f"{type(error).__name__}: {error} [engine error after {len(chosen)} chosen actions, "
        f"at {where}]",
        " ; ".join(format_action(board, a) for a in chosen),
        config_json(g.config),
    )
