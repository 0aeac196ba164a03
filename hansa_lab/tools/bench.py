"""Benchmarks: engine throughput with the baseline random policy (one process), the
runner's logging overhead, parallel speed-up and log sizes, and the margin of the
``mcts`` strategy over ``greedy`` (:func:`bench_mcts_vs_greedy`).

Prints figures; speed is never asserted by tests (the machine is shared and noisy).
"""

from __future__ import annotations

import math
import os
import pickle
import time
from dataclasses import dataclass
from typing import Any

from hansa_lab.compiled.bridge import timings
from hansa_lab.engine.board import BOARD_FAMILIES
from hansa_lab.engine.scoring import final_scores, ranking
from hansa_lab.engine.state import GameConfig
from hansa_lab.play import DEFAULT_ENGINE, engine_named, play_game, seat_players
from hansa_lab.play.core_game import play_match, play_random_games
from hansa_lab.play.engines import per_engine
from hansa_lab.stats.intervals import binomial_sf, wilson_interval
from hansa_lab.strategies import make_strategy


def bench_engine(
    n_players: int = 3,
    seconds: float = 10.0,
    board: str = "base",
    edition: str = "bigbox",
    first_seed: int = 0,
) -> dict[str, Any]:
    """Play seeded random games until ``seconds`` pass; count applied actions
    (legal-action generation and the policy included)."""
    games = actions = capped = 0
    sizes: list[int] = []
    t0 = time.perf_counter()
    seed = first_seed
    while time.perf_counter() - t0 < seconds:
        rec = play_game(GameConfig(n_players, board, edition, seed), ["random"] * n_players)
        games += 1
        actions += len(rec.actions)
        capped += rec.end_reason == "cap"
        if len(sizes) < 20:
            sizes.append(len(pickle.dumps(rec.final)))
        seed += 1
    elapsed = time.perf_counter() - t0
    return {
        "players": n_players,
        "board": board,
        "edition": edition,
        "seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "games_per_s": round(games / elapsed, 3),
        "capped_games": capped,
        "state_pickle_bytes_max": max(sizes),
    }


def bench_core(
    n_players: int = 3,
    seconds: float = 10.0,
    board: str = "base",
    edition: str = "bigbox",
    first_seed: int = 0,
) -> dict[str, Any]:
    """:func:`bench_engine` for the compiled core: the same seeded random games (random
    policy, legal-action generation included), played inside the core in chunks of seeds.
    Also: CPU seconds (the machine may be shared), nanoseconds per state copy, full
    legal-action list and score-if-ended-now (over the positions of 50 games), and the
    process's peak memory growth over 10,000 games in a row."""
    config = GameConfig(n_players, board, edition, first_seed)
    games = actions = capped = 0
    chunk = 16
    c0 = time.process_time()
    t0 = time.perf_counter()
    seed = first_seed
    while time.perf_counter() - t0 < seconds:
        g, a, c = play_random_games(config, list(range(seed, seed + chunk)))
        games += g
        actions += a
        capped += c
        seed += chunk
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    copy_ns, legal_ns, score_ns = timings(config, 50)
    rss0 = _peak_rss_kib()
    play_random_games(config, list(range(10_000)))
    return {
        "players": n_players,
        "board": board,
        "edition": edition,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "games": games,
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "actions_per_cpu_s": round(actions / cpu, 1) if cpu > 0 else None,
        "games_per_s": round(games / elapsed, 3),
        "capped_games": capped,
        "state_copy_ns": round(copy_ns, 1),
        "legal_actions_ns": round(legal_ns, 1),
        "score_ns": round(score_ns, 1),
        "peak_memory_growth_10000_games_kib": _peak_rss_kib() - rss0,
    }


def _peak_rss_kib() -> int:
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


#: each engine's own benchmark (:func:`bench_engines`)
_ENGINE_BENCHES = per_engine({"python": bench_engine, "core": bench_core}, "bench_engines")


