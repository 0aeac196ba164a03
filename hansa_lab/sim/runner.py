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
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from hansa_lab.errors import ExperimentError, SimulationFailed, terminate_as_interrupt
from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT, DEFAULT_ENGINE
from hansa_lab.sim.backends import (
    Execution,
    check_execution,
    dask_client,
    iter_dask,
    note,
)
from hansa_lab.sim.experiment import (
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
    load_experiment,
    normalize_experiment,
)
from hansa_lab.sim.logs import (
    DEFAULT_STALL_ROUNDS,
    empty_frame,
    to_arrow,
    to_frame,
)
from hansa_lab.sim.manifest import (
    config_diff,
    extend_manifest,
    mark_complete,
    new_manifest,
    new_session,
    progress_entry,
    specs_hash,
    strategy_changes,
)
from hansa_lab.sim.paths import output_folder
from hansa_lab.sim.progress import progress_bar
from hansa_lab.sim.provenance import usable_core_count
from hansa_lab.sim.results import Results, format_table, open_results, wilson_interval
from hansa_lab.sim.store import (
    TABLES,
    ManifestError,
    ResultStore,
    design_size,
    fault_point,
    now,
    write_json,
)
from hansa_lab.sim.worker import ChunkResult, ChunkTask, run_chunk
from hansa_lab.strategies import make_strategy

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
    "play_in_memory",
    "run_chunk",
    "run_experiment",
    "simulate",
    "wilson_interval",
]


#: Tables written per log level (``summary`` skips the big per-turn and event tables).
LOGGED_TABLES = {"full": TABLES, "summary": ("games", "players", "failures")}


def _workers(n_jobs: int, n_chunks: int, progress: bool) -> int:
    """Worker processes to start: ``n_jobs`` (negative: counted back from all cores),
    never more than the chunks to play (one chunk keeps one worker busy); a warning on
    stderr when that is more than the cores (with or without ``progress``)."""
    cores = usable_core_count()
    wanted = n_jobs if n_jobs > 0 else cores + 1 + n_jobs
    workers = max(1, min(wanted, n_chunks))
    if workers > cores:  # said even without a progress bar: it costs memory and speed
        print(f"warning: {workers} worker processes on {cores} cores; they will share them "
              "(more memory, no more speed)", file=sys.stderr)
    return workers


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


def _execute(
    exp: Experiment,
    ex: Execution,
    out: str | os.PathLike[str] | None,
    names: Mapping[str, str],
    source: dict[str, Any] | None = None,
) -> Results:
    """Check, then start, resume or skip the run, and return its results."""
    check_execution(ex, names)
    if out is None:
        design = Design(exp)
        with terminate_as_interrupt():
            return _play(replace(exp, chunk_size=design.chunk_size), design, ex, None, None,
                         {}, source)
    store = ResultStore(Path(out))
    store.check_usable()
    store.check_writable()
    with terminate_as_interrupt(), store.lock():
        return _open_run(exp, ex, store, names, source)


