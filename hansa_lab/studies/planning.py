"""How many games a question needs, and answering it with no more games than that.

- :func:`plan_experiment` plays a short pilot of an experiment (a few deals of every arm
  and condition, in memory, on seeds the run itself never uses), measures the spread that
  the run's intervals will have and the time a game takes, and returns a :class:`Plan`:
  the games per arm and condition for a 95% interval of ±``half_width`` points, and the
  time that takes with the given worker count.
- :func:`decide_arms` answers "does each arm beat the base arm by at least ``effect``
  points, or not?" with the group-sequential test of
  :func:`hansa_lab.stats.sequential_compare`: it plays new paired deals in batches and
  stops as soon as the question is decided (or at a maximum);
- :func:`runner_batches` plays new deals of paired arms on demand, the batches of such a
  sequential test.

Precision is about the main comparison: with a base arm, the paired difference of the
focal player's final score per deal (:meth:`~hansa_lab.sim.results.Results.compare`);
without one, each strategy's mean final score.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import pandas as pd

from hansa_lab.play import DEFAULT_ENGINE
from hansa_lab.sim.experiment import Condition, Experiment
from hansa_lab.sim.results import Results
from hansa_lab.sim.runner import play_in_memory, simulate
from hansa_lab.stats.sequential import SequentialResult, sequential_compare
from hansa_lab.stats.tables import lineup_period
from hansa_lab.stats.verdicts import deals_for_half_width

__all__ = ["PILOT_SEED_OFFSET", "Plan", "decide_arms", "plan_experiment", "runner_batches"]

#: Pilot games use seeds from experiment seed + this, so the run never replays them.
PILOT_SEED_OFFSET = 1_000_000
#: Share of a perfect parallel speed-up the runner reaches (measured: 0.85–0.96).
PARALLEL_EFFICIENCY = 0.9


@dataclass(frozen=True)
class Plan:
    """What a precision costs: ``games`` per arm and condition (the experiment's
    ``games``), ``total_games`` in all, and the estimated ``seconds`` with ``n_jobs``."""

    half_width: float
    basis: str  # what the precision is about
    deals: int  # deals needed per condition
    games: int
    total_games: int
    seconds: float
    n_jobs: int
    pilot_games: int
    pilot_seconds: float
    #: True when ``games`` was given and ``half_width`` is the precision it reaches.
    games_given: bool = False

    def __str__(self) -> str:
        if self.games_given:
            return (f"with games = {self.games} per arm and condition ({self.deals} deals, "
                    f"{self.total_games} games in all): about ±{self.half_width:.2g} points "
                    f"on {self.basis}, about {_duration(self.seconds)} with {self.n_jobs} "
                    f"job(s) (pilot: {self.pilot_games} games in {self.pilot_seconds:.0f} s)")
        return (f"for ±{self.half_width:g} points on {self.basis}: about {self.deals} deals, "
                f"games = {self.games} per arm and condition ({self.total_games} games in "
                f"all), about {_duration(self.seconds)} with {self.n_jobs} job(s) "
                f"(pilot: {self.pilot_games} games in {self.pilot_seconds:.0f} s)")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _pilot(exp: Experiment, deals: int, n_jobs: int, engine: str,
           progress: bool = False) -> tuple[list[Results], int, float]:
    """``deals`` deals of every arm and condition on the pilot's seeds, in memory: one run
    for all the conditions whose line-ups need as many games (a sweep of 800 points is one
    run with a progress bar, not 800 runs that each pay the runner's start)."""
    by_games: dict[int, list[Condition]] = {}
    for cond in exp.conditions:
        periods = [lineup_period(exp.lineup(a, cond.n_players)) for a in exp.arms]
        by_games.setdefault(deals * max(periods), []).append(cond)
    out, t0 = [], time.perf_counter()
    for n_games, conditions in by_games.items():
        pilot = replace(exp, name=f"{exp.name}-pilot", n_games=n_games, chunk_size=None,
                        seed=exp.seed + PILOT_SEED_OFFSET, conditions=tuple(conditions),
                        log="summary")
        out.append(play_in_memory(pilot, n_jobs=n_jobs, engine=engine, progress=progress))
    return out, sum(len(r.games) for r in out), time.perf_counter() - t0


def plan_experiment(exp: Experiment, half_width: float = 1.0, *, pilot_deals: int = 4,
                    n_jobs: int = 1, engine: str = DEFAULT_ENGINE, games: int | None = None,
                    progress: bool = False) -> Plan:
    """The games ``exp`` needs for 95% intervals of ±``half_width`` points, from a pilot
    of ``pilot_deals`` deals per arm and condition played with ``engine`` (see the
    module doc; ``progress``: a progress bar of the pilot's games on stderr). With
    ``games`` (per arm and condition) the plan is for that many games instead: its
    ``half_width`` is the precision they reach (``games_given``)."""
    if not half_width > 0:
        raise ValueError(f"half_width must be positive, got {half_width}")
    if pilot_deals < 3:
        raise ValueError("a pilot needs at least 3 deals to measure a spread")
    if games is not None and games < 1:
        raise ValueError(f"games must be positive, got {games}")
    given = games is not None
    pilots, pilot_games, pilot_seconds = _pilot(exp, pilot_deals, n_jobs, engine, progress)
    base = exp.comparison_base
    paired = base is not None and len(exp.arms) > 1
    # deals needed for ±half_width, for each spread the pilot measured
    needs: list[Callable[[float], int]] = []
    for res in pilots:
        if paired:
            assert base is not None
            for row in res.compare(base).itertuples(index=False):
                sd = float(row.se) * math.sqrt(int(row.deals))
                if math.isfinite(sd):
                    needs.append(partial(_paired_deals, sd))
        else:
            for row in res.summary().itertuples(index=False):
                half = (float(row.score_hi) - float(row.score_lo)) / 2
                if math.isfinite(half):
                    # the t interval narrows as 1/√games of the strategy's seats
                    n, per_deal = int(row.n), max(1, int(row.n) // pilot_deals)
                    needs.append(partial(_mean_deals, n, half, per_deal))
    periods = [lineup_period(exp.lineup(a, c.n_players))
               for a in exp.arms for c in exp.conditions]
    basis = ("each arm's paired difference with the base arm" if paired
             else "each strategy's mean final score")
    if games is None:
        deals = max([2, *(need(half_width) for need in needs)])
        games = max(deals * period for period in periods)
    else:
        deals = max(1, games // max(periods))
        half_width = _reached(needs, deals)
    per_condition = [sum(-(-games // lineup_period(exp.lineup(a, c.n_players)))
                         * lineup_period(exp.lineup(a, c.n_players)) for a in exp.arms)
                     for c in exp.conditions]
    total = sum(per_condition)
    per_game = pilot_seconds * max(1, n_jobs) / max(1, pilot_games)
    seconds = total * per_game / (max(1, n_jobs) * (PARALLEL_EFFICIENCY if n_jobs > 1 else 1))
    return Plan(half_width=half_width, basis=basis, deals=deals, games=games,
                total_games=total, seconds=seconds, n_jobs=max(1, n_jobs),
                pilot_games=pilot_games, pilot_seconds=pilot_seconds,
                games_given=given)


def _paired_deals(sd: float, half_width: float) -> int:
    return deals_for_half_width(sd, half_width)


def _mean_deals(n: int, half: float, per_deal: int, half_width: float) -> int:
    """Deals for ±``half_width`` when ``n`` pilot games gave ±``half`` (``per_deal``
    games of the strategy per deal)."""
    return -(-math.ceil(n * (half / half_width) ** 2) // per_deal)


def _reached(needs: list[Callable[[float], int]], deals: int) -> float:
    """The smallest half-width (points) that ``deals`` deals reach
    for every spread of ``needs`` (each: half-width → deals needed); inf for no spread."""
    if not needs or deals < 2:
        return math.inf
    lo, hi = 1e-3, 1.0
    while any(need(hi) > deals for need in needs):
        hi *= 2
        if hi > 1e6:
            return math.inf
    for _ in range(40):  # bisect: needs are non-increasing in the half-width
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if all(need(mid) <= deals for need in needs) else (mid, hi)
    return hi


def decide_arms(
    exp: Experiment,
    effect: float,
    *,
    max_deals: int = 2000,
    batch_deals: int = 20,
    n_jobs: int = 1,
    on_look: Callable[[str, dict[str, Any]], None] | None = None,
    engine: str = DEFAULT_ENGINE,
) -> dict[str, SequentialResult]:
    """For each arm but the base arm, play paired deals in batches until the group-
    sequential test decides "arm better", "base better" or "no difference" (within
    ±``effect`` points) on the focal player's final score, or ``max_deals`` deals are
    played (:func:`hansa_lab.stats.sequential_compare`). The experiment must have a base
    arm and one condition (``Experiment.select`` picks one)."""
    base = exp.comparison_base
    if base is None or len(exp.arms) < 2:
        raise ValueError("deciding needs a base arm and at least one other arm")
    if len(exp.conditions) != 1:
        labels = ", ".join(c.label() for c in exp.conditions)
        raise ValueError(f"deciding works on one condition; select one of: {labels}")
    cond = exp.conditions[0]
    out: dict[str, SequentialResult] = {}
    for arm in exp.arms:
        if arm == base:
            continue
        run = runner_batches({arm: list(exp.arms[arm]), base: list(exp.arms[base])},
                             n_players=cond.n_players, seed=exp.seed, board=cond.board,
                             edition=cond.edition, options=dict(cond.options), n_jobs=n_jobs,
                             max_actions=exp.max_actions, engine=engine)
        look = (lambda row, arm=arm: on_look(arm, row)) if on_look else None
        out[arm] = sequential_compare(run, effect, max_pairs=max_deals,
                                      batch_size=batch_deals, min_pairs=min(10, batch_deals),
                                      arm_a=arm, arm_b=base, on_look=look)
    return out


def _spec_key(spec: Any) -> str:
    return spec if isinstance(spec, str) else repr(sorted(dict(spec).items()))


def runner_batches(
    arms: Mapping[str, Sequence[Any]],
    *,
    n_players: int = 4,
    seed: int = 0,
    **simulate_kwargs: Any,
) -> Callable[[int], tuple[pd.DataFrame, pd.DataFrame]]:
    """A ``run_batch`` for :func:`hansa_lab.stats.sequential_compare` that plays paired
    arms with :func:`hansa_lab.sim.runner.simulate` (in memory; ``log="summary"`` and no
    progress bar unless overridden in ``simulate_kwargs``).

    A call with ``n`` plays ``n`` new deals (the pairs of the sequential test), each arm
    in all its line-up's distinct seat rotations — one ``simulate`` per arm on the same
    seeds, so an all-same base arm plays one game per deal and a tip arm ``n_players``.
    Seeds continue where the previous batch stopped and game ids are offset to stay
    unique across batches. Returns ``(players, games)``; pass
    ``arm_a``/``arm_b`` (and ``focal``) to :func:`~hansa_lab.stats.sequential_compare`.

    >>> run = runner_batches({"tip": ["random:gather=false", "random"], "base": ["random"]},
    ...                      n_players=2)
    >>> players, games = run(1)
    >>> games[["arm", "game_id", "seed", "rotation"]]
        arm  game_id  seed  rotation
    0   tip        0     0         0
    1   tip        1     0         1
    2  base        2     0         0
    >>> run(2)[1].seed.tolist()
    [1, 1, 2, 2, 1, 2]
    """
    kwargs: dict[str, Any] = {"progress": False, "log": "summary", **simulate_kwargs}
    periods = {arm: lineup_period([_spec_key(lu[i % len(lu)]) for i in range(n_players)])
               for arm, lu in arms.items()}
    next_seed, next_id = seed, 0

    def run(n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
        nonlocal next_seed, next_id
        deals = max(1, int(n))
        players, games = [], []
        for arm, lineup in arms.items():
            res = simulate({arm: list(lineup)}, n_games=deals * periods[arm],
                           n_players=n_players, seed=next_seed, **kwargs)
            g, p = res.games.copy(), res.players.copy()
            g["game_id"] += next_id
            p["game_id"] += next_id
            next_id += int(res.games["game_id"].max()) + 1 if len(res.games) else 0
            players.append(p)
            games.append(g)
        next_seed += deals
        return (pd.concat(players, ignore_index=True), pd.concat(games, ignore_index=True))

    return run