def bench_engines(
    engine: str = DEFAULT_ENGINE,
    n_players: int = 3,
    seconds: float = 10.0,
    board: str = "base",
    edition: str = "bigbox",
) -> dict[str, Any]:
    """``engine``: ``core`` (:func:`bench_core`, the default), ``python``
    (:func:`bench_engine`) or ``both`` (one after the other in this run, with
    ``core_vs_python`` = the ratio of their actions/s)."""
    if engine != "both":
        name = engine_named(engine).name
        return {"engine": name, **_ENGINE_BENCHES[name](n_players, seconds, board, edition)}
    c0 = time.process_time()
    py = bench_engine(n_players, seconds, board, edition)
    py["cpu_seconds"] = round(time.process_time() - c0, 3)
    py["actions_per_cpu_s"] = round(py["actions"] / py["cpu_seconds"], 1)
    in_core = bench_core(n_players, seconds, board, edition)
    return {
        "engine": "both",
        "python": py,
        "core": in_core,
        "python_actions_per_s": py["actions_per_s"],
        "core_actions_per_s": in_core["actions_per_s"],
        "core_vs_python": round(in_core["actions_per_s"] / py["actions_per_s"], 1),
        "core_vs_python_cpu": round(in_core["actions_per_cpu_s"] / py["actions_per_cpu_s"],
                                    1),
    }


#: The strategies ``bench --suite strategies`` times: every one the core plays.
BENCH_STRATEGIES = ("random", "greedy", "actions_first", "blocker", "network_keys",
                    "keep_supply")


def bench_strategies(
    n_players: int = 4,
    games: int = 3,
    board: str = "base",
    edition: str = "bigbox",
    strategies: tuple[str, ...] = BENCH_STRATEGIES,
) -> dict[str, Any]:
    """Seconds per game with ``strategies[i]`` in every seat, in the Python engine and in
    the compiled core, on the same ``games`` seeds; the two engines alternate game by
    game (so a pause of the shared machine hits both alike) and must play the same game
    (same actions), else a RuntimeError. Per strategy: ``python_s_per_game``,
    ``core_s_per_game``, ``core_vs_python`` (the ratio), the mean actions per game, and
    the cost of full logs in the core: ``core_logged_s_per_game`` (:func:`record_game`
    with ``engine="core"``: the core's turns and events rows and the Python tables) and
    ``logging_cost`` = 1 − core time / logged core time (the share of core games/s that
    full logging costs)."""
    from hansa_lab.sim.logs import record_game

    out: dict[str, Any] = {"n_players": n_players, "board": board, "games": games}
    for name in strategies:
        lineup = [name] * n_players
        spent = {"python": 0.0, "core": 0.0, "logged": 0.0}
        actions = 0
        for seed in range(games):
            config = GameConfig(n_players, board, edition, seed)
            t0 = time.perf_counter()
            py = play_game(config, lineup)
            t1 = time.perf_counter()
            in_core = play_game(config, lineup, engine="core")
            t2 = time.perf_counter()
            record_game(config, lineup, seed, engine="core")
            t3 = time.perf_counter()
            if in_core.actions != py.actions:
                raise RuntimeError(f"{name}: the engines played different games (seed {seed})")
            spent["python"] += t1 - t0
            spent["core"] += t2 - t1
            spent["logged"] += t3 - t2
            actions += len(py.actions)
        out[name] = {
            "python_s_per_game": round(spent["python"] / games, 4),
            "core_s_per_game": round(spent["core"] / games, 5),
            "core_vs_python": round(spent["python"] / spent["core"], 1),
            "actions_per_game": round(actions / games, 1),
            "core_logged_s_per_game": round(spent["logged"] / games, 5),
            "logging_cost": round(1 - spent["core"] / spent["logged"], 3),
        }
    return out


def _timed_min(jobs: dict[str, Any], repeats: int) -> dict[str, float]:
    """Run every job ``repeats`` times, rotating their order, and keep each job's best
    time: on a shared machine a pause hits one run, not the minimum of several."""
    best = dict.fromkeys(jobs, float("inf"))
    names = list(jobs)
    for rep in range(repeats):
        for name in names[rep % len(names):] + names[: rep % len(names)]:
            t0 = time.perf_counter()
            jobs[name]()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def _ratios(best: dict[str, float], games: int) -> dict[str, Any]:
    """Games/s of every job, and per job other than ``engine``: its time over the engine's
    (``ratio``) and the share of engine throughput it costs (``1 − engine/job``)."""
    out: dict[str, Any] = {"games": games}
    for name, t in best.items():
        out[f"{name}_games_per_s"] = round(games / t, 2)
    for name, t in best.items():
        if name != "engine":
            out[f"{name}_ratio"] = round(t / best["engine"], 3)
            out[f"{name}_throughput_cost"] = round(1 - best["engine"] / t, 3)
    return out