def _open_run(
    exp: Experiment,
    ex: Execution,
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
        diff = config_diff(old_config, exp.configuration())
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
        changed = strategy_changes(old.get("strategies"), exp.strategies())
        if changed:
            raise ExperimentError(
                names.get("arms", "arms"),
                f"{store.path} holds a run whose players played with other parameters "
                f"({'; '.join(changed)}: a default may have changed since); pass force=True "
                "(--force) to discard it, or choose another out",
            )
    design = Design(exp)
    checked = store.verify(design.n_chunks, lambda i: len(design.chunk_ids(i)),
                           specs_of=lambda i: specs_hash(design, i))
    if checked.bad:
        note(True, f"{store.path}: {len(checked.bad)} chunk(s) do not match the design or "
                   "their done-marker and will be played again: " + "; ".join(
                       f"chunk {i}: {why}" for i, why in sorted(checked.bad.items())))
        store.discard_chunks(checked.bad)
    done = checked.done
    if old is not None and extended_from is not None:
        extend_manifest(old, exp, design, store, done)
        note(True, f"{store.path}: extending from {extended_from} to {exp.n_games} games "
                   f"per arm; {len(done)} of {design.n_chunks} chunks kept")
    if old is not None and old.get("design_hash"):
        _stamp(done, old["design_hash"], store)
    if old is not None and len(done) == design.n_chunks:
        if old.get("status") != "complete":
            mark_complete(old, design, done, store)
            note(ex.progress, f"{store.path}: every chunk was done but the run had not been "
                              f"marked complete (status {old.get('status')!r}); marked it now")
        else:
            note(ex.progress, f"{store.path}: complete ({design.n_games} games), nothing to "
                              "do; pass force=True (--force) to run it again")
        return Results(old, path=store.path, chunks=list(done), markers=done)
    store.cleanup(done)
    if old is not None:
        note(True, f"{store.path}: incomplete: {len(done)} of {design.n_chunks} chunks "
                   "done; playing the missing ones")
    return _play(exp, design, ex, store, old, done, source)


def _stamp(done: dict[int, dict[str, Any]], fingerprint: str, store: ResultStore) -> None:
    """Record ``fingerprint`` (the manifest's design hash) in every kept done-marker that
    holds another one: chunks whose games were checked against the design by their specs
    hash and kept by an extension (or by a resume of one)."""
    for i, marker in done.items():
        if marker.get("design") != fingerprint:
            marker["design"] = fingerprint
            write_json(store.marker_file(i), marker)


def _play(
    exp: Experiment,
    design: Design,
    ex: Execution,
    store: ResultStore | None,
    old: dict[str, Any] | None,
    done: dict[int, dict[str, Any]],
    source: dict[str, Any] | None,
) -> Results:
    """Play the chunks not in ``done``, writing each as it completes."""
    workers = _workers(ex.n_jobs, design.n_chunks - len(done), ex.progress)
    dask = dask_client(ex.dask_address, workers) if ex.backend == "dask" else None
    session = new_session(ex)
    manifest = old if old is not None else new_manifest(exp, design, store, source, session)
    manifest["sessions"].append(session)
    manifest["execution"] = session["execution"]
    games_done = sum(len(design.chunk_ids(i)) for i in done)
    failures = sum(int(m.get("failures", 0)) for m in done.values())

    def save(status: str) -> None:
        manifest["status"] = session["status"] = status
        manifest["progress"] = progress_entry(design, done)
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
    bar = progress_bar(design.n_games, initial=games_done, unit="game", desc=exp.name,
                       enabled=ex.progress)
    status = "failed"
    try:
        save("running")
        if store is not None:
            fault_point("manifest_started")
        results = iter_dask(tasks, *dask, run_chunk) if dask else _iter_joblib(tasks, workers)
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
                marker["specs"] = specs_hash(design, res.chunk_id)
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
        for obj in dask[1] if dask else ():  # closed by iter_dask too, unless it never ran
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
        note(ex.progress, f"{exp.name}: {failures} game(s) failed; see results.failures")
    if store is not None:
        return Results(manifest, path=store.path, chunks=list(done), markers=done)
    return Results(manifest, frames={
        t: pd.concat([memory[i][t] for i in sorted(memory)], ignore_index=True)
        if memory else empty_frame(t)
        for t in LOGGED_TABLES[exp.log]
    })


def play_in_memory(exp: Experiment, *, n_jobs: int = 1, engine: str = DEFAULT_ENGINE,
                   progress: bool = False) -> Results:
    """Play a checked experiment (from :func:`normalize_experiment`, possibly changed by
    ``dataclasses.replace``) with no results folder: one run over all its conditions
    (planning's pilots use it instead of a run per condition)."""
    ex = Execution(n_jobs=n_jobs, progress=progress, engine=engine)
    return _execute(exp, ex, None, {})


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
    engine: str = DEFAULT_ENGINE,
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
    ex = Execution(n_jobs=n_jobs, backend=backend, dask_address=dask_address, progress=progress,
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
    ex = Execution(
        n_jobs=n_jobs if n_jobs is not None else raw.get("jobs", 1),
        backend=backend if backend is not None else raw.get("backend", "loky"),
        dask_address=dask_address if dask_address is not None else raw.get("dask_address"),
        progress=progress, fail_fast=fail_fast, force=force,
        decision_time_limit=decision_time_limit if decision_time_limit is not None
        else raw.get("decision_time_limit", DEFAULT_DECISION_TIME_LIMIT),
        engine=engine if engine is not None else raw.get("engine", DEFAULT_ENGINE),
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
