"""Paths the user names for output (a results folder, a state folder, a file to write):
expanded and checked once, before any game is played, by the one helper every command
and API call uses.

``~`` is expanded (the shell does not expand it inside quotes or in ``--out=~/x``, and
writing to ``./~/x`` while later reading ``$HOME/x`` loses the run); a name longer than
the file system allows, a folder where a file is needed (or a file where a folder is
needed), a path under a file, and a place this process cannot write are refused with an
:class:`~hansa_lab.errors.ExperimentError` naming the field and the path.

>>> str(output_folder("~/runs/x", "out")).startswith(str(Path.home()))
True
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from hansa_lab.errors import ExperimentError

#: The longest file name most file systems take (ext4, xfs, btrfs, tmpfs: 255 bytes).
NAME_MAX = 255
#: The longest path the kernel takes in one call (Linux PATH_MAX).
PATH_MAX = 4096
#: What a name may hold as a file name: runs of anything else become one ``_``.
UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def safe_name(text: str, fallback: str = "") -> str:
    """``text`` as a file name (a population, a rung, a label): runs of characters other
    than letters, digits, ``_``, ``.`` and ``-`` become ``_``, none at either end;
    ``fallback`` when nothing is left.

    >>> safe_name("strong:samples=4"), safe_name("strong h2"), safe_name("::", "rung")
    ('strong_samples_4', 'strong_h2', 'rung')
    """
    return UNSAFE_IN_NAME.sub("_", text).strip("_") or fallback


def user_path(value: Any, field: str) -> Path:
    """``value`` as a path with ``~`` expanded; refuses what is not a path."""
    if isinstance(value, bytes) or not isinstance(value, str | os.PathLike):
        raise ExperimentError(field, f"must be a path (a string), got {value!r}")
    text = os.fspath(value)
    if not isinstance(text, str) or not text.strip():
        raise ExperimentError(field, f"must be a path, got {value!r}")
    if "\0" in text:
        raise ExperimentError(field, f"must be a path without NUL characters, got {value!r}")
    path = Path(text).expanduser()
    _check_length(path, field)
    return path


def _check_length(path: Path, field: str) -> None:
    for part in path.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise ExperimentError(field, f"the name {part[:40]!r}... is "
                                         f"{len(os.fsencode(part))} bytes long, more than "
                                         f"the {NAME_MAX} a file or folder name can have")
    if len(os.fsencode(str(path.absolute()))) >= PATH_MAX:
        raise ExperimentError(field, f"the path is longer than the {PATH_MAX - 1} bytes the "
                                     "system takes")


def _check_under_folders(path: Path, field: str, what: str) -> None:
    """Nothing on the way to ``path`` is a file."""
    for parent in path.absolute().parents:
        if parent.exists() and not parent.is_dir():
            raise ExperimentError(field, f"cannot write {what} {path}: {parent} is a file")


def _probe(path: Path, field: str, what: str) -> None:
    """Write and remove an empty file in ``path``'s nearest folder that exists (nothing is
    created): the one check of writability that also holds for root and read-only
    mounts."""
    folder = next(p for p in [path, *path.absolute().parents] if p.exists())
    probe = folder / f".probe-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise ExperimentError(field, f"cannot write {what} {path}: {folder} is not "
                                     f"writable ({e.strerror or e})") from None


def output_folder(value: Any, field: str) -> Path:
    """A folder to create or to write into (``--out`` of a run, ``--state`` of ``tune``):
    expanded, of a usable length, not an existing file, not under a file, and writable
    (nothing is created)."""
    path = user_path(value, field)
    if path.exists() and not path.is_dir():
        raise ExperimentError(field, f"{path} is a file, not a folder; give a folder")
    _check_under_folders(path, field, "in the folder")
    _probe(path, field, "in the folder")
    return path


def output_file(value: Any, field: str) -> Path:
    """A file to write (``--out FILE.toml`` of ``tune``, ``--html`` of ``report``):
    expanded, of a usable length, not an existing folder, not under a file, and its folder
    writable (nothing is created)."""
    path = user_path(value, field)
    if path.is_dir() or os.fspath(value).endswith(("/", os.sep)):
        raise ExperimentError(field, f"{path} is a folder; give the file to write")
    _check_under_folders(path, field, "the file")
    _probe(path.parent, field, "the file")
    if path.exists() and not os.access(path, os.W_OK):
        raise ExperimentError(field, f"cannot write the file {path}: it is not writable")
    return path