def _engine_only(engine: str, config: GameConfig, lineup: list[str]) -> Any:
    """Play a game without logs in ``engine`` (the core: its match loop, no rows)."""
    if engine_named(engine).name == "python":
        return play_game(config, lineup)
    players, rngs = seat_players(config, lineup, config.seed)
    return play_match(config, players, rngs, log=False).final()


def _logging_overhead(n_players: int, board: str, edition: str, n_seeds: int,
                      engine: str) -> dict[str, Any]:
    """Engine-only vs fully logged (:func:`record_game`) time in ``engine`` on the same
    seeded random games: per game the best of three runs, order rotated."""
    from hansa_lab.sim.logs import record_game

    best = {"engine": 0.0, "logged": 0.0}
    lineup = ["random"] * n_players
    for seed in range(n_seeds):
        config = GameConfig(n_players, board, edition, seed)
        times = _timed_min({
            "engine": lambda c=config: _engine_only(engine, c, lineup),
            "logged": lambda c=config, s=seed: record_game(c, lineup, s, engine=engine),
        }, 3)
        for k, v in times.items():
            best[k] += v
    return _ratios(best, n_seeds)


def _runner_overhead(n_players: int, board: str, edition: str, games: int,
                     out: Any, engine: str) -> dict[str, Any]:
    """End to end: :func:`simulate` (serial, one chunk, written as parquet) with
    ``log="full"`` and ``log="summary"`` vs :func:`play_game` on the same games; best
    of three runs each, order rotated."""
    from hansa_lab.sim.runner import simulate

    kwargs: dict[str, Any] = {"n_games": games, "n_players": n_players, "board": board,
                              "edition": edition, "chunk_size": games, "n_jobs": 1,
                              "progress": False, "force": True, "engine": engine}
    seeds = [int(s) for s in simulate(["random"], log="summary", **kwargs).games.seed]
    configs = [GameConfig(n_players, board, edition, s) for s in seeds]
    lineup = ["random"] * n_players
    best = _timed_min({
        "engine": lambda: [_engine_only(engine, c, lineup) for c in configs],
        "full": lambda: simulate(["random"], log="full", out=out / "full", **kwargs),
        "summary": lambda: simulate(["random"], log="summary", out=out / "summary", **kwargs),
    }, 3)
    return _ratios(best, games)


def _spin(n: int) -> int:
    """A pure-CPU Python loop (the machine's own parallel speed-up reference)."""
    acc = 0
    for i in range(n):
        acc = (acc + i * i) % 1_000_003
    return acc


