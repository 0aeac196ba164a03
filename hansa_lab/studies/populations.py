"""Answers per population: run the seat-balance and strategy-tip questions for several
populations (``greedy``, ``planner``, ``strong``, any strategy spec or named line-up) and
set the answers side by side (:mod:`hansa_lab.stats.population_answers`).

For every population :func:`compare_populations` runs

- a **seat study**: every seat plays the population (``games`` games, one seat rotation
  per deal since the seats are alike; a mixed line-up plays its rotations);
- a **tips experiment** (when asked and when the population is one strategy that can
  carry a tip): the design of ``experiments/strategy_tips.toml`` with the population as
  the table — arm ``base`` all-population, one arm per tip with the population's player
  *carrying the tip* in the focal seat against the population (``planner:tip=blocker``,
  ``strong:tip=actions_first``: the tip's term added to the player's own evaluation, see
  :mod:`hansa_lab.strategies.greedy`), every seat rotation, paired on the same deals. A
  player that cannot carry a tip (``rollout``, ``ismcts``, ``random``), a player that
  carries one already or a mixed line-up: its tip rows say :data:`NOT_APPLICABLE`.
  A tips experiment already played with this design (the main job's all-greedy
  ``experiments/strategy_tips.toml``) can be handed in (``tips_results``) instead of
  being played again.

Each run has its own results folder, ``<out>/<population>/seats`` and
``<out>/<population>/tips``, so a study stopped part-way resumes population by
population (asking again with the same settings plays only the missing games), and a
population added later plays only its own games.

Cost: CPU seconds of play per game (the games' ``cpu_time``: the playing process's CPU
time, which another program's load on the machine does not inflate as it does wall time;
``seconds_per_game`` keeps the wall time) beside the same figure for the **reference**
population (all-``greedy`` by default)
measured in the same study: its seat study, else its tips experiment's all-reference
base arm, else (the reference is not one of the populations) a seat study of
``reference_games`` games played for the purpose. The ratio, not the seconds, is the
figure to quote: absolute times vary about 3× between machines. Games stored by a version
without ``cpu_time`` have no CPU cost (``-``; replay them with ``force``).

**The skill ladder** (``ladder=True``, populations from :func:`ladder_populations`): the
populations are the rungs of :func:`hansa_lab.studies.skill.skill_rungs`, novice first,
and the study also states, for every question, from which rung upward the answer shows no
evidence of change, or what still changes between the two top rungs
(:mod:`hansa_lab.stats.convergence`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from hansa_lab.sim.paths import UNSAFE_IN_NAME, safe_name
from hansa_lab.sim.results import Results
from hansa_lab.sim.runner import run_experiment
from hansa_lab.stats.convergence import Convergence, convergence_lines
from hansa_lab.stats.population_answers import (
    NOT_APPLICABLE,
    TIP_METHOD,
    PopulationAnswer,
    agreement_line,
    answers_table,
    seat_answer,
    tip_answers,
)
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.base import TIP_CARRIERS
from hansa_lab.strategies.greedy import NO_TIP, TIPS, TipStrategy
from hansa_lab.strategies.lineup import split_specs

__all__ = [
    "DEFAULT_TIPS",
    "QUESTIONS",
    "Population",
    "PopulationStudy",
    "compare_populations",
    "ladder_populations",
    "parse_populations",
    "tip_spec",
]

#: The seed documents' four tips (``experiments/strategy_tips.toml``).
DEFAULT_TIPS = TIPS
#: The questions :func:`compare_populations` can ask.
QUESTIONS = ("seats", "tips")


@dataclass(frozen=True)
class Population:
    """A population: its name (the folder and the table's label) and the line-up every
    table of it seats (one entry: every seat plays it)."""

    name: str
    lineup: tuple[str, ...]

    @property
    def spec(self) -> str | None:
        """The one strategy every seat plays, ``None`` for a mixed line-up."""
        return self.lineup[0] if len(set(self.lineup)) == 1 else None


def parse_populations(populations: str | Sequence[str] | Mapping[str, Any]) -> list[Population]:
    """Populations from ``"greedy,planner,strong"`` (commas between specs, as in line-ups:
    ``"greedy:depth=2,planner"`` is two), a list of specs, or a mapping of names to a
    spec or a line-up. Every spec is checked by building it; names must be unique.

    >>> [(p.name, p.lineup) for p in parse_populations("greedy,planner")]
    [('greedy', ('greedy',)), ('planner', ('planner',))]
    >>> parse_populations({"mixed": ["greedy", "planner"]})[0].spec is None
    True
    """
    if isinstance(populations, Mapping):
        items = [(str(k), [v] if isinstance(v, str) else list(v)) for k, v in populations.items()]
    else:
        specs = split_specs(populations) if isinstance(populations, str) else list(populations)
        items = [(s, [s]) for s in specs]
    if not items:
        raise ValueError("populations: name at least one population, e.g. greedy,planner")
    out = []
    for name, lineup in items:
        if not lineup:
            raise ValueError(f"population {name!r}: an empty line-up")
        try:
            canonical = tuple(make_strategy(s).spec for s in lineup)
        except (ValueError, TypeError) as e:
            raise ValueError(f"population {name!r}: {e}") from None
        label = name if isinstance(populations, Mapping) else canonical[0]
        out.append(Population(label, canonical))
    names = [p.name for p in out]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"populations: {', '.join(repeated)} given more than once")
    return out


def tip_spec(tip: str, population: Population) -> str | None:
    """The population's player carrying ``tip`` (``actions_first`` among greedy players,
    the tip on the planner's weights among planners, ``strong:tip=actions_first`` among
    strong players), or ``None`` when the population cannot carry it (a mixed line-up, a
    player without an evaluation to add the tip to, a player carrying a tip already).

    >>> tip_spec("blocker", parse_populations("greedy")[0])
    'blocker'
    >>> tip_spec("blocker", parse_populations("strong")[0])
    'strong:tip=blocker'
    >>> tip_spec("blocker", parse_populations("rollout")[0]) is None
    True
    """
    if tip not in TIPS:
        raise ValueError(f"{tip!r} is not a strategy tip (tips: {', '.join(TIPS)})")
    if population.spec is None:
        return None
    strat = make_strategy(population.spec)
    if isinstance(strat, TipStrategy) or strat.params.get("tip", NO_TIP) != NO_TIP:
        return None  # carries a tip already
    try:
        return make_strategy(population.spec, tip=tip).spec
    except ValueError:  # cannot carry a tip
        return None


@dataclass(frozen=True)
class PopulationStudy:
    """What :func:`compare_populations` found."""

    #: one row per population and question
    #: (:func:`~hansa_lab.stats.population_answers.answers_table`)
    answers: pd.DataFrame
    #: where the conclusions agree and where they differ
    agreement: str
    #: the runs: population name → question ("seats", "tips", "reference") → results
    runs: dict[str, dict[str, Results]] = field(default_factory=dict)
    #: the reference population the costs are relative to, and its seconds per game
    reference: str = "greedy"
    reference_seconds: float = math.nan
    #: the reference's CPU seconds per game (the costs' denominator)
    reference_cpu_seconds: float = math.nan
    #: the populations in order, novice first, when they are a skill ladder (else empty)
    rungs: tuple[str, ...] = ()
    #: a ladder's convergence, one per question (:mod:`hansa_lab.stats.convergence`)
    convergence: tuple[Convergence, ...] = ()


def _folder(out: Path, name: str) -> Path:
    return out / safe_name(name, "population")


def _seconds(res: Results, arms: Sequence[str] | None = None, column: str = "wall_time"
             ) -> float:
    """Mean ``wall_time`` (or ``cpu_time``) per game of ``res`` (of ``arms``); NaN when a
    game lacks it (stored before the column existed)."""
    g = res.games
    if arms is not None:
        g = g[g["arm"].isin(list(arms))]
    return float(g[column].mean(skipna=False)) if len(g) else math.nan


def _cpu(res: Results, arms: Sequence[str] | None = None) -> float:
    return _seconds(res, arms, "cpu_time")


def ladder_populations(board: str = "base", players: int = 4) -> dict[str, str]:
    """The skill ladder's rungs for ``players`` on ``board`` as populations, novice first:
    rung label → strategy spec (:func:`hansa_lab.studies.skill.skill_rungs`)."""
    from hansa_lab.studies.skill import skill_rungs

    return {r.label: r.spec for r in skill_rungs(board, players)}


def compare_populations(
    populations: str | Sequence[str] | Mapping[str, Any],
    *,
    questions: Sequence[str] = QUESTIONS,
    tips: Sequence[str] = DEFAULT_TIPS,
    games: int | Mapping[str, int] = 400,
    tip_games: int | None = None,
    players: int = 4,
    board: str = "base",
    edition: str = "bigbox",
    seed: int = 0,
    reference: str = "greedy",
    reference_games: int = 200,
    log: str = "summary",
    out: str | os.PathLike[str] = "results/populations",
    n_jobs: int | None = None,
    progress: bool = False,
    force: bool = False,
    tips_results: Mapping[str, Results] | None = None,
    ladder: bool = False,
) -> PopulationStudy:
    """Ask the seat-balance and tip questions of every population and set the answers
    side by side (see the module docstring for the designs and folders).

    ``games``: games per seat study, one count for every population or a count per
    population name (``{"greedy": 800, "strong": 48}``: a slow population can play a
    smaller sample, its interval says how much smaller); ``tip_games``: games per tip arm
    (default the population's ``games``; rounded up to whole deals of 4 rotations, the
    base arm playing as many deals). ``log``: ``"full"`` keeps the events and turns tables (for
    :func:`~hansa_lab.stats.mechanism.first_seat_mechanism` on a population's seat
    study), ``"summary"`` only games and players. ``force`` replays from scratch
    instead of resuming. ``tips_results``: population name → a tips experiment already
    played with this design (arm ``base`` and one arm per tip, the focal seat first, e.g.
    the main job's ``experiments/strategy_tips.toml`` for ``greedy``): its answers are read
    from it, nothing is played for that population's tips. ``ladder``: the populations are
    ordered by skill, novice first (e.g. :func:`ladder_populations`): the study also
    states each answer's convergence. Returns a
    :class:`PopulationStudy`: the answers table (estimate, interval, verdict, games,
    seconds per game and its ratio to the reference) and the agreement line.
    """
    unknown = [q for q in questions if q not in QUESTIONS]
    if unknown or not questions:
        raise ValueError(f"questions: unknown {unknown}; choose from {', '.join(QUESTIONS)}"
                         if unknown else "questions: ask at least one")
    pops = parse_populations(populations)
    per_population = _games_per_population(games, pops)
    ref = parse_populations([reference])[0]
    root = Path(out)
    common = {"seed": seed, "players": players, "board": board, "edition": edition,
              "log": log}
    runs: dict[str, dict[str, Results]] = {}
    answers: list[PopulationAnswer] = []

    def seat_study(p: Population, n_games: int, key: str) -> Results:
        name = f"populations-seats-{UNSAFE_IN_NAME.sub('_', p.name)}"
        res = run_experiment({**common, "name": name,
                              "games": n_games, "arms": {"population": list(p.lineup)}},
                             out=_folder(root, p.name) / key, n_jobs=n_jobs, progress=progress,
                             force=force)
        runs.setdefault(p.name, {})[key] = res
        return res

    for p in pops:
        if "seats" in questions:
            res = seat_study(p, per_population[p.name], "seats")
            answers.append(replace(seat_answer(p.name, res.players, res.games),
                                   seconds_per_game=_seconds(res),
                                   cpu_seconds_per_game=_cpu(res)))
        if "tips" in questions and tips_results and p.name in tips_results:
            runs.setdefault(p.name, {})["tips"] = tips_results[p.name]
            answers += _tip_rows(p, tips_results[p.name], tips)
        elif "tips" in questions:
            answers += _tips(p, tips, tip_games or per_population[p.name], common, root,
                             runs, n_jobs, progress, force)
    own = runs.get(ref.name, {})
    if "seats" in own:
        ref_run, ref_arms = own["seats"], None
    elif "tips" in own:  # the tips' base arm is an all-reference table
        ref_run, ref_arms = own["tips"], ["base"]
    else:
        ref_run, ref_arms = seat_study(ref, min(max(per_population.values()),
                                                reference_games), "reference"), None
    ref_seconds, ref_cpu = _seconds(ref_run, ref_arms), _cpu(ref_run, ref_arms)
    answers = [replace(a, cost_vs_reference=a.cpu_seconds_per_game / ref_cpu)
               for a in answers]
    table = answers_table(answers)
    table.attrs["seats"] = players  # the fair share 1/seats of the seat question
    rungs = tuple(p.name for p in pops) if ladder else ()
    converged = tuple(convergence_lines(table, rungs)) if ladder else ()
    line = agreement_line(table, reference=ref.name, reference_cpu=ref_cpu)
    return PopulationStudy(table, line, runs, ref.name, ref_seconds, ref_cpu, rungs,
                           converged)


def _games_per_population(games: int | Mapping[str, int],
                           pops: Sequence[Population]) -> dict[str, int]:
    """Each population's games (ValueError naming a population without a count, a count
    for no population, or a count below 1)."""
    names = [p.name for p in pops]
    if not isinstance(games, Mapping):
        games = dict.fromkeys(names, games)
    extra = [k for k in games if k not in names]
    missing = [n for n in names if n not in games]
    if extra or missing:
        raise ValueError(f"games: no count for population {missing[0]!r}" if missing else
                         f"games: {extra[0]!r} is not one of the populations "
                         f"({', '.join(names)})")
    bad = {k: v for k, v in games.items() if not isinstance(v, int) or v < 1}
    if bad:
        name, value = next(iter(bad.items()))
        raise ValueError(f"games: population {name!r} needs a whole number of games >= 1, "
                         f"not {value!r}")
    return {n: int(games[n]) for n in names}


def _tips(p: Population, tips: Sequence[str], n_games: int, common: dict[str, Any],
          root: Path, runs: dict[str, dict[str, Results]], n_jobs: int | None,
          progress: bool, force: bool) -> list[PopulationAnswer]:
    specs = {t: tip_spec(t, p) for t in tips}
    if any(s is None for s in specs.values()):
        why = ("is a mixed line-up" if p.spec is None else
               f"plays {make_strategy(p.spec).spec!r}, which cannot carry a tip or carries "
               f"one already")
        return [PopulationAnswer(p.name, f"tip {t}", math.nan, math.nan, math.nan,
                                 "points (focal seat)", TIP_METHOD, NOT_APPLICABLE, 0,
                                 text=f"a tip is a term of a player's own evaluation; the "
                                      f"population {why} (players that carry one: "
                                      f"{TIP_CARRIERS})") for t in tips]
    table = list(p.lineup) * (common["players"] // len(p.lineup))
    arms = {"base": table, **{t: [s, *table[1:]] for t, s in specs.items()}}
    res = run_experiment({**common, "name": f"populations-tips-{UNSAFE_IN_NAME.sub('_', p.name)}",
                          "games": n_games, "base_arm": "base", "arms": arms},
                         out=_folder(root, p.name) / "tips", n_jobs=n_jobs, progress=progress,
                         force=force)
    runs.setdefault(p.name, {})["tips"] = res
    return _tip_rows(p, res, tips)


def _tip_rows(p: Population, res: Results, tips: Sequence[str]) -> list[PopulationAnswer]:
    """The tip answers of population ``p`` from its tips experiment ``res`` (ValueError
    when an asked tip has no arm), with each arm's seconds per game."""
    missing = [t for t in tips if t not in set(res.games["arm"])]
    if missing:
        raise ValueError(f"population {p.name!r}: the tips experiment has no arm "
                         f"{missing[0]!r} (arms: {', '.join(sorted(set(res.games['arm'])))})")
    out = []
    for a in tip_answers(p.name, res.players, res.games):
        tip = a.question.removeprefix("tip ")
        if tip in tips:
            out.append(replace(a, seconds_per_game=_seconds(res, [tip]),
                               cpu_seconds_per_game=_cpu(res, [tip])))
    return out
