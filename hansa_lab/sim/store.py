"""The files of a run under ``results/<name>/``, and the order in which they change.

::

    manifest.json                   provenance and configuration (atomic rewrite)
    <table>/chunk-000123.parquet    one file per table and chunk (temp file + os.replace)
    _chunks/chunk-000123.json       the chunk's done-marker, written after its tables: the
                                    games, and per table the rows, bytes and SHA-256
    .lock                           pid and host of the run writing here (flock-ed)

Every change is ordered so that a process killed at any instant leaves a folder the next
command resumes, or refuses with a clear message — never one that looks complete with
games missing:

- a chunk counts only once its done-marker exists, and the marker is written after its
  tables; :meth:`ResultStore.verify` checks every marker against its files (present, same
  size, same checksum), so a truncated, emptied or deleted table file un-does its chunk
  (resume replays it, :func:`~hansa_lab.sim.results.open_results` names it);
- a forced clear moves all done-markers away in one rename *first*, then removes the
  tables, the manifest last: a clear killed half-way leaves a run with no chunk done;
- the manifest says "complete" only after every chunk's marker; a run killed between its
  last marker and that save is marked complete by the next command;
- a run killed before its first manifest is in place leaves only its lock and temp
  files (:func:`is_start_leftover`): the next run takes such a folder as an interrupted
  start and begins it again, removing them;
- the lock is an ``flock`` on ``.lock`` (released by the kernel when its holder dies, so a
  stale lock is simply taken over, by one process only).

:func:`fault_point` marks each transition; the fault-injection tests kill the process there.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import signal
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pandas as pd

from hansa_lab.errors import ExperimentError
from hansa_lab.sim.logs import SCHEMA

if TYPE_CHECKING:
    import pyarrow as pa

TABLES = tuple(SCHEMA)
MANIFEST = "manifest.json"
CHUNKS_DIR = "_chunks"
LOCK = ".lock"
#: Prefix of a folder of done-markers moved away by a forced clear (removed next).
DISCARDED = ".discarded-"
#: Prefix of the empty file that checks a folder is writable (removed at once).
PROBE = ".probe-"

#: The transitions of a results folder, in order (see :func:`fault_point`).
TRANSITIONS = (
    "lock_taken",            # start: the folder is ours, nothing changed yet
    "cleared_markers",       # forced clear: done-markers gone, tables and manifest remain
    "cleared_tables",        # forced clear: tables gone too, the manifest remains
    "manifest_temp_created",  # a manifest's temp file exists, empty (the first: no manifest)
    "manifest_temp_written",  # … written and synced, not yet renamed to manifest.json
    "manifest_started",      # the manifest says "running"
    "table_temp_written",    # a chunk's table file is written under its temp name
    "chunk_tables_written",  # a chunk's tables are on disk, its marker not yet
    "marker_temp_written",   # its done-marker is written under its temp name
    "chunk_marked",          # its done-marker is written, the manifest not yet updated
    "all_chunks_done",       # every marker written, the manifest not yet "complete"
    "final_saved",           # the manifest says "complete", the lock is still held
)

#: ``HANSA_LAB_FAULT=<transition>[@<n>][:KILL|TERM|INT|STOP]`` makes the process signal
#: itself the n-th time (default 1) it reaches that transition (fault-injection tests only;
#: STOP pauses it there, for a test to look at it and signal it from outside).
FAULT_ENV = "HANSA_LAB_FAULT"
_fault_counts: dict[str, int] = {}


def fault_point(name: str) -> None:
    """A transition of a results folder (one of :data:`TRANSITIONS`): a no-op unless
    :data:`FAULT_ENV` names it, then the process sends itself the signal asked for (SIGKILL
    by default; TERM and INT go through the run's handlers, exactly here)."""
    spec = os.environ.get(FAULT_ENV)
    if not spec:
        return
    where, _, sig = spec.partition(":")
    target, _, nth = where.partition("@")
    if target != name:
        return
    _fault_counts[name] = _fault_counts.get(name, 0) + 1
    if _fault_counts[name] == int(nth or 1):
        os.kill(os.getpid(), getattr(signal, f"SIG{sig or 'KILL'}"))
        if sig != "STOP":  # STOP: the test looks at the paused process, then signals it
            time.sleep(5)  # a handled signal raises at the next bytecode; KILL never returns


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def temp_name(name: str, pid: int) -> str:
    """The name :func:`atomic_write` writes file ``name`` under first (process ``pid``)."""
    return f".{name}.tmp-{pid}"


def is_temp_name(name: str) -> bool:
    """A file name of :func:`temp_name` (a file a killed process may leave behind)."""
    return name.startswith(".") and ".tmp-" in name


def atomic_write(path: Path, write: Callable[[IO[bytes]], None],
                 fault: str | None = None) -> None:
    """Write via a temp file in the same folder, fsync, then ``os.replace``; ``fault``
    names the file's kind in the transitions ``<fault>_temp_created`` (the manifest only)
    and ``<fault>_temp_written`` (see :func:`fault_point`)."""
    tmp = path.with_name(temp_name(path.name, os.getpid()))
    try:
        with open(tmp, "wb") as f:
            if fault == "manifest":
                fault_point("manifest_temp_created")
            write(f)
            f.flush()
            os.fsync(f.fileno())
        if fault is not None:
            fault_point(f"{fault}_temp_written")
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def write_bytes(path: Path, payload: bytes, fault: str | None = None) -> None:
    """:func:`atomic_write` of ``payload``."""

    def write(f: IO[bytes]) -> None:
        f.write(payload)

    atomic_write(path, write, fault)


def write_json(path: Path, data: Any, fault: str | None = None) -> None:
    write_bytes(path, json.dumps(data, indent=2, ensure_ascii=False, default=str).encode(),
                fault)


def parquet_bytes(data: pd.DataFrame | pa.Table) -> bytes:
    """A table as the bytes of a zstd-compressed parquet file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(data, preserve_index=False) if isinstance(
        data, pd.DataFrame) else data
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return bytes(sink.getvalue())


def write_parquet(path: Path, data: pd.DataFrame | pa.Table) -> None:
    write_bytes(path, parquet_bytes(data))


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes, as hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def parquet_rows(path: Path) -> int | None:
    """The row count a parquet file's footer records (None: not a readable parquet file)."""
    import pyarrow.parquet as pq

    try:
        return int(pq.read_metadata(path).num_rows)
    except (OSError, ValueError):
        return None


def chunk_name(i: int) -> str:
    return f"chunk-{i:06d}"


@dataclass(frozen=True)
class TableFile:
    """What a done-marker records about one table file of its chunk."""

    rows: int
    bytes: int
    sha256: str

    def as_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "bytes": self.bytes, "sha256": self.sha256}


