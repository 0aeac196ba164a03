"""The skill ladder: players from novice to the strongest the lab runs at study scale, each
meant to beat the one below (one seat against the rung below in every other seat).

The rungs are declared in ``hansa_lab/studies/data/skill_ladder.toml``: a default list and
optional overrides for a board (and player counts) where measurement showed the default
is not calibrated. :func:`skill_rungs` reads them; ``hansa-lab skill-ladder`` measures them
(:func:`measure_ladder`).

A step of the ladder is rung k in one seat against rung k - 1 in every other seat, seats
rotated by the runner (:func:`~hansa_lab.sim.runner.simulate`: every seat equally often);
its win share (ties shared) has a Wilson interval (:func:`~hansa_lab.stats.audit.
predecessor_table`). A step passes when the share is at least :data:`PASS_SHARE` and the
interval's lower bound above :data:`PASS_LOWER`. Costs are CPU seconds per game (the
runner's ``cpu_time``: the playing process's CPU time, not wall time) beside an all-greedy
table played in the same run on the same deals. The realism table profiles each rung's
self-play (:func:`~hansa_lab.stats.play_style.play_style`,
:func:`~hansa_lab.stats.audit.end_reasons`) on the deals after the steps'.

>>> [r.label for r in skill_rungs()][:2]
['random', 'greedy']
>>> len(skill_rungs("east", 4)) >= 6
True
"""

from __future__ import annotations

import math
import os
import re
import textwrap
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd

from hansa_lab.engine.board import BOARD_FAMILIES, KNOWN_BOARDS, resolve_side
from hansa_lab.engine.state import GameConfig
from hansa_lab.sim.paths import safe_name

__all__ = ["LADDER_FILE", "PASS_LOWER", "PASS_SHARE", "REFERENCE", "LadderRun", "Rung",
           "Step", "format_ladder", "format_realism", "ladder_frames", "ladder_verdict",
           "measure_ladder", "realism_table", "resolve_rungs", "skill_rungs", "top_verdict"]

#: A step passes when the rung's win share is at least this ...
PASS_SHARE = 0.35
#: ... and the lower bound of its Wilson 95% interval above this.
PASS_LOWER = 0.25
#: The strategy of the cost reference table.
REFERENCE = "greedy"

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


def resolve_rungs(entries: Sequence[str], board: str = "base",
                  players: int = 4) -> tuple[Rung, ...]:
    """Rungs from ``entries``, novice first: each a label of :func:`skill_rungs`' list for
    the game, else a strategy spec (its label is the spec). ValueError naming the entry
    when it is neither, or when fewer than two rungs or a repeated label are given."""
    from hansa_lab.strategies import make_strategy

    declared = {r.label: r for r in skill_rungs(board, players)}
    out: list[Rung] = []
    for i, entry in enumerate(entries):
        if entry in declared:
            out.append(declared[entry])
            continue
        try:
            make_strategy(entry)
        except ValueError as e:
            raise ValueError(f"rung {i + 1} ({entry!r}) is neither a rung label "
                             f"({', '.join(declared)}) nor a strategy: {e}") from None
        out.append(Rung(entry, entry, f"the strategy {entry}"))
    if len(out) < 2:
        raise ValueError(f"a ladder needs at least two rungs, got {len(out)}")
    labels = [r.label for r in out]
    if len(set(labels)) != len(labels):
        raise ValueError(f"rungs repeat: {', '.join(labels)}")
    return tuple(out)


@dataclass
class Step:
    """One measured step: ``challenger`` (label) in one seat against ``below`` in the
    others, seat-rotated; its win share with the Wilson interval and the costs."""

    rung: int  # 1-based position of the challenger on the ladder (0: the top's check)
    challenger: str
    below: str
    games: int
    win_share: float
    lo: float
    hi: float
    cpu_per_game: float
    cost_ratio: float  # CPU per game over the all-greedy table's

    @property
    def passed(self) -> bool:
        return self.win_share >= PASS_SHARE and self.lo > PASS_LOWER


@dataclass
class LadderRun:
    """A measured ladder: its game, the rungs, the steps (rung 2 against rung 1, ...), the
    all-greedy table's CPU per game, the top's check against ``top_against`` and the
    realism table (one row per rung), when asked."""

    board: str
    n_players: int
    edition: str
    games: int
    seed: int
    rungs: tuple[Rung, ...]
    reference_cpu: float = math.nan
    steps: list[Step] = field(default_factory=list)
    top_against: str | None = None
    top: Step | None = None
    realism: pd.DataFrame | None = None


def _step(rung: int, challenger: Rung, below: str, res: Any, reference_cpu: float) -> Step:
    from hansa_lab.stats.audit import predecessor_table

    row = predecessor_table({"all": (res.players, res.games)}).iloc[0]
    cpu = float(res.games["cpu_time"].mean())
    return Step(rung, challenger.label, below, int(row["games"]), float(row["win_share"]),
                float(row["lo"]), float(row["hi"]), cpu, cpu / reference_cpu)


