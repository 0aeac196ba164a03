"""The ranges both engines play, from one data file shared with the compiled core.

``data/limits.json`` declares, for every numeric strategy parameter (by group: ``greedy``,
``weights``, ``tip`` …), its type and its inclusive range, and which groups each strategy
takes (``strategy_groups``); every numeric rule option (each number of a list or table
option) declares its range with the option, in ``data/vocabulary.json`` (``"range"``).
The Python engine validates with them (:mod:`hansa_lab.engine.options`,
:func:`hansa_lab.strategies.base.make_strategy`), and the core compiles the same files in
(``core/src/limits.rs``) and refuses anything outside, so a value that passes here is one
both engines can play; the tests play a game in both engines at each end of each range
(``tests/test_param_ranges.py``).

>>> option_limit("prestige_to_end")
Limit(name='prestige_to_end', kind='int', low=1, high=1000)
>>> parameter_limits("weights")["fade"].text()
'a number 0.1-10000'
"""

from __future__ import annotations

import json
import math
import numbers
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hansa_lab.engine.vocabulary import vocabulary

__all__ = ["LIMITS_FILE", "Limit", "check_number", "limits_markdown", "option_limit",
           "option_limits", "parameter_groups", "parameter_limits", "strategy_groups",
           "strategy_limits"]

#: The shared table (the core includes the same file at compile time).
LIMITS_FILE = Path(__file__).parent / "data" / "limits.json"


@dataclass(frozen=True)
class Limit:
    """One declared range: ``kind`` is ``"int"`` or ``"float"``, ``low`` and ``high``
    inclusive."""

    name: str
    kind: str
    low: float
    high: float

    def text(self) -> str:
        """The range in words (``"an integer 0-20"``, ``"a number 0.1-10000"``)."""
        what = "an integer" if self.kind == "int" else "a number"
        return f"{what} {self.low:g}-{self.high:g}"

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LIMITS_FILE.read_text(encoding="utf-8"))
    return data


def _limit(name: str, entry: dict[str, Any]) -> Limit:
    return Limit(name, entry["type"], entry["min"], entry["max"])


@cache
def _option_limits() -> dict[str, Limit]:
    return {e["name"]: Limit(e["name"], "int", e["range"][0], e["range"][1])
            for e in vocabulary()["rule_options"] if "range" in e}


def option_limits() -> dict[str, Limit]:
    """Every ranged rule option's :class:`Limit`, by name, in the options' order (each
    number of a list or table option must lie in it): the ``"range"`` of its entry in
    ``data/vocabulary.json``."""
    return dict(_option_limits())


def option_limit(name: str) -> Limit:
    """The :class:`Limit` of the rule option ``name`` (KeyError if it has none)."""
    return _option_limits()[name]


def parameter_groups() -> tuple[str, ...]:
    """The groups of strategy parameters in the table (``greedy``, ``weights``, …)."""
    return tuple(_table()["strategy_parameters"])


def parameter_limits(*groups: str) -> dict[str, Limit]:
    """The strategy parameters' :class:`Limit` of ``groups``, by parameter name (a later
    group's entry replaces an earlier one's)."""
    table = _table()["strategy_parameters"]
    out: dict[str, Limit] = {}
    for g in groups:
        if g not in table:
            raise KeyError(f"no group {g!r} of strategy parameters in {LIMITS_FILE.name}")
        out.update({k: _limit(k, e) for k, e in table[g].items()})
    return out


def strategy_groups() -> dict[str, tuple[str, ...]]:
    """The groups of parameters each strategy takes, by its registered name (the table's
    ``strategy_groups``; the core reads the same in ``core/src/limits.rs``)."""
    return {name: tuple(groups) for name, groups in _table()["strategy_groups"].items()}


def strategy_limits(name: str) -> dict[str, Limit]:
    """The :class:`Limit` of every parameter of strategy ``name`` (its declared groups'),
    by parameter name; ``KeyError`` for a strategy the table does not declare."""
    groups = _table()["strategy_groups"]
    if name not in groups:
        raise KeyError(f"no strategy {name!r} in {LIMITS_FILE.name} strategy_groups")
    return parameter_limits(*groups[name])


def as_int(value: Any) -> int | None:
    """``value`` as a Python int when it is an integer (a numpy integer too, not a bool),
    else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def check_number(value: Any, limit: Limit) -> int | float:
    """``value`` as a plain int or float within ``limit`` (numpy scalars accepted), or
    ``ValueError`` saying what is wrong: the type, not finite, or outside the range."""
    as_integer = as_int(value)
    if limit.kind == "int":
        if as_integer is None:
            raise ValueError(f"must be {limit.text()}, got {value!r}")
        number: int | float = as_integer
    else:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"must be {limit.text()}, got {value!r}")
        number = as_integer if as_integer is not None else float(value)
        if not math.isfinite(number):
            raise ValueError(f"must be a finite number ({limit.text()}), got {value!r}")
    if not limit.contains(number):
        raise ValueError(f"must be within [{limit.low:g}, {limit.high:g}] (the range both "
                         f"engines play), got {value!r}")
    return number


def limits_markdown() -> str:
    """The table as Markdown (the ranges section of ``docs/guides/errors_and_limits.md``):
    each strategy's groups, then each group's parameters (the rule options' ranges are on
    the option table's page, ``docs/rule_options.md``)."""
    lines = ["| strategy | groups |", "|---|---|"]
    for name, groups in strategy_groups().items():
        lines.append(f"| `{name}` | {', '.join(groups) or 'none'} |")
    lines += ["", "| group | parameter | type | range |", "|---|---|---|---|"]
    for g in parameter_groups():
        for lim in parameter_limits(g).values():
            lines.append(f"| {g} | `{lim.name}` | {lim.kind} | {lim.low:g} – {lim.high:g} |")
    return "\n".join(lines) + "\n"
