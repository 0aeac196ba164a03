"""Self-play tuning: CMA-ES over a strategy's numeric parameters (``hansa-lab tune``).

What it does
    :func:`tune` searches values of chosen parameters of a base strategy (``greedy`` by
    default) for one game configuration (board side, player count, edition, rule
    options) with CMA-ES (the ``cma`` package), then checks the result on deals it never
    saw and writes it as a strategy file (:mod:`hansa_lab.strategies.strategy_file`).

The search space
    Each tuned parameter is scaled to [0, 1] between its bounds: the strategy's declared
    ``ranges``, else a default box around its default ``d``: [0, max(1, 3d)] for
    ``d >= 0``, [min(-1, 3d), 0] for ``d < 0`` (``bounds`` overrides either). CMA-ES starts
    at the defaults (the base spec's values) with step ``sigma0`` in those units and keeps
    every candidate inside the box; integer parameters are rounded, floats kept to 4
    significant digits. The default parameters are every float parameter of the base
    but ``score`` (the unit the evaluation weights are measured in: scaling every weight
    together changes nothing), ``explore`` (not a weight) and ``tip_weight`` (a tip's
    weight, meaningless without a tip) — for greedy the evaluation
    weights, new ones included as the strategy gains them.

Fitness (common random numbers)
    Generation ``g`` plays ``D = ceil(games / players)`` fresh deals, seeds
    ``seed + g·D + d``, each in every seat rotation with the candidate in one seat and
    the opponents in the others; every candidate of the generation plays exactly these
    games. Opponents: ``"incumbent"`` (self-play against the optimiser's current mean,
    the default) or a line-up of the other seats (``"greedy"``). Fitness ``"margin"``
    (default) is the mean of the candidate's score minus the best opponent's score;
    ``"win"`` the candidate's share of wins (ties shared). The margin is the default
    because it is a graded signal: a candidate that loses by 2 points ranks above one
    that loses by 20, so candidates are told apart with far fewer games than a win
    indicator needs (a 4-player win is a 1-in-4 event per game), and a positive margin
    is a win. Games are played in the compiled core (``n_jobs`` processes).

Resuming
    After every generation the optimiser (a pickled ``cma.CMAEvolutionStrategy``) and
    the log of every candidate go to ``state`` (``checkpoint.pkl``, written atomically;
    ``generations.jsonl`` and ``settings.json`` to read). Calling again with the same
    settings continues after the last finished generation (a larger ``generations``
    extends a run); an interruption loses at most the generation in progress. The
    optimiser's random draws are seeded per generation from ``seed`` and every
    generation starts from the pickled state, so an interrupted and resumed run ends
    with exactly the parameters of an uninterrupted one. Other settings refuse to
    resume (:class:`~hansa_lab.errors.ExperimentError` naming them).

The held-out check
    The result is the optimiser's final mean. It plays ``heldout_games`` games (rounded
    up to whole rotations) in one seat against the opponents it was tuned against — the
    base strategy as given in the other seats for self-play, the line-up for
    ``opponents="greedy"`` and the like — on deals never used for tuning (seeds
    ``2**40 + seed + d``), reported as a win share with its Wilson 95% interval (fair
    share: 1 / players) and the mean margin with a t interval over deals (the rotations
    of one deal are not independent). The base is played on the same deals, seats and
    opponents (for self-play one game per deal with the base in every seat), which gives
    the margin of the untuned player (negative: the best of several opponents usually
    beats one seat) and the paired margin gain: the tuned seat's margin minus the
    base's in the same seat and deal, with a t interval over deals.

>>> space = search_space("greedy", ["route", "ability"])
>>> [(p.name, p.low, p.high, p.start) for p in space]
[('route', 0.0, 3.0, 1.0), ('ability', 0.0, 3.0, 1.0)]
>>> tuning_seeds(seed=0, generation=1, deals=3), heldout_seeds(seed=0, deals=2)
([3, 4, 5], [1099511627776, 1099511627777])
"""

from __future__ import annotations

