"""perft: the number of action sequences of a given length from a position (the leaf
nodes of the game tree cut at that depth; a finished game is one leaf), as in chess
engines. The compiled core counts the same (``core/src/perft.rs``); the saved
positions and their counts are ``tests/data/perft.txt``.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> s = new_game(GameConfig(n_players=3, seed=1))
>>> [perft(s, d) for d in range(3)]
[1, 68, 3664]
"""

from __future__ import annotations

from hansa_lab.engine.actions import Action
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.state import State

__all__ = ["divide", "perft"]


def perft(state: State, depth: int) -> int:
    """Action sequences of length ``depth`` from ``state`` (``depth`` >= 0)."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    if depth == 0 or state.is_over:
        return 1
    legal = legal_actions(state)
    if depth == 1:
        return len(legal)
    return sum(perft(apply(state, a), depth - 1) for a in legal)


def divide(state: State, depth: int) -> list[tuple[Action, int]]:
    """:func:`perft` to ``depth - 1`` below each legal action, in the legal order."""
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, got {depth}")
    return [(a, perft(apply(state, a), depth - 1)) for a in legal_actions(state)]