def bench_runner(
    n_players: int = 4,
    games: int = 96,
    board: str = "base",
    edition: str = "bigbox",
    repeats: int = 2,
    engine: str = DEFAULT_ENGINE,
) -> dict[str, Any]:
    """Figures for the runner (printed by ``hansa-lab bench --suite runner``), every game
    played with ``engine`` (``core`` or ``python``):

    - ``logging``: engine-only games/s (:func:`play_game`) vs fully logged games/s
      (:func:`record_game`: the game played with the recorder, its rows and columns
      built) on the same seeded random games, best of three runs per game;
      ``logged_ratio`` = logged time / engine time, ``logged_throughput_cost`` = the
      share of engine throughput logging costs (1 − engine time / logged time);
      ``logging_by_players``: the same for every player count of the board;
    - ``end_to_end``: serial :func:`simulate` of ``games`` games in one chunk written as
      parquet, with full logs and with ``log="summary"``, vs play_game on the same games
      (the runner's own work: rows to DataFrames, parquet, manifest);
    - ``parallel``: wall time of :func:`simulate` (``games`` games to parquet) with
      ``n_jobs=1`` and ``2`` and the speed-up, next to the speed-up of a pure-CPU Python
      loop run by joblib with ``n_jobs=1`` and ``2`` — what this machine allows right
      now. Each run is repeated (order rotated) and its best time counts; the worker
      pool is warmed up first;
    - ``logs_per_1000_games``: rows, in-memory bytes (``memory_usage(deep=True)``) and
      parquet bytes on disk per table, scaled to 1,000 games, from a serial run with the
      default chunk size (each parquet file has a fixed overhead).
    """
    import tempfile
    from pathlib import Path

    from joblib import Parallel, delayed

    from hansa_lab.sim.experiment import DEFAULT_CHUNK_SIZE
    from hansa_lab.sim.runner import simulate

    # (a) logging overhead ------------------------------------------------------------
    n_seeds = max(4, games // 4)
    counts = sorted(k for k in BOARD_FAMILIES.get(board, {n_players: None}) if k >= 2)
    logging_by_players = {
        f"{k}p": _logging_overhead(k, board, edition, n_seeds, engine)
        for k in {*counts, n_players}
    }
    logging = logging_by_players[f"{n_players}p"]

    # (b) parallel speed-up -------------------------------------------------------------
    chunk = max(1, games // 8)
    kwargs: dict[str, Any] = {"n_games": games, "n_players": n_players, "board": board,
                              "edition": edition, "chunk_size": chunk, "progress": False,
                              "engine": engine}
    t0 = time.perf_counter()
    _spin(200_000)
    per_iter = (time.perf_counter() - t0) / 200_000
    n_tasks = 8
    n_iter = max(10_000, int(1.0 / per_iter / n_tasks))  # ~1 s of serial work in all
    with tempfile.TemporaryDirectory() as tmp:
        simulate(["random"], n_games=n_players, n_players=n_players, n_jobs=2, progress=False,
                 engine=engine)
        Parallel(n_jobs=2)(delayed(_spin)(1000) for _ in range(4))  # warm the pool
        out = Path(tmp)
        end_to_end = _runner_overhead(n_players, board, edition, games, out / "e2e", engine)
        best = _timed_min({
            f"{kind}{jobs}": (
                lambda j=jobs: simulate(["random"], n_jobs=j, out=out / f"j{j}", force=True,
                                        **kwargs)
            ) if kind == "runner" else (
                lambda j=jobs: Parallel(n_jobs=j)(delayed(_spin)(n_iter)
                                                  for _ in range(n_tasks))
            )
            for jobs in (1, 2) for kind in ("runner", "loop")
        }, repeats)
        best_runner = {j: best[f"runner{j}"] for j in (1, 2)}
        best_loop = {j: best[f"loop{j}"] for j in (1, 2)}
        size_chunk = min(games, DEFAULT_CHUNK_SIZE)  # per-file overhead as in real runs
        res = simulate(["random"], n_jobs=1, out=out / "sizes",
                       **{**kwargs, "chunk_size": size_chunk})
        sizes: dict[str, Any] = {"chunk_size": size_chunk}
        n_games = len(res.games) + len(res.failures)
        for table in ("games", "players", "turns", "events"):
            df = res.read(table)
            disk = sum(f.stat().st_size for f in res.files(table))
            sizes[table] = {
                "rows": round(len(df) * 1000 / n_games),
                "memory_bytes": int(df.memory_usage(deep=True).sum() * 1000 / n_games),
                "parquet_bytes": int(disk * 1000 / n_games),
            }
        sizes["total"] = {k: sum(sizes[t][k] for t in ("games", "players", "turns", "events"))
                          for k in ("rows", "memory_bytes", "parquet_bytes")}
    runner_speedup = best_runner[1] / best_runner[2]
    loop_speedup = best_loop[1] / best_loop[2]
    return {
        "players": n_players,
        "board": board,
        "edition": edition,
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "logging": logging,
        "logging_by_players": {
            k: {"logged_ratio": v["logged_ratio"],
                "logged_throughput_cost": v["logged_throughput_cost"]}
            for k, v in sorted(logging_by_players.items())
        },
        "end_to_end": end_to_end,
        "parallel": {
            "games": games,
            "chunk_size": chunk,
            "runner_seconds": {f"n_jobs={k}": round(v, 3) for k, v in best_runner.items()},
            "runner_speedup": round(runner_speedup, 3),
            "cpu_loop_seconds": {f"n_jobs={k}": round(v, 3) for k, v in best_loop.items()},
            "cpu_loop_speedup": round(loop_speedup, 3),
            "runner_vs_machine": round(runner_speedup / loop_speedup, 3),
        },
        "logs_per_1000_games": sizes,
    }


# ---------------------------------------------------------------------- mcts vs greedy
@dataclass(frozen=True)
class _GameResult:
    seed: int
    seat: int
    win: float
    score: int
    diff: float  # own score minus the mean of the opponents' scores
    margin: int  # own score minus the best opponent's score
    seconds: float
    n_actions: int
    end_reason: str


def _bench_game(seed: int, seat: int, spec: str, opponent: str, n_players: int) -> _GameResult:
    specs = [opponent] * n_players
    specs[seat] = spec
    t0 = time.perf_counter()
    rec = play_game(GameConfig(n_players, seed=seed), specs)
    seconds = time.perf_counter() - t0
    scores = final_scores(rec.final)
    ranks = ranking(rec.final)
    win = 1.0 / ranks.count(1) if ranks[seat] == 1 else 0.0
    others = [x for p, x in enumerate(scores) if p != seat]
    return _GameResult(
        seed=seed,
        seat=seat,
        win=win,
        score=scores[seat],
        diff=scores[seat] - sum(others) / len(others),
        margin=scores[seat] - max(others),
        seconds=seconds,
        n_actions=len(rec.actions),
        end_reason=rec.end_reason,
    )


def bench_mcts_vs_greedy(
    n_games: int = 40,
    budget: int = 30,
    n_jobs: int = 2,
    *,
    first_seed: int = 0,
    n_players: int = 4,
    params: dict[str, Any] | None = None,
    opponent: str = "greedy",
) -> dict[str, Any]:
    """Play ``n_games`` games of one ``mcts`` (``iterations=budget`` plus ``params``)
    against ``n_players - 1`` copies of ``opponent`` on the base board: game ``g`` uses
    ``GameConfig(n_players, seed=first_seed + g)`` with mcts in seat ``g % n_players``.

    Returns the games, the win rate (a win shared by k tied players counts 1/k) with its
    95 % Wilson interval, the one-sided exact binomial p-value against the even share
    ``1 / n_players`` (ties rounded down: conservative), the mean score difference (mcts
    minus the mean of its opponents) with its standard error, the mean margin over the
    best opponent, and seconds per game (mean and max, wall time in the worker)."""
    from joblib import Parallel, delayed

    strategy = make_strategy("mcts", iterations=budget, **(params or {}))
    spec = strategy.spec
    t0 = time.perf_counter()
    jobs = (
        delayed(_bench_game)(first_seed + g, g % n_players, spec, opponent, n_players)
        for g in range(n_games)
    )
    results: list[_GameResult] = list(Parallel(n_jobs=n_jobs)(jobs))
    wall = time.perf_counter() - t0
    n = len(results)
    wins = sum(r.win for r in results)
    base = 1.0 / n_players
    lo, hi = wilson_interval(wins, n)
    diffs = [r.diff for r in results]
    mean_diff = sum(diffs) / n
    sd = math.sqrt(sum((d - mean_diff) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    secs = [r.seconds for r in results]
    return {
        "mcts": spec,
        "opponent": opponent,
        "players": n_players,
        "games": n,
        "first_seed": first_seed,
        "wins": wins,
        "win_rate": wins / n,
        "baseline": base,
        "wilson_95": (lo, hi),
        "p_value": binomial_sf(math.floor(wins), n, base),
        "mean_score_diff": mean_diff,
        "score_diff_se": sd / math.sqrt(n) if n else 0.0,
        "mean_margin_vs_best": sum(r.margin for r in results) / n,
        "seconds_per_game": sum(secs) / n,
        "max_seconds_per_game": max(secs),
        "wall_seconds": wall,
        "n_jobs": n_jobs,
        "games_detail": [r.__dict__ for r in results],
    }


def bench_env(n_players: int = 3, seconds: float = 10.0, board: str = "base",
              edition: str = "bigbox", n_envs: int = 128, threads: int = 2,
              rounds: int = 3) -> dict[str, Any]:
    """Figures for the environments for learning agents (``hansa-lab bench --suite env``),
    one process: the reference, the core's plain random games (actions/s, the random
    policy, legal actions included); the vector environment stepping ``n_envs`` games
    with the random policy on ``threads`` threads, and on 1 thread beside it when
    ``threads`` > 1 (env steps/s, observation and mask of every step included); the
    PettingZoo AEC environment stepping one game (steps/s: ``last()`` with observation and
    mask, then ``step`` with a random legal action). The phases take turns for ``rounds``
    rounds (``seconds`` in all) and each figure is the median of its rounds (the vector
    environment's best round beside it), since the machine may be shared; rates per wall
    second and per CPU second, each beside the reference."""
    import random
    import statistics

    from hansa_lab.env.aec import HansaEnv
    from hansa_lab.env.vector import VectorEnv

    config = GameConfig(n_players, board, edition, 0)
    seeds = iter(range(10**9))
    venvs = {t: VectorEnv(n_envs, n_players, board, edition, seed=1, threads=t)
             for t in dict.fromkeys((threads, 1))}
    for venv in venvs.values():
        venv.reset()
    env = HansaEnv(n_players=n_players, board=board, edition=edition)
    env.reset(seed=1)
    rng = random.Random(1)

    def aec_steps() -> int:
        for _ in range(100):
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                continue
            env.step(rng.choice(env.legal_actions()))
        return 100

    def stepper(venv: VectorEnv) -> Any:
        def run() -> int:
            venv.step_random()
            return n_envs
        return run

    phases: dict[str, Any] = {
        "reference": lambda: play_random_games(config, [next(seeds) for _ in range(16)])[1],
        "vector": stepper(venvs[threads]),
    }
    if threads > 1:
        phases["vector_1"] = stepper(venvs[1])
    phases["aec"] = aec_steps
    part = seconds / (len(phases) * rounds)
    wall: dict[str, list[float]] = {k: [] for k in phases}
    cpu: dict[str, list[float]] = {k: [] for k in phases}
    for _ in range(rounds):
        for name, run in phases.items():
            c0, t0 = time.process_time(), time.perf_counter()
            n = 0
            while time.perf_counter() - t0 < part:
                n += run()
            dt, dc = time.perf_counter() - t0, time.process_time() - c0
            wall[name].append(n / dt)
            cpu[name].append(n / dc if dc > 0 else math.nan)
    med = {k: statistics.median(v) for k, v in wall.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}

    def per_cpu(x: float) -> int | None:
        return None if math.isnan(x) else round(x)

    out = {
        "players": n_players,
        "board": config.side,
        "edition": edition,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpu_count": os.cpu_count(),
        "rounds": rounds,
        "reference_core_random_actions_per_s": round(med["reference"]),
        "reference_actions_per_cpu_s": per_cpu(med_cpu["reference"]),
        "vector_envs": n_envs,
        "vector_threads": threads,
        "vector_steps_per_s": round(med["vector"]),
        "vector_steps_per_s_best_round": round(max(wall["vector"])),
        "vector_steps_per_cpu_s": per_cpu(med_cpu["vector"]),
        "vector_vs_reference": round(med["vector"] / med["reference"], 3),
        "vector_vs_reference_per_cpu_s": (
            round(med_cpu["vector"] / med_cpu["reference"], 3)
            if not math.isnan(med_cpu["vector"] + med_cpu["reference"]) else None),
    }
    if threads > 1:
        out["vector_1_thread_steps_per_s"] = round(med["vector_1"])
        out["vector_thread_scaling"] = round(med["vector"] / med["vector_1"], 3)
    out.update({
        "aec_steps_per_s": round(med["aec"]),
        "aec_steps_per_cpu_s": per_cpu(med_cpu["aec"]),
        "aec_vs_reference": round(med["aec"] / med["reference"], 3),
        "observation_size": venvs[threads].obs_size,
        "action_index_size": venvs[threads].n_actions,
    })
    return out
