"""The skill ladder: players from novice to the strongest the lab runs at study scale, each
meant to beat the one below (one seat against the rung below in every other seat).

The rungs are declared in ``hansa_lab/studies/data/skill_ladder.toml``: a default list and
optional overrides for a board (and player counts) where measurement showed the default
is not calibrated. :func:`skill_rungs` reads them; ``hansa-lab skill-ladder`` measures them
(:func:`measure_ladder`).

>>> [r.label for r in skill_rungs()][:2]
['greedy', 'planner']
>>> len(skill_rungs("east", 4)) >= 6
True
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hansa_lab.engine.board import BOARD_FAMILIES, KNOWN_BOARDS, resolve_side
from hansa_lab.engine.state import GameConfig

__all__ = ["LADDER_FILE", "Rung", "skill_rungs"]

#: The rung declarations (see the module doc).
LADDER_FILE = Path(__file__).parent / "data" / "skill_ladder.toml"


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder."""

    label: str  #: short, for tables and figures ("greedy", "strong x3")
    spec: str  #: a strategy spec :func:`~hansa_lab.strategies.make_strategy` accepts
    about: str  #: one line: what the rung is


def _rungs(entries: Any, where: str) -> tuple[Rung, ...]:
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{LADDER_FILE.name}: {where}: needs a non-empty list of rungs")
    out = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or set(e) != {"label", "spec", "about"} \
                or not all(isinstance(v, str) and v.strip() for v in e.values()):
            raise ValueError(f"{LADDER_FILE.name}: {where} rung {i + 1}: needs exactly "
                             f"label, spec and about (non-empty strings), got {e!r}")
        out.append(Rung(e["label"], e["spec"], e["about"]))
    labels = [r.label for r in out]
    if len(set(labels)) != len(labels):
        raise ValueError(f"{LADDER_FILE.name}: {where}: labels repeat: {labels}")
    return tuple(out)


@cache
def _declared() -> tuple[tuple[Rung, ...], tuple[tuple[str, tuple[int, ...] | None,
                                                       tuple[Rung, ...]], ...]]:
    """The default rungs and the overrides ``(board side, players or None, rungs)``."""
    raw = tomllib.loads(LADDER_FILE.read_text(encoding="utf-8"))
    unknown = set(raw) - {"rung", "override"}
    if unknown:
        raise ValueError(f"{LADDER_FILE.name}: unknown keys {sorted(unknown)} "
                         "(known: rung, override)")
    default = _rungs(raw.get("rung"), "[[rung]]")
    overrides = []
    for i, o in enumerate(raw.get("override", [])):
        where = f"override {i + 1}"
        if not isinstance(o, dict) or not set(o) <= {"board", "players", "rung"} \
                or "board" not in o:
            raise ValueError(f"{LADDER_FILE.name}: {where}: needs board, optional players "
                             f"and its [[override.rung]] list, got keys {sorted(o)}")
        if o["board"] not in KNOWN_BOARDS:
            raise ValueError(f"{LADDER_FILE.name}: {where}: unknown board {o['board']!r}; "
                             f"known boards: {', '.join(KNOWN_BOARDS)}")
        players = o.get("players")
        if players is not None and (not isinstance(players, list) or not all(
                isinstance(p, int) and not isinstance(p, bool) for p in players)):
            raise ValueError(f"{LADDER_FILE.name}: {where}: players must be a list of "
                             f"player counts, got {players!r}")
        overrides.append((o["board"], tuple(players) if players is not None else None,
                          _rungs(o.get("rung"), where)))
    return default, tuple(overrides)


def _matches(declared: str, board: str, n_players: int) -> bool:
    """Whether an override for ``declared`` (a family or a side) covers ``board``."""
    if declared == board:
        return True
    if declared in BOARD_FAMILIES:
        return resolve_side(board, n_players) in BOARD_FAMILIES[declared].values()
    return resolve_side(board, n_players) == declared


def skill_rungs(board: str = "base", players: int = 4) -> tuple[Rung, ...]:
    """The ladder's rungs for games of ``players`` on ``board``, novice first: the first
    override of :data:`LADDER_FILE` covering them, else the default list. ValueError naming
    the field (``board`` or ``players``) when no such game exists."""
    if board not in KNOWN_BOARDS:
        raise ValueError(f"board: unknown board {board!r}; known boards: "
                         f"{', '.join(KNOWN_BOARDS)}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players: must be a whole number, got {players!r}")
    try:
        GameConfig(players, board=board)
    except ValueError as e:
        raise ValueError(f"players: {players} players cannot play on {board!r}: {e}") from None
    default, overrides = _declared()
    for declared, counts, rungs in overrides:
        if (counts is None or players in counts) and _matches(declared, board, players):
            return rungs
    return default
