"""How a run's chunks are executed: the execution settings and their checks, the joblib/loky
and dask.distributed backends, progress messages and SIGTERM ending a run like Ctrl-C."""

from __future__ import annotations

import math
import os
import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hansa_lab.errors import ExperimentError
from hansa_lab.play import DEFAULT_DECISION_TIME_LIMIT, DEFAULT_ENGINE, ENGINES
from hansa_lab.sim.experiment import (
    BACKENDS,
    is_int,
)
from hansa_lab.sim.provenance import usable_core_count
from hansa_lab.sim.worker import ChunkResult, ChunkTask


def dask_client(address: Any, n_jobs: int) -> tuple[Any, list[Any]]:
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


def iter_dask(tasks: Iterator[ChunkTask], client: Any, own: list[Any],
              run: Callable[[ChunkTask], ChunkResult]) -> Iterator[ChunkResult]:
    """Run the chunks on a dask cluster with ``run`` (the runner's ``run_chunk``),
    keeping about two per worker in flight."""
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
        fut = client.submit(run, task, key=f"{token}-{task.chunk_id}", pure=False)
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


@dataclass
class Execution:
    n_jobs: int = 1
    backend: str = "loky"
    dask_address: Any = None
    progress: bool = True
    fail_fast: bool = False
    force: bool = False
    decision_time_limit: float | None = DEFAULT_DECISION_TIME_LIMIT
    engine: str = DEFAULT_ENGINE


def check_execution(ex: Execution, names: Mapping[str, str]) -> None:
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
    if not ENGINES[ex.engine].available():
        raise ExperimentError(n("engine"), "the compiled core is not built (run `make "
                                           "core-build` or `maturin develop --release`), or "
                                           "choose engine='python'")
    if not is_int(ex.n_jobs) or ex.n_jobs == 0:
        raise ExperimentError(n("n_jobs"), f"must be a non-zero integer (-1 = all cores), "
                                           f"got {ex.n_jobs!r}")
    if ex.n_jobs < 0 and usable_core_count() + 1 + ex.n_jobs < 1:
        raise ExperimentError(n("n_jobs"), f"{ex.n_jobs} leaves no worker on "
                              f"{usable_core_count()} cores (-1 = all cores, -2 = all but one)")
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


def note(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr)