import copy
import json
import math
import os
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from hansa_lab.engine.rng import seat_stream
from hansa_lab.engine.scoring import ranking, score_breakdown
from hansa_lab.engine.state import GameConfig
from hansa_lab.errors import ExperimentError
from hansa_lab.play import DEFAULT_MAX_ACTIONS
from hansa_lab.play.core_game import play_match
from hansa_lab.sim.experiment import MAX_SEED, jsonable
from hansa_lab.sim.paths import output_file, output_folder
from hansa_lab.sim.progress import progress_bar
from hansa_lab.stats.intervals import mean_interval, wilson_interval
from hansa_lab.strategies import Strategy, make_strategy
from hansa_lab.strategies.lineup import fill_seats, split_specs
from hansa_lab.strategies.strategy_file import parse_strategy_file, to_toml

__all__ = [
    "FITNESS",
    "HELDOUT_OFFSET",
    "Param",
    "TuneResult",
    "TuneSettings",
    "heldout_seeds",
    "search_space",
    "tune",
    "tuning_seeds",
]

FITNESS = ("margin", "win")
#: held-out deals use seeds from here on (tuning seeds stay far below it)
HELDOUT_OFFSET = 2**40
FORMAT = "hansa-lab tune v1"
#: parameters never tuned by default (see the module doc)
NOT_WEIGHTS = ("score", "explore", "tip_weight")


@dataclass(frozen=True)
class Param:
    """One tuned parameter: its bounds, start value and type."""

    name: str
    low: float
    high: float
    start: float
    integer: bool = False

    def value(self, u: float) -> float | int:
        """The parameter's value at ``u`` in [0, 1] (rounded to its type)."""
        x = self.low + min(max(float(u), 0.0), 1.0) * (self.high - self.low)
        return round(x) if self.integer else float(f"{x:.4g}")

    def scaled(self, x: float) -> float:
        return (x - self.low) / (self.high - self.low)


