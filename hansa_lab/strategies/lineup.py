"""Line-ups: which strategy plays which seat, from text or a list — one parser for all.

A line-up is written as comma-separated strategy specs, the way the ``games`` table's
``lineup`` column, ``--strategies`` on the command line and string arms of experiment
files write it. A spec's own parameters are comma-separated too, so a token ``key=value``
without a ``name:`` continues the spec before it::

    "greedy:depth=2,explore=0.1,random"   →  ["greedy:depth=2,explore=0.1", "random"]

A line-up shorter than the table repeats to fill it when its length divides the number of
seats (``"greedy,random"`` for four seats is greedy, random, greedy, random); seat 0 plays
the first spec. Every spec is checked by building its strategy, so an unknown name or a
bad parameter is reported with its position before any game starts.

>>> parse_lineup("greedy:depth=2,explore=0.1,random", 2)
['greedy:depth=2,explore=0.1', 'random']
>>> parse_lineup("random,greedy", 4)
['random', 'greedy', 'random', 'greedy']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, overload

from hansa_lab.strategies.base import Strategy, make_strategy

__all__ = ["fill_seats", "parse_lineup", "split_specs"]

T = TypeVar("T")


def split_specs(text: str) -> list[str]:
    """The strategy specs of a comma-separated line-up, in order (not checked).

    >>> split_specs(" mcts:iterations=30, top_k=4 ,greedy,")
    ['mcts:iterations=30,top_k=4', 'greedy']
    """
    specs: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        if specs and "=" in token and ":" not in token:
            specs[-1] += "," + token  # a further parameter of the spec before
        else:
            specs.append(token)
    return specs


def fill_seats(lineup: Sequence[T], n_seats: int) -> list[T]:
    """``lineup`` repeated to fill ``n_seats`` seats; its length must divide ``n_seats``.

    >>> fill_seats(["a", "b"], 4)
    ['a', 'b', 'a', 'b']
    """
    k = len(lineup)
    if k == 0:
        raise ValueError("a line-up needs at least one strategy")
    if k > n_seats or n_seats % k:
        raise ValueError(f"{k} strategies cannot fill {n_seats} seats (give {n_seats}, or a "
                         f"divisor of {n_seats} to repeat)")
    return list(lineup) * (n_seats // k)


@overload
def parse_lineup(lineup: str | Sequence[str], n_seats: int) -> list[str]: ...
@overload
def parse_lineup(lineup: Sequence[str | Strategy], n_seats: int) -> list[str | Strategy]: ...
def parse_lineup(lineup: str | Sequence[str | Strategy], n_seats: int) -> list[Any]:
    """One strategy per seat from a line-up: comma-separated text, or a list of specs (or
    :class:`Strategy` objects, passed through). Raises ``ValueError`` naming the first
    spec that is not a strategy, or a length that cannot fill the seats."""
    specs: list[str | Strategy]
    if isinstance(lineup, str):
        specs = list(split_specs(lineup))
    else:
        specs = [s.strip() if isinstance(s, str) else s for s in lineup]
    for i, spec in enumerate(specs):
        if isinstance(spec, Strategy):
            continue
        if not isinstance(spec, str):
            raise ValueError(f"strategy {i + 1} of the line-up: a spec like 'greedy' or a "
                             f"Strategy, got {spec!r}")
        try:
            make_strategy(spec)
        except ValueError as e:
            raise ValueError(f"strategy {i + 1} of the line-up ({spec!r}): {e}") from None
    return fill_seats(specs, n_seats)