@dataclass(frozen=True)
class Verified:
    """The done-markers of a folder checked against their files and the design: ``done``
    maps a chunk to its marker, ``bad`` a chunk whose marker is unreadable, lies beyond the
    design, was written for another design or does not match its files to the reason."""

    done: dict[int, dict[str, Any]]
    bad: dict[int, str]


def canonical_hash(data: Any) -> str:
    """The SHA-256 of ``data`` as canonical JSON (sorted keys; tuples and lists alike, so a
    value read back from a JSON file hashes as the value written)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def design_hash(configuration: Mapping[str, Any], design: Mapping[str, Any]) -> str:
    """The fingerprint of a run's games: its configuration and design as the manifest
    records them. Stored in the manifest (``design_hash``) and in every done-marker
    (``design``), so a hand-edited design, or a marker of another design, is detected."""
    return canonical_hash({"configuration": configuration, "design": design})


@dataclass(frozen=True)
class DesignSize:
    """The sizes a manifest's design records, checked against each other."""

    total_games: int
    chunk_size: int
    n_chunks: int

    def games_in(self, chunk: int) -> int:
        """The games of chunk ``chunk`` (the last one may be short)."""
        return max(0, min(self.chunk_size, self.total_games - chunk * self.chunk_size))


def _count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x > 0