def measure_ladder(
    rungs: Sequence[Rung],
    *,
    board: str = "base",
    n_players: int = 4,
    edition: str = "bigbox",
    options: Mapping[str, Any] | None = None,
    games: int = 200,
    seed: int = 0,
    top_against: str | None = None,
    realism_games: int = 0,
    n_jobs: int = 1,
    out: str | os.PathLike[str] | None = None,
    progress: bool = False,
    force: bool = False,
    on_step: Callable[[Step], None] | None = None,
) -> LadderRun:
    """Play the ladder of ``rungs`` (novice first): the all-greedy reference table, then
    each step (rung k in one seat, rung k - 1 in the others, ``games`` games rounded up to
    whole seat rotations, seeds ``seed, seed + 1, ...``), then with ``realism_games`` each
    rung's self-play (full logs, the deals after the steps'), then with ``top_against``
    the top rung in one seat against it (last: it is the costliest table). ``out``: one
    results folder per table (resumable, as :func:`~hansa_lab.sim.runner.simulate`'s);
    None keeps them in memory.
    ``on_step`` is called with each step as it is measured."""
    from hansa_lab.sim.runner import simulate

    rungs = tuple(rungs)
    if len(rungs) < 2:
        raise ValueError(f"rungs: a ladder needs at least two, got {len(rungs)}")
    run = LadderRun(board, n_players, edition, games, seed, rungs, top_against=top_against)
    common: dict[str, Any] = {"n_players": n_players, "board": board, "edition": edition,
                              "options": dict(options or {}), "n_jobs": n_jobs,
                              "progress": progress, "force": force, "name": "skill_ladder"}

    def folder(name: str) -> Path | None:
        return None if out is None else Path(out) / safe_name(name)

    ref = simulate([REFERENCE], games, seed=seed, log="summary",
                   out=folder(f"reference_{REFERENCE}"), **common)
    run.reference_cpu = float(ref.games["cpu_time"].mean())
    for k in range(1, len(rungs)):
        hi, lo = rungs[k], rungs[k - 1]
        res = simulate([hi.spec, *[lo.spec] * (n_players - 1)], games, seed=seed,
                       log="summary", out=folder(f"step{k + 1}_{hi.label}_vs_{lo.label}"),
                       **common)
        run.steps.append(_step(k + 1, hi, lo.label, res, run.reference_cpu))
        if on_step is not None:
            on_step(run.steps[-1])
    if realism_games:
        tables = {}
        for r in rungs:
            tables[r.label] = simulate([r.spec], realism_games, seed=seed + games,
                                       log="full", out=folder(f"realism_{r.label}"),
                                       **common)
        run.realism = realism_table(tables)
    if top_against is not None:
        top = rungs[-1]
        res = simulate([top.spec, *[top_against] * (n_players - 1)], games, seed=seed,
                       log="summary", out=folder(f"top_{top.label}_vs_{top_against}"),
                       **common)
        run.top = _step(0, top, top_against, res, run.reference_cpu)
        if on_step is not None:
            on_step(run.top)
    return run


def realism_table(tables: Mapping[str, Any]) -> pd.DataFrame:
    """One row per self-play table (``label`` -> its results, full logs): the mean score
    by place (``place1``, ``place2``, ...), the play-style figures of
    :func:`~hansa_lab.stats.play_style.play_style` (rounds, third action, five actions,
    City Keys 1 and 3+, Coellen spaces, winners' main source), the share of games per end
    reason (``end_<reason>``) and the mean CPU seconds per game."""
    from hansa_lab.stats.audit import end_reasons
    from hansa_lab.stats.play_style import play_style

    rows = []
    for label, res in tables.items():
        players, games = res.players, res.games
        row: dict[str, Any] = {"rung": label}
        totals = players.sort_values(["game_id", "total"], ascending=[True, False])
        place = totals.groupby("game_id").cumcount() + 1
        for p, mean in totals["total"].groupby(place.to_numpy()).mean().items():
            row[f"place{p}"] = float(mean)
        style = play_style(games, players, res.turns, res.events).iloc[0].to_dict()
        row.update(style)
        for e in end_reasons(games).itertuples():
            row[f"end_{e.end_reason}"] = float(e.share)
        row["cpu_per_game"] = float(games["cpu_time"].mean())
        rows.append(row)
    out = pd.DataFrame(rows)
    ends = [c for c in out.columns if c.startswith("end_")]
    out[ends] = out[ends].fillna(0.0)
    return out


def ladder_verdict(run: LadderRun) -> str:
    """The plain verdict: every step passes, or the steps that do not."""
    failed = [s for s in run.steps if not s.passed]
    if not failed:
        return "calibrated: every rung beats the one below"
    return "not calibrated: " + "; ".join(
        f"rung {s.rung} ({s.challenger}) against {s.below}: {s.win_share:.1%} "
        f"[{s.lo:.1%}, {s.hi:.1%}]" for s in failed)


def top_verdict(run: LadderRun) -> str | None:
    """The top rung against ``top_against``: at least as strong, or not (None: not asked)."""
    t = run.top
    if t is None:
        return None
    share = f"{t.win_share:.1%} [{t.lo:.1%}, {t.hi:.1%}] of {t.games}"
    if t.passed:
        return f"top rung {t.challenger} holds against {t.below}: {share}"
    return f"top rung {t.challenger} does not hold against {t.below}: {share}"