@dataclass(frozen=True)
class TuneSettings:
    """Everything that decides a tuning run (compared when it resumes), with the sizes."""

    base: str = "greedy"
    #: the parameters to tune (empty: the default set, see the module doc)
    params: tuple[str, ...] = ()
    #: bounds that replace the defaults: (parameter, low, high)
    bounds: tuple[tuple[str, float, float], ...] = ()
    players: int = 4
    board: str = "base"
    edition: str = "bigbox"
    options: tuple[tuple[str, Any], ...] = ()
    opponents: str = "incumbent"
    fitness: str = "margin"
    population: int = 8
    sigma0: float = 0.2
    games: int = 48
    seed: int = 0
    max_actions: int | None = None
    #: not compared on resume: a larger value extends a run
    generations: int = 10
    #: not compared on resume: the held-out check is replayed when it changes
    heldout_games: int = 400

    def config(self, seed: int) -> GameConfig:
        return GameConfig(self.players, self.board, self.edition, seed, self.options)

    @property
    def deals(self) -> int:
        """Deals per generation (each played in every rotation)."""
        return -(-self.games // self.players)

    def compared(self) -> dict[str, Any]:
        """The settings a resumed run must share."""
        out = jsonable(asdict(self))
        del out["generations"], out["heldout_games"]
        return dict(out)


def tuning_seeds(seed: int, generation: int, deals: int) -> list[int]:
    """The deal seeds of ``generation`` (every candidate plays each in every rotation)."""
    first = seed + generation * deals
    return list(range(first, first + deals))


def heldout_seeds(seed: int, deals: int) -> list[int]:
    """The deal seeds of the held-out check (disjoint from every tuning seed)."""
    return list(range(HELDOUT_OFFSET + seed, HELDOUT_OFFSET + seed + deals))


def _default_box(default: float) -> tuple[float, float]:
    if default >= 0:
        return 0.0, max(1.0, 3.0 * default)
    return min(-1.0, 3.0 * default), 0.0


def search_space(base: str, params: Sequence[str] = (),
                 bounds: Sequence[tuple[str, float, float]] = ()) -> list[Param]:
    """The tuned parameters of ``base`` (a strategy spec) with bounds and start values
    (raises :class:`ExperimentError` naming ``params`` or ``bounds``)."""
    strat = _base_strategy(base)
    cls = type(strat)
    start = strat.params
    if not params:
        params = [k for k, v in cls.defaults.items()
                  if isinstance(v, float) and k not in NOT_WEIGHTS]
    given = {name: (lo, hi) for name, lo, hi in bounds}
    for name in given:
        if name not in params:
            raise ExperimentError("bounds", f"{name!r} is not a tuned parameter "
                                            f"(tuned: {', '.join(params)})")
    out = []
    for name in params:
        if name not in cls.defaults:
            raise ExperimentError("params", f"strategy {cls.name!r} has no parameter {name!r} "
                                            f"(parameters: {', '.join(cls.defaults)})")
        default = cls.defaults[name]
        if isinstance(default, bool) or not isinstance(default, int | float):
            raise ExperimentError("params", f"{name!r} is not a numeric parameter "
                                            f"(default {default!r})")
        if name in given:
            lo, hi = given[name]
            for end in (lo, hi):
                if end < cls.ranges.get(name, (-math.inf, math.inf))[0] or \
                        end > cls.ranges.get(name, (-math.inf, math.inf))[1]:
                    raise ExperimentError("bounds", f"{name}: {end:g} is outside the "
                                          f"parameter's range {list(cls.ranges[name])}")
        else:
            lo, hi = cls.ranges.get(name) or _default_box(float(default))
        lo, hi = float(lo), float(hi)
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise ExperimentError("bounds", f"{name}: need low < high, got {lo:g}:{hi:g}")
        x0 = min(max(float(start[name]), lo), hi)
        out.append(Param(name, lo, hi, x0, isinstance(default, int)))
    if len({p.name for p in out}) != len(out):
        raise ExperimentError("params", f"a parameter is listed twice: {', '.join(params)}")
    if not out:
        raise ExperimentError("params", f"strategy {cls.name!r} has no parameter to tune")
    return out


def _base_strategy(base: str) -> Strategy:
    try:
        return make_strategy(base)
    except ValueError as e:
        raise ExperimentError("base", str(e)) from None


def _check(s: TuneSettings) -> None:
    def positive(name: str, value: Any, least: int = 1) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ExperimentError(name, f"must be an integer >= {least}, got {value!r}")

    positive("players", s.players, 2)
    positive("population", s.population, 2)
    positive("generations", s.generations)
    positive("games", s.games)
    positive("heldout_games", s.heldout_games)
    if s.max_actions is not None:
        positive("max_actions", s.max_actions)
    if isinstance(s.seed, bool) or not isinstance(s.seed, int) or not \
            0 <= s.seed <= MAX_SEED - HELDOUT_OFFSET - s.heldout_games:
        raise ExperimentError("seed", f"must be an integer from 0 to 2**63 - 2**41, got "
                                      f"{s.seed!r}")
    if s.generations * s.deals >= HELDOUT_OFFSET:
        raise ExperimentError("generations", "too many games to keep the held-out seeds apart")
    if not (isinstance(s.sigma0, int | float) and 0 < s.sigma0 <= 1):
        raise ExperimentError("sigma0", f"must be in (0, 1] (units of each parameter's "
                                        f"range), got {s.sigma0!r}")
    if s.fitness not in FITNESS:
        raise ExperimentError("fitness", f"must be one of {', '.join(FITNESS)}, got "
                                         f"{s.fitness!r}")
    try:
        s.config(0)
    except (ValueError, TypeError) as e:
        raise ExperimentError("players", f"{e} (board {s.board}, {s.edition})") from None
    _opponents(s, _base_strategy(s.base))


def _opponents(s: TuneSettings, incumbent: Strategy) -> list[Strategy]:
    """The strategies of the other seats, in order (opponent seats = players - 1)."""
    if s.opponents == "incumbent":
        return [incumbent] * (s.players - 1)
    try:
        specs = fill_seats(split_specs(s.opponents), s.players - 1)
        return [make_strategy(x) for x in specs]
    except ValueError as e:
        raise ExperimentError("opponents", f"'incumbent' or a line-up of the other "
                              f"{s.players - 1} seats: {e}") from None


# --------------------------------------------------------------------------- games


@dataclass
class _Batch:
    """Games for one worker: candidate ``c`` of ``candidates`` plays ``(seed, rotation,
    c)`` against ``opponents``."""

    settings: TuneSettings
    candidates: list[Strategy]
    opponents: list[Strategy]
    games: list[tuple[int, int, int]]


def _play_batch(batch: _Batch) -> list[list[tuple[float, float]]]:
    """Per game of the batch, per seat: (margin, win share); the margin is the seat's
    score minus the best other seat's, the win share 1 / winners for a winner."""
    s = batch.settings
    n = s.players
    out = []
    for seed, rotation, c in batch.games:
        lineup = [batch.candidates[c], *batch.opponents]
        players = [copy.deepcopy(lineup[(p - rotation) % n]) for p in range(n)]
        rngs = [seat_stream(seed, p) for p in range(n)]
        run = play_match(s.config(seed), players, rngs,
                                  max_actions=s.max_actions or DEFAULT_MAX_ACTIONS)
        final = run.final()
        totals = [sum(b.values()) for b in score_breakdown(final)]
        ranks = ranking(final)
        winners = sum(1 for r in ranks if r == 1)
        out.append([(float(totals[p] - max(t for q, t in enumerate(totals) if q != p)),
                     1.0 / winners if ranks[p] == 1 else 0.0) for p in range(n)])
    return out


def _run(s: TuneSettings, candidates: list[Strategy], opponents: list[Strategy],
         games: list[tuple[int, int, int]], n_jobs: int) -> np.ndarray:
    """The games ``(seed, rotation, candidate)`` (in ``n_jobs`` processes): an array
    (game, seat, [margin, win share])."""
    n_batches = 1 if n_jobs == 1 else min(len(games), 8 * n_jobs)
    size = -(-len(games) // n_batches)
    batches = [_Batch(s, candidates, opponents, games[i:i + size])
               for i in range(0, len(games), size)]
    if n_jobs == 1:
        parts = [_play_batch(b) for b in batches]
    else:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=n_jobs, backend="loky")(delayed(_play_batch)(b) for b in batches)
    return np.array([g for part in parts for g in part], dtype=float)


def _play(s: TuneSettings, candidates: list[Strategy], opponents: list[Strategy],
          seeds: list[int], n_jobs: int) -> np.ndarray:
    """Every candidate in every deal and rotation: an array (candidate, deal, rotation,
    [margin, win share]) of the candidate's seat."""
    n = s.players
    games = [(seed, k, c) for c in range(len(candidates)) for seed in seeds for k in range(n)]
    out = _run(s, candidates, opponents, games, n_jobs)
    seat = np.array([k for _, k, _ in games])
    return out[np.arange(len(games)), seat].reshape(len(candidates), len(seeds), n, 2)


# ----------------------------------------------------------------------- the search


@dataclass
class TuneResult:
    """A finished tuning run: the tuned values, the held-out check and the log."""

    settings: TuneSettings
    params: dict[str, Any]
    heldout: dict[str, Any]
    log: list[dict[str, Any]]
    state: Path
    out: Path | None
    name: str
    seconds: float
    generations_run: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (undefined intervals as None)."""
        return _finite({
            "name": self.name, "strategy_file": str(self.out) if self.out else None,
            "state": str(self.state), "params": self.params, "heldout": self.heldout,
            "generations": len(self.log), "generations_run_now": self.generations_run,
            "seconds": round(self.seconds, 1), "settings": jsonable(asdict(self.settings)),
            "final_fitness_of_mean": self.log[-1]["mean_fitness"] if self.log else None,
        })

    def summary(self) -> str:
        h = self.heldout
        n = self.settings.players
        values = ", ".join(f"{k}={v}" for k, v in self.params.items())
        lines = [
            f"tuned {self.name} ({self.settings.base}, {n}p {self.settings.board} "
            f"{self.settings.edition}) after {len(self.log)} generations: {values}",
            f"held-out check: {h['games']} games ({h['deals']} new deals x {n} rotations), "
            f"tuned in one seat vs {h['versus']} in the others:",
            f"  win share {h['win_share']:.1%} [95% {h['win_lo']:.1%}, {h['win_hi']:.1%}] "
            f"(fair share {1 / n:.1%}; the base's {h.get('base_win_share', math.nan):.1%})",
            f"  mean margin {h['margin']:+.2f} points "
            f"{_interval(h['margin_lo'], h['margin_hi'], h['deals'])} (its score minus the "
            f"best opponent's; the base's in the same seats: {h['equal_margin']:+.2f})",
            f"  margin gain {h['margin_gain']:+.2f} points "
            f"{_interval(h['margin_gain_lo'], h['margin_gain_hi'], h['deals'])} (vs the "
            "base in the same seat and deal)",
        ]
        if self.out is not None:
            lines.append(f"wrote {self.out}")
        return "\n".join(lines)


def _interval(lo: Any, hi: Any, deals: int) -> str:
    """``[95% lo, hi]`` of a held-out figure, or why there is none (a t interval over
    deals needs two deals: one gives NaN bounds, never printed as "+nan")."""
    if isinstance(lo, int | float) and isinstance(hi, int | float) and \
            math.isfinite(lo) and math.isfinite(hi):
        return f"[95% {lo:+.2f}, {hi:+.2f}]"
    return f"[no interval: {deals} deal{'s' if deals != 1 else ''}, it needs 2]"


def _atomic_write(path: Path, data: bytes) -> None:
    """Write via a temp file beside ``path``, then ``os.replace``; the temp file never
    stays behind (a failed write raises, naming the file)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        raise ExperimentError("out" if path.suffix == ".toml" else "state",
                              f"cannot write {path} ({e.strerror or e})") from None
    finally:
        tmp.unlink(missing_ok=True)


class _Checkpoint:
    """The state folder: ``checkpoint.pkl`` (settings, optimiser, log, held-out check),
    with ``settings.json`` and ``generations.jsonl`` beside it to read."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "checkpoint.pkl"

    def load(self) -> dict[str, Any] | None:
        """The checkpoint, None when there is none, or an :class:`ExperimentError` for
        ``state`` saying what is wrong with it (unreadable, empty, corrupt, written by
        another program or version, or with an optimiser that does not load). Like every
        pickle, it runs code when loaded: open only state folders you made."""
        if not self.path.exists():
            return None
        fix = "; remove it (or choose another --state) to start again"
        try:
            with open(self.path, "rb") as f:
                data = pickle.load(f)
        except OSError as e:
            raise ExperimentError("state", f"{self.path} cannot be read "
                                           f"({e.strerror or e}){fix}") from None
        except EOFError:
            raise ExperimentError("state", f"{self.path} is empty or cut short{fix}") from None
        except Exception as e:  # UnpicklingError, AttributeError, ImportError, ...
            raise ExperimentError("state", f"{self.path} is not a readable checkpoint "
                                           f"({type(e).__name__}: {e}){fix}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            what = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ExperimentError("state", f"{self.path} is not a tune checkpoint of this "
                                           f"version ({what!r}){fix}")
        problem = None
        if not isinstance(data.get("settings"), dict):
            problem = "has no settings"
        elif not isinstance(data.get("generation"), int) or data["generation"] < 0:
            problem = f"has no valid generation count ({data.get('generation')!r})"
        elif not isinstance(data.get("log"), list) or len(data["log"]) != data["generation"]:
            problem = "has a generation log that does not match its generation count"
        elif not isinstance(data.get("es"), bytes):
            problem = "has no optimiser state"
        else:
            try:
                es = pickle.loads(data["es"])
            except Exception as e:
                problem = f"has an optimiser state that does not load ({type(e).__name__})"
            else:
                if not callable(getattr(es, "ask", None)):
                    problem = "has an optimiser state that is not a CMA-ES optimiser"
        if problem:
            raise ExperimentError("state", f"{self.path} {problem}{fix}")
        return data

    def save(self, data: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.path, pickle.dumps(data))
        lines = "".join(json.dumps(r) + "\n" for r in data["log"])
        _atomic_write(self.folder / "generations.jsonl", lines.encode())
        _atomic_write(self.folder / "settings.json",
                      (json.dumps(data["settings"], indent=1) + "\n").encode())


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return [f"{k} ({json.dumps(old.get(k))} there, {json.dumps(new.get(k))} now)"
            for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]


def _new_optimizer(s: TuneSettings, space: list[Param]) -> Any:
    import cma

    x0 = [p.scaled(p.start) for p in space]
    opts = {"bounds": [[0.0] * len(space), [1.0] * len(space)], "popsize": s.population,
            "seed": _derived(s.seed, "cma") % (2**31 - 1) + 1, "verbose": -9,
            "verb_log": 0, "verb_disp": 0}
    return cma.CMAEvolutionStrategy(x0, float(s.sigma0), opts)


def _derived(seed: int, *what: Any) -> int:
    """A 32-bit seed derived from the run's seed and ``what`` (deterministic)."""
    import hashlib

    digest = hashlib.sha256(json.dumps([seed, *what]).encode()).digest()
    return int.from_bytes(digest[:4], "little")


def _ask(es: Any, seed: int, generation: int) -> list[np.ndarray]:
    """The generation's candidates: cma draws from numpy's global generator, seeded here
    per generation (the caller's generator state is restored)."""
    saved = np.random.get_state()
    try:
        np.random.seed(_derived(seed, "generation", generation))
        return list(es.ask())
    finally:
        np.random.set_state(saved)


def _values(space: list[Param], u: Sequence[float] | np.ndarray) -> dict[str, Any]:
    return {p.name: p.value(x) for p, x in zip(space, u, strict=True)}


def _strategy(base: Strategy, values: dict[str, Any]) -> Strategy:
    """The base strategy (its class and given values) with ``values`` on top."""
    cls = type(base)
    given = {k: v for k, v in base.params.items() if cls.defaults.get(k) != v}
    return make_strategy(cls.name, **{**given, **values})


def tune(
    settings: TuneSettings,
    state: str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    name: str | None = None,
    n_jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    stop_after: int | None = None,
    command: str | None = None,
    bar: bool = False,
) -> TuneResult:
    """Tune (see the module doc), resuming from ``state`` when it holds a run with the
    same settings; write the strategy file ``out`` (default ``<state>/<name>.toml``;
    ``name`` defaults to ``<base>_<players>p_tuned``). ``progress`` gets a line per
    generation; ``bar``: a bar of the generations, with the time left, on stderr (give
    ``progress`` a :func:`~hansa_lab.sim.progress.progress_line` writer, so its lines are
    printed above the bar). ``stop_after``: stop once that many generations are done (as if
    interrupted: no held-out check, no file; used to test resuming)."""
    t0 = time.perf_counter()
    _check(settings)
    base = _base_strategy(settings.base)
    space = search_space(settings.base, settings.params, settings.bounds)
    settings = replace(settings, params=tuple(p.name for p in space))
    name = name or f"{type(base).name}_{settings.players}p_tuned"
    try:
        parse_strategy_file(to_toml(name, type(base).name, {}))  # the name is usable
    except ValueError as e:
        raise ExperimentError("name", str(e).removeprefix("name: ")) from None
    say = progress or (lambda text: None)
    # the paths first: a bad --state or --out is refused before any game is played
    ckpt = _Checkpoint(output_folder(state, "state"))
    target = output_file(out if out is not None else ckpt.folder / f"{name}.toml", "out")
    data = ckpt.load()
    # the base's values too: a base given as a strategy file may have changed
    compared = {**settings.compared(), "base_strategy": jsonable(
        {"class": type(base).name, "params": base.params})}
    if data is not None:
        diff = _differences(data["settings"], compared)
        if diff:
            raise ExperimentError("state", f"{ckpt.folder} holds a tuning run with other "
                                  f"settings (differs in: {'; '.join(diff)}); use another "
                                  "state folder, or remove it to start again")
        if data["generation"] > settings.generations:
            raise ExperimentError("generations", f"{ckpt.folder} holds {data['generation']} "
                                  f"finished generations, more than {settings.generations}")
        say(f"{ckpt.folder}: resuming after generation {data['generation']}")
    else:
        data = {"format": FORMAT, "settings": compared, "generation": 0,
                "es": pickle.dumps(_new_optimizer(settings, space)), "log": [],
                "heldout": None}
    ran = 0
    from hansa_lab.errors import terminate_as_interrupt

    with terminate_as_interrupt():  # SIGTERM ends it like Ctrl-C: the checkpoint kept
        with progress_bar(settings.generations, initial=data["generation"], desc="tune",
                          unit="generation", enabled=bar) as generations:
            for g in range(data["generation"], settings.generations):
                if stop_after is not None and g >= stop_after:
                    return TuneResult(settings, {}, {}, data["log"], ckpt.folder, None, name,
                                      time.perf_counter() - t0, ran)
                data = _generation(settings, space, base, data, g, n_jobs, say)
                ckpt.save(data)
                ran += 1
                generations.update(1)
        es = pickle.loads(data["es"])
        final = _values(space, es.result.xfavorite)
        tuned = _strategy(base, final)
        hold = data.get("heldout")
        if hold is None or hold.get("games_asked") != settings.heldout_games or \
                hold.get("params") != final or "margin_gain" not in hold or \
                hold.get("versus") != _heldout_versus(settings, base):
            say(f"held-out check: {settings.heldout_games} games on new deals")
            hold = _heldout(settings, tuned, base, final, n_jobs)
            data = {**data, "heldout": hold}
            ckpt.save(data)
    _write_file(target, name, tuned, base, settings, space, data, command)
    return TuneResult(settings, final, hold, data["log"], ckpt.folder, target, name,
                      time.perf_counter() - t0, ran)


def _generation(s: TuneSettings, space: list[Param], base: Strategy, data: dict[str, Any],
                g: int, n_jobs: int, say: Callable[[str], None]) -> dict[str, Any]:
    """Play and tell generation ``g``; the new checkpoint data."""
    t0 = time.perf_counter()
    es = pickle.loads(data["es"])  # every generation starts from the pickled state
    us = _ask(es, s.seed, g)
    values = [_values(space, u) for u in us]
    mean = _values(space, es.result.xfavorite)
    incumbent = _strategy(base, mean)
    seeds = tuning_seeds(s.seed, g, s.deals)
    outcome = _play(s, [_strategy(base, v) for v in values], _opponents(s, incumbent),
                    seeds, n_jobs)
    margins = outcome[..., 0].mean(axis=(1, 2))
    wins = outcome[..., 1].mean(axis=(1, 2))
    fitness = margins if s.fitness == "margin" else wins
    es.tell(us, [-float(f) for f in fitness])
    new_mean = _values(space, es.result.xfavorite)
    record = {
        "generation": g, "seeds": [seeds[0], seeds[-1]], "games_per_candidate":
        len(seeds) * s.players, "incumbent": mean, "new_mean": new_mean,
        "sigma": float(es.sigma), "seconds": round(time.perf_counter() - t0, 2),
        "best_fitness": float(fitness.max()), "mean_fitness": float(fitness.mean()),
        "candidates": [{"params": v, "fitness": float(f), "margin": float(m),
                        "win_share": float(w)}
                       for v, f, m, w in zip(values, fitness, margins, wins, strict=True)],
    }
    best = values[int(np.argmax(fitness))]
    say(f"generation {g + 1}/{s.generations}: fitness ({s.fitness}) best "
        f"{fitness.max():+.3f}, mean {fitness.mean():+.3f} over {len(values)} candidates x "
        f"{record['games_per_candidate']} games ({record['seconds']:.1f} s); best "
        + ", ".join(f"{k}={v}" for k, v in best.items()) + "; new mean "
        + ", ".join(f"{k}={v}" for k, v in new_mean.items()))
    return {**data, "generation": g + 1, "es": pickle.dumps(es),
            "log": [*data["log"], record], "heldout": None}


def _heldout_versus(s: TuneSettings, base: Strategy) -> str:
    """Who the held-out check plays against, as a line-up of the other seats."""
    return ",".join(x.spec for x in _opponents(s, base))


def _heldout(s: TuneSettings, tuned: Strategy, base: Strategy, final: dict[str, Any],
             n_jobs: int) -> dict[str, Any]:
    """The held-out check (see the module doc): the tuned seat against the opponents it
    was tuned against (for self-play the base as given), on new deals. ``equal_margin``
    is the base's margin in the same seats, deals and opponents (the best of several
    opponents usually beats one seat), and ``margin_gain`` the tuned seat's margin minus
    the base's (paired, t interval over deals)."""
    n = s.players
    deals = -(-s.heldout_games // n)
    seeds = heldout_seeds(s.seed, deals)
    versus = _opponents(s, base)
    outcome = _play(s, [tuned], versus, seeds, n_jobs)[0]
    if s.opponents == "incumbent":
        # the base in every seat: one game per deal gives the base's margin in each seat
        equal = _run(s, [base], versus, [(seed, 0, 0) for seed in seeds], n_jobs)
    else:
        equal = _play(s, [base], versus, seeds, n_jobs)[0]
    wins = float(outcome[..., 1].sum())
    lo, hi = wilson_interval(wins, deals * n)
    margin, m_lo, m_hi = mean_interval(outcome[..., 0].mean(axis=1))
    gain, g_lo, g_hi = mean_interval((outcome[..., 0] - equal[..., 0]).mean(axis=1))
    return {
        "versus": ",".join(x.spec for x in versus), "games_asked": s.heldout_games,
        "games": deals * n, "deals": deals, "seeds": [seeds[0], seeds[-1]], "params": final,
        "win_share": wins / (deals * n), "win_lo": lo, "win_hi": hi, "fair_share": 1 / n,
        "margin": margin, "margin_lo": m_lo, "margin_hi": m_hi,
        "equal_margin": float(equal[..., 0].mean()),
        "base_win_share": float(equal[..., 1].mean()),
        "margin_gain": gain, "margin_gain_lo": g_lo, "margin_gain_hi": g_hi,
    }


def _finite(x: Any) -> Any:
    """``x`` with every NaN or infinity left out (TOML has none; e.g. the interval of
    a held-out check of one deal)."""
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return None if isinstance(x, float) and not math.isfinite(x) else x


def _write_file(target: Path, name: str, tuned: Strategy, base: Strategy, s: TuneSettings,
                space: list[Param], data: dict[str, Any], command: str | None) -> None:
    import cma

    from hansa_lab.sim.provenance import git_info

    cls = type(tuned)
    params = {k: v for k, v in tuned.params.items()
              if cls.defaults.get(k) != v or k in s.params}
    log = data["log"]
    provenance = {
        "command": command,
        "base_spec": s.base,
        "board": s.board, "players": s.players, "edition": s.edition,
        "options": dict(s.options),
        "tuned": list(s.params),
        "bounds": {p.name: [p.low, p.high] for p in space},
        "optimiser": f"CMA-ES (cma {cma.__version__}), bounded, each parameter scaled to "
                     "[0, 1] between its bounds; result = the final mean",
        "population": s.population, "sigma0": s.sigma0, "generations": len(log),
        "games_per_candidate": s.deals * s.players, "seed": s.seed,
        "tuning_seeds": [s.seed, s.seed + len(log) * s.deals - 1],
        "opponents": s.opponents, "fitness": s.fitness,
        "final_mean_fitness": log[-1]["mean_fitness"] if log else None,
        "base_defaults": jsonable(cls.defaults),
        "git_commit": git_info()["commit"],
        "written": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "heldout": {k: v for k, v in data["heldout"].items() if k not in ("params",)},
    }
    n = s.players
    how = "by self-play" if s.opponents == "incumbent" else f"against {s.opponents}"
    held = data["heldout"]
    description = (f"{cls.name} tuned {how} (CMA-ES) for {n} players on {s.board} "
                   f"({s.edition}); held-out: win share {held['win_share']:.3f} "
                   f"vs {held['versus']} (fair {1 / n:.3f}), margin gain over the base in "
                   f"the same seat {held['margin_gain']:+.2f}")
    text = to_toml(name, cls.name, params, description, _finite(jsonable(provenance)))
    parse_strategy_file(text, str(target))  # reads back
    target.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(target, text.encode("utf-8"))
