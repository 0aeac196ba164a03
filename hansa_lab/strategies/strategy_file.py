"""Strategy files: a named strategy written as TOML — a registered base strategy and
values for its parameters, with a record of where the values came from::

    name = "greedy_4p_tuned"     # the label in line-ups and results
    base = "greedy"              # a registered strategy, or a registered strategy file
                                 #   ("planner": its base and values, then these)
    description = "..."
    [params]                     # values for the base's parameters, checked like
    route = 1.3                  #   make_strategy checks them (type, finite, ranges)
    [tuning]                     # provenance, free-form (`hansa-lab tune` writes it)

``make_strategy("path/to/file.toml")`` builds it (``"file.toml:route=1.2"`` overrides a
value); so does ``make_strategy("greedy_4p_tuned")`` once the file is registered. Files
shipped in ``hansa_lab/strategies/data/`` are registered on import; a file loaded by path
is registered under its name for the rest of the process (loading the same path again
picks up an edited file; another file may not take a name already in use with other
values).

What it builds is an instance of the base's class with the file's values, so it plays
wherever the base plays (in the compiled core for greedy, the tips and rollout), named
after the file: its ``name`` and ``spec`` are the file's name (``spec`` adds any
overrides), which is how line-ups and results tables show it. The instance carries its
definition (:attr:`~hansa_lab.strategies.base.Strategy.source`): pickled to a worker
process it plays the same there and registers its name, so its spec rebuilds it too.
Errors are :class:`StrategyFileError` (a ``ValueError``) naming the file and the field.

>>> sf = parse_strategy_file('name = "cautious"\\nbase = "greedy"\\n[params]\\nreserve = 1.5\\n')
>>> sf.name, sf.base, sf.params
('cautious', 'greedy', {'reserve': 1.5})
>>> s = build(sf)
>>> s.name, s.spec, s.params["reserve"], type(s).__name__
('cautious', 'cautious', 1.5, 'Greedy')
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hansa_lab.strategies.base import Strategy, _checked, make_strategy, registry

__all__ = [
    "SHIPPED_FOLDER",
    "StrategyFile",
    "StrategyFileError",
    "build",
    "find_strategy_file",
    "load_strategy_file",
    "parse_strategy_file",
    "register_folder",
    "registered_files",
    "to_toml",
]

#: The package's own strategy files (registered on import).
SHIPPED_FOLDER = Path(__file__).parent / "data"
_FIELDS = ("name", "base", "description", "params", "tuning")
_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
#: name → the file registered under it
_FILES: dict[str, StrategyFile] = {}


class StrategyFileError(ValueError):
    """An invalid strategy file: ``str()`` is ``"path: field: message"``."""

    def __init__(self, path: str | None, field: str, message: str) -> None:
        self.path = path
        self.field = field
        self.message = message
        where = ": ".join(x for x in (path, field) if x)
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True, eq=False)
class StrategyFile:
    """A strategy file's contents, checked (see the module doc)."""

    name: str
    base: str
    #: the values the file gives (checked against the base's parameters)
    params: dict[str, Any]
    description: str = ""
    tuning: dict[str, Any] = field(default_factory=dict)
    #: where it was read from (None: built in memory)
    path: str | None = None
    #: the file's SHA-256 (of its text)
    sha256: str | None = None
    shipped: bool = False
    #: every parameter of the base with the file's values (the base's defaults as they
    #: were when the file was read)
    resolved: dict[str, Any] = field(default_factory=dict)
    #: the strategy file named as ``base`` (None: a registered strategy); ``base`` is then
    #: that file's base and ``params`` its values updated with this file's
    based_on: str | None = None

    def definition(self) -> dict[str, Any]:
        """What decides its play: the base and every parameter's value."""
        return {"base": self.base, "params": dict(self.resolved)}

    def record(self) -> dict[str, Any]:
        """The definition with where it came from (for a run's manifest)."""
        out = {**self.definition(), "name": self.name, "file": self.path,
               "sha256": self.sha256, "shipped": self.shipped}
        if self.based_on is not None:
            out["based_on"] = self.based_on
        return out


