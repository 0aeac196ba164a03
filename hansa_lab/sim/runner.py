"""The simulation runner: experiment designs played in parallel, logged to parquet.

Two entry points, both returning a :class:`~hansa_lab.sim.results.Results`:

- :func:`simulate` — one line-up (or a few named arms) on one configuration;
- :func:`run_experiment` — an experiment file (TOML) or dict: several arms, optionally
  crossed with several conditions (player counts, boards, editions, rule options).

Designs are fair (seats rotated, arms paired on the same seeds; see
:mod:`hansa_lab.sim.experiment`). Work is split into chunks of games; a worker plays a chunk
(:func:`run_chunk`) and returns flat rows per table, the parent builds the DataFrames
and writes them (:mod:`hansa_lab.sim.store`) as each chunk completes. Backends: joblib/loky
(``n_jobs=1`` runs the same path serially in this process) or a dask.distributed
cluster. An interrupted run resumes from its completed chunks when called again with
the same configuration; a finished run is not replayed unless ``force=True``.

>>> res = simulate(["random", "random:gather=false", "random"], n_games=4, n_players=3,
...                progress=False)
>>> len(res.games), sorted(res.games.rotation)
(6, [0, 0, 1, 1, 2, 2])
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from hansa_lab import core
from hansa_lab.engine.actions import Action, format_action
from hansa_lab.errors import EngineError, ExperimentError, RunTerminated, SimulationFailed
from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT
from hansa_lab.sim.experiment import (
    ADDED_FIELDS,
    BACKENDS,
    DEFAULT_CHUNK_SIZE,
    GAME_ORDER,
    LOG_LEVELS,
    ROTATION_RULE,
    SEED_RULE,
    Condition,
    Design,
    Experiment,
    GameSpec,
    is_int,
    jsonable,
    load_experiment,
    normalize_experiment,
)
from hansa_lab.sim.logs import (
    DEFAULT_STALL_ROUNDS,
    ENGINES,
    Rows,
    concat_rows,
    config_json,
    empty_frame,
    record_game,
    to_arrow,
    to_frame,
)
from hansa_lab.sim.paths import output_folder
from hansa_lab.sim.results import Results, format_table, open_results, wilson_interval
from hansa_lab.sim.store import (
    TABLES,
    ManifestError,
    ResultStore,
    canonical_hash,
    design_hash,
    design_size,
    fault_point,
    now,
    write_json,
)
from hansa_lab.strategies import Strategy, make_strategy

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "GAME_ORDER",
    "LOG_LEVELS",
    "ROTATION_RULE",
    "SEED_RULE",
    "ChunkResult",
    "ChunkTask",
    "Condition",
    "Design",
    "Experiment",
    "ExperimentError",
    "GameSpec",
    "Results",
    "SimulationFailed",
    "format_table",
    "load_experiment",
    "normalize_experiment",
    "open_results",
    "run_chunk",
    "run_experiment",
    "simulate",
    "wilson_interval",
]

#: Tables written per log level (``summary`` skips the big per-turn and event tables).
LOGGED_TABLES = {"full": TABLES, "summary": ("games", "players", "failures")}
FORMAT = "hansa-lab results v1"


# ---------------------------------------------------------------------------- worker


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
    #: rules engine (:data:`hansa_lab.sim.logs.ENGINES`)
    engine: str = "core"


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


# ------------------------------------------------------------------------ provenance


def _git_info() -> dict[str, Any]:
    """Commit and dirty flag of the git work tree holding this package, else None."""
    where = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=5,
        )
        if commit.returncode != 0:
            return {"commit": None, "dirty": None}
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=where,
            capture_output=True, text=True, timeout=5,
        )
        dirty = bool(status.stdout.strip()) if status.returncode == 0 else None
        return {"commit": commit.stdout.strip(), "dirty": dirty}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}


def _usable_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _workers(n_jobs: int, n_chunks: int, progress: bool) -> int:
    """Worker processes to start: ``n_jobs`` (negative: counted back from all cores),
    never more than the chunks to play (one chunk keeps one worker busy); a warning on
    stderr when that is more than the cores (with or without ``progress``)."""
    cores = _usable_cores()
    wanted = n_jobs if n_jobs > 0 else cores + 1 + n_jobs
    workers = max(1, min(wanted, n_chunks))
    if workers > cores:  # said even without a progress bar: it costs memory and speed
        print(f"warning: {workers} worker processes on {cores} cores; they will share them "
              "(more memory, no more speed)", file=sys.stderr)
    return workers


def _machine() -> dict[str, Any]:
    cores = _usable_cores()
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        mem = None
    return {
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "usable_cores": cores,
        "memory_bytes": mem,
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
    }


def _versions() -> dict[str, str | None]:
    from importlib import metadata

    out: dict[str, str | None] = {}
    for dist in ("hansa-lab", "numpy", "pandas", "pyarrow", "joblib", "dask", "distributed"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


# -------------------------------------------------------------------------- executors


def _iter_joblib(tasks: Iterator[ChunkTask], n_jobs: int) -> Iterator[ChunkResult]:
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered",
                        pre_dispatch="2*n_jobs", batch_size=1)
    gen = parallel(delayed(run_chunk)(t) for t in tasks)
    try:
        yield from gen
    finally:
        close = getattr(gen, "close", None)
        if close is not None:
            close()


def _dask_client(address: Any, n_jobs: int) -> tuple[Any, list[Any]]:
    """The client to use and the objects this run opened (to close at the end):
    ``address`` a Client, a scheduler address, or None (the default client if one
    exists, else a local cluster of ``n_jobs`` worker processes on loopback)."""
    from distributed import Client, LocalCluster

    if isinstance(address, Client):
        return address, []
    if isinstance(address, str):
        try:
            client = Client(address, set_as_default=False, timeout="10s")
        except (OSError, ValueError, TimeoutError) as e:
            raise ExperimentError("dask_address", f"cannot connect to {address!r}: {e}") from None
        return client, [client]
    try:
        from distributed import default_client

        return default_client(), []
    except ValueError:
        cluster = LocalCluster(n_workers=n_jobs if n_jobs > 0 else None, processes=True,
                               threads_per_worker=1, host="127.0.0.1", dashboard_address=None)
        client = Client(cluster, set_as_default=False)
        return client, [client, cluster]


def _iter_dask(tasks: Iterator[ChunkTask], client: Any, own: list[Any]) -> Iterator[ChunkResult]:
    """Run the chunks on a dask cluster, keeping about two per worker in flight."""
    from distributed import as_completed

    token = f"hansa-{os.getpid()}-{time.time_ns()}"
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    # this client's own event loop: it need not be the default client (one the runner made
    # for an address or a local cluster is not), and as_completed() alone looks for that
    pending = as_completed(loop=client.loop)
    in_flight: set[Any] = set()

    def submit() -> bool:
        task = next(tasks, None)
        if task is None:
            return False
        fut = client.submit(run_chunk, task, key=f"{token}-{task.chunk_id}", pure=False)
        in_flight.add(fut)
        pending.add(fut)
        return True

    try:
        for _ in range(2 * workers):
            if not submit():
                break
        for fut in pending:
            try:
                result = fut.result()
            except Exception as e:  # the cluster lost the chunk (e.g. its workers kept dying)
                raise RuntimeError(
                    f"dask: a chunk failed on the cluster ({type(e).__name__}: {e}); completed "
                    "chunks are saved, run the same command again to resume") from e
            in_flight.discard(fut)
            fut.release()
            submit()
            yield result
    finally:
        for fut in in_flight:
            fut.cancel()
        for obj in own:
            obj.close()


# ---------------------------------------------------------------------------- running


@dataclass
class _Exec:
    n_jobs: int = 1
    backend: str = "loky"
    dask_address: Any = None
    progress: bool = True
    fail_fast: bool = False
    force: bool = False
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT
    engine: str = "core"


def _check_exec(ex: _Exec, names: Mapping[str, str]) -> None:
    def n(key: str) -> str:
        return names.get(key, key)

    limit = ex.decision_time_limit
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int | float)
                              or not math.isfinite(limit) or limit <= 0):
        raise ExperimentError(n("decision_time_limit"), "must be a positive number of seconds "
                                                        f"(or None: no limit), got {limit!r}")
    if ex.engine not in ENGINES:
        raise ExperimentError(n("engine"), f"must be one of {', '.join(ENGINES)}, got "
                                           f"{ex.engine!r}")
    if ex.engine == "core" and not core.available():
        raise ExperimentError(n("engine"), "the compiled core is not built (run `make "
                                           "core-build` or `maturin develop --release`), or "
                                           "choose engine='python'")
    if not is_int(ex.n_jobs) or ex.n_jobs == 0:
        raise ExperimentError(n("n_jobs"), f"must be a non-zero integer (-1 = all cores), "
                                           f"got {ex.n_jobs!r}")
    if ex.n_jobs < 0 and _usable_cores() + 1 + ex.n_jobs < 1:
        raise ExperimentError(n("n_jobs"), f"{ex.n_jobs} leaves no worker on "
                              f"{_usable_cores()} cores (-1 = all cores, -2 = all but one)")
    if ex.backend not in BACKENDS:
        raise ExperimentError(n("backend"), f"must be one of {', '.join(BACKENDS)}, "
                                            f"got {ex.backend!r}")
    if ex.backend == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ExperimentError(n("backend"), "the dask backend needs the dask extra: "
                                                "pip install 'hansa-lab[dask]'") from None
    elif ex.dask_address is not None:
        raise ExperimentError(n("dask_address"), "only used with backend='dask'")
    if isinstance(ex.dask_address, str) and not re.match(r"^([a-z]+://)?[^\s/]+:\d+$",
                                                         ex.dask_address):
        raise ExperimentError(n("dask_address"), "must be a scheduler address like "
                              f"'tcp://127.0.0.1:8786', got {ex.dask_address!r}")
    if ex.dask_address is not None and not isinstance(ex.dask_address, str):
        from distributed import Client

        if not isinstance(ex.dask_address, Client):
            raise ExperimentError(n("dask_address"), "must be an address like "
                                  "'tcp://127.0.0.1:8786' or a distributed.Client")


def _config_diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    old = {**{k: v for k, v in ADDED_FIELDS.items() if k not in old}, **old}
    keys = sorted(set(old) | set(new))
    return [k for k in keys if jsonable(old.get(k)) != jsonable(new.get(k))]


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While a run lasts, SIGTERM raises :class:`RunTerminated` (a KeyboardInterrupt) in
    the main thread, so it ends like Ctrl-C: message, manifest "interrupted", resumable.
    Outside the main thread (where handlers cannot be set) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise RunTerminated(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _execute(
    exp: Experiment,
    ex: _Exec,
    out: str | os.PathLike[str] | None,
    names: Mapping[str, str],
    source: dict[str, Any] | None = None,
) -> Results:
    """Check, then start, resume or skip the run, and return its results."""
    _check_exec(ex, names)
    if out is None:
        design = Design(exp)
        with _terminate_as_interrupt():
            return _play(replace(exp, chunk_size=design.chunk_size), design, ex, None, None,
                         {}, source)
    store = ResultStore(Path(out))
    store.check_usable()
    store.check_writable()
    with _terminate_as_interrupt(), store.lock():
        return _open_run(exp, ex, store, names, source)


def _open_run(
    exp: Experiment,
    ex: _Exec,
    store: ResultStore,
    names: Mapping[str, str],
    source: dict[str, Any] | None,
) -> Results:
    """With the folder locked: clear it (force), check the stored configuration, verify the
    done chunks, then finish, resume or start the run."""
    old: dict[str, Any] | None = None
    if store.has_manifest():
        try:
            old = store.read_manifest()
            design_size(old, str(store.path))  # a hand-edited design is refused, never trusted
        except ManifestError:
            if not ex.force:
                raise
    if ex.force and (old is not None or store.has_manifest()):
        store.clear()
        old = None
    if exp.chunk_size is None:  # resuming (or extending) keeps the stored chunking
        stored = (old or {}).get("configuration", {}).get("chunk_size")
        exp = replace(exp, chunk_size=stored if is_int(stored) else Design(exp).chunk_size)
    extended_from = None
    if old is not None:
        old_config = old.get("configuration", {})
        diff = _config_diff(old_config, exp.configuration())
        old_games = old_config.get("games")
        if diff == ["games"] and is_int(old_games) and exp.n_games > old_games:
            extended_from = int(old_games)  # more deals: keep the games already played
        elif diff:
            grow = (" (--games can extend a run, not shrink it)" if diff == ["games"] else "")
            raise ExperimentError(
                names.get("out", "out"),
                f"{store.path} holds a run with a different configuration (differs in: "
                f"{', '.join(names.get(k, k) for k in diff)}){grow}; pass force=True "
                "(--force) to discard it, or choose another out",
            )
    design = Design(exp)
    checked = store.verify(design.n_chunks, lambda i: len(design.chunk_ids(i)),
                           specs_of=lambda i: _specs_hash(design, i))
    if checked.bad:
        _say(True, f"{store.path}: {len(checked.bad)} chunk(s) do not match the design or "
                   "their done-marker and will be played again: " + "; ".join(
                       f"chunk {i}: {why}" for i, why in sorted(checked.bad.items())))
        store.discard_chunks(checked.bad)
    done = checked.done
    if old is not None and extended_from is not None:
        _extend(old, exp, design, store, done)
        _say(True, f"{store.path}: extending from {extended_from} to {exp.n_games} games "
                   f"per arm; {len(done)} of {design.n_chunks} chunks kept")
    if old is not None and old.get("design_hash"):
        _stamp(done, old["design_hash"], store)
    if old is not None and len(done) == design.n_chunks:
        if old.get("status") != "complete":
            _mark_complete(old, design, done, store)
            _say(ex.progress, f"{store.path}: every chunk was done but the run had not been "
                              f"marked complete (status {old.get('status')!r}); marked it now")
        else:
            _say(ex.progress, f"{store.path}: complete ({design.n_games} games), nothing to "
                              "do; pass force=True (--force) to run it again")
        return Results(old, path=store.path, chunks=list(done), markers=done)
    store.cleanup(done)
    if old is not None:
        _say(True, f"{store.path}: incomplete: {len(done)} of {design.n_chunks} chunks "
                   "done; playing the missing ones")
    return _play(exp, design, ex, store, old, done, source)


def _specs_hash(design: Design, chunk: int) -> str:
    """The fingerprint of the games of a chunk (ids, arms, seeds, rotations, line-ups and
    configurations), recorded in its done-marker: a resume keeps a chunk only while the
    design still holds the same games there."""
    return canonical_hash([
        [g.game_id, g.arm, g.seed, g.rotation, list(g.lineup), g.config.n_players,
         g.config.board, g.config.edition, [list(o) for o in g.config.options]]
        for g in design.chunk(chunk)])


def _extend(manifest: dict[str, Any], exp: Experiment, design: Design, store: ResultStore,
            done: dict[int, dict[str, Any]]) -> None:
    """Turn a stored run into the larger design ``design`` (more deals): the manifest takes
    the new configuration, design and fingerprint (status "extending"); :func:`_stamp`
    then gives every kept done-marker the new fingerprint. Killed in between, the same
    command stamps the rest (a chunk's games are checked by its specs hash, not the
    stamp)."""
    manifest["configuration"] = exp.configuration()
    manifest["design"] = design.summary()
    manifest["design_hash"] = design_hash(manifest["configuration"], manifest["design"])
    manifest["seeds"] = {**manifest.get("seeds", {}), "per_condition": [
        c["seeds"] for c in manifest["design"]["conditions"]]}
    manifest["status"] = "extending"
    manifest["progress"] = _progress(design, done)
    store.write_manifest(manifest)


def _stamp(done: dict[int, dict[str, Any]], fingerprint: str, store: ResultStore) -> None:
    """Record ``fingerprint`` (the manifest's design hash) in every kept done-marker that
    holds another one: chunks whose games were checked against the design by their specs
    hash and kept by an extension (or by a resume of one)."""
    for i, marker in done.items():
        if marker.get("design") != fingerprint:
            marker["design"] = fingerprint
            write_json(store.marker_file(i), marker)


def _progress(design: Design, done: Mapping[int, Mapping[str, Any]]) -> dict[str, int]:
    """The manifest's progress entry for the chunks in ``done``."""
    return {
        "chunks_done": len(done), "n_chunks": design.n_chunks,
        "games_done": sum(len(design.chunk_ids(i)) for i in done),
        "total_games": design.n_games,
        "failures": sum(int(m.get("failures", 0)) for m in done.values()),
    }


def _mark_complete(manifest: dict[str, Any], design: Design,
                   done: Mapping[int, Mapping[str, Any]], store: ResultStore) -> None:
    """Record as complete a run whose every chunk is done (its last session was killed
    before it could say so)."""
    for session in manifest.get("sessions", []):
        if isinstance(session, dict) and session.get("status") == "running":
            session["status"] = "killed"
    manifest["status"] = "complete"
    manifest["progress"] = _progress(design, done)
    manifest["finished"] = manifest.get("finished") or now()
    store.write_manifest(manifest)


def _new_manifest(exp: Experiment, design: Design, store: ResultStore | None,
                  source: dict[str, Any] | None, session: dict[str, Any]) -> dict[str, Any]:
    d = design.summary()
    versions = session["versions"]
    configuration = exp.configuration()
    return {
        "format": FORMAT,
        "name": exp.name,
        "description": exp.description,
        "status": "new",
        "package": "hansa-lab",
        "version": versions["hansa-lab"],
        "versions": versions,
        "git_commit": session["git_commit"],
        "git_dirty": session["git_dirty"],
        "configuration": configuration,
        "design": d,
        # the fingerprint of both (checked by every command that opens the folder)
        "design_hash": design_hash(configuration, d),
        "seeds": {
            "base": exp.seed,
            "rule": SEED_RULE,
            "per_condition": [c["seeds"] for c in d["conditions"]],
        },
        "source": source,
        # what every strategy spec of the arms plays (so a run that used a strategy file
        # is reproducible even after the file changes)
        "strategies": exp.strategies(),
        "started": now(),
        "finished": None,
        "machine": _machine(),
        "path": str(store.path) if store else None,
        "sessions": [],
        "progress": {},
    }


def _new_session(ex: _Exec) -> dict[str, Any]:
    git = _git_info()
    versions = _versions()
    return {
        "started": now(), "finished": None, "status": "running", "pid": os.getpid(),
        "host": socket.gethostname(), "version": versions["hansa-lab"], "versions": versions,
        "git_commit": git["commit"], "git_dirty": git["dirty"],
        "execution": {
            "n_jobs": ex.n_jobs, "backend": ex.backend, "fail_fast": ex.fail_fast,
            "decision_time_limit": ex.decision_time_limit, "engine": ex.engine,
            "dask_address": ex.dask_address if isinstance(ex.dask_address, str | None)
            else repr(ex.dask_address),
        },
        "chunks_run": 0, "games_run": 0, "failures": 0,
    }


def _play(
    exp: Experiment,
    design: Design,
    ex: _Exec,
    store: ResultStore | None,
    old: dict[str, Any] | None,
    done: dict[int, dict[str, Any]],
    source: dict[str, Any] | None,
) -> Results:
    """Play the chunks not in ``done``, writing each as it completes."""
    from tqdm.auto import tqdm

    workers = _workers(ex.n_jobs, design.n_chunks - len(done), ex.progress)
    dask = _dask_client(ex.dask_address, workers) if ex.backend == "dask" else None
    session = _new_session(ex)
    manifest = old if old is not None else _new_manifest(exp, design, store, source, session)
    manifest["sessions"].append(session)
    manifest["execution"] = session["execution"]
    games_done = sum(len(design.chunk_ids(i)) for i in done)
    failures = sum(int(m.get("failures", 0)) for m in done.values())

    def save(status: str) -> None:
        manifest["status"] = session["status"] = status
        manifest["progress"] = _progress(design, done)
        if status != "running":
            session["finished"] = now()
        if status == "complete":
            manifest["finished"] = session["finished"]
        if store is not None:
            store.write_manifest(manifest)

    prototypes = {s: make_strategy(s) for lineup in exp.arms.values() for s in lineup}
    # workers of loky or of a local cluster made here end with this process
    watched = None if dask and not dask[1][1:] else os.getpid()
    tasks = (
        ChunkTask(i, exp.name, design.chunk(i), prototypes, exp.log == "full", exp.max_actions,
                  parent_pid=watched, decision_time_limit=ex.decision_time_limit,
                  stall_rounds=exp.stall_rounds, engine=ex.engine)
        for i in range(design.n_chunks) if i not in done
    )
    memory: dict[int, dict[str, pd.DataFrame]] = {}
    failed: dict[str, Any] | None = None
    results: Iterator[ChunkResult] | None = None
    bar = tqdm(total=design.n_games, initial=games_done, unit="game", desc=exp.name,
               disable=not ex.progress, dynamic_ncols=True, file=sys.stderr)
    status = "failed"
    try:
        save("running")
        if store is not None:
            fault_point("manifest_started")
        results = _iter_dask(tasks, *dask) if dask else _iter_joblib(tasks, workers)
        for res in results:
            convert = to_arrow if store is not None else to_frame  # parquet, or kept in memory
            frames = {t: convert(t, res.rows.get(t, [])) for t in LOGGED_TABLES[exp.log]}
            marker = {
                "chunk": res.chunk_id, "games": res.n_games, "failures": len(res.failures),
                "rows": {t: len(df) for t, df in frames.items()},
                "seconds": round(res.seconds, 3), "worker_pid": res.pid,
                "worker_host": res.host, "session": len(manifest["sessions"]) - 1,
                "written": now(),
            }
            if store is not None:  # which design, and which games, the chunk belongs to
                marker["design"] = manifest.get("design_hash")
                marker["specs"] = _specs_hash(design, res.chunk_id)
            if store is not None:
                marker = store.write_chunk(res.chunk_id, frames, marker)
            else:
                memory[res.chunk_id] = frames
            done[res.chunk_id] = marker
            games_done += res.n_games
            failures += len(res.failures)
            session["chunks_run"] += 1
            session["games_run"] += res.n_games
            session["failures"] += len(res.failures)
            save("running")
            bar.update(res.n_games)
            if failures:
                bar.set_postfix(failures=failures)
            if ex.fail_fast and res.failures:
                failed = min(res.failures, key=lambda f: f["game_id"])
                break
        if store is not None and not failed:
            fault_point("all_chunks_done")
        status = "stopped" if failed else "complete"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        with contextlib.suppress(Exception):
            if results is not None:
                results.close()  # type: ignore[attr-defined]
        for obj in dask[1] if dask else ():  # closed by _iter_dask too, unless it never ran
            with contextlib.suppress(Exception):
                obj.close()
        bar.close()
        save(status)
    if store is not None and status == "complete":
        fault_point("final_saved")
    if failed is not None:
        saved = (f"{len(done)} completed chunks are saved in {store.path}; rerun to resume"
                 if store is not None else "results were kept in memory only")
        raise SimulationFailed(failed, saved)
    if failures:
        _say(ex.progress, f"{exp.name}: {failures} game(s) failed; see results.failures")
    if store is not None:
        return Results(manifest, path=store.path, chunks=list(done), markers=done)
    return Results(manifest, frames={
        t: pd.concat([memory[i][t] for i in sorted(memory)], ignore_index=True)
        if memory else empty_frame(t)
        for t in LOGGED_TABLES[exp.log]
    })


_SIMULATE_NAMES = {
    "games": "n_games", "players": "n_players", "arms": "strategies", "jobs": "n_jobs",
}


def simulate(
    strategies: Sequence[str | Mapping[str, Any]] | Mapping[str, Sequence[Any]],
    n_games: int,
    n_players: int = 4,
    board: str = "base",
    edition: str = "bigbox",
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    backend: str = "loky",
    dask_address: Any = None,
    out: str | os.PathLike[str] | None = None,
    name: str | None = None,
    chunk_size: int | None = None,
    progress: bool = True,
    fail_fast: bool = False,
    force: bool = False,
    log: str = "full",
    max_actions: int | None = None,
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT,
    stall_rounds: int = DEFAULT_STALL_ROUNDS,
    engine: str = "core",
) -> Results:
    """Play ``n_games`` seat-rotated games of a line-up and log them.

    ``strategies``: one strategy spec per seat (``["greedy", "random", ...]``), or
    fewer repeated to fill the seats (``["greedy"]`` → all greedy), or a dict of named
    arms (``{"tip": [...], "base": [...]}``) played on the same seeds and rotations.
    ``n_games`` is the number of distinct games per arm, rounded up to a multiple of the
    line-up's distinct seat rotations (``n_players`` when no strategy repeats, 1 for
    a single strategy in every seat; the manifest notes the rounding). ``options`` are rule
    options (:data:`hansa_lab.engine.state.RULE_OPTIONS`). Seeds are ``seed, seed + 1, ...``.

    ``n_jobs``: worker processes (1 = serial in this process, -1 = all cores);
    ``backend``: ``"loky"`` (joblib) or ``"dask"`` with ``dask_address`` an address
    (``"tcp://127.0.0.1:8786"``) or a ``distributed.Client`` (None: the default client,
    or a local cluster of ``n_jobs`` workers). ``out``: the results folder (e.g.
    ``"results/my_run"``): chunks are written as they complete and an interrupted run
    resumes when called again; a finished one is returned as is unless ``force``.
    Without ``out`` the tables stay in memory. ``name`` (default: the folder's name,
    else ``"simulate"``) fills the ``experiment`` column. ``log="summary"`` skips the
    ``turns`` and ``events`` tables. ``fail_fast`` stops at the first failed game
    (raising :class:`SimulationFailed`); otherwise failures go to ``results.failures``.
    A strategy that takes more than ``decision_time_limit`` seconds for one decision
    (None: no limit), raises (``SystemExit`` included), changes the state it is shown or
    returns no legal action fails its game (a ``failures`` row). A game with more than
    ``stall_rounds`` whole rounds without any prestige or Kontor change is flagged
    (``games.stalled``) and named by the report.

    Invalid arguments raise :class:`ExperimentError` (a ``ValueError``) before any game
    is played (``out`` that is not a path, such as ``123``, too).
    """
    if out is not None:
        out = output_folder(out, "out")  # ~ expanded, checked before any game
    named_by_folder = name is None and out is not None
    if name is None:
        name = out.resolve().name if out is not None else "simulate"
    if options is not None and not isinstance(options, Mapping):
        raise ExperimentError("options", f"must be a dict of rule options, got {options!r}")
    raw: dict[str, Any] = {
        "name": name, "arms": strategies if isinstance(strategies, Mapping) else
        list(strategies) if isinstance(strategies, list | tuple) else strategies,
        "games": n_games, "players": n_players, "board": board, "edition": edition,
        "options": dict(options or {}), "seed": seed, "log": log,
    }
    if chunk_size is not None:
        raw["chunk_size"] = chunk_size
    if max_actions is not None:
        raw["max_actions"] = max_actions
    if stall_rounds != DEFAULT_STALL_ROUNDS:
        raw["stall_rounds"] = stall_rounds
    for key in ("players", "board", "edition"):
        if isinstance(raw[key], list | tuple):
            raise ExperimentError(_SIMULATE_NAMES.get(key, key),
                                  "one value only; sweep values with run_experiment")
    try:
        exp = normalize_experiment(raw, names=_SIMULATE_NAMES, default_name="simulate")
    except ExperimentError as e:
        if named_by_folder and e.field == "name":  # the folder's name, not a --name given
            raise ExperimentError("out", f"the folder name {name!r} is not a usable "
                                  "experiment name (letters, digits, _ . -); pass a name "
                                  "(--name) or choose another folder") from None
        raise
    ex = _Exec(n_jobs=n_jobs, backend=backend, dask_address=dask_address, progress=progress,
               fail_fast=fail_fast, force=force, decision_time_limit=decision_time_limit,
               engine=engine)
    return _execute(exp, ex, out, _SIMULATE_NAMES)


def run_experiment(
    spec: Mapping[str, Any] | str | os.PathLike[str],
    *,
    games: int | None = None,
    chunk_size: int | None = None,
    n_jobs: int | None = None,
    backend: str | None = None,
    dask_address: Any = None,
    out: str | os.PathLike[str] | None = None,
    force: bool = False,
    progress: bool = True,
    fail_fast: bool = False,
    decision_time_limit: float | None = None,
    arms: Sequence[str] | None = None,
    players: Sequence[int] | None = None,
    engine: str | None = None,
) -> Results:
    """Run an experiment given as a TOML file (path) or a dict of the same shape.

    The format (every field but ``games`` and ``arms`` is optional)::

        name = "strategy_tips"     # results go to results/<name>/ (default: file stem)
        description = "..."
        games = 2000               # games per arm and condition, rounded up to a
                                   #   multiple of the line-up's distinct rotations
        seed = 0                   # deal d uses seed + d, the same in every arm
        chunk_size = 100           # games per chunk (parallel, write and resume unit)
        log = "full"               # or "summary": no turns/events tables
        max_actions = 20000        # games reaching it end with end_reason "cap"
        base_arm = "base"          # arm the others are compared with (paired)
        jobs = 2                   # default worker processes (-1 = all cores)
        backend = "loky"           # or "dask"
        decision_time_limit = 60   # seconds per strategy decision (a slower one fails)
        engine = "core"            # or "python": the rules engine (same games either way)
        stall_rounds = 20          # flag games with more rounds than this without any
                                   #   prestige or Kontor change (games.stalled)
        players = 4                # condition fields; a list sweeps: [3, 4, 5]
        board = "base"             #   base | east | britannia | a side like base_3p
        edition = "bigbox"         #   bigbox | original; a list sweeps
        [options]                  # rule options (hansa_lab.engine.state.RULE_OPTIONS)
        prestige_to_end = 20

        [arms]                     # arm name = line-up, index 0 is the focal seat
        base = ["greedy", "greedy", "greedy", "greedy"]
        tip = ["actions_first", "greedy", "greedy", "greedy"]
        all_random = ["random"]    # fewer strategies repeat to fill the seats
        tuned = [{name = "greedy", depth = 2}, "greedy"]   # parameters by name

        [[conditions]]             # optional: explicit conditions, each crossed with
        players = 3                #   every arm; fields override the top-level ones
        [[conditions]]             #   and lists expand as above
        players = 5
        options = {start_supply = 4}

    Every arm plays every condition with the same seeds and rotations (paired); game
    ids are unique across arms and conditions. ``games``, ``chunk_size``, ``n_jobs``,
    ``backend``, ``dask_address`` override the file; ``out`` defaults to ``results/<name>`` (next
    to the ``experiments/`` folder holding the file, else in the working directory).
    Resuming, forcing and failures work as in :func:`simulate`. Errors name the file
    and field, e.g. ``experiments/x.toml: arms.tip[1]: unknown strategy 'greedyy'``.
    ``arms`` / ``players`` run part of the experiment (:meth:`Experiment.select`: those
    arms with the base arm, the conditions with those player counts), into a folder of
    its own (``results/<name>--<arms>--<players>p``).
    """
    source_info: dict[str, Any] | None = None
    if out is not None:
        out = output_folder(out, "out")  # ~ expanded, checked before any game
    if not isinstance(spec, Mapping | str | os.PathLike):
        raise ExperimentError("", "an experiment is a TOML file's path or a dict, got "
                                  f"{type(spec).__name__}")
    if isinstance(spec, Mapping):
        raw = dict(spec)
        source = None
        default_name = "experiment"
    else:
        path = Path(spec)
        raw = load_experiment(path)
        source = str(spec)
        default_name = path.stem
        source_info = {"path": str(path), "text": path.read_text("utf-8")}
    if games is not None:
        if not is_int(games) or games < 1:
            raise ExperimentError("games", f"override must be a positive integer, got {games!r}")
        raw["games"] = games
    if chunk_size is not None:
        if not is_int(chunk_size) or chunk_size < 1:
            raise ExperimentError("chunk_size", f"override must be a positive integer, got "
                                                f"{chunk_size!r}")
        raw["chunk_size"] = chunk_size
    exp = normalize_experiment(raw, source=source, default_name=default_name)
    if arms is not None or players is not None:
        exp = exp.select(arms, players)
    ex = _Exec(
        n_jobs=n_jobs if n_jobs is not None else raw.get("jobs", 1),
        backend=backend if backend is not None else raw.get("backend", "loky"),
        dask_address=dask_address if dask_address is not None else raw.get("dask_address"),
        progress=progress, fail_fast=fail_fast, force=force,
        decision_time_limit=decision_time_limit if decision_time_limit is not None
        else raw.get("decision_time_limit", DEFAULT_DECISION_TIME_LIMIT),
        engine=engine if engine is not None else raw.get("engine", "core"),
    )
    out_given = out
    if out is None:
        root = Path.cwd()
        if source is not None and Path(source).resolve().parent.name == "experiments":
            root = Path(source).resolve().parent.parent
        out = root / "results" / exp.name
    names = {"jobs": "n_jobs"}
    given = {k for k, v in (("n_jobs", n_jobs), ("backend", backend), ("out", out_given),
                            ("dask_address", dask_address),
                            ("decision_time_limit", decision_time_limit),
                            ("engine", engine)) if v is not None}
    try:
        return _execute(exp, ex, out, names, source_info)
    except ExperimentError as e:
        if e.source is None and source is not None and e.field not in given:
            raise ExperimentError(e.field, e.message, source) from None
        raise
