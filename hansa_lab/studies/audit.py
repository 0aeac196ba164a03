"""Playing a player audit: the player's self-play tables, a reference population's
self-play on other deals (what the rules alone make seats differ by), and optionally one
seat of the player against its predecessor in the others, and one seat of a *probe* (a
stronger player) against the player in the others, per board. The tables are the
runner's (:func:`hansa_lab.sim.runner.simulate`, full logs); the profile and the seat
tests are :mod:`hansa_lab.stats.audit`'s.

Seeds: the self-play games use ``seed, seed + 1, ...``; the reference's the next block
(``seed + games, ...``), so the two samples are independent; the predecessor matches use
``seed`` again on each board (their own line-up, seats rotated); the probe's games the
block after the reference's (``seed + 2 * games, ...``), independent of the self-play they
are compared with.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hansa_lab.sim.paths import UNSAFE_IN_NAME
from hansa_lab.sim.results import Results
from hansa_lab.sim.runner import simulate
from hansa_lab.strategies import make_strategy

__all__ = ["DEFAULT_AUDIT_GAMES", "PREDECESSORS", "AuditRun", "play_audit", "predecessor_of"]

#: Self-play games per audit when not told (per board).
DEFAULT_AUDIT_GAMES = 200
#: A player's predecessor (``--against-predecessor``) by strategy name.
PREDECESSORS = {"strong": "strong_v1"}


def predecessor_of(player: str) -> str:
    """The predecessor of ``player`` (:data:`PREDECESSORS`); ValueError naming the known
    ones otherwise."""
    name = make_strategy(player).name
    if name not in PREDECESSORS:
        raise ValueError(f"no known predecessor of {player!r}; known: "
                         + ", ".join(f"{k} -> {v}" for k, v in PREDECESSORS.items()))
    return PREDECESSORS[name]


@dataclass
class AuditRun:
    """The games of one audit: per board, the player's self-play and the reference's
    (None: no reference), the matches against the predecessor and the probe's games (empty:
    not asked)."""

    player: str
    reference: str | None
    n_players: int
    games: int
    seed: int
    self_play: dict[str, Results] = field(default_factory=dict)
    reference_play: dict[str, Results] = field(default_factory=dict)
    predecessor: str | None = None
    against_predecessor: dict[str, Results] = field(default_factory=dict)
    probe: str | None = None
    probe_play: dict[str, Results] = field(default_factory=dict)


def _folder(out: str | os.PathLike[str] | None, *parts: str) -> Path | None:
    if out is None:
        return None
    return Path(out).joinpath(*(UNSAFE_IN_NAME.sub("_", p) for p in parts))


def play_audit(
    player: str,
    *,
    boards: tuple[str, ...] = ("base",),
    n_players: int = 4,
    games: int = DEFAULT_AUDIT_GAMES,
    reference: str | None = "greedy",
    against_predecessor: bool = False,
    probe: str | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    out: str | os.PathLike[str] | None = None,
    progress: bool = False,
    force: bool = False,
) -> AuditRun:
    """Play the games of an audit of ``player`` on each of ``boards``: ``games``
    self-play games (every seat ``player``; full logs), as many of ``reference`` (None:
    none) on the next seeds, and with ``against_predecessor`` ``games`` games of one
    ``player`` seat against its predecessor (:func:`predecessor_of`) in the others, seats
    rotated, and with ``probe`` (a strategy) ``games`` games of one ``probe`` seat against
    ``player`` in the others, seats rotated (is a seat the player does badly in hard for a
    better player too? :func:`~hansa_lab.stats.audit.probe_table`). ``out``: a folder
    holding one results folder per table (resumable, as
    :func:`~hansa_lab.sim.runner.simulate`'s); None keeps them in memory. Bad arguments
    raise ValueError before any game is played."""
    make_strategy(player)
    if reference is not None:
        make_strategy(reference)
    if not boards:
        raise ValueError("boards: name at least one board")
    if probe is not None:
        make_strategy(probe)
    pred = predecessor_of(player) if against_predecessor else None
    run = AuditRun(player, reference, n_players, games, seed, predecessor=pred, probe=probe)
    common: dict[str, Any] = {"n_players": n_players, "n_jobs": n_jobs, "progress": progress,
              "force": force, "name": "audit"}
    for board in boards:
        tag = f"{board}_{n_players}p"
        run.self_play[board] = simulate(
            [player], games, board=board, seed=seed,
            out=_folder(out, f"{player}_{tag}"), **common)
        if reference is not None:
            run.reference_play[board] = simulate(
                [reference], games, board=board, seed=seed + games,
                out=_folder(out, f"reference_{reference}_{tag}"), **common)
        if pred is not None:
            run.against_predecessor[board] = simulate(
                [player, *[pred] * (n_players - 1)], games, board=board, seed=seed, log="summary",
                out=_folder(out, f"{player}_vs_{pred}_{tag}"), **common)
        if probe is not None:
            run.probe_play[board] = simulate(
                [probe, *[player] * (n_players - 1)], games, board=board,
                seed=seed + 2 * games, log="summary",
                out=_folder(out, f"probe_{probe}_vs_{player}_{tag}"), **common)
    return run