def _pct(x: float) -> str:
    return "-" if x != x else f"{100 * x:.0f}%"


def format_ladder(run: LadderRun) -> str:
    """The terminal tables (lines of at most 100 columns) and the verdict lines."""
    ref = run.reference_cpu
    lines = [f"skill ladder: {run.board}, {run.n_players} players, {run.edition}; "
             f"{run.games} games per step from seed {run.seed}",
             f"pass: win share >= {PASS_SHARE:.0%} and the Wilson 95% lower bound > "
             f"{PASS_LOWER:.0%}; all-{REFERENCE} table: {ref:.3f} CPU-s/game",
             "",
             f"{'rung':<4} {'label':<16} {'against':<16} {'games':>5} "
             f"{'win share [95% CI]':<22} {'pass':<4} {'CPU-s/game':>10} {'x greedy':>8}",
             f"{1:<4} {run.rungs[0].label[:16]:<16} -"]
    shown = [*run.steps, *([run.top] if run.top is not None else [])]
    for s in shown:
        share = f"{s.win_share:6.1%} [{s.lo:5.1%}, {s.hi:5.1%}]"
        lines.append(f"{s.rung or 'top':<4} {s.challenger[:16]:<16} {s.below[:16]:<16} "
                     f"{s.games:>5} {share:<22} {'yes' if s.passed else 'NO':<4} "
                     f"{s.cpu_per_game:>10.3f} {s.cost_ratio:>8.1f}")
    lines += ["", "rungs:"]
    for i, r in enumerate(run.rungs):
        lines += textwrap.wrap(f"{i + 1}. {r.label} = {r.spec}: {r.about}", 100,
                               initial_indent="  ", subsequent_indent="       ")
    if run.realism is not None:
        lines += ["", *format_realism(run.realism)]
    lines += ["", *textwrap.wrap(ladder_verdict(run), 100, subsequent_indent="  ")]
    top = top_verdict(run)
    if top is not None:
        lines += textwrap.wrap(top, 100, subsequent_indent="  ")
    return "\n".join(lines)


def format_realism(table: pd.DataFrame) -> list[str]:
    """The realism table's terminal lines (one per rung)."""
    places = sorted((c for c in table.columns if re.fullmatch(r"place\d+", c)),
                    key=lambda c: int(c[5:]))
    ends = [c for c in table.columns if c.startswith("end_")]
    games = int(table["games"].iloc[0]) if len(table) else 0
    lines = [f"realism: self-play, {games} games per rung (scores by place; rounds median; "
             "ends: share of games",
             "by prestige track / cities / markers / cap; 3rd: median round of the third "
             "action; 5act: reached",
             "five actions; keys1, keys3: City Keys developed >= 1, >= 3 times; coellen, "
             "top: games with a",
             "special space taken, its top two; winners' main score source and share)",
             f"{'label':<14} {'score by place':<19} {'rnds':>4} {'ends p/c/m/cap':<15} "
             f"{'3rd':>3} {'5act':>4} {'keys1':>5} {'keys3':>5} {'coel':>4} {'top':>4} "
             "winners"]
    for r in table.to_dict("records"):
        score = "/".join(f"{r[c]:.0f}" for c in places)
        end = "/".join(_pct(r.get(f"end_{e}", 0.0)).rstrip("%")
                       for e in ("prestige", "cities", "markers", "cap"))
        third = r["third_action_round_median"]
        lines.append(
            f"{str(r['rung'])[:14]:<14} {score:<19} {r['rounds_median']:>4.0f} {end:<15} "
            f"{'-' if third != third else f'{third:.0f}':>3} {_pct(r['five_actions']):>4} "
            f"{_pct(r['keys_developed']):>5} {_pct(r['keys_level3']):>5} "
            f"{_pct(r['coellen_games']):>4} {_pct(r['coellen_top_games']):>4} "
            f"{r['winner_main_source']} {_pct(r['winner_main_share'])}")
    other = [e for e in ends if e[4:] not in ("prestige", "cities", "markers", "cap")]
    if other:
        lines.append(f"(other end reasons in the CSV: {', '.join(e[4:] for e in other)})")
    return lines


def ladder_frames(run: LadderRun) -> dict[str, pd.DataFrame]:
    """The run's tables for CSV files: ``steps`` (one row per step, the top's check last,
    the all-greedy cost on each), ``rungs`` and, when measured, ``realism``."""
    rows = [{**s.__dict__, "passed": s.passed, "board": run.board,
             "players": run.n_players, "edition": run.edition, "seed": run.seed,
             "reference_cpu_per_game": run.reference_cpu}
            for s in [*run.steps, *([run.top] if run.top is not None else [])]]
    out = {"steps": pd.DataFrame(rows),
           "rungs": pd.DataFrame([{"rung": i + 1, **r.__dict__}
                                  for i, r in enumerate(run.rungs)])}
    if run.realism is not None:
        out["realism"] = run.realism
    return out
