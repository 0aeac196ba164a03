"""The files of a run under ``results/<name>/``.

::

    manifest.json                   provenance and configuration (atomic rewrite)
    <table>/chunk-000123.parquet    one file per table and chunk (temp file + os.replace)
    _chunks/chunk-000123.json       the chunk's done-marker, written after its tables
    .lock                           pid and host of the run writing here

A chunk counts only once its done-marker exists, so a killed run loses at most the
chunks in flight; their stray files are removed when the run resumes.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pandas as pd

from hansa_lab.errors import ExperimentError
from hansa_lab.sim.experiment import is_int
from hansa_lab.sim.logs import SCHEMA

if TYPE_CHECKING:
    import pyarrow as pa

TABLES = tuple(SCHEMA)
MANIFEST = "manifest.json"
CHUNKS_DIR = "_chunks"
LOCK = ".lock"


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write via a temp file in the same folder, fsync, then ``os.replace``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def write_json(path: Path, data: Any) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str).encode("utf-8")

    def write(f: IO[bytes]) -> None:
        f.write(text)

    atomic_write(path, write)


def write_parquet(path: Path, data: pd.DataFrame | pa.Table) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(data, preserve_index=False) if isinstance(
        data, pd.DataFrame) else data
    atomic_write(path, lambda f: pq.write_table(table, f, compression="zstd"))


def chunk_name(i: int) -> str:
    return f"chunk-{i:06d}"


class ResultStore:
    """The files of a run under ``out/`` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.manifest_path = path / MANIFEST
        self.chunks = path / CHUNKS_DIR

    def has_manifest(self) -> bool:
        return self.manifest_path.exists()

    def check_usable(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise ExperimentError("out", f"{self.path} exists and is not a directory")
        if self.path.is_dir() and not self.has_manifest() and any(
            p.name != LOCK for p in self.path.iterdir()
        ):
            raise ExperimentError(
                "out", f"{self.path} is not empty and holds no {MANIFEST}: not a hansa-lab "
                "results folder; choose another out"
            )

    def read_manifest(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.manifest_path.read_text("utf-8"))
        return data

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        write_json(self.manifest_path, manifest)

    def done_chunks(self) -> dict[int, dict[str, Any]]:
        """Completed chunks: chunk id → its done-marker (games, failures, rows, ...)."""
        if not self.chunks.is_dir():
            return {}
        out = {}
        for p in self.chunks.glob("chunk-*.json"):
            with contextlib.suppress(ValueError, OSError):
                out[int(p.stem.split("-")[1])] = json.loads(p.read_text("utf-8"))
        return dict(sorted(out.items()))

    def table_file(self, table: str, chunk: int) -> Path:
        return self.path / table / f"{chunk_name(chunk)}.parquet"

    def write_chunk(self, chunk: int, frames: Mapping[str, pd.DataFrame | pa.Table],
                    info: dict[str, Any]) -> None:
        for table, df in frames.items():
            (self.path / table).mkdir(parents=True, exist_ok=True)
            write_parquet(self.table_file(table, chunk), df)
        self.chunks.mkdir(parents=True, exist_ok=True)
        write_json(self.chunks / f"{chunk_name(chunk)}.json", info)  # the done-marker

    def cleanup(self, done: Iterable[int]) -> None:
        """Remove temp files and table files of chunks that never completed."""
        keep = {chunk_name(i) for i in done}
        for sub in [*TABLES, CHUNKS_DIR]:
            d = self.path / sub
            if not d.is_dir():
                continue
            for p in d.iterdir():
                temp = p.name.startswith(".") and ".tmp-" in p.name
                orphan = sub != CHUNKS_DIR and p.suffix == ".parquet" and p.stem not in keep
                if temp or orphan:
                    p.unlink(missing_ok=True)

    def clear(self) -> None:
        """Forget a previous run (only the files this module writes)."""
        for sub in [*TABLES, CHUNKS_DIR]:
            shutil.rmtree(self.path / sub, ignore_errors=True)
        self.manifest_path.unlink(missing_ok=True)

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Refuse to run while another live process writes the same folder."""
        self.path.mkdir(parents=True, exist_ok=True)
        lock = self.path / LOCK
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": now()}
        for _ in range(2):
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                try:
                    other = json.loads(lock.read_text("utf-8") or "{}")
                except (OSError, ValueError):
                    other = {}
                if other.get("host") == me["host"] and not _pid_alive(other.get("pid")):
                    lock.unlink(missing_ok=True)  # stale: its process is gone
                    continue
                raise RuntimeError(
                    f"{self.path} is being written by another run (pid {other.get('pid')} on "
                    f"{other.get('host')}); if no such run is alive, delete {lock}"
                ) from None
            with os.fdopen(fd, "w") as f:
                json.dump(me, f)
            break
        try:
            yield
        finally:
            lock.unlink(missing_ok=True)


def _pid_alive(pid: Any) -> bool:
    if not is_int(pid) or pid <= 0:
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