def parse_strategy_file(text: str, path: str | None = None,
                        shipped: bool = False) -> StrategyFile:
    """Check a strategy file's text; errors name ``path`` and the field."""

    def err(where: str, message: str) -> StrategyFileError:
        return StrategyFileError(path, where, message)

    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise err("", f"invalid TOML: {e}") from None
    for key in raw:
        if key not in _FIELDS:
            raise err(key, f"unknown field; known fields: {', '.join(_FIELDS)}")
    name = raw.get("name")
    if name is None:
        raise err("name", "missing (the strategy's label, e.g. \"greedy_4p_tuned\")")
    if not isinstance(name, str) or not _NAME_RE.match(name) or name.endswith(".toml"):
        raise err("name", "must be a simple name (a letter, then letters, digits, _ . -; "
                          f"not ending in .toml), got {name!r}")
    if name in registry():
        raise err("name", f"{name!r} is a registered strategy; give the file another name")
    base = raw.get("base")
    known = (f"a registered strategy ({', '.join(sorted(registry()))}) or a registered "
             f"strategy file ({', '.join(sorted(_FILES)) or 'none'})")
    if base is None:
        raise err("base", f"missing ({known})")
    parent = _FILES.get(base) if isinstance(base, str) and base not in registry() else None
    if parent is not None:  # a strategy file as base: its base, its values, then ours
        if parent.name == name:
            raise err("base", f"{base!r} is this file's own name")
        base = parent.base
    if not isinstance(base, str) or base not in registry():
        raise err("base", f"unknown strategy {base!r}; known: {known}")
    cls = registry()[base]
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise err("description", f"must be a string, got {description!r}")
    params = raw.get("params", {})
    if not isinstance(params, Mapping):
        raise err("params", f"must be a table of parameter = value, got {params!r}")
    checked: dict[str, Any] = dict(parent.params) if parent is not None else {}
    for key, value in params.items():
        if key not in cls.defaults:
            raise err(f"params.{key}", f"strategy {base!r} has no parameter {key!r} "
                                       f"(parameters: {', '.join(cls.defaults) or 'none'})")
        try:
            checked[key] = _checked(cls, key, value)
        except ValueError as e:
            raise err(f"params.{key}", str(e)) from None
    try:
        cls(**checked)  # the class's own checks (e.g. greedy's depth)
    except ValueError as e:
        raise err("params", str(e)) from None
    tuning = raw.get("tuning", {})
    if not isinstance(tuning, Mapping):
        raise err("tuning", f"must be a table, got {tuning!r}")
    return StrategyFile(
        name=name, base=base, params=checked, description=description, tuning=dict(tuning),
        path=path, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), shipped=shipped,
        resolved={**cls.defaults, **checked}, based_on=parent.name if parent else None,
    )


def read_strategy_file(path: str | Path, shipped: bool = False) -> StrategyFile:
    """Read and check a strategy file (not registered)."""
    where = str(path)
    try:
        text = Path(path).read_text("utf-8")
    except OSError as e:
        raise StrategyFileError(where, "", f"cannot read strategy file: {e.strerror or e}"
                                ) from None
    except UnicodeDecodeError as e:
        raise StrategyFileError(where, "", f"not a UTF-8 text file (byte {e.start}: "
                                           f"{e.reason})") from None
    return parse_strategy_file(text, where, shipped)


def _same_file(a: StrategyFile, b: StrategyFile) -> bool:
    return (a.path is not None and b.path is not None
            and Path(a.path).resolve() == Path(b.path).resolve())


def _register(sf: StrategyFile) -> None:
    old = _FILES.get(sf.name)
    if old is not None and old.definition() != sf.definition() and not _same_file(old, sf):
        what = "a shipped strategy file" if old.shipped else f"{old.path or 'a strategy file'}"
        raise StrategyFileError(sf.path, "name", f"{sf.name!r} is already the name of {what} "
                                "with other values; give this file another name")
    if old is None or not old.shipped or sf.shipped:
        _FILES[sf.name] = sf