def design_size(manifest: Mapping[str, Any], where: str | None = None) -> DesignSize:
    """The design of a manifest, after checking that nothing in it was edited: sizes that
    agree with each other and with the conditions, and (manifests written since the
    fingerprint exists) the recorded :func:`design_hash`. Raises :class:`ManifestError`
    saying what disagrees, in folder ``where`` (a hand-edited ``design.n_chunks`` would
    otherwise make a folder look complete, or a rerun drop games)."""
    design = manifest.get("design")
    configuration = manifest.get("configuration")
    if not isinstance(design, Mapping) or not isinstance(configuration, Mapping):
        raise ManifestError(MANIFEST, "has no design: not a results folder this version can "
                                      "check; pass --force (force=True) to run it again", where)
    sizes = design.get("total_games"), design.get("chunk_size"), design.get("n_chunks")
    if not all(_count(x) for x in sizes):
        raise ManifestError(MANIFEST, "records no valid design sizes (design.total_games "
                            f"{sizes[0]!r}, design.chunk_size {sizes[1]!r}, design.n_chunks "
                            f"{sizes[2]!r}); restore the file, or pass --force (force=True) "
                            "to discard the run and play it again", where)
    total, size, n = (int(x or 0) for x in sizes)
    problem = None
    if n != -(-total // size):
        problem = (f"says design.n_chunks = {n}, but {total} games in chunks of {size} make "
                   f"{-(-total // size)} chunks")
    elif isinstance(design.get("conditions"), list) and all(
            isinstance(c, Mapping) for c in design["conditions"]) and \
            sum(c.get("games", 0) for c in design["conditions"]) != total:
        problem = (f"says design.total_games = {total}, but its conditions add up to "
                   f"{sum(c.get('games', 0) for c in design['conditions'])}")
    elif configuration.get("chunk_size") not in (None, size):
        problem = (f"says design.chunk_size = {size}, but configuration.chunk_size = "
                   f"{configuration.get('chunk_size')!r}")
    elif manifest.get("design_hash") is not None and \
            manifest["design_hash"] != design_hash(configuration, design):
        problem = ("has a configuration or design that differs from the one its run "
                   "recorded (design_hash does not match: edited by hand?)")
    if problem:
        raise ManifestError(MANIFEST, f"{problem}; restore the file, or pass --force "
                                      "(force=True) to discard the run and play it again", where)
    return DesignSize(total, size, n)


@dataclass(frozen=True)
class Completeness:
    """How much of a run's design is on disk, from the verified done-markers (never from
    the manifest's status alone)."""

    status: str
    n_chunks: int
    chunks_done: int
    games_done: int
    total_games: int
    failures: int
    #: chunks left out (unreadable, extra, of another design, or not matching their files)
    bad: dict[int, str]

    @property
    def complete(self) -> bool:
        return self.status == "complete" and self.chunks_done == self.n_chunks \
            and not self.bad

    def text(self) -> str:
        """``"complete"`` or ``"incomplete: N of M chunks"`` (the words every command uses)."""
        if self.complete:
            return "complete"
        return f"incomplete: {self.chunks_done} of {self.n_chunks} chunks"


def is_start_leftover(name: str) -> bool:
    """A file a run may leave in its folder before its first manifest is in place: the lock,
    a writability probe, a temp file (the first manifest, half written by a run killed
    then) or a folder of done-markers a forced clear moved away. A folder holding only
    these and no manifest is an interrupted start: the next run takes it (under the lock,
    so never while the run that left them is alive) and removes them."""
    return name == LOCK or name.startswith((PROBE, DISCARDED)) or is_temp_name(name)


class ManifestError(ExperimentError):
    """A results folder whose ``manifest.json`` cannot be read (names the file)."""


class FolderBusy(RuntimeError):
    """Another live process holds the results folder."""


class ResultStore:
    """The files of a run under ``out/`` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.manifest_path = path / MANIFEST
        self.chunks = path / CHUNKS_DIR

    def has_manifest(self) -> bool:
        return self.manifest_path.exists()

    def check_usable(self) -> None:
        """Refuse an ``out`` that is a file, lies under a file, or is a folder of something
        else (raises :class:`ExperimentError` for the ``out`` field)."""
        for parent in [self.path, *self.path.parents]:
            if parent.exists() and not parent.is_dir():
                where = "" if parent == self.path else f" ({parent} is a file)"
                raise ExperimentError("out", f"{self.path} cannot be a results folder{where}: "
                                             "it exists and is not a directory")
            if parent.exists():
                break
        if self.path.is_dir():
            try:
                entries = [p.name for p in self.path.iterdir()]
            except OSError as e:
                raise ExperimentError("out", f"{self.path}: cannot read it ({e.strerror})") \
                    from None
            ours = [n for n in entries if not is_start_leftover(n)]
            if not self.has_manifest() and ours:
                raise ExperimentError(
                    "out", f"{self.path} is not empty and holds no {MANIFEST}: not a hansa-lab "
                    "results folder; choose another out"
                )

    def check_writable(self) -> None:
        """Create the folder and make sure files can be written in it (an ``out`` under a
        read-only folder fails here, before any game, naming the folder)."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            probe = self.path / f"{PROBE}{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink(missing_ok=True)  # a run starting beside this one may clean it up
        except OSError as e:
            raise ExperimentError("out", f"{self.path}: cannot write there "
                                         f"({e.strerror or e})") from None

    def read_manifest(self) -> dict[str, Any]:
        """The manifest, or :class:`ManifestError` saying what is wrong with it."""
        try:
            data = json.loads(self.manifest_path.read_bytes().decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            problem = f"is corrupt ({type(e).__name__}: {e})"
        except OSError as e:
            problem = f"cannot be read ({e.strerror or e})"
        else:
            if isinstance(data, dict) and isinstance(data.get("configuration"), dict) and \
                    isinstance(data.get("sessions"), list):
                return data
            problem = "is not a hansa-lab manifest (no configuration or sessions)"
        raise ManifestError(
            MANIFEST, f"{problem}; pass --force (force=True) to discard this run and start "
                      "it again", str(self.path))

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        write_json(self.manifest_path, manifest, fault="manifest")

    def done_chunks(self) -> dict[int, dict[str, Any]]:
        """Chunks with a readable done-marker: chunk id → marker (unverified)."""
        return self._markers()[0]

    def _markers(self) -> tuple[dict[int, dict[str, Any]], dict[int, str]]:
        """The done-markers: readable ones (chunk → marker) and unreadable ones (chunk →
        why); a file in ``_chunks`` whose name is not a chunk's is ignored."""
        if not self.chunks.is_dir():
            return {}, {}
        out: dict[int, dict[str, Any]] = {}
        unreadable: dict[int, str] = {}
        for p in self.chunks.glob("chunk-*.json"):
            number = p.stem.split("-", 1)[1]
            if not number.isdigit():
                continue
            try:
                marker = json.loads(p.read_text("utf-8"))
            except (ValueError, OSError) as e:
                unreadable[int(number)] = f"its done-marker cannot be read ({type(e).__name__})"
                continue
            if isinstance(marker, dict):
                out[int(number)] = marker
            else:
                unreadable[int(number)] = "its done-marker is not a JSON object"
        return dict(sorted(out.items())), unreadable

    def verify(self, n_chunks: int | None = None,
               games_in: Callable[[int], int] | None = None,
               design: str | None = None,
               specs_of: Callable[[int], str] | None = None) -> Verified:
        """Check every done-marker against the design and its table files: a chunk of the
        design (below ``n_chunks``), written for this design (its ``design`` hash, when
        both record one), with the design's games (``games_in``; ``specs_of``: the same
        games, by the hash of their specs), and files present, of the recorded size,
        SHA-256 and row count."""
        done: dict[int, dict[str, Any]] = {}
        markers, unreadable = self._markers()
        bad: dict[int, str] = dict(unreadable)
        for i, marker in markers.items():
            problem = None
            if n_chunks is not None and i >= n_chunks:
                problem = f"a done-marker beyond the design's {n_chunks} chunks"
            elif design is not None and marker.get("design") not in (None, design):
                problem = "its done-marker was written for another design"
            elif specs_of is not None and marker.get("specs") not in (None, specs_of(i)):
                problem = "its games are not the design's games for this chunk any more"
            else:
                problem = self.chunk_problem(i, marker, games_in(i) if games_in else None)
            if problem:
                bad[i] = problem
            else:
                done[i] = marker
        return Verified(done, dict(sorted(bad.items())))

    def chunk_problem(self, chunk: int, marker: Mapping[str, Any],
                      games: int | None = None) -> str | None:
        """Why chunk ``chunk``'s files do not match its marker (None: they do)."""
        if games is not None and marker.get("games") != games:
            return f"its marker records {marker.get('games')} games, the design {games}"
        files = marker.get("files")
        if not isinstance(files, dict):  # markers of older versions: rows only
            tables = marker.get("rows", {})
            if not isinstance(tables, dict):
                return "its done-marker records no files"
            missing = [t for t in tables if not self.table_file(t, chunk).exists()]
            return f"{', '.join(missing)} file missing" if missing else None
        rows = marker.get("rows")
        for table, rec in files.items():
            path = self.table_file(table, chunk)
            if table not in TABLES or not isinstance(rec, dict):
                return f"its done-marker names an unknown table {table!r}"
            try:
                size = path.stat().st_size
            except OSError:
                return f"{path.relative_to(self.path)} is missing"
            if size != rec.get("bytes"):
                return (f"{path.relative_to(self.path)} has {size} bytes, its marker "
                        f"records {rec.get('bytes')} (truncated or rewritten)")
            if sha256_of(path) != rec.get("sha256"):
                return f"{path.relative_to(self.path)} does not match its checksum"
            stored = parquet_rows(path)
            recorded = [rec.get("rows")]
            if isinstance(rows, dict) and table in rows:
                recorded.append(rows[table])
            if any(r != stored for r in recorded):
                return (f"{path.relative_to(self.path)} holds {stored} rows, its marker "
                        f"records {' and '.join(map(str, recorded))}")
        return None

    def table_file(self, table: str, chunk: int) -> Path:
        return self.path / table / f"{chunk_name(chunk)}.parquet"

    def marker_file(self, chunk: int) -> Path:
        return self.chunks / f"{chunk_name(chunk)}.json"

    def write_chunk(self, chunk: int, frames: Mapping[str, pd.DataFrame | pa.Table],
                    info: dict[str, Any]) -> dict[str, Any]:
        """Write a chunk's tables, then its done-marker (``info`` plus, per table, the
        rows, bytes and checksum of its file); returns the marker."""
        files: dict[str, Any] = {}
        for table, df in frames.items():
            (self.path / table).mkdir(parents=True, exist_ok=True)
            payload = parquet_bytes(df)
            write_bytes(self.table_file(table, chunk), payload, fault="table")
            files[table] = TableFile(len(df), len(payload),
                                     hashlib.sha256(payload).hexdigest()).as_dict()
        fault_point("chunk_tables_written")
        marker = {**info, "files": files}
        self.chunks.mkdir(parents=True, exist_ok=True)
        write_json(self.marker_file(chunk), marker, fault="marker")  # the done-marker, last
        fault_point("chunk_marked")
        return marker

    def discard_chunks(self, chunks: Iterable[int]) -> None:
        """Forget chunks: their markers first, then their table files."""
        chunks = list(chunks)
        for i in chunks:
            self.marker_file(i).unlink(missing_ok=True)
        for i in chunks:
            for table in TABLES:
                self.table_file(table, i).unlink(missing_ok=True)

    def cleanup(self, done: Iterable[int]) -> None:
        """Remove temp files, folders of discarded markers and table files of chunks that
        never completed."""
        keep = {chunk_name(i) for i in done}
        if self.path.is_dir():
            for p in self.path.iterdir():
                if p.name.startswith(DISCARDED):
                    shutil.rmtree(p, ignore_errors=True)
                elif p.name.startswith(PROBE) or is_temp_name(p.name):
                    p.unlink(missing_ok=True)
        for sub in [*TABLES, CHUNKS_DIR]:
            d = self.path / sub
            if not d.is_dir():
                continue
            for p in d.iterdir():
                temp = is_temp_name(p.name)
                orphan = sub != CHUNKS_DIR and p.suffix == ".parquet" and p.stem not in keep
                if temp or orphan:
                    p.unlink(missing_ok=True)

    def clear(self) -> None:
        """Forget a previous run (only the files this module writes), in a crash-safe
        order: every done-marker at once (one rename), then the tables, the manifest last."""
        if self.chunks.is_dir():
            trash = self.path / f"{DISCARDED}{os.getpid()}-{time.time_ns()}"
            os.rename(self.chunks, trash)
            fault_point("cleared_markers")
            shutil.rmtree(trash, ignore_errors=True)
        for sub in TABLES:
            shutil.rmtree(self.path / sub, ignore_errors=True)
        fault_point("cleared_tables")
        self.manifest_path.unlink(missing_ok=True)
        self.cleanup(())

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the folder for this process: an exclusive ``flock`` on ``.lock``. The kernel
        drops it when the holder dies however it died, so a stale lock needs no guessing;
        of several processes starting at once exactly one gets it. The file is removed
        while still locked; a process that locked the removed file sees that it is no longer
        the one at the path and tries again."""
        self.path.mkdir(parents=True, exist_ok=True)
        path = self.path / LOCK
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                try:
                    other = json.loads(os.read(fd, 4096) or b"{}")
                except ValueError:
                    other = {}
                os.close(fd)
                raise FolderBusy(
                    f"{self.path} is being written by another run (pid {other.get('pid')} on "
                    f"{other.get('host')}); wait for it to finish or stop it"
                ) from None
            try:
                current = os.stat(path).st_ino
            except FileNotFoundError:
                current = -1
            if current == os.fstat(fd).st_ino:
                break
            os.close(fd)  # we locked a file its holder had just removed: try again
        try:
            me = {"pid": os.getpid(), "host": socket.gethostname(), "since": now()}
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(me).encode())
            fault_point("lock_taken")
            yield
        finally:
            path.unlink(missing_ok=True)
            os.close(fd)