def load_strategy_file(path: str | Path) -> StrategyFile:
    """Read, check and register a strategy file (by its name, for this process)."""
    sf = read_strategy_file(path)
    _register(sf)
    return sf


def remember(sf: StrategyFile) -> None:
    """Register ``sf`` unless its name is taken (a strategy unpickled in a worker)."""
    _FILES.setdefault(sf.name, sf)


def remember_record(record: Mapping[str, Any]) -> None:
    """Register, unless its name is taken, the strategy file a run's manifest recorded
    (:meth:`StrategyFile.record`), so a spec of that run rebuilds it in a new process
    (e.g. to replay one of its games) even when the file is gone. A record that no longer
    fits its base (a parameter renamed since) is left out."""
    try:
        cls = registry()[record["base"]]
        resolved = dict(record["params"])
        if set(resolved) - set(cls.defaults):
            return
        params = {k: v for k, v in resolved.items() if cls.defaults[k] != v}
        for k, v in params.items():
            _checked(cls, k, v)
        remember(StrategyFile(name=record["name"], base=record["base"], params=params,
                              path=record.get("file"), sha256=record.get("sha256"),
                              resolved={**cls.defaults, **params}))
    except (KeyError, TypeError, ValueError):
        return


def register_folder(folder: str | Path, shipped: bool = False) -> list[StrategyFile]:
    """Register every ``*.toml`` file of ``folder`` (in name order)."""
    out = []
    for path in sorted(Path(folder).glob("*.toml")):
        sf = read_strategy_file(path, shipped)
        _register(sf)
        out.append(sf)
    return out


def registered_files() -> dict[str, StrategyFile]:
    """The registered strategy files by name."""
    return dict(_FILES)


def find_strategy_file(name: str) -> StrategyFile | None:
    """The strategy file a spec's name means: a registered file's name, or a path ending
    in ``.toml`` (loaded and registered); None for anything else."""
    if name in _FILES:
        return _FILES[name]
    if name.endswith(".toml"):
        return load_strategy_file(name)
    return None


def build(sf: StrategyFile, **overrides: Any) -> Strategy:
    """The strategy a file describes (``overrides`` as in :func:`make_strategy`)."""
    _register(sf)
    return make_strategy(sf.name, **overrides)


# ------------------------------------------------------------------------- writing


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"TOML has no {v!r}")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()
                               if x is not None) + "}"
    raise TypeError(f"cannot write {type(v).__name__} {v!r} as TOML")


def _key(k: str) -> str:
    return k if re.match(r"^[A-Za-z0-9_-]+$", k) else json.dumps(k, ensure_ascii=False)


def _table(lines: list[str], head: str, table: Mapping[str, Any]) -> None:
    """``[head]`` with the scalar entries, then each sub-table (None values left out)."""
    lines += ["", f"[{head}]"]
    subs = {k: v for k, v in table.items() if isinstance(v, Mapping) and v}
    lines += [f"{_key(k)} = {_value(v)}" for k, v in table.items()
              if v is not None and k not in subs]
    for k, v in subs.items():
        _table(lines, f"{head}.{_key(k)}", v)


def to_toml(name: str, base: str, params: Mapping[str, Any], description: str = "",
            tuning: Mapping[str, Any] | None = None) -> str:
    """The text of a strategy file (which :func:`parse_strategy_file` reads back).

    >>> print(to_toml("t", "greedy", {"route": 1.25}, "demo", {"seed": 3}))
    name = "t"
    base = "greedy"
    description = "demo"
    <BLANKLINE>
    [params]
    route = 1.25
    <BLANKLINE>
    [tuning]
    seed = 3
    <BLANKLINE>
    """
    lines = [f"name = {_value(name)}", f"base = {_value(base)}"]
    if description:
        lines.append(f"description = {_value(description)}")
    _table(lines, "params", params)
    if tuning:
        _table(lines, "tuning", tuning)
    return "\n".join(lines) + "\n"
